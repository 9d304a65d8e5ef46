"""Fixed-deck tests of La Krap, one or more per rule ID L1–L12 (../shared/spec/rules-la-krap.md),
including the seed's examples (SL: the 5♣ keeps the card before it, a 2 neutralises earlier
cards of its suit, identical cards cancel, squared scores)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from frapnet import engine, record
from frapnet.errors import RuleError
from frapnet.testing import case_files, matches

from frapnet_la_krap.plugin import PACK, build_deck, neutralised, effective_suits, side_scores, teams_for
from frapnet_la_krap.testing import fillers, keep_all, one_trick, play, start


def rejects(st, seat, action, rule):
    """Assert ``action`` is refused naming ``rule`` and ``st`` is unchanged."""
    before = st.clone()
    version = st.version
    with pytest.raises(RuleError) as exc:
        engine.apply(st, seat, action)
    assert exc.value.rule == rule, exc.value
    assert st == before and st.version == version
    return exc.value


# --- L1 players -------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 7, 12])
def test_L1_player_count_refused(n):
    with pytest.raises(RuleError) as exc:
        engine.new_match("la_krap", n)
    assert exc.value.rule == "L1"


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_L1_three_to_six_players(n):
    st = engine.new_match("la_krap", n)
    assert st.players == n and st.balances == [0] * n and st.spec.ledger == "points"


# --- L2 pack ----------------------------------------------------------------------------------

def test_L2_pack_of_72_with_duplicates():
    st = engine.new_match("la_krap", 4)
    pack = engine.pack(st)
    assert len(pack) == 72
    count = Counter(pack)
    for s in "SHDC":
        for r in ("7", "8", "9", "10", "J", "Q", "K", "A"):
            assert count[r + s] == 2
        assert count["2" + s] == 1
    assert count["RJ"] == 1 and count["BJ"] == 2 and count["5C"] == 1
    assert sum(count.values()) == 72 and len(count) == 32 * 1 + 4 + 2 + 1


def test_L2_deck_must_be_the_multiset_of_the_pack():
    st = engine.new_match("la_krap", 4)
    deck = list(PACK)
    deck[deck.index("RJ")] = "BJ"  # three black jokers, no red one
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, deck, 0)
    assert exc.value.rule == "record" and "RJ" in exc.value.message
    with pytest.raises(RuleError):
        engine.start_deal(st, list(PACK)[:-1], 0)
    st2, _ = engine.start_deal(st, list(reversed(PACK)), 0)
    assert st2.phase == "deal"


# --- L3 rank ----------------------------------------------------------------------------------

def test_L3_ten_ranks_above_king():
    ev, _ = one_trick(["KH", "10H", "QH"])
    assert ev["winner"] == 1 and ev["neutralised"] == []


def test_L3_ace_above_ten_and_two_lowest():
    ev, _ = one_trick(["10S", "AS", "JS"])
    assert ev["winner"] == 1
    # a 2 played first stays live as the lowest card of its suit
    ev, _ = one_trick(["2S", "7S", "8S"])
    assert ev["winner"] == 2 and ev["neutralised"] == []


def test_L3_jokers_top_cards_of_the_turn_up_suit_no_trump():
    # turn-up 8D: no trumps, the jokers are the two top diamonds
    ev, _ = one_trick(["AD", "BJ", "9D"], turn_up="8D")
    assert ev["winner"] == 1
    ev, _ = one_trick(["BJ", "RJ", "AD"], turn_up="8D")
    assert ev["winner"] == 1
    # a joker is not a trump in a no-trump game: off-suit it cannot win
    ev, _ = one_trick(["9S", "RJ", "7S"], turn_up="8D")
    assert ev["winner"] == 0


def test_L3_L9_jokers_are_top_trumps_in_a_trump_game():
    # turn-up JH: hearts trumps; the black joker beats the ace of trumps
    ev, _ = one_trick(["7S", "BJ", "AH"], turn_up="JH")
    assert ev["winner"] == 1
    ev, _ = one_trick(["7S", "AH", "RJ", "BJ"], turn_up="JH")
    assert ev["winner"] == 2


# --- L4 deal ----------------------------------------------------------------------------------

def test_L4_record_layout_two_at_a_time_then_team_cards():
    st = engine.new_match("la_krap", 4)
    deck = list(PACK)
    st, ev = engine.start_deal(st, deck, 1)
    d = st.deal
    n = 4
    for r in range(3):
        for i in range(n):
            seat = (1 + 1 + i) % n
            k = 2 * (r * n + i)
            assert d.down[seat][2 * r:2 * r + 2] == deck[k:k + 2]
    for i in range(n):
        assert d.team[(2 + i) % n] == deck[6 * n + i]
    assert ev[0]["type"] == "deal" and ev[0]["team_cards"] == [deck[26], deck[27], deck[24], deck[25]]
    assert d.turn_up == deck[7 * n] and d.talon == tuple(deck[7 * n + 1:])
    assert st.to_act == (2,)  # L7: left of the dealer


@pytest.mark.shared
def test_L4_deal_passes_clockwise():
    case = json.loads(next(p for p in case_files("la_krap") if "five-of-clubs" in p.name).read_text())
    st, _ = record.replay(case["record"])
    assert st.phase == "between" and st.dealer == 3
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, list(PACK), 2)
    assert exc.value.rule == "L4"
    st2, _ = engine.start_deal(st, list(PACK))
    assert st2.dealer == 0 and st2.to_act == (1,)
    rec = engine.record(st)
    rec["deals"].append({"dealer": 1, "deck": list(PACK), "actions": []})
    got = record.replay_json(rec)
    assert got["ok"] is False and got["error"]["rule"] == "L4" and got["error"]["deal"] == 1
    assert got["error"]["action"] is None


# --- L5 teams ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cards,sides", [
    (["7H", "8D", "9S", "10C"], [[0, 1], [2, 3]]),          # red v black
    (["7H", "8S", "9D", "10C"], [[0, 2], [1, 3]]),
    (["7H", "8D", "9H", "10C"], [[0, 1, 2], [3]]),          # a team of one plays alone
    (["7H", "8D", "9H"], [[0], [1], [2]]),                  # all on one team: everyone alone
    (["7H", "RJ", "9S"], [[0], [1], [2]]),                  # no team of two: everyone alone
    (["RJ", "BJ", "9S", "5C"], [[0, 1], [2, 3]]),           # jokers a team; the 5♣ is black
    (["5C", "KH", "QS", "BJ", "2D"], [[0, 2], [1, 4], [3]]),
    (["RJ", "BJ", "BJ", "7H", "7S", "AC"], [[0, 1, 2], [3], [4, 5]]),
])
def test_L5_teams_by_team_card(cards, sides):
    assert teams_for(cards) == sides


def test_L5_teams_in_the_report_and_view():
    n = 4
    team = ["RJ", "7H", "BJ", "8D"]
    down = [fillers(24, "", team, "9S")[6 * s:6 * s + 6] for s in range(n)]
    st, ev = start(n, down, team, "9S")
    assert ev[0]["teams"] == [[0, 2], [1, 3]]
    rep = engine.deal_report(st)
    assert rep["teams"] == [[0, 2], [1, 3]] and rep["deal_points"] is None
    assert engine.view(st, 1)["seats"][2]["side"] == [0, 2]


# --- L6 game type, turn-up ----------------------------------------------------------------------

@pytest.mark.parametrize("turn_up,game_type,trump", [
    ("JS", "trump", "S"), ("QH", "trump", "H"), ("KD", "trump", "D"), ("10C", "trump", "C"), ("AS", "trump", "S"),
    ("7H", "no_trump", None), ("8D", "no_trump", None), ("9C", "no_trump", None), ("2S", "no_trump", None),
])
def test_L6_turn_up_decides_the_game(turn_up, game_type, trump):
    n = 3
    down = [fillers(21, "", [], turn_up)[6 * s:6 * s + 6] for s in range(n)]
    team = fillers(21, "", [], turn_up)[18:21]
    st, ev = start(n, down, team, turn_up)
    rep = engine.deal_report(st)
    assert (rep["game_type"], rep["trump"]) == (game_type, trump)
    assert ev[0]["turn_up"] == turn_up and engine.view(st, None)["turn_up"] == turn_up


def test_L6_joker_and_five_of_clubs_go_back_into_the_middle():
    n = 3
    talon_top = ["5C", "BJ", "QS"]
    down = [fillers(21, "", ["RJ"] + talon_top, "AH")[6 * s:6 * s + 6] for s in range(n)]
    team = fillers(21, "", ["RJ"] + talon_top, "AH")[18:21]
    deck = build_deck(n, 2, down, team, "RJ", talon_top)
    st = engine.new_match("la_krap", n)
    st, ev = engine.start_deal(st, deck, 2)
    d = st.deal
    assert d.turn_up == "QS" and d.trump == "S" and ev[0]["pushed"] == ["RJ", "5C", "BJ"]
    # each put back with ⌊m/2⌋ cards above it, m the talon without it; then the next card is turned
    talon = list(deck[7 * n + 1:])
    for c in ("RJ", "5C", "BJ"):
        talon.insert(len(talon) // 2, c)
        talon.pop(0)
    assert list(d.talon) == talon and d.talon_count == 72 - 7 * n - 1
    # by hand: m = 50, the RJ goes under deck[22:47] (25 cards); the 5♣ is turned, m = 50 again, it
    # goes in at 25, just under the RJ; the BJ is turned and goes in under them; the Q♠ is turned
    assert list(d.talon[:22]) == deck[25:47] and d.talon[22:25] == ("RJ", "5C", "BJ")
    assert list(d.talon[25:]) == deck[47:]
    # the turn-up is never drawn: an exchange takes the next talon cards
    st, _ = engine.apply(st, 0, ("exchange", tuple(sorted(d.down[0][:2]))))
    assert sorted(st.deal.down[0][-2:]) == sorted(talon[:2])


def test_L6_single_push_position():
    """A red joker turned up in a 4-player deal: m = 72 − 29 = 43, so 21 cards lie above it."""
    n = 4
    down = [fillers(28, "", ["RJ", "KC"], "8H")[6 * s:6 * s + 6] for s in range(n)]
    team = fillers(28, "", ["RJ", "KC"], "8H")[24:28]
    deck = build_deck(n, 3, down, team, "RJ", ["KC"])
    st = engine.new_match("la_krap", n)
    st, _ = engine.start_deal(st, deck, 3)
    d = st.deal
    assert d.turn_up == "KC" and d.trump == "C"
    # 21 above it before the KC was turned up, so 20 above it now
    assert d.talon[20] == "RJ" and list(d.talon[:20]) == deck[30:50] and list(d.talon[21:]) == deck[50:]


def test_L6_L8_joker_counts_as_the_turn_up_suit_for_following():
    # no-trump (turn-up 7D); seat 1 holds only the BJ among diamonds: it must play it on a diamond lead
    n = 3
    fill = fillers(40, "D", ["9D", "BJ"], "7D")
    down = [["9D"] + fill[0:5], ["BJ"] + fill[5:10], fill[10:16]]
    st, _ = start(n, down, fill[16:19], "7D")
    st = keep_all(st)
    st, _ = play(st, "9D")
    assert engine.legal_actions(st, 1) == [("play", "BJ")]
    rejects(st, 1, ("play", fill[5]), "L8")


# --- L7 exchange ------------------------------------------------------------------------------

@pytest.mark.shared
def test_L7_exchange_in_turn_draws_from_the_talon():
    case = json.loads(next(p for p in case_files("la_krap") if "turnup-joker" in p.name).read_text())
    rec = case["record"]
    deck = rec["deals"][0]["deck"]
    st = engine.new_match("la_krap", 3)
    st, _ = engine.start_deal(st, deck, 2)
    assert st.to_act == (0,)
    rejects(st, 1, ("exchange", []), "L7")          # not seat 1's turn
    rejects(st, 0, ("play", st.deal.down[0][0]), "L7")  # no play during the exchange
    rejects(st, 0, ("exchange", ("RJ",)), "L7")     # a card not held
    talon0 = st.deal.talon
    st, ev = engine.apply(st, 0, ("exchange", ["8D", "8S", "JC"]))
    assert ev[0] == {"type": "exchange", "seat": 0, "count": 3, "talon": len(talon0) - 3}
    assert st.deal.down[0][-3:] == list(talon0[:3]) and st.deal.discards[0] == ["8S", "8D", "JC"]
    assert len(st.deal.down[0]) == 6 and st.deal.talon_count == len(talon0) - 3
    assert st.to_act == (1,)


def test_L7_team_card_cannot_be_exchanged_but_a_face_down_copy_can():
    n = 3
    team = ["10D", "7S", "8S"]
    fill = fillers(20, "", team + ["10D"], "9H")
    down = [["10D"] + fill[0:5], fill[5:11], fill[11:17]]
    st, _ = start(n, down, team, "9H")
    assert st.deal.hand(0).count("10D") == 2
    # one 10♦ face down, one as the team card: the exchange takes the face-down copy
    st1, _ = engine.apply(st, 0, ("exchange", ["10D"]))
    assert st1.deal.team[0] == "10D" and "10D" not in st1.deal.down[0]
    # both copies: the second one is the team card
    rejects(st, 0, ("exchange", ["10D", "10D"]), "L7")
    assert all(a[1].count("10D") <= 1 for a in engine.legal_actions(st, 0))


@pytest.mark.shared
def test_L7_shared_case_team_card_exchange_refused():
    case = json.loads(next(p for p in case_files("la_krap") if "exchange-team-card" in p.name).read_text())
    matches(case["expect"], record.replay_json(case["record"]))


def test_L7_exchange_more_than_the_talon_holds_is_refused():
    n = 6
    st = engine.new_match("la_krap", n)
    deck = list(PACK)
    st, _ = engine.start_deal(st, deck, 5)
    assert st.deal.talon_count == 29
    for seat in range(4):
        st, _ = engine.apply(st, seat, ("exchange", tuple(st.deal.down[seat])))
    assert st.deal.talon_count == 5 and st.to_act == (4,)
    rejects(st, 4, ("exchange", tuple(st.deal.down[4])), "L7")
    legal = engine.legal_actions(st, 4)
    assert max(len(a[1]) for a in legal) == 5
    st, _ = engine.apply(st, 4, ("exchange", tuple(st.deal.down[4][:5])))
    assert st.deal.talon_count == 0
    assert engine.legal_actions(st, 5) == [("exchange", ())]


def test_L7_exchange_options_count_duplicates_once():
    n = 3
    mine = ["AS", "AS", "7H", "8H", "9H", "JC"]
    fill = fillers(15, "", mine, "9D")
    down = [mine, fill[0:6], fill[6:12]]
    st, _ = start(n, down, fill[12:15], "9D")
    legal = engine.legal_actions(st, 0)
    assert len(legal) == len(set(legal))
    # the pair A♠ A♠ can go 0, 1 or 2 times, each other card 0 or 1 time: 3 × 2^4 = 48 choices
    assert len(legal) == 48
    assert ("exchange", ("AS", "AS")) in legal and ("exchange", ()) in legal


# --- L8 play ------------------------------------------------------------------------------------

@pytest.mark.shared
def test_L8_left_of_dealer_leads_and_must_follow_suit():
    case = json.loads(next(p for p in case_files("la_krap") if "five-of-clubs" in p.name).read_text())
    deck = case["record"]["deals"][0]["deck"]
    st = engine.new_match("la_krap", 4)
    st, _ = engine.start_deal(st, deck, 3)
    st = keep_all(st)
    assert st.to_act == (0,) and engine.view(st, 0)["phase"] == "play"
    rejects(st, 1, ("play", "10H"), "L8")     # out of turn
    rejects(st, 0, ("play", "RJ"), "L8")      # not held
    rejects(st, 0, ("exchange", []), "L8")    # the exchange is over
    st, _ = play(st, "AH")
    # seat 1 holds hearts: it must follow
    hand1 = st.deal.hand(1)
    off = next(c for c in hand1 if st.deal.eff[c] != "H")
    e = rejects(st, 1, ("play", off), "L8")
    assert "follow" in e.message
    assert all(st.deal.eff[a[1]] == "H" for a in engine.legal_actions(st, 1))


def test_L8_five_of_clubs_is_a_club_and_a_led_five_lets_the_next_card_set_the_suit():
    n = 3
    fill = fillers(17, "CH", ["5C", "7H", "8H", "AC"], "7D")
    # seat 0 leads 5♣; seat 1 may play anything (the hearts it sets), seat 2 must then follow ♥
    down = [["5C", "AC"] + fill[0:4], ["7H"] + fill[4:9], ["8H"] + fill[9:14]]
    st, _ = start(n, down, fill[14:17], "7D")
    st = keep_all(st)
    st, _ = play(st, "5C")
    assert {a[1] for a in engine.legal_actions(st, 1)} == set(st.deal.hand(1))
    st, _ = play(st, "7H")
    assert engine.legal_actions(st, 2) == [("play", "8H")]
    st, ev = play(st, "8H")
    trick = ev[-1]
    assert trick["winner"] == 2 and trick["neutralised"] == [0]  # L9: hearts set by the next card
    # seat 2 now leads a club: seat 0's only club is the A♣ (the 5♣ is gone)


def test_L8_holder_of_five_of_clubs_must_follow_clubs_with_it():
    n = 3
    fill = fillers(40, "C", ["5C", "9C"], "7D")
    down = [["9C"] + fill[0:5], ["5C"] + fill[5:10], fill[10:16]]
    st, _ = start(n, down, fill[16:19], "7D")
    st = keep_all(st)
    st, _ = play(st, "9C")
    assert engine.legal_actions(st, 1) == [("play", "5C")]


def test_L8_play_takes_the_face_down_copy_before_the_team_card():
    n = 3
    team = ["AS", "7H", "8H"]
    fill = fillers(20, "S", team + ["AS"], "9D")
    down = [["AS"] + fill[0:5], fill[5:11], fill[11:17]]
    st, _ = start(n, down, team, "9D")
    st = keep_all(st)
    st, _ = play(st, "AS")
    assert st.deal.team[0] == "AS" and "AS" not in st.deal.down[0]
    assert engine.view(st, 2)["seats"][0]["team_card"] == "AS"


def test_L8_seven_tricks_then_the_deal_ends():
    n = 3
    st = engine.new_match("la_krap", n)
    st, _ = engine.start_deal(st, list(PACK), 0)
    st = keep_all(st)
    count = 0
    while st.phase == "deal":
        seat = st.to_act[0]
        plays = [a for a in engine.legal_actions(st, seat) if a[0] == "play"]
        st, ev = engine.apply(st, seat, plays[0])
        count += 1
    assert count == 7 * n and sum(st.reports[-1]["tricks"]) == 7
    assert all(len(st.deal.hand(s)) == 0 for s in range(n))


# --- L9 winning -------------------------------------------------------------------------------

def test_L9_highest_trump_wins():
    ev, _ = one_trick(["AS", "7H", "9H"], turn_up="QH")
    assert ev["winner"] == 2


def test_L9_highest_of_suit_led_without_trumps():
    ev, _ = one_trick(["9S", "AH", "JS"], turn_up="7D")
    assert ev["winner"] == 2


def test_L9_leader_takes_a_trick_with_nothing_live():
    # A♥ A♥ cancel; 5♣ then neutralises the rest (there is no card before it that is live): leader wins
    ev, _ = one_trick(["AH", "AH", "5C"], turn_up="7D")
    assert ev["neutralised"] == [0, 1, 2] and ev["winner"] == 0
    # no live card of the suit led: a live off-suit card cannot win
    ev, _ = one_trick(["KS", "KS", "AH"], turn_up="8D")
    assert ev["neutralised"] == [0, 1] and ev["winner"] == 0


# --- L10 declaring ----------------------------------------------------------------------------

def _declaring_deal():
    """Seat 0 holds K♥ K♥ Q♥ Q♥ A♠ 10♠ and team card 7♣ in a spades-trump game; seats 1, 2 hold
    neither spades nor hearts, so seat 0 wins what it leads."""
    n = 3
    mine = ["KH", "KH", "QH", "QH", "AS", "10S"]
    fill = fillers(15, "SH", mine + ["7C"], "AS")
    down = [mine, fill[0:6], fill[6:12]]
    team = ["7C", fill[12], fill[13]]
    st, _ = start(n, down, team, "JS")
    return keep_all(st)


def test_L10_no_declaration_before_the_first_trick():
    st = _declaring_deal()
    assert ("declare", "H") not in engine.legal_actions(st, 0)
    rejects(st, 0, ("declare", "H"), "L10")
    rejects(st, 1, ("declare", "H"), "L8")  # not to act: the phase's rule


def test_L10_declare_then_lead_a_declared_card_and_score_five():
    st = _declaring_deal()
    st, _ = play(st, "AS")
    for _ in range(2):
        seat = st.to_act[0]
        st, ev = engine.apply(st, seat, engine.legal_actions(st, seat)[0])
    assert ev[-1]["winner"] == 0 and st.to_act == (0,)
    legal = engine.legal_actions(st, 0)
    assert ("declare", "H") in legal and ("declare", "S") not in legal
    assert engine.view(st, 0)["phase"] == "declaring"
    rejects(st, 1, ("play", st.deal.hand(1)[0]), "L10")  # out of turn in the declaring moment
    rejects(st, 0, ("declare", "S"), "L10")             # no K and Q of spades
    st, ev = engine.apply(st, 0, ("declare", "H"))
    assert ev[0] == {"type": "declare", "seat": 0, "suit": "H", "cards": ["KH", "QH"], "points": 5}
    rejects(st, 0, ("declare", "H"), "L10")             # at most one declaration before each lead
    e = rejects(st, 0, ("play", "10S"), "L10")          # must lead a declared card
    assert "KH" in e.message or "K♥" in e.message
    assert {a[1] for a in engine.legal_actions(st, 0)} == {"KH", "QH"}
    st, _ = play(st, "KH")
    assert st.to_act == (1,)
    rejects(st, 1, ("declare", "H"), "L10")             # mid-trick, by the seat to act
    for _ in range(2):
        seat = st.to_act[0]
        st, ev = engine.apply(st, seat, engine.legal_actions(st, seat)[0])
    assert ev[-1]["type"] == "trick" and ev[-1]["winner"] == 0
    # a second, different pair of hearts may be declared (K♥ Q♥ Q♥ left, one Q♥ used)
    assert ("declare", "H") in engine.legal_actions(st, 0)
    st, _ = engine.apply(st, 0, ("declare", "H"))
    st, _ = play(st, "QH")
    for _ in range(2):
        seat = st.to_act[0]
        st, ev = engine.apply(st, seat, engine.legal_actions(st, seat)[0])
    # K♥ Q♥ left: both were used in declarations — no third one
    assert sorted(st.deal.hand(0)) == sorted(["KH", "QH", "10S", "7C"])
    assert ("declare", "H") not in engine.legal_actions(st, 0)
    rejects(st, 0, ("declare", "H"), "L10")
    while st.phase == "deal":
        seat = st.to_act[0]
        plays = [a for a in engine.legal_actions(st, seat) if a[0] == "play"]
        st, _ = engine.apply(st, seat, plays[0])
    rep = st.reports[-1]
    assert rep["declarations"][0] == ["H", "H"]
    assert rep["deal_points"] == side_scores([tuple(x) for x in rep["teams"]], rep["tricks"], [2, 0, 0])
    side0 = next(x for x in rep["teams"] if 0 in x)
    t = sum(rep["tricks"][s] for s in side0)
    assert rep["deal_points"][0] == t * t + 10 and st.balances == rep["deal_points"]


def test_L10_mid_trick_declaration_refused():
    st = _declaring_deal()
    st, _ = play(st, "AS")
    rejects(st, 1, ("declare", "H"), "L10")


@pytest.mark.shared
def test_L10_L12_shared_case_with_declaration():
    case = json.loads(next(p for p in case_files("la_krap") if "scoring-squares" in p.name).read_text())
    got = record.replay_json(case["record"])
    matches(case["expect"], got)
    assert got["deals"][0]["declarations"] == [["H"], [], [], []]


# --- L11 neutralising --------------------------------------------------------------------------

EFF = effective_suits("D")


def _dead(cards, eff=EFF):
    return neutralised([(i, c) for i, c in enumerate(cards)], eff)


@pytest.mark.shared
def test_L11c_seed_example_five_of_clubs_keeps_the_card_before_it():
    """SL rule 3: ♥A ♥10 5♣ ♥K — the 5♣ cancels all but the ♥10, which wins."""
    assert _dead(["AH", "10H", "5C", "KH"]) == [True, False, True, True]
    ev, _ = one_trick(["AH", "10H", "5C", "KH"])
    assert ev["winner"] == 1 and ev["neutralised"] == [0, 2, 3]
    case = json.loads(next(p for p in case_files("la_krap") if "five-of-clubs" in p.name).read_text())
    matches(case["expect"], record.replay_json(case["record"]))


def test_L11c_five_of_clubs_led_neutralises_only_itself():
    assert _dead(["5C", "AH", "KH"]) == [True, False, False]
    ev, _ = one_trick(["5C", "KH", "AH"])
    assert ev["winner"] == 2 and ev["neutralised"] == [0]


def test_L11c_card_after_five_has_no_effect_of_its_own():
    # a 2 played after the 5♣ is neutralised as it is played and cancels nothing
    assert _dead(["KH", "AH", "5C", "2H"]) == [True, False, True, True]
    ev, _ = one_trick(["KH", "AH", "5C", "2H"])
    assert ev["winner"] == 1
    # an identical card after the 5♣ does not cancel the card kept by the 5♣
    assert _dead(["9S", "AH", "5C", "AH"]) == [True, False, True, True]


def test_L11b_seed_example_two_neutralises_earlier_cards_of_its_suit():
    """SL rule 2: a 2 neutralises every card of its suit played before it; without such cards it
    is simply the lowest card."""
    assert _dead(["AH", "KH", "2H", "10H"]) == [True, True, False, False]
    ev, _ = one_trick(["AH", "KH", "2H", "10H"])
    assert ev["winner"] == 3 and ev["neutralised"] == [0, 1]
    ev, _ = one_trick(["AH", "KH", "2H"])
    assert ev["winner"] == 2 and ev["neutralised"] == [0, 1]


def test_L11b_two_counts_jokers_as_the_turn_up_suit():
    # turn-up 8D: the BJ is a diamond, so the 2♦ neutralises it
    assert _dead(["9D", "BJ", "2D"]) == [True, True, False]
    ev, _ = one_trick(["9D", "BJ", "2D"], turn_up="8D")
    assert ev["winner"] == 2
    # and a 2 of another suit does not
    ev, _ = one_trick(["9S", "2S", "BJ"], turn_up="8D")
    assert ev["winner"] == 1 and ev["neutralised"] == [0]


def test_L11a_seed_example_identical_cards_cancel():
    """SL rule 1: two identical cards neutralise each other and are not considered at all."""
    assert _dead(["AH", "AH", "KH"]) == [True, True, False]
    ev, _ = one_trick(["AH", "AH", "KH"])
    assert ev["winner"] == 2 and ev["neutralised"] == [0, 1]
    # the two black jokers are identical too
    ev, _ = one_trick(["7H", "BJ", "BJ", "QH"], turn_up="JH")
    assert ev["winner"] == 3 and ev["neutralised"] == [1, 2]


def test_L11a_identical_cancels_even_if_the_first_was_neutralised():
    # the 2♥ neutralises the K♥; the second K♥ is then cancelled too: the 2♥ wins
    assert _dead(["KH", "2H", "KH"]) == [True, False, True]
    ev, _ = one_trick(["KH", "2H", "KH"])
    assert ev["winner"] == 1 and ev["neutralised"] == [0, 2]


def test_L11_once_neutralised_stays_so():
    # K♥ K♥ cancel; the 2♥ "neutralises" the dead K♥s again: nothing changes; 2♥ wins
    assert _dead(["KH", "KH", "2H", "5C"]) == [True, True, False, True]
    ev, _ = one_trick(["KH", "KH", "2H", "5C"])
    assert ev["winner"] == 2


# --- L12 scoring and the match ------------------------------------------------------------------

def test_L12_seed_squares():
    """SL: 1, 4, 9, 16, 25, 36, 49 points for 1…7 tricks; each member gets the team's score."""
    for t in range(8):
        assert side_scores([(0,), (1, 2)], [t, 7 - t, 0], [0, 0, 0]) == [t * t, (7 - t) ** 2, (7 - t) ** 2]
    # the docs' worked example: team cards 7♥ 8♠ 9♦ RJ; side 0+2 takes 4 tricks with one
    # declaration = 21 each; lone seats 1 (2 tricks) and 3 (1 trick)
    assert teams_for(["7H", "8S", "9D", "RJ"]) == [[0, 2], [1], [3]]
    assert side_scores([(0, 2), (1,), (3,)], [3, 2, 1, 1], [1, 0, 0, 0]) == [21, 4, 21, 1]


@pytest.mark.shared
def test_L12_target_ends_the_match_and_ties_share_the_win():
    case = json.loads(next(p for p in case_files("la_krap") if "five-of-clubs" in p.name).read_text())
    rec = dict(case["record"], options={"target": 25})
    st, res = record.replay(rec)
    assert res["points"] == [25, 4, 4, 25] and res["winners"] == [0, 3]
    assert st.phase == "over" and st.match["over"] is True
    assert res["deals"][0]["match_over"] is True and res["deals"][0]["winners"] == [0, 3]
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, list(PACK))
    assert exc.value.rule == "L12"
    rec["deals"] = rec["deals"] + [{"dealer": 0, "deck": list(PACK), "actions": []}]
    got = record.replay_json(rec)
    assert got["ok"] is False and got["error"]["rule"] == "L12" and got["error"]["deal"] == 1
    # one point short of the target: the match goes on
    st, res = record.replay(dict(case["record"], options={"target": 26}))
    assert st.phase == "between" and "winners" not in res


@pytest.mark.parametrize("value", [0, -5, "x", 1.5, True])
def test_L12_bad_target_refused(value):
    with pytest.raises(RuleError) as exc:
        engine.new_match("la_krap", 4, {"target": value})
    assert exc.value.rule == "L12"


def test_L12_default_target_and_unknown_option():
    assert engine.new_match("la_krap", 4).options == {"target": 100}
    with pytest.raises(RuleError) as exc:
        engine.new_match("la_krap", 4, {"ante": 100})
    assert exc.value.rule == "record"


@pytest.mark.shared
def test_L4_L12_points_accumulate_over_deals():
    """The seed-example deal, then the same cards dealt by seat 0 (the deal passed clockwise, L4):
    the team cards move one seat round, so seats 0+1 play 2+3; every seat keeps its cards and
    plays its lowest legal card. Tricks 3, 2, 1, 1: side 0+1 takes 5 → 25, side 2+3 takes 2 → 4."""
    case = json.loads(next(p for p in case_files("la_krap") if "five-of-clubs" in p.name).read_text())
    st, _ = record.replay(case["record"])
    assert st.balances == [25, 4, 4, 25]
    st2, _ = engine.start_deal(st, case["record"]["deals"][0]["deck"])
    assert st2.dealer == 0
    st2 = keep_all(st2)
    while st2.phase == "deal":
        seat = st2.to_act[0]
        st2, _ = engine.apply(st2, seat, [a for a in engine.legal_actions(st2, seat) if a[0] == "play"][0])
    rep = st2.reports[-1]
    assert rep["teams"] == [[0, 1], [2, 3]] and rep["tricks"] == [3, 2, 1, 1]
    assert rep["deal_points"] == [25, 25, 4, 4]
    assert st2.balances == [50, 29, 8, 29] == rep["points_after"]
    assert record.result(st2)["points"] == [50, 29, 8, 29]
