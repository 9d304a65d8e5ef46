"""Helpers for frapnet's tests and for plugin authors' tests (pure; no Twisted).

- :func:`shared_dir` / :func:`case_files`: the shared rule books and cases (``../shared``).
- :func:`matches`: compare a replay result with a case's ``expect`` (cases/README.md).
- :func:`random_match`: play random legal deals of any registered game, checking nothing;
  property tests build on it.
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
