"""A rematch with the same seats, and the table's closing, as the terminal client shows them
(docs/protocol.md "Rematch", "closing").

A mixin of :class:`frapnet.tui.model.Screen`. At the match's end the host may send
``rematch_offer`` (``seconds``, ``waiting``: the seats asked, ``match``: the new match's number);
the screen then asks "play again with the same seats?" where the hand was, with two keys:
``r`` (yes) and ``n`` (no: the client declines and leaves). ``rematch_start`` begins the new
match; a ``closing`` ends the offer (:meth:`RematchMixin.set_closing` says why, in the chrome's
words: :meth:`RematchMixin.closing_reason`). Once the connection is over — a closing, or the
connection closed for good (:attr:`RematchMixin.ended`) — the screen offers nothing: no actions,
no turn, no turn clock, and a key that would act says why (:meth:`RematchMixin.ended_message`).
All words are the chrome's (gettext, frapnet/locale).
"""
from __future__ import annotations

import re

from frapnet.net import amounts
from frapnet.net.protocol import REPLACED, closing_code
from frapnet.tui.text import HOST_STOPPED, HOST_STOPPED_HERE, HOST_STOPPED_WATCHING, SEAT_TAKEN_OVER, cut, fmt_amount, safe_text

REMATCH_KEYS = {"r": True, "n": False}


class RematchMixin:
    """``self.rematch``: None, or the open offer ``{"seconds", "match", "asked", "answer"}``
    (``asked``: this seat's answer is awaited; ``answer``: None until r or n)."""

    rematch: dict | None = None
    match_no: int = 1
    """The match being played at this table: 2, 3… after rematches (``rematch_start``'s ``match``)."""
    past_standings: tuple = ()
    """The final standings of each match before the last rematch, oldest first, each headed
    "Match N:" (:meth:`standings_text`)."""

    def set_rematch(self, msg: dict) -> None:
        """The host's ``rematch_offer`` or ``rematch_start`` message. At ``rematch_start`` the
        standings of the match just played are kept (:attr:`past_standings`): printed on the
        terminal after the client exits, before the last match's."""
        _ = self._
        if not isinstance(msg, dict):
            return
        if msg.get("type") == "rematch_start":
            n = msg.get("match")
            done = self.standings_text()
            if done:
                self.past_standings = (*self.past_standings, self._match_headed(done))
            self.match_no = n if isinstance(n, int) and not isinstance(n, bool) else self.match_no + 1
            self._new_match()  # deals are counted from 1 again: a fresh score sheet
            self.add_log("status", _("Match {n} begins with the same seats.").format(n=n if isinstance(n, int) else "?"))
            return
        if msg.get("type") != "rematch_offer" or self.closed is not None:
            return
        secs = msg.get("seconds")
        secs = int(secs) if isinstance(secs, (int, float)) and not isinstance(secs, bool) and 0 < secs < 1e6 else 0
        waiting = msg.get("waiting") if isinstance(msg.get("waiting"), list) else []
        if isinstance(msg.get("result"), dict):  # the match's result: its pot left over, for its standings
            self.final_report = msg["result"]
        asked = self.seat is not None and self.seat in waiting
        self.rematch = {"seconds": secs, "match": msg.get("match"), "asked": asked, "answer": None}
        if self.scores:  # the match's end: its score sheet, the question below it
            self._open_scores()
        if asked:
            self.add_log("status", _("The match is over. Press r to play again with the same seats, or n to "
                                     "leave (answer within {n} s).").format(n=secs))
        else:
            self.add_log("status", _("The match is over; the players are asked whether they play again."))

    @property
    def watching(self) -> bool:
        """This connection joined as a spectator (its welcome's ``seat`` is nil)."""
        w = getattr(self, "welcome", None)
        return isinstance(w, dict) and "seat" in w and w["seat"] is None

    def way_back(self) -> str:
        """How to come back once the host that stopped resumes the match: the same join command —
        to take the seat back, or, for a spectator, to watch on; the same command, where the host
        ran in this process (`frapnet host --play`)."""
        if getattr(self, "local", False):
            return self._(HOST_STOPPED_HERE)
        return self._(HOST_STOPPED_WATCHING if self.watching else HOST_STOPPED)

    def _match_headed(self, standings: str) -> str:
        """``standings`` headed "Match N:" (N: the match being played, :attr:`match_no`)."""
        return self._("Match {n}:").format(n=self.match_no) + " " + standings

    def exit_standings(self) -> list[str]:
        """What the terminal shows after the client exits: the final standings of every match
        played at this table — the matches before a rematch (:attr:`past_standings`), then the
        last (:meth:`standings_text`), each headed "Match N:" once there was a rematch — and, if
        the host stopped saying it resumes the match, how to come back."""
        last = self.standings_text()
        if last and self.past_standings:
            last = self._match_headed(last)
        again = [self.way_back()] if self.resumable else []  # the host resumes the match
        return [*self.past_standings, *([last] if last else []), *again]

    @property
    def rematch_question(self) -> bool:
        """The offer is open and waits for this seat's answer (the keys r and n work)."""
        r = self.rematch
        return bool(r and r["asked"] and r["answer"] is None and self.closed is None)

    def rematch_key(self, key: str):
        """``r``/``n`` while the question is open: the intents (``("rematch", accept)``, and
        ``("quit",)`` after a no); None for any other key."""
        if not self.rematch_question:
            return None
        accept = REMATCH_KEYS.get(key[7:] if key.startswith("button:") else key)
        if accept is None:
            return None
        self.rematch["answer"] = accept
        self.overlay = None
        if accept:
            self.add_log("status", self._("You will play again; waiting for the others to answer."))
            return [("rematch", True)]
        return [("rematch", False), ("quit",)]

    def rematch_heading(self) -> str:
        """The line shown where the hand was while an offer is open ("" if none)."""
        _ = self._
        r = self.rematch
        if not r or self.closed is not None:
            return ""
        if not r["asked"]:
            return _("The match is over; the players are asked whether they play again.")
        if r["answer"]:
            return _("You will play again; waiting for the others to answer.")
        return _("The match is over. Play again with the same seats? Answer within {n} s.").format(n=r["seconds"])

    def rematch_buttons(self) -> list[tuple[str, str]]:
        """``(key, label)`` of the answers while the question is open."""
        if not self.rematch_question:
            return []
        _ = self._
        return [("r", _("Play again")), ("n", _("No, leave the table"))]

    # --- the connection's end ---------------------------------------------------------------

    @property
    def ended(self) -> bool:
        """This connection is over: the host closed the table for it (closing: match over, left,
        host stopping, seat taken over by another connection) or the connection closed for good.
        Nothing can be played from this screen any more: no actions, no turn clock, no turn."""
        return self.closed is not None or self.status == "closed"

    def _drop_actions(self) -> None:
        """The connection is over: the actions it offered are gone (a later view, after a new
        connection, computes them afresh)."""
        self.groups, self.keys, self.mode, self.selected = [], {}, None, set()
        self._actions_sig = None
        self.message = ""

    def ended_heading(self) -> str:
        """Why nothing can be played here any more, in one sentence ("" while connected)."""
        _ = self._
        if not self.ended:
            return ""
        if self.replaced:
            return _("This seat was taken over by another connection with its token; it plays on there.")
        if self.closed is not None:
            return _("The table has closed ({reason}).").format(reason=self.closed)
        return _("The connection is closed.")

    def ended_message(self) -> str:
        """What a key that would act (or chat) says once the connection is over: why nothing happens."""
        _ = self._
        if self.replaced:
            return _("Nothing happens: another connection plays this seat now. Press q to quit.")
        if self.closed is not None:
            return _("Nothing happens: the table has closed. Press q to quit.")
        return _("Nothing happens: the connection is closed. Press q to quit.")

    def shown_connection(self, seat: int) -> str:
        """The seat table's state of ``seat``: :meth:`connection`, but this screen's own seat once
        the connection is over says so ("taken over" by another connection, or "closed")."""
        if self.ended and seat == self.seat:
            return "taken over" if self.replaced else "closed"
        return self.connection(seat)

    def set_closing(self, msg: dict) -> None:
        """The host closed the table (``{"reason": str, "result": {"balances": [...], "pot": n}}``):
        say so with the final balances; the score sheet opens; quitting no longer asks. Closed
        because another connection took this seat with its token (``code`` ``"replaced"``: another
        terminal or window of this player's): say that plainly — the table goes on there."""
        if self.closed is not None or not isinstance(msg, dict):
            return
        _ = self._
        self.closed = self.closing_reason(safe_text(msg.get("reason") or "", 300))  # cut to 80 unless known
        self.rematch = None
        self._drop_actions()  # nothing can be played from here any more
        if closing_code(msg) == "replaced":
            self.replaced = True
            self.add_log("status", _(SEAT_TAKEN_OVER))
            self.add_log("status", _("Press q to quit."))
            return
        res = msg.get("result") if isinstance(msg.get("result"), dict) else {}
        bal = None
        for k in ("balances", "points"):
            b = res.get(k)
            if isinstance(b, list) and b and all(isinstance(x, int) and not isinstance(x, bool) for x in b):
                bal = b
                break
        self.final_result = bal
        self.final_report = res  # its pot and unfinished deal: the standings say them (F28)
        text = _("The table has closed ({reason}).").format(reason=self.closed)
        if bal:
            text += " " + _("Final balances:") + " " + ", ".join(
                f"{self.name(i)} {fmt_amount(b)}" for i, b in enumerate(bal))
        pot = self.unplayed_sentence()
        self.add_log("status", text + (("." if bal else "") + " " + pot if pot else ""))
        if msg.get("resumable") is True:  # the host's journal resumes the match (issue #9)
            self.resumable = True
            self.add_log("status", self.way_back())
        self.add_log("status", _("Press q to quit."))
        if self.scores:
            self._open_scores()

    def closing_reason(self, reason: str) -> str:
        """The host's closing ``reason`` in the chrome's words where it is one the protocol names
        (docs/protocol.md "closing", "Rematch") or the amounts' limit (:mod:`frapnet.net.amounts`;
        in Russian its numbers without the English thousands comma), else as sent (cut to 80 cells)."""
        _ = self._
        n = (lambda k: f"{k:,}") if self.lang == "en" else str  # 1,000 in English, 1000 in Russian
        known = {"match over": _("match over"), "host stopping": _("the host is stopping"),
                 "you left the table": _("you left the table"),
                 REPLACED: _("this seat was taken over by another connection with its token"),
                 # the match's amounts reached what the protocol carries (frapnet.net.amounts, F6)
                 amounts.NEAR: _(amounts.NEAR_TEXT).format(near=n(amounts.NEAR_DIGITS), limit=n(amounts.MAX_BIGINT_DIGITS)),
                 amounts.PAST: _(amounts.PAST_TEXT).format(limit=n(amounts.MAX_BIGINT_DIGITS))}
        if reason in known:
            return known[reason]
        m = re.fullmatch(r"seat (\d+) (declined|left before|cannot answer) the rematch", reason)
        if m:
            said = {"declined": _("{name} declined the rematch"), "left before": _("{name} left before the rematch"),
                    "cannot answer": _("{name} came back on a client that cannot answer the rematch")}
            return said[m.group(2)].format(name=self.name(int(m.group(1))))
        m = re.fullmatch(r"no answer to the rematch in ([0-9.]+) s", reason)
        if m:
            return _("no answer to the rematch in {n} s").format(n=m.group(1))
        return cut(reason, 80)
