"""The engine's public API (frapnet.engine): purity, shapes, errors, views, labels and events."""
from __future__ import annotations

import subprocess
import sys

import pytest

from frapnet import engine
from frapnet.errors import RuleError
from frapnet.testing import fixed_deck, play

HANDS = {1: ["AS", "KS", "QS", "7H"], 2: ["JS", "10S", "AH", "7D"],
         3: ["9S", "8S", "KH", "8D"], 0: ["7S", "AD", "KD", "QD"]}


def fresh(options=None):
    st = engine.new_match("frap", 4, options or {})
    st, events = engine.start_deal(st, fixed_deck(engine.pack(st), 4, 0, HANDS, "7C"), 0)
    return st, events


def test_engine_imports_no_twisted_or_prompt_toolkit():
    code = ("import sys, frapnet.engine, frapnet.games.frap, frapnet.record, frapnet.cards;"
            "from frapnet.plugins import default_registry; default_registry();"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('twisted', 'prompt_toolkit')];"
            "print(bad); sys.exit(1 if bad else 0)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr


def test_new_match_shape_and_defaults():
    st = engine.new_match("frap", 4)
    assert st.options == {"deck": "auto", "ante": 100, "cut_in": True, "graded_remise": False, "revoke": "refuse"}
    assert (st.phase, st.deal_no, st.dealer, st.pot, st.balances, st.version) == ("between", 0, None, 0, [0] * 4, 0)
    assert engine.legal_actions(st, 0) == [] and engine.deal_report(st) is None
    assert engine.match_report(st) == {"balances": [0, 0, 0, 0], "pot": 0}


def test_unknown_game_and_house_rule():
    from frapnet.errors import PluginError
    with pytest.raises(PluginError, match="unknown game 'whist'"):
        engine.new_match("whist", 4)
    with pytest.raises(PluginError, match="unknown house rule"):
        engine.new_match("frap", 4, {}, ["nope"])


def test_start_deal_events_and_errors():
    st, events = fresh()
    assert events == [{"type": "deal", "dealer": 0, "deal_no": 1, "turn_up": "7C", "ante": 100, "pot": 400}]
    assert st.phase == "deal" and st.to_act == (1,) and st.version == 1
    with pytest.raises(RuleError) as exc:
        engine.start_deal(st, engine.pack(st))
    assert exc.value.rule == "record"  # a deal is in progress
    st0 = engine.new_match("frap", 4)
    for dealer in (4, -1, "0", True):
        with pytest.raises(RuleError) as exc:
            engine.start_deal(st0, engine.pack(st0), dealer)
        assert exc.value.rule == "record"


def test_apply_is_pure_and_bumps_version():
    st, _ = fresh()
    before = st.clone()
    st2, events = engine.apply(st, 1, ["frap"])  # lists are accepted and normalised
    assert st == before and st.version == 1  # the old state is untouched
    assert st2.version == 2 and st2.to_act == (2,)
    assert events == [{"type": "look", "seat": 1}, {"type": "bid", "seat": 1, "bid": "frap", "round": 1}]
    with pytest.raises(RuleError):
        engine.apply(st2, 1, ("frap",))
    assert st2.version == 2


def test_actions_normalised_any_spelling():
    st, _ = fresh()
    st, _ = play(st, [(1, "frap"), (2, "whist"), (3, "whist"), (0, "whist")])
    st2, _ = engine.apply(st, 1, ["buy", ["q♠", "7h"]])
    assert st2.deals()[-1][2][-1] == (1, "buy", ("QS", "7H"))
    assert engine.record(st2)["deals"][0]["actions"][-1] == [1, "buy", ["QS", "7H"]]


@pytest.mark.parametrize("seat,action", [(4, ("pass",)), (-1, ("pass",)), (None, ("pass",)), (1, ()),
                                         (1, ("fold",)), (1, ("pass", "now")), (1, ("buy", "7H")),
                                         (1, ("play",)), (1, ("play", "ZZ")), (1, "pass"), (1, (3,))])
def test_malformed_actions_are_record_errors(seat, action):
    st, _ = fresh()
    with pytest.raises(RuleError) as exc:
        engine.apply(st, seat, action)
    assert exc.value.rule == "record"


def test_view_shapes_player_and_spectator():
    st, _ = fresh({"ante": 20})
    v = engine.view(st, 2, "en")
    for key in ("game", "title", "players", "seat", "version", "deal_no", "dealer", "balances", "pot", "ledger",
                "match_over", "options", "house_rules", "to_act", "actions", "phase", "phase_label", "trump",
                "turn_up", "talon", "hand", "seats", "trick", "leader", "last_trick"):
        assert key in v, key
    assert (v["seat"], v["pot"], v["balances"], v["trump"], v["turn_up"], v["talon"]) == (2, 80, [-20] * 4, "C", "7C", 15)
    assert v["hand"] is None and v["actions"] == [{"action": ["look"], "label": "Look at your cards"}]
    assert [s["cards"] for s in v["seats"]] == [4, 4, 4, 4]
    spec = engine.view(st, None)
    assert spec["hand"] is None and spec["actions"] == [] and spec["discards"] == []
    st, _ = engine.apply(st, 2, ("look",))
    assert engine.view(st, 2)["hand"] == HANDS[2]


def test_view_labels_english_and_russian():
    st, _ = fresh()
    st, _ = engine.apply(st, 1, ("look",))
    en = {tuple(a["action"]): a["label"] for a in engine.view(st, 1, "en")["actions"]}
    ru = {tuple(a["action"]): a["label"] for a in engine.view(st, 1, "ru")["actions"]}
    assert en == {("frap",): "Frap", ("pass",): "Pass"}
    assert ru == {("frap",): "Фрап", ("pass",): "Пас"}
    assert engine.view(st, 1, "ru")["phase_label"] == "торговля"


def test_describe_event_plain_words():
    st, events = fresh()
    names = ["Olga", "Ivan", "Pyotr", "Anna"]
    assert engine.describe_event(st, events[0], names) == "Olga deals; turn-up 7♣; pot 400 (antes 100 each)"
    st, ev = engine.apply(st, 1, ("frap",))
    assert engine.describe_event(st, ev[-1], names) == "Ivan declares frap"
    assert engine.describe_event(st, ev[-1], names, "ru") == "Ivan: фрап"
    assert engine.describe_event(st, {"type": "mystery", "seat": 3, "x": 1}, names) == "Anna mystery x 1"


def test_deal_and_match_report_unfinished():
    st, _ = fresh()
    st, _ = play(st, [(1, "frap"), (2, "whist")])
    rep = engine.deal_report(st)
    assert rep["outcome"] == "unfinished" and rep["trump"] == "C" and rep["tricks"] == [0] * 4
    assert rep["remises"] == [0] * 4 and rep["pot_after"] == 400
    assert engine.match_report(st) == {"balances": [-100] * 4, "pot": 400}


def test_apply_between_deals_is_record_error():
    st = engine.new_match("frap", 4)
    with pytest.raises(RuleError) as exc:
        engine.apply(st, 0, ("pass",))
    assert exc.value.rule == "record"


def test_action_to_wire():
    assert engine.action_to_wire(("pass",)) == ["pass"]
    assert engine.action_to_wire(("play", "10H")) == ["play", "10H"]
    assert engine.action_to_wire(("buy", ("7C", "8H"))) == ["buy", ["7C", "8H"]]
    assert engine.action_to_wire(("buy", ())) == ["buy", []]


def test_check_options_order_and_messages():
    spec = engine.new_match("frap", 4).spec
    with pytest.raises(RuleError, match="2–12 players"):
        engine.check_options(spec, 20, {})
    with pytest.raises(RuleError) as exc:
        engine.check_options(spec, 4, {"cut_in": "no"})
    assert exc.value.rule == "record" and "cut_in" in exc.value.message
    with pytest.raises(RuleError) as exc:
        engine.check_options(spec, 4, {"shuffle": True})
    assert exc.value.rule == "record" and "shuffle" in exc.value.message
    with pytest.raises(RuleError) as exc:
        engine.check_options(spec, 4, ["ante", 100])
    assert exc.value.rule == "record"


def test_options_checked_unknown_key_first_then_in_game_order():
    spec = engine.new_match("frap", 4).spec
    with pytest.raises(RuleError) as exc:  # revoke listed first in the record, deck checked first
        engine.check_options(spec, 4, {"revoke": "x", "ante": 3, "deck": 40})
    assert exc.value.rule == "F2"
    with pytest.raises(RuleError) as exc:
        engine.check_options(spec, 4, {"revoke": "x", "ante": 3})
    assert exc.value.rule == "F5"
    with pytest.raises(RuleError) as exc:
        engine.check_options(spec, 4, {"ante": 3, "colour": "red"})
    assert exc.value.rule == "record"


def test_bench_engine_runs_and_prints_figures():
    """bench/engine.py runs (a smoke run; its figures are not asserted: never a timed test)."""
    from pathlib import Path
    bench = Path(__file__).resolve().parent.parent / "bench" / "engine.py"
    p = subprocess.run([sys.executable, str(bench), "--seconds", "0.05", "--repeat", "1", "--game", "frap",
                        "--no-openspiel"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    rows = [line for line in p.stdout.splitlines() if line.startswith("frap ") and "players," not in line]
    assert [r.split("  ")[0] for r in rows] == ["frap 4 players", "frap 4 players + view/action",
                                                  "frap 12 players", "frap 12 players + view/action"]
    assert all(int(r.split()[-3 if "view()" not in r else -5].replace(",", "")) > 0 for r in rows)
    # issue #8: mid-deal playouts, the pure apply() and the fast path side by side, with the speed-up
    po = [line for line in p.stdout.splitlines() if "players," in line]
    assert [r.split("  ")[0] for r in po] == ["frap 4 players, apply()", "frap 4 players, fast path",
                                                "frap 12 players, apply()", "frap 12 players, fast path"]
    assert all(float(r.split()[-1].rstrip("×")) > 0 for r in po if "fast path" in r)
