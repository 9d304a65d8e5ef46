"""Plugin loading and per-table plugin managers.

Loading order (issue #5): the built-in plugins (Frap, and the house rules of
:mod:`frapnet.house_rules`: five-card Frap), then every installed distribution's
entry points in the group ``frapnet``, then every ``*.py`` in each plugins dir. Each plugin is
loaded on its own: one that fails to import, targets another API major version, has an invalid
hook, or claims a plugin, game or house-rule name already taken is reported (name, where it came
from, and the reason) and skipped — none of its games or house rules is offered, so a table never
runs a half-loaded game — and every other plugin still loads.

Plugins dirs: the ``--plugins-dir DIR`` options (repeatable), after the default dirs given by
:func:`default_plugin_dirs` — ``$FRAPNET_PLUGINS_DIR`` (a list separated by ``os.pathsep``; set
it empty to load none), or else the user's own plugins dir (:func:`frapnet.paths.plugins_dir`,
when it exists) and, when frapnet runs from a source checkout, the checkout's ``plugins/`` folder
(the example house rule ``pam`` of docs/plugins.md). A dir named twice is loaded once.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

import pluggy

from frapnet import hookspecs
from frapnet.engine import rules as _engine_rules
from frapnet.engine.rules import TRACE_ENV, Rules, trace_plugins  # noqa: F401 - the plugin API's names
from frapnet.engine.spec import GameSpec, HouseRuleSpec
from frapnet.errors import PluginError

ENTRY_POINT_GROUP = "frapnet"
# shipped with frapnet: the game Frap, and the house rules in frapnet/house_rules/
BUILTIN_PLUGINS = ("frapnet.games.frap", "frapnet.house_rules.five_card_frap")
PLUGINS_DIR_ENV = "FRAPNET_PLUGINS_DIR"


@dataclass
class PluginInfo:
    """One plugin as `frapnet plugins` lists it.

    ``source`` is ``"builtin"``, ``"entry point MODULE (distribution DIST)"`` or the file's
    path; ``api`` the major version the plugin declares (``FRAPNET_API``; None if it declares
    none, which is taken as the current major); ``hooks`` the hooks it implements;
    ``error`` why it was not loaded (None when loaded); ``warnings`` problems that did not stop
    it loading (e.g. a ``frapnet_*`` function without ``@hookimpl``, which pluggy ignores).
    """

    name: str
    version: str
    source: str
    hooks: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    house_rules: list[str] = field(default_factory=list)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    api: int | None = None
    obj: Any = None

    @property
    def loaded(self) -> bool:
        return self.error is None

    def describe(self) -> dict:
        """Plain dict for ``frapnet plugins --json`` (``error`` only when not loaded)."""
        d = {"name": self.name, "version": self.version, "source": self.source, "loaded": self.loaded,
             "api": self.api, "hooks": self.hooks, "games": self.games, "house_rules": self.house_rules}
        if self.warnings:
            d["warnings"] = list(self.warnings)
        if self.error:
            d["error"] = self.error
        return d


def _unmarked_hooks(obj: Any) -> list[str]:
    """``frapnet_*`` functions of ``obj`` that pluggy will ignore (no ``@hookimpl`` marker)."""
    out = []
    for n in dir(obj):
        if not n.startswith("frapnet_"):
            continue
        f = getattr(obj, n, None)
        if callable(f) and not hasattr(f, "frapnet_impl"):
            out.append(n)
    return sorted(out)


def parse_api(value: Any) -> int:
    """The major version a plugin's ``FRAPNET_API`` declares: ``1``, ``"1"`` or ``"1.0"`` → 1.

    Raises ValueError for anything else (a float, ``"one"``, a bool).
    """
    if isinstance(value, bool):
        raise ValueError(f"FRAPNET_API must be a whole number such as {hookspecs.API_MAJOR}, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        head = value.strip().split(".", 1)[0]
        if head.isdigit():
            return int(head)
    raise ValueError(f"FRAPNET_API must be a whole number such as {hookspecs.API_MAJOR}, not {value!r}")


class Registry:
    """Every plugin seen, and the games and house rules of those that loaded.

    ``plugins``: PluginInfo in loading order (failed ones too, with ``error``);
    ``games``/``house_rules``: name → (spec, PluginInfo of the plugin providing it).
    """

    def __init__(self) -> None:
        self.plugins: list[PluginInfo] = []
        self.games: dict[str, tuple[GameSpec, PluginInfo]] = {}
        self.house_rules: dict[str, tuple[HouseRuleSpec, PluginInfo]] = {}

    @property
    def errors(self) -> list[PluginInfo]:
        """The plugins that were not loaded, each with its ``error``."""
        return [p for p in self.plugins if p.error]

    def plugin(self, name: str) -> PluginInfo | None:
        """The loaded plugin called ``name``, or None."""
        for p in self.plugins:
            if p.name == name and p.loaded:
                return p
        return None

    def add(self, obj: Any, name: str, version: str, source: str) -> PluginInfo:
        """Register one plugin object (module or instance); problems go into ``info.error``.

        Checks, in order: the plugin name is free; ``FRAPNET_API`` names this API's major;
        the hooks are valid (known names, arguments the spec has); registration runs; every
        game and house-rule name it registers is free; a plugin that registers a game implements
        every required hook (``hookspecs.REQUIRED_GAME_HOOKS``; the message names the missing ones). On any failure nothing of the plugin is
        offered. Returns the PluginInfo (also appended to ``plugins``).
        """
        other = self.plugin(name)
        info = PluginInfo(name=name, version=version, source=source, obj=obj)
        self.plugins.append(info)
        if other is not None:
            info.error = f"plugin name {name!r} is already taken by {other.source}; not loaded"
            return info
        raw = getattr(obj, "FRAPNET_API", None)
        if raw is not None:
            try:
                info.api = parse_api(raw)
            except ValueError as exc:
                info.error = f"{exc}; not loaded"
                return info
            if info.api != hookspecs.API_MAJOR:
                info.error = (f"written for frapnet plugin API {info.api}, but this frapnet has API "
                              f"{hookspecs.API_VERSION} (major {hookspecs.API_MAJOR}); not loaded — "
                              f"install a version of the plugin made for API {hookspecs.API_MAJOR}")
                return info
        pm = pluggy.PluginManager("frapnet")
        pm.add_hookspecs(hookspecs)
        try:
            pm.register(obj, name=name)
            pm.check_pending()
        except Exception as exc:  # a misspelt hook, a wrong signature
            info.error = f"invalid hook implementation: {exc}"
            return info
        info.hooks = sorted(c.name for c in (pm.get_hookcallers(obj) or []))
        info.warnings = [f"{n} has no @hookimpl marker and is ignored" for n in _unmarked_hooks(obj)]
        games: list[GameSpec] = []
        rules: list[HouseRuleSpec] = []
        try:
            pm.hook.frapnet_register_games(register=games.append)
            pm.hook.frapnet_register_house_rules(register=rules.append)
        except Exception as exc:  # noqa: BLE001 - a plugin may raise anything
            info.error = f"registration failed: {_short_error(exc)}"
            return info
        for g in games:
            if not isinstance(g, GameSpec):
                info.error = f"frapnet_register_games registered {g!r}, not a GameSpec; not loaded"
                return info
        for r in rules:
            if not isinstance(r, HouseRuleSpec):
                info.error = f"frapnet_register_house_rules registered {r!r}, not a HouseRuleSpec; not loaded"
                return info
        own = {g.name for g in games}
        for r in rules:
            if own and not set(r.games) <= own:
                # at another game's table all this plugin's hooks would run, the game's own included
                info.error = (f"house rule {r.name!r} is for {', '.join(r.games)}, but this plugin also provides "
                              f"the game(s) {', '.join(sorted(own))}: a plugin that provides a game may only offer "
                              f"house rules for it (ship the house rule as a plugin of its own); not loaded")
                return info
        seen: set[str] = set()
        for g in games:
            if g.name in self.games:
                other = self.games[g.name][1]
                info.error = f"game name {g.name!r} is already taken by plugin {other.name!r} ({other.source}); not loaded"
                return info
            if g.name in seen:
                info.error = f"game name {g.name!r} is registered twice; not loaded"
                return info
            seen.add(g.name)
        seen = set()
        for r in rules:
            if r.name in self.house_rules:
                other = self.house_rules[r.name][1]
                info.error = f"house rule {r.name!r} is already taken by plugin {other.name!r} ({other.source}); not loaded"
                return info
            if r.name in seen:
                info.error = f"house rule {r.name!r} is registered twice; not loaded"
                return info
            seen.add(r.name)
        missing = [h for h in hookspecs.REQUIRED_GAME_HOOKS if h not in info.hooks]
        if games and missing:  # style.md 4: a game API that cannot be half-implemented
            info.error = (f"game {', '.join(repr(g.name) for g in games)} lacks the required hook"
                          f"{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                          f"(frapnet.hookspecs.REQUIRED_GAME_HOOKS); not loaded")
            return info
        for g in games:
            self.games[g.name] = (g, info)
            info.games.append(g.name)
        for r in rules:
            self.house_rules[r.name] = (r, info)
            info.house_rules.append(r.name)
        return info

    def fail(self, name: str, version: str, source: str, error: str) -> PluginInfo:
        """Record a plugin that could not even be imported."""
        info = PluginInfo(name=name, version=version, source=source, error=error)
        self.plugins.append(info)
        return info

    def game(self, name: str) -> GameSpec:
        """The GameSpec of ``name``; PluginError listing the installed games if unknown."""
        try:
            return self.games[name][0]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            broken = [p for p in self.errors]
            hint = ""
            if broken:
                hint = "; plugins not loaded: " + "; ".join(f"{p.name} ({p.error})" for p in broken)
            raise PluginError(f"unknown game {name!r} (installed: {known}){hint}") from None

    def house_rules_for(self, game: str) -> list[HouseRuleSpec]:
        """The loaded house rules that apply to ``game``, by name."""
        return [s for n, (s, _) in sorted(self.house_rules.items()) if game in s.games]

    def check_table(self, game: str, house_rules: Iterable[str] = ()) -> tuple[GameSpec, list[HouseRuleSpec]]:
        """Check that a table of ``game`` with ``house_rules`` can be opened from loaded plugins.

        Returns the specs; raises PluginError (unknown game — including one whose plugin failed
        to load —, unknown house rule, a house rule for another game, one named twice).
        """
        spec = self.game(game)
        out = []
        house_rules = tuple(house_rules)
        for i, hr in enumerate(house_rules):
            if hr in house_rules[:i]:  # a table has each rule once (a second copy would be listed, not played)
                raise PluginError(f"house rule {hr!r} is named twice")
            if hr not in self.house_rules:
                known = ", ".join(sorted(self.house_rules)) or "none"
                raise PluginError(f"unknown house rule {hr!r} (installed: {known})")
            hspec = self.house_rules[hr][0]
            if game not in hspec.games:
                raise PluginError(f"house rule {hr!r} is for {', '.join(hspec.games)}, not {game!r}")
            out.append(hspec)
        return spec, out

    def plugin_manager(self, game: str, house_rules: Iterable[str] = ()) -> pluggy.PluginManager:
        """A fresh plugin manager for one table: its game's plugin, then its house rules
        (registered later, so pluggy calls them first).

        Raises PluginError for an unknown game or house rule, or a house rule made for
        another game.
        """
        house_rules = tuple(house_rules)
        self.check_table(game, house_rules)
        info = self.games[game][1]
        pm = pluggy.PluginManager("frapnet")
        pm.add_hookspecs(hookspecs)
        pm.register(info.obj, name=info.name)
        for hr in house_rules:
            hinfo = self.house_rules[hr][1]
            if pm.is_registered(hinfo.obj):
                continue
            pm.register(hinfo.obj, name=hinfo.name)
        return pm

    def describe_table(self, game: str, house_rules: Iterable[str] = (), options: dict | None = None) -> dict:
        """Everything a joining player is shown about a table (F27), as plain data.

        ``options`` is the table's options (missing ones are shown at their default). Returns::

            {"game": {"name", "title", "players": [min, max], "plugin", "version", "source"},
             "options": [{"name", "value", "default", "kind", "rule", "doc", "choices"?, "allowed"?}],
             "house_rules": [{"name", "rule", "summary", "plugin", "version", "source"}],
             "plugins": [{"name", "version", "source"}],      # every plugin active at the table
             "lines": [str, ...]}                              # the same, in English, one item a line

        Raises PluginError like :meth:`check_table`.
        """
        house_rules = tuple(house_rules)
        spec, hspecs = self.check_table(game, house_rules)
        ginfo = self.games[game][1]
        values = dict(spec.defaults())
        values.update(options or {})
        opts = []
        for o in spec.options:
            d = o.describe()
            d["value"] = values.get(o.name, o.default)
            opts.append(d)
        hrs, plugins = [], [{"name": ginfo.name, "version": ginfo.version, "source": ginfo.source}]
        for h in hspecs:
            hinfo = self.house_rules[h.name][1]
            hrs.append(dict(h.describe(), plugin=hinfo.name, version=hinfo.version, source=hinfo.source))
            if all(p["name"] != hinfo.name for p in plugins):
                plugins.append({"name": hinfo.name, "version": hinfo.version, "source": hinfo.source})
        lines = [f"Game: {spec.title} ({spec.name}, plugin {ginfo.name} {ginfo.version})"]
        for d in opts:
            mark = "" if d["value"] == d["default"] else f" (default {_show(d['default'])})"
            lines.append(f"Option {d['name']} = {_show(d['value'])}{mark} [{d['rule']}]: {d['doc']}")
        if hrs:
            for h in hrs:
                lines.append(f"House rule {h['name']} [{h['rule']}] (plugin {h['plugin']} {h['version']}): {h['summary']}")
        else:
            lines.append("House rules: none")
        return {"game": {"name": spec.name, "title": spec.title, "players": [spec.min_players, spec.max_players],
                         "plugin": ginfo.name, "version": ginfo.version, "source": ginfo.source},
                "options": opts, "house_rules": hrs, "plugins": plugins, "lines": lines}


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def _module_version(mod: Any, default: str) -> str:
    return str(getattr(mod, "__version__", None) or default)


def _load_file(path: Path) -> Any:
    """Import one plugin file as module ``frapnet_plugin_<stem>`` (raises what the import raises)."""
    modname = f"frapnet_plugin_{path.stem}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    old = sys.modules.get(modname)
    sys.modules[modname] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        if old is not None:
            sys.modules[modname] = old
        else:
            sys.modules.pop(modname, None)
        raise
    return mod


def _short_error(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


def checkout_plugins_dir() -> Path | None:
    """The ``plugins/`` folder of the source checkout frapnet runs from, or None.

    Only a checkout counts: the folder above the ``frapnet`` package must hold frapnet's own
    ``pyproject.toml`` (an installed, non-editable frapnet has none beside it).
    """
    root = Path(__file__).resolve().parent.parent
    pyproject = root / "pyproject.toml"
    plugins = root / "plugins"
    try:
        if plugins.is_dir() and pyproject.is_file() and 'name = "frapnet"' in pyproject.read_text(encoding="utf-8"):
            return plugins
    except OSError:
        return None
    return None


def default_plugin_dirs() -> list[Path]:
    """The plugins dirs loaded without ``--plugins-dir``.

    ``$FRAPNET_PLUGINS_DIR`` when set (entries separated by ``os.pathsep``; empty: none);
    otherwise the user's plugins dir (:func:`frapnet.paths.plugins_dir`, e.g.
    ``~/.local/share/frapnet/plugins``) if it exists, then the checkout's ``plugins/``
    (:func:`checkout_plugins_dir`) if frapnet runs from one.
    """
    from frapnet import paths

    env = os.environ.get(PLUGINS_DIR_ENV)
    if env is not None:
        return [Path(p) for p in env.split(os.pathsep) if p.strip()]
    dirs = []
    user = paths.plugins_dir()
    if user.is_dir():
        dirs.append(user)
    d = checkout_plugins_dir()
    if d is not None:
        dirs.append(d)
    return dirs


def load_registry(plugins_dirs: Iterable[str | Path] = (), entry_points: bool = True,
                  defaults: bool = False) -> Registry:
    """Load every plugin into a new Registry: built-ins, entry points (if ``entry_points``),
    the default plugins dirs (if ``defaults``), then ``plugins_dirs`` in order.

    Never raises for a broken plugin: see ``Registry.errors``.
    """
    from frapnet import __version__

    reg = Registry()
    for modname in BUILTIN_PLUGINS:
        mod = importlib.import_module(modname)
        reg.add(mod, getattr(mod, "PLUGIN_NAME", modname.rsplit(".", 1)[-1]), _module_version(mod, __version__),
                "builtin")
    if entry_points:
        seen_eps = set()
        for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            dist = getattr(ep, "dist", None)
            dname = dist.metadata["Name"] if dist is not None else "?"
            dver = dist.version if dist is not None else "?"
            source = f"entry point {ep.value} (distribution {dname})"
            if (ep.name, ep.value, dname) in seen_eps:
                continue  # the same distribution seen twice on sys.path
            seen_eps.add((ep.name, ep.value, dname))
            try:
                obj = ep.load()
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin may raise anything
                reg.fail(ep.name, dver, source, f"failed to import: {_short_error(exc)}")
                continue
            reg.add(obj, ep.name, dver, source)
    dirs = list(default_plugin_dirs()) if defaults else []
    dirs.extend(Path(d) for d in plugins_dirs)
    seen_dirs = set()
    for p in dirs:
        key = p.resolve()
        if key in seen_dirs:
            continue
        seen_dirs.add(key)
        if not p.is_dir():
            reg.fail(str(p), "-", str(p), "plugins dir does not exist or is not a directory")
            continue
        for f in sorted(p.glob("*.py")):
            if f.name.startswith("_"):
                continue
            try:
                mod = _load_file(f)
            except (Exception, SystemExit) as exc:  # noqa: BLE001
                reg.fail(f.stem, "-", str(f), f"failed to import: {_short_error(exc)}")
                continue
            reg.add(mod, getattr(mod, "PLUGIN_NAME", f.stem), _module_version(mod, "-"), str(f))
    return reg


_default: dict[tuple, Registry] = {}


def default_registry(plugins_dirs: Iterable[str | Path] = ()) -> Registry:
    """The process-wide registry: built-ins, entry points, the default plugins dirs
    (:func:`default_plugin_dirs`) and ``plugins_dirs`` — loaded once per distinct set of dirs,
    then cached."""
    dirs = [*default_plugin_dirs(), *(Path(d) for d in plugins_dirs)]
    key = tuple(dict.fromkeys(str(d.resolve()) for d in dirs))
    reg = _default.get(key)
    if reg is None:
        reg = _default[key] = load_registry(key)
    return reg


_engine_rules.use_installed_plugins(default_registry)  # engine.new_match without a registry: these plugins
