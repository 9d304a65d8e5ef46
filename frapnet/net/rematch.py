"""A rematch with the same seats when a match ends (issue #10 item 7; docs/protocol.md "Rematch").

When a table's match ends (the deal limit, or the game's own end) while at least one person
(a connected seat that is not a computer player) sits there, every person's client said in its
hello that it answers offers (``"rematch": true``), and the table allows it
(``TableConfig.rematch`` seconds > 0, 60 by default), the host does not close: it sends every
connection

    {"type": "rematch_offer", "result": {...}, "seconds": 60, "waiting": [0, 2], "match": 2}

— the match's result (as ``closing`` carries it), how long it waits, and the seats whose answer
it waits for (every connected person). Each of them answers ``{"type": "rematch", "accept":
true|false}``. Computer players (the host's own, takeovers, and clients with ``bot``) always
play on. When every awaited seat has accepted, the host sends ``{"type": "rematch_start",
"match": 2}`` and deals the first deal of a new match: same game, options, house rules, seats,
names and seat tokens; balances from zero; the first dealer by lot again (F7); its record in
``RECORD.2.json`` beside the first one's (the next free number if that file exists:
:func:`record_path`). A refusal, a person leaving or dropping, or the wait running out ends the
table as before: ``closing`` with the last match's result.

No sockets here: :func:`offer` and :class:`Rematch` are driven by :class:`frapnet.net.table.Table`.
"""
from __future__ import annotations

import os
from typing import Callable

from twisted.logger import Logger

from frapnet import engine
from frapnet.net.protocol import ProtocolError
from frapnet.net.seats import CONNECTED

log = Logger(namespace="frapnet.host")


def record_path(first: str | None, match: int) -> str | None:
    """The record file of rematch number ``match`` (2, 3…) beside the first match's ``first``:
    ``friday.json`` → ``friday.2.json``, or the next number whose file does not exist yet
    (``friday.3.json``…): a rematch never writes over a record already there — an earlier host
    command's rematch, or a file of the same name (issue #9). None stays None; match 1 is
    ``first`` itself. (A resumed match keeps the file the journal stored for it.)"""
    if first is None or match <= 1:
        return first
    root, ext = os.path.splitext(first)
    n = match
    while os.path.lexists(path := f"{root}.{n}{ext or '.json'}"):
        n += 1
    return path


class Rematch:
    """One open offer: ``waiting`` (the seats whose answer is awaited, each a person's),
    ``accepted`` (seats that said yes), ``match`` (the number the new match would have). Calls
    ``on_start()`` once everyone awaited has accepted, ``on_end(reason)`` on a refusal, a seat
    gone or the wait over — exactly one of the two, once."""

    def __init__(self, clock, seconds: float, waiting: set[int], match: int, *,
                 on_start: Callable[[], None], on_end: Callable[[str], None]) -> None:
        self.waiting = set(waiting)
        self.accepted: set[int] = set()
        self.match = match
        self.seconds = seconds
        self._on_start, self._on_end = on_start, on_end
        self._done = False
        self._clock = clock
        self._call = clock.callLater(seconds, self._expire)

    @property
    def open(self) -> bool:
        """True while the answers are awaited (not yet all in, refused, or timed out)."""
        return not self._done

    def offer(self, result: dict) -> dict:
        """The ``rematch_offer`` message; ``seconds``: how long the answers are still awaited, from
        now (the whole wait when it is first sent; what is left when sent again to a connection
        that joins or reconnects during the offer)."""
        seconds = self.seconds
        if self._call is not None and self._call.active():
            seconds = max(0, round(self._call.getTime() - self._clock.seconds(), 1))
            seconds = int(seconds) if seconds == int(seconds) else seconds
        return {"type": "rematch_offer", "result": result, "seconds": seconds,
                "waiting": sorted(self.waiting - self.accepted), "match": self.match}

    def answer(self, seat: int, accept: bool) -> None:
        """``seat``'s answer. A seat whose answer is not awaited (a computer player, a spectator's
        seat None) changes nothing."""
        if self._done or seat not in self.waiting:
            return
        if not accept:
            self._end(f"seat {seat} declined the rematch")
            return
        self.accepted.add(seat)
        if self.accepted >= self.waiting:
            self._finish()
            self._on_start()

    def gone(self, seat: int) -> None:
        """An awaited seat's person left or dropped: no rematch with the same seats."""
        if not self._done and seat in self.waiting:
            self._end(f"seat {seat} left before the rematch")

    def cancel(self) -> None:
        """Drop the offer without calling back (the table is ending anyway)."""
        self._finish()

    def _expire(self) -> None:
        self._call = None
        if not self._done:
            self._end(f"no answer to the rematch in {self.seconds:g} s")

    def end(self, reason: str) -> None:
        """End the offer now: no rematch (``on_end(reason)``: the table closes, saying why)."""
        if not self._done:
            self._end(reason)

    def _end(self, reason: str) -> None:
        self._finish()
        log.info("rematch not played: {reason}", reason=reason)
        self._on_end(reason)

    def _finish(self) -> None:
        self._done = True
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None


def offer(table) -> bool:
    """At the end of ``table``'s match (a :class:`frapnet.net.table.Table`): open a rematch offer
    and send it, if the table allows one (``config.rematch`` > 0), a person sits there, and every
    person's client said in its hello that it answers offers (``rematch: true``; a client that
    cannot show the question is never kept waiting). Returns True if offered (the table then
    stays open)."""
    people = [s for s in table.seats if s.status == CONNECTED]
    if table.config.rematch <= 0 or not people or table.rematch is not None:
        return False
    mute = [s.index for s in people if not getattr(s.peer, "answers_rematch", False)]
    if mute:
        log.info("table {table}: match over; no rematch offered: the client at seat(s) {seats} cannot answer "
                 "one", table=table.name, seats=mute)
        return False
    seats = {s.index for s in people}
    table.rematch = Rematch(table.clock, table.config.rematch, seats, table.match_no + 1,
                            on_start=lambda: start(table), on_end=table.finish)
    log.info("table {table}: match over; offering a rematch to seats {seats}", table=table.name,
             seats=sorted(seats))
    table.fanout.send_all(table.rematch.offer(table.result_dict()))
    return True


def resend(table, peer) -> None:
    """``peer`` joined or reconnected to ``table`` while a rematch offer is open: send it the
    offer too, with the seconds left (docs/protocol.md ``rematch_offer``) — else its player could
    never answer, and the offer would run out. A seat whose answer is awaited, back with a client
    that cannot show the question (no ``rematch`` in its hello), ends the offer at once: nobody is
    kept waiting for an answer that cannot come."""
    r = table.rematch
    if r is None or not r.open:
        return
    seat = getattr(peer, "seat", None)
    if seat is not None and not getattr(peer, "answers_rematch", False):
        if seat in r.waiting - r.accepted:
            r.end(f"seat {seat} cannot answer the rematch")
        return
    peer.send(r.offer(table.result_dict()))


def check_join(table, hello: dict) -> None:
    """During an open offer the match has ended: a newcomer (a seat's ``hello`` without a token)
    is refused, ``table_full`` (docs/protocol.md); a spectator, or a seat's own player back with
    its token, may come. Raises ProtocolError."""
    if table.rematch is not None and table.rematch.open and not hello["spectate"] and not hello.get("token"):
        raise ProtocolError("table_full", "the match at this table has ended; its players are being asked "
                                          "whether they play again", fatal=True)


def start(table) -> None:
    """Everyone said yes: ``table`` starts a new match with the same seats, tokens and settings,
    its record beside the last one's (:func:`record_path`)."""
    table.match_no, table.rematch = table.match_no + 1, None
    cfg = table.config
    done, result = table.state, table.result_dict()
    table.state = engine.new_match(cfg.game, cfg.players, cfg.options, cfg.house_rules, table.registry)
    table._track_versions(None)
    # the journal stores the match just played as over and the rematch as a new match of the table
    path = record_path(cfg.record, table.match_no)
    table.journal = table.journal.next_match(done, result, table.state, path)
    table.dealing.proofs = []  # the new match's shuffle proofs (docs/fairness.md)
    forget = getattr(table.takeover.choose, "new_match", None)  # the takeover players' memory of the deal
    if callable(forget):
        forget()
    table.journal.seats_changed(table.name, table.seats)
    log.info("table {table}: rematch: match {n} begins{rec}", table=table.name, n=table.match_no,
             rec=f"; its record: {path}" if path else "")
    table.fanout.send_all({"type": "rematch_start", "match": table.match_no})
    table._start_deal()
