"""Napoleon under random legal play, 2–6 players and several stakes: at every step the cards are
conserved (N1, N3, N5), the chips ledger holds (N2: balances + treasure = 0, treasure never
negative), only the seat to act has actions (N4–N6), every listed action is accepted and some
unlisted ones are refused with the phase's rule and the state unchanged, views leak no hidden
card, and a record written by engine.record() replays to the same result."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st_

from frapnet import engine, record
from frapnet.cards import ALL_CARDS, is_card, pack
from frapnet.errors import RuleError
from frapnet.testing import random_deals

PACK = Counter(pack(36))
PHASE_RULE = {"auction": "N4", "buy": "N5", "play": "N6"}


def _cards_in(obj, out):
    if isinstance(obj, str):
        if is_card(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _cards_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _cards_in(v, out)
    return out


def check_state(st, played):
    """Invariants of one state; ``played`` is every card of this deal's finished tricks."""
    assert sum(st.balances) + st.pot == 0  # N2
    assert st.pot >= 0
    d = st.deal
    if d is None:
        return
    held = [c for h in d.hands for c in h]
    trick = [c for _, c in d.trick]
    talon = list(d.deck[d.talon_pos:])
    discard = [d.discard] if d.discard else []
    assert Counter(held + trick + played + talon + discard) == PACK  # card conservation
    assert len(held) + len(trick) + len(played) == 5 * st.players  # N5: one out, one in
    assert len(talon) == 36 - 5 * st.players - (1 if d.discard else 0)
    assert sum(d.tricks) == d.played <= 5
    if st.phase == "deal":
        assert len(st.to_act) == 1
        for s in range(st.players):
            acts = engine.legal_actions(st, s)
            assert bool(acts) == (s in st.to_act), (s, st.to_act, acts)
            assert len(acts) == len(set(acts))


def check_views(st):
    """No view shows another seat's cards, the talon or the discard (N5); a spectator sees only
    public cards (the trick and the last trick)."""
    d = st.deal
    if d is None:
        return
    talon = set(d.deck[d.talon_pos:])
    public = {c for _, c in d.trick} | {c for _, c in (d.last_trick or [])}
    for seat in [None] + list(range(st.players)):
        v = engine.view(st, seat)
        json.dumps(v)  # plain data
        seen = _cards_in(v, set())
        own = set(d.hands[seat]) if seat is not None else set()
        if seat is not None and seat == d.declarer and d.discard:
            own.add(d.discard)
        assert seen <= own | public, (seat, seen - own - public)
        assert not (seen & talon)
        if seat is not None:
            assert sorted(v["hand"]) == sorted(d.hands[seat])
            assert [a["action"] for a in v["actions"]] == [engine.action_to_wire(a) for a in engine.legal_actions(st, seat)]
            assert all(isinstance(a["label"], str) and a["label"] for a in v["actions"])


def illegal_probe(st, seat, rng):
    """Try an action that is not legal now; it must be refused with the phase's rule (or "record"
    for a malformed one) and leave the state unchanged."""
    d = st.deal
    legal = set(engine.legal_actions(st, seat))
    candidates = [("pass",), ("here",), ("napoleon",), ("bid", rng.randint(0, 6)), ("buy", ()),
                  ("play", rng.choice(ALL_CARDS[:-2]))]
    other = (seat + 1 + rng.randrange(st.players - 1)) % st.players
    for a in candidates:
        s = seat if rng.random() < 0.7 else other
        if s == seat and a in legal:
            continue
        if a[0] == "play" and a[1] not in PACK:
            continue
        before = st.clone()
        with pytest.raises(RuleError) as exc:
            engine.apply(st, s, a)
        assert exc.value.rule == PHASE_RULE[d.phase], (d.phase, s, a, exc.value)
        assert st == before
        return


def play_random(n, stake, seed, deals, probe=True):
    st = engine.new_match("napoleon", n, {"stake": stake})
    rng = random.Random(seed)
    played: list[str] = []
    outcomes = Counter()
    steps = 0
    for before, seat, action, after in random_deals(st, rng, deals):
        steps += 1
        if seat is None:
            played = []
        elif action[0] == "play":
            if not after.deal.trick:
                # the trick just completed: its cards are the last trick
                played = played + [c for _, c in after.deal.last_trick]
            if probe and rng.random() < 0.05:
                illegal_probe(before, seat, rng)
        elif probe and rng.random() < 0.2:
            illegal_probe(before, seat, rng)
        if after.phase != "deal" and seat is not None:
            r = after.reports[-1]
            outcomes[(r["outcome"], r["bid"] == "napoleon", r["made"])] += 1
            check_report(before, r)
        else:
            check_state(after, played)
        if rng.random() < 0.1:
            check_views(after)
        st = after
    return st, outcomes, steps


def check_report(before, r):
    """N8 from the state before the last action: payments and treasure as the rule book gives."""
    n = before.players
    assert set(r) >= {"dealer", "outcome", "declarer", "bid", "trump", "tricks"}
    assert sum(r["payments"]) + r["to_treasure"] == 0
    if r["outcome"] == "thrown_in":
        assert r["declarer"] is None and r["bid"] is None and r["trump"] is None and r["tricks"] == [0] * n
        assert r["payments"] == [0] * n and r["pot_after"] == before.pot
        return
    assert r["outcome"] == "played"
    s = before.options["stake"]
    b = 5 if r["bid"] == "napoleon" else r["bid"]
    decl = r["declarer"]
    took = r["tricks"][decl]
    assert r["made"] == (took >= b)
    assert took == b or took + (5 - sum(r["tricks"])) < b  # N7: stopped at once
    for o in range(n):
        if o != decl:
            assert r["payments"][o] == (-s * b if r["made"] else s * b)
    if r["bid"] == "napoleon":
        assert r["to_treasure"] == (-before.pot if r["made"] else before.pot)
    else:
        assert r["to_treasure"] == (0 if r["made"] else s * b)
    assert r["pot_after"] == before.pot + r["to_treasure"]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("stake", [1, 10, 37])
def test_random_play_invariants_N1_to_N9(n, stake):
    st, outcomes, steps = play_random(n, stake, seed=1000 * n + stake, deals=120)
    assert st.deal_no == 120 and steps > 120 * 4
    assert sum(v for k, v in outcomes.items() if k[0] == "played") > 60


def test_random_play_many_actions_all_sizes():
    """Over 10,000 actions across the table sizes 2–6, without the slower probes (N1–N9; every
    kind of ending occurs; 150 deals a size, seeded: 10,505 actions)."""
    total = 0
    seen = Counter()
    for n in range(2, 7):
        _, outcomes, steps = play_random(n, 5, seed=n, deals=150, probe=False)
        total += steps
        seen.update(outcomes)
    assert total > 10_000
    # every kind of ending occurred: thrown in; plain bid made/failed; napoleon made/failed
    assert set(seen) == {("thrown_in", False, None), ("played", False, True), ("played", False, False),
                         ("played", True, True), ("played", True, False)}, seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st_.integers(2, 6), stake=st_.integers(1, 10**30), seed=st_.integers(0, 2**32))
def test_record_round_trip(n, stake, seed):
    """A record written by engine.record() of a random match replays to the same result (even
    with a huge stake: exact whole chips), including an unfinished last deal."""
    st = engine.new_match("napoleon", n, {"stake": stake})
    rng = random.Random(seed)
    stop = rng.randrange(200)
    for i, (_, _, _, after) in enumerate(random_deals(st, rng, 6)):
        st = after
        if i == stop:
            break
    rec = json.loads(record.dumps(engine.record(st)))
    final, res = record.replay(rec)
    assert final == st
    assert res == record.result(st)
    assert res["balances"] == st.balances and res["pot"] == st.pot
    assert sum(res["balances"]) + res["pot"] == 0
