"""Napoleon (Клад Наполеона): one or more fixed-deck tests per rule N1–N9, the seed's worked
examples (stake 10, bid three: made → each pays 30; failed → the declarer pays each 30 and 30
into the treasure), every option, and illegal actions refused with the right rule ID and the
state unchanged (record-format.md, "Which rule an error names")."""
from __future__ import annotations

import pytest

from frapnet import engine, record
from frapnet.cards import pack
from frapnet.errors import RuleError


# --- helpers -------------------------------------------------------------------------------------

def deck_for(hands, dealer, talon=()):
    """A 36-card deck that deals ``hands[s]`` (five cards each) to seat s under N3, with ``talon``
    on top of the talon and the unused cards after it in pack order."""
    n = len(hands)
    deck = [None] * (5 * n)
    for s, h in enumerate(hands):
        assert len(h) == 5
        for j, c in enumerate(h):
            deck[j * n + (s - dealer - 1) % n] = c
    used = {c for h in hands for c in h} | set(talon)
    assert len(used) == 5 * n + len(talon), "a card is given twice"
    return deck + list(talon) + [c for c in pack(36) if c not in used]


def table(n, dealer, hands, talon=(), **options):
    st = engine.new_match("napoleon", n, options or None)
    st, _ = engine.start_deal(st, deck_for(hands, dealer, talon), dealer)
    return st


def run(st, actions):
    """Apply ``[seat, verb, arg?]`` actions; return the final state and all events."""
    events = []
    for a in actions:
        st, ev = engine.apply(st, a[0], a[1:])
        events.extend(ev)
    return st, events


def reject(st, seat, action, rule):
    """The action is refused naming ``rule``; the state is unchanged (same deal, ledger, version)."""
    before = st.clone()
    with pytest.raises(RuleError) as exc:
        engine.apply(st, seat, action)
    assert exc.value.rule == rule, exc.value
    assert st == before and st.version == before.version
    return exc.value


def ledger_ok(st):
    assert sum(st.balances) + st.pot == 0  # N2 (as F6)


# Seed example hands: 4 players, dealer 0, seat 1 bids three.
SEED_MADE = [["AC", "KC", "QC", "JC", "10C"], ["AS", "KS", "QS", "6H", "6D"],
             ["AH", "KH", "QH", "JH", "10H"], ["AD", "KD", "QD", "JD", "10D"]]
SEED_FAILED = [["AC", "KC", "QC", "JC", "10C"], ["AS", "6H", "7H", "6D", "7D"],
               ["AH", "KH", "QH", "JH", "10H"], ["AD", "KD", "QD", "JD", "10D"]]
AUCTION_3 = [[0, "pass"], [1, "bid", 3], [2, "pass"], [3, "pass"], [1, "buy", []]]


# --- N1 players and deck -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 7, 12])
def test_N1_player_count_refused(n):
    with pytest.raises(RuleError) as exc:
        engine.new_match("napoleon", n)
    assert exc.value.rule == "N1"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_N1_two_to_six_players_36_card_pack(n):
    st = engine.new_match("napoleon", n)
    p = engine.pack(st)
    assert len(p) == 36 and len(set(p)) == 36
    assert {c[:-1] for c in p} == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def test_N1_deck_not_the_36_card_pack_is_a_record_error():
    st = engine.new_match("napoleon", 3)
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, pack(32), 0)
    assert exc.value.rule == "record"
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, pack(36)[:-1] + ["AS"], 0)
    assert exc.value.rule == "record"


def test_N1_replay_bad_player_count_names_N1():
    rec = {"format": "frapnet-record/1", "game": "napoleon", "players": 7, "options": {}, "deals": []}
    res = record.replay_json(rec)
    assert res["ok"] is False
    assert (res["error"]["deal"], res["error"]["action"], res["error"]["rule"]) == (None, None, "N1")


def test_N1_ace_high_in_trick_winning():
    """N1 ace high, N6: A beats K of the same suit; 6 is the lowest card."""
    st = table(3, 0, [["KS", "7D", "8D", "9D", "10D"], ["AS", "6S", "7H", "8H", "9H"],
                      ["QS", "6C", "7C", "8C", "9C"]])
    st, _ = run(st, [[0, "pass"], [1, "bid", 2], [2, "pass"], [1, "buy", []], [1, "play", "6S"], [2, "play", "QS"],
                     [0, "play", "KS"]])
    assert st.deal.tricks == [1, 0, 0]  # K beats Q beats 6
    st, _ = run(st, [[0, "play", "7D"], [1, "play", "AS"]])  # seat 1 void in ♦: must trump (♠)
    st, _ = run(st, [[2, "play", "6C"]])
    assert st.deal.tricks == [1, 1, 0]


# --- N2 stake and treasure -----------------------------------------------------------------------

def test_N2_every_player_pays_a_stake_into_the_treasure_each_deal():
    st = engine.new_match("napoleon", 4)
    assert st.options == {"stake": 10}  # default
    st, ev = engine.start_deal(st, pack(36), 0)
    assert st.balances == [-10, -10, -10, -10] and st.pot == 40
    assert ev[0] == {"type": "deal", "dealer": 0, "deal_no": 1, "stake": 10, "pot": 40, "talon": 16}
    ledger_ok(st)


def test_N2_option_stake_used_for_stakes_and_payments():
    """stake 25, seed hands: stakes 25 each, made three → each pays 75."""
    st = table(4, 0, SEED_MADE, stake=25)
    assert st.balances == [-25] * 4 and st.pot == 100
    st, _ = run(st, AUCTION_3 + [[1, "play", "AS"], [2, "play", "AH"], [3, "play", "AD"], [0, "play", "AC"],
                                 [1, "play", "KS"], [2, "play", "KH"], [3, "play", "KD"], [0, "play", "KC"],
                                 [1, "play", "QS"], [2, "play", "QH"], [3, "play", "QD"], [0, "play", "QC"]])
    assert st.balances == [-100, 200, -100, -100] and st.pot == 100
    ledger_ok(st)


@pytest.mark.parametrize("bad", [0, -10, "10", 2.5, True, None])
def test_N2_stake_must_be_a_positive_whole_number(bad):
    with pytest.raises(RuleError) as exc:
        engine.new_match("napoleon", 4, {"stake": bad})
    assert exc.value.rule == "N2"


def test_N2_unknown_option_is_a_record_error():
    with pytest.raises(RuleError) as exc:
        engine.new_match("napoleon", 4, {"ante": 100})
    assert exc.value.rule == "record"


def test_N1_checked_before_N2_options():
    with pytest.raises(RuleError) as exc:
        engine.new_match("napoleon", 9, {"stake": 0})
    assert exc.value.rule == "N1"


def test_N2_treasure_carries_over_a_thrown_in_deal():
    st = engine.new_match("napoleon", 3, {"stake": 7})
    st, _ = engine.start_deal(st, pack(36), 0)
    st, _ = run(st, [[0, "pass"], [1, "pass"], [2, "pass"]])
    assert st.phase == "between" and st.pot == 21 and st.balances == [-7, -7, -7]
    st, _ = engine.start_deal(st, pack(36))
    assert st.dealer == 1 and st.pot == 42 and st.balances == [-14, -14, -14]
    ledger_ok(st)


# --- N3 deal -------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,dealer", [(2, 1), (4, 0), (5, 3), (6, 5)])
def test_N3_five_each_one_at_a_time_from_the_dealers_left(n, dealer):
    deck = pack(36)
    st = engine.new_match("napoleon", n)
    st, _ = engine.start_deal(st, deck, dealer)
    for k in range(5 * n):
        assert deck[k] in st.deal.hands[(dealer + 1 + k) % n]
    assert [len(h) for h in st.deal.hands] == [5] * n
    assert st.deal.talon == 36 - 5 * n
    assert st.deal.deck[st.deal.talon_pos:] == tuple(deck[5 * n:])  # talon, top first
    v = engine.view(st, (dealer + 1) % n)
    assert set(v["hand"]) == set(deck[0:5 * n:n])
    assert v["turn_up"] is None and v["talon"] == 36 - 5 * n  # no turn-up


# --- N4 auction ----------------------------------------------------------------------------------

def test_N4_dealer_speaks_first_others_refused():
    st = table(4, 2, SEED_MADE)
    assert st.to_act == (2,)
    assert engine.legal_actions(st, 3) == []
    reject(st, 3, ["bid", 1], "N4")
    reject(st, 0, ["pass"], "N4")
    reject(st, 3, ["play", "AD"], "N4")  # a seat not to act: the phase's rule
    assert engine.legal_actions(st, 2) == [("bid", 1), ("bid", 2), ("bid", 3), ("bid", 4), ("bid", 5),
                                           ("napoleon",), ("pass",)]


def test_N4_bid_must_be_higher_and_napoleon_ranks_above_five():
    st = table(4, 0, SEED_MADE)
    st, _ = run(st, [[0, "bid", 2]])
    reject(st, 1, ["bid", 2], "N4")
    reject(st, 1, ["bid", 1], "N4")
    reject(st, 1, ["bid", 6], "N4")
    reject(st, 1, ["bid", 0], "N4")
    reject(st, 1, ["here"], "N4")  # only the dealer
    reject(st, 1, ["buy", []], "N4")  # a verb the auction does not allow
    assert engine.legal_actions(st, 1) == [("bid", 3), ("bid", 4), ("bid", 5), ("napoleon",), ("pass",)]
    st, _ = run(st, [[1, "bid", 5]])
    reject(st, 2, ["bid", 5], "N4")
    assert engine.legal_actions(st, 2) == [("napoleon",), ("pass",)]
    st, ev = run(st, [[2, "napoleon"]])
    assert ev == [{"type": "bid", "seat": 2, "bid": "napoleon"}]
    reject(st, 3, ["napoleon"], "N4")
    reject(st, 3, ["bid", 5], "N4")
    assert engine.legal_actions(st, 3) == [("pass",)]
    st, _ = run(st, [[3, "pass"]])
    assert engine.legal_actions(st, 0) == [("here",), ("pass",)]  # the dealer may take napoleon


def test_N4_here_by_non_dealer_refused_shared_case():
    st = table(4, 0, SEED_MADE)
    st, _ = run(st, [[0, "pass"], [1, "bid", 3]])
    e = reject(st, 2, ["here"], "N4")
    assert "dealer" in e.message


def test_N4_here_needs_a_bid_to_take():
    st = table(4, 0, SEED_MADE)
    assert ("here",) not in engine.legal_actions(st, 0)
    reject(st, 0, ["here"], "N4")


def test_N4_dealer_here_then_auction_continues_shared_case_order():
    """Dealer 0 bids 2, seat 1 bids 4, seat 2 passes, the dealer says here (takes the 4), seat 1
    answers napoleon, the dealer passes: seat 1 is the declarer for Napoleon."""
    st = table(3, 0, [["QD", "8D", "7D", "6D", "6S"], ["AH", "KH", "QH", "JH", "10H"],
                      ["AD", "QS", "JS", "8C", "8S"]])
    st, ev = run(st, [[0, "bid", 2], [1, "bid", 4], [2, "pass"]])
    assert st.to_act == (0,)  # seat 2 passed: back to the dealer
    assert engine.legal_actions(st, 0) == [("bid", 5), ("napoleon",), ("here",), ("pass",)]
    st, ev = run(st, [[0, "here"]])
    assert ev == [{"type": "bid", "seat": 0, "bid": "here", "top": 4}]
    assert st.deal.holder == 0 and st.deal.top == 4 and st.to_act == (1,)
    reject(st, 1, ["bid", 4], "N4")  # must bid higher than the 4 the dealer took
    st, _ = run(st, [[1, "napoleon"], [0, "pass"]])
    assert st.deal.declarer == 1 and st.deal.bid == 6 and st.deal.phase == "buy" and st.to_act == (1,)
    assert engine.view(st, None)["bid"] == "napoleon"


def test_N4_dealer_here_to_napoleon_plays_for_napoleon():
    st = table(3, 0, [["AS", "KS", "QS", "JS", "10S"], ["AH", "KH", "QH", "JH", "10H"],
                      ["AD", "KD", "QD", "JD", "10D"]])
    st, _ = run(st, [[0, "bid", 1], [1, "napoleon"], [2, "pass"], [0, "here"]])
    assert engine.legal_actions(st, 1) == [("pass",)]
    st, ev = run(st, [[1, "pass"]])
    assert ev[-1] == {"type": "declarer", "seat": 0, "bid": "napoleon", "talon": 21}
    st, _ = run(st, [[0, "buy", []]] + [x for k in ("A", "K", "Q", "J", "10")
                                         for x in ([0, "play", k + "S"], [1, "play", k + "H"], [2, "play", k + "D"])])
    r = st.reports[-1]
    assert (r["declarer"], r["bid"], r["made"], r["tricks"]) == (0, "napoleon", True, [5, 0, 0])
    assert st.balances == [-10 + 100 + 30, -60, -60] and st.pot == 0  # N8: napoleon made takes the treasure


def test_N4_passed_players_are_skipped_and_last_holder_is_declarer():
    st = table(4, 2, SEED_MADE)
    st, _ = run(st, [[2, "bid", 1], [3, "pass"], [0, "bid", 2], [1, "pass"]])
    assert st.to_act == (2,)
    st, _ = run(st, [[2, "here"]])
    assert st.to_act == (0,)  # seat 3 and seat 1 are out of the auction
    st, _ = run(st, [[0, "bid", 3]])
    assert st.to_act == (2,)
    reject(st, 3, ["bid", 4], "N4")  # a passed player is out for this deal
    st, ev = run(st, [[2, "pass"]])
    assert ev[-1]["type"] == "declarer" and st.deal.declarer == 0 and st.deal.bid == 3


def test_N4_every_player_speaks_at_least_once_the_last_may_still_bid():
    st = table(3, 0, [["AS", "KS", "QS", "JS", "10S"], ["AH", "KH", "QH", "JH", "10H"],
                      ["AD", "KD", "QD", "JD", "10D"]])
    st, _ = run(st, [[0, "pass"], [1, "pass"]])
    assert st.to_act == (2,) and st.phase == "deal"
    assert engine.legal_actions(st, 2)[0] == ("bid", 1) and ("pass",) in engine.legal_actions(st, 2)
    st2, _ = run(st, [[2, "bid", 1]])
    assert st2.deal.declarer == 2 and st2.deal.phase == "buy"


def test_N4_nobody_bids_cards_thrown_in_treasure_stays():
    st = table(3, 0, [["AS", "KS", "QS", "JS", "10S"], ["AH", "KH", "QH", "JH", "10H"],
                      ["AD", "KD", "QD", "JD", "10D"]])
    st, ev = run(st, [[0, "pass"], [1, "pass"], [2, "pass"]])
    assert ev[-2] == {"type": "thrown_in", "pot": 30}
    r = st.reports[-1]
    assert r["outcome"] == "thrown_in" and r["declarer"] is None and r["bid"] is None and r["trump"] is None
    assert r["tricks"] == [0, 0, 0] and r["pot_after"] == 30 and st.balances == [-10, -10, -10]
    assert st.phase == "between" and engine.legal_actions(st, 1) == []
    with pytest.raises(RuleError) as exc:
        engine.apply(st, 1, ["bid", 1])
    assert exc.value.rule == "record"  # an action after the deal has ended


# --- N5 buying -----------------------------------------------------------------------------------

def test_N5_buy_required_before_the_first_lead():
    st = table(4, 0, SEED_MADE, talon=["9S"])
    st, _ = run(st, AUCTION_3[:-1])
    assert st.to_act == (1,)
    reject(st, 1, ["play", "AS"], "N5")
    reject(st, 2, ["buy", []], "N5")  # only the declarer buys
    reject(st, 1, ["pass"], "N5")
    reject(st, 1, ["buy", ["6H", "6D"]], "N5")  # one card only
    reject(st, 1, ["buy", ["AH"]], "N5")  # not held
    assert engine.legal_actions(st, 1) == [("buy", ()), ("buy", ("QS",)), ("buy", ("KS",)), ("buy", ("AS",)),
                                           ("buy", ("6H",)), ("buy", ("6D",))]


def test_N5_exchange_takes_the_top_talon_card_discard_hidden():
    st = table(4, 0, SEED_MADE, talon=["9S", "8S"])
    st, _ = run(st, AUCTION_3[:-1])
    st, ev = run(st, [[1, "buy", ["6D"]]])
    assert ev == [{"type": "buy", "seat": 1, "count": 1, "talon": 15}]
    assert sorted(st.deal.hands[1]) == sorted(["AS", "KS", "QS", "6H", "9S"])
    assert engine.view(st, 1)["discards"] == ["6D"]
    for seat in (None, 0, 2, 3):  # no other seat sees the discard or the bought card
        text = repr(engine.view(st, seat))
        assert "6D" not in text and "9S" not in text
    assert st.deal.phase == "play" and st.to_act == (1,)


def test_N5_stand_pat():
    st = table(4, 0, SEED_MADE)
    st, ev = run(st, AUCTION_3)
    assert ev[-1] == {"type": "buy", "seat": 1, "count": 0, "talon": 16}
    assert sorted(st.deal.hands[1]) == sorted(SEED_MADE[1])


# --- N6 trump and play ---------------------------------------------------------------------------

N6_HANDS = [["QC", "JC", "AD", "KD", "QD"], ["10H", "AC", "7S", "8S", "9S"], ["KC", "6H", "7D", "8D", "9D"]]


def test_N6_declarer_leads_first_lead_names_trump_must_follow():
    st = table(3, 0, N6_HANDS)
    st, _ = run(st, [[0, "pass"], [1, "bid", 2], [2, "pass"], [1, "buy", []]])
    reject(st, 2, ["play", "KC"], "N6")  # the declarer leads
    assert [a[1] for a in engine.legal_actions(st, 1)] == ["7S", "8S", "9S", "10H", "AC"]
    st, ev = run(st, [[1, "play", "10H"]])
    assert ev == [{"type": "play", "seat": 1, "card": "10H"}, {"type": "trump", "seat": 1, "suit": "H"}]
    assert st.deal.trump == "H" and engine.view(st, 0)["trump"] == "H"
    e = reject(st, 2, ["play", "KC"], "N6")  # holds 6H: must follow
    assert "follow" in e.message
    reject(st, 2, ["play", "AS"], "N6")  # not held
    reject(st, 2, ["pass"], "N6")  # a verb play does not allow
    assert engine.legal_actions(st, 2) == [("play", "6H")]
    st, _ = run(st, [[2, "play", "6H"]])
    # seat 0 passed in the auction but plays (N6); void in ♥ with no trump: any card
    assert len(engine.legal_actions(st, 0)) == 5
    st, ev = run(st, [[0, "play", "AD"]])
    assert ev[-1] == {"type": "trick", "winner": 1, "cards": [[1, "10H"], [2, "6H"], [0, "AD"]], "number": 1}
    assert st.to_act == (1,)  # the winner leads
    st, _ = run(st, [[1, "play", "AC"]])
    reject(st, 2, ["play", "7D"], "N6")
    st, _ = run(st, [[2, "play", "KC"], [0, "play", "QC"]])
    r = st.reports[-1]
    assert r == {**r, "outcome": "played", "declarer": 1, "bid": 2, "trump": "H", "tricks": [0, 2, 0], "made": True}


def test_N6_void_must_trump_trump_wins_off_suit_never_wins():
    st = table(3, 0, [["JC", "10C", "AD", "KD", "QD"], ["7S", "8S", "AH", "KH", "QH"],
                      ["AS", "6H", "7D", "8D", "9D"]])
    st, _ = run(st, [[0, "pass"], [1, "bid", 3], [2, "pass"], [1, "buy", []],
                     [1, "play", "7S"], [2, "play", "AS"], [0, "play", "JC"],
                     [2, "play", "7D"], [0, "play", "AD"]])
    assert st.deal.tricks == [0, 0, 1]
    e = reject(st, 1, ["play", "AH"], "N6")  # void in ♦, holds trump 8S
    assert "trump" in e.message
    assert engine.legal_actions(st, 1) == [("play", "8S")]
    st, ev = run(st, [[1, "play", "8S"]])
    assert ev[-1]["winner"] == 1  # a low trump beats the ace of the suit led
    st, _ = run(st, [[1, "play", "AH"], [2, "play", "6H"], [0, "play", "10C"],
                     [1, "play", "KH"], [2, "play", "8D"], [0, "play", "KD"]])  # K♦ is off-suit: K♥ wins
    r = st.reports[-1]
    assert (r["tricks"], r["made"], r["trump"]) == ([0, 3, 1], True, "S")


def test_N6_trick_winner_goes_through_the_hook():
    st = table(3, 0, N6_HANDS)
    st, _ = run(st, [[0, "pass"], [1, "bid", 2], [2, "pass"], [1, "buy", []], [1, "play", "AC"]])
    assert st.deal.trump == "C"
    assert st.rules.trick_winner(st, [(1, "AC"), (2, "KC"), (0, "AD")]) == 1
    assert st.rules.trick_winner(st, [(2, "7D"), (0, "AD"), (1, "6C")]) == 1
    assert st.rules.trick_winner(st, [(2, "7D"), (0, "AD"), (1, "AH")]) == 0


# --- N7 early end --------------------------------------------------------------------------------

def test_N7_play_stops_as_soon_as_the_bid_is_made():
    st = table(4, 0, SEED_MADE)
    st, ev = run(st, AUCTION_3 + [[1, "play", "AS"], [2, "play", "AH"], [3, "play", "AD"], [0, "play", "AC"],
                                  [1, "play", "KS"], [2, "play", "KH"], [3, "play", "KD"], [0, "play", "KC"],
                                  [1, "play", "QS"], [2, "play", "QH"], [3, "play", "QD"], [0, "play", "QC"]])
    assert {"type": "early_end", "seat": 1, "made": True, "tricks": 3, "played": 3} in ev
    assert st.phase == "between" and st.reports[-1]["tricks"] == [0, 3, 0, 0]
    assert [len(h) for h in st.deal.hands] == [2, 2, 2, 2]


def test_N7_play_stops_as_soon_as_the_bid_is_out_of_reach():
    st = table(4, 0, SEED_FAILED)
    st, _ = run(st, AUCTION_3 + [[1, "play", "AS"], [2, "play", "AH"], [3, "play", "AD"], [0, "play", "AC"],
                                 [1, "play", "6H"], [2, "play", "KH"], [3, "play", "KD"], [0, "play", "KC"],
                                 [2, "play", "QH"], [3, "play", "QD"], [0, "play", "QC"], [1, "play", "7H"]])
    assert st.phase == "deal" and st.deal.tricks == [0, 1, 2, 0]  # 1 + 2 left: three still possible
    st, ev = run(st, [[2, "play", "JH"], [3, "play", "JD"], [0, "play", "JC"], [1, "play", "6D"]])
    assert {"type": "early_end", "seat": 1, "made": False, "tricks": 1, "played": 4} in ev
    assert st.phase == "between" and st.reports[-1]["tricks"] == [0, 1, 3, 0]


def test_N7_napoleon_stops_at_the_first_lost_trick():
    st = table(3, 0, [["AS", "KD", "QD", "JD", "10D"], ["KS", "AH", "KH", "QH", "JH"],
                      ["AD", "6C", "7C", "8C", "9C"]])
    st, _ = run(st, [[0, "pass"], [1, "napoleon"], [2, "pass"], [1, "buy", []],
                     [1, "play", "KS"], [2, "play", "6C"], [0, "play", "AS"]])
    r = st.reports[-1]
    assert r["outcome"] == "played" and r["tricks"] == [1, 0, 0] and r["made"] is False and r["bid"] == "napoleon"


# --- N8 settlement (the seed's worked example) --------------------------------------------------

def test_N8_seed_example_stake_10_bid_three_made_each_pays_30():
    st = table(4, 0, SEED_MADE, stake=10)
    st, _ = run(st, AUCTION_3 + [[1, "play", "AS"], [2, "play", "AH"], [3, "play", "AD"], [0, "play", "AC"],
                                 [1, "play", "KS"], [2, "play", "KH"], [3, "play", "KD"], [0, "play", "KC"],
                                 [1, "play", "QS"], [2, "play", "QH"], [3, "play", "QD"], [0, "play", "QC"]])
    r = st.reports[-1]
    assert r["payments"] == [-30, 90, -30, -30] and r["to_treasure"] == 0
    assert st.balances == [-40, 80, -40, -40] and st.pot == 40  # stakes 10 each stay in the treasure
    ledger_ok(st)


def test_N8_seed_example_stake_10_bid_three_failed_pays_each_30_and_30_into_treasure():
    st = table(4, 0, SEED_FAILED, stake=10)
    st, _ = run(st, AUCTION_3 + [[1, "play", "AS"], [2, "play", "AH"], [3, "play", "AD"], [0, "play", "AC"],
                                 [1, "play", "6H"], [2, "play", "KH"], [3, "play", "KD"], [0, "play", "KC"],
                                 [2, "play", "QH"], [3, "play", "QD"], [0, "play", "QC"], [1, "play", "7H"],
                                 [2, "play", "JH"], [3, "play", "JD"], [0, "play", "JC"], [1, "play", "6D"]])
    r = st.reports[-1]
    assert r["payments"] == [30, -120, 30, 30] and r["to_treasure"] == 30 and r["made"] is False
    assert st.balances == [20, -130, 20, 20] and st.pot == 70
    ledger_ok(st)


def _napoleon_deal(st, dealer, win):
    """Seat (dealer + 1) bids napoleon; it wins all five tricks if ``win`` else loses the first."""
    n = st.players
    d = (dealer + 1) % n
    hands = [None] * n
    others = [["AD", "KD", "QD", "JD", "10D"], ["AC", "KC", "QC", "JC", "10C"]]
    hands[d] = ["AS", "KS", "QS", "JS", "10S"] if win else ["KS", "QS", "JS", "10S", "9S"]
    o1, o2 = (d + 1) % n, (d + 2) % n
    hands[o1] = others[0] if win else ["AS", "KD", "QD", "JD", "10D"]
    hands[o2] = others[1]
    st, _ = engine.start_deal(st, deck_for(hands, dealer), dealer)
    acts = [[s, "pass"] if s != d else [s, "napoleon"] for s in ((dealer + i) % n for i in range(n))]
    acts.append([d, "buy", []])
    for k in range(5):
        acts += [[d, "play", hands[d][k]], [o1, "play", hands[o1][k]], [o2, "play", hands[o2][k]]]
        if not win:
            break
    st, _ = run(st, acts)
    return st


def test_N8_napoleon_made_takes_the_treasure_including_this_deals_stakes():
    st = engine.new_match("napoleon", 3, {"stake": 10})
    st, _ = engine.start_deal(st, pack(36), 0)
    st, _ = run(st, [[0, "pass"], [1, "pass"], [2, "pass"]])  # thrown in: treasure 30
    st = _napoleon_deal(st, 1, win=True)  # seat 2 bids napoleon; treasure 60 at settlement
    r = st.reports[-1]
    assert r["declarer"] == 2 and r["made"] is True and r["to_treasure"] == -60
    assert r["payments"] == [-50, -50, 160]
    assert st.balances == [-70, -70, 140] and st.pot == 0
    ledger_ok(st)


def test_N8_napoleon_failed_doubles_the_treasure():
    st = engine.new_match("napoleon", 3, {"stake": 10})
    st = _napoleon_deal(st, 0, win=False)  # seat 1 bids napoleon, loses the first trick
    r = st.reports[-1]
    assert r["made"] is False and r["to_treasure"] == 30 and r["payments"] == [50, -130, 50]
    assert st.balances == [40, -140, 40] and st.pot == 60
    ledger_ok(st)


def test_N8_plain_five_failed_pays_stake_times_five_not_the_treasure():
    st = table(3, 0, [["AS", "KD", "QD", "JD", "10D"], ["KS", "AH", "KH", "QH", "JH"],
                      ["AD", "6C", "7C", "8C", "9C"]], stake=3)
    st, _ = run(st, [[0, "pass"], [1, "bid", 5], [2, "pass"], [1, "buy", []],
                     [1, "play", "KS"], [2, "play", "6C"], [0, "play", "AS"]])
    r = st.reports[-1]
    assert r["bid"] == 5 and r["payments"] == [15, -45, 15] and r["to_treasure"] == 15
    assert st.balances == [12, -48, 12] and st.pot == 24


# --- N9 rotation ---------------------------------------------------------------------------------

def test_N9_deal_passes_clockwise_wrong_dealer_refused():
    st = engine.new_match("napoleon", 3)
    st, _ = engine.start_deal(st, pack(36), 2)
    st, _ = run(st, [[2, "pass"], [0, "pass"], [1, "pass"]])
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, pack(36), 1)
    assert exc.value.rule == "N9"
    st, _ = engine.start_deal(st, pack(36), 0)
    assert st.dealer == 0 and st.to_act == (0,)


def test_N9_replay_wrong_dealer_names_N9_with_deal_index():
    rec = {"format": "frapnet-record/1", "game": "napoleon", "players": 3, "options": {},
           "deals": [{"dealer": 0, "deck": pack(36), "actions": [[0, "pass"], [1, "pass"], [2, "pass"]]},
                     {"dealer": 2, "deck": pack(36), "actions": []}]}
    err = record.replay_json(rec)["error"]
    assert (err["deal"], err["action"], err["rule"]) == (1, None, "N9")


# --- record-level errors -------------------------------------------------------------------------

@pytest.mark.parametrize("action", [[0, "bid", "3"], [0, "bid"], [0, "napoleon", 5], [0, "frap"], [7, "pass"],
                                    [0, "play", "XX"], [0, "buy", "7C"]])
def test_malformed_actions_are_record_errors(action):
    rec = {"format": "frapnet-record/1", "game": "napoleon", "players": 3,
           "deals": [{"dealer": 0, "deck": pack(36), "actions": [action]}]}
    err = record.replay_json(rec)["error"]
    assert (err["deal"], err["action"], err["rule"]) == (0, 0, "record")


def test_unfinished_deal_reports():
    st = table(4, 0, SEED_FAILED)
    st, _ = run(st, [[0, "pass"], [1, "bid", 3]])
    r = engine.deal_report(st)
    assert r == {**r, "outcome": "unfinished", "declarer": None, "bid": None, "trump": None,
                 "tricks": [0, 0, 0, 0], "pot_after": 40}
    st, _ = run(st, [[2, "pass"], [3, "pass"], [1, "buy", []], [1, "play", "AS"], [2, "play", "AH"],
                     [3, "play", "AD"], [0, "play", "AC"], [1, "play", "6H"]])
    r = record.result(st)["deals"][-1]
    assert r == {**r, "outcome": "unfinished", "declarer": 1, "bid": 3, "trump": "S",
                 "tricks": [0, 1, 0, 0], "payments": [0, 0, 0, 0]}
