"""The terminal client's screen model: what is shown and what each key does, without a terminal.

:class:`Screen` holds the last view the host sent (engine ``view`` + ``names``, ``connection``,
``table``), the log, the chat and the connection status, and the player's selection (cursor,
toggled cards, which card action the hand is choosing for). :meth:`Screen.press` turns a key
name into intents for the application: ``("act", [verb, arg?])`` (send this action),
``("quit",)``, ``("chat",)`` (focus the chat line) or nothing.

It works on any game from the view's generic keys: an action whose argument is a card (Frap's
``play``, ``discard``, ``take_trump``) is chosen on the hand with a digit or the arrows; an
action whose argument is a list of cards (``buy``) by toggling cards, with the counts the legal
actions allow; every other action gets a letter. Only actions listed in ``view["actions"]`` can
be produced — a selection that matches no legal action cannot be confirmed, and a toggle that
could never lead to one is refused (F9: cards are named only once the seat has looked, F15, F20).
"""
from __future__ import annotations

from collections import Counter, deque
from typing import Any, Callable

from frapnet.tui.text import fmt_amount, safe_name, safe_text

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
RANK_VALUE = {r: i + 2 for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
SUIT_ORDER = ("S", "H", "D", "C")

# Stable letters for well-known verbs (the same key in every phase and language); any other
# verb gets the first free letter of its name, then of the alphabet.
VERB_KEYS = {
    "look": "l", "pass": "p", "frap": "f", "blind_frap": "b", "whist": "w", "cut_in": "c",
    "cut_in_trump": "t", "decline": "d", "take_trump": "t", "buy": "u", "discard": "x", "play": "y",
}
RESERVED_KEYS = frozenset("q")  # the chrome's letter (quit), never given to an action
DIGIT_KEYS = "1234567890"
# cards 11, 12, … of a long hand (Frak You deals 13): these letters, skipping any an action uses
EXTRA_CARD_KEYS = "zxvnmjkhgsdae"

LOG_LINES = 500


# --- cards ------------------------------------------------------------------------------------

def is_card(x) -> bool:
    """A string that looks like a card (rank then a suit letter, or a joker)."""
    return isinstance(x, str) and (x in ("RJ", "BJ") or (2 <= len(x) <= 3 and x[-1] in SUIT_SYMBOLS
                                                         and x[:-1] in RANK_VALUE))


def card_suit(card: str) -> str | None:
    return card[-1] if is_card(card) and card not in ("RJ", "BJ") else None


def card_face(card) -> str:
    """The short face of a card: ``"10♥"``, ``"Q♠"``; jokers ``"Jk"``; anything else made safe."""
    if card in ("RJ", "BJ"):
        return "Jk"
    if is_card(card):
        return card[:-1] + SUIT_SYMBOLS[card[-1]]
    return safe_text(card, 4)


def card_red(card) -> bool:
    """Hearts, diamonds and the red joker are drawn in red."""
    return card == "RJ" or card_suit(card) in RED_SUITS


def hand_order(cards, trump: str | None = None) -> list:
    """``cards`` sorted for the eye: by suit (trumps first, then ♠♥♦♣), high rank first."""
    order = list(SUIT_ORDER)
    if trump in order:
        order.remove(trump)
        order.insert(0, trump)

    def key(c):
        s = card_suit(c)
        return (order.index(s) if s in order else 9, -RANK_VALUE.get(c[:-1], 20) if s else 0,
                c if isinstance(c, str) else "")
    return sorted((c for c in cards if isinstance(c, str)), key=key)


# --- actions ----------------------------------------------------------------------------------

class Group:
    """The legal actions of one verb. ``kind``: ``"simple"`` (each action a button), ``"card"``
    (argument is one card: chosen on the hand), ``"cards"`` (argument a list of cards: toggled).
    ``actions`` is a list of ``(wire_action, label)``; ``key`` the letter switching the hand to
    this group (card kinds) or None."""

    def __init__(self, verb: str, kind: str):
        self.verb = verb
        self.kind = kind
        self.actions: list[tuple[list, str]] = []
        self.key: str | None = None

    @property
    def title(self) -> str:
        """A label for the whole group: what its actions' labels share once the cards they name
        are taken out (``"Play 8♠"`` → ``"Play"``, ``"Buy: discard 9♥ J♦"`` → ``"Buy: discard"``)."""
        labels = []
        for a, lab in self.actions:
            if len(a) < 2 or not a[1]:
                continue
            cards = a[1] if isinstance(a[1], list) else [a[1]]
            for c in cards:
                lab = lab.replace(card_face(c), "")
            labels.append(" ".join(lab.split()))
        if not labels:
            labels = [lab for a, lab in self.actions]
        if not labels:
            return self.verb.replace("_", " ")
        pre = labels[0]
        for lab in labels[1:]:
            while not lab.startswith(pre):
                pre = pre[:-1]
        pre = pre.rstrip(" :,;-")
        # never leave a bracket open ("Lead 7♥ (trump ♥)", "Lead 8♣ (trump ♣)" → "Lead")
        depth, cut_at = 0, None
        for i, ch in enumerate(pre):
            if ch == "(":
                if depth == 0:
                    cut_at = i
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
                if depth == 0:
                    cut_at = None
        if cut_at is not None:
            pre = pre[:cut_at].rstrip(" :,;-")
        return pre or self.verb.replace("_", " ")

    def candidates(self) -> list:
        """Card kind: the cards that may be chosen, in the order listed."""
        return [a[1] for a, _ in self.actions]

    def sets(self) -> list[tuple[Counter, list, str]]:
        """Cards kind: each legal choice as ``(multiset of cards, action, label)`` (a double pack,
        La Krap L2, can hold the same card twice)."""
        return [(Counter(a[1]), a, lab) for a, lab in self.actions]


def _within(small: Counter, big: Counter) -> bool:
    """Every card of ``small`` is in ``big`` at least as often."""
    return all(big[k] >= v for k, v in small.items())


def _label(item) -> str:
    return safe_text(item.get("label"), 60) if isinstance(item, dict) else ""


def group_actions(actions, hand_known: bool) -> list[Group]:
    """Group ``view["actions"]`` by verb, in the order first listed (see :class:`Group`). Items that
    are not ``{"action": [verb, arg?], "label": str}`` are ignored."""
    groups: dict[str, Group] = {}
    for item in actions or ():
        if not isinstance(item, dict):
            continue
        act = item.get("action")
        if not isinstance(act, (list, tuple)) or not act or not isinstance(act[0], str):
            continue
        act = list(act)
        verb = act[0]
        if len(act) == 1:
            kind = "simple"
        elif is_card(act[1]):
            kind = "card"
        elif isinstance(act[1], (list, tuple)) and all(is_card(c) for c in act[1]):
            kind = "cards" if hand_known else "simple"
            act = [verb, list(act[1])]
        else:
            kind = "simple"
        g = groups.get(verb)
        if g is None or (g.kind != kind and "simple" in (g.kind, kind)):
            key = verb if g is None else f"{verb}\x00{kind}"
            g = groups.get(key)
            if g is None:
                g = groups[key] = Group(verb, kind)
        g.actions.append((act, _label(item) or " ".join(str(x) for x in act)))
    return list(groups.values())


def assign_keys(groups: list[Group]) -> dict[str, tuple[list, str] | Group]:
    """Letters for simple actions (one each) and for card groups when there is more than one
    (to switch the hand between them). Returns ``{letter: (action, label) or Group}``."""
    taken = set(RESERVED_KEYS)
    out: dict = {}
    hand_groups = [g for g in groups if g.kind != "simple"]
    wanted = []
    digits = iter(DIGIT_KEYS)
    for g in groups:
        int_args = all(len(a[0]) == 2 and _int(a[0][1]) is not None for a in g.actions)
        if g.kind == "simple" and (len(g.actions) > 1 or int_args) and not hand_groups:
            # several actions of one verb (Napoleon's "Bid 1"…"Bid 5") and no card to choose:
            # the digits are free. When each argument is a number 0…9 the key is that number
            # (key 3 bids 3, whatever was bid before); otherwise they are numbered 1, 2, …
            args = [a[0][1] if len(a[0]) == 2 else None for a in g.actions]
            if all(_int(x) is not None and 0 <= x <= 9 for x in args) and len(set(args)) == len(args) \
                    and not any(str(x) in out for x in args):
                for x, a in zip(args, g.actions):
                    out[str(x)] = a
                continue
            for a in g.actions:
                d = next(digits, None)
                if d is None:
                    wanted.append((g.verb, a))
                else:
                    out[d] = a
        elif g.kind == "simple":
            wanted.extend((g.verb, a) for a in g.actions)
        elif len(hand_groups) > 1:
            wanted.append((g.verb, g))
    # first pass: preferred letters; second pass: letters of the verb; then any letter
    pending = []
    for verb, item in wanted:
        k = VERB_KEYS.get(verb)
        if k and k not in taken and not (isinstance(item, tuple) and sum(1 for v, _ in wanted if v == verb) > 1):
            taken.add(k)
            out[k] = item
        else:
            pending.append((verb, item))
    for verb, item in pending:
        k = next((c for c in verb.lower() if "a" <= c <= "z" and c not in taken), None)
        if k is None:
            k = next((c for c in "abcdefghijklmnoprstuvwxyz" if c not in taken), None)
        if k is None:
            continue
        taken.add(k)
        out[k] = item
    for k, item in out.items():
        if isinstance(item, Group):
            item.key = k
    return out


# --- the view, checked -----------------------------------------------------------------------

def _int(x):
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def _str(x):
    return x if isinstance(x, str) else None


def clean_view(v: dict) -> dict:
    """The view with every generic key of the wrong type replaced by its empty value, so that a
    buggy or hostile host cannot crash the client (keys not listed here are kept as sent)."""
    out = dict(v)
    lists = {k: v.get(k) if isinstance(v.get(k), list) else [] for k in
             ("names", "connection", "seats", "actions", "to_act", "trick", "last_trick", "balances",
              "dead_turn_ups")}
    out.update(lists)
    out["names"] = [n if isinstance(n, str) else safe_text(n) for n in lists["names"]]
    out["connection"] = [c if isinstance(c, str) else "" for c in lists["connection"]]
    out["seats"] = [x if isinstance(x, dict) else {} for x in lists["seats"]]
    out["to_act"] = [x for x in lists["to_act"] if _int(x) is not None]
    for k in ("trick", "last_trick"):
        out[k] = [list(t) for t in lists[k] if isinstance(t, (list, tuple)) and len(t) == 2
                  and _int(t[0]) is not None and isinstance(t[1], str)]
    out["dead_turn_ups"] = [c for c in lists["dead_turn_ups"] if isinstance(c, str)]
    for k in ("players", "seat", "hand_count", "talon", "last_winner", "dealer", "deal_no", "round", "pot"):
        out[k] = _int(v.get(k))
    if out["players"] is not None and not 0 < out["players"] <= 64:
        out["players"] = None
    for k in ("trump", "turn_up", "phase", "phase_label", "ledger", "table", "title", "game"):
        out[k] = _str(v.get(k))
    h = v.get("hand")
    out["hand"] = [c for c in h if isinstance(c, str)] if isinstance(h, list) else None
    out["last_report"] = v.get("last_report") if isinstance(v.get("last_report"), dict) else None
    out["match_over"] = v.get("match_over") is True
    return out


def _in_deal(v: dict) -> bool:
    """The view is of a deal being played (someone to act, or a phase other than done)."""
    return bool(v.get("to_act")) or (v.get("phase") not in (None, "done"))


def report_balances(report: dict):
    """A deal report's balances or points after the deal (``balances``, ``points_after`` or
    ``points``), or None."""
    for k in ("balances", "points_after", "points"):
        b = report.get(k)
        if isinstance(b, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in b):
            return b
    return None


def table_rules_lines(welcome: dict, _: Callable[[str], str]) -> list[str]:
    """The table's game, options and house rules in a few plain lines (F27), from the welcome.

    Everything comes from the host, so names and values are made safe for the terminal.
    """
    title = safe_text(welcome.get("title") or welcome.get("game") or "", 30)
    options = welcome.get("options") if isinstance(welcome.get("options"), dict) else {}
    parts = []
    for k, v in list(options.items())[:24]:
        if isinstance(v, bool):
            v = _("on") if v else _("off")
        parts.append(f"{safe_text(k, 24).replace('_', ' ')} {safe_text(str(v), 24)}")
    lines = [_("Table rules — {game}: {options}").format(game=title, options=", ".join(parts) or "—")]
    hrs = welcome.get("house_rules") if isinstance(welcome.get("house_rules"), list) else []
    names = [safe_text(str(h), 30) for h in hrs[:12]]
    lines.append(_("House rules: {names}").format(names=", ".join(names) if names else _("none")))
    return lines


# --- the screen model -------------------------------------------------------------------------

class Screen:
    """Everything the client shows, and the player's selection. Pure: no terminal, no network.

    Feed it with :meth:`set_welcome`, :meth:`set_view`, :meth:`add_event`, :meth:`add_chat`,
    :meth:`add_error`, :meth:`set_status`; read :attr:`view` and the derived properties; send it
    keys with :meth:`press`. ``_`` is the chrome's gettext function (i18n.translation(lang)).
    """

    def __init__(self, gettext: Callable[[str], str] | None = None, lang: str = "en"):
        self._ = gettext or (lambda s: s)
        self.lang = lang
        self.view: dict | None = None
        self.welcome: dict | None = None
        self.status = "connecting"
        self.log: deque[tuple[str, str]] = deque(maxlen=LOG_LINES)
        self.overlay: str | None = None           # "help", "quit", "settlement" or None
        self.settlement: dict | None = None
        self.show_last_trick = False
        self.cursor = 0
        self.selected: set = set()
        self.mode: str | None = None              # verb of the card group the hand chooses for
        self.message = ""                         # a one-line hint after a refused key
        self.groups: list[Group] = []
        self.keys: dict = {}
        self._actions_sig = None
        self._bases: dict[int, list] = {}         # deal_no → balances before that deal
        self._settled: set = set()                # deal numbers whose settlement was shown
        self._trick_money: dict[int, list] = {}   # deal_no → trick money per seat (from events)
        self._whole: set = set()                  # deals whose every event this client saw
        self.closed: str | None = None            # the host's reason, once the table has closed
        self.local = False                        # the host runs in this process (frapnet play)
        self._turn_up_seen: set = set()           # deals that showed a turn-up card (F10)
        self.fair_deal: int | None = None         # the last deal whose shuffle checked (docs/fairness.md)
        self.unfair: list[int] = []               # deals that failed the fairness check

    # --- input from the connection -----------------------------------------------------------

    def set_welcome(self, info: dict) -> None:
        """The host's welcome: remember it, and show the table's rules once (F27: every option
        and house rule is shown to every joining player)."""
        first = self.welcome is None
        self.welcome = info if isinstance(info, dict) else {}
        if first:
            for line in table_rules_lines(self.welcome, self._):
                self.add_log("rules", line)

    def set_status(self, status: str) -> None:
        """``connecting``, ``connected``, ``reconnecting`` or ``closed`` (the TableClient's)."""
        _ = self._
        if status == self.status:
            return
        if status == "reconnecting":
            self.add_log("status", _("Connection lost — reconnecting…"))
            self._whole.discard((self.view or {}).get("deal_no"))  # events may be missed meanwhile
        elif status == "connected" and self.status == "reconnecting":
            self.add_log("status", _("Reconnected; the table is back."))
        elif status == "closed":
            self.add_log("status", _("The connection is closed."))
        self.status = status

    def set_view(self, view: dict) -> None:
        """A new view from the host: recompute the offered actions, keep a still-valid selection."""
        if not isinstance(view, dict):
            return
        view = clean_view(view)
        prev = self.view
        self.view = view
        n = self.players
        dn = view.get("deal_no")
        lr = view.get("last_report") if isinstance(view.get("last_report"), dict) else None
        in_deal = _in_deal(view)
        if isinstance(dn, int) and dn not in self._bases and in_deal:
            if lr and report_balances(lr) is not None:
                self._bases[dn] = list(report_balances(lr))
            elif dn == 1:
                self._bases[dn] = [0] * n
        if prev is None and lr and isinstance(dn, int):
            self._settled.add(dn if not in_deal else dn - 1)  # a report older than our arrival
        if lr and isinstance(dn, int) and not in_deal and dn not in self._settled:
            self.show_settlement(lr, dn)
        elif not in_deal:
            self._fill_settlement(view)
        if isinstance(dn, int) and view.get("turn_up"):
            self._turn_up_seen.add(dn)
        hand_known = isinstance(view.get("hand"), list)
        sig = (repr(view.get("actions")), hand_known, repr(view.get("hand")))
        if sig != self._actions_sig:
            self._actions_sig = sig
            self.groups = group_actions(view.get("actions"), hand_known)
            self.keys = assign_keys(self.groups)
            hg = [g.verb for g in self.groups if g.kind != "simple"]
            old_mode = self.mode
            if self.mode not in hg:
                self.mode = hg[0] if hg else None
            self.selected = set()  # positions on the hand row: a new hand or new choices start afresh
            old_hand = prev.get("hand") if isinstance(prev, dict) else None
            if old_hand != view.get("hand") or old_mode != self.mode:
                # a new hand (bought, discarded, cut in) or a new choice: the cursor starts on the
                # first card that may be chosen, so Enter never plays a card by accident — and
                # not on a card just taken into the hand (the cut-in's turn-up, F17)
                if old_hand:
                    fresh = Counter(view.get("hand") or ()) - Counter(old_hand)
                else:  # the hand was face down: the turn-up shown before is the card just taken
                    tu = prev.get("turn_up") if isinstance(prev, dict) else None
                    fresh = Counter([tu] if tu and tu in (view.get("hand") or ()) else [])
                self._reset_cursor(fresh)
            else:
                self._snap_cursor()
            self.message = ""

    def add_event(self, event: dict) -> None:
        """A public event from the host (with ``text`` in plain words): log it; settle at deal end."""
        if not isinstance(event, dict):
            return
        text = safe_text(event.get("text")) or safe_text(event.get("type", "?")).replace("_", " ")
        self.add_log("event", text)
        kind = event.get("type")
        v = self.view or {}
        dn = v.get("deal_no")
        if kind == "deal":
            new = event.get("deal_no") if isinstance(event.get("deal_no"), int) else (dn or 0) + 1
            self._trick_money[new] = [0] * self.players
            self._whole.add(new)
        elif kind == "trick" and isinstance(dn, int):
            w, amt = event.get("winner"), event.get("amount")
            if isinstance(w, int) and isinstance(amt, int) and 0 <= w < self.players:
                tm = self._trick_money.setdefault(dn, [0] * self.players)
                tm[w] += amt
        elif kind == "deal_end" and isinstance(event.get("report"), dict) and isinstance(dn, int):
            if dn not in self._settled:
                self.show_settlement(event["report"], dn)

    def set_closing(self, msg: dict) -> None:
        """The host closed the table (``{"reason": str, "result": {"balances": [...], "pot": n}}``):
        say so with the final balances; quitting no longer asks."""
        if self.closed is not None or not isinstance(msg, dict):
            return
        _ = self._
        reason = msg.get("reason")
        known = {"match over": _("match over"), "host stopping": _("the host is stopping")}
        self.closed = known.get(reason) or safe_text(reason or "", 80)
        res = msg.get("result") if isinstance(msg.get("result"), dict) else {}
        bal = res.get("balances") if isinstance(res.get("balances"), list) else None
        text = _("The table has closed ({reason}).").format(reason=self.closed)
        if bal:
            text += " " + _("Final balances:") + " " + ", ".join(
                f"{self.name(i)} {fmt_amount(b)}" for i, b in enumerate(bal))
        self.add_log("status", text)
        self.add_log("status", _("Press q to quit."))

    def add_chat(self, msg: dict) -> None:
        if not isinstance(msg, dict):
            return
        self.add_log("chat", f"<{safe_name(msg.get('name'))}> {safe_text(msg.get('text'), 500)}")

    def add_error(self, err: dict) -> None:
        if not isinstance(err, dict):
            return
        rule = err.get("rule")
        text = safe_text(err.get("message") or err.get("code"), 300)
        if rule:
            text += f" ({safe_text(rule, 12)})"
        self.add_log("error", text)
        self.message = text

    def add_fairness(self, verdict) -> None:
        """A deal checked after the host revealed its seed (a
        :class:`frapnet.net.dealcheck.Verdict`; docs/fairness.md): ✓ in the log and the status
        bar; a failed check is a loud warning naming the deal — in the log, the message line and
        the status bar, where it stays for the rest of the match."""
        _ = self._
        deal, status = getattr(verdict, "deal", "?"), getattr(verdict, "status", "")
        problem = safe_text(getattr(verdict, "problem", None) or "", 300)
        if status == "mismatch":
            text = _("⚠⚠ DEAL {n} FAILED THE FAIRNESS CHECK: {problem}").format(n=deal, problem=problem)
            self.unfair.append(deal)
            self.add_log("error", text)
            self.message = text
        elif status == "ok":
            self.fair_deal = deal
            self.add_log("status", _("✓ deal {n} is fair: every card you saw is where the shuffle put it").format(n=deal))
        elif status == "partial":
            self.fair_deal = deal
            self.add_log("status", _("✓ deal {n}: commitment and nonces check; cards not checked here").format(n=deal))
        else:
            self.add_log("status", _("Deal {n} was not checked (you did not see it from its start).").format(n=deal))

    def add_log(self, kind: str, text: str) -> None:
        """Append a line (``kind``: event, chat, status, error, system) to the log pane."""
        self.log.append((kind, safe_text(text)))

    # --- derived facts -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        v = self.view or {}
        n = v.get("players")
        if isinstance(n, int) and 0 < n <= 64:
            return n
        return len(v.get("names") or ()) or 0

    @property
    def seat(self):
        v = self.view or {}
        s = v.get("seat")
        return s if isinstance(s, int) else None

    def name(self, seat) -> str:
        """Seat ``seat``'s name, made safe and cut (:func:`safe_name`)."""
        names = (self.view or {}).get("names") or ()
        if isinstance(seat, int) and 0 <= seat < len(names):
            return safe_name(names[seat])
        return self._("Seat {n}").format(n=seat + 1) if isinstance(seat, int) else "?"

    def seat_info(self, seat: int) -> dict:
        seats = (self.view or {}).get("seats")
        if isinstance(seats, list) and 0 <= seat < len(seats) and isinstance(seats[seat], dict):
            return seats[seat]
        return {}

    def connection(self, seat: int) -> str:
        conn = (self.view or {}).get("connection")
        if isinstance(conn, list) and 0 <= seat < len(conn) and isinstance(conn[seat], str):
            return conn[seat]
        return ""

    @property
    def to_act(self) -> list:
        ta = (self.view or {}).get("to_act")
        return [s for s in ta if isinstance(s, int)] if isinstance(ta, list) else []

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    @property
    def mid_deal(self) -> bool:
        """A deal is being played and this client holds a seat (quitting asks first)."""
        v = self.view or {}
        return self.seat is not None and bool(self.to_act) and not v.get("match_over") and self.closed is None

    @property
    def turn_up_taken(self) -> bool:
        """This deal showed a turn-up that is gone now (Frap F16/F17: taken by the blind frapper
        or a cut-in). A game whose trump comes from elsewhere (Napoleon N: the first lead) never
        shows a turn-up, so this stays False there."""
        v = self.view or {}
        return bool(self.trump) and not v.get("turn_up") and v.get("deal_no") in self._turn_up_seen

    @property
    def trump(self):
        t = (self.view or {}).get("trump")
        return t if t in SUIT_SYMBOLS else None

    @property
    def hand(self) -> list | None:
        """The seat's cards sorted for the eye, or None while face down (F9) or for a spectator."""
        h = (self.view or {}).get("hand")
        if not isinstance(h, list):
            return None
        return hand_order(h, self.trump)

    @property
    def hand_count(self) -> int:
        v = self.view or {}
        h = v.get("hand")
        if isinstance(h, list):
            return len(h)
        c = v.get("hand_count")
        return c if isinstance(c, int) and 0 <= c <= 60 else 0

    @property
    def active_group(self) -> Group | None:
        for g in self.groups:
            if g.kind != "simple" and g.verb == self.mode:
                return g
        return None

    def row(self) -> list:
        """The cards on the hand row: the hand, then any card the active group may choose that
        is not in the hand (Frap F16: the turn-up the blind frapper may discard)."""
        hand = self.hand or []
        g = self.active_group
        if g is not None and g.kind == "card":
            extra = [c for c in g.candidates() if c not in hand]
            return hand + [c for i, c in enumerate(extra) if c not in extra[:i]]
        return hand

    def choosable(self, i: int) -> bool:
        """May the card at row position ``i`` be chosen (card group) or toggled (cards group) now?
        A toggle is allowed only if the choice it makes is part of some legal action."""
        row = self.row()
        g = self.active_group
        if g is None or not 0 <= i < len(row):
            return False
        if g.kind == "card":
            return row[i] in g.candidates()
        new = Counter(row[j] for j in self.selected ^ {i} if j < len(row))
        return any(_within(new, s) for s, _a, _l in g.sets())

    def selected_cards(self) -> list:
        """The cards toggled so far, in row order."""
        row = self.row()
        return [row[i] for i in sorted(self.selected) if i < len(row)]

    def chosen_action(self):
        """Cards group: the (action, label) the current selection makes, or None."""
        g = self.active_group
        if g is None or g.kind != "cards":
            return None
        cnt = Counter(self.selected_cards())
        for s, a, lab in g.sets():
            if s == cnt:
                return (a, lab)
        return None

    def counts(self) -> tuple[int, int] | None:
        """Cards group: the fewest and most cards a legal choice holds."""
        g = self.active_group
        if g is None or g.kind != "cards":
            return None
        sizes = [sum(s.values()) for s, _a, _l in g.sets()]
        return (min(sizes), max(sizes)) if sizes else None

    def buttons(self) -> list[tuple[str, str, Any]]:
        """The action row: ``(key, label, item)`` for each simple action (in the order the host
        listed them) and for each card group the hand is not choosing for now."""
        rev = {id(item): k for k, item in self.keys.items()}
        out = []
        for g in self.groups:
            if g.kind == "simple":
                for a in g.actions:
                    k = rev.get(id(a))
                    if k:
                        out.append((k, a[1], a))
            elif g.key and g.verb != self.mode:
                out.append((g.key, g.title + "…", g))
        return out

    def seat_declaration(self, seat: int) -> str:
        """The seat's declaration or bid in the chrome's words (frap, blind frap, whist, pass,
        cut-in; Napoleon's ``bid 3``, here, Napoleon): the seat entry's ``declaration``, else its
        ``bid``."""
        info = self.seat_info(seat)
        d = info.get("declaration")
        if d is None or d == "":
            d = info.get("bid")
        return self.bid_word(d)

    def trick_cards(self, last: bool = False) -> dict[int, str]:
        """The current (or last) trick as ``{seat: card}``."""
        v = self.view or {}
        t = v.get("last_trick" if last else "trick")
        out = {}
        if isinstance(t, list):
            for item in t:
                if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], int):
                    out[item[0]] = item[1]
        return out

    # --- settlement ----------------------------------------------------------------------------

    def show_settlement(self, report: dict, deal_no: int) -> None:
        """Build the settlement of deal ``deal_no`` from its report and open it over the table
        until dismissed. Generic (F23/F24 for Frap; N*, K*, L* rule books): the columns are the
        report's keys that exist — ``tricks``; Frap's trick money and ``remises``; ``bid`` of the
        ``declarer``; ``losers``; ``deal_points`` — then the change of balances/points over the
        deal (``ledger`` "chips" or "points") and the balance after it."""
        self._settled.add(deal_no)
        n = self.players
        v = self.view or {}
        after = report_balances(report)
        if after is None and not _in_deal(v) and isinstance(v.get("balances"), list):
            after = v["balances"]
        base = self._bases.get(deal_no)
        tm = self._trick_money.get(deal_no) if deal_no in self._whole else None  # no guessing after a gap
        frap_like = isinstance(report.get("remises"), list)

        def at(lst, i):
            return lst[i] if isinstance(lst, list) and i < len(lst) and isinstance(lst[i], int) else None

        losers = report.get("losers") if isinstance(report.get("losers"), list) else None
        declarer = _int(report.get("declarer"))
        rows = []
        for s in range(n):
            b = at(after, s)
            bid = None
            if declarer == s and report.get("bid") is not None:
                bid = self.bid_word(report.get("bid"))
            rows.append({
                "seat": s, "name": self.name(s), "tricks": at(report.get("tricks"), s),
                "trick_money": at(tm, s) if frap_like else None, "remise": at(report.get("remises"), s),
                "bid": bid, "lost": (s in losers) if losers is not None else None,
                "deal_points": at(report.get("deal_points"), s),
                "net": (b - base[s]) if b is not None and base and s < len(base) else None,
                "balance": b,
            })
        cols = ["tricks"] if isinstance(report.get("tricks"), list) else []
        if frap_like:
            cols += ["trick_money", "remise"]
        if declarer is not None and report.get("bid") is not None:
            cols.append("bid")
        if losers is not None:
            cols.append("lost")
        if isinstance(report.get("deal_points"), list):
            cols.append("deal_points")
        pot_after = report.get("pot_after") if isinstance(report.get("pot_after"), int) else None
        self.settlement = {"deal_no": deal_no, "outcome": report.get("outcome"), "rows": rows, "cols": cols,
                           "pot_after": pot_after, "ledger": v.get("ledger") or "chips",
                           "treasure": "treasure" in v, "antes": "ante" in (v.get("options") or {}),
                           "made": report.get("made") if isinstance(report.get("made"), bool) else None}
        self.add_log("settle", self.settlement_line())
        if self.overlay is None or self.overlay == "settlement":
            self.overlay = "settlement"

    def _fill_settlement(self, view: dict) -> None:
        """A view between deals brings the balances a report without them (Frak You, La Krap) lacks."""
        st = self.settlement
        bal = view.get("balances")
        if not st or _in_deal(view) or not isinstance(bal, list) or view.get("deal_no") != st["deal_no"]:
            return
        base = self._bases.get(st["deal_no"])
        for r in st["rows"]:
            s = r["seat"]
            if r["balance"] is None and s < len(bal) and isinstance(bal[s], int):
                r["balance"] = bal[s]
                if base and s < len(base):
                    r["net"] = bal[s] - base[s]

    @property
    def final_deal(self) -> bool:
        """No deal follows: the match is over (view or the host's closing message) or the host's
        deal limit (welcome ``deals``) is reached."""
        v = self.view or {}
        if v.get("match_over") or self.closed is not None:
            return True
        limit = (self.welcome or {}).get("deals")
        dn = v.get("deal_no")
        return isinstance(limit, int) and isinstance(dn, int) and limit > 0 and dn >= limit

    def pot_word(self) -> str:
        """"treasure" where the view calls the pot so (Napoleon), else "pot"."""
        return self._("treasure") if "treasure" in (self.view or {}) else self._("pot")

    def pot_sentence(self) -> str:
        """What happens to the pot after the settled deal, never promising a deal that will not come."""
        _ = self._
        st = self.settlement or {}
        pot = st.get("pot_after")
        treasure = st.get("treasure")
        if self.final_deal:
            if pot:
                return (_("The match is over; {n} is left in the treasure.") if treasure else
                        _("The match is over; {n} is left in the pot.")).format(n=pot)
            return _("The match is over.")
        if pot:
            return (_("Treasure {n} carried to the next deal.") if treasure else
                    _("Pot {n} carried to the next deal.")).format(n=pot)
        if pot == 0:
            if treasure:
                return _("The treasure is empty.")
            return _("The pot is empty: fresh antes next deal.") if st.get("antes") else _("The pot is empty.")
        return ""

    def settlement_line(self) -> str:
        """One line: ``Deal 1 settled: Olga +100 (remise 400), …; pot 400 carried over``."""
        _ = self._
        st = self.settlement
        if not st:
            return ""
        parts = []
        for r in st["rows"]:
            amt = r["net"] if r["net"] is not None else r["balance"]
            p = r["name"] + (" " + fmt_amount(amt) if amt is not None else "")
            if r["remise"]:
                p += " " + _("(remise {n})").format(n=r["remise"])
            if r.get("bid"):
                p += f" ({r['bid']})"
            if r.get("lost"):
                p += " " + _("(loses)")
            parts.append(p)
        pot = st["pot_after"]
        tail = ""
        if self.final_deal:
            tail = _("match over")
        elif pot:
            tail = (_("treasure {n} carried over") if st.get("treasure") else _("pot {n} carried over")).format(n=pot)
        elif pot == 0 and st.get("antes") and not st.get("treasure"):
            tail = _("fresh antes next deal")
        line = _("Deal {n} settled:").format(n=st["deal_no"]) + " " + ", ".join(parts)
        return line + ("; " + tail if tail else "")

    def bid_word(self, bid) -> str:
        """A bid or declaration in the chrome's words: ints as ``bid 3``, known verbs translated."""
        if isinstance(bid, bool):
            return ""
        if isinstance(bid, int):
            return self._("bid {n}").format(n=bid)
        if not isinstance(bid, str) or not bid:
            return ""
        words = {"frap": self._("frap"), "blind_frap": self._("blind frap"), "whist": self._("whist"),
                 "pass": self._("pass"), "cut_in": self._("cut-in"), "here": self._("here"),
                 "napoleon": self._("Napoleon")}
        return words.get(bid) or safe_text(bid, 14).replace("_", " ")

    # --- keys ----------------------------------------------------------------------------------

    def _reset_cursor(self, new_cards: Counter) -> None:
        """The cursor on the first choosable card not among ``new_cards`` (else the first
        choosable card, else the first card)."""
        row = self.row()
        ok = [i for i in range(len(row)) if self.choosable(i)]
        if self.active_group is not None and self.active_group.kind == "cards":
            ok = []  # toggling: nothing is "choosable" before a toggle is tried; start at the left
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

    def press(self, key: str) -> list[tuple]:
        """Handle one key (prompt_toolkit names: ``"f"``, ``"1"``, ``"left"``, ``"enter"``, ``"space"``,
        ``"escape"``, ``"f1"``, ``"c-c"``, ``"c-d"``, ``"tab"``; mouse: ``"card:I"``, ``"button:K"``).
        Returns the intents: ``[("act", action)]``, ``[("quit",)]``, ``[("chat",)]`` or ``[]``."""
        _ = self._
        if self.overlay == "quit":
            if key in ("y", "Y", "enter", "д", "c-c", "c-d", "q"):
                return [("quit",)]
            self.overlay = None
            return []
        if self.overlay == "help":
            self.overlay = None
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
                self.overlay = None
            return []
        if key in ("tab", "/"):
            return [("chat",)]
        if key == ".":
            self.show_last_trick = not self.show_last_trick
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
        if key == "t" and "l" in self.keys and self.hand is None:
            # F16: the turn-up is taken by naming the card to discard, so the cards must be seen
            self.message = _("Look at your cards first ([l]); then [t] takes the turn-up.")
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
            return self._choose(i) if i < len(row) else []
        extra = self.extra_card_keys()
        if len(key) == 1 and key in extra:
            i = 10 + extra.index(key)
            return self._choose(i) if i < len(row) else []
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
                    self.message = _("Choose {lo}–{hi} cards first.").format(lo=lo, hi=hi) if lo != hi else \
                        _("Choose {n} cards first.").format(n=lo)
                    return []
                self.selected = set()
                return [("act", ch[0])]
            return self._choose(self.cursor) if row else []
        return []

    def refusal(self, card: str) -> str:
        """Why ``card`` cannot be chosen, when the view makes it certain: a trick is led, the hand
        holds the led suit, ``card`` is of another suit and every card offered follows suit
        (Frap F20; the same in any game whose offered plays say so). Otherwise a neutral line."""
        _ = self._
        g = self.active_group
        trick = (self.view or {}).get("trick") or []
        if g is not None and g.kind == "card" and trick and card in (self.hand or ()):
            led = card_suit(trick[0][1])
            cands = g.candidates()
            if led and card_suit(card) != led and cands and all(card_suit(c) == led for c in cands) \
                    and any(card_suit(c) == led for c in self.hand or ()):
                rule = " (F20)" if (self.view or {}).get("game") == "frap" else ""
                return _("{card} cannot be played now: follow suit {suit}").format(
                    card=card_face(card), suit=SUIT_SYMBOLS[led]) + rule
        return _("{card} cannot be chosen now.").format(card=card_face(card))

    def extra_card_keys(self) -> str:
        """The keys of cards 11, 12, … on the hand row: letters no action uses now."""
        return "".join(c for c in EXTRA_CARD_KEYS if c not in self.keys and c not in RESERVED_KEYS)

    def card_key(self, i: int) -> str:
        """The key that chooses the card at row position ``i``: 1…9, 0, then letters; "" if none."""
        if i < len(DIGIT_KEYS):
            return DIGIT_KEYS[i]
        extra = self.extra_card_keys()
        return extra[i - len(DIGIT_KEYS)] if i - len(DIGIT_KEYS) < len(extra) else ""

    def _choose(self, i: int) -> list[tuple]:
        """Play/choose (card group) or toggle (cards group) the card at row position ``i``."""
        row = self.row()
        g = self.active_group
        if g is None or not 0 <= i < len(row):
            return []
        card = row[i]
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


def help_lines(_: Callable[[str], str]) -> list[tuple[str, str]]:
    """The help screen: (keys, what they do)."""
    return [
        ("1…9, 0, z x v…", _("play or toggle the card with that key")),
        ("← →  Home End", _("move along your hand")),
        ("Enter", _("play the card at the cursor / confirm the cards chosen")),
        ("Space", _("play the card / toggle it when choosing several")),
        (_("letters"), _("the action in [brackets]: [f] frap, [p] pass, [l] look")),
        (".", _("show or hide the last trick")),
        ("Tab  /", _("write in the chat line (Enter sends, Esc goes back)")),
        ("? F1", _("this help")),
        ("q  Ctrl-C  Ctrl-D", _("leave the table (asks first during a deal)")),
        (_("mouse"), _("click a card or an action")),
        ("▶ D ★", _("whose turn, the dealer, who took the last trick")),
        ("● ○ ⚙ ·", _("connected, reconnecting, computer, empty seat")),
    ]
