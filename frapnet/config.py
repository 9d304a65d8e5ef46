"""The user's config file (issue #10): defaults for the commands, in TOML (read with tomllib).

The file is :func:`frapnet.paths.config_file` — ``~/.config/frapnet/config.toml`` on Linux, or
``$FRAPNET_CONFIG``. It is optional; every key is optional::

    name = "Olga"               # your name at a table (play, join, host --play)
    language = "ru"             # "en" or "ru" (play, join, host --play)
    level = "basic"             # computer players: "random", "basic" or "expert" (play, host, bot)

    [table]                     # the table `frapnet play` and `frapnet host` open by default
    game = "frap"
    players = 5                 # seats, yours included (2…12 for Frap)
    deals = 10                  # end the match after this many deals
    house_rules = ["five_card_frap"]

    [options.frap]              # table options per game, as --option KEY=VALUE
    ante = 200
    cut_in = false

A command-line flag always wins over the file. A file that is not valid TOML, an unknown key,
or a value of the wrong kind raises :class:`ConfigError`, whose message names the file and the
key (``…/config.toml: language: must be "en" or "ru", not "de"``); a table option the game
refuses is named with its rule by the command that opens the table (:func:`check_options`).
No Twisted, prompt_toolkit or network imports.
"""
from __future__ import annotations

import datetime
import os
import sys

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from frapnet import paths
from frapnet.errors import MAX_INT_DIGITS, FrapnetError, shown, too_large

LANGUAGES = ("en", "ru")
LEVELS = ("random", "basic", "expert")  # frapnet.bots.levels
MAX_CONFIG_BYTES = 1 << 20  # a config file is a few lines; refuse anything past 1 MB


class ConfigError(FrapnetError):
    """A config file that cannot be used; ``str()`` names the file and the key."""

    def __init__(self, path: Path, key: str | None, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        super().__init__(f"{path}: {key}: {problem}" if key else f"{path}: {problem}")


@dataclass(frozen=True)
class Config:
    """The file's settings; None (or empty) where the file says nothing.

    ``players`` and ``deals`` are whole numbers ≥ 1 (``players`` ≥ 2); ``options`` maps a game's
    name to its table options (``{"frap": {"ante": 200}}``); ``path`` is the file read (None when
    there was none)."""

    name: str | None = None
    language: str | None = None
    level: str | None = None
    game: str | None = None
    players: int | None = None
    deals: int | None = None
    house_rules: tuple[str, ...] = ()
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Path | None = None

    def options_for(self, game: str) -> dict[str, Any]:
        """The file's table options for ``game`` (a new dict; empty if none)."""
        return dict(self.options.get(game, {}))


def _text(path: Path, key: str, value: Any, choices: tuple[str, ...] | None = None, limit: int = 64) -> str:
    if not isinstance(value, str):
        raise ConfigError(path, key, f"must be a string, not {_kind(value)}")
    if choices is not None and value not in choices:
        raise ConfigError(path, key, "must be " + " or ".join(f'"{c}"' for c in choices) + ", not "
                          + (f'"{value}"' if value.isprintable() and len(value) <= 64 else shown(value)))
    if not value.strip() or len(value) > limit or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ConfigError(path, key, f"must be 1…{limit} printable characters, not {value!r}")
    return value


def _count(path: Path, key: str, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(path, key, f"must be a whole number, not {_kind(value)}")
    _not_too_large(path, key, value)
    if value < least:
        raise ConfigError(path, key, f"must be at least {least}, not {shown(value)}")
    return value


def _not_too_large(path: Path, key: str, value: Any) -> None:
    """A whole number of over :data:`frapnet.errors.MAX_INT_DIGITS` digits: the host would send it
    to every player, and the protocol carries no more (issue #9)."""
    big = too_large(value, MAX_INT_DIGITS)
    if big:
        raise ConfigError(path, key, big)


def _kind(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def _unknown(path: Path, where: str, got: dict, known: tuple[str, ...]) -> None:
    for k in got:
        if k not in known:
            k = k if k.isprintable() and len(k) <= 64 else shown(k)  # the file's text, escaped for a terminal
            key = f"{where}.{k}" if where else k
            raise ConfigError(path, key, f"unknown key (known here: {', '.join(known)})")


def parse(text: str, path: Path) -> Config:
    """The Config in ``text`` (the contents of ``path``, which is only named in errors).
    Raises ConfigError naming the key for anything it cannot use."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, None, f"not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses per nested array or inline table (issue #9)
        raise ConfigError(path, None, "not valid TOML: values nested too deeply") from None
    except ValueError:  # an integer past Python's int() limit (4300 digits unless lifted)
        raise ConfigError(path, None, f"not valid TOML here: an integer of over {sys.get_int_max_str_digits()} "
                                      f"digits (limit {MAX_INT_DIGITS})") from None
    _unknown(path, "", data, ("name", "language", "level", "table", "options"))
    out: dict[str, Any] = {"path": path}
    if "name" in data:  # its length and characters: the host's rule for names, checked by the command
        if not isinstance(data["name"], str):  # (frapnet.commands._options.name_error; docs/protocol.md hello)
            raise ConfigError(path, "name", f"must be a string, not {_kind(data['name'])}")
        out["name"] = data["name"]
    if "language" in data:
        out["language"] = _text(path, "language", data["language"], LANGUAGES)
    if "level" in data:
        out["level"] = _text(path, "level", data["level"], LEVELS)
    table = data.get("table", {})
    if not isinstance(table, dict):
        raise ConfigError(path, "table", f"must be a table ([table]), not {_kind(table)}")
    _unknown(path, "table", table, ("game", "players", "deals", "house_rules"))
    if "game" in table:
        out["game"] = _text(path, "table.game", table["game"])
    if "players" in table:
        out["players"] = _count(path, "table.players", table["players"], 2)
    if "deals" in table:
        out["deals"] = _count(path, "table.deals", table["deals"], 1)
    if "house_rules" in table:
        hr = table["house_rules"]
        if not isinstance(hr, list):
            raise ConfigError(path, "table.house_rules", f"must be a list of names, not {_kind(hr)}")
        out["house_rules"] = tuple(_text(path, f"table.house_rules[{i}]", h) for i, h in enumerate(hr))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ConfigError(path, "options", f"must be a table ([options.GAME]), not {_kind(options)}")
    out["options"] = {}
    for game, opts in options.items():
        if not isinstance(opts, dict):
            raise ConfigError(path, f"options.{game}", f"must be a table of options ([options.{game}]), "
                                                        f"not {_kind(opts)}")
        for key, value in opts.items():
            if isinstance(value, (datetime.date, datetime.time)):  # TOML's own dates and times: no option is one
                raise ConfigError(path, f"options.{game}.{key}", f"a table option is a number, true/false, text or "
                                  f"a list, not a TOML date or time ({value.isoformat()})")
            _not_too_large(path, f"options.{game}.{key}", value)
        out["options"][game] = dict(opts)
    return Config(**out)


def load(path: Path | None = None) -> Config:
    """Read the config file (default :func:`frapnet.paths.config_file`). A missing default file
    is an empty Config; raises ConfigError for one that cannot be read or used — and for a file
    named by ``$FRAPNET_CONFIG`` (or ``path``) that does not exist: a mistyped name must not
    silently mean "no settings"."""
    named = path is not None or bool(os.environ.get(paths.CONFIG_ENV))
    path = paths.config_file() if path is None else Path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        if named:
            how = f"named by ${paths.CONFIG_ENV}" if path == paths.config_file() else "named"
            raise ConfigError(path, None, f"no such file (the config file {how}); "
                                          f"create it or correct the name") from None
        return Config()
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read it: {exc.strerror}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(path, None, f"larger than {MAX_CONFIG_BYTES} bytes; is it the right file?")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, None, f"not UTF-8 text (byte {exc.start})") from None
    return parse(text, path)


def check_options(cfg: Config, game: str, players: int, registry) -> None:
    """Check the file's ``[options.GAME]`` for a table of ``game`` with ``players`` seats (the
    game's own rules: F2, F5…), and that every ``[options.X]`` names an installed game (a typo,
    ``[options.frapp]``, would otherwise never apply). Raises ConfigError naming
    ``options.GAME`` and the rule, or ``options.X`` and the installed games."""
    from frapnet import engine
    from frapnet.errors import RuleError

    if cfg.path is not None:
        installed = registry.games
        for other in cfg.options:
            if other not in installed:
                raise ConfigError(cfg.path, f"options.{other}", f"no game {other!r} is installed (installed: "
                                  f"{', '.join(sorted(installed)) or 'none'})")
    opts = cfg.options_for(game)
    if not opts or cfg.path is None:
        return
    try:
        engine.new_match(game, players, opts, (), registry)
    except RuleError as exc:
        raise ConfigError(cfg.path, f"options.{game}", exc.describe()) from None


# argparse field ← config field, for the commands that open a table or sit at one
_ARG_FIELDS = (("name", "name"), ("lang", "language"), ("level", "level"), ("game", "game"),
               ("players", "players"), ("deals", "deals"))


def apply(cfg: Config, args, defaults: dict[str, Any], exclude: tuple[str, ...] = ()) -> set[str]:
    """Fill the fields of ``args`` (an argparse namespace) that the command line left None from
    the file, then from ``defaults`` (the command's own defaults, e.g. ``{"players": 4}``);
    ``house_rule`` (a list) takes the file's ``table.house_rules`` when empty. Only fields that
    ``args`` has, and that are not in ``exclude``, are touched (`frapnet host --name` is the
    table's name, not yours). Returns the config keys used (``{"table.players", "language"}``),
    so an error about such a value can name the file."""
    used = set()
    for attr, key in _ARG_FIELDS:
        if attr in exclude or not hasattr(args, attr) or getattr(args, attr) is not None:
            continue
        value = getattr(cfg, key)
        if value is not None:
            setattr(args, attr, value)
            used.add(("" if key in ("name", "language", "level") else "table.") + key)
        elif attr in defaults:
            setattr(args, attr, defaults[attr])
    if hasattr(args, "house_rule") and not args.house_rule and cfg.house_rules:
        args.house_rule = list(cfg.house_rules)
        used.add("table.house_rules")
    return used
