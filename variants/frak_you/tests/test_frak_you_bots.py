"""Frak You's computer-player hooks (issue #8): the sampler reproduces every view a seat had
(passes K3, tricks and where they went K9/K10, voids K5), the policy is legal and reads only the
seat's knowledge, the deal result counts penalty points as losses (K12), and the policy's game
knowledge on fixed decks: it sheds instead of winning (K11)."""
from __future__ import annotations

import random

from frapnet import engine
from frapnet.cards import pack
from frapnet.testing import check_policy, check_sampler

SUITS = "SHDC"


def base():
    """Seat 0 holds every spade, seat 1 every heart, seat 2 every diamond, seat 3 every club."""
    return [[c for c in pack(52) if c[-1] == s] for s in SUITS]


def swap(hands, a, ca, b, cb):
    hands[a][hands[a].index(ca)] = cb
    hands[b][hands[b].index(cb)] = ca
    return hands


def start(final, dealer=3, plays=()):
    """A 4-player deal whose hands after the K3 exchange (to the right) are ``final``; seat 0
    leads (K4: left of the dealer 3); then ``plays`` ((seat, card) …)."""
    n = 4
    st = engine.new_match("frak_you", n)
    passes = {s: final[(s - 1) % n][:3] for s in range(n)}  # K3 right: s passes to s − 1
    dealt = [final[s][3:] + passes[s] for s in range(n)]
    deck = [dealt[(dealer + 1 + k) % n][k // n] for k in range(52)]
    st, _ = engine.start_deal(st, deck, dealer)
    for s in range(n):
        st, _ = engine.apply(st, s, ("pass_cards", passes[s]))
    for s, c in plays:
        st, _ = engine.apply(st, s, ("play", c))
    return st


def policy(st):
    seat = st.to_act[0]
    return st.rules.policy(st, seat, engine.legal_actions(st, seat), random.Random(1))


def test_sampler_frak_you_views_passes_and_voids():
    """K2–K5/K9/K10: samples replay to the seat's views; voids, passed cards and the 2♣ lead respected."""
    check_sampler("frak_you", 4, deals=2, samples=1, seed=1, every=7)
    check_sampler("frak_you", 3, options={"passing": "rotate", "pile": "any_win"}, deals=2, samples=1, seed=2,
                  every=7)
    # K4 two_of_clubs: the 2♣ is in the leader's hand until led, or among the set-aside cards (K2)
    check_sampler("frak_you", 5, options={"first_lead": "two_of_clubs"}, deals=2, samples=1, seed=11, every=7)


def test_policy_frak_you_legal_and_view_only():
    check_policy("frak_you", 4, decisions=300, seed=1)


def test_deal_result_is_minus_the_penalty_points():
    """K12: fewer penalty points is better — a loser of the deal scores −1.0, the others 0.0."""
    table = engine.new_match("frak_you", 4)
    st = table
    rng = random.Random(3)
    deck = pack(52)
    rng.shuffle(deck)
    st, _ = engine.start_deal(st, deck, 0)
    while st.phase == engine.DEAL:
        s = st.to_act[0]
        st, _ = engine.apply(st, s, rng.choice(engine.legal_actions(st, s)))
    losers = st.reports[-1]["losers"]
    assert len(losers) in (1, 2)
    got = [table.rules.deal_result(table, st, s) for s in range(4)]
    assert got == [-1.0 if s in losers else 0.0 for s in range(4)]


def test_passes_the_three_of_clubs_and_the_highest_cards():
    """K3, K7: the cards passed are the most dangerous — the 3♣ (it wins any trick without the
    A♠), then the highest (A♠, A♥)."""
    st = engine.new_match("frak_you", 4)
    hands = swap(swap(base(), 0, "2S", 3, "3C"), 0, "3S", 1, "AH")  # seat 0: 3♣, A♥, spades but 2 and 3
    deck = [hands[(3 + 1 + k) % 4][k // 4] for k in range(52)]
    st, _ = engine.start_deal(st, deck, 3)
    assert policy(st) == ("pass_cards", ("AS", "AH", "3C"))


def test_follows_with_the_highest_card_that_still_loses():
    """K6: following 10♥ with every other heart, it plays 9♥ — under the trick, and the
    highest such card — not 2♥ and not a winning J♥."""
    st = start(swap(base(), 0, "2S", 1, "10H"), plays=[(0, "10H")])
    assert st.to_act == (1,)
    assert policy(st) == ("play", "9H")


def test_void_throws_its_highest_card_never_the_three_of_clubs():
    """K5/K7: void in spades, holding the 3♣ (which would win the trick), it throws the A♥."""
    st = start(swap(base(), 1, "2H", 3, "3C"), plays=[(0, "5S")])
    assert st.to_act == (1,)
    assert policy(st) == ("play", "AH")


def test_after_the_ace_of_spades_it_throws_the_three_of_clubs():
    """K7/K8: with the A♠ in the trick the 3♣ has no power (and the card right after the A♠
    cannot win): the moment to get rid of it."""
    st = start(swap(base(), 1, "2H", 3, "3C"), plays=[(0, "AS")])
    assert policy(st) == ("play", "3C")


def test_leads_a_card_others_can_beat_not_one_that_wins_again():
    """K9: having won the first trick (everybody else void in spades), it leads its heart — the
    others hold higher hearts — rather than a spade that would win a second trick in a row and
    bring the first trick back into its hand."""
    st = start(swap(base(), 0, "3S", 1, "2H"), plays=[(0, "4S"), (1, "3S"), (2, "AD"), (3, "AC")])
    assert st.deal.last_winner == 0 and st.to_act == (0,)
    assert policy(st) == ("play", "2H")
