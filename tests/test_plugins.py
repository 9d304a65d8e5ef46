"""Plugin loading, `frapnet plugins`, `frapnet games`, and the example house rule (issue #5).

Broken plugins (a syntax error, a duplicate game name, another API major, a misspelt hook…) are
reported with their name and reason, and every other plugin still loads; a game whose plugin was
refused is never offered (the host refuses it). The example plugin plugins/example_pam.py changes
trick-winning only (F21) and defers to Frap for the rest (F20 unchanged).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from frapnet import engine, hookspecs, record
from frapnet.cards import pack as make_pack
from frapnet.errors import PluginError, RuleError
from frapnet.plugins import checkout_plugins_dir, default_plugin_dirs, load_registry, parse_api
from frapnet.testing import matches, shared_dir

ROOT = Path(__file__).resolve().parent.parent
CASES = shared_dir() / "cases"

GOOD_RULE = '''
from frapnet.engine.spec import HouseRuleSpec
from frapnet.hookspecs import hookimpl
FRAPNET_API = 1
__version__ = "0.3"

@hookimpl
def frapnet_register_house_rules(register):
    register(HouseRuleSpec(name="good_rule", games=("frap",), rule="F21", summary="a harmless rule"))
'''

BROKEN = {
    "syntax_error.py": "def frapnet_register_games(:\n    pass\n",
    "dup_game.py": '''
from frapnet.engine.spec import GameSpec
from frapnet.hookspecs import hookimpl
FRAPNET_API = 1

@hookimpl
def frapnet_register_games(register):
    register(GameSpec(name="frap", title="Another Frap", min_players=2, max_players=4, players_rule="F1"))
''',
    "future_api.py": GOOD_RULE.replace("FRAPNET_API = 1", "FRAPNET_API = 2").replace("good_rule", "future_rule"),
    "misspelt.py": '''
from frapnet.hookspecs import hookimpl
FRAPNET_API = 1

@hookimpl
def frapnet_trick_winer(state, trick):
    return 0
''',
    "raises.py": "raise RuntimeError('no database configured')\n",
    # a game plugin whose house rule clashes with an installed one: nothing of it is offered
    "half_game.py": '''
from frapnet.engine.spec import GameSpec, HouseRuleSpec
from frapnet.hookspecs import hookimpl
from frapnet.games.frap import (frapnet_pack, frapnet_deal, frapnet_legal_actions, frapnet_apply_action,
                                frapnet_settle, frapnet_deal_report, frapnet_match_report, frapnet_view)
FRAPNET_API = 1

@hookimpl
def frapnet_register_games(register):
    register(GameSpec(name="half_game", title="Half", min_players=2, max_players=4, players_rule="H1"))

@hookimpl
def frapnet_register_house_rules(register):
    register(HouseRuleSpec(name="good_rule", games=("half_game",)))
''',
    "good_rule.py": GOOD_RULE,
}


@pytest.fixture
def broken_dir(tmp_path):
    d = tmp_path / "plugins"
    d.mkdir()
    for name, text in BROKEN.items():
        (d / name).write_text(textwrap.dedent(text))
    return d


def frapnet(*args, env_extra=None):
    """Run the real `frapnet` command (python -m frapnet) with no default plugins dirs."""
    env = dict(os.environ, FRAPNET_PLUGINS_DIR="")
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "frapnet", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=60)


# --- loading ------------------------------------------------------------------------------------

def test_broken_plugins_are_reported_and_the_rest_load(broken_dir):
    reg = load_registry([broken_dir], entry_points=False)
    by = {p.name: p for p in reg.plugins}
    assert by["frap"].loaded and by["good_rule"].loaded
    assert by["syntax_error"].error.startswith("failed to import: SyntaxError") and "line 1" in by["syntax_error"].error
    assert by["dup_game"].error == ("game name 'frap' is already taken by plugin 'frap' (builtin); not loaded")
    assert "written for frapnet plugin API 2" in by["future_api"].error
    assert f"API {hookspecs.API_VERSION}" in by["future_api"].error
    assert "invalid hook implementation" in by["misspelt"].error and "frapnet_trick_winer" in by["misspelt"].error
    assert by["raises"].error == "failed to import: RuntimeError: no database configured at raises.py:1"
    # half_game loads after good_rule (files in name order), so its house rule clashes
    assert by["half_game"].error.startswith("house rule 'good_rule' is already taken by plugin 'good_rule'")
    assert sorted(reg.games) == ["frap"]               # neither "frap" from dup_game nor half_game
    assert sorted(reg.house_rules) == ["five_card_frap", "good_rule"]    # the built-in F26; future_rule refused
    assert reg.house_rules["good_rule"][1].source == str(broken_dir / "good_rule.py")
    assert {p.name for p in reg.errors} == {"syntax_error", "dup_game", "future_api", "misspelt", "raises", "half_game"}


def test_a_game_whose_plugin_failed_is_never_offered(broken_dir):
    """The host validates with the registry: a half-loaded game cannot open a table."""
    reg = load_registry([broken_dir], entry_points=False)
    with pytest.raises(PluginError) as e:
        reg.check_table("half_game")
    assert "unknown game 'half_game'" in str(e.value) and "half_game (house rule 'good_rule'" in str(e.value)
    with pytest.raises(PluginError):
        engine.new_match("half_game", 2, {}, (), reg)
    with pytest.raises(PluginError, match="unknown house rule 'future_rule'"):
        engine.new_match("frap", 4, {}, ["future_rule"], reg)


def test_host_refuses_a_game_whose_plugin_failed(broken_dir):
    p = frapnet("host", "--game", "half_game", "--players", "2", "--plugins-dir", broken_dir,
                "--bind", "127.0.0.1", "--port", "0", "--no-announce")
    assert p.returncode == 2
    assert "unknown game 'half_game'" in p.stderr


def test_game_plugin_may_not_offer_house_rules_for_other_games(tmp_path):
    """Its game hooks would run at the other game's table: refused, with the reason."""
    (tmp_path / "mixed.py").write_text(textwrap.dedent(BROKEN["half_game.py"]).replace('"good_rule"', '"mixed_rule"')
                                       .replace('("half_game",))', '("frap",))'))
    (tmp_path / "own.py").write_text(textwrap.dedent(BROKEN["half_game.py"]).replace('"good_rule"', '"own_rule"')
                                     .replace('"half_game"', '"own_game"'))
    reg = load_registry([tmp_path], entry_points=False)
    assert "half_game" not in reg.games and "mixed_rule" not in reg.house_rules
    err = [p for p in reg.errors if p.name == "mixed"][0].error
    assert err.startswith("house rule 'mixed_rule' is for frap, but this plugin also provides the game(s) half_game")
    assert reg.house_rules["own_rule"][0].games == ("own_game",) and "own_game" in reg.games


def test_game_plugin_lacking_a_required_hook_is_refused_naming_it(tmp_path):
    """style.md 4 / issue #8: a game plugin without frapnet_view (a required hook) is refused when
    it loads, with a message naming the hook, and its game is never offered."""
    (tmp_path / "no_view.py").write_text(textwrap.dedent('''
        from frapnet.engine.spec import GameSpec
        from frapnet.hookspecs import hookimpl
        from frapnet.games.frap import (frapnet_pack, frapnet_deal, frapnet_legal_actions, frapnet_apply_action,
                                        frapnet_settle, frapnet_deal_report, frapnet_match_report)

        @hookimpl
        def frapnet_register_games(register):
            register(GameSpec(name="no_view", title="No view", min_players=2, max_players=4, players_rule="X1"))
    '''))
    reg = load_registry([tmp_path], entry_points=False)
    info = [p for p in reg.plugins if p.name == "no_view"][0]
    assert info.error == ("game 'no_view' lacks the required hook frapnet_view "
                          "(frapnet.hookspecs.REQUIRED_GAME_HOOKS); not loaded")
    assert "no_view" not in reg.games
    with pytest.raises(PluginError, match="unknown game 'no_view'"):
        reg.game("no_view")


def test_rules_callers_come_from_the_specs_and_tracing_sees_every_call(monkeypatch, capsys):
    """issue #8: Rules has one positional caller per per-table hook spec (argnames from pluggy's
    HookSpec), and FRAPNET_TRACE_PLUGINS routes every call through pluggy's tracing."""
    from frapnet.plugins import Rules, default_registry
    reg = default_registry()
    rules = Rules(reg.plugin_manager("frap"), trace=False)
    per_table = sorted(n[len("frapnet_"):] for n in dir(hookspecs) if n.startswith("frapnet_")
                       and n not in ("frapnet_register_games", "frapnet_register_house_rules"))
    assert sorted(rules.hooks) == per_table
    from frapnet.games import frap
    assert rules.view is frap.frapnet_view  # the fast path: the implementation itself
    from frapnet.games import frap_sample
    assert rules.sample_deal is frap_sample.frapnet_sample_deal  # it takes every argument, effort too
    assert rules.sample_deal(None, 0, [], None, "any") is None  # no observations: nothing to explain
    # issue #8: Napoleon's sampler leaves out the spec's later argument effort: still called
    # directly, with the arguments it names (pluggy would cost tens of µs a sample)
    napoleon = pytest.importorskip("frapnet_napoleon.bots")
    nap = Rules(reg.plugin_manager("napoleon"), trace=False)
    assert nap.sample_deal.__wrapped__ is napoleon.frapnet_sample_deal
    monkeypatch.setenv("FRAPNET_TRACE_PLUGINS", "1")
    st = engine.new_match("frap", 3, registry=reg)
    assert st.rules.trace and st.rules.view is not frap.frapnet_view
    st, _ = engine.start_deal(st, engine.pack(st), dealer=0)
    engine.apply(st, 1, ("look",))
    err = capsys.readouterr().err
    assert err.count("frapnet_pack") >= 1 and err.count("frapnet_deal ") >= 1
    assert err.count("  frapnet_apply_action [hook]") == 1  # one look, traced with its arguments
    assert "action: ('look',)" in err


def test_plugin_name_clash_and_unmarked_hook_warning(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "rule.py").write_text(GOOD_RULE)
    (b / "rule.py").write_text(GOOD_RULE.replace("good_rule", "other_rule") + textwrap.dedent('''
        def frapnet_trick_winner(state, trick):  # forgot @hookimpl
            return 0
        '''))
    (b / "nohook.py").write_text(GOOD_RULE.replace("good_rule", "third_rule") + textwrap.dedent('''
        def frapnet_trick_winner(state, trick):  # forgot @hookimpl
            return 0
        '''))
    reg = load_registry([a, b], entry_points=False)
    clash = [p for p in reg.plugins if p.source == str(b / "rule.py")][0]
    assert clash.error == f"plugin name 'rule' is already taken by {a / 'rule.py'}; not loaded"
    third = reg.plugin("nohook")
    assert third.loaded and third.warnings == ["frapnet_trick_winner has no @hookimpl marker and is ignored"]
    assert third.hooks == ["frapnet_register_house_rules"]


def test_api_version_policy():
    """hookspecs.API_VERSION is "MAJOR.MINOR"; FRAPNET_API names the major (int or "1"/"1.0")."""
    major, minor = hookspecs.API_VERSION.split(".")
    assert int(major) == hookspecs.API_MAJOR and minor.isdigit()
    assert parse_api(1) == 1 and parse_api("1") == 1 and parse_api("1.4") == 1 and parse_api("2.0") == 2
    for bad in (True, 1.0, "one", None):
        with pytest.raises(ValueError):
            parse_api(bad)


def test_api_history_lists_every_hook_once():
    """Version policy (docs/plugins.md): every hook spec is listed in exactly one minor version of
    hookspecs.API_HISTORY, and the newest of them is API_VERSION — a hook added without a minor
    bump fails here."""
    specs = sorted(n for n in dir(hookspecs) if n.startswith("frapnet_") and callable(getattr(hookspecs, n)))
    listed = [h for hooks in hookspecs.API_HISTORY.values() for h in hooks]
    assert sorted(listed) == specs
    assert len(listed) == len(set(listed))
    assert list(hookspecs.API_HISTORY)[-1] == hookspecs.API_VERSION == "1.1"
    assert "frapnet_trick_winner" in hookspecs.API_HISTORY["1.0"]
    assert "frapnet_policy" in hookspecs.API_HISTORY["1.1"]


def test_every_spec_of_the_hookspecs_modules_is_exposed_and_registered():
    """The specs live in frapnet/hookspecs/{rules,views,bots}.py (split by concern, each module
    under 500 lines); frapnet.hookspecs exposes every one of them, so API_HISTORY's check above,
    docs/plugins.md's and the loader's one ``pm.add_hookspecs(hookspecs)`` see them all — a spec
    added to a module but not imported in frapnet/hookspecs/__init__.py fails here."""
    from frapnet.hookspecs import bots, markers, rules, views
    from frapnet.plugins import default_registry
    by_module = {m.__name__.rsplit(".", 1)[1]: sorted(n for n in dir(m) if n.startswith("frapnet_")
                                                      and callable(getattr(m, n)))
                 for m in (rules, views, bots)}
    assert [len(v) for v in by_module.values()] == [12, 6, 7]
    assert "frapnet_deal" in by_module["rules"] and "frapnet_view_ui" in by_module["views"] \
        and "frapnet_sample_deal" in by_module["bots"]
    defined = sorted(n for names in by_module.values() for n in names)
    exposed = sorted(n for n in dir(hookspecs) if n.startswith("frapnet_") and callable(getattr(hookspecs, n)))
    assert exposed == defined and len(defined) == len(set(defined)) == 25
    for n in defined:
        assert getattr(hookspecs, n).frapnet_spec is not None  # marked as a spec, not an implementation
    assert hookspecs.hookspec is markers.hookspec and hookspecs.hookimpl is markers.hookimpl
    assert hookspecs.SAMPLE_ANY == "any" and hookspecs.SAMPLE_SEARCH == "search"
    pm = default_registry().plugin_manager("frap")
    specs = sorted(n for n in dir(pm.hook) if n.startswith("frapnet_") and getattr(pm.hook, n).spec is not None)
    assert specs == defined
    for path in Path(hookspecs.__file__).parent.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 500, path


def test_api_declared_as_string_loads_and_bad_value_is_refused(tmp_path):
    (tmp_path / "str_api.py").write_text(GOOD_RULE.replace("FRAPNET_API = 1", 'FRAPNET_API = "1.0"'))
    (tmp_path / "float_api.py").write_text(GOOD_RULE.replace("FRAPNET_API = 1", "FRAPNET_API = 1.5")
                                           .replace("good_rule", "float_rule"))
    reg = load_registry([tmp_path], entry_points=False)
    assert reg.plugin("str_api").api == 1 and "good_rule" in reg.house_rules
    err = [p for p in reg.errors if p.name == "float_api"][0].error
    assert err == "FRAPNET_API must be a whole number such as 1, not 1.5; not loaded"


def test_missing_plugins_dir_is_reported(tmp_path):
    reg = load_registry([tmp_path / "nope"], entry_points=False)
    assert reg.errors[0].error == "plugins dir does not exist or is not a directory"
    assert "frap" in reg.games


def test_entry_point_plugins_load_and_a_broken_one_is_isolated(tmp_path):
    """A distribution's entry point in group "frapnet": loaded with its distribution's name and
    version; one that fails to import is reported, the rest load."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "fine_ep.py").write_text(GOOD_RULE.replace("good_rule", "ep_rule"))
    (site / "bad_ep.py").write_text("import no_such_module_anywhere\n")
    for dist, mod in (("frapnet_fine", "fine_ep"), ("frapnet_bad", "bad_ep")):
        info = site / f"{dist}-2.5.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: 2.5\n")
        (info / "entry_points.txt").write_text(f"[frapnet]\n{mod} = {mod}\n")
    p = frapnet("plugins", "--json", env_extra={"PYTHONPATH": str(site)})
    assert p.returncode == 1, p.stderr
    rep = json.loads(p.stdout)
    by = {x["name"]: x for x in rep["plugins"]}
    assert by["fine_ep"]["loaded"] and by["fine_ep"]["version"] == "2.5"
    assert by["fine_ep"]["source"] == "entry point fine_ep (distribution frapnet-fine)"
    assert by["fine_ep"]["house_rules"] == ["ep_rule"]
    assert by["bad_ep"]["error"] == ("failed to import: ModuleNotFoundError: No module named "
                                     "'no_such_module_anywhere' at bad_ep.py:1")
    assert by["frap"]["loaded"]


# --- default plugins dirs -----------------------------------------------------------------------

def test_checkout_plugins_dir_is_loaded_by_default(monkeypatch, tmp_path):
    """From a checkout, ./plugins is a default plugins dir; FRAPNET_PLUGINS_DIR overrides it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # no user plugins dir
    assert checkout_plugins_dir() == ROOT / "plugins"
    monkeypatch.delenv("FRAPNET_PLUGINS_DIR", raising=False)
    assert default_plugin_dirs() == [ROOT / "plugins"]
    monkeypatch.setenv("FRAPNET_PLUGINS_DIR", "")
    assert default_plugin_dirs() == []
    monkeypatch.setenv("FRAPNET_PLUGINS_DIR", os.pathsep.join(["/x/one", "/x/two"]))
    assert default_plugin_dirs() == [Path("/x/one"), Path("/x/two")]


def test_user_plugins_dir_is_a_default_dir(monkeypatch, tmp_path):
    """Issue #10: the user's plugins dir (platformdirs: $XDG_DATA_HOME/frapnet/plugins on Linux)
    is loaded without flags once it exists, before the checkout's plugins/."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("FRAPNET_PLUGINS_DIR", raising=False)
    user = tmp_path / "frapnet" / "plugins"
    assert default_plugin_dirs() == [ROOT / "plugins"]  # not there yet: not listed
    user.mkdir(parents=True)
    (user / "good_rule.py").write_text(GOOD_RULE)
    assert default_plugin_dirs() == [user, ROOT / "plugins"]
    reg = load_registry(entry_points=False, defaults=True)
    assert reg.errors == []
    assert reg.house_rules["good_rule"][1].source == str(user / "good_rule.py")
    assert {"five_card_frap", "pam", "good_rule"} <= set(reg.house_rules)


def test_default_dir_named_again_is_loaded_once(monkeypatch):
    monkeypatch.delenv("FRAPNET_PLUGINS_DIR", raising=False)
    reg = load_registry([ROOT / "plugins", str(ROOT / "plugins") + "/"], entry_points=False, defaults=True)
    assert reg.errors == []
    assert {"five_card_frap", "pam"} <= set(reg.house_rules)
    assert [p.name for p in reg.plugins].count("example_pam") == 1


def test_cli_without_flags_lists_checkout_house_rules():
    """The built-in five-card Frap (F26) and the checkout's example Pam (F21), without flags."""
    env = {k: v for k, v in os.environ.items() if k != "FRAPNET_PLUGINS_DIR"}
    p = subprocess.run([sys.executable, "-m", "frapnet", "games", "--json"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    rules = {h["name"]: h for h in json.loads(p.stdout)["house_rules"]}
    assert rules["five_card_frap"]["games"] == ["frap"] and rules["five_card_frap"]["rule"] == "F26"
    assert rules["pam"]["games"] == ["frap"]


# --- the commands ---------------------------------------------------------------------------------

def test_frapnet_plugins_reports_each_broken_plugin(broken_dir):
    p = frapnet("plugins", "--plugins-dir", broken_dir)
    assert p.returncode == 1
    out = p.stdout
    blocks = {b.split()[0]: b for b in out.split("\n\n") if b.strip()}
    assert "NOT LOADED" in blocks["syntax_error"] and "SyntaxError" in blocks["syntax_error"]
    assert f"from:   {broken_dir / 'syntax_error.py'}" in blocks["syntax_error"]
    assert "game name 'frap' is already taken by plugin 'frap' (builtin)" in blocks["dup_game"]
    assert "written for frapnet plugin API 2" in blocks["future_api"]
    assert "NOT LOADED" not in blocks["good_rule"] and "house rules: good_rule" in blocks["good_rule"]
    assert "hooks:  register_house_rules" in blocks["good_rule"]
    assert blocks["frap"].startswith("frap ") and "hooks:  action_label, apply_action, deal," in blocks["frap"]
    assert re.search(r"6 plugin\(s\) not loaded: .*syntax_error", out)


def test_frapnet_plugins_json(broken_dir):
    p = frapnet("plugins", "--json", "--plugins-dir", broken_dir)
    rep = json.loads(p.stdout)
    assert rep["api_version"] == hookspecs.API_VERSION
    frap = rep["plugins"][0]
    assert frap["name"] == "frap" and frap["source"] == "builtin" and frap["api"] == 1
    assert "frapnet_trick_winner" in frap["hooks"] and frap["games"] == ["frap"]
    good = [x for x in rep["plugins"] if x["name"] == "good_rule"][0]
    assert good["version"] == "0.3" and good["loaded"] and "error" not in good
    assert {e["name"] for e in rep["errors"]} >= {"syntax_error", "dup_game", "future_api"}


def test_frapnet_plugins_all_loaded_exits_0():
    p = frapnet("plugins", "--plugins-dir", ROOT / "plugins")
    assert p.returncode == 0, p.stdout
    assert "five_card_frap 1.0\n  from:   builtin" in p.stdout and "example_pam 1.0" in p.stdout
    assert "all loaded" in p.stdout


def test_frapnet_games_with_broken_plugins(broken_dir):
    p = frapnet("games", "--json", "--plugins-dir", broken_dir)
    assert p.returncode == 0
    rep = json.loads(p.stdout)
    games = {g["name"]: g for g in rep["games"]}
    assert "half_game" not in games
    frap = games["frap"]
    assert frap["players"] == [2, 12] and frap["plugin"] == "frap"
    assert frap["house_rules"] == ["five_card_frap", "good_rule"]  # the built-in F26 and the dir's rule
    opts = {o["name"]: o for o in frap["options"]}
    assert opts["deck"]["default"] == "auto" and opts["deck"]["choices"] == ["auto", 32, 36, 52]
    assert opts["ante"]["default"] == 100 and opts["ante"]["rule"] == "F5"
    assert "divisible by 4" in opts["ante"]["allowed"]
    assert opts["cut_in"]["default"] is True and opts["revoke"]["choices"] == ["refuse", "penalize"]
    assert rep["house_rules"][1] == {"name": "good_rule", "games": ["frap"], "rule": "F21", "summary": "a harmless rule",
                                     "plugin": "good_rule", "version": "0.3"}
    assert [h["name"] for h in rep["house_rules"]] == ["five_card_frap", "good_rule"]
    assert {e["name"] for e in rep["not_loaded"]} == {"syntax_error", "dup_game", "future_api", "misspelt",
                                                       "raises", "half_game"}
    t = frapnet("games", "--plugins-dir", broken_dir)
    assert t.returncode == 0
    assert "frap — Frap, 2–12 players" in t.stdout
    assert "    ante = 100  [F5] allowed: a positive whole number of chips divisible by 4" in t.stdout
    assert "    deck = auto  [F2] allowed: auto, 32, 36, 52" in t.stdout
    assert "  good_rule [F21] — for frap" in t.stdout
    assert "not loaded (see `frapnet plugins`): " in t.stdout and "dup_game: game name 'frap'" in t.stdout


@pytest.mark.shared
def test_replay_of_a_frap_case_works_beside_broken_plugins(broken_dir, tmp_path):
    case = json.loads((CASES / "frap-s0-worked-example.json").read_text())
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(case["record"]))
    p = frapnet("replay", f, "--json", "--plugins-dir", broken_dir)
    assert p.returncode == 0, p.stdout + p.stderr
    matches(case["expect"], json.loads(p.stdout))
    assert json.loads(p.stdout)["balances"] == [-500, -800, 100, 0]  # F24 worked example


# --- what a joining player is shown (F27) -------------------------------------------------------------

def test_describe_table_lists_every_active_plugin_and_option():
    reg = load_registry([ROOT / "plugins"], entry_points=False)
    desc = reg.describe_table("frap", ["five_card_frap", "pam"], {"ante": 200, "cut_in": False})
    assert desc["game"]["name"] == "frap" and desc["game"]["plugin"] == "frap"
    assert [p["name"] for p in desc["plugins"]] == ["frap", "five_card_frap", "example_pam"]
    assert [h["name"] for h in desc["house_rules"]] == ["five_card_frap", "pam"]
    assert desc["house_rules"][0]["rule"] == "F26" and desc["house_rules"][0]["version"] == "1.0"
    vals = {o["name"]: o["value"] for o in desc["options"]}
    assert vals == {"deck": "auto", "ante": 200, "cut_in": False, "graded_remise": False, "revoke": "refuse"}
    assert "Option ante = 200 (default 100) [F5]: chips each player pays into an empty pot" in desc["lines"]
    assert any(line.startswith("House rule five_card_frap [F26] (plugin five_card_frap 1.0):") for line in desc["lines"])
    with pytest.raises(PluginError, match="unknown house rule 'nope'"):
        reg.describe_table("frap", ["nope"])


def test_docs_describe_every_hook():
    """docs/plugins.md has a section, with arguments and an example, for every hook in hookspecs."""
    text = (ROOT / "docs" / "plugins.md").read_text()
    hooks = [n for n in dir(hookspecs) if n.startswith("frapnet_")]
    assert len(hooks) >= 14
    for h in hooks:
        assert f"### `{h}(" in text, h


# --- the example house rule: Pam (plugins/example_pam.py) --------------------------------------------

@pytest.fixture(scope="module")
def pam_reg():
    reg = load_registry([ROOT / "plugins"], entry_points=False)
    assert reg.plugin("example_pam").hooks == ["frapnet_register_house_rules", "frapnet_trick_winner"]
    return reg


def frap_deck(n, dealer, hands, turn_up, size=32):
    """F8: ``hands[s]`` (four cards) to seat s, then the turn-up, then the rest of the pack."""
    deck = [None] * (4 * n)
    for s in range(n):
        for j, c in enumerate(hands[s]):
            deck[j * n + (s - dealer - 1) % n] = c
    used = [c for h in hands for c in h] + [turn_up]
    return deck + [turn_up] + [c for c in make_pack(size) if c not in used]


# Trump ♠. Seat 1 fraps, 2 and 0 whist, everyone stands pat; seat 1 leads A♠.
PAM_HANDS = [["AD", "9H", "9D", "KC"], ["AS", "KS", "7H", "7D"], ["JC", "8H", "8D", "9C"]]


def pam_table(reg, house_rules):
    st = engine.new_match("frap", 3, {"ante": 100}, house_rules, reg)
    st, _ = engine.start_deal(st, frap_deck(3, 0, PAM_HANDS, "8S"), dealer=0)
    for seat, a in ((1, ("frap",)), (2, ("whist",)), (0, ("whist",)), (1, ("buy", [])), (2, ("buy", [])),
                    (0, ("buy", []))):
        st, _ = engine.apply(st, seat, a)
    return st


def test_pam_jack_of_clubs_wins_the_trick_F21(pam_reg):
    """With Pam, J♣ discarded on a trump lead wins it; without, A♠ wins (F21)."""
    for house_rules, winner in (((), 1), (("pam",), 2)):
        st = pam_table(pam_reg, house_rules)
        st, _ = engine.apply(st, 1, ("play", "AS"))
        st, _ = engine.apply(st, 2, ("play", "JC"))   # void in ♠, no trump: any card (F20)
        st, ev = engine.apply(st, 0, ("play", "KC"))
        trick = [e for e in ev if e["type"] == "trick"][0]
        assert trick["winner"] == winner, house_rules
        assert st.deal.tricks[winner] == 1 and trick["amount"] == 75  # F23: P/4 of 300


def test_pam_defers_to_frap_without_the_jack_F21(pam_reg):
    st = pam_table(pam_reg, ("pam",))
    st, _ = engine.apply(st, 1, ("play", "AS"))
    st, _ = engine.apply(st, 2, ("play", "8D"))
    st, ev = engine.apply(st, 0, ("play", "9D"))
    assert [e for e in ev if e["type"] == "trick"][0]["winner"] == 1  # the highest trump (F21)


def test_pam_still_follows_as_a_club_F20(pam_reg):
    st = pam_table(pam_reg, ("pam",))
    st, _ = engine.apply(st, 1, ("play", "7H"))
    assert engine.legal_actions(st, 2) == [("play", "8H")]  # must follow ♥: J♣ is not playable
    with pytest.raises(RuleError) as e:
        engine.apply(st, 2, ("play", "JC"))
    assert e.value.rule == "F20"


def test_pam_is_active_only_at_tables_that_list_it_and_replays(pam_reg):
    st = pam_table(pam_reg, ("pam",))
    for seat, card in ((1, "AS"), (2, "JC"), (0, "KC")):
        st, _ = engine.apply(st, seat, ("play", card))
    rec = engine.record(st)
    assert rec["house_rules"] == ["pam"]
    res = record.replay_json(rec, pam_reg)
    assert res["ok"] and res["deals"][0]["tricks"] == [0, 0, 1] and res["balances"] == [-100, -100, -25]
    rec["house_rules"] = []
    assert record.replay_json(rec, pam_reg)["deals"][0]["tricks"] == [0, 1, 0]
