"""Plugin loading and per-table plugin managers.

Loading order (issue #5): the built-in plugins (Frap), then every installed distribution's
entry points in the group ``frapnet``, then every ``*.py`` in each ``--plugins-dir``. Each
plugin is loaded on its own: one that fails to import, targets another API major version, or
claims a game or house-rule name already taken is reported (name and reason) and skipped;
every other plugin still loads.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

import pluggy

from frapnet import hookspecs
from frapnet.engine.spec import GameSpec, HouseRuleSpec
from frapnet.errors import PluginError

ENTRY_POINT_GROUP = "frapnet"
BUILTIN_PLUGINS = ("frapnet.games.frap",)


@dataclass
class PluginInfo:
    """One plugin as `frapnet plugins` lists it."""

    name: str
    version: str
    source: str                      # "builtin", "entry point <dist>", or a file path
    hooks: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    house_rules: list[str] = field(default_factory=list)
    error: str | None = None
    obj: Any = None

    def describe(self) -> dict:
        d = {"name": self.name, "version": self.version, "source": self.source, "hooks": self.hooks,
             "games": self.games, "house_rules": self.house_rules}
        if self.error:
            d["error"] = self.error
        return d


def _hook_names(obj: Any) -> list[str]:
    return sorted(n for n in dir(obj) if n.startswith("frapnet_") and callable(getattr(obj, n, None)))


class Registry:
    """Every loaded plugin, and the games and house rules they provide."""

    def __init__(self) -> None:
        self.plugins: list[PluginInfo] = []
        self.games: dict[str, tuple[GameSpec, PluginInfo]] = {}
        self.house_rules: dict[str, tuple[HouseRuleSpec, PluginInfo]] = {}

    @property
    def errors(self) -> list[PluginInfo]:
        return [p for p in self.plugins if p.error]

    def add(self, obj: Any, name: str, version: str, source: str) -> PluginInfo:
        """Register one plugin object (module or instance); problems go into ``info.error``."""
        info = PluginInfo(name=name, version=version, source=source, obj=obj, hooks=_hook_names(obj))
        self.plugins.append(info)
        api = getattr(obj, "FRAPNET_API", hookspecs.API_MAJOR)
        if api != hookspecs.API_MAJOR:
            info.error = (f"written for frapnet plugin API {api}, this frapnet has API "
                          f"{hookspecs.API_VERSION} (major {hookspecs.API_MAJOR}); not loaded")
            return info
        pm = pluggy.PluginManager("frapnet")
        pm.add_hookspecs(hookspecs)
        try:
            pm.register(obj, name=name)
            pm.check_pending()
        except Exception as exc:  # a misspelt hook, a wrong signature
            info.error = f"invalid hook implementation: {exc}"
            return info
        games: list[GameSpec] = []
        rules: list[HouseRuleSpec] = []
        try:
            pm.hook.frapnet_register_games(register=games.append)
            pm.hook.frapnet_register_house_rules(register=rules.append)
        except Exception as exc:
            info.error = f"registration failed: {exc!r}"
            return info
        for g in games:
            if g.name in self.games:
                other = self.games[g.name][1]
                info.error = f"game name {g.name!r} is already taken by plugin {other.name!r} ({other.source}); not loaded"
                return info
        for r in rules:
            if r.name in self.house_rules:
                other = self.house_rules[r.name][1]
                info.error = f"house rule {r.name!r} is already taken by plugin {other.name!r} ({other.source}); not loaded"
                return info
        for g in games:
            self.games[g.name] = (g, info)
            info.games.append(g.name)
        for r in rules:
            self.house_rules[r.name] = (r, info)
            info.house_rules.append(r.name)
        return info

    def fail(self, name: str, version: str, source: str, error: str) -> None:
        self.plugins.append(PluginInfo(name=name, version=version, source=source, error=error))

    def game(self, name: str) -> GameSpec:
        try:
            return self.games[name][0]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise PluginError(f"unknown game {name!r} (installed: {known})") from None

    def plugin_manager(self, game: str, house_rules: Iterable[str] = ()) -> pluggy.PluginManager:
        """A fresh plugin manager for one table: its game's plugin, then its house rules.

        Raises PluginError for an unknown game or house rule, or a house rule made for
        another game.
        """
        spec, info = self.games.get(game, (None, None))
        if spec is None:
            self.game(game)  # raises with the list of games
        pm = pluggy.PluginManager("frapnet")
        pm.add_hookspecs(hookspecs)
        pm.register(info.obj, name=info.name)
        for hr in house_rules:
            if hr not in self.house_rules:
                known = ", ".join(sorted(self.house_rules)) or "none"
                raise PluginError(f"unknown house rule {hr!r} (installed: {known})")
            hspec, hinfo = self.house_rules[hr]
            if game not in hspec.games:
                raise PluginError(f"house rule {hr!r} is for {', '.join(hspec.games)}, not {game!r}")
            if pm.is_registered(hinfo.obj):
                continue
            pm.register(hinfo.obj, name=hinfo.name)
        return pm


def _module_version(mod: Any, default: str) -> str:
    return str(getattr(mod, "__version__", None) or default)


def _load_file(path: Path) -> Any:
    modname = f"frapnet_plugin_{path.stem}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        sys.modules.pop(modname, None)
        raise
    return mod


def _short_error(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


def load_registry(plugins_dirs: Iterable[str | Path] = (), entry_points: bool = True) -> Registry:
    """Load every plugin (built-ins, entry points, plugin dirs) into a new Registry."""
    from frapnet import __version__

    reg = Registry()
    for modname in BUILTIN_PLUGINS:
        mod = importlib.import_module(modname)
        reg.add(mod, getattr(mod, "PLUGIN_NAME", modname.rsplit(".", 1)[-1]), __version__, "builtin")
    if entry_points:
        for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            dist = getattr(ep, "dist", None)
            dname = dist.metadata["Name"] if dist is not None else "?"
            dver = dist.version if dist is not None else "?"
            source = f"entry point {ep.value} (distribution {dname})"
            if any(p.name == ep.name and p.source == source for p in reg.plugins):
                continue  # the same distribution seen twice on sys.path
            try:
                obj = ep.load()
            except BaseException as exc:  # noqa: BLE001 - a plugin may raise anything
                reg.fail(ep.name, dver, source, f"failed to import: {_short_error(exc)}")
                continue
            reg.add(obj, ep.name, dver, source)
    for d in plugins_dirs:
        p = Path(d)
        if not p.is_dir():
            reg.fail(str(p), "-", str(p), "plugins dir does not exist or is not a directory")
            continue
        for f in sorted(p.glob("*.py")):
            if f.name.startswith("_"):
                continue
            try:
                mod = _load_file(f)
            except BaseException as exc:  # noqa: BLE001
                reg.fail(f.stem, "-", str(f), f"failed to import: {_short_error(exc)}")
                continue
            reg.add(mod, getattr(mod, "PLUGIN_NAME", f.stem), _module_version(mod, "-"), str(f))
    return reg


_default: dict[tuple, Registry] = {}


def default_registry(plugins_dirs: Iterable[str | Path] = ()) -> Registry:
    """The process-wide registry for these plugin dirs (loaded once, then cached)."""
    key = tuple(str(Path(d).resolve()) for d in plugins_dirs)
    reg = _default.get(key)
    if reg is None:
        reg = _default[key] = load_registry(key)
    return reg


class Rules:
    """One table's hook callers with positional call signatures (the engine's hot path).

    Where a hook has exactly one plain implementation (the common case), its function is
    called directly; otherwise through pluggy, so house rules and wrappers work as usual.
    """

    _HOOKS = ("validate_options", "pack", "deal", "legal_actions", "apply_action", "trick_winner",
              "settle", "deal_report", "match_report", "view", "action_label", "describe_event")
    _ARGS = {
        "validate_options": ("spec", "players", "options"), "pack": ("state",),
        "deal": ("state", "deck", "dealer"), "legal_actions": ("state", "seat"),
        "apply_action": ("state", "seat", "action"), "trick_winner": ("state", "trick"),
        "settle": ("state",), "deal_report": ("state",), "match_report": ("state",),
        "view": ("state", "seat", "lang"), "action_label": ("state", "seat", "action", "lang"),
        "describe_event": ("state", "event", "names", "lang"),
    }

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        for name in self._HOOKS:
            setattr(self, name, self._caller(name))

    def _caller(self, name: str):
        caller = getattr(self.pm.hook, "frapnet_" + name)
        args = self._ARGS[name]
        impls = caller.get_hookimpls()
        if len(impls) == 1 and not (impls[0].hookwrapper or getattr(impls[0], "wrapper", False)) \
                and tuple(impls[0].argnames) == args:
            return impls[0].function

        def call(*values, _caller=caller, _args=args):
            return _caller(**dict(zip(_args, values)))
        return call
