"""Napoleon's computer-player hooks (issue #8): the sampler reproduces every view a seat had and
respects the voids it saw (N6), the policy is legal and reads only the seat's knowledge, and the
policy's game knowledge on fixed decks: bid ``napoleon`` (N8) and ``here`` (N4) when they pay,
buy away the weakest side card (N5), lead trumps from the top and defend as one side (N6)."""
from __future__ import annotations

import random

from frapnet import engine
from frapnet.cards import pack
from frapnet.games.hidden import deal_out
from frapnet.testing import check_policy, check_sampler


def deck_for(hands, dealer, talon=()):
    """A 36-card deck dealing ``hands[s]`` to seat s (N3), ``talon`` on top of the talon."""
    used = {c for h in hands for c in h} | set(talon)
    return deal_out(hands, dealer, len(hands)) + list(talon) + [c for c in pack(36) if c not in used]


def table(hands, dealer=0, actions=(), **options):
    st = engine.new_match("napoleon", len(hands), options or None)
    st, _ = engine.start_deal(st, deck_for(hands, dealer), dealer)
    for a in actions:
        st, _ = engine.apply(st, a[0], tuple(a[1:]))
    return st


def policy(st):
    seat = st.to_act[0]
    return st.rules.policy(st, seat, engine.legal_actions(st, seat), random.Random(1))


def test_sampler_napoleon_views_and_voids():
    """N3–N6: every sample replays to the seat's own views (calls, the buy, tricks), and a seat
    that did not follow suit (or trump) gets none of that suit."""
    check_sampler("napoleon", 4, deals=8, samples=1, seed=1, every=2)
    check_sampler("napoleon", 3, deals=4, samples=1, seed=2, every=2)


def test_policy_napoleon_legal_and_view_only():
    check_policy("napoleon", 4, decisions=400, seed=1)


HANDS = [["AS", "KS", "QS", "JS", "AH"], ["6H", "7H", "6D", "7D", "6C"], ["8H", "9H", "8D", "9D", "7C"],
         ["10H", "JH", "10D", "JD", "8C"]]


def test_bids_napoleon_with_a_five_trick_hand():
    """N4/N8: the dealer, first to speak with A K Q J of spades and the A♥, bids for Napoleon
    (all five tricks and the treasure) rather than a plain bid."""
    assert policy(table(HANDS)) == ("napoleon",)


def test_dealer_says_here_when_the_top_bid_pays():
    """N4: the dealer alone may take the top bid at the same number (here); with about three
    tricks (A K Q of spades) it takes seat 1's bid of three instead of bidding four."""
    hands = [["AS", "KS", "QS", "7H", "6D"], ["AH", "KH", "QH", "AC", "6C"], ["8H", "9H", "8D", "9D", "7C"],
             ["10H", "JH", "10D", "JD", "8C"]]
    st = table(hands, actions=[(0, "bid", 1), (1, "bid", 3), (2, "pass"), (3, "pass")])
    assert st.to_act == (0,)
    assert ("here",) in engine.legal_actions(st, 0)
    assert policy(st) == ("here",)


def test_weak_hand_passes():
    """N4: with no ace, no king and no long suit a seat passes."""
    st = table(HANDS, actions=[(0, "bid", 1)])
    assert policy(st) == ("pass",)


def test_declarer_buys_away_its_weakest_side_card_and_leads_trump_from_the_top():
    """N5: the declarer exchanges its weakest card outside its trump suit; N6: its first lead is
    the top card of that suit, which becomes trump."""
    hands = [["AS", "KS", "QS", "7H", "6D"], ["6H", "8H", "7D", "9D", "6C"], ["8D", "9H", "7S", "8S", "7C"],
             ["10H", "JH", "10D", "JD", "8C"]]
    st = table(hands, actions=[(0, "bid", 3), (1, "pass"), (2, "pass"), (3, "pass")])
    assert st.deal.declarer == 0
    assert policy(st) == ("buy", ("6D",))
    st, _ = engine.apply(st, 0, ("buy", ("6D",)))
    assert policy(st) == ("play", "AS")


def test_defender_does_not_overtake_a_partner_who_beats_the_declarer():
    """N6: the defenders play as one side — with the declarer already beaten by a partner's card
    in the trick, a defender plays its lowest card, not its ace."""
    hands = [["AS", "KS", "QS", "7H", "6D"], ["KH", "8H", "7D", "9D", "6C"], ["AH", "6H", "7S", "8S", "7C"],
             ["10H", "JH", "10D", "JD", "8C"]]
    st = table(hands, actions=[(0, "bid", 2), (1, "pass"), (2, "pass"), (3, "pass"), (0, "buy", ()),
                               (0, "play", "AS"), (1, "play", "6C"), (2, "play", "7S"), (3, "play", "8C"),
                               (0, "play", "7H"), (1, "play", "KH")])
    assert st.to_act == (2,)
    assert policy(st) == ("play", "6H")


def _expert_samples(hands, actions, iterations):
    """The samples a seeded ``expert`` with a budget of ``iterations`` examines for the next
    decision after ``actions`` on the deal of ``hands`` (dealer 0), having observed every view of
    its seat from the deal's start; and the deal's phase then."""
    from frapnet.bots import make_player
    st = table(hands)
    views = [st]
    for a in actions:
        st, _ = engine.apply(st, a[0], tuple(a[1:]))
        views.append(st)
    seat = st.to_act[0]
    p = make_player("expert", game="napoleon", players=len(hands), seat=seat, seed=5, iterations=iterations)
    for x in views:
        p.observe(engine.view(x, seat))
    v = engine.view(st, seat)
    assert p.choose(v) in [x["action"] for x in v["actions"]]
    return p.stats.get("samples", 0), st.deal.phase


def test_expert_examines_more_samples_for_a_call_in_the_auction_N4():
    """issue #8, N4 (frapnet_search_factor): with a fixed budget of 3 samples, expert examines
    3 × AUCTION_FACTOR = 24 samples for its opening call, and 3 for a card in the play (N6)."""
    from frapnet_napoleon.bots import AUCTION_FACTOR
    assert AUCTION_FACTOR == 8
    assert _expert_samples(HANDS, (), 3) == (24, "auction")
    hands = [["AS", "KS", "QS", "7H", "6D"], ["KH", "8H", "7D", "9D", "6C"], ["AH", "6H", "7S", "8S", "7C"],
             ["10H", "JH", "10D", "JD", "8C"]]
    actions = [(0, "bid", 2), (1, "pass"), (2, "pass"), (3, "pass"), (0, "buy", ()), (0, "play", "AS"),
               (1, "play", "6C"), (2, "play", "7S"), (3, "play", "8C"), (0, "play", "7H"), (1, "play", "KH")]
    assert _expert_samples(hands, actions, 3) == (3, "play")


def test_sampler_napoleon_at_the_first_decision_and_with_no_views():
    """issue #8, N3/N4: at a deal's very first decision (the dealer's opening call; no call, no
    trick yet) every seat's sampler, asked as frapnet.bots asks it (its views so far: the first
    one), gives a deal that replays to that view, and a basic and an expert player choose a legal
    call without a hook error; asked with no views at all (empty observations) it has nothing to
    explain and returns None — it raised IndexError (observations[-1] of an empty list)."""
    from frapnet.bots import make_player, sampling
    for n, dealer in ((2, 1), (4, 0), (6, 3)):
        deck = pack(36)
        random.Random(n).shuffle(deck)
        st = engine.new_match("napoleon", n)
        st, _ = engine.start_deal(st, deck, dealer)
        assert st.to_act == (dealer,) and st.deal.phase == "auction" and not st.deal.trick
        for seat in range(n):
            first = engine.view(st, seat)
            table = sampling.table_for(first)
            for effort in ("any", "search"):
                stats = {}
                got = sampling.sample_states(table, seat, [first], random.Random(seat), 3, stats, effort=effort)
                assert len(got) == 3 and stats == {"asked": 3}, (n, seat, effort, stats)
                assert all(sampling.matches_view(g, seat, first) for g in got)
                assert table.rules.sample_deal(table, seat, [], random.Random(0), effort) is None
        for level in ("basic", "expert"):
            p = make_player(level, game="napoleon", players=n, seat=dealer, seed=1, iterations=4)
            v = engine.view(st, dealer)
            assert p.choose(v) in [x["action"] for x in v["actions"]]
            assert "errors" not in p.stats and p.stats.get("asked", 0) >= 1, (level, p.stats)
