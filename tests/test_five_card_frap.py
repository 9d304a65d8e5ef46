"""Five-card Frap (F26, frapnet/house_rules/five_card_frap.py, a built-in) from fixed decks.

Three players, dealer seat 0, ante 100 (pot 300), 32-card pack, unless a test says otherwise.
Seat 1 (left of the dealer) bids first; the frapper leads (F19, no cut-ins under F26).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from frapnet import engine, record
from frapnet.cards import pack as make_pack
from frapnet.errors import RuleError
from frapnet.plugins import load_registry

ROOT = Path(__file__).resolve().parent.parent
HR = ["five_card_frap"]


@pytest.fixture(scope="module")
def reg():
    """The built-ins alone (no plugins dir, no entry points): five-card Frap ships with frapnet."""
    r = load_registry([], entry_points=False)
    assert "five_card_frap" in r.house_rules, [p.describe() for p in r.errors]
    assert r.house_rules["five_card_frap"][1].source == "builtin"
    return r


def make_deck(n, dealer, hands, turn_ups, talon=(), size=32):
    """A deck dealing ``hands[s]`` (five cards) to seat s by F8, then the turn-ups (one per
    bidding round), then ``talon`` on top of the talon, then the rest of the pack."""
    deck = [None] * (5 * n)
    for s in range(n):
        for j, c in enumerate(hands[s]):
            deck[j * n + (s - dealer - 1) % n] = c
    used = [c for h in hands for c in h] + list(turn_ups) + list(talon)
    assert len(set(used)) == len(used)
    rest = [c for c in make_pack(size) if c not in used]
    return deck + list(turn_ups) + list(talon) + rest


# Trump ♠ (turn-up 8♠). Seat 1 holds three top spades: A♠ K♠ Q♠ make the frap.
HANDS_MADE = {1: ["AS", "KS", "QS", "7H", "7D"], 2: ["AH", "8H", "8D", "9C", "10C"],
              0: ["AD", "9H", "9D", "JC", "KC"]}
PLAY_MADE = [(1, "AS"), (2, "8H"), (0, "9H"),    # seat 1
             (1, "KS"), (2, "8D"), (0, "9D"),    # seat 1
             (1, "QS"), (2, "9C"), (0, "JC"),    # seat 1: three tricks
             (1, "7H"), (2, "AH"), (0, "AD"),    # seat 2 (follows ♥ with A♥)
             (2, "10C"), (0, "KC"), (1, "7D")]   # seat 0 (K♣)

# Trump ♠. Seat 1 takes only two tricks; seat 2 three; seat 0 none.
HANDS_SHORT = {1: ["AS", "KS", "7H", "7D", "8C"], 2: ["AH", "KH", "8D", "9C", "10C"],
               0: ["AD", "QH", "9D", "JC", "KC"]}
PLAY_SHORT = [(1, "AS"), (2, "8D"), (0, "9D"),
              (1, "KS"), (2, "9C"), (0, "JC"),
              (1, "7H"), (2, "AH"), (0, "QH"),
              (2, "KH"), (0, "KC"), (1, "7D"),
              (2, "10C"), (0, "AD"), (1, "8C")]


def hands_list(h):
    return [h[0], h[1], h[2]]


def table(reg, players=3, options=None, house_rules=HR):
    return engine.new_match("frap", players, options or {"ante": 100}, house_rules, reg)


def act(st, seat, *action):
    st, _ = engine.apply(st, seat, action)
    return st


def bid_round1_frap(st, verb="frap"):
    st = act(st, 1, verb)
    st = act(st, 2, "whist")
    st = act(st, 0, "whist")
    for s in (1, 2, 0):  # F15: buyers clockwise from the dealer's left
        st = act(st, s, "buy", [])
    return st


def play(st, plays):
    for seat, card in plays:
        assert st.to_act == (seat,), (st.to_act, seat, card)
        st = act(st, seat, "play", card)
    return st


def test_F26_deals_five_cards_and_five_tricks(reg):
    st = table(reg)
    deck = make_deck(3, 0, hands_list(HANDS_MADE), ["8S"])
    st, events = engine.start_deal(st, deck, dealer=0)
    d = st.deal
    assert [sorted(h) for h in d.hands] == [sorted(HANDS_MADE[s]) for s in range(3)]
    assert d.turn_up == "8S" and d.trump == "S"
    assert d.talon == 32 - 16 and d.tricks_total == 5
    assert st.pot == 300 and st.balances == [-100, -100, -100]
    assert events[0]["ante"] == 100
    v = engine.view(st, 1)
    assert v["tricks_total"] == 5 and v["talon"] == 16


def test_F26_round1_frap_made_takes_whole_pot(reg):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S"]), dealer=0)
    st = bid_round1_frap(st)
    assert st.deal.P == 300
    st = play(st, PLAY_MADE)
    rep = st.reports[-1]
    assert rep["outcome"] == "played" and rep["tricks"] == [1, 3, 1]
    assert rep["remises"] == [0, 0, 0]
    assert rep["won"] == 300 and rep["frap_round"] == 1
    assert st.balances == [-100, 200, -100] and st.pot == 0 and rep["pot_after"] == 0
    names = ["Ann", "Bob", "Cid"]
    end = {"type": "deal_end", "report": rep}
    assert engine.describe_event(st, end, names) == "Bob made the frap (round 1) and takes 300; no remise; fresh antes next deal"
    assert engine.describe_event(st, end, names, "ru") == "Bob выполняет фрап (круг 1) и забирает 300; ремизов нет; новые взносы"
    # F26: the pot is empty, so the next deal starts with fresh antes (dealer passes to seat 1, F7)
    st, ev = engine.start_deal(st, make_pack(32))
    assert ev[0]["ante"] == 100 and st.pot == 300


def test_F26_no_trick_money(reg):
    """F26 replaces F23: a trick pays nothing when it is taken."""
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S"]), dealer=0)
    st = bid_round1_frap(st)
    st = play(st, PLAY_MADE[:2])
    st, events = engine.apply(st, 0, ("play", "9H"))
    trick = [e for e in events if e["type"] == "trick"][0]
    assert trick["winner"] == 1 and trick["amount"] == 0
    assert st.balances == [-100, -100, -100] and st.pot == 300
    assert engine.describe_event(st, trick, ["Ann", "Bob", "Cid"]) == "Bob takes the trick with A♠"


def test_F26_round2_frap_made_takes_half_the_pot(reg):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S", "10S"]), dealer=0)
    for s in (1, 2, 0):
        st = act(st, s, "pass")
    assert st.pot == 600 and st.deal.round == 2 and st.deal.turn_up == "10S"  # F12 top-up, new turn-up
    st = bid_round1_frap(st)
    assert st.deal.P == 600
    st = play(st, PLAY_MADE)
    rep = st.reports[-1]
    assert rep["tricks"] == [1, 3, 1] and rep["frap_round"] == 2
    assert rep["won"] == 300  # ⌊600 / 2⌋
    assert st.balances == [-200, 100, -200] and st.pot == 300 == rep["pot_after"]
    # F26: what stays is the next pot: no fresh antes
    st, ev = engine.start_deal(st, make_pack(32))
    assert ev[0]["ante"] == 0 and st.pot == 300 and st.balances == [-200, 100, -200]


def scenario(st, hands, plays, passed_rounds=0, verb="frap"):
    """Play one deal written for dealer 0 (``hands``/``plays`` by seat) at the current dealer k:
    every seat shifted by k. ``passed_rounds`` all-pass rounds first (F12), then seat k+1 fraps,
    the others whist, everyone stands pat, and ``plays`` are played."""
    n = st.players
    k = 0 if st.dealer is None else (st.dealer + 1) % n
    rot = {s: (s + k) % n for s in range(n)}
    by_seat = [None] * n
    for s in range(n):
        by_seat[rot[s]] = hands[s]
    st, _ = engine.start_deal(st, make_deck(n, k, by_seat, ["8S", "10S"][:passed_rounds + 1]), dealer=k)
    order = [rot[1], rot[2], rot[0]]
    for _ in range(passed_rounds):
        for s in order:
            st = act(st, s, "pass")
    st = act(st, order[0], verb)
    for s in order[1:]:
        st = act(st, s, "whist")
    for s in order:
        st = act(st, s, "buy", [])
    return play(st, [(rot[s], c) for s, c in plays])


def test_F26_round2_half_pot_rounds_down(reg):
    """⌊P/2⌋ with an odd P (ante 4, three players, pot carried over four deals)."""
    st = table(reg, options={"ante": 4})
    st = scenario(st, HANDS_SHORT, PLAY_SHORT)          # frapper short: 12 + 2·12 + 12 = 48
    assert st.pot == 48
    st = scenario(st, HANDS_MADE, PLAY_MADE, 1)         # P = 48 + 12 = 60: takes 30, 30 stays
    assert st.reports[-1]["won"] == 30 and st.pot == 30
    st = scenario(st, HANDS_MADE, PLAY_MADE, 1)         # P = 42: takes 21
    assert st.reports[-1]["won"] == 21 and st.pot == 21
    st = scenario(st, HANDS_MADE, PLAY_MADE, 1)         # P = 33 (odd): takes ⌊33/2⌋ = 16, 17 stays
    rep = st.reports[-1]
    assert rep["frap_round"] == 2 and rep["won"] == 16 and st.pot == 17 == rep["pot_after"]
    assert sum(st.balances) + st.pot == 0
    assert st.dealer == 0 and rep["frapper"] == 1


def test_F26_frapper_short_of_three_pays_2P_whister_without_trick_pays_P(reg):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_SHORT), ["8S"]), dealer=0)
    st = play(bid_round1_frap(st), PLAY_SHORT)
    rep = st.reports[-1]
    assert rep["tricks"] == [0, 2, 3]
    assert rep["won"] == 0
    assert rep["remises"] == [300, 600, 0]  # whister P, frapper 2P (two tricks is short of three)
    # the pot P stays (no trick money) and the remises are added: 300 + 900
    assert st.pot == 1200 == rep["pot_after"]
    assert st.balances == [-400, -700, -100]
    assert engine.describe_event(st, {"type": "deal_end", "report": rep}, ["Ann", "Bob", "Cid"]) == \
        "Bob fell short of three tricks; remises Ann −300, Bob −600; pot 1200 carried to the next deal"
    st, ev = engine.start_deal(st, make_pack(32))
    assert ev[0]["ante"] == 0 and st.pot == 1200


def test_F26_blind_frapper_short_pays_4P(reg):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_SHORT), ["8S"]), dealer=0)
    st = play(bid_round1_frap(st, "blind_frap"), PLAY_SHORT)
    rep = st.reports[-1]
    assert rep["blind"] is True and rep["remises"] == [300, 1200, 0]
    assert st.pot == 300 + 1500 and sum(st.balances) + st.pot == 0


def test_F26_F25_graded_frapper_with_two_tricks_pays_P(reg):
    """Decision (docs/rules/five_card_frap.md): with graded_remise a frapper who took one or two
    tricks pays P; with none, 2P."""
    st = table(reg, options={"ante": 100, "graded_remise": True})
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_SHORT), ["8S"]), dealer=0)
    st = play(bid_round1_frap(st), PLAY_SHORT)
    assert st.reports[-1]["remises"] == [300, 300, 0]


def test_F26_no_pass_after_frap(reg):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S"]), dealer=0)
    st = act(st, 1, "frap")
    assert ("pass",) not in engine.legal_actions(st, 2)
    assert ("whist",) in engine.legal_actions(st, 2)
    with pytest.raises(RuleError) as e:
        engine.apply(st, 2, ("pass",))
    assert e.value.rule == "F26"
    # so every other player whists: no F14 (frapper takes the pot unplayed) and no cut-in (F17)
    st = act(act(st, 2, "whist"), 0, "whist")
    assert sorted(st.deal.whisters) == [0, 2] and st.deal.passers == []
    for s in (1, 2, 0):
        st = act(st, s, "buy", [])
    assert st.deal.phase == "play" and st.deal.cut_ins == []


def test_F26_pass_before_any_frap_is_allowed(reg):
    """F26 forbids passing only after a frap; bidding (F10) still allows pass."""
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S"]), dealer=0)
    assert ("pass",) in engine.legal_actions(st, 1)


def test_F26_two_rounds_then_thrown_in(reg):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S", "10H"]), dealer=0)
    for s in (1, 2, 0):
        st = act(st, s, "pass")
    for s in (1, 2, 0):
        st = act(st, s, "pass")
    rep = st.reports[-1]
    assert rep["outcome"] == "thrown_in"
    assert rep["trump"] == "H"  # the last turn-up's suit (record-format.md)
    assert rep["tricks"] == [0, 0, 0] and rep["remises"] == [0, 0, 0]
    assert st.pot == 900 == rep["pot_after"]  # antes + two top-ups (F13 with two)
    assert st.balances == [-300, -300, -300]
    st, ev = engine.start_deal(st, make_pack(32))  # F7: the next dealer deals; the pot carries over
    assert st.dealer == 1 and ev[0]["ante"] == 0 and st.pot == 900


def test_F26_deck_too_small_refused(reg):
    # 7 players with a 36-card deck: Frap allows it (F2 needs 31), five-card Frap needs 37
    engine.new_match("frap", 7, {"deck": 36}, (), reg)
    with pytest.raises(RuleError) as e:
        table(reg, players=7, options={"deck": 36})
    assert e.value.rule == "F26" and "37" in e.value.message
    with pytest.raises(RuleError) as e:
        table(reg, players=11)  # auto: 52 cards < 57
    assert e.value.rule == "F26"
    assert table(reg, players=10).options["deck"] == "auto"  # 52 = 5 × 10 + 2 is enough


def test_F26_buyer_may_discard_up_to_five(reg):
    """Decision: with five cards a buyer discards 0 to 5 (F15's whole hand), no more than the talon holds."""
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_MADE), ["8S"]), dealer=0)
    st = act(act(act(st, 1, "frap"), 2, "whist"), 0, "whist")
    buys = [a for a in engine.legal_actions(st, 1) if a[0] == "buy"]
    assert len(buys) == 2 ** 5 and max(len(a[1]) for a in buys) == 5
    st = act(st, 1, "buy", HANDS_MADE[1])
    assert len(st.deal.hands[1]) == 5 and st.deal.talon == 11


def test_F26_record_replays_with_house_rules(reg, tmp_path):
    st = table(reg)
    st, _ = engine.start_deal(st, make_deck(3, 0, hands_list(HANDS_SHORT), ["8S"]), dealer=0)
    st = play(bid_round1_frap(st), PLAY_SHORT)
    rec = engine.record(st)
    assert rec["house_rules"] == ["five_card_frap"]
    res = record.replay_json(rec, reg)
    assert res["ok"] and res["pot"] == 1200 and res["balances"] == [-400, -700, -100]
    assert res["deals"][0]["remises"] == [300, 600, 0]
    # The same record through `frapnet replay` with no plugins dir at all, as a user runs it
    f = tmp_path / "five.json"
    f.write_text(record.dumps(rec))
    env = dict(os.environ, FRAPNET_PLUGINS_DIR="")
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f), "--json"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert json.loads(p.stdout)["deals"][0]["remises"] == [300, 600, 0]
    # …and a record naming a house rule this frapnet lacks is refused, naming it ("record")
    f.write_text(record.dumps(dict(rec, house_rules=["seven_card_frap"])))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f), "--json"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 2
    err = json.loads(p.stdout)["error"]
    assert err["rule"] == "record" and "seven_card_frap" in err["message"]


def test_F26_random_play_keeps_ledger_and_cards(reg):
    """F6 under F26: chips conserved; every card is in a hand, a discard, a trick or the talon."""
    import random

    from frapnet.testing import random_deals

    for players in (2, 4, 6):
        st = table(reg, players=players)
        for before, seat, action, after in random_deals(st, random.Random(players), 40):
            assert sum(after.balances) + after.pot == 0
            if after.phase == engine.DEAL:
                d = after.deal
                assert d.hand_size == 5 and d.max_rounds == 2 and d.must_whist
            st = after
        assert all(r["outcome"] in ("played", "thrown_in") for r in st.reports)
