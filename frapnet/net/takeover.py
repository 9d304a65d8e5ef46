"""A table's timers: the grace period of a dropped seat, the host's own moves for a seat it has
taken over (design.md principle 5; docs/hosting.md "Dropped connections"), and the turn clock
(issue #9): a connected seat that does not act within ``turn_time`` seconds gets exactly that one
move made for it by the computer player, and stays its player's.

The computer player is handed in as a *chooser* — ``choose(view, level, rng) -> action list``
over the seat's view, the same one a client gets (frapnet.hosting passes a
:class:`frapnet.bots.players.SeatPlayers`, made by ``frapnet.bots.make_player``); without one,
:func:`random_choice`. A chooser with ``observe(view, level)`` is shown every taken-over seat's
view after every change, so it remembers the deal. Time is an
``IReactorTime`` (``callLater``), so tests drive it with ``twisted.internet.task.Clock``.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from twisted.logger import Logger

from frapnet import engine
from frapnet.net.protocol import ProtocolError
from frapnet.net.seats import Seat

if TYPE_CHECKING:  # pragma: no cover - for annotations only
    from frapnet.net.table import Table

log = Logger(namespace="frapnet.host")

Chooser = Callable[[dict, str, random.Random], list]
"""``choose(view, level, rng) -> action``: a computer player's move (a wire action list, one of
``view["actions"][i]["action"]``) for the seat whose view it is."""


BACK_AT_LEAST = 10.0
"""Seconds a seat back from a dropped connection has at least, for the decision its turn clock
was counting when it dropped (:meth:`Takeover.turn_clock`): time to see the table again."""


def random_choice(view: dict, level: str, rng: random.Random) -> list:
    """A :data:`Chooser` that picks uniformly among the view's legal actions (any ``level``)."""
    return rng.choice([a["action"] for a in view["actions"]])


class Takeover:
    """The grace and takeover timers of ``table``: ``choose`` plays a taken-over seat at
    ``level``, ``delay`` seconds after it is that seat's turn; ``seed`` (None: the table's rng)
    makes its choices reproducible per seat and state version."""

    def __init__(self, table: "Table", clock, choose: Chooser | None = None, level: str = "basic",
                 delay: float = 0.0, seed: Any = None, turn_time: float | None = None) -> None:
        self.table = table
        self.clock = clock
        self.choose = choose or random_choice
        self.level = level
        self.delay = delay
        self.seed = seed
        self.turn_time = turn_time or None
        self._calls: dict[int, Any] = {}  # seat -> its pending takeover move
        self._turns: dict[int, tuple] = {}  # seat -> (version its choices date from, call, deadline)
        self._paused: dict[int, tuple] = {}  # a dropped seat -> (version its choices date from, seconds it had left)

    # --- grace ------------------------------------------------------------------------------
    def start_grace(self, s: Seat, seconds: float) -> None:
        """Seat ``s`` lost its connection: after ``seconds`` call ``table.grace_over(seat)``."""
        self.cancel_grace(s)
        s.grace_call = self.clock.callLater(seconds, self.table.grace_over, s.index)

    @staticmethod
    def cancel_grace(s: Seat) -> None:
        """Seat ``s`` is back (or given up): its grace period ends now."""
        if s.grace_call is not None and s.grace_call.active():
            s.grace_call.cancel()
        s.grace_call = None

    # --- takeover moves ---------------------------------------------------------------------
    def schedule(self) -> None:
        """For every taken-over seat to act in the deal in play, schedule its move (once)."""
        t = self.table
        if t.finished or t.state.phase != engine.DEAL:
            return
        observe = getattr(self.choose, "observe", None)  # a player that remembers (issue #8)
        if observe is not None:
            for s in t.seats:
                if s.takeover:
                    try:
                        observe(engine.view(t.state, s.index), self.level)
                    except Exception:  # noqa: BLE001 - a player's bug must not stall the table
                        log.failure("takeover player could not take in a view")
        for seat in t.state.to_act:
            if t.seats[seat].takeover and seat not in self._calls:
                self._calls[seat] = self.clock.callLater(self.delay, self._move, seat, t.state.version)

    def cancel(self, seat: int) -> None:
        """Drop ``seat``'s pending takeover move (its player is back)."""
        call = self._calls.pop(seat, None)
        if call is not None and call.active():
            call.cancel()

    def cancel_all(self) -> None:
        """Drop every pending move, turn clock and grace period (the table ends)."""
        for call in [*self._calls.values(), *(c for _, c, _ in self._turns.values())]:
            if call.active():
                call.cancel()
        self._calls.clear()
        self._turns.clear()
        for s in self.table.seats:
            self.cancel_grace(s)

    def _move(self, seat: int, version: int) -> None:
        self._calls.pop(seat, None)
        t = self.table
        s = t.seats[seat]
        if t.finished or not s.takeover or t.state.version != version or seat not in t.state.to_act:
            self.schedule()
            return
        view = engine.view(t.state, seat)
        rng = random.Random(f"{self.seed}/{seat}/{version}") if self.seed is not None else t.rng
        try:
            action = self.choose(view, self.level, rng)
        except Exception:  # noqa: BLE001 - a strategy bug must not stall the table
            log.failure("takeover strategy failed; playing a random legal action")
            action = engine.action_to_wire(rng.choice(engine.legal_actions(t.state, seat)))
        try:
            t.apply_action(seat, action, version)
        except ProtocolError as exc:
            log.warn("takeover move {action} for seat {seat} refused: {msg}", action=action, seat=seat,
                     msg=exc.message)
            t.apply_action(seat, engine.action_to_wire(engine.legal_actions(t.state, seat)[0]), version)

    # --- the turn clock ---------------------------------------------------------------------
    def turn_clock(self) -> None:
        """After a change (before its views go out): every seat to act that a live connection
        plays has its clock running — ``turn_time`` seconds from when its choices last changed
        (``Table.versions.since``: another seat looking at its cards does not restart it, as it does
        not make an action stale; nor does the seat's own look — F9, no decision — though it
        changes the seat's choices: its clock keeps its end); every other clock is stopped. A seat
        whose connection drops keeps what it had left for that decision: back (a reload, a new
        connection with its token) for the same decision, its clock goes on from there — at least
        :data:`BACK_AT_LEAST` seconds — not from a fresh ``turn_time`` (a reload must not buy time)."""
        t = self.table
        want: dict[int, int] = {}
        if self.turn_time and not t.finished and t.state.phase == engine.DEAL:
            for seat in t.state.to_act:
                s = t.seats[seat]
                if s.peer is not None and not s.takeover:
                    want[seat] = t.versions.since[seat]
        last = t.state.last_action() if want else None
        for seat, (since, call, deadline) in list(self._turns.items()):
            if want.get(seat) != since:
                if call.active():
                    call.cancel()
                del self._turns[seat]
                s = t.seats[seat]
                if seat not in want and s.peer is None and not t.finished and t.versions.since[seat] == since:
                    self._paused[seat] = (since, max(0.0, deadline - self.clock.seconds()))  # dropped mid-decision
                if seat in want and last is not None and last[0] == seat and last[1] == "look":
                    # its own look (F9) is no decision: the same decision, its clock keeps its end
                    left = max(0.0, deadline - self.clock.seconds())
                    self._turns[seat] = (want[seat], self.clock.callLater(left, self._turn_over, seat, want[seat]),
                                         deadline)
        for seat, since in want.items():
            if seat not in self._turns:
                paused = self._paused.pop(seat, None)
                left = self.turn_time
                if paused is not None and paused[0] == since:  # back for the same decision
                    left = min(self.turn_time, max(paused[1], BACK_AT_LEAST))
                call = self.clock.callLater(left, self._turn_over, seat, since)
                self._turns[seat] = (since, call, self.clock.seconds() + left)

    def deadlines(self) -> list:
        """Per seat 0…n−1, the seconds it has left to act (rounded to 0.1; the view's
        ``deadlines``), or None where no clock runs."""
        now = self.clock.seconds()
        out: list = [None] * len(self.table.seats)
        for seat, (_, _, deadline) in self._turns.items():
            out[seat] = round(max(0.0, deadline - now), 1)
        return out

    def _turn_over(self, seat: int, since: int) -> None:
        self._turns.pop(seat, None)
        t = self.table
        s = t.seats[seat]
        if t.finished or t.state.phase != engine.DEAL or seat not in t.state.to_act or t.versions.since[seat] != since \
                or s.peer is None or s.takeover:
            return
        log.info("table {table}: seat {seat} ({name}) did not act in {t} s; the computer player moves for it",
                 table=t.name, seat=seat, name=s.name, t=self.turn_time)
        t.fanout.seat_event("seat_timeout", s, seconds=self.turn_time)
        for _ in range(2):  # one decision: looking at the cards first is none (F9), so it decides after
            version = t.state.version
            view = engine.view(t.state, seat)
            rng = random.Random(f"{self.seed}/clock/{seat}/{version}") if self.seed is not None else t.rng
            try:
                action = self.choose(view, self.level, rng)
            except Exception:  # noqa: BLE001 - a strategy bug must not stall the table
                log.failure("turn clock: the computer player failed; playing a random legal action")
                action = random_choice(view, self.level, rng)
            try:
                t.apply_action(seat, action, version)
            except ProtocolError as exc:
                log.warn("turn clock move {action} for seat {seat} refused: {msg}", action=action, seat=seat,
                         msg=exc.message)
                action = engine.action_to_wire(engine.legal_actions(t.state, seat)[0])
                t.apply_action(seat, action, version)
            if action[0] != "look" or t.finished or t.state.phase != engine.DEAL or seat not in t.state.to_act:
                return
