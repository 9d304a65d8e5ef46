"""The host's garbage-collector policy (issue #9 capacity target; frapnet.runtime.GcPolicy,
docs/performance.md "Garbage collection"): what is alive at start-up frozen, young collections on
the reactor's clock (survivors grow old), a full collection of the old generation once it has
doubled — so no pause scans every table's live objects, and cyclic garbage stays bounded. A
``task.Clock`` drives it; every test gives Python's own schedule back (``stop``)."""
from __future__ import annotations

import gc
import weakref

from twisted.internet.task import Clock

from frapnet.runtime import CHECK_EVERY, FULL_FLOOR, FULL_GROWTH, YOUNG_EVERY, GcPolicy


class Node:
    """A reference cycle: only the cyclic collector frees it."""

    def __init__(self):
        self.me = self


def test_policy_collects_young_cycles_on_the_clock_and_survivors_grow_old():
    clock = Clock()
    policy = GcPolicy(clock).start()
    try:
        assert (YOUNG_EVERY, FULL_GROWTH, FULL_FLOOR, CHECK_EVERY) == (0.05, 2.0, 100_000, 10.0)
        assert not gc.isenabled()  # Python's allocation-count schedule is off
        assert gc.get_freeze_count() > 1000  # what was alive at start-up: modules, functions…
        dead = weakref.ref(Node())  # garbage at once, but a cycle: reference counting cannot free it
        kept = Node()
        clock.advance(0.049)
        assert dead() is not None and policy.young_collections == 0
        clock.advance(0.001)
        assert policy.young_collections == 1
        assert dead() is None  # the young collection found the cycle
        assert len(gc.get_objects(1)) == 0 and any(o is kept for o in gc.get_objects(2))  # kept grew old
        clock.pump([YOUNG_EVERY] * 3)
        assert policy.young_collections == 4 and policy.full_collections == 0
        assert kept.me is kept
    finally:
        policy.stop()
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_an_old_cycle_waits_for_the_full_collection_which_runs_when_the_old_generation_doubles():
    clock = Clock()
    policy = GcPolicy(clock, floor=1000).start()
    try:
        node = Node()
        clock.advance(YOUNG_EVERY)  # it survives a young collection: old
        ref = weakref.ref(node)
        del node  # now garbage, but old: young collections never look at it
        clock.pump([YOUNG_EVERY] * 4)
        assert ref() is not None and policy.full_collections == 0
        assert policy.check() is False  # the old generation is under the floor of 1,000 objects
        grown = [[i] for i in range(1500)]
        clock.advance(YOUNG_EVERY)
        assert policy.old() > 1500
        clock.advance(CHECK_EVERY)  # the count is checked on the clock
        assert policy.full_collections == 1
        assert ref() is None  # the full collection freed the old cycle
        assert policy.old_after_full >= len(grown)
        more = [[i] for i in range(policy.old_after_full // 2)]
        clock.advance(YOUNG_EVERY)
        assert policy.check() is False  # grown by half: no full collection before it doubles
        more += [[i] for i in range(policy.old_after_full)]
        clock.advance(YOUNG_EVERY)
        assert policy.check() is True and policy.full_collections == 2
    finally:
        policy.stop()
    assert gc.isenabled() and gc.get_freeze_count() == 0
