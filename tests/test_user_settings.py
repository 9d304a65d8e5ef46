"""The user's config file and the table password off the command line (issue #10 packaging).

The config file is TOML at frapnet.paths.config_file() (here: a temporary XDG_CONFIG_HOME); a bad
one is refused naming the file and the key. A password comes from --password TEXT, from
$FRAPNET_PASSWORD, or is asked for with --password - (a line of standard input when it is not a
terminal) — checked against a real host over loopback.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from frapnet import config, paths
from frapnet.commands._password import table_password
from frapnet.plugins import load_registry

FRAPNET = [sys.executable, "-m", "frapnet"]

GOOD = '''
name = "Olga"
language = "ru"
level = "random"

[table]
game = "frap"
players = 5
deals = 3
house_rules = ["five_card_frap"]

[options.frap]
ante = 200
cut_in = false
'''


@pytest.fixture
def cfg_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv(paths.CONFIG_ENV, raising=False)
    f = tmp_path / "frapnet" / "config.toml"
    f.parent.mkdir()
    return f


def test_a_full_config_file_is_read(cfg_home):
    cfg_home.write_text(GOOD)
    c = config.load()
    assert (c.name, c.language, c.level) == ("Olga", "ru", "random")
    assert (c.game, c.players, c.deals, c.house_rules) == ("frap", 5, 3, ("five_card_frap",))
    assert c.options_for("frap") == {"ante": 200, "cut_in": False} and c.options_for("napoleon") == {}
    assert c.path == cfg_home


def test_no_config_file_is_no_settings(cfg_home):
    c = config.load()
    assert c == config.Config() and c.path is None


@pytest.mark.parametrize("text, key, problem", [
    ('language = "de"', "language", 'must be "en" or "ru", not "de"'),
    ('level = "genius"', "level", 'must be "random" or "basic" or "expert", not "genius"'),
    ("name = 7", "name", "must be a string, not a number"),
    ('langauge = "ru"', "langauge", "unknown key (known here: name, language, level, table, options)"),
    ("[table]\nplayers = 1", "table.players", "must be at least 2, not 1"),
    ('[table]\ndeals = "ten"', "table.deals", "must be a whole number, not a string"),
    ("[table]\nseats = 4", "table.seats", "unknown key (known here: game, players, deals, house_rules)"),
    ('[table]\nhouse_rules = "five_card_frap"', "table.house_rules", "must be a list of names, not a string"),
    ("options = 3", "options", "must be a table ([options.GAME]), not a number"),
    ("[options.frap]\nante = 1979-05-27", "options.frap.ante",  # was "not datetime.date(1979, 5, 27)" (attack)
     "a table option is a number, true/false, text or a list, not a TOML date or time (1979-05-27)"),
    ("[options.frap]\nante = 07:32:00", "options.frap.ante",
     "a table option is a number, true/false, text or a list, not a TOML date or time (07:32:00)"),
])
def test_a_bad_value_names_the_file_and_the_key(cfg_home, text, key, problem):
    cfg_home.write_text(text)
    with pytest.raises(config.ConfigError) as e:
        config.load()
    assert str(e.value) == f"{cfg_home}: {key}: {problem}"
    assert e.value.key == key and e.value.path == cfg_home


def test_not_toml_names_the_file_and_the_line(cfg_home):
    cfg_home.write_text('name = "Olga"\nlanguage: ru\n')
    with pytest.raises(config.ConfigError) as e:
        config.load()
    assert str(e.value).startswith(f"{cfg_home}: not valid TOML: ") and "line 2" in str(e.value)


def test_table_options_are_checked_by_the_game_naming_the_rule(cfg_home):
    """F5: the ante must be divisible by 4; the config's [options.frap] is named with the rule."""
    cfg_home.write_text("[options.frap]\nante = 7\n")
    c = config.load()
    with pytest.raises(config.ConfigError) as e:
        config.check_options(c, "frap", 4, load_registry(entry_points=False))
    assert str(e.value).startswith(f"{cfg_home}: options.frap: rule F5: option 'ante' = 7")


def test_table_options_for_a_game_that_is_not_installed_are_refused(cfg_home):
    """Issue #9 attack: ``[options.nosuch]`` (a typo of a game's name) was accepted and never
    applied; now it is named, with the installed games — for any table the file opens."""
    cfg_home.write_text("[options.frap]\nante = 200\n[options.frapp]\nante = 400\n")
    c = config.load()
    with pytest.raises(config.ConfigError) as e:
        config.check_options(c, "frap", 4, load_registry(entry_points=False))  # Frap alone installed
    assert str(e.value) == f"{cfg_home}: options.frapp: no game 'frapp' is installed (installed: frap)"
    env = dict(os.environ, FRAPNET_CONFIG=str(cfg_home), FRAPNET_PLUGINS_DIR="")
    p = run_cmd(["host", "--no-announce", "--bind", "127.0.0.1", "--port", "0", "--game", "napoleon",
                 "--players", "4"], env)
    assert p.returncode == 2 and p.stderr.startswith(
        f"frapnet host: bad config file {cfg_home}: options.frapp: no game 'frapp' is installed (installed: "), p.stderr
    assert "frap, " in p.stderr and "napoleon" in p.stderr


def run_cmd(args, env, stdin=None, timeout=60):
    return subprocess.run([*FRAPNET, *args], capture_output=True, text=True, env=env, input=stdin, timeout=timeout)


def test_frapnet_play_refuses_a_bad_config_file_naming_file_and_key(tmp_path):
    f = tmp_path / "frapnet.toml"
    f.write_text('language = "fr"\n')
    env = dict(os.environ, FRAPNET_CONFIG=str(f), FRAPNET_PLUGINS_DIR="")
    p = run_cmd(["play"], env, stdin="")
    assert p.returncode == 2
    assert p.stderr == f'frapnet play: bad config file {f}: language: must be "en" or "ru", not "fr"\n'


def test_a_config_file_named_by_frapnet_config_that_does_not_exist_is_refused(tmp_path):
    """A mistyped FRAPNET_CONFIG must not silently mean "no settings" (bad config file: a clear
    error naming it, exit 2), while a missing default file still is (test above)."""
    f = tmp_path / "frapnet.tmol"
    env = dict(os.environ, FRAPNET_CONFIG=str(f), FRAPNET_PLUGINS_DIR="")
    p = run_cmd(["play"], env, stdin="")
    assert p.returncode == 2
    assert p.stderr == (f"frapnet play: bad config file {f}: no such file (the config file named by "
                        f"$FRAPNET_CONFIG); create it or correct the name\n")


@pytest.mark.parametrize("text", [
    "[options.frap]\nante = " + "[" * 5000 + "]" * 5000 + "\n",   # arrays in arrays
    "options = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",      # inline tables in inline tables
])
def test_a_config_file_nested_too_deep_is_a_clear_error_not_a_traceback_issue_9(tmp_path, text):
    """Issue #9 hostile input (a bad config file): TOML nested thousands deep made tomllib raise
    RecursionError — a Python traceback and exit 1 from `frapnet host`."""
    f = tmp_path / "deep.toml"
    f.write_text(text)
    env = dict(os.environ, FRAPNET_CONFIG=str(f), FRAPNET_PLUGINS_DIR="", XDG_DATA_HOME=str(tmp_path))
    p = run_cmd(["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce"], env, stdin="")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr == f"frapnet host: bad config file {f}: not valid TOML: values nested too deeply\n"


@pytest.mark.parametrize("text, problem", [
    ('level = "\\u001b[31mexpert"\n', """level: must be "random" or "basic" or "expert", not '\\x1b[31mexpert'"""),
    ('"\\u001b[2Jx" = 1\n', "'\\x1b[2Jx': unknown key (known here: name, language, level, table, options)"),
    ('[table]\n"\\u202eevil" = 1\n', "table.'\\u202eevil': unknown key"),
])
def test_a_config_files_text_is_escaped_in_its_error(tmp_path, text, problem):
    """Hostile input (a bad config file): a value or key holding ESC or a bidi override is quoted
    escaped in the error (it reached the terminal raw: ESC[2J cleared the screen)."""
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError) as e:
        config.parse(text, path)
    assert problem in str(e.value) and "\x1b" not in str(e.value) and "\u202e" not in str(e.value)


# --- passwords ------------------------------------------------------------------------------------

class FakeTTY(io.StringIO):
    def isatty(self):
        return False


def test_password_sources():
    env = {"FRAPNET_PASSWORD": "from-env"}
    assert table_password("given", environ=env) == "given"             # --password TEXT wins
    assert table_password(None, environ=env) == "from-env"             # the environment
    assert table_password(None, environ={}) is None                    # no password
    assert table_password(None, environ={"FRAPNET_PASSWORD": ""}) is None
    assert table_password("-", stdin=FakeTTY("s3cret\nrest\n"), environ=env) == "s3cret"  # a line of stdin
    assert table_password("-", stdin=FakeTTY("\n"), environ=env) is None
    with pytest.raises(ValueError, match="standard input ended"):
        table_password("-", stdin=FakeTTY(""), environ=env)


def test_bot_takes_the_password_from_the_environment_or_standard_input():
    base = {k: v for k, v in os.environ.items() if k != "FRAPNET_PASSWORD"}
    base["FRAPNET_PLUGINS_DIR"] = ""
    host = subprocess.Popen([*FRAPNET, "host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--pause", "0",
                             "--seed", "5", "--players", "3", "--bots", "1", "--deals", "1", "--password", "pw"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=base)
    try:
        first = host.stdout.readline()
        port = int(first.rsplit(":", 1)[1])
        target = f"127.0.0.1:{port}"
        wrong = run_cmd(["bot", target, "--name", "NoPw"], base)
        assert wrong.returncode == 1 and "the host refused: wrong or missing password" in wrong.stderr
        bots = [subprocess.Popen([*FRAPNET, "bot", target, "--name", "EnvBot"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=dict(base, FRAPNET_PASSWORD="pw")),
                subprocess.Popen([*FRAPNET, "bot", target, "--name", "AskBot", "--password", "-"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=base)]
        bots[1].stdin.write("pw\n")
        bots[1].stdin.flush()
        for b in bots:
            out, err = b.communicate(timeout=120)
            assert b.returncode == 0, err
            assert out.startswith("frapnet bot: ") and " at seat " in out
        host.wait(timeout=60)
        assert host.returncode == 0
    finally:
        for proc in [host, *locals().get("bots", [])]:
            if proc.poll() is None:
                proc.kill()
        host.stdout.close()


def test_the_documented_example_config_is_valid():
    """docs/hosting.md's example file reads without error and its options pass the games' rules."""
    import re

    text = (Path(__file__).resolve().parent.parent / "docs" / "hosting.md").read_text()
    example = re.search(r"## Your config file.*?```toml\n(.*?)```", text, re.S).group(1)
    c = config.parse(example, Path("example.toml"))
    assert c.name == "Olga" and c.options_for("napoleon") == {"stake": 20}
    from frapnet.plugins import default_registry
    reg = default_registry()
    config.check_options(c, "frap", c.players, reg)
    config.check_options(c, "napoleon", 3, reg)


def test_play_takes_its_table_from_the_config_file(tmp_path):
    """The file's [table] and [options.frap] reach `frapnet play`: a bad combination is named
    with the rule and where the settings came from (F1: 13 players)."""
    f = tmp_path / "c.toml"
    f.write_text("[table]\nplayers = 13\n")
    env = dict(os.environ, FRAPNET_CONFIG=str(f), FRAPNET_PLUGINS_DIR="")
    p = run_cmd(["play"], env, stdin="")
    assert p.returncode == 2
    assert p.stderr == f"frapnet play: rule F1: Frap is for 2–12 players, not 13 (settings from {f}: table.players)\n"
    p = run_cmd(["play", "--players", "4"], env, stdin="")  # the command line wins: now only the terminal is missing
    assert p.returncode == 2 and "needs a terminal" in p.stderr
    f.write_text('[table]\nhouse_rules = ["six_card_frap"]\n')
    p = run_cmd(["play"], env, stdin="")
    assert p.returncode == 2 and p.stderr.startswith("frapnet play: unknown house rule 'six_card_frap'")
    assert p.stderr.endswith(f"(settings from {f}: table.house_rules)\n")


def host_cmd(*extra):
    return [*FRAPNET, "host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--pause", "0", *extra]


def test_host_takes_its_table_from_the_config_file(tmp_path):
    """[table] players = 3, deals = 1 and [options.frap] ante = 200 reach `frapnet host`: a match
    of one deal at three seats whose record says ante 200 (F5) and whose chips add up (F6)."""
    f = tmp_path / "c.toml"
    f.write_text("level = 'random'\n[table]\nplayers = 3\ndeals = 1\n[options.frap]\nante = 200\n")
    rec = tmp_path / "r.json"
    env = dict(os.environ, FRAPNET_CONFIG=str(f), FRAPNET_PLUGINS_DIR="")
    p = subprocess.run(host_cmd("--bots", "3", "--seed", "2", "--record", str(rec)), capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout.strip().splitlines()[-1])
    assert len(result["balances"]) == 3 and result["deals"] == 1
    assert sum(result["balances"]) + result["pot"] == 0
    assert json.loads(rec.read_text())["options"]["ante"] == 200
    f.write_text("[options.frap]\nante = 7\n")
    p = subprocess.run(host_cmd("--bots", "3"), capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 2
    assert p.stderr == f"frapnet host: bad config file {f}: options.frap: rule F5: option 'ante' = 7: a positive " \
                       f"whole number of chips divisible by 4\n"


def test_host_password_from_the_environment():
    """FRAPNET_PASSWORD sets the table's password (the command line never shows it): a bot
    without it is refused, one with it plays the match out."""
    env = dict(os.environ, FRAPNET_PLUGINS_DIR="", FRAPNET_PASSWORD="s3cret")
    host = subprocess.Popen(host_cmd("--players", "2", "--bots", "1", "--deals", "1", "--seed", "3"),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        port = int(host.stdout.readline().rsplit(":", 1)[1])
        no_env = {k: v for k, v in env.items() if k != "FRAPNET_PASSWORD"}
        p = run_cmd(["bot", f"127.0.0.1:{port}"], no_env)
        assert p.returncode == 1 and "wrong or missing password" in p.stderr
        p = run_cmd(["bot", f"127.0.0.1:{port}", "--password", "s3cret"], no_env, timeout=120)
        assert p.returncode == 0, p.stderr
        host.wait(timeout=60)
        assert host.returncode == 0
    finally:
        if host.poll() is None:
            host.kill()
        host.stdout.close()


def test_resume_keeps_the_table_name(tmp_path):
    """Issue #10 item 7: `--resume` continues under the table's own name, not "frap at HOST",
    unless --name is given again."""
    rec = tmp_path / "friday.json"
    env = dict(os.environ, FRAPNET_PLUGINS_DIR="")
    first = subprocess.run(host_cmd("--name", "Friday Frap", "--players", "2", "--bots", "2", "--deals", "1",
                                    "--seed", "6", "--record", str(rec)), capture_output=True, text=True, env=env,
                           timeout=120)
    assert first.returncode == 0, first.stderr
    again = subprocess.run(host_cmd("--players", "2", "--bots", "2", "--deals", "2", "--seed", "6", "--record",
                                    str(rec), "--resume"), capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    lines = again.stdout.strip().splitlines()
    assert lines[0].startswith("frapnet: hosting table Friday Frap on 127.0.0.1:")
    assert json.loads(lines[-1])["table"] == "Friday Frap" and json.loads(lines[-1])["deals"] == 2
    renamed = subprocess.run(host_cmd("--players", "2", "--bots", "2", "--deals", "3", "--seed", "6", "--record",
                                      str(rec), "--resume", "--name", "Saturday"), capture_output=True, text=True,
                             env=env, timeout=120)
    assert renamed.returncode == 0, renamed.stderr
    assert renamed.stdout.startswith("frapnet: hosting table Saturday on ")
