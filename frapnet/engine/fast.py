"""The engine's fast simulation path for search (issue #8): copy once, then apply in place.

:func:`frapnet.engine.apply` stays pure for the host — it normalises the action, clones the whole
state, appends to the history and returns a new state, so the state a caller holds never changes.
A search playing thousands of playouts from one position needs none of that: it copies the
position once (:func:`copy_state`, the deal's generated ``clone()``, style.md 5) and then applies
legal actions **in place** (:func:`apply_in_place`), with no normalising, no history and no copy
per action. Only actions taken from :func:`frapnet.engine.legal_actions` may be applied this way
(a hook that raises may leave the state half-changed: throw such a state away).

    root = copy_state(state)          # never changes `state`
    result = playout(root, choose, rng)   # to the end of the deal, in place

No I/O, no clock (the caller keeps any time budget).
"""
from __future__ import annotations

from typing import Callable

from frapnet.engine.core import _finish_deal
from frapnet.engine.state import DEAL, State

_new = object.__new__


def copy_state(state: State) -> State:
    """A copy of ``state`` sharing nothing mutable with it (the deal via its ``clone()``).

    Cheaper than :meth:`State.clone` only in what it skips: nothing. It exists so that the search
    path names what it relies on; ``history``, ``reports`` and ``options`` are shared (the fast
    path never appends to them)."""
    return state.clone()


def apply_in_place(state: State, seat: int, action: tuple) -> list:
    """Apply ``action`` — a tuple from ``legal_actions(state, seat)`` — by ``seat`` to ``state``
    itself; settle the deal (``frapnet_settle``) when it ends. Returns the events.

    ``state.version`` rises by one; ``state.history`` is left as it was (a simulated state is
    never recorded). Raises what the game's hook raises (RuleError for an illegal action), after
    which ``state`` may be half-changed.
    """
    events = state.rules.apply_action(state, seat, action)
    state.version += 1
    if state.deal_over:
        events.extend(_finish_deal(state))
    return events


Chooser = Callable[[State, int, list], tuple]


def playout(state: State, choose: Chooser, max_actions: int = 100_000) -> State:
    """Play ``state`` in place to the end of the deal: at every step the first seat in
    ``state.to_act`` moves ``choose(state, seat, legal_actions)``. Returns ``state``.

    Raises RuntimeError if the deal has not ended after ``max_actions`` actions (a game bug).
    """
    legal = state.rules.legal_actions
    apply_action = state.rules.apply_action
    n = 0
    if state.phase != DEAL:
        return state
    while not state.deal_over:
        seat = state.to_act[0]
        apply_action(state, seat, choose(state, seat, legal(state, seat)))
        n += 1
        if n > max_actions:
            raise RuntimeError(f"{state.game}: the deal did not end after {max_actions} actions")
    state.version += n
    _finish_deal(state)
    return state
