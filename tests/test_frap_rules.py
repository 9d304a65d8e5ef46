"""Fixed-deck tests of Frap, one or more per rule F1–F25 (../shared/spec/rules-frap.md).

Every test builds its deck with :func:`frapnet.testing.fixed_deck` (Frap's F8 layout), plays
named actions through the public engine API and asserts the actual chips, tricks, seats and
cards. Each test names the rule it checks.
"""
from __future__ import annotations

import json

import pytest

from frapnet import cards, engine, record
from frapnet.errors import RuleError
from frapnet.testing import fixed_deck, play, shared_dir

# The table used by most tests: 4 players, 32 cards, dealer 0, so bidding and buying go 1, 2, 3, 0.
HANDS_A = {1: ["AS", "KS", "QS", "7H"], 2: ["JS", "10S", "AH", "7D"],
           3: ["9S", "8S", "KH", "8D"], 0: ["7S", "AD", "KD", "QD"]}
# As HANDS_A but seat 0 holds a trump (8C) instead of QD.
HANDS_B = {**HANDS_A, 0: ["7S", "AD", "KD", "8C"]}


def table(players=4, options=None, hands=None, turn_up=None, talon=(), dealer=0, house_rules=()):
    """A new match with one deal started from a fixed deck; returns (state, deck)."""
    st = engine.new_match("frap", players, options or {}, house_rules)
    deck = fixed_deck(engine.pack(st), players, dealer, hands or {}, turn_up, talon)
    st, _ = engine.start_deal(st, deck, dealer)
    return st, deck


def rule_of(state, seat, action):
    """The rule ID that ``action`` by ``seat`` breaks, checking the state is left unchanged."""
    before = engine.record(state), state.version, [h[:] for h in state.deal.hands]
    with pytest.raises(RuleError) as exc:
        engine.apply(state, seat, action)
    assert (engine.record(state), state.version, [h[:] for h in state.deal.hands]) == before
    return exc.value.rule


def all_whist_stand_pat(st, frapper=1):
    """Seat ``frapper`` fraps in round 1 (4 players, dealer 0), every other seat whists, all stand pat."""
    order = [1, 2, 3, 0]
    acts = [(s, "pass") for s in order[:order.index(frapper)]] + [(frapper, "frap")]
    acts += [((frapper + i) % 4, "whist") for i in range(1, 4)]
    acts += [(s, "buy", ()) for s in order]
    return play(st, acts)[0]


# --- F1–F8: seats, cards, deck, money, dealing --------------------------------------------------

@pytest.mark.parametrize("players", [1, 13, 0, -2, "4", 4.5, True])
def test_F1_players_out_of_range_refused(players):
    with pytest.raises(RuleError) as exc:
        engine.new_match("frap", players)
    assert exc.value.rule == "F1"


def test_F1_players_checked_before_options():
    with pytest.raises(RuleError) as exc:
        engine.new_match("frap", 13, {"ante": 3, "deck": 40, "nonsense": 1})
    assert exc.value.rule == "F1"


@pytest.mark.parametrize("players", [2, 12])
def test_F1_two_to_twelve_players_accepted(players):
    assert engine.new_match("frap", players).players == players


@pytest.mark.parametrize("players,size,lowest", [(2, 32, "7"), (4, 32, "7"), (5, 36, "6"), (6, 36, "6"),
                                                 (7, 52, "2"), (12, 52, "2")])
def test_F2_auto_deck_size_by_players(players, size, lowest):
    p = engine.pack(engine.new_match("frap", players))
    assert len(p) == size and len(set(p)) == size
    assert min(cards.rank_value(c) for c in p) == cards.RANK_VALUE[lowest]


@pytest.mark.parametrize("value,size", [(32, 32), ("36", 36), ("52", 52), (52.0, 52), ("auto", 32)])
def test_F2_deck_option_number_or_string(value, size):
    st = engine.new_match("frap", 4, {"deck": value})
    assert len(engine.pack(st)) == size
    assert st.options["deck"] == (value if value == "auto" else size)


@pytest.mark.parametrize("players,deck", [(4, 33), (4, "40"), (4, "big"), (4, True), (4, None),
                                          (8, 32), (9, 36), (8, "32")])
def test_F2_bad_or_too_small_deck_refused(players, deck):
    # 8 players need 4·8+3 = 35 cards, 9 players 39: a 32- or 36-card deck is refused.
    with pytest.raises(RuleError) as exc:
        engine.new_match("frap", players, {"deck": deck})
    assert exc.value.rule == "F2"


def test_F2_smallest_deck_that_fits():
    # 7 players need 31 cards: a 32-card deck is allowed; after 28 dealt, turn-up and a talon of 3.
    st, _ = table(7, {"deck": 32})
    assert st.deal.talon == 3 and sum(len(h) for h in st.deal.hands) == 28


def test_F3_ace_high_and_ten_above_nine():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    tw = st.rules.trick_winner
    assert tw(st, [(0, "KH"), (1, "AH"), (2, "QH")]) == 1
    assert tw(st, [(0, "9H"), (1, "10H"), (2, "8H")]) == 1
    assert tw(st, [(0, "10H"), (1, "JH")]) == 1
    assert [c[:-1] for c in cards.sort_cards(["AH", "10H", "9H", "JH", "7H"])] == ["7", "9", "10", "J", "A"]


def test_F4_seats_clockwise_from_dealers_left():
    # Dealer 2 of 4: bidding starts at seat 3 and wraps to 0, 1, 2.
    st, _ = table(dealer=2)
    order = []
    for _ in range(4):
        order.append(st.to_act[0])
        st, _ = engine.apply(st, st.to_act[0], ("pass",))
    assert order == [3, 0, 1, 2]
    # Round 2 starts again left of the dealer.
    assert st.to_act == (3,)


def test_F5_antes_into_an_empty_pot_only():
    st = engine.new_match("frap", 4, {"ante": 40})
    st, ev = engine.start_deal(st, engine.pack(st), 0)
    assert st.balances == [-40] * 4 and st.pot == 160
    assert ev[0]["ante"] == 40 and ev[0]["pot"] == 160
    # Three pass-outs carry the pot: the next deal collects no ante.
    for _ in range(12):
        st, _ = engine.apply(st, st.to_act[0], ("pass",))
    assert st.pot == 160 + 3 * 160 and st.phase == engine.BETWEEN
    st, ev = engine.start_deal(st, engine.pack(st))
    assert ev[0]["ante"] == 0 and st.pot == 640 and st.balances == [-160] * 4


@pytest.mark.parametrize("ante", [0, -4, 50, 102, "100", 100.0, True, None])
def test_F5_ante_must_be_positive_whole_divisible_by_4(ante):
    with pytest.raises(RuleError) as exc:
        engine.new_match("frap", 4, {"ante": ante})
    assert exc.value.rule == "F5"


def test_F5_default_ante_is_100():
    assert engine.new_match("frap", 3).options["ante"] == 100


def test_F6_ledger_exact_beyond_64_bits():
    ante = 4 * 2 ** 70
    st, _ = table(options={"ante": ante}, hands=HANDS_A, turn_up="7C")
    assert sum(st.balances) + st.pot == 0 and st.pot == 4 * ante
    st = all_whist_stand_pat(st)
    st, _ = play(st, [(1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"), (0, "play", "7S")])
    assert st.balances[1] == -ante + ante  # P/4 = ante, exactly
    assert sum(st.balances) + st.pot == 0
    rec = json.loads(record.dumps(engine.record(st)))
    assert rec["options"]["ante"] == ante
    again, res = record.replay(rec)
    assert again == st and res["balances"] == st.balances


def test_F7_deal_passes_clockwise_even_after_thrown_in():
    st, _ = table(dealer=3)
    for _ in range(12):  # three pass-outs: thrown in (F13)
        st, _ = engine.apply(st, st.to_act[0], ("pass",))
    assert st.reports[-1]["outcome"] == "thrown_in"
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, engine.pack(st), 1)
    assert exc.value.rule == "F7"
    st2, _ = engine.start_deal(st, engine.pack(st), 0)  # (3 + 1) mod 4
    assert st2.dealer == 0 and st2.to_act == (1,)
    st3, _ = engine.start_deal(st, engine.pack(st))  # omitted: the next seat
    assert st3.dealer == 0


def test_F7_first_dealer_required():
    st = engine.new_match("frap", 4)
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, engine.pack(st))
    assert exc.value.rule == "record"


def test_F8_deal_one_at_a_time_from_dealers_left():
    st = engine.new_match("frap", 4)
    deck = engine.pack(st)  # 7S 8S 9S 10S JS QS KS AS 7H 8H ...
    st, ev = engine.start_deal(st, deck, 2)
    d = st.deal
    assert d.hands[3] == [deck[0], deck[4], deck[8], deck[12]] == ["7S", "JS", "7H", "JH"]
    assert d.hands[0] == ["8S", "QS", "8H", "QH"]
    assert d.hands[2] == [deck[3], deck[7], deck[11], deck[15]]
    assert d.turn_up == deck[16] == "7D" and d.trump == "D"
    assert d.talon == 15 and d.deck[d.talon_pos] == "8D"
    assert ev[0]["turn_up"] == "7D"


# --- F9–F14: looking and bidding -------------------------------------------------------------

def test_F9_cards_hidden_until_looked():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    v = engine.view(st, 1)
    assert v["hand"] is None and v["hand_count"] == 4
    assert [a["action"] for a in v["actions"]] == [["look"], ["frap"], ["blind_frap"], ["pass"]]
    # Any seat may look at any time, also out of turn.
    st2, ev = engine.apply(st, 3, ("look",))
    assert ev == [{"type": "look", "seat": 3}]
    assert sorted(engine.view(st2, 3)["hand"]) == sorted(HANDS_A[3])
    assert engine.view(st2, 1)["hand"] is None
    # A second look changes nothing and is accepted.
    st3, ev = engine.apply(st2, 3, ("look",))
    assert ev == [] and st3.deal == st2.deal
    assert ("look",) not in engine.legal_actions(st2, 3)


def test_F9_blind_frap_only_unlooked():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = engine.apply(st, 1, ("look",))
    assert ("blind_frap",) not in engine.legal_actions(st, 1)
    assert rule_of(st, 1, ("blind_frap",)) == "F9"


def test_F9_frap_counts_as_looking_pass_does_not():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8H", "9H"])
    st, ev = engine.apply(st, 1, ("pass",))
    assert st.deal.looked[1] is False and ev[0]["type"] == "bid"
    st, ev = engine.apply(st, 2, ("frap",))
    assert st.deal.looked[2] is True and ev[0] == {"type": "look", "seat": 2}
    assert engine.view(st, 2)["hand"] == HANDS_A[2]


def test_F9_unseen_passer_may_blind_frap_next_round():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8H", "9H"])
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert st.deal.round == 2 and ("blind_frap",) in engine.legal_actions(st, 1)
    st, _ = engine.apply(st, 1, ("blind_frap",))
    assert st.deal.frapper == 1 and st.deal.blind and st.deal.looked[1] is False


def test_F9_blind_frap_after_looking_names_F9_even_in_whist_round():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = play(st, [(2, "look"), (1, "frap")])
    assert st.to_act == (2,)
    assert rule_of(st, 2, ("blind_frap",)) == "F9"
    assert rule_of(st, 2, ("frap",)) == "F11"


def test_F9_view_hides_card_actions_until_looked():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap"),
                      (1, "whist"), (2, "whist"), (3, "whist"), (1, "buy", ()), (2, "buy", ()), (3, "buy", ())])
    assert st.to_act == (0,) and not st.deal.looked[0]
    acts = [a["action"] for a in engine.view(st, 0)["actions"]]
    assert acts == [["look"], ["buy", []]]  # take_trump and buying name cards: hidden until looked
    full = engine.legal_actions(st, 0)
    assert ("take_trump", "QD") in full and ("buy", ("AD",)) in full


def test_F10_bidding_starts_left_of_dealer_and_no_whist_before_frap():
    st, _ = table(hands=HANDS_A, turn_up="7C", dealer=3)
    assert st.to_act == (0,)
    assert engine.legal_actions(st, 0) == [("look",), ("frap",), ("blind_frap",), ("pass",)]
    assert rule_of(st, 0, ("whist",)) == "F10"
    assert rule_of(st, 1, ("pass",)) == "F10"  # not seat 1's turn
    assert rule_of(st, 0, ("buy", ())) == "F10"
    assert rule_of(st, 0, ("play", "7S")) == "F10"


def test_F11_whist_round_from_frappers_left_including_passers():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = play(st, [(1, "pass"), (2, "frap")])
    order = []
    for _ in range(3):
        order.append(st.to_act[0])
        assert engine.legal_actions(st, st.to_act[0])[-2:] == [("whist",), ("pass",)]
        st, _ = engine.apply(st, st.to_act[0], ("whist",) if st.to_act[0] != 3 else ("pass",))
    assert order == [3, 0, 1]  # seat 1 passed in bidding and is asked again
    assert st.deal.whisters == [0, 1] and st.deal.passers == [3]


def test_F11_only_one_frapper():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = engine.apply(st, 1, ("frap",))
    assert rule_of(st, 2, ("frap",)) == "F11"
    assert rule_of(st, 2, ("blind_frap",)) == "F11"  # seat 2 has not looked: F11, not F9
    assert rule_of(st, 3, ("whist",)) == "F11"  # not seat 3's turn


def test_F11_whist_round_passer_throws_in_and_does_not_play():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8C", "9C", "10C", "JC", "QC", "KC", "AC"],
                  options={"cut_in": False})
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "pass"), (0, "whist"),
                      (1, "buy", ()), (2, "buy", ()), (0, "buy", ())])
    assert st.deal.phase == "play" and st.deal.in_play == (0, 1, 2)
    st, _ = play(st, [(1, "play", "AS"), (2, "play", "JS"), (0, "play", "7S")])  # seat 3 skipped
    assert st.deal.tricks == [0, 1, 0, 0]


def test_F12_passed_out_round_tops_up_and_turns_up_next():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8H", "9D"])
    st, ev = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert st.pot == 800 and st.balances == [-200] * 4  # one ante each, whatever the pot holds
    assert st.deal.dead_turn_ups == ["7C"] and st.deal.turn_up == "8H" and st.deal.trump == "H"
    assert st.deal.talon == 14 and st.deal.round == 2 and st.to_act == (1,)
    assert ev[-1] == {"type": "pass_out", "round": 1, "top_up": 100, "pot": 800, "dead": "7C", "turn_up": "8H"}
    # Round 2: a player who passed in round 1 may frap.
    st, _ = play(st, [(1, "pass"), (2, "frap")])
    assert st.deal.frapper == 2 and st.deal.frap_round == 2
    v = engine.view(st, None)
    assert v["dead_turn_ups"] == ["7C"] and v["turn_up"] == "8H"


def test_F12_top_up_is_one_ante_not_the_pot():
    # The pot holds a carried 1600 (F13): a pass-out still adds one ante per player.
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8H", "9D"])
    for _ in range(12):
        st, _ = engine.apply(st, st.to_act[0], ("pass",))
    assert st.pot == 1600
    st, _ = engine.start_deal(st, engine.pack(st))
    for _ in range(4):
        st, _ = engine.apply(st, st.to_act[0], ("pass",))
    assert st.pot == 2000 and st.balances == [-500] * 4


def test_F13_third_pass_out_throws_in_and_carries_pot():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8H", "9D", "10D"])
    for _ in range(12):
        st, ev = engine.apply(st, st.to_act[0], ("pass",))
    assert st.phase == engine.BETWEEN and st.pot == 1600 and st.balances == [-400] * 4
    rep = ev[-1]["report"]
    assert rep["outcome"] == "thrown_in" and rep["trump"] == "D" and rep["pot_after"] == 1600
    assert rep["tricks"] == [0] * 4 and rep["remises"] == [0] * 4
    assert st.deal.dead_turn_ups == ["7C", "8H"] and st.deal.turn_up == "9D"
    assert engine.legal_actions(st, 0) == []
    assert rule_of_between(st) == "record"


def rule_of_between(st):
    with pytest.raises(RuleError) as exc:
        engine.apply(st, st.players - 1, ("pass",))
    return exc.value.rule


def test_F14_frap_without_whist_takes_pot_then_fresh_antes():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, ev = play(st, [(1, "frap"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert st.balances == [-100, 300, -100, -100] and st.pot == 0
    assert ev[-2] == {"type": "no_whist", "seat": 1, "amount": 400}
    rep = ev[-1]["report"]
    assert (rep["outcome"], rep["tricks"], rep["remises"], rep["pot_after"]) == ("no_whist", [0] * 4, [0] * 4, 0)
    st, ev = engine.start_deal(st, engine.pack(st))
    assert ev[0]["ante"] == 100 and st.pot == 400 and st.balances == [-200, 200, -200, -200]


# --- F15–F18: buying and cut-in ---------------------------------------------------------------

def test_F15_buying_clockwise_from_dealers_left_dealer_last():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8C", "9C", "10C", "JC"], dealer=0)
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "frap"), (0, "whist"), (1, "whist"), (2, "pass")])
    assert st.deal.phase == "buy"
    order = []
    for discard in (("7H",), (), ("KD", "QD")):
        order.append(st.to_act[0])
        st, _ = engine.apply(st, st.to_act[0], ("buy", discard))
    assert order == [1, 3, 0]  # participants only, clockwise from dealer 0's left, dealer last
    d = st.deal
    assert sorted(d.hands[1]) == sorted(["AS", "KS", "QS", "8C"]) and d.discards[1] == ["7H"]
    assert d.hands[3] == HANDS_A[3] and d.discards[3] == []
    assert sorted(d.hands[0]) == sorted(["7S", "AD", "9C", "10C"]) and sorted(d.discards[0]) == ["KD", "QD"]
    assert d.talon == 12


def test_F15_buy_takes_from_talon_top_and_discards_are_dead():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8C", "9C", "10C", "JC"], options={"cut_in": False})
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "pass"), (0, "pass"), (1, "buy", ("7H", "QS"))])
    d = st.deal
    assert sorted(d.hands[1], key=cards.card_key) == ["KS", "AS", "8C", "9C"]
    assert sorted(d.discards[1]) == ["7H", "QS"] and d.talon == 13
    assert sorted(engine.view(st, 1)["discards"]) == ["7H", "QS"]
    assert engine.view(st, 2)["discards"] == []
    assert rule_of(st, 2, ("buy", ("7H",))) == "F15"  # a card seat 2 does not hold
    assert rule_of(st, 2, ("buy", ("JS", "JS"))) == "F15"  # the same card twice
    assert rule_of(st, 1, ("buy", ())) == "F15"  # seat 1 has bought; seat 2 is to act
    assert rule_of(st, 2, ("play", "JS")) == "F15"


def test_F15_participant_with_no_choice_is_skipped():
    # 12 players, 52 cards: 48 dealt, turn-up, talon of 3.
    st = engine.new_match("frap", 12)
    deck = engine.pack(st)
    st, _ = engine.start_deal(st, deck, 0)
    acts = [(1, "frap")] + [(s, "whist" if s in (2, 5, 9) else "pass") for s in list(range(2, 12)) + [0]]
    st, _ = play(st, acts)
    assert st.deal.phase == "buy" and st.to_act == (1,) and st.deal.talon == 3
    assert max(len(a[1]) for a in engine.legal_actions(st, 1) if a[0] == "buy") == 3  # no more than remains
    assert rule_of(st, 1, ("buy", tuple(st.deal.hands[1]))) == "F15"  # four cards, talon three
    st, _ = engine.apply(st, 1, ("buy", tuple(st.deal.hands[1][:2])))
    assert st.deal.talon == 1 and st.to_act == (2,)
    st, _ = engine.apply(st, 2, ("buy", (st.deal.hands[2][0],)))
    # The talon is empty: seats 5 and 9 have no choice and are skipped; no cut-in can be supplied.
    assert st.deal.talon == 0 and st.deal.phase == "play" and st.to_act == (1,)
    assert st.deal.bought == [s in (1, 2) for s in range(12)]


def test_F16_blind_frapper_takes_turn_up_then_buys():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8C", "9C"])
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap"),
                      (1, "whist"), (2, "whist"), (3, "pass")])
    assert rule_of(st, 1, ("take_trump", "AS")) == "F16"  # a whister, at its own buying turn
    st, _ = play(st, [(1, "buy", ()), (2, "buy", ())])
    assert st.to_act == (0,)
    legal = engine.legal_actions(st, 0)
    assert {a[1] for a in legal if a[0] == "take_trump"} == {"7S", "AD", "KD", "QD", "7C"}
    assert rule_of(st, 0, ("take_trump", "AS")) == "F16"  # not in hand
    st, ev = engine.apply(st, 0, ("take_trump", "QD"))
    d = st.deal
    assert sorted(d.hands[0]) == sorted(["7S", "AD", "KD", "7C"]) and d.discards[0] == ["QD"]
    assert d.turn_up is None and d.trump == "C" and st.to_act == (0,)
    assert ev[-1] == {"type": "take_trump", "seat": 0, "turn_up": "7C"}
    assert ("take_trump", "7S") not in engine.legal_actions(st, 0)
    assert rule_of(st, 0, ("take_trump", "7S")) == "F16"  # only as the first action of the turn
    st, _ = engine.apply(st, 0, ("buy", ("7S",)))
    assert sorted(st.deal.hands[0]) == sorted(["AD", "KD", "7C", "8C"])
    # The turn-up is gone: seat 3 may cut in only with five talon cards.
    assert st.to_act == (3,) and engine.legal_actions(st, 3) == [("look",), ("cut_in",), ("decline",)]


def test_F16_take_trump_may_discard_the_turn_up_itself():
    st, _ = table(hands=HANDS_A, turn_up="AC")
    st, _ = play(st, [(1, "blind_frap"), (2, "whist"), (3, "pass"), (0, "pass"), (1, "take_trump", "AC")])
    assert st.deal.hands[1] == HANDS_A[1] and st.deal.discards[1] == ["AC"] and st.deal.turn_up is None


def test_F16_only_the_blind_frapper_may_take_the_turn_up():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "whist"), (0, "whist")])
    assert rule_of(st, 1, ("take_trump", "AS")) == "F16"  # an ordinary frapper
    assert all(a[0] != "take_trump" for a in engine.legal_actions(st, 1))
    assert rule_of(st, 2, ("take_trump", "JS")) == "F15"  # not seat 2's turn: the phase's rule
    st, _ = play(st, [(s, "buy", ()) for s in (1, 2, 3, 0)])
    assert rule_of(st, 1, ("take_trump", "AS")) == "F16"  # in play, by the seat to act


def test_F16_blind_frapper_last_buyer_gets_turn_up_with_empty_talon():
    st = engine.new_match("frap", 12)
    st, _ = engine.start_deal(st, engine.pack(st), 0)
    # Seat 0 (the dealer, last to buy) declares blind frap in round 1.
    st, _ = play(st, [(s, "pass") for s in range(1, 12)] + [(0, "blind_frap")]
                 + [(s, "whist" if s == 1 else "pass") for s in range(1, 12)])
    st, _ = engine.apply(st, 1, ("buy", tuple(st.deal.hands[1][:3])))
    assert st.deal.talon == 0 and st.to_act == (0,)  # asked: the turn-up is still to be had
    legal = engine.legal_actions(st, 0)
    assert ("buy", ()) in legal and sum(a[0] == "take_trump" for a in legal) == 5
    st, _ = engine.apply(st, 0, ("take_trump", st.deal.hands[0][0]))
    assert st.deal.phase == "play" and st.to_act == (0,)  # nothing left to buy: the turn ends


def cut_in_table(**kw):
    st, deck = table(hands=HANDS_A, turn_up="7C", talon=["8C", "9C", "10C", "JC", "QC", "KC", "AC", "8H", "9H"],
                     **kw)
    return play(st, [(1, "frap"), (2, "whist"), (3, "pass"), (0, "pass"), (1, "buy", ()), (2, "buy", ())])[0]


def test_F17_cut_in_with_turn_up_and_from_talon():
    st = cut_in_table()
    assert st.deal.phase == "cut" and st.to_act == (3,)
    assert engine.legal_actions(st, 3) == [("look",), ("cut_in",), ("cut_in_trump",), ("decline",)]
    st, ev = engine.apply(st, 3, ("cut_in_trump",))
    d = st.deal
    assert d.hands[3] == ["7C", "8C", "9C", "10C", "JC"] and d.thrown[3] == HANDS_A[3] and d.turn_up is None
    assert st.to_act == (3,) and d.phase == "cut_discard"
    assert rule_of(st, 3, ("discard", "KH")) == "F17"  # thrown in, no longer held
    assert rule_of(st, 0, ("cut_in",)) == "F17"  # not seat 0's turn yet
    st, _ = engine.apply(st, 3, ("discard", "7C"))
    assert st.deal.hands[3] == ["8C", "9C", "10C", "JC"] and st.deal.discards[3] == ["7C"]
    assert engine.legal_actions(st, 0) == [("look",), ("cut_in",), ("decline",)]  # the turn-up is gone
    assert rule_of(st, 0, ("cut_in_trump",)) == "F17"
    st, _ = engine.apply(st, 0, ("cut_in",))
    assert st.deal.hands[0] == ["QC", "KC", "AC", "8H", "9H"]
    st, _ = engine.apply(st, 0, ("discard", "9H"))
    # F19: the last player to cut in leads; cut-in players play.
    assert st.deal.phase == "play" and st.to_act == (0,) and st.deal.in_play == (0, 1, 2, 3)
    assert st.deal.cut_ins == [3, 0]


def test_F17_cut_in_bound_like_a_whister():
    st, _ = table(hands=HANDS_A, turn_up="7C", talon=["8H", "9H", "10H", "JH", "QH"])
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "pass"), (0, "pass"), (1, "buy", ()), (2, "buy", ()),
                      (3, "decline"), (0, "cut_in"), (0, "discard", "QH")])
    assert st.deal.hands[0] == ["8H", "9H", "10H", "JH"] and st.deal.thrown[0] == HANDS_A[0]
    assert st.deal.in_play == (0, 1, 2) and st.to_act == (0,)
    st, _ = play(st, [(0, "play", "8H"), (1, "play", "7H"), (2, "play", "AH"),  # 2 wins
                      (2, "play", "JS"), (0, "play", "9H"), (1, "play", "AS"),  # 1 wins; seat 3 threw in
                      (1, "play", "KS"), (2, "play", "10S"), (0, "play", "10H"),
                      (1, "play", "QS"), (2, "play", "7D"), (0, "play", "JH")])
    rep = st.reports[-1]
    assert rep["tricks"] == [0, 3, 1, 0] and rep["cut_ins"] == [0]
    assert rep["remises"] == [400, 0, 0, 0]  # the trickless cut-in player pays P like a whister


def test_F17_cut_in_option_off_no_cut_in():
    st = cut_in_table(options={"cut_in": False})
    assert st.deal.phase == "play" and st.to_act == (1,) and st.deal.in_play == (1, 2)


def test_F17_passer_not_asked_when_talon_cannot_supply():
    # 7 players, 32 cards: talon 3 — no cut-in possible at all.
    st, _ = table(7, {"deck": 32})
    st, _ = play(st, [(1, "frap")] + [(s, "whist" if s == 2 else "pass") for s in (2, 3, 4, 5, 6, 0)]
                 + [(1, "buy", ()), (2, "buy", ())])
    assert st.deal.phase == "play" and st.deal.cut_ins == []
    # 6 players, 32 cards: 24 dealt, turn-up, talon 7; one cut-in leaves too little for another.
    st = engine.new_match("frap", 6, {"deck": 32})
    st, _ = engine.start_deal(st, engine.pack(st), 0)
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"),
                      (1, "buy", ()), (2, "buy", ())])
    assert st.deal.phase == "cut" and st.to_act == (3,) and st.deal.talon == 7
    st, _ = play(st, [(3, "cut_in")])
    st, _ = engine.apply(st, 3, ("discard", st.deal.hands[3][0]))
    # talon 2 and the turn-up: neither five cards nor turn-up + four: seats 4, 5, 0 are not asked.
    assert st.deal.talon == 2 and st.deal.phase == "play" and st.to_act == (3,)
    assert st.deal.declared[4] == "pass"


def test_F17_cut_in_needs_five_cards():
    st = engine.new_match("frap", 6, {"deck": 32})
    st, _ = engine.start_deal(st, engine.pack(st), 0)
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"),
                      (1, "buy", ()), (2, "buy", tuple(st.deal.hands[2][:3]))])
    assert st.deal.talon == 4 and st.to_act == (3,)
    assert engine.legal_actions(st, 3) == [("look",), ("cut_in_trump",), ("decline",)]
    assert rule_of(st, 3, ("cut_in",)) == "F17"
    st, _ = engine.apply(st, 3, ("cut_in_trump",))
    assert st.deal.talon == 0


def test_F18_no_withdrawing_a_declaration():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "whist"), (0, "whist")])
    assert rule_of(st, 1, ("pass",)) == "F15"
    assert rule_of(st, 2, ("pass",)) == "F15"
    st, _ = play(st, [(s, "buy", ()) for s in (1, 2, 3, 0)])
    assert rule_of(st, 1, ("pass",)) == "F19"
    assert rule_of(st, 1, ("decline",)) == "F19"
    assert st.deal.declared == ["whist", "frap", "whist", "whist"]


# --- F19–F22: play ----------------------------------------------------------------------------

def test_F19_frapper_leads_when_nobody_cut_in():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st = all_whist_stand_pat(st, frapper=3)
    assert st.deal.leader == 3 and st.to_act == (3,)
    assert rule_of(st, 0, ("play", "7S")) == "F19"  # not seat 0's turn
    st, _ = play(st, [(3, "play", "8D"), (0, "play", "QD"), (1, "play", "7H"), (2, "play", "7D")])
    # F4: play goes clockwise from the leader, wrapping; F21: seat 0's QD wins; the winner leads.
    assert st.deal.last_winner == 0 and st.to_act == (0,)


def test_F20_must_follow_suit():
    st, _ = table(hands=HANDS_B, turn_up="7C")
    st = all_whist_stand_pat(st)
    st, _ = engine.apply(st, 1, ("play", "AS"))
    assert engine.legal_actions(st, 2) == [("play", "10S"), ("play", "JS")]
    assert rule_of(st, 2, ("play", "AH")) == "F20"
    assert rule_of(st, 2, ("play", "QH")) == "F20"  # not held


def test_F20_void_must_trump_else_any():
    st, _ = table(hands=HANDS_B, turn_up="7C")
    st = all_whist_stand_pat(st)
    st, _ = play(st, [(1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"), (0, "play", "7S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S")])
    assert engine.legal_actions(st, 0) == [("play", "8C")]  # void in spades, holds a trump
    assert rule_of(st, 0, ("play", "AD")) == "F20"
    st, _ = engine.apply(st, 0, ("play", "8C"))
    assert st.deal.last_winner == 0  # F21: the 8 of trumps beats the king led
    st, _ = engine.apply(st, 0, ("play", "AD"))
    # Seat 1 holds QS 7H: void in diamonds and in trumps, so any card.
    assert engine.legal_actions(st, 1) == [("play", "QS"), ("play", "7H")]


def test_F20_no_duty_to_beat_or_overtrump():
    st, _ = table(hands={**HANDS_B, 3: ["9S", "8S", "KC", "8D"]}, turn_up="7C")
    st = all_whist_stand_pat(st)
    st, _ = play(st, [(1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"), (0, "play", "7S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "8C"),
                      (0, "play", "AD"), (1, "play", "7H")])
    assert engine.legal_actions(st, 2) == [("play", "7D")]
    st, _ = engine.apply(st, 2, ("play", "7D"))
    # Seat 3 follows with 8D and need not beat AD (nor trump).
    assert ("play", "8D") in engine.legal_actions(st, 3)


def test_F21_highest_trump_else_highest_of_led_suit():
    st, _ = table(hands=HANDS_B, turn_up="7C")
    tw = st.rules.trick_winner
    assert tw(st, [(1, "7H"), (2, "AH"), (3, "KS"), (0, "QH")]) == 2  # no trump: highest heart
    assert tw(st, [(1, "7H"), (2, "AH"), (3, "8C"), (0, "JC")]) == 0  # highest trump
    assert tw(st, [(1, "9D"), (2, "AS"), (3, "AH"), (0, "10D")]) == 0  # off-suit aces do not win


def test_F22_revoke_refused_by_default():
    st, _ = table(hands=HANDS_B, turn_up="7C")
    assert st.options["revoke"] == "refuse"
    st = all_whist_stand_pat(st)
    st, _ = engine.apply(st, 1, ("play", "AS"))
    assert ("play", "AH") not in engine.legal_actions(st, 2)
    assert rule_of(st, 2, ("play", "AH")) == "F20"


def test_F22_penalize_accepts_revoke_and_charges_remise():
    st, _ = table(hands=HANDS_B, turn_up="7C", options={"revoke": "penalize"})
    st = all_whist_stand_pat(st)
    st, _ = engine.apply(st, 1, ("play", "AS"))
    assert engine.legal_actions(st, 2) == [("play", c) for c in ["10S", "JS", "AH", "7D"]]
    st, _ = play(st, [(2, "play", "AH"),  # revoke: holds spades
                      (3, "play", "9S"), (0, "play", "7S"),  # seat 1 wins with AS
                      (1, "play", "KS"), (2, "play", "JS"), (3, "play", "8S"), (0, "play", "AD"),  # revoke: holds 8C
                      (1, "play", "QS"), (2, "play", "10S"), (3, "play", "KH"), (0, "play", "8C"),  # 0 trumps
                      (0, "play", "KD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D")])
    rep = st.reports[-1]
    assert rep["tricks"] == [2, 2, 0, 0]
    # Seat 0 revoked and took two tricks: P. Seat 2 revoked and took none: P once. Seat 3: P.
    assert rep["remises"] == [400, 0, 400, 400] and st.pot == 1200
    assert st.balances == [-100 + 200 - 400, -100 + 200, -100 - 400, -100 - 400]


def test_F22_penalize_frapper_pays_double_for_revoke():
    st, _ = table(hands=HANDS_B, turn_up="7C", options={"revoke": "penalize"})
    st = all_whist_stand_pat(st, frapper=0)
    st, _ = play(st, [(0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "AD"),  # revoke
                      (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"), (0, "play", "8C"),
                      (0, "play", "KD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D")])
    rep = st.reports[-1]
    assert rep["tricks"] == [2, 2, 0, 0] and rep["remises"] == [800, 0, 400, 400]


@pytest.mark.parametrize("value", ["allow", "", 1, True, None])
def test_F22_revoke_option_values(value):
    with pytest.raises(RuleError) as exc:
        engine.new_match("frap", 4, {"revoke": value})
    assert exc.value.rule == "F22"


# --- F23–F25: settlement ----------------------------------------------------------------------

def test_F23_each_trick_pays_quarter_pot_at_once():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st = all_whist_stand_pat(st)
    assert st.deal.P == 400
    st, ev = play(st, [(1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"), (0, "play", "7S")])
    assert ev[-1] == {"type": "trick", "winner": 1, "cards": [[1, "AS"], [2, "JS"], [3, "9S"], [0, "7S"]],
                      "amount": 100, "number": 1}
    assert st.balances == [-100, 0, -100, -100] and st.pot == 300
    st, _ = play(st, [(1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "QD"),
                      (1, "play", "QS"), (2, "play", "7D"), (3, "play", "KH"), (0, "play", "KD"),
                      (1, "play", "7H"), (2, "play", "AH"), (3, "play", "8D"), (0, "play", "AD")])
    rep = st.reports[-1]
    assert rep["tricks"] == [0, 3, 1, 0] and rep["outcome"] == "played"
    # F24: the two trickless whisters pay P each; the pot is then their remises.
    assert rep["remises"] == [400, 0, 0, 400] and st.pot == 800 == rep["pot_after"]
    assert st.balances == [-500, 200, 0, -500]


@pytest.mark.shared
def test_F24_s0_worked_example():
    case = json.loads((shared_dir() / "cases" / "frap-s0-worked-example.json").read_text())
    st, res = record.replay(case["record"])
    assert res["balances"] == [-500, -800, 100, 0] and res["pot"] == 1200
    d = res["deals"][0]
    assert d["tricks"] == [0, 1, 2, 1] and d["remises"] == [400, 800, 0, 0] and d["pot_after"] == 1200


def test_F24_no_remise_means_fresh_antes():
    st, _ = table(hands=HANDS_B, turn_up="7C")
    st = all_whist_stand_pat(st, frapper=0)
    st, _ = play(st, [(0, "play", "AD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D"),
                      (0, "play", "KD"), (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"),
                      (0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "8C")])
    rep = st.reports[-1]
    assert rep["tricks"] == [3, 1, 0, 0] and rep["remises"] == [0, 0, 400, 400]
    assert st.pot == 800  # remises make the next pot: no antes
    st2, ev = engine.start_deal(st, engine.pack(st))
    assert ev[0]["ante"] == 0 and st2.pot == 800


def one_trick_frapper(options, blind, turn_up="7C"):
    """Seat 0 fraps (blind or not) on HANDS_A and takes exactly one trick; returns the report."""
    st, _ = table(hands=HANDS_A, turn_up=turn_up, options=options)
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap" if blind else "frap"),
                      (1, "whist"), (2, "whist"), (3, "whist")])
    st, _ = play(st, [(s, "buy", ()) for s in (1, 2, 3, 0)])
    st, _ = play(st, [(0, "play", "AD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D"),
                      (0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "QD"),
                      (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"), (0, "play", "KD")])
    rep = st.reports[-1]
    assert rep["tricks"] == [1, 3, 0, 0]
    assert sum(st.balances) + st.pot == 0
    return rep


@pytest.mark.parametrize("graded,blind,turn_up,remise", [
    (False, False, "7C", 800), (False, True, "7C", 1600), (False, True, "AC", 1600),  # F24: 2P, 4P
    (True, False, "7C", 400), (True, True, "7C", 800), (True, True, "AC", 1200),  # F25: P, 2P, 3P (ace)
])
def test_F24_F25_frapper_with_one_trick(graded, blind, turn_up, remise):
    rep = one_trick_frapper({"graded_remise": graded}, blind, turn_up)
    assert rep["remises"] == [remise, 0, 400, 400] and rep["blind"] is blind


def test_F25_graded_no_trick_still_full_remise():
    st, _ = table(hands=HANDS_A, turn_up="7C", options={"graded_remise": True})
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap"),
                      (1, "whist"), (2, "whist"), (3, "whist")] + [(s, "buy", ()) for s in (1, 2, 3, 0)])
    st, _ = play(st, [(0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "QD"),
                      (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"), (0, "play", "KD"),
                      (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D"), (0, "play", "AD")])
    rep = st.reports[-1]
    assert rep["tricks"] == [0, 4, 0, 0] and rep["remises"] == [1600, 0, 400, 400]


def test_F25_ace_turn_up_in_force_when_blind_frap_declared():
    # Round 1 turn-up AC passes out; round 2's turn-up 8H is in force at the blind frap: 2P, not 3P.
    st, _ = table(hands=HANDS_A, turn_up="AC", talon=["9C"], options={"graded_remise": True})
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"),
                      (1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap"),
                      (1, "whist"), (2, "whist"), (3, "whist")] + [(s, "buy", ()) for s in (1, 2, 3, 0)])
    assert st.deal.blind_turn_up == "9C" and st.deal.P == 800
    st, _ = play(st, [(0, "play", "AD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D"),
                      (0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "QD"),
                      (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"), (0, "play", "KD")])
    assert st.reports[-1]["remises"] == [1600, 0, 800, 800]
    # And with the ace in force after a pass-out: 3P.
    st, _ = table(hands=HANDS_A, turn_up="9C", talon=["AC"], options={"graded_remise": True})
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"),
                      (1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap"),
                      (1, "whist"), (2, "whist"), (3, "whist")] + [(s, "buy", ()) for s in (1, 2, 3, 0)])
    st, _ = play(st, [(0, "play", "AD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D"),
                      (0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "QD"),
                      (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"), (0, "play", "KD")])
    assert st.reports[-1]["remises"] == [2400, 0, 800, 800]


def test_F25_blind_frapper_taking_the_ace_turn_up_still_3P():
    # The turn-up in force at the declaration decides, even after the blind frapper takes it (F16).
    st, _ = table(hands=HANDS_A, turn_up="AC", options={"graded_remise": True})
    st, _ = play(st, [(1, "pass"), (2, "pass"), (3, "pass"), (0, "blind_frap"),
                      (1, "whist"), (2, "whist"), (3, "whist")] + [(s, "buy", ()) for s in (1, 2, 3)]
                 + [(0, "take_trump", "AC"), (0, "buy", ())])
    assert st.deal.turn_up is None
    st, _ = play(st, [(0, "play", "AD"), (1, "play", "7H"), (2, "play", "7D"), (3, "play", "8D"),
                      (0, "play", "7S"), (1, "play", "AS"), (2, "play", "JS"), (3, "play", "9S"),
                      (1, "play", "KS"), (2, "play", "10S"), (3, "play", "8S"), (0, "play", "QD"),
                      (1, "play", "QS"), (2, "play", "AH"), (3, "play", "KH"), (0, "play", "KD")])
    assert st.reports[-1]["remises"] == [1200, 0, 400, 400]


def test_F16_looking_first_does_not_use_up_the_take_trump():
    # Decision (docs/rules/frap.md): a look is not a turn action.
    st, _ = table(hands=HANDS_A, turn_up="7C")
    st, _ = play(st, [(1, "blind_frap"), (2, "whist"), (3, "pass"), (0, "pass"), (1, "look"),
                      (1, "take_trump", "7H")])
    assert sorted(st.deal.hands[1]) == sorted(["AS", "KS", "QS", "7C"])


def test_F9_declining_a_cut_in_counts_as_looking():
    st = cut_in_table()
    assert st.deal.looked[3] is False
    st, ev = engine.apply(st, 3, ("decline",))
    assert st.deal.looked[3] is True and ev[0] == {"type": "look", "seat": 3}


def test_F16_take_trump_by_seat_to_act_in_any_phase():
    # record-format.md: take_trump by anyone but the blind frapper names F16 (it wins over the
    # phase's rule for the seat to act); the blind frapper's take_trump outside the start of its
    # buying turn is F16 too.
    st, _ = table(hands=HANDS_A, turn_up="7C")
    assert rule_of(st, 1, ("take_trump", "AS")) == "F16"  # bidding
    assert rule_of(st, 2, ("take_trump", "JS")) == "F10"  # not to act: the phase's rule
    st, _ = play(st, [(1, "blind_frap"), (2, "whist"), (3, "pass"), (0, "pass"),
                      (1, "buy", ()), (2, "buy", ())])
    assert st.deal.phase == "cut" and rule_of(st, 3, ("take_trump", "KH")) == "F16"
    st, _ = play(st, [(3, "decline"), (0, "decline")])
    assert st.deal.phase == "play" and rule_of(st, 1, ("take_trump", "AS")) == "F16"


def test_F10_F11_F15_F17_F19_verb_the_phase_does_not_allow_names_the_phase():
    st, _ = table(hands=HANDS_A, turn_up="7C")
    assert rule_of(st, 1, ("decline",)) == "F10"
    st, _ = engine.apply(st, 1, ("frap",))
    assert rule_of(st, 2, ("buy", ())) == "F11"
    st, _ = play(st, [(2, "whist"), (3, "pass"), (0, "pass")])
    assert rule_of(st, 1, ("frap",)) == "F15" and rule_of(st, 1, ("play", "AS")) == "F15"
    st, _ = play(st, [(1, "buy", ()), (2, "buy", ())])
    assert rule_of(st, 3, ("whist",)) == "F17" and rule_of(st, 3, ("discard", "KH")) == "F17"
    assert rule_of(st, 3, ("frap",)) == "F17"
    st, _ = play(st, [(3, "decline"), (0, "decline")])
    assert rule_of(st, 1, ("buy", ())) == "F19" and rule_of(st, 1, ("discard", "AS")) == "F19"
    assert rule_of(st, 1, ("whist",)) == "F19"


def test_F28_match_carries_pot_and_balances_deal_after_deal():
    """F28: a match is a series of deals at one table; the pot and the balances carry from one
    deal to the next (antes only into an empty pot, F5), the deal passes clockwise (F7), and the
    match's result is the balances — the same as replaying its record."""
    import random

    from frapnet import engine, record
    from frapnet.testing import random_deals

    state = engine.new_match("frap", 4, {"ante": 100})
    rng = random.Random(28)
    carried = []
    for before, seat, action, after in random_deals(state, rng, 12):
        if seat is None:  # a deal starts: balances and pot are those the last deal left
            if before.reports:
                last = before.reports[-1]
                assert after.dealer == (before.dealer + 1) % 4  # F7
                if last["pot_after"]:
                    assert (after.balances, after.pot) == (last["balances"], last["pot_after"])  # no ante: carried
                    carried.append(last["pot_after"])
                else:  # F5: an empty pot takes fresh antes
                    assert after.balances == [b - 100 for b in last["balances"]] and after.pot == 400
        state = after
    assert len(state.reports) == 12 and carried, "some pot must have carried over in 12 deals"
    assert sum(state.balances) + state.pot == 0  # F6
    replayed, result = record.replay(engine.record(state))
    assert result["balances"] == state.balances and result["pot"] == state.pot
