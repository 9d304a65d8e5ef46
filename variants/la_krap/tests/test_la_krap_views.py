"""La Krap through the generic plugin surface: registration (entry point, API version, options),
views (team cards public L4, hand private), action labels and event texts in English and
Russian, `frapnet replay` on the shared cases, and a real host with computer players."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from frapnet import engine, record
from frapnet.plugins import load_registry
from frapnet.testing import case_files, matches

import frapnet_la_krap
from frapnet_la_krap import plugin
from frapnet_la_krap.testing import fillers, keep_all, play, start

NAMES = ["Olga", "Ivan", "Pavel", "Nina"]


def test_L1_L12_registered_from_the_entry_point():
    """The distribution's entry point provides la_krap (L1 players, L12 target, verbs)."""
    reg = load_registry()
    info = next(p for p in reg.plugins if p.name == "la_krap")
    assert info.error is None and "frapnet-la-krap" in info.source and info.version == frapnet_la_krap.__version__
    spec = reg.game("la_krap")
    assert (spec.min_players, spec.max_players, spec.players_rule) == (3, 6, "L1")
    assert (spec.dealer_rule, spec.match_rule, spec.ledger) == ("L4", "L12", "points")
    assert spec.verbs == {"exchange": "cards", "declare": "suit", "play": "card"}
    assert spec.describe()["options"] == [{"name": "target", "default": 100, "kind": "int", "rule": "L12",
                                           "doc": spec.options[0].doc, "allowed": "a positive whole number of points"}]
    assert plugin.FRAPNET_API == 1 and plugin.PLUGIN_NAME == "la_krap"


def _sample_state():
    """Four players, dealer 3; seat 0 holds K♥ Q♥ and wins the first trick with the A♠ (trumps ♠)."""
    mine = ["KH", "QH", "AS", "9D", "8D", "7D"]
    team = ["QD", "7C", "9H", "8C"]
    fill = fillers(18, "S", mine + team, "JS")
    down = [mine, fill[0:6], fill[6:12], fill[12:18]]
    return start(4, down, team, "JS")


def test_L4_view_team_cards_public_hand_private():
    st, _ = _sample_state()
    v0, v1, spec = engine.view(st, 0), engine.view(st, 1), engine.view(st, None)
    assert [s["team_card"] for s in spec["seats"]] == ["QD", "7C", "9H", "8C"]
    assert spec["hand"] is None and spec["actions"] == [] and spec["teams"] == [[0, 2], [1, 3]]
    assert v0["hand"] == ["AS", "QH", "KH", "7D", "8D", "9D", "QD"]
    assert v0["team_card"] == "QD" and v0["face_down"] == ["AS", "QH", "KH", "7D", "8D", "9D"]
    assert v0["phase"] == "exchange" and v0["phase_label"] == "exchange" and v0["talon"] == 72 - 29
    assert v0["trump"] == "S" and v0["game_type"] == "trump" and v0["turn_up"] == "JS"
    assert [s["cards"] for s in v1["seats"]] == [7, 7, 7, 7] and v1["hand_count"] == 7
    assert v0["actions"][0] == {"action": ["exchange", []], "label": "Keep all cards"}
    assert v1["actions"] == []
    assert engine.view(st, 0, "ru")["phase_label"] == "обмен"
    assert engine.view(st, 0, "ru")["actions"][0]["label"] == "Оставить все карты"


def test_L10_labels_and_view_while_declaring():
    st, _ = _sample_state()
    st = keep_all(st)
    st, _ = play(st, "AS")
    for _ in range(3):
        st, _ = engine.apply(st, st.to_act[0], engine.legal_actions(st, st.to_act[0])[0])
    assert st.to_act == (0,)
    v = engine.view(st, 0)
    assert v["phase"] == "declaring" and v["last_winner"] == 0 and v["seats"][0]["tricks"] == 1
    labels = {tuple(a["action"]): a["label"] for a in v["actions"]}
    assert labels[("declare", "H")] == "Declare K+Q ♥ (+5)" and labels[("play", "KH")] == "Play K♥"
    ru = {tuple(a["action"]): a["label"] for a in engine.view(st, 0, "ru")["actions"]}
    assert ru[("declare", "H")] == "Объявить короля и даму ♥ (+5)" and ru[("play", "KH")] == "Ход К♥"
    st, _ = engine.apply(st, 0, ("declare", "H"))
    v = engine.view(st, 0)
    assert v["must_lead"] == ["KH", "QH"] and v["seats"][0]["declaration"] == "K♥Q♥"
    assert [a["action"] for a in v["actions"]] == [["play", "QH"], ["play", "KH"]]
    label = plugin.frapnet_action_label(st, 0, ("exchange", ("7H", "8S")), "en")
    assert label == "Exchange 7♥ 8♠"


def test_event_texts_en_ru():
    st, events = _sample_state()
    texts = [engine.describe_event(st, e, NAMES, "en") for e in events]
    assert texts == ["Nina deals; turn-up J♠: trumps ♠; teams Olga, Pavel / Ivan, Nina"]
    ru = engine.describe_event(st, events[0], NAMES, "ru")
    assert ru == "Сдаёт Nina; открыта В♠: козыри ♠; команды Olga, Pavel / Ivan, Nina"
    st, ev = engine.apply(st, 0, ("exchange", ("7D", "8D")))
    assert engine.describe_event(st, ev[0], NAMES, "en") == "Olga exchanges 2"
    assert engine.describe_event(st, ev[0], NAMES, "ru") == "Olga меняет 2"
    evs = []
    while st.deal.phase == "exchange":
        st, ev = engine.apply(st, st.to_act[0], ("exchange", []))
        evs += ev
    assert [engine.describe_event(st, e, NAMES, "en") for e in evs] == [
        "Ivan keeps all cards", "Pavel keeps all cards", "Nina keeps all cards", "Play begins: Olga leads"]
    st, ev = play(st, "AS")
    assert engine.describe_event(st, ev[0], NAMES, "en") == "Olga plays A♠"
    for _ in range(3):
        st, e = engine.apply(st, st.to_act[0], engine.legal_actions(st, st.to_act[0])[0])
        ev = e
    trick = ev[-1]
    assert trick["type"] == "trick" and trick["winner"] == 0
    text = engine.describe_event(st, trick, NAMES, "en")
    assert text.startswith("Olga takes trick 1 with A♠")
    st, ev = engine.apply(st, 0, ("declare", "H"))
    assert engine.describe_event(st, ev[0], NAMES, "en") == "Olga declares K+Q ♥ (+5)"
    assert engine.describe_event(st, ev[0], NAMES, "ru") == "Olga объявляет короля и даму ♥ (+5)"


def test_L11_event_text_names_neutralised_cards_and_leader_win():
    ev = {"type": "trick", "winner": 0, "cards": [[0, "AH"], [1, "AH"], [2, "5C"]], "neutralised": [0, 1, 2],
          "number": 3}
    st, _ = _sample_state()
    assert engine.describe_event(st, ev, NAMES, "en") == \
        "Olga takes trick 3 as the leader: no live card could win it; neutralised: A♥ A♥ 5♣"
    assert engine.describe_event(st, ev, NAMES, "ru") == \
        "Olga берёт взятку 3 как первый ходивший: живых карт, способных взять, нет; нейтрализованы: Т♥ Т♥ 5♣"


@pytest.mark.shared
def test_L12_deal_end_text_and_match_winner():
    case = next(p for p in case_files("la_krap") if "five-of-clubs" in p.name)
    rec = dict(json.loads(case.read_text())["record"], options={"target": 25})
    st, res = record.replay(rec)
    ev = {"type": "deal_end", "report": res["deals"][0]}
    assert engine.describe_event(st, ev, NAMES, "en") == \
        "Deal over: points Olga 25, Ivan 4, Pavel 4, Nina 25; match over, won by Olga, Nina"
    v = engine.view(st, None)
    assert v["match_over"] is True and v["ledger"] == "points" and v["balances"] == [25, 4, 4, 25]


@pytest.mark.shared
@pytest.mark.parametrize("path", case_files("la_krap"), ids=lambda p: p.stem)
def test_replay_command_on_shared_cases(path, tmp_path):
    """`frapnet replay --json` exits 0/2 and prints what the case expects (L1–L12)."""
    case = json.loads(path.read_text())
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(case["record"]))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f), "--json"], capture_output=True, text=True)
    assert p.returncode == (0 if case["expect"]["ok"] else 2), p.stderr
    matches(case["expect"], json.loads(p.stdout))


def test_host_plays_la_krap_with_computer_players_over_loopback(tmp_path):
    """A real `frapnet host` process with five computer players plays a La Krap match to its end
    (L12, target 40) over loopback; its record replays to the same points."""
    pytest.importorskip("frapnet.commands.host")
    rec_file = tmp_path / "match.json"
    p = subprocess.run(
        [sys.executable, "-m", "frapnet", "host", "--game", "la_krap", "--players", "5", "--bots", "5",
         "--deals", "20", "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--record", str(rec_file),
         "--bot-delay", "0", "--pause", "0", "--seed", "5", "--level", "basic", "--option", "target=40"],
        capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    rec = json.loads(rec_file.read_text())
    assert rec["game"] == "la_krap" and rec["options"]["target"] == 40
    res = record.replay_json(rec)
    assert res["ok"] is True and max(res["points"]) >= 40
    assert all(d["outcome"] == "played" for d in res["deals"])
    assert sum(sum(d["tricks"]) for d in res["deals"]) == 7 * len(res["deals"])
