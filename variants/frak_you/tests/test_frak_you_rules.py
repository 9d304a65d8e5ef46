"""Fixed-deck tests of Frak You, one or more per rule K1–K12 (../shared/spec/rules-frak-you.md).

Every test names the rule it checks. Decks are built so that the hands after the K3 exchange are
exactly the ones written in the test (``deal_to``); a scripted trick is played card by card
through the engine, so every follow-suit and turn check of the engine applies to the script.
"""
from __future__ import annotations

import json

import pytest

from frapnet import engine, record
from frapnet.cards import pack, sort_cards
from frapnet.errors import RuleError

FULL = pack(52)
SEAT_OFFSET = {"left": 1, "right": -1, "across": 2}


def deck_for(players, dealer, dealt, set_aside=()):
    """K2 layout: the deck whose deal gives seat s the cards ``dealt[s]`` (deck[k] → (dealer+1+k) mod n)."""
    size = 52 // players
    assert all(len(h) == size for h in dealt), [len(h) for h in dealt]
    deck = [None] * (size * players)
    for k in range(size * players):
        seat = (dealer + 1 + k) % players
        deck[k] = dealt[seat][k // players]
    deck += list(set_aside)
    assert sorted(deck) == sorted(FULL), "a test deck must be a permutation of the 52-card pack"
    return deck


def deal_to(players, final, dealer=0, options=None, set_aside=()):
    """Start a match and its first deal so that, after the K3 exchange, seat s holds ``final[s]``.

    Each seat passes the first three cards of its receiver's final hand. Returns the state in
    play and the passes made ``{seat: cards}``."""
    options = options or {}
    st = engine.new_match("frak_you", players, options)
    direction = "right" if options.get("passing", "right") == "right" else "left"  # deal 0 of rotate: left
    off = SEAT_OFFSET[direction]
    passes = {s: tuple(final[(s + off) % players][:3]) for s in range(players)}
    dealt = [list(final[s][3:]) + list(passes[s]) for s in range(players)]
    st, _ = engine.start_deal(st, deck_for(players, dealer, dealt, set_aside), dealer)
    for s in range(players):
        st, _ = engine.apply(st, s, ("pass_cards", list(passes[s])))
    assert st.deal.phase == "play"
    for s in range(players):
        assert sorted(st.deal.hands[s]) == sorted(final[s])
    return st, passes


def play(st, tricks):
    """Play ``tricks`` (lists of (seat, card)) through the engine; return the state and all events."""
    events = []
    for trick in tricks:
        for seat, card in trick:
            st, ev = engine.apply(st, seat, ("play", card))
            events.extend(ev)
    return st, events


def trick_events(events):
    return [e for e in events if e["type"] == "trick"]


def assert_refused(st, seat, action, rule):
    """The action is refused naming ``rule`` and the state is unchanged (version and all)."""
    before = st.clone()
    with pytest.raises(RuleError) as exc:
        engine.apply(st, seat, action)
    assert exc.value.rule == rule, exc.value
    assert st == before and st.version == before.version
    return exc.value


# --- K1 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 6, 12])
def test_K1_three_to_five_players(players):
    with pytest.raises(RuleError) as exc:
        engine.new_match("frak_you", players)
    assert exc.value.rule == "K1"


def test_K1_one_52_card_pack_no_trumps():
    for n in (3, 4, 5):
        st = engine.new_match("frak_you", n)
        assert sorted(engine.pack(st)) == sorted(FULL) and len(engine.pack(st)) == 52
        st, _ = engine.start_deal(st, FULL, 0)
        v = engine.view(st, 0)
        assert v["trump"] is None and v["turn_up"] is None and v["ledger"] == "points"


def test_K1_deck_must_be_the_52_card_pack():
    st = engine.new_match("frak_you", 4)
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, pack(36), 0)
    assert exc.value.rule == "record"


@pytest.mark.parametrize("key,value,rule", [
    ("passing", "left", "K3"), ("passing", True, "K3"), ("first_lead", "dealer", "K4"),
    ("pile", "every_win", "K9"), ("loss_limit", 0, "K12"), ("loss_limit", "5", "K12"),
    ("loss_limit", 2.5, "K12"), ("trumps", "H", "record"),
])
def test_K1_bad_options_name_their_rule(key, value, rule):
    """Options: passing K3, first_lead K4, pile K9, loss_limit K12; an unknown key is "record"."""
    with pytest.raises(RuleError) as exc:
        engine.new_match("frak_you", 4, {key: value})
    assert exc.value.rule == rule


def test_K1_players_checked_before_options():
    with pytest.raises(RuleError) as exc:
        engine.new_match("frak_you", 6, {"pile": "nonsense"})
    assert exc.value.rule == "K1"


# --- K2 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players,dealer,size,aside", [(3, 2, 17, 1), (4, 1, 13, 0), (5, 4, 10, 2)])
def test_K2_deal_one_at_a_time_leftovers_set_aside(players, dealer, size, aside):
    deck = FULL[::-1]
    st = engine.new_match("frak_you", players)
    st, events = engine.start_deal(st, deck, dealer)
    d = st.deal
    for s in range(players):
        assert len(d.hands[s]) == size
        assert d.hands[s] == [deck[k] for k in range(size * players) if (dealer + 1 + k) % players == s]
    assert list(d.set_aside) == deck[size * players:] and len(d.set_aside) == aside
    assert events[0] == {"type": "deal", "dealer": dealer, "deal_no": 1, "hand_size": size,
                         "set_aside": aside, "passing": "right"}
    # the set-aside cards are never shown: not to a seat, not to a spectator, not in events
    shown = json.dumps([engine.view(st, s) for s in [None, *range(players)]] + events)
    for c in d.set_aside:
        assert f'"{c}"' not in shown
    for s in range(players):
        assert engine.view(st, s)["set_aside"] == aside


def test_K2_deal_passes_clockwise_wrong_dealer_refused():
    st = engine.new_match("frak_you", 3, {"loss_limit": 9})
    st, _ = engine.start_deal(st, FULL, 1)
    st = _finish_randomly(st)
    assert engine.next_dealer(st) == 2
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, FULL, 0)
    assert exc.value.rule == "K2"
    st, _ = engine.start_deal(st, FULL)
    assert st.dealer == 2 and st.deal.dealer == 2


def _finish_randomly(st, seed=7):
    import random

    rng = random.Random(seed)
    while st.phase == engine.DEAL:
        seat = st.to_act[0]
        st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
    return st


# --- K3 ---------------------------------------------------------------------------------------

def test_K3_pass_right_simultaneous_exchange_when_last_has_chosen():
    """Default (SK): three cards to the right-hand neighbour (seat s → s − 1); nobody sees what
    they receive until all have chosen; state.to_act holds every seat still to choose."""
    st = engine.new_match("frak_you", 4)
    st, _ = engine.start_deal(st, FULL, 0)
    assert st.to_act == (0, 1, 2, 3) and st.deal.phase == "pass"
    hands = [sorted(h) for h in st.deal.hands]
    chosen = {s: hands[s][:3] for s in range(4)}
    for s in (2, 0, 3):
        st, ev = engine.apply(st, s, ("pass_cards", chosen[s]))
        assert ev == [{"type": "pass_chosen", "seat": s}]  # no card in a public event
    assert st.to_act == (1,)
    # before the last choice nobody holds anything new; seat 1 (receiving from seat 2) sees nothing of it
    v1 = engine.view(st, 1)
    assert not set(chosen[2]) & set(v1["hand"]) and v1["received"] is None
    assert engine.view(st, 2)["chosen"] == sort_cards(chosen[2]) and engine.view(st, 2)["hand_count"] == 10
    assert engine.view(st, None)["seats"][2]["chosen"] is True and engine.view(st, None)["seats"][1]["chosen"] is False
    assert engine.legal_actions(st, 2) == [] and len(engine.legal_actions(st, 1)) == 286  # C(13, 3)
    st, ev = engine.apply(st, 1, ("pass_cards", chosen[1]))
    assert [e["type"] for e in ev] == ["pass_chosen", "exchange", "play_starts"]
    assert ev[1] == {"type": "exchange", "direction": "right"}
    for s in range(4):
        receiver = (s - 1) % 4
        assert set(chosen[s]) <= set(st.deal.hands[receiver])
        assert not set(chosen[s]) & set(st.deal.hands[s])
        assert len(st.deal.hands[s]) == 13
        assert engine.view(st, receiver)["received"] == sort_cards(chosen[s])


def test_K3_illegal_passes_refused_state_unchanged():
    st = engine.new_match("frak_you", 5)
    st, _ = engine.start_deal(st, FULL, 4)
    h0 = sorted(st.deal.hands[0])
    assert_refused(st, 0, ("pass_cards", h0[:2]), "K3")                   # two cards
    assert_refused(st, 0, ("pass_cards", h0[:4]), "K3")                   # four cards
    assert_refused(st, 0, ("pass_cards", [h0[0], h0[0], h0[1]]), "K3")   # the same card twice
    other = st.deal.hands[1][0]
    assert_refused(st, 0, ("pass_cards", [h0[0], h0[1], other]), "K3")   # a card seat 0 does not hold
    assert_refused(st, 0, ("play", h0[0]), "K3")                          # playing before the exchange
    st, _ = engine.apply(st, 0, ("pass_cards", h0[:3]))
    assert_refused(st, 0, ("pass_cards", sorted(st.deal.hands[0])[:3]), "K3")  # choosing twice


def test_K3_illegal_pass_shared_case_shape():
    """The shared case: passing two cards is refused at action 0 naming K3, via frapnet replay."""
    rec = {"format": "frapnet-record/1", "game": "frak_you", "players": 5, "options": {},
           "deals": [{"dealer": 4, "deck": FULL, "actions": [[0, "pass_cards", ["2S", "3S"]]]}]}
    assert record.replay_json(rec) == {"ok": False, "error": {
        "deal": 0, "action": 0, "rule": "K3", "message": "pass exactly three cards, not 2"}}


@pytest.mark.parametrize("players,expected", [
    (4, ["left", "right", "across", None, "left", "right"]),
    (3, ["left", "right", None, None, "left"]),
    (5, ["left", "right", None, None, "left"]),
])
def test_K3_rotate_left_right_across_none(players, expected):
    """Option rotate (P): left, right, across (seat + 2; none with an odd count), none, again."""
    st = engine.new_match("frak_you", players, {"passing": "rotate", "loss_limit": 99})
    for i, want in enumerate(expected):
        st, ev = engine.start_deal(st, FULL, 0 if i == 0 else None)
        assert ev[0]["passing"] == want == st.deal.direction
        if want is None:
            assert st.deal.phase == "play" and st.to_act == ((st.dealer + 1) % players,)
            assert all(len(engine.legal_actions(st, s)) == 0 or engine.legal_actions(st, s)[0][0] == "play"
                       for s in range(players))
        else:
            before = [list(h) for h in st.deal.hands]
            for s in range(players):
                st, _ = engine.apply(st, s, ("pass_cards", sorted(before[s])[-3:]))
            off = SEAT_OFFSET[want]
            for s in range(players):
                assert set(sorted(before[s])[-3:]) <= set(st.deal.hands[(s + off) % players])
        st = _finish_randomly(st, seed=i)


def test_K3_pass_cards_on_a_deal_without_passing():
    """pass_cards on a no-pass deal names K3 for the seat to act; another seat gets the phase rule K4."""
    st = engine.new_match("frak_you", 3, {"passing": "rotate", "loss_limit": 99})
    for i in range(2):
        st, _ = engine.start_deal(st, FULL, 0 if i == 0 else None)
        if st.deal.direction:
            for s in range(3):
                st, _ = engine.apply(st, s, ("pass_cards", sorted(st.deal.hands[s])[:3]))
        st = _finish_randomly(st, seed=i)
    st, _ = engine.start_deal(st, FULL)  # deal 3 of 3 players: "across" becomes no pass
    assert st.deal.direction is None
    leader = st.to_act[0]
    assert_refused(st, leader, ("pass_cards", sorted(st.deal.hands[leader])[:3]), "K3")
    other = (leader + 1) % 3
    assert_refused(st, other, ("pass_cards", sorted(st.deal.hands[other])[:3]), "K4")


def test_K3_pass_cards_after_the_exchange_names_the_play_phase():
    st, _ = deal_to(4, _hands4(), dealer=3)
    assert_refused(st, 0, ("pass_cards", st.deal.hands[0][:3]), "K4")


def _hands4():
    suits = [[r + s for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")] for s in "SHDC"]
    return [list(x) for x in suits]


# --- K4 ---------------------------------------------------------------------------------------

def test_K4_left_of_dealer_leads_any_card():
    st, _ = deal_to(4, _hands4(), dealer=1)
    assert st.to_act == (2,)
    assert engine.legal_actions(st, 2) == [("play", c) for c in _hands4()[2]]
    assert_refused(st, 3, ("play", "2C"), "K4")          # not the leader
    st, _ = engine.apply(st, 2, ("play", "9D"))
    assert st.to_act == (3,)
    assert_refused(st, 0, ("play", "2S"), "K5")          # after the first lead: the play rule


def test_K4_two_of_clubs_holder_leads_it():
    hands = _hands4()
    st, _ = deal_to(4, hands, dealer=0, options={"first_lead": "two_of_clubs"})
    assert st.to_act == (3,)   # seat 3 holds the clubs
    assert engine.legal_actions(st, 3) == [("play", "2C")]
    assert engine.view(st, 3)["lead_two_of_clubs"] is True and engine.view(st, None)["lead_two_of_clubs"] is True
    assert_refused(st, 3, ("play", "AC"), "K4")
    assert_refused(st, 1, ("play", "2H"), "K4")
    assert_refused(st, 3, ("play", "2H"), "K5")           # a card the seat does not hold
    st, ev = engine.apply(st, 3, ("play", "2C"))
    assert st.to_act == (0,)


def test_K4_two_of_clubs_set_aside_left_of_dealer_leads_any():
    final = [FULL[i::3][:17] for i in range(3)]
    rest = [c for c in FULL if c != "2C"]
    final = [rest[0:17], rest[17:34], rest[34:51]]
    st, _ = deal_to(3, final, dealer=1, options={"first_lead": "two_of_clubs"}, set_aside=["2C"])
    assert st.to_act == (2,) and st.deal.must_lead is None
    assert len(engine.legal_actions(st, 2)) == 17


# --- K5 ---------------------------------------------------------------------------------------

def test_K5_follow_suit_if_able_else_any_card():
    hands = [["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "2H"],
             ["AS", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
             ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
             ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]]
    st, _ = deal_to(4, hands, dealer=3)
    st, _ = engine.apply(st, 0, ("play", "2H"))
    assert engine.legal_actions(st, 1) == [("play", c) for c in
                                           ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]]
    assert_refused(st, 1, ("play", "AS"), "K5")            # holds hearts: must follow
    assert_refused(st, 1, ("play", "2S"), "K5")            # not held
    assert_refused(st, 2, ("play", "2D"), "K5")            # not seat 2's turn
    st, _ = engine.apply(st, 1, ("play", "3H"))
    assert len(engine.legal_actions(st, 2)) == 13          # void in hearts: any card
    st, _ = engine.apply(st, 2, ("play", "AD"))


# --- K6, K7, K8 -------------------------------------------------------------------------------

def _winner(players, cards):
    st = engine.new_match("frak_you", players)
    st, _ = engine.start_deal(st, FULL, 0)
    return st.rules.trick_winner(st, list(enumerate(cards)))


@pytest.mark.parametrize("cards,winner,rule", [
    (["4H", "9H", "AS", "3C", "10H"], 4, "K8 seed: the A♠ cancels the 3♣ and makes it lowest; 10♥ wins"),
    (["4D", "9D", "AS", "KD", "5H"], 1, "K8 seed (SK's second example, ♦4 led): K♦ made lowest; 9♦ wins"),
    (["4H", "9D", "AS", "KD", "5H"], 4, "K6: as SK printed it (♥4 led) the ♥5 wins, not the ♦9"),
    (["4H", "9H", "KH", "2H"], 2, "K6: highest of the suit led"),
    (["4H", "AD", "9H"], 2, "K6: a higher card of another suit does not win"),
    (["4H", "9H", "3C", "KH"], 2, "K7: the 3♣ wins any trick without the A♠"),
    (["3C", "AC", "KC"], 0, "K7: the 3♣ led wins too"),
    (["4H", "3C", "9H", "AS"], 2, "K7/K8: A♠ played last: 3♣ powerless, nothing else changes"),
    (["4H", "9H", "KH", "AS"], 2, "K8: an A♠ played last affects nothing"),
    (["AS", "KS", "QS"], 0, "K8: otherwise the A♠ is an ordinary ace"),
    (["2S", "AS", "KS", "3S"], 1, "K8: A♠ follows as the highest spade; the K♠ after it is lowest anyway"),
    (["2S", "QS", "AS", "KS", "3S"], 2, "K8: A♠ wins spades"),
    (["5D", "AS", "KD", "QD"], 3, "K8: the card right after the A♠ cannot win; next highest does"),
    (["5D", "AS", "3C", "QD"], 3, "K7/K8: the 3♣ right after the A♠"),
    (["5D", "AS", "2D"], 0, "K8: the muted card is the lowest; the lead wins"),
])
def test_K6_K7_K8_trick_winner(cards, winner, rule):
    assert _winner(len(cards) if len(cards) >= 3 else 3, cards) == winner, rule


def test_K8_seed_example_through_the_engine():
    """SK's example played as trick 1 with five players: ♥4 ♥9 ♠A ♣3 ♥10 → the ♥10 (seat 4) wins."""
    rest = [c for c in FULL if c not in ("4H", "9H", "AS", "3C", "10H")]
    firsts = ["4H", "9H", "AS", "3C", "10H"]
    # seat 0 leads ♥4; seats 1, 4 follow hearts; seats 2 and 3 must be void in hearts
    no_hearts = [c for c in rest if c[-1] != "H"]
    hearts = [c for c in rest if c[-1] == "H"]
    final = [["4H"] + no_hearts[0:9], ["9H"] + no_hearts[9:18], ["AS"] + no_hearts[18:27],
             ["3C"] + no_hearts[27:36], ["10H"] + hearts[:9]]
    aside = no_hearts[36:] + hearts[9:]
    assert len(aside) == 2
    st, _ = deal_to(5, final, dealer=4, set_aside=aside)
    st, events = play(st, [list(enumerate(firsts))])
    t = trick_events(events)[0]
    assert t["winner"] == 4 and t["to"] == "pile" and st.to_act == (4,)
    assert [c for _, c in t["cards"]] == firsts


def test_K8_seed_second_example_with_diamond_four_led():
    """SK's second example with ♦4 led: ♦4 ♦9 ♠A ♦K ♥5 → the ♦9 (seat 1) wins through the engine."""
    firsts = ["4D", "9D", "AS", "KD", "5H"]
    rest = [c for c in FULL if c not in firsts]
    no_d = [c for c in rest if c[-1] != "D"]
    dia = [c for c in rest if c[-1] == "D"]
    final = [["4D"] + no_d[0:9], ["9D"] + dia[:9], ["AS"] + no_d[9:18], ["KD"] + no_d[18:27],
             ["5H"] + no_d[27:36]]
    aside = no_d[36:] + dia[9:]
    st, _ = deal_to(5, final, dealer=4, set_aside=aside)
    st, events = play(st, [list(enumerate(firsts))])
    assert trick_events(events)[0]["winner"] == 1 and st.to_act == (1,)


# --- K9, K10, K11 (one scripted five-player deal) ------------------------------------------------

# After the exchange (dealer 4, seat 0 leads); A♠ and 3♣ are set aside, so no special card plays.
SCRIPT_HANDS = [
    ["2D", "6D", "10D", "3H", "7H", "3S", "7S", "5C", "9C", "10H"],
    ["3D", "7D", "JD", "4H", "8H", "4S", "8S", "6C", "10C", "JH"],
    ["4D", "8D", "2C", "5H", "9H", "5S", "9S", "7C", "JC", "JS"],
    ["5D", "9D", "QD", "AH", "6H", "KS", "6S", "AC", "8C", "QH"],
    ["AD", "KD", "2H", "KH", "2S", "QS", "4C", "KC", "10S", "QC"],
]
SCRIPT = [
    [(0, "2D"), (1, "3D"), (2, "4D"), (3, "5D"), (4, "AD")],     # 1: seat 4 wins, lays it down
    [(4, "KD"), (0, "6D"), (1, "7D"), (2, "8D"), (3, "9D")],     # 2: seat 4 again → swap (K9)
    [(4, "2D"), (0, "10D"), (1, "JD"), (2, "2C"), (3, "QD")],    # 3: seat 3 wins (seat 2 void)
    [(3, "AH"), (4, "2H"), (0, "3H"), (1, "4H"), (2, "5H")],     # 4: seat 3 again → swap
    [(3, "6H"), (4, "KH"), (0, "7H"), (1, "8H"), (2, "9H")],     # 5: seat 4: not in a row → pile of 2
    [(4, "2S"), (0, "3S"), (1, "4S"), (2, "5S"), (3, "KS")],     # 6: seat 3
    [(3, "6S"), (4, "QS"), (0, "7S"), (1, "8S"), (2, "9S")],     # 7: seat 4
    [(4, "4C"), (0, "5C"), (1, "6C"), (2, "7C"), (3, "AC")],     # 8: seat 3
    [(3, "8C"), (4, "KC"), (0, "9C"), (1, "10C"), (2, "JC")],    # 9: seat 4
    [(4, "10S"), (0, "10H"), (1, "JH"), (2, "JS"), (3, "QH")],   # 10: seat 2 with its last card (K10); 0, 1 out
]


def test_K9_second_trick_in_a_row_swaps_the_previous_trick_into_hand():
    st, _ = deal_to(5, SCRIPT_HANDS, dealer=4, set_aside=["AS", "3C"])
    st, events = play(st, SCRIPT[:1])
    assert st.deal.piles[4] == [("2D", "3D", "4D", "5D", "AD")] and len(st.deal.hands[4]) == 9
    assert engine.view(st, None)["seats"][4]["tricks"] == 1
    st, events = play(st, SCRIPT[1:2])
    assert trick_events(events)[0] == {"type": "trick", "winner": 4, "number": 2, "to": "swap",
                                       "cards": [[4, "KD"], [0, "6D"], [1, "7D"], [2, "8D"], [3, "9D"]]}
    assert st.deal.piles[4] == [("KD", "6D", "7D", "8D", "9D")]
    assert sorted(st.deal.hands[4]) == sorted(["2H", "KH", "2S", "QS", "4C", "KC", "10S", "QC",
                                               "2D", "3D", "4D", "5D", "AD"])
    st, events = play(st, SCRIPT[2:5])
    assert [e["to"] for e in trick_events(events)] == ["pile", "swap", "pile"]
    assert st.deal.piles[4] == [("KD", "6D", "7D", "8D", "9D"), ("6H", "KH", "7H", "8H", "9H")]  # earlier tricks stay
    assert st.deal.piles[3] == [("AH", "2H", "3H", "4H", "5H")]
    assert [len(h) for h in st.deal.hands] == [5, 5, 5, 10, 10]  # 10 − 5 played + 5 swapped back


def test_K9_any_win_swaps_on_any_later_win():
    """Option pile any_win (P): trick 5 is seat 4's win after seat 3's, and still swaps."""
    st, _ = deal_to(5, SCRIPT_HANDS, dealer=4, set_aside=["AS", "3C"], options={"pile": "any_win"})
    st, events = play(st, SCRIPT[:5])
    assert [e["to"] for e in trick_events(events)] == ["pile", "swap", "pile", "swap", "swap"]
    assert st.deal.piles[4] == [("6H", "KH", "7H", "8H", "9H")]
    assert sorted(st.deal.hands[4]) == sorted(["2S", "QS", "4C", "KC", "10S", "QC", "3D", "4D", "5D", "AD",
                                               "KD", "6D", "7D", "8D", "9D"])


def test_K10_K11_empty_handed_winner_takes_the_trick_others_go_out():
    st, _ = deal_to(5, SCRIPT_HANDS, dealer=4, set_aside=["AS", "3C"])
    st, events = play(st, SCRIPT)
    last = trick_events(events)[-1]
    assert last["winner"] == 2 and last["to"] == "hand"
    assert events[-1] == {"type": "out", "seats": [0, 1]}
    d = st.deal
    assert sorted(d.hands[2]) == sorted(["10S", "10H", "JH", "JS", "QH"]) and d.piles[2] == []
    assert d.active == [False, False, True, True, True] and st.to_act == (2,)      # K10: seat 2 leads
    assert sorted(d.hands[3]) == sorted(["2D", "10D", "JD", "2C", "QD"])
    assert sorted(d.hands[4]) == sorted(["QC", "3D", "4D", "5D", "AD"])
    rep = engine.deal_report(st)
    assert rep["order"] == [[0, 1]] and rep["losers"] == [] and rep["outcome"] == "unfinished"
    assert_refused(st, 0, ("play", "2S"), "K11")                     # a seat that has gone out
    view = engine.view(st, None)
    assert [x["in_play"] for x in view["seats"]] == [False, False, True, True, True]
    # K10: winning the very next trick too lays it on the pile (the trick before went into the hand)
    st, events = play(st, [[(2, "QH"), (3, "2C"), (4, "QC")]])
    assert trick_events(events)[0]["to"] == "pile" and st.deal.piles[2] == [("QH", "2C", "QC")]
    assert len(st.deal.hands[2]) == 4
    # …and a third win in a row is a second trick in a row on the pile: swap (K9)
    st, events = play(st, [[(2, "JH"), (3, "2D"), (4, "3D")]])
    assert trick_events(events)[0]["to"] == "swap" and st.deal.piles[2] == [("JH", "2D", "3D")]
    assert sorted(st.deal.hands[2]) == sorted(["10S", "JS", "10H", "QH", "2C", "QC"])


def test_K11_all_others_out_at_once_last_player_alone_loses_K12_point():
    """Seat 1 wins every trick (alternating A♥ and K♥, swapping each time); after ten tricks the four
    others run out together: one tied group goes out, seat 1 alone loses one penalty point."""
    others = [c for c in FULL if c[-1] != "H" and c not in ("AS", "3C")]
    hearts_hi = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H"]
    final = [["4H"] + others[0:9], hearts_hi, ["3H"] + others[9:18], ["2H"] + others[18:27], others[27:37]]
    assert len(others) == 37
    st, _ = deal_to(5, final, dealer=4, set_aside=["AS", "3C"])
    tricks = [[(0, "4H"), (1, "AH"), (2, "3H"), (3, "2H"), (4, others[27])]]
    for k in range(1, 10):
        lead = "KH" if k % 2 else "AH"
        tricks.append([(1, lead), (2, final[2][k]), (3, final[3][k]), (4, final[4][k]), (0, final[0][k])])
    st, events = play(st, tricks)
    assert [e["to"] for e in trick_events(events)] == ["pile"] + ["swap"] * 9
    assert {e["winner"] for e in trick_events(events)} == {1}
    assert st.phase == engine.BETWEEN and st.balances == [0, 1, 0, 0, 0]
    rep = st.reports[-1]
    assert rep["order"] == [[0, 2, 3, 4]] and rep["losers"] == [1] and rep["outcome"] == "played"
    assert len(st.deal.hands[1]) == 45 and len(st.deal.piles[1]) == 1
    assert engine.match_report(st) == {"points": [0, 1, 0, 0, 0]}


def test_K11_two_left_both_lose_single_seat_order_is_a_number():
    """Three players, each playing its lowest legal card: seat 0 (low spades and hearts) plays its
    17th card on trick 17 without winning it, while seats 1 and 2 still hold tricks swapped back into
    hand (K9) → seat 0 goes out alone, two are left and both lose (order [0], losers [1, 2])."""
    clubs = [r + "C" for r in ("2", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    final = [["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],
             ["JS", "QS", "KS", "10H", "JH", "QH", "KH", "AH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"],
             ["AS", "JD", "QD", "KD", "AD"] + clubs]
    st, _ = deal_to(3, final, dealer=2, set_aside=["3C"])
    st, events = _play_policy(st)
    assert st.phase == engine.BETWEEN
    tricks = trick_events(events)
    assert len(tricks) == 17 and tricks[-1]["cards"][1] == [0, "10S"] and tricks[-1]["winner"] == 2
    assert events[-2] == {"type": "out", "seats": [0]}
    assert sum(e["to"] == "swap" for e in tricks if e["winner"] == 1) >= 1
    rep = st.reports[-1]
    assert rep["order"] == [0] and rep["losers"] == [1, 2] and st.balances == [0, 1, 1]


def _play_policy(st):
    """Every seat plays its lowest legal card (a fixed policy, so the deal is fixed by its deck)."""
    from frapnet.cards import rank_value

    events = []
    while st.phase == engine.DEAL:
        seat = st.to_act[0]
        acts = engine.legal_actions(st, seat)
        act = min(acts, key=lambda a: (rank_value(a[1]), a[1]))
        st, ev = engine.apply(st, seat, act)
        events.extend(ev)
    return st, events


# --- K12 --------------------------------------------------------------------------------------

def test_K12_match_ends_at_loss_limit_fewest_points_win_no_further_deal():
    st = engine.new_match("frak_you", 3, {"loss_limit": 2})
    import random

    rng = random.Random(3)
    deals = 0
    while st.phase != engine.OVER:
        deck = FULL[:]
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, 0 if st.dealer is None else None)
        st = _finish_randomly(st, seed=deals)
        deals += 1
        rep = st.reports[-1]
        assert rep["points"] == st.balances
        assert sum(st.balances) == sum(len(r["losers"]) for r in st.reports)
        assert (st.phase == engine.OVER) == (max(st.balances) >= 2)
    assert max(st.balances) == 2 and st.match["over"] is True
    low = min(st.balances)
    assert st.match["winners"] == [s for s in range(3) if st.balances[s] == low]
    assert st.reports[-1]["match_over"] is True
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, FULL)
    assert exc.value.rule == "K12"
    res = record.replay_json(engine.record(st))
    assert res["ok"] and res["points"] == st.balances and len(res["deals"]) == deals
    # a record with one deal too many names K12
    rec = engine.record(st)
    rec["deals"].append({"dealer": (st.dealer + 1) % 3, "deck": FULL, "actions": []})
    assert record.replay_json(rec)["error"]["rule"] == "K12"
    assert record.replay_json(rec)["error"]["deal"] == deals


# A 4-player deal (pile any_win, passing rotate) in which seat 1 wins trick 7 onto its pile, wins
# trick 17 with no cards left (K10: into the hand) and then wins trick 18 too (three seats left).
K10_NEXT_DECK = ["4H", "8C", "KS", "5D", "7H", "AD", "2S", "10S", "KC", "3S", "10C", "4D", "JS", "QH", "9H", "2C", "QC", "3D", "AC", "AS", "9S", "3H", "KD", "5C", "7C", "10H", "2D", "8H", "4C", "6S", "6D", "JD", "6H", "8S", "5H", "7S", "9D", "4S", "10D", "QS", "8D", "KH", "JH", "3C", "AH", "6C", "7D", "5S", "JC", "9C", "QD", "2H"]
K10_NEXT_ACTIONS = [[0, "pass_cards", ["5S", "7S", "AS"]], [1, "pass_cards", ["JS", "AH", "JC"]], [2, "pass_cards", ["KH", "AD", "6C"]], [3, "pass_cards", ["JH", "QD", "KD"]], [1, "play", "4C"], [2, "play", "8C"], [3, "play", "6C"], [0, "play", "5C"], [2, "play", "3D"], [3, "play", "6D"], [0, "play", "JD"], [1, "play", "8D"], [0, "play", "2H"], [1, "play", "6H"], [2, "play", "10H"], [3, "play", "KH"], [3, "play", "9H"], [0, "play", "JH"], [1, "play", "7H"], [2, "play", "AH"], [2, "play", "JC"], [3, "play", "AC"], [0, "play", "3C"], [1, "play", "7C"], [0, "play", "JD"], [1, "play", "9D"], [2, "play", "4C"], [3, "play", "AD"], [3, "play", "KS"], [0, "play", "10S"], [1, "play", "AS"], [2, "play", "4S"], [1, "play", "9S"], [2, "play", "3S"], [3, "play", "2S"], [0, "play", "QS"], [0, "play", "3C"], [1, "play", "QC"], [2, "play", "8C"], [3, "play", "10C"], [0, "play", "9S"], [1, "play", "7S"], [2, "play", "JS"], [3, "play", "KH"], [2, "play", "QH"], [3, "play", "6H"], [0, "play", "8H"], [1, "play", "4H"], [2, "play", "7S"], [3, "play", "2D"], [0, "play", "QS"], [1, "play", "5S"], [0, "play", "7C"], [1, "play", "KC"], [2, "play", "9C"], [3, "play", "7D"], [1, "play", "9C"], [2, "play", "6C"], [3, "play", "2H"], [0, "play", "QC"], [0, "play", "KD"], [1, "play", "7D"], [2, "play", "JS"], [3, "play", "10D"], [0, "play", "4D"], [1, "play", "7C"], [2, "play", "KH"], [3, "play", "10H"], [0, "play", "QC"], [1, "play", "KC"], [2, "play", "5C"], [3, "play", "5H"], [1, "play", "5C"], [2, "play", "9H"], [0, "play", "2C"]]


def test_K10_any_win_the_trick_right_after_one_taken_into_hand_is_laid_on_the_pile():
    """K10 under any_win: "If they win the very next trick too, it is simply laid on the pile" —
    with no option named, so P's "any later win swaps" (K9) does not apply to that trick: seat 1
    keeps trick 7 in front of it and lays trick 18 beside it (two tricks; before, trick 7 went back
    into its hand)."""
    rec = {"format": "frapnet-record/1", "game": "frak_you", "players": 4,
           "options": {"pile": "any_win", "passing": "rotate"},
           "deals": [{"dealer": 0, "deck": K10_NEXT_DECK, "actions": K10_NEXT_ACTIONS[:-3]}]}
    st, _ = record.replay(rec)
    assert st.deal.played == 17 and st.deal.last_winner == 1 and not st.deal.last_laid  # trick 17: K10
    assert [len(p) for p in st.deal.piles] == [1, 1, 1, 1] and len(st.deal.hands[1]) == 4
    seventh = st.deal.piles[1][0]
    events = []
    for seat, verb, arg in K10_NEXT_ACTIONS[-3:]:
        st, ev = engine.apply(st, seat, (verb, arg))
        events += ev
    trick = trick_events(events)[0]
    assert trick["number"] == 18 and trick["winner"] == 1 and trick["to"] == "pile"
    assert st.deal.piles[1] == [seventh, tuple(c for _, c in trick["cards"])]
    assert [len(h) for h in st.deal.hands] == [23, 3, 7, 0]
