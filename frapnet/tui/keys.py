"""What each key does: a mixin of :class:`frapnet.tui.model.Screen`.

:meth:`KeysMixin.press` turns a key name into intents for the application: ``("act", [verb,
arg?])`` (send this action), ``("quit",)``, ``("chat",)`` (focus the chat line), ``("bell",
on)``, ``("rematch", accept)`` (the answer to a rematch offer) or nothing. Only actions listed in the view can be produced — a selection that matches no
legal action cannot be confirmed, and a toggle that could never lead to one is refused.
"""
from __future__ import annotations

from collections import Counter

from frapnet.tui.actions import DIGIT_KEYS, EXTRA_CARD_KEYS, RESERVED_KEYS, Group
from frapnet.tui.faces import card_face

CHROME_KEYS = {"=": "scores", "f2": "scores", "!": "bell", "f3": "bell"}


class KeysMixin:
    """Cursor, selection and key handling of the screen model."""

    def _reset_cursor(self, new_cards: Counter) -> None:
        """The cursor where the game says it starts (``ui.cursor``: a card the player can give
        away, F16/F17), else on the first choosable card not among ``new_cards``, else the first
        choosable card, else the first card."""
        row = self.row()
        ok = [i for i in range(len(row)) if self.choosable(i)]
        if self.active_group is not None and self.active_group.kind == "cards":
            ok = []  # toggling: nothing is "choosable" before a toggle is tried; start at the left
        start = self.ui.get("cursor")
        if start is not None:
            at = [i for i in ok if row[i] == start]
            if at:
                self.cursor = at[0]
                return
        old = [i for i in ok if not new_cards.get(row[i])]
        self.cursor = (old or ok or [0])[0]

    def _snap_cursor(self) -> None:
        row = self.row()
        if not row:
            self.cursor = 0
            return
        self.cursor = max(0, min(self.cursor, len(row) - 1))
        if not self.choosable(self.cursor) and (self.active_group is None or self.active_group.kind == "card"):
            for i in range(len(row)):
                if self.choosable(i):
                    self.cursor = i
                    break

    def _overlay_key(self, key: str):
        """Keys while a box is open over the table; None: not handled here."""
        if self.overlay == "quit":
            if key in ("y", "Y", "enter", "д", "c-c", "c-d", "q"):
                return [("quit",)]
            self.overlay = None
            return []
        if self.overlay == "scores" and key in ("left", "right"):  # a wide table's other players
            self.sheet_from = max(0, self.sheet_from + (1 if key == "right" else -1))
            return []
        if self.overlay in ("help", "scores"):
            self.overlay = None
            self.pending_scores = False
            if key in ("pageup", "pagedown", "q", "c-c", "c-d"):
                return None  # the box closes and the key does its job (q leaves the table)
            return []
        return None

    def press(self, key: str) -> list[tuple]:
        """Handle one key (prompt_toolkit names: ``"f"``, ``"1"``, ``"left"``, ``"enter"``, ``"space"``,
        ``"escape"``, ``"f1"``, ``"c-c"``, ``"c-d"``, ``"tab"``, ``"pageup"``, ``"pagedown"``; mouse:
        ``"card:I"``, ``"button:K"``). Returns the intents: ``[("act", action)]``, ``[("quit",)]``,
        ``[("chat",)]``, ``[("bell", on)]``, ``[("rematch", accept)]`` (then ``("quit",)`` after a
        no) or ``[]``."""
        done = self.rematch_key(key) if self.overlay != "quit" else None  # r / n: the rematch's answer
        if done is None:
            done = self._overlay_key(key)
        if done is not None:
            return done
        if key in ("pageup", "pagedown"):
            self.scroll_log(1 if key == "pageup" else -1)
            return []
        if key in ("q", "c-c", "c-d"):
            if self.mid_deal:
                self.overlay = "quit"
                return []
            return [("quit",)]
        if key in ("?", "f1"):
            self.overlay = "help"
            return []
        if self.overlay == "settlement":
            if key in ("enter", "space", "escape"):
                self.overlay = "scores" if self.pending_scores else None
            elif CHROME_KEYS.get(key) == "scores":  # the box says "= the score sheet"
                self.overlay = "scores"
            return []
        chrome = CHROME_KEYS.get(key)
        if chrome == "scores":
            self.overlay = "scores"
            return []
        if chrome == "bell":
            self.bell = not self.bell
            self.add_log("system", self._("Bell on: it rings when it is your turn.") if self.bell
                         else self._("Bell off."))
            return [("bell", self.bell)]
        if key in ("tab", "/"):
            if self.ended:  # nobody would read it: the connection is over
                self.message = self.ended_message()
                return []
            return [("chat",)]
        if key == ".":
            if not self.show_last_trick and not self.trick_cards(last=True):
                # a deal's first trick is not taken yet: say so rather than show an empty column
                self.message = self._("No trick has been taken yet in this deal, so there is no last trick to show.")
                return []
            self.show_last_trick = not self.show_last_trick
            self.message = ""
            return []
        return self._game_key(key)

    def _game_key(self, key: str) -> list[tuple]:
        if self.ended:  # the connection is over: no key acts, and the screen says why
            self.message = self.ended_message()
            return []
        if self.status == "reconnecting" and key not in ("left", "right", "home", "end"):  # nothing would reach the host
            self.message = self._("The connection is lost — reconnecting…; you can play again once the table is back.")
            return []
        self.message = ""
        row = self.row()
        g = self.active_group
        if key.startswith("button:"):
            key = key[7:]
        if key in self.keys:
            item = self.keys[key]
            if isinstance(item, Group):
                self.mode = item.verb
                self.selected = set()
                self._snap_cursor()
                return []
            return [("act", item[0])]
        hint = self.ui.get("hints", {}).get(key)
        if hint:  # the game says why this key does nothing now (Frap F16: look first, then [t])
            self.message = hint
            return []
        if key.startswith("card:"):
            try:
                i = int(key[5:])
            except ValueError:
                return []
            if not 0 <= i < len(row):
                return []
            return self._choose(i)
        if key in DIGIT_KEYS and len(key) == 1:
            i = DIGIT_KEYS.index(key)
            return self._choose(i, key) if i < len(row) else []
        extra = self.extra_card_keys()
        if len(key) == 1 and key in extra:
            i = 10 + extra.index(key)
            return self._choose(i, key) if i < len(row) else []
        if key in ("left", "right", "home", "end"):
            if row:
                step = {"left": -1, "right": 1}.get(key)
                if step is None:
                    self.cursor = 0 if key == "home" else len(row) - 1
                else:
                    self.cursor = (self.cursor + step) % len(row)
            return []
        if key == "space" and g is not None and g.kind == "cards":
            return self._choose(self.cursor) if row else []
        if key in ("enter", "space"):
            if g is None:
                return []
            if g.kind == "cards":
                ch = self.chosen_action()
                if ch is None:
                    lo, hi = self.counts() or (0, 0)
                    self.message = self._("Choose {lo}–{hi} cards first.").format(lo=lo, hi=hi) if lo != hi else \
                        self._("Choose {n} cards first.").format(n=lo)
                    return []
                self.selected = set()
                return [("act", ch[0])]
            return self._choose(self.cursor) if row else []
        return []

    def refusal(self, card: str) -> str:
        """Why ``card`` cannot be chosen: the game's reason (``ui.refusals``, the rule in words:
        "Q♠ cannot be played now: you must follow suit ♥"), else a neutral line."""
        why = self.ui.get("refusals", {}).get(card)
        if why:
            return why
        return self._("{card} cannot be chosen now.").format(card=card_face(card, self.lang))

    def extra_card_keys(self) -> str:
        """The keys of cards 11, 12, … on the hand row: letters no action uses now."""
        return "".join(c for c in EXTRA_CARD_KEYS if c not in self.keys and c not in RESERVED_KEYS)

    def card_key(self, i: int) -> str:
        """The key that chooses the card at row position ``i``: 1…9, 0, then letters; "" if none."""
        if i < len(DIGIT_KEYS):
            return DIGIT_KEYS[i]
        extra = self.extra_card_keys()
        return extra[i - len(DIGIT_KEYS)] if i - len(DIGIT_KEYS) < len(extra) else ""

    def _choose(self, i: int, key: str = "") -> list[tuple]:
        """Play/choose (card group) or toggle (cards group) the card at row position ``i``. A
        card not in the hand (Frap F16: taking the turn-up and discarding the turn-up itself) is
        chosen by its ``key`` only when pressed a second time (or by Enter on it): the first press
        moves the cursor there and says what it would do — one key must not throw the top trump
        away for a player who meant to take it."""
        row = self.row()
        g = self.active_group
        if g is None or not 0 <= i < len(row):
            return []
        card = row[i]
        if key and g.kind == "card" and card not in (self.hand or []) and self.cursor != i and self.choosable(i):
            self.cursor = i
            self.message = self._("{card} is not in your hand: press {key} again (or Enter) to choose it — "
                                  "{what}.").format(card=card_face(card, self.lang), key=key,
                                                     what=next((lab for a, lab in g.actions if a[1] == card), ""))
            return []
        if g.kind == "cards" or self.choosable(i):
            self.cursor = i  # the cursor follows a chosen card (not a refused one)
        if not self.choosable(i):
            self.message = self.refusal(card)
            return []
        if g.kind == "card":
            for a, _lab in g.actions:
                if a[1] == card:
                    return [("act", a)]
            return []
        self.selected ^= {i}
        return []
