"""Random legal play of La Krap for 3–6 players: invariants at every step (card conservation
L2/L4/L7, seven tricks L8, points L12, legal actions, views without leaks), and records written
by engine.record() replaying to the same result."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from frapnet import engine, record
from frapnet.errors import RuleError
from frapnet.testing import random_deals

from frapnet_la_krap.plugin import PACK, side_scores

PACK_COUNT = Counter(PACK)


def _all_cards(d):
    """Every card of the deal, wherever it is (hands, team cards, talon, turn-up, discards, tricks)."""
    cards = [d.turn_up]
    cards += d.talon[d.talon_pos:]
    for s in range(d.n):
        cards += d.hand(s)
        cards += d.discards[s]
    return cards


def _same_view_whatever_is_hidden(st, seat, rng):
    """The view of ``seat`` (None: a spectator) does not change when the cards it may not see —
    the others' face-down cards and the talon — are dealt differently: nothing hidden leaks."""
    other = st.clone()
    d = other.deal
    hidden_seats = [s for s in range(d.n) if s != seat]
    pool = list(d.talon[d.talon_pos:])
    for s in hidden_seats:
        pool += d.down[s]
    rng.shuffle(pool)
    for s in hidden_seats:
        k = len(d.down[s])
        d.down[s], pool = pool[:k], pool[k:]
    d.talon = d.talon[:d.talon_pos] + tuple(pool)
    assert engine.view(other, seat) == engine.view(st, seat)
    assert engine.view(other, seat, "ru") == engine.view(st, seat, "ru")


def _check(st, played):
    d = st.deal
    n = st.players
    # L2/L4/L7: card conservation: the 72 cards are always all somewhere, exactly once each
    assert Counter(_all_cards(d) + played) == PACK_COUNT
    # L8: hand sizes: 7 − tricks played, minus one for seats already in the current trick
    in_trick = {s for s, _ in d.trick}
    for s in range(n):
        assert len(d.hand(s)) == 7 - d.played - (s in in_trick)
    assert sum(d.tricks) == d.played <= 7
    # legal actions: only the seat to act has any, and each is accepted
    for s in range(n):
        acts = engine.legal_actions(st, s)
        if st.phase != "deal" or s not in st.to_act:
            assert acts == []
        else:
            assert acts and len(acts) == len(set(acts))
    # views: a seat sees its own hand; team cards are public; counts of the others' cards
    for s in [None, *range(n)]:
        v = engine.view(st, s)
        assert v["talon"] == d.talon_count and isinstance(v["talon"], int)
        assert [x["team_card"] for x in v["seats"]] == d.team
        assert [x["cards"] for x in v["seats"]] == [len(d.hand(x)) for x in range(n)]
        if s is None:
            assert v["hand"] is None and v["actions"] == []
        else:
            assert Counter(v["hand"]) == Counter(d.hand(s))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_play_invariants(n):
    """L2 L4 L7 L8 L12: conservation, hand sizes, legal actions and points at every step."""
    rng = random.Random(1000 + n)
    st = engine.new_match("la_krap", n, {"target": 10 ** 9})
    played = []
    steps = 0
    for before, seat, action, after in random_deals(st, rng, 25):
        if seat is None:
            played = []
            assert after.deal.phase == "exchange" and after.to_act == ((after.dealer + 1) % n,)
        else:
            steps += 1
            if action[0] == "play":
                played.append(action[1])
            # a rejected action never changes the state: try the wrong seat
            other = (seat + 1) % n
            snap = before.clone()
            with pytest.raises(RuleError):
                engine.apply(before, other, action)
            assert before == snap
        if after.phase == "deal":
            _check(after, played)
            if steps % 5 == 0:
                for s in [None, *range(n)]:
                    _same_view_whatever_is_hidden(after, s, rng)
        else:
            rep = after.reports[-1]
            assert sum(rep["tricks"]) == 7
            decls = [len(x) for x in rep["declarations"]]
            assert rep["deal_points"] == side_scores([tuple(x) for x in rep["teams"]], rep["tricks"], decls)
            assert sorted(s for side in rep["teams"] for s in side) == list(range(n))
            assert after.balances == [b + p for b, p in zip(before.balances, rep["deal_points"])]
    assert steps > 25 * 7 * n


def test_random_records_replay_to_the_same_result():
    """A record written by engine.record() of random matches (every player count, a low target so
    matches end, L12) replays to the same points and reports; an unfinished record too."""
    for n in (3, 4, 5, 6):
        rng = random.Random(n)
        st = engine.new_match("la_krap", n, {"target": 60})
        mid = None
        for before, seat, action, after in random_deals(st, rng, 40):
            st = after
            if mid is None and seat is not None and after.deal.played == 3:
                mid = after
        assert st.phase == "over" and max(st.balances) >= 60
        rec = json.loads(record.dumps(engine.record(st)))
        st2, res = record.replay(rec)
        assert st2 == st
        assert res["points"] == st.balances and res["deals"] == list(st.reports)
        assert res["winners"] == [s for s, p in enumerate(st.balances) if p == max(st.balances)]
        # unfinished: deal_points null, tricks so far
        res_mid = record.replay_json(engine.record(mid))
        last = res_mid["deals"][-1]
        assert last["outcome"] == "unfinished" and last["deal_points"] is None and sum(last["tricks"]) == 3


def test_events_carry_no_hidden_card():
    """Events are public: exchanges give counts only, never the cards discarded or drawn."""
    rng = random.Random(7)
    st = engine.new_match("la_krap", 4)
    deck = list(PACK)
    rng.shuffle(deck)
    st, events = engine.start_deal(st, deck, 0)
    while st.deal.phase == "exchange":
        seat = st.to_act[0]
        acts = engine.legal_actions(st, seat)
        action = max(acts, key=lambda a: len(a[1]))
        st, ev = engine.apply(st, seat, action)
        assert ev[0]["type"] == "exchange" and set(ev[0]) == {"type", "seat", "count", "talon"}
        events += ev
    assert events[0]["type"] == "deal" and "deck" not in events[0] and "hands" not in events[0]
