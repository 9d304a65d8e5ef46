"""Process set-up for a long-running frapnet process (`frapnet host`): the garbage collector's
policy (:class:`GcPolicy`) and a log filter. Process-wide: call these from a command's main, never from a library.
"""
from __future__ import annotations

import gc
import re

from twisted.logger import PredicateResult

_TWISTED_NOISE = re.compile(r"^(\S+ starting on \d+|\(\w+ Port \d+ Closed\)|Starting factory .*|Stopping factory .*)$")


def not_twisted_noise(event: dict):
    """A ``twisted.logger`` filter predicate for a host's log: drops Twisted's own lines about
    listening ports (``HostFactory starting on 7777``, ``(TCP Port 7777 Closed)``) and factories
    starting or stopping, which it logs however ``noisy`` is set; keeps everything else.
    Returns a :class:`twisted.logger.PredicateResult`."""
    if event.get("log_namespace") == "log_legacy":
        text = " ".join(str(x) for x in event.get("message") or ())
        if _TWISTED_NOISE.match(text):
            return PredicateResult.no
    return PredicateResult.maybe


YOUNG_EVERY = 0.05
"""Seconds between two young collections of a host (:class:`GcPolicy`)."""
FULL_GROWTH = 2.0
"""A host's full collection runs once its old generation holds this many times as many objects
as after the last full collection (:class:`GcPolicy`)."""
FULL_FLOOR = 100_000
"""…and at least this many objects (a small host is not collected over and over for nothing)."""
CHECK_EVERY = 10.0
"""Seconds between two counts of the old generation's objects."""


class GcPolicy:
    """The cyclic garbage collector of a long-running host (`frapnet host`; docs/performance.md
    "Garbage collection"), on a reactor's ``clock``. Objects are freed by reference counting
    as soon as nothing refers to them, whatever this does; the collector exists for reference
    cycles only, and a host in play makes almost none (none found by 738 young collections in
    70 s of play at 1,000 tables). Python's own schedule (by allocation
    counts, which the freeing of old objects keeps low) still let the young generation fill with
    every table's live views and states — at 1,000 tables 66,000 objects, 70–150 ms of one core
    per collection, the loop stopped meanwhile. So:

    - :meth:`start` (once the host is set up): collect, freeze what is alive then (modules,
      plugins, the tables and their listeners: they live as long as the process; no
      collection scans them again), and turn Python's automatic collection off;
    - every :data:`YOUNG_EVERY` seconds a young collection (``gc.collect(1)``: only the objects
      made since the last one — its cycles are freed, the survivors move to the old generation),
      so a pause is what the last 50 ms made and kept (about a millisecond at 1,000 tables),
      never every table's views;
    - bounded memory: a cycle that becomes garbage once it is old (a closed connection, an old
      error's traceback) waits for a full collection (``gc.collect()``), which runs once the old
      generation holds :data:`FULL_GROWTH` times as many objects as after the last one (and at
      least :data:`FULL_FLOOR`; counted every :data:`CHECK_EVERY` seconds). So cyclic garbage
      never holds more than the live old objects themselves (plus the floor); and the pause of
      a full collection, which Python's own schedule takes whenever a quarter more objects have
      grown old, comes only each time the live heap has doubled.

    :meth:`stop` gives Python's own schedule back. Process-wide: use it from a host's main (and
    bench/net.py's host), never from a library."""

    def __init__(self, clock, young_every: float = YOUNG_EVERY, growth: float = FULL_GROWTH,
                 floor: int = FULL_FLOOR, check_every: float = CHECK_EVERY) -> None:
        self.clock = clock
        self.young_every, self.growth, self.floor, self.check_every = young_every, growth, floor, check_every
        self.young_collections = 0
        self.full_collections = 0
        self.old_after_full = 0
        self._calls: list = []
        self._was_enabled = True

    def start(self) -> "GcPolicy":
        self._was_enabled = gc.isenabled()
        gc.disable()
        gc.collect()
        gc.freeze()
        self._calls = [self.clock.callLater(self.young_every, self._young),
                       self.clock.callLater(self.check_every, self._check)]
        return self

    def young(self) -> None:
        """One young collection: the objects made since the last one; survivors grow old."""
        gc.collect(1)
        self.young_collections += 1

    @staticmethod
    def old() -> int:
        """How many objects the old generation holds (frozen ones not counted)."""
        return len(gc.get_objects(2))

    def full(self) -> None:
        """A full collection of the old generation (not of what :meth:`start` froze)."""
        gc.collect()
        self.full_collections += 1
        self.old_after_full = self.old()

    def check(self) -> bool:
        """Run :meth:`full` if the old generation has grown :attr:`growth` times (and past
        :attr:`floor`); True if it ran."""
        if self.old() > max(self.growth * self.old_after_full, self.floor):
            self.full()
            return True
        return False

    def _young(self) -> None:
        self.young()
        self._calls[0] = self.clock.callLater(self.young_every, self._young)

    def _check(self) -> None:
        self.check()
        self._calls[1] = self.clock.callLater(self.check_every, self._check)

    def stop(self) -> None:
        """Cancel the timers, unfreeze, and give Python's automatic collection back."""
        for call in self._calls:
            if call.active():
                call.cancel()
        self._calls = []
        gc.unfreeze()
        if self._was_enabled:
            gc.enable()


def tune_gc(clock) -> GcPolicy:
    """Start a long-running host's :class:`GcPolicy` on ``clock`` (the reactor), once its tables
    are set up; returns it. Process-wide: call it from a host's main, not a library."""
    return GcPolicy(clock).start()


def stop_once_on_signals(reactor) -> None:
    """Make SIGINT, SIGTERM (and SIGBREAK) stop ``reactor`` once (call before it runs). Twisted's
    own handlers ask the reactor to stop at every signal, and a second one — Ctrl-C then a
    ``kill``, or a service manager's SIGTERM twice — while the host was already stopping logged a
    CRITICAL ``ReactorNotRunning`` traceback (issue #9). Now the first signal stops the reactor as
    before (its ``before shutdown`` triggers tell the players, write the record, close the
    journal); a later one, or one after the match's end has begun the shutdown, only logs
    ``already stopping`` (one line)."""
    from twisted.internet.error import ReactorNotRunning
    from twisted.logger import Logger

    log = Logger(namespace="frapnet.host")
    stopping = [False]

    def stop() -> None:
        try:
            reactor.stop()
        except ReactorNotRunning:  # the match's end stopped it in the meantime
            pass

    def handler(name: str):
        def on_signal(number, frame=None) -> None:
            if stopping[0]:
                log.info("received {sig} while stopping: already stopping", sig=name)
                return
            stopping[0] = True
            log.info("received {sig}: stopping (the players are told, the record and journal written)", sig=name)
            reactor.callFromThread(stop)
        return on_signal

    reactor.addSystemEventTrigger("before", "shutdown", lambda: stopping.__setitem__(0, True))
    for attr, name in (("sigInt", "SIGINT"), ("sigTerm", "SIGTERM"), ("sigBreak", "SIGBREAK")):
        setattr(reactor, attr, handler(name))
