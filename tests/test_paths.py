"""Per-user paths come from platformdirs, in one module (issue #10, frapnet/paths.py).

On Linux the XDG variables move every path; nothing is created until ensure_dir is called.
"""
from __future__ import annotations

import json
import os
import stat
import sys

import pytest

from frapnet import paths
from frapnet.tui import tokens

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG paths are the Linux layout")


@pytest.fixture
def xdg(monkeypatch, tmp_path):
    for var, sub in (("XDG_CONFIG_HOME", "cfg"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.delenv(paths.CONFIG_ENV, raising=False)
    return tmp_path


def test_every_path_follows_the_xdg_variables(xdg):
    assert paths.config_dir() == xdg / "cfg" / "frapnet"
    assert paths.config_file() == xdg / "cfg" / "frapnet" / "config.toml"
    assert paths.data_dir() == xdg / "data" / "frapnet"
    assert paths.plugins_dir() == xdg / "data" / "frapnet" / "plugins"
    assert paths.state_dir() == xdg / "state" / "frapnet"
    assert paths.tokens_file() == xdg / "state" / "frapnet" / "tokens.json"
    assert tokens.tokens_path() == paths.tokens_file()
    assert sorted(os.listdir(xdg)) == []  # computing a path creates nothing


def test_defaults_under_home(monkeypatch, tmp_path):
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", paths.CONFIG_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert paths.config_file() == tmp_path / ".config" / "frapnet" / "config.toml"
    assert paths.data_dir() == tmp_path / ".local" / "share" / "frapnet"
    assert paths.tokens_file() == tmp_path / ".local" / "state" / "frapnet" / "tokens.json"


def test_frapnet_config_names_another_file(xdg, monkeypatch):
    monkeypatch.setenv(paths.CONFIG_ENV, str(xdg / "elsewhere.toml"))
    assert paths.config_file() == xdg / "elsewhere.toml"
    monkeypatch.setenv(paths.CONFIG_ENV, "")  # empty: the default file
    assert paths.config_file() == xdg / "cfg" / "frapnet" / "config.toml"


def test_ensure_dir_makes_a_private_folder(xdg):
    d = paths.ensure_dir(paths.data_dir() / "journal")
    assert d.is_dir() and d == xdg / "data" / "frapnet" / "journal"
    assert stat.S_IMODE(d.stat().st_mode) & 0o077 == 0
    assert paths.ensure_dir(d) == d  # already there: fine


def test_seat_tokens_are_saved_under_the_state_dir(xdg):
    tokens.save_token("127.0.0.1", 7777, "tok-0123456789abcdef", name="Friday")
    f = xdg / "state" / "frapnet" / "tokens.json"
    assert f.is_file() and stat.S_IMODE(f.stat().st_mode) == 0o600
    assert tokens.load_token("127.0.0.1", 7777) == "tok-0123456789abcdef"


def test_two_players_joining_one_table_from_one_account_keep_their_own_tokens(xdg):
    """Two terminals of one account at one table (Olga and Ivan): each name gets back its own
    seat token, never the other's; a name that never sat there gets none; forgetting one keeps
    the other; an older file's nameless entry is still used, and replaced by a named one."""
    tokens.save_token("127.0.0.1", 7777, "tok-ivan-0123456789ab", name="Friday", seat=0, player="Ivan")
    tokens.save_token("127.0.0.1", 7777, "tok-olga-0123456789ab", name="Friday", seat=1, player="Olga")
    assert tokens.load_token("127.0.0.1", 7777, player="Ivan") == "tok-ivan-0123456789ab"
    assert tokens.load_token("127.0.0.1", 7777, player="Olga") == "tok-olga-0123456789ab"
    assert tokens.load_token("127.0.0.1", 7777, player="Pyotr") is None
    assert tokens.load_token("127.0.0.1", 7778, player="Ivan") is None
    tokens.forget_token("127.0.0.1", 7777, player="Ivan")
    assert tokens.load_token("127.0.0.1", 7777, player="Ivan") is None
    assert tokens.load_token("127.0.0.1", 7777, player="Olga") == "tok-olga-0123456789ab"
    f = xdg / "state" / "frapnet" / "tokens.json"
    f.write_text(json.dumps({"127.0.0.1:7777/": {"token": "tok-old-0123456789abc", "table": "Friday", "seat": 2,
                                                 "saved": 1}}))
    assert tokens.load_token("127.0.0.1", 7777, player="Ivan") == "tok-old-0123456789abc"
    tokens.save_token("127.0.0.1", 7777, "tok-ivan-0123456789ab", player="Ivan")
    assert json.loads(f.read_text()) == {"127.0.0.1:7777/": {"Ivan": {
        "token": "tok-ivan-0123456789ab", "table": "", "seat": None, "saved": json.loads(f.read_text())[
            "127.0.0.1:7777/"]["Ivan"]["saved"]}}}
    assert tokens.load_token("127.0.0.1", 7777, player="Olga") is None  # the old entry went with it


def test_at_most_max_entries_tokens_are_kept_the_oldest_go_first(xdg, monkeypatch):
    monkeypatch.setattr(tokens, "MAX_ENTRIES", 3)
    clock = iter(range(100, 200))
    monkeypatch.setattr(tokens.time, "time", lambda: next(clock))
    for i, who in enumerate(("A", "B", "C", "D")):
        tokens.save_token("127.0.0.1", 7000 + i % 2, f"tok-{who}-0123456789abcdef", player=who)
    assert tokens.load_token("127.0.0.1", 7000, player="A") is None  # the oldest
    assert [tokens.load_token("127.0.0.1", 7000 + i % 2, player=w) for i, w in enumerate("ABCD")][1:] == \
        [f"tok-{w}-0123456789abcdef" for w in "BCD"]


def test_a_seat_tokens_file_nested_too_deep_is_no_tokens_not_a_traceback_issue_9(xdg):
    """Issue #9 hostile input (a bad file): a tokens.json of arrays nested 100,000 deep made
    json raise RecursionError out of `frapnet join` (a traceback); a damaged file is no saved
    tokens, and saving a new one replaces it."""
    f = xdg / "state" / "frapnet" / "tokens.json"
    f.parent.mkdir(parents=True)
    f.write_text("[" * 100_000 + "]" * 100_000)
    assert tokens.load_token("127.0.0.1", 7777) is None
    tokens.save_token("127.0.0.1", 7777, "tok-0123456789abcdef", name="Friday")
    assert tokens.load_token("127.0.0.1", 7777) == "tok-0123456789abcdef"
