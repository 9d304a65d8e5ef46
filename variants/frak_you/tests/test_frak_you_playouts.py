"""Random legal play of Frak You for 3–5 players under every option, with the rule book's invariants
checked at every step (K2 card conservation, K3 simultaneous passing, K5 legal actions, K6–K8
trick-winning against an independent reference, K9/K10 pile moves, K11 going out, K12 points),
no hidden card in any view or event, and record round-trips through `frapnet replay`.
"""
from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from frapnet import engine, record
from frapnet.cards import pack, rank_value
from frapnet.testing import random_deals

FULL = pack(52)
OPTION_SETS = [dict(zip(("passing", "first_lead", "pile"), combo)) for combo in itertools.product(
    ("right", "rotate"), ("left_of_dealer", "two_of_clubs"), ("second_in_row", "any_win"))]
PUBLIC_EVENT_CARDS = {"play", "trick"}


def reference_winner(trick):
    """K6–K8 written independently: score every card, the best score wins."""
    cards = [c for _, c in trick]
    if "3C" in cards and "AS" not in cards:
        return trick[cards.index("3C")][0]
    muted = cards.index("AS") + 1 if "AS" in cards else None
    led = cards[0][-1]
    scores = [(rank_value(c) if c[-1] == led and i != muted else 0, i) for i, c in enumerate(cards)]
    return trick[max(scores)[1]][0]


def all_cards(d):
    out = Counter()
    for h in d.hands:
        out.update(h)
    for c in d.chosen:
        if c:
            out.update(c)
    out.update(c for _, c in d.trick)
    for p in d.piles:
        for t in p:
            out.update(t)
    out.update(d.set_aside)
    return out


def view_cards(v):
    """Every card string found anywhere in a view (its JSON)."""
    text = json.dumps(v)
    return {c for c in FULL if f'"{c}"' in text}


def check_step(before, seat, action, after, events):
    """The invariants of one accepted action (names the rule each line checks)."""
    n = after.players
    d = after.deal
    assert all_cards(d) == Counter(FULL), "K2: every card of the pack is somewhere, once"
    assert Counter(c for cs in d.places().values() for c in cs) == Counter(FULL)  # the deal's own accounting
    assert after.balances == list(after.balances) and min(after.balances) >= 0
    if d.phase == "pass":
        assert after.to_act == tuple(s for s in range(n) if d.chosen[s] is None), "K3"
    elif d.phase == "play":
        assert after.to_act == (d.turn,) and d.active[d.turn], "K5/K11"
        assert sum(d.active) >= 3, "K11: the deal ends when two are left"
    for s in range(n):
        acts = engine.legal_actions(after, s)
        assert bool(acts) == (after.phase == engine.DEAL and s in after.to_act)
    # views: own hand and public cards only (K3: nobody sees received cards before the exchange)
    public = {c for _, c in d.trick} | {c for _, c in (d.last_trick or [])}
    for s in [None, *range(n)]:
        v = engine.view(after, s)
        own = set()
        if s is not None:
            own = set(d.hands[s]) | set(d.chosen[s] or ()) | set(d.received[s] or ())
            assert sorted(v["hand"]) == sorted(d.hands[s])
        leaked = view_cards(v) - own - public
        assert not leaked, f"view of seat {s} shows {leaked}"
    for e in events:
        if e["type"] not in PUBLIC_EVENT_CARDS and e["type"] != "deal_end":
            assert not view_cards(e), e
    # K6–K9–K10–K11 on a completed trick
    for e in events:
        if e["type"] != "trick":
            continue
        w = e["winner"]
        assert w == reference_winner([tuple(x) for x in e["cards"]]), e
        bd = before.deal
        hand_before = len(bd.hands[w]) - (1 if w == seat else 0)
        if hand_before == 0:
            want = "hand"                                                    # K10
        elif bd.last_winner == w and not bd.last_laid:
            want = "pile"                                                    # K10: the very next trick
        elif after.options["pile"] == "any_win":
            want = "swap" if bd.piles[w] else "pile"                         # K9 (P)
        else:
            want = "swap" if bd.last_winner == w and bd.last_laid else "pile"  # K9 (SK)
        assert e["to"] == want, (e, want)
        gone = sorted(s for s, _ in e["cards"] if s != w and
                      len(bd.hands[s]) - (1 if s == seat else 0) == 0)
        outs = [x for x in events if x["type"] == "out"]
        assert (outs[0]["seats"] if outs else []) == gone, "K11"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(o.values()))
def test_random_playouts_keep_every_invariant(players, options):
    rng = random.Random(f"{players}{options}")
    st = engine.new_match("frak_you", players, dict(options, loss_limit=3))
    actions = 0
    deals = 0
    while st.phase != engine.OVER and deals < 6:
        deck = FULL[:]
        rng.shuffle(deck)
        st, events = engine.start_deal(st, deck, rng.randrange(players) if st.dealer is None else None)
        deals += 1
        assert st.deal.hand_size == 52 // players
        while st.phase == engine.DEAL:
            seat = rng.choice(st.to_act)  # simultaneous passing: any seat still to choose
            action = rng.choice(engine.legal_actions(st, seat))
            before = st
            st, events = engine.apply(st, seat, action)
            actions += 1
            check_step(before, seat, action, st, events)
        rep = st.reports[-1]
        flat = [s for g in rep["order"] for s in (g if isinstance(g, list) else [g])]
        assert sorted(flat + rep["losers"]) == list(range(players)), "K11: every seat goes out or loses"
        assert 1 <= len(rep["losers"]) <= 2
        assert rep["points"] == st.balances
    assert actions > 150
    assert sum(st.balances) == sum(len(r["losers"]) for r in st.reports), "K12: one point per loss"
    # the record replays to the same state and result (record-format.md)
    rec = json.loads(json.dumps(engine.record(st)))
    again, res = record.replay(rec)
    assert again == st
    assert res["points"] == st.balances and [d["losers"] for d in res["deals"]] == [r["losers"] for r in st.reports]


def test_random_deals_helper_thousands_of_actions():
    """frapnet.testing.random_deals (the team's playout driver) over every player count."""
    total = 0
    for players in (3, 4, 5):
        st = engine.new_match("frak_you", players, {"loss_limit": 50})
        for before, seat, action, after in random_deals(st, random.Random(players), 25):
            total += 1
            if seat is not None:
                assert all_cards(after.deal) == Counter(FULL)
            st = after
        assert st.deal_no == 25
    assert total > 3000


def _search(options, predicate, hits_wanted=3):
    """Random five-player deals until ``predicate(before, seat, winner)`` holds on the last card
    of a trick ``hits_wanted`` times; returns ``(before, after, trick_event)`` for each hit."""
    rng = random.Random(11)
    hits = []
    st = engine.new_match("frak_you", 5, dict(options, loss_limit=10 ** 6))
    for before, seat, action, after in random_deals(st, rng, 300):
        if seat is None or after.phase != engine.DEAL or len(before.deal.trick) != sum(before.deal.active) - 1:
            continue  # not the last card of a trick, or the deal ended on it
        if predicate(before, seat, after.deal.last_winner):
            _, events = engine.apply(before, seat, action)
            hits.append((before, after, next(e for e in events if e["type"] == "trick")))
            if len(hits) >= hits_wanted:
                break
    return hits


@pytest.mark.parametrize("pile", ["any_win", "second_in_row"])
def test_K10_next_win_after_taking_a_trick_into_hand_is_laid_on_the_pile(pile):
    """K10: a player who took a trick into hand and wins the very next trick too simply lays it
    on the pile — under either option, so under P's reading (any_win) too, although a trick is
    still in front of them (the rule book's K10 names no option)."""
    def pred(before, seat, w):
        bd = before.deal
        return (w == bd.last_winner and not bd.last_laid and bd.piles[w]
                and len(bd.hands[w]) - (w == seat) > 0)
    hits = _search({"pile": pile}, pred)
    assert len(hits) == 3, "K10-then-win with a pile not found"
    for before, after, e in hits:
        w = e["winner"]
        assert e["to"] == "pile"
        assert after.deal.piles[w][:-1] == before.deal.piles[w]
        assert after.deal.piles[w][-1] == tuple(c for _, c in e["cards"])
