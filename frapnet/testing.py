"""Helpers for frapnet's tests and for plugin authors' tests (pure; no Twisted).

- :func:`shared_dir` / :func:`case_files`: the shared rule books and cases (``../shared``);
  :func:`require_shared` skips a test that reads them where they are missing (or fails it, under CI).
- :func:`matches`: compare a replay result with a case's ``expect`` (cases/README.md).
- :func:`random_deals`: play random legal deals of any registered game, checking nothing;
  property tests build on it.
- :func:`seat_map`: the map a seat's view frame holds (the public view, its own keys last).
- :func:`fixed_deck` / :func:`play`: build a deck that deals given hands (Frap's F8 layout) and
  apply a list of ``(seat, verb[, arg])`` actions, for fixed-deck rule tests.
"""
from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Iterator

from frapnet import engine
import frapnet.plugins  # noqa: F401 - the installed plugins become the engine's default registry


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


def _ci() -> bool:
    """True under CI (``CI`` set to anything but empty, 0, false or no; CI services set CI=true)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def shared_problem() -> tuple[str, bool] | None:
    """Why the shared rule cases (``shared_dir() / "cases"``) cannot be read here, or None if they can.

    Returns ``(reason, error)``. ``error`` is False only for a checkout with no shared folder
    beside it and not under CI: the tests that read the cases skip with ``reason``. It is True —
    the tests fail, naming it — when ``$FRAPNET_SHARED`` names a folder without ``cases/`` (a
    wrong path is a mistake to report, not to skip), when a ``shared`` folder is there but has no
    ``cases/``, and under CI (``CI=true``), where a skip would silently leave the rule cases out.
    """
    how = "put the shared folder (rule books in spec/, cases in cases/) beside the clone as ../shared, " \
          "or set FRAPNET_SHARED=/path/to/shared"
    env = os.environ.get("FRAPNET_SHARED")
    if env:
        d = Path(env)
        if (d / "cases").is_dir():
            return None
        what = "has no cases/ folder" if d.is_dir() else "does not exist"
        return f"FRAPNET_SHARED={env} {what}: set it to the shared folder (with cases/ and spec/), or unset it " \
               f"to use ../shared beside the clone", True
    d = shared_dir()
    if (d / "cases").is_dir():
        return None
    if d.exists():
        return f"the shared rule cases are missing: {d} has no cases/ folder; {how}", True
    reason = f"the shared rule cases are missing: there is no {d} beside the clone; {how}"
    if _ci():
        return reason + " (CI is set: the rule cases must run there, so this fails rather than skips)", True
    return reason, False


def require_shared() -> Path:
    """:func:`shared_dir`, for a test that reads the shared rule books or cases: where they are
    missing, skips the test naming what is missing and how to provide it, or fails it instead
    when :func:`shared_problem` says that is an error (a wrong ``$FRAPNET_SHARED``, CI). frapnet's
    own tests mark such tests ``@pytest.mark.shared`` (conftest.py calls this before each)."""
    import pytest

    problem = shared_problem()
    if problem is not None:
        reason, error = problem
        if error:
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return shared_dir()


def case_files(game: str | None = None) -> list[Path]:
    """The shared case files, optionally only those whose record plays ``game`` (none where the
    shared folder is missing: see :func:`require_shared`)."""
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


def seat_map(public: dict, own: dict) -> dict:
    """The map of a seat's view frame as the host's fan-out encodes it
    (:meth:`frapnet.net.viewcodec.PublicEncoder.frame_part`): the public view's keys in order, but
    those in ``own`` (the seat's own keys, :func:`frapnet.engine.seat_part`) last, in ``own``'s
    order, with ``own``'s values. Equal to ``{**public, **own}``; only the order differs."""
    return {**{k: v for k, v in public.items() if k not in own}, **own}


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


# --- computer players' hooks (issue #8; /work/team/bots-interface.md) -----------------------------

def _deal_steps(game: str, players: int, options, house_rules, rng: random.Random, deals: int, registry=None,
                chooser=None):
    """Play ``deals`` random deals (fresh match each, random dealer); yield
    ``(state, views)`` at every decision, ``views[s]`` the list of seat s's views since the deal
    started (one per accepted action, as a client connected all along receives them)."""
    for _ in range(deals):
        st = engine.new_match(game, players, options, house_rules, registry)
        deck = engine.pack(st)
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, rng.randrange(players))
        views = [[engine.view(st, s)] for s in range(players)]
        while st.phase == engine.DEAL:
            yield st, views
            seat = st.to_act[0]
            acts = engine.legal_actions(st, seat)
            act = chooser(st, seat, acts) if chooser else rng.choice(acts)
            st, _ = engine.apply(st, seat, act)
            for s in range(players):
                views[s].append(engine.view(st, s))


def check_sampler(game: str, players: int, options: dict | None = None, house_rules=(), deals: int = 30,
                  samples: int = 2, seed: int = 1, registry=None, every: int = 1, effort: str = "search") -> dict:
    """Check a game's ``frapnet_sample_deal`` over random deals (issue #8 "Sampling property"),
    asking with ``effort`` (``"search"``, the search's samples, or ``"any"``, ``basic``'s).

    At every ``every``-th decision of random legal deals, for **every** seat, asks the sampler for
    ``samples`` deal samples from that seat's views only, and replays each with the pure engine
    (:func:`frapnet.bots.sampling.replay_sample`), asserting: the deck is a permutation of the
    pack and every sampled action is accepted (every earlier public action stays legal: F20 voids,
    the game's own rules); the seat's view after each replayed action equals the view it received
    (``version`` aside) — so own cards, cards played, turn-ups live and dead, own discards and who
    took a turn-up are all where the seat saw them, and no card is placed where the seat saw
    another; and the final view equals the real one. Also asserts the sampler is not returning
    the real deal (across the run some sample differs from the truth in a hidden card), and that
    asked with no views at all (empty observations) it returns None rather than raising.

    Returns counts ``{"checked", "declined", "differs"}``. Raises AssertionError naming the
    game, deal, seat and step on the first failure.
    """
    from frapnet.bots.sampling import replay_sample, same_view, table_for

    rng = random.Random(seed)
    srng = random.Random(seed + 1)
    checked = declined = differs = 0
    step = 0
    for st, views in _deal_steps(game, players, options, tuple(house_rules), rng, deals, registry):
        step += 1
        if step % every:
            continue
        table = table_for(views[0][-1], registry)
        if not checked:  # nothing to explain: None (an empty list has no view now, observations[-1])
            for seat in range(players):
                got = table.rules.sample_deal(table, seat, [], random.Random(0), effort)
                assert got is None, f"{game} seat {seat}: the sampler answered {got!r} for no observations"
        for seat in range(players):
            obs = views[seat]
            for _ in range(samples):
                sample = table.rules.sample_deal(table, seat, [dict(v) for v in obs], srng, effort)
                where = f"{game} deal {st.deal_no} step {step} seat {seat}"
                assert sample is not None, f"{where}: the sampler declined complete observations"
                assert sorted(sample["deck"]) == sorted(engine.pack(table)), f"{where}: deck not a permutation"
                # replay action by action with the pure engine, comparing the seat's views
                part = dict(sample, actions=[])
                try:
                    rs = replay_sample(table, part, obs[-1]["deal_no"], pure=True)
                except engine.RuleError as exc:
                    raise AssertionError(f"{where}: sampled deal refused at the start: {exc}") from None
                got = [engine.view(rs, seat)]
                for i, a in enumerate(sample["actions"]):
                    try:
                        rs, _ = engine.apply(rs, a[0], tuple(a[1:]))
                    except engine.RuleError as exc:
                        raise AssertionError(f"{where}: sampled action {i} {a} refused: {exc}") from None
                    got.append(engine.view(rs, seat))
                assert len(got) == len(obs), f"{where}: {len(got)} views replayed for {len(obs)} observed"
                for i, (g, o) in enumerate(zip(got, obs)):
                    if not same_view(g, o):
                        diff = {k: (g.get(k), o.get(k)) for k in set(g) | set(o)
                                if k not in ("version",) and g.get(k) != o.get(k)}
                        raise AssertionError(f"{where}: view {i} differs from the observation: {diff}")
                if rs.deal != st.deal:
                    differs += 1
                checked += 1
    assert checked, f"{game}: no decision was checked"
    assert differs, f"{game}: every sample equals the real deal — the sampler must not see hidden cards"
    return {"checked": checked, "declined": declined, "differs": differs}


def check_policy(game: str, players: int, options: dict | None = None, house_rules=(), decisions: int = 2000,
                 seed: int = 1, registry=None) -> dict:
    """Check a game's ``frapnet_policy`` (issue #8): over ``decisions`` decisions of deals played by
    the policy itself, every answer is one of the legal actions, and a state whose hidden cards
    were re-dealt by the game's sampler (the same view for the seat) gets the same answer for the
    same rng seed. Returns ``{"decisions", "swapped"}``; raises AssertionError on a failure."""
    from frapnet.bots.sampling import sample_states, table_for

    rng = random.Random(seed)
    made = swapped = 0
    deals = 0

    def chooser(st, seat, acts):
        a = st.rules.policy(st, seat, acts, random.Random(made))
        return a if a is not None else rng.choice(acts)

    while made < decisions:
        deals += 1
        for st, views in _deal_steps(game, players, options, tuple(house_rules), rng, 1, registry, chooser):
            seat = st.to_act[0]
            acts = engine.legal_actions(st, seat)
            a = st.rules.policy(st, seat, acts, random.Random(made))
            assert a is None or a in acts, f"{game}: policy answered {a!r}, not one of {acts}"
            table = table_for(views[seat][-1], registry)
            # any consistent re-deal will do (effort "any": the cheapest, and no closer to the truth)
            for other in sample_states(table, seat, views[seat], random.Random(made + 7), 1, effort="any"):
                b = other.rules.policy(other, seat, engine.legal_actions(other, seat), random.Random(made))
                assert b == a, (f"{game} deal {deals}: the policy's choice changed with hidden cards only: "
                                f"{a!r} vs {b!r} (seat {seat})")
                swapped += 1
            made += 1
            if made >= decisions:
                break
    return {"decisions": made, "swapped": swapped}
