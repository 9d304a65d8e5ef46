"""The computer players' shared helpers (issue #8): the samplers' view walk, cache and deck layout
in :mod:`frapnet.games.hidden`, and the table State a player samples against."""
from __future__ import annotations

import random

from frapnet import engine
from frapnet.bots import sampling
from frapnet.games import hidden


def _views(game="napoleon", actions=3, seed=4):
    st = engine.new_match(game, 4)
    deck = engine.pack(st)
    random.Random(seed).shuffle(deck)
    st, _ = engine.start_deal(st, deck, 0)
    views = [engine.view(st, 1)]
    rng = random.Random(seed)
    for _ in range(actions):
        s = st.to_act[0]
        st, _ = engine.apply(st, s, rng.choice(engine.legal_actions(st, s)))
        views.append(engine.view(st, 1))
    return st, views


def test_steps_pairs_consecutive_views_and_refuses_a_gap():
    """One pair per accepted action (version + 1); a repeated version is the same state; a gap
    (a player that came in mid-deal) cannot be explained: None."""
    _, views = _views()
    got = hidden.steps(views[:2] + [views[1]] + views[2:])  # views[1] repeated
    assert got is not None
    seen, pairs = got
    assert [v["version"] for v in seen] == [v["version"] for v in views]
    assert [(a["version"], b["version"]) for a, b in pairs] == [(v["version"], v["version"] + 1) for v in views[:-1]]
    assert hidden.steps([views[0], views[2]]) is None


def test_card_played_reads_the_trick_or_the_completed_trick():
    """N6 (any trick game): the card played is the trick's last, or last_trick's when it completed it."""
    a = {"trick": [[0, "AS"]], "last_trick": None}
    assert hidden.card_played(a, {"trick": [[0, "AS"], [1, "7S"]], "last_trick": None}) == "7S"
    assert hidden.card_played(a, {"trick": [], "last_trick": [[0, "AS"], [1, "7S"], [2, "8S"], [3, "KS"]]}) == "KS"


def test_deal_out_deals_one_card_at_a_time_from_the_dealers_left():
    """N3/K2: deck[k] goes to seat (dealer + 1 + k) mod n; engine.start_deal gives those hands back."""
    hands = [["6S", "7S"], ["6H", "7H"], ["6D", "7D"], ["6C", "7C"]]
    deck = hidden.deal_out(hands, 2, 4)
    assert deck == ["6C", "6S", "6H", "6D", "7C", "7S", "7H", "7D"]
    table = engine.new_match("napoleon", 4)
    pack = engine.pack(table)
    five = [pack[5 * s:5 * s + 5] for s in range(4)]
    st, _ = engine.start_deal(table, hidden.deal_out(five, 2, 4) + pack[20:], 2)
    assert [sorted(h) for h in st.deal.hands] == [sorted(h) for h in five]


def test_before_deal_undoes_the_stakes_paid_in():
    """N2: every seat paid one stake into the treasure at the deal's start; the sample's ledger is before it."""
    _, views = _views()
    v0 = views[0]
    stake = v0["options"]["stake"]
    got = hidden.before_deal(v0, stake)
    assert got == {"balances": [b + stake for b in v0["balances"]], "pot": v0["pot"] - 4 * stake, "match": {}}
    assert sum(got["balances"]) + got["pot"] == 0


def test_knowledge_rebuilds_once_per_decision():
    """A search asks its sampler many times for one decision: the deal is read once."""
    calls = []

    def read(observations, seat, extra):
        calls.append((seat, len(observations), extra))
        return {"seat": seat}

    know = hidden.Knowledge(read, size=2)
    _, views = _views()
    assert know(1, views, "x") == {"seat": 1}
    assert know(1, views, "x") == {"seat": 1}
    assert calls == [(1, len(views), "x")]
    know(2, views, "x")
    know(1, views[:2], "x")  # a third entry clears the cache (size 2)
    know(1, views, "x")
    assert len(calls) == 4
    assert know(1, [], "x") is None and len(calls) == 4  # no views: nothing to read (was IndexError)


def test_table_for_is_remembered():
    """The table State a player samples against is made once per table, not at every player's first decision."""
    _, views = _views()
    assert sampling.table_for(views[-1]) is sampling.table_for(dict(views[-1]))
