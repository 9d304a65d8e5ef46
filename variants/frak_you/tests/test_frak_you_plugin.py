"""Frak You as an installed plugin: the entry point, the GameSpec, labels and event texts in English
and Russian, the generic view keys a client without the plugin relies on, and `frapnet replay`
(exit status and --json keys of the rule book: per deal ``order`` and ``losers``; ``points``).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from frapnet import engine, record
from frapnet.cards import pack
from frapnet.plugins import load_registry
from frapnet.testing import case_files, matches

FULL = pack(52)


def test_entry_point_registers_the_game():
    """The distribution frapnet-frak-you registers game frak_you through entry point group "frapnet"."""
    import frapnet_frak_you.plugin as plugin

    reg = load_registry()
    spec, info = reg.games["frak_you"]
    assert info.error is None and "frapnet-frak-you" in info.source and info.name == "frak_you"
    assert plugin.FRAPNET_API == 1 and plugin.PLUGIN_NAME == "frak_you"
    assert (spec.min_players, spec.max_players, spec.players_rule) == (3, 5, "K1")
    assert (spec.dealer_rule, spec.match_rule, spec.ledger) == ("K2", "K12", "points")
    assert spec.verbs == {"pass_cards": "cards", "play": "card"}
    assert spec.defaults() == {"passing": "right", "first_lead": "left_of_dealer", "pile": "second_in_row",
                               "loss_limit": 5}
    for hook in ("frapnet_deal", "frapnet_trick_winner", "frapnet_settle", "frapnet_view",
                 "frapnet_action_label", "frapnet_describe_event", "frapnet_match_report"):
        assert hook in info.hooks


def _random_match(seed, players=4, options=None, deals=3):
    rng = random.Random(seed)
    st = engine.new_match("frak_you", players, options or {})
    events = []
    for _ in range(deals):
        deck = FULL[:]
        rng.shuffle(deck)
        st, ev = engine.start_deal(st, deck, 0 if st.dealer is None else None)
        events += ev
        while st.phase == engine.DEAL:
            seat = st.to_act[-1]
            st, ev = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
            events += ev
        if st.phase == engine.OVER:
            break
    return st, events


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_labels_and_event_texts(lang):
    st = engine.new_match("frak_you", 3, {"first_lead": "two_of_clubs"})
    st, _ = engine.start_deal(st, FULL, 0)
    v = engine.view(st, 1, lang)
    label = v["actions"][0]["label"]
    assert v["actions"][0]["action"][1] == ["2S", "5S", "8S"]
    assert label == ("Pass" if lang == "en" else "Передать") + " 8♠ 5♠ 2♠"  # as the hand shows them: high first
    assert v["phase_label"] == {"en": "passing three cards", "ru": "передача трёх карт"}[lang]
    names = ["Olga", "Ivan", "Pyotr"]
    _, events = _random_match(5, players=3, options={"first_lead": "two_of_clubs", "loss_limit": 1}, deals=1)
    kinds = set()
    for e in events:
        text = engine.describe_event(st, e, names, lang)
        assert text and "{" not in text and "?" not in text, (e, text)
        kinds.add(e["type"])
    assert {"deal", "pass_chosen", "exchange", "play_starts", "play", "trick", "out", "deal_end"} <= kinds
    play = {"type": "play", "seat": 2, "card": "10H"}
    assert engine.describe_event(st, play, names, lang) == {"en": "Pyotr plays 10♥", "ru": "Pyotr ходит 10♥"}[lang]
    assert engine.describe_event(st, {"type": "trick", "winner": 0, "to": "swap", "number": 2,
                                      "cards": [[0, "KS"], [1, "2S"], [2, "3S"]]}, names, lang).startswith(
        {"en": "Olga wins the trick with K♠: a second trick", "ru": "Olga берёт вторую взятку подряд картой К♠"}[lang])
    anywin = engine.new_match("frak_you", 3, {"pile": "any_win"})  # K9 (P): a swap not necessarily in a row
    assert engine.describe_event(anywin, {"type": "trick", "winner": 0, "to": "swap", "number": 2,
                                          "cards": [[0, "KS"], [1, "2S"], [2, "3S"]]}, names, lang) == {
        "en": "Olga wins the trick with K♠: it takes the place of the trick in front of them, which goes into their hand",
        "ru": "Olga берёт взятку картой К♠: она ложится на место прежней, а прежняя уходит в руку"}[lang]


def test_view_generic_keys_and_play_labels():
    st = engine.new_match("frak_you", 5)
    st, _ = engine.start_deal(st, FULL, 4)
    for s in range(5):
        st, _ = engine.apply(st, s, ("pass_cards", sorted(st.deal.hands[s])[:3]))
    v = engine.view(st, 0, "ru")
    for key in ("phase", "phase_label", "trump", "turn_up", "talon", "hand", "hand_count", "seats", "trick",
                "leader", "last_trick", "last_winner", "turn", "points", "order", "losers"):
        assert key in v, key
    assert v["phase"] == "play" and v["turn"] == 0 and v["leader"] == 0 and v["hand_count"] == 10
    assert v["actions"][0]["label"].startswith("Ход ")
    assert [a["action"] for a in v["actions"]] == [["play", c] for c in v["hand"]]
    for seat in v["seats"]:
        assert set(seat) >= {"seat", "declaration", "tricks", "cards", "in_play"} and seat["cards"] == 10
    spectator = engine.view(st, None)
    assert spectator["hand"] is None and spectator["actions"] == []


def test_bots_play_a_match_from_views_alone():
    """The generic computer players (random and basic) finish a Frak You match using only the views."""
    from frapnet.bots.strategy import Strategy

    bots = [Strategy("basic" if s % 2 else "random", seed=s) for s in range(4)]
    rng = random.Random(9)
    st = engine.new_match("frak_you", 4, {"loss_limit": 2, "passing": "rotate"})
    while st.phase != engine.OVER:
        deck = FULL[:]
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, 3 if st.dealer is None else None)
        while st.phase == engine.DEAL:
            seat = st.to_act[0]
            st, _ = engine.apply(st, seat, bots[seat].choose(engine.view(st, seat)))
    assert max(st.balances) == 2 and st.match["over"]


@pytest.mark.shared
@pytest.mark.parametrize("path", case_files("frak_you"), ids=lambda p: p.stem)
def test_replay_command_on_shared_cases(path, tmp_path):
    """`frapnet replay --json` reproduces each shared case; exit 0 when legal, 2 when not."""
    case = json.loads(path.read_text())
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(case["record"]))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f), "--json"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == (0 if case["expect"]["ok"] else 2), p.stderr
    matches(case["expect"], json.loads(p.stdout))


def test_replay_json_keys_and_human_summary(tmp_path):
    """replay --json: "points" in place of balances; per deal order (ties a sorted list) and losers."""
    st, _ = _random_match(3, players=5, deals=2)
    rec = engine.record(st)
    res = record.replay_json(json.loads(json.dumps(rec)))
    assert res["ok"] and res["game"] == "frak_you" and "balances" not in res
    assert res["points"] == st.balances and len(res["deals"]) == 2
    for d, r in zip(res["deals"], st.reports):
        assert d["order"] == r["order"] and d["losers"] == r["losers"] == sorted(r["losers"])
        for g in d["order"]:
            assert isinstance(g, int) or (isinstance(g, list) and len(g) > 1 and g == sorted(g))
    f = tmp_path / "rec.json"
    f.write_text(record.dumps(rec))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and "points:" in p.stdout and "losers" in p.stdout


def test_unfinished_record_reports_unfinished_deal():
    st = engine.new_match("frak_you", 4)
    st, _ = engine.start_deal(st, FULL, 2)
    st, _ = engine.apply(st, 3, ("pass_cards", ["2S", "6S", "10S"]))  # K2: deck[0], [4], [8] go to seat 3
    res = record.replay_json(engine.record(st))
    assert res["ok"] and res["points"] == [0, 0, 0, 0]
    assert res["deals"] == [{"dealer": 2, "outcome": "unfinished", "order": [], "losers": [],
                             "points": [0, 0, 0, 0], "passing": "right", "tricks": [0, 0, 0, 0]}]
