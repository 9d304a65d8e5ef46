"""The Napoleon plugin as frapnet sees it: loaded from its entry point (distribution
frapnet-napoleon), its GameSpec (N1 players, N2 option, N9 dealer rule, record verbs), the
generic view keys, English and Russian labels and event texts, `frapnet replay` on the shared
cases (exit status 0/2), and a real host process with computer players over loopback whose
record replays (N1–N9 end to end)."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest

from frapnet import engine, record
from frapnet.cards import pack
from frapnet.games.hidden import deal_out
from frapnet.hookspecs import API_MAJOR
from frapnet.plugins import load_registry
from frapnet.testing import case_files, matches

import frapnet_napoleon
from frapnet_napoleon import plugin

CASES = case_files("napoleon")


def deck_for(hands, dealer, talon=()):
    """A 36-card deck dealing ``hands[s]`` to seat s (N3), ``talon`` on top of the talon."""
    used = {c for h in hands for c in h} | set(talon)
    return deal_out(hands, dealer, len(hands)) + list(talon) + [c for c in pack(36) if c not in used]


def test_entry_point_and_registry():
    eps = [ep for ep in metadata.entry_points(group="frapnet") if ep.name == "napoleon"]
    assert len(eps) == 1 and eps[0].value == "frapnet_napoleon.plugin"
    assert eps[0].dist.metadata["Name"] == "frapnet-napoleon"
    assert plugin.FRAPNET_API == API_MAJOR and plugin.PLUGIN_NAME == "napoleon"
    reg = load_registry()
    spec, info = reg.games["napoleon"]
    assert info.error is None and info.version == frapnet_napoleon.__version__
    assert "entry point frapnet_napoleon.plugin" in info.source
    assert {"frapnet_deal", "frapnet_trick_winner", "frapnet_settle"} <= set(info.hooks)
    d = spec.describe()
    assert d["players"] == [2, 6] and d["ledger"] == "chips"  # N1, N2
    assert d["options"] == [{"name": "stake", "default": 10, "kind": "int", "rule": "N2", "doc": d["options"][0]["doc"],
                             "allowed": "a positive whole number of chips"}]
    assert d["verbs"] == ["bid", "buy", "here", "napoleon", "pass", "play"]
    assert (spec.players_rule, spec.dealer_rule, spec.match_rule) == ("N1", "N9", None)


@pytest.mark.shared
@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_shared_case_via_replay_command(path, tmp_path):
    """`frapnet replay FILE --json` reproduces each napoleon case and exits 0 or 2."""
    assert len(CASES) >= 4
    case = json.loads(path.read_text())
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(case["record"]))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f), "--json"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == (0 if case["expect"]["ok"] else 2), p.stderr
    matches(case["expect"], json.loads(p.stdout))


@pytest.mark.shared
def test_replay_human_summary_names_declarer_bid_and_treasure(tmp_path):
    case = json.loads([p for p in CASES if p.stem == "napoleon-here-then-napoleon-made"][0].read_text())
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(case["record"]))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert "declarer 1; bid napoleon; trump H; tricks 0 5 0" in p.stdout
    assert "pot: 60" in p.stdout


def _full_deal():
    """3 players, dealer 0: 0 bids 2, 1 bids 4, 2 passes, 0 says here, 1 napoleon, 0 passes;
    seat 1 buys (discards 6S for the talon's top 9S), leads hearts and makes all five."""
    hands = [["QD", "8D", "7D", "6D", "6C"], ["AH", "KH", "QH", "JH", "6S"], ["AD", "QS", "JS", "8C", "8S"]]
    st = engine.new_match("napoleon", 3)
    st, ev = engine.start_deal(st, deck_for(hands, 0, talon=["10H"]), 0)
    states = [(st, ev)]
    for a in [[0, "bid", 2], [1, "bid", 4], [2, "pass"], [0, "here"], [1, "napoleon"], [0, "pass"],
              [1, "buy", ["6S"]], [1, "play", "AH"], [2, "play", "AD"], [0, "play", "QD"],
              [1, "play", "KH"], [2, "play", "QS"], [0, "play", "8D"], [1, "play", "QH"], [2, "play", "JS"],
              [0, "play", "7D"], [1, "play", "JH"], [2, "play", "8C"], [0, "play", "6D"],
              [1, "play", "10H"], [2, "play", "8S"], [0, "play", "6C"]]:
        st, ev = engine.apply(st, a[0], a[1:])
        states.append((st, ev))
    return states


def test_full_deal_events_texts_en_ru():
    states = _full_deal()
    final = states[-1][0]
    assert final.balances == [-60, 120, -60] and final.pot == 0  # N8: napoleon made, treasure 30 taken
    names = ["Olga", "Ivan", "Pyotr"]
    texts = {"en": [], "ru": []}
    for st, events in states:
        for e in events:
            json.dumps(e)
            for lang in ("en", "ru"):
                t = plugin.frapnet_describe_event(st, e, names, lang)
                assert isinstance(t, str) and t, (e, lang)
                assert engine.describe_event(st, e, names, lang) == t
                texts[lang].append(t)
    en, ru = "\n".join(texts["en"]), "\n".join(texts["ru"])
    assert "Olga deals; stakes 10 each; treasure 30" in en
    assert "Olga says here, taking the bid of 4" in en
    assert "Ivan bids for Napoleon" in en and "Ivan is the declarer, bidding for Napoleon" in en
    assert "Ivan discards a card and buys one from the talon" in en and "Trump: ♥" in en
    assert "Ivan made for Napoleon: each other player pays 50; takes the treasure of 30; treasure now 0" in en
    assert "Сдаёт Olga; взнос по 10; в кладе 30" in ru and "Olga: здесь (берёт заявку 4)" in ru
    assert "Ivan: за Наполеона" in ru and "Козырь: ♥" in ru and "забирает клад 30" in ru
    # no event names a hidden card: the discard 6S and the bought 10H's position are never told
    for st, events in states[:8]:
        for e in events:
            assert "6S" not in json.dumps(e)


def test_action_labels_en_ru():
    st = engine.new_match("napoleon", 3)
    st, _ = engine.start_deal(st, pack(36), 0)
    st, _ = engine.apply(st, 0, ["bid", 2])
    st, _ = engine.apply(st, 1, ["bid", 4])
    st, _ = engine.apply(st, 2, ["pass"])
    v = engine.view(st, 0, "en")
    assert [a["label"] for a in v["actions"]] == ["Bid 5", "For Napoleon (all five, for the treasure)",
                                                 "Here (take the bid of 4)", "Pass"]
    v = engine.view(st, 0, "ru")
    assert [a["label"] for a in v["actions"]] == ["Заявка: 5", "За Наполеона (все пять, на клад)",
                                                 "Здесь (взять заявку 4)", "Пас"]
    st, _ = engine.apply(st, 0, ["pass"])
    hand = sorted(st.deal.hands[1], key=pack(36).index)
    labels = [a["label"] for a in engine.view(st, 1, "en")["actions"]]
    assert labels[0] == "Stand pat" and labels[1] == f"Buy: discard {plugin._sym(hand[0])}"
    assert engine.view(st, 1, "ru")["actions"][0]["label"] == "Без прикупки"
    st, _ = engine.apply(st, 1, ["buy", []])
    first = engine.view(st, 1, "en")["actions"][0]
    c = first["action"][1]
    assert first["label"] == f"Lead {plugin._sym(c)} (trump {plugin.SUIT_SYMBOLS[c[-1]]})"
    st, _ = engine.apply(st, 1, first["action"])
    lbl = engine.view(st, 2, "ru")["actions"][0]["label"]
    assert lbl.startswith("Ход ")


def test_view_generic_keys_and_information_sets():
    states = _full_deal()
    st = states[7][0]  # after the buy: play begins
    for seat in (None, 0, 1, 2):
        v = engine.view(st, seat)
        for k in ("phase", "phase_label", "trump", "turn_up", "talon", "hand", "hand_count", "seats", "trick",
                  "leader", "last_trick", "last_winner", "turn", "actions", "balances", "pot"):
            assert k in v, k
        assert v["phase"] == "play" and v["talon"] == 36 - 15 - 1 and v["turn"] == 1 and v["leader"] == 1
        assert v["declarer"] == 1 and v["bid"] == "napoleon" and v["treasure"] == 30 and v["stake"] == 10
        assert [s["declaration"] for s in v["seats"]] == ["pass", "napoleon", "pass"]
        assert [s["cards"] for s in v["seats"]] == [5, 5, 5] and all(s["in_play"] for s in v["seats"])
        if seat is None:
            assert v["hand"] is None and v["hand_count"] is None and v["actions"] == []
        else:
            assert v["hand"] == sorted(st.deal.hands[seat], key=pack(36).index)
            assert v["discards"] == (["6S"] if seat == 1 else [])
            text = json.dumps(v)
            for other in range(3):
                if other != seat:
                    assert not any(c in v["hand"] for c in st.deal.hands[other])
            if seat != 1:
                assert "6S" not in text and "10H" not in text  # the discard and the bought card
    assert engine.view(st, 0, "ru")["phase_label"] == "розыгрыш"
    assert engine.view(states[1][0], 1, "ru")["phase_label"] == "торговля"


def test_host_with_bots_plays_napoleon_over_loopback_and_the_record_replays(tmp_path):
    """A real `frapnet host` process, four computer players, loopback only, no announcement:
    the match ends after the deals asked for and its record replays to the same figures."""
    rec_path = tmp_path / "napoleon.json"
    p = subprocess.run([sys.executable, "-m", "frapnet", "host", "--game", "napoleon", "--players", "4",
                        "--option", "stake=5", "--bots", "4", "--deals", "5", "--record", str(rec_path),
                        "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--pause", "0", "--seed", "7"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    rec = json.loads(rec_path.read_text())
    assert rec["game"] == "napoleon" and rec["options"]["stake"] == 5 and len(rec["deals"]) == 5
    res = record.replay_json(rec)
    assert res["ok"] is True, res
    assert sum(res["balances"]) + res["pot"] == 0
    assert [d["dealer"] for d in res["deals"]] == [(rec["deals"][0]["dealer"] + i) % 4 for i in range(5)]  # N9
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["balances"] == res["balances"] and out["pot"] == res["pot"]
