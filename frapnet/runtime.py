"""Process set-up for a long-running frapnet process (`frapnet host`): the garbage collector's
tuning and a log filter. Process-wide: call these from a command's main, never from a library.
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


GC_THRESHOLDS = (10_000, 50, 1000)
"""The cyclic garbage collector's thresholds in a host process (Python's default: 700, 10, 10)."""


def tune_gc() -> None:
    """For a long-running host process (`frapnet host`), once its tables are set up: collect,
    move every object alive now (modules, plugins, tables) out of the cyclic collector's reach
    (``gc.freeze()``), and collect less often (:data:`GC_THRESHOLDS`). Objects are still freed
    as soon as nothing refers to them; only the rare reference cycles wait longer. With
    Python's defaults a full collection over hundreds of tables' states paused the host for
    65 ms (bench/net.py "Capacity": 400 four-seat tables over the 50 ms p99); tuned, the worst
    pause at 600 tables was 14 ms. Process-wide: call it from a host's main, not a library."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
