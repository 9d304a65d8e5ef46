"""Helpers for frapnet's tests and for plugin authors' tests (pure; no Twisted).

- :func:`shared_dir` / :func:`case_files`: the shared rule books and cases (``../shared``).
- :func:`matches`: compare a replay result with a case's ``expect`` (cases/README.md).
- :func:`random_deals`: play random legal deals of any registered game, checking nothing;
  property tests build on it.
- :func:`fixed_deck` / :func:`play`: build a deck that deals given hands (Frap's F8 layout) and
  apply a list of ``(seat, verb[, arg])`` actions, for fixed-deck rule tests.
"""
from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Iterator

from frapnet import engine


def shared_dir() -> Path:
    """``$FRAPNET_SHARED``, else the ``shared`` folder beside the checkout (as CI lays it)."""
    env = os.environ.get("FRAPNET_SHARED")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    for base in (here, *here.parents):
        cand = base.parent / "shared"
        if (cand / "cases").is_dir():
            return cand
    return here.parent / "shared"


def case_files(game: str | None = None) -> list[Path]:
    """The shared case files, optionally only those whose record plays ``game``."""
    import json

    files = sorted((shared_dir() / "cases").glob("*.json"))
    if game is None:
        return files
    return [f for f in files if json.loads(f.read_text()).get("record", {}).get("game") == game]


def matches(expect, got, path: str = "$") -> None:
    """Assert ``got`` matches ``expect``: objects key by key (only the keys given), lists element
    by element, scalars equal (and of the same type); ``message`` is never compared."""
    if isinstance(expect, dict):
        assert isinstance(got, dict), f"{path}: expected an object, got {got!r}"
        for k, v in expect.items():
            if k == "message":
                continue
            assert k in got, f"{path}.{k} missing in {got!r}"
            matches(v, got[k], f"{path}.{k}")
    elif isinstance(expect, list):
        assert isinstance(got, list) and len(got) == len(expect), f"{path}: {got!r} != {expect!r}"
        for i, (e, g) in enumerate(zip(expect, got)):
            matches(e, g, f"{path}[{i}]")
    else:
        assert type(got) is type(expect) and got == expect, f"{path}: {got!r} != {expect!r}"


def random_deals(state: engine.State, rng: random.Random, deals: int) -> Iterator[tuple]:
    """Play ``deals`` random deals from ``state`` (choosing uniformly among legal actions of the
    first seat to act); yield ``(state_before, seat, action, state_after)`` for every step, and
    ``(state_before, None, ("deal", deck), state_after)`` for each deal start."""
    pack = engine.pack(state)
    for _ in range(deals):
        if state.phase == engine.OVER:
            return
        deck = pack[:]
        rng.shuffle(deck)
        dealer = rng.randrange(state.players) if state.dealer is None else None
        before = state
        state, _ = engine.start_deal(state, deck, dealer)
        yield before, None, ("deal", deck), state
        while state.phase == engine.DEAL:
            seat = state.to_act[0]
            action = rng.choice(engine.legal_actions(state, seat))
            before = state
            state, _ = engine.apply(state, seat, action)
            yield before, seat, action, state


def fixed_deck(pack: list[str], players: int, dealer: int, hands: dict, turn_up: str | None = None,
               talon: tuple | list = (), hand_size: int = 4) -> list[str]:
    """A deck (top first) that deals ``hands`` by Frap's F8 layout, for fixed-deck tests.

    ``hands`` maps seat → its ``hand_size`` cards; ``deck[k]`` for k < hand_size·n goes to seat
    (dealer + 1 + k) mod n, then comes ``turn_up``, then ``talon`` (top first), then every other
    card of ``pack`` in pack order. Seats not in ``hands`` and a missing turn-up are filled from
    the rest of the pack. Raises ValueError if a card is named twice or is not in the pack.
    """
    named = [c for s in hands for c in hands[s]] + ([turn_up] if turn_up else []) + list(talon)
    if len(set(named)) != len(named) or not set(named) <= set(pack):
        raise ValueError(f"cards named twice or not in the pack: {named}")
    rest = [c for c in pack if c not in set(named)]
    given = {s: list(h) for s, h in hands.items()}
    for s in range(players):
        if s not in given:
            given[s], rest = rest[:hand_size], rest[hand_size:]
        if len(given[s]) != hand_size:
            raise ValueError(f"seat {s} needs {hand_size} cards, not {given[s]}")
    deck = [given[(dealer + 1 + k) % players][k // players] for k in range(hand_size * players)]
    if turn_up is None:
        turn_up, rest = rest[0], rest[1:]
    return deck + [turn_up] + list(talon) + rest


def play(state: engine.State, actions) -> tuple[engine.State, list]:
    """Apply ``actions`` — ``(seat, verb[, arg])`` each — in order; return the state and all events.

    Raises the first RuleError (with the index of the action added to its message)."""
    events = []
    for i, (seat, *act) in enumerate(actions):
        try:
            state, ev = engine.apply(state, seat, tuple(act))
        except engine.RuleError as exc:
            raise engine.RuleError(exc.rule, f"action {i} {[seat, *act]}: {exc.message}") from None
        events.extend(ev)
    return state, events


def netns_unavailable() -> str | None:
    """Why network namespaces (``ip netns``) cannot be made here, or None if they can.

    Tests that put a host and a client on two "machines" skip with this reason (not Linux, not
    root, no iproute2). It makes and deletes one empty namespace to find out.
    """
    import shutil
    import subprocess
    import sys

    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "creating network namespaces needs root (.ci/run runs as root)"
    if not shutil.which("ip"):
        return "iproute2 (ip) is not installed; .ci/run installs it"
    name = f"frapchk{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if r.returncode != 0:
        return f"ip netns add failed: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None
