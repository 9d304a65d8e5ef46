"""A table's hook callers (:class:`Rules`) and where the engine finds the installed plugins.

:class:`Rules` wraps one table's pluggy ``PluginManager`` (made by
:meth:`frapnet.plugins.Registry.plugin_manager`) in positional callers, the engine's hot path.
The plugin *loading* — built-ins, entry points, plugins dirs — is :mod:`frapnet.plugins`, a layer
above the engine: when a caller of :func:`frapnet.engine.new_match` passes no ``registry``, the
engine asks :func:`installed_registry`, which uses the loader that :mod:`frapnet.plugins` gives
it when imported (:func:`use_installed_plugins`) — so the engine never imports the loader. Every
``frapnet`` module that may leave the registry out (records, bots, testing, the host, commands)
imports :mod:`frapnet.plugins`. ``frapnet.plugins.Rules`` stays importable for plugin authors.
"""
from __future__ import annotations

import os
import sys
from operator import itemgetter
from typing import Any, Callable

import pluggy

from frapnet.errors import PluginError

_installed: Callable[[], Any] | None = None


def use_installed_plugins(load: Callable[[], Any]) -> None:
    """Make ``load()`` (returning a :class:`frapnet.plugins.Registry` of the installed plugins)
    the engine's registry when a caller passes none; :mod:`frapnet.plugins` calls this on import."""
    global _installed
    _installed = load


def installed_registry():
    """The installed plugins' registry (see :func:`use_installed_plugins`; :mod:`frapnet.plugins`
    is imported here if nobody has yet). Raises PluginError if no loader is registered even then."""
    if _installed is None:
        # A library caller that imported only the engine (`from frapnet import engine;
        # engine.new_match("frap", 4)`) still gets the installed games: importing the loader
        # registers it (the one upward import of the engine, listed in tests/test_layers.py).
        import frapnet.plugins  # noqa: F401
    if _installed is None:
        raise PluginError("no plugin registry: pass registry=frapnet.plugins.default_registry()")
    return _installed()


TRACE_ENV = "FRAPNET_TRACE_PLUGINS"
"""Set to a non-empty value other than ``0``: every hook call goes through pluggy (no direct fast
path) and pluggy's tracing writes each call and its result to stderr (datasette's
``DATASETTE_TRACE_PLUGINS``)."""

# Hooks the loader calls itself, not the table: no positional caller on Rules.
_LOADER_HOOKS = frozenset(("frapnet_register_games", "frapnet_register_house_rules"))


def trace_plugins() -> bool:
    """True when ``$FRAPNET_TRACE_PLUGINS`` asks for every hook call to be traced."""
    return os.environ.get(TRACE_ENV, "") not in ("", "0")


class Rules:
    """One table's hook callers with positional call signatures (the engine's hot path).

    One attribute per per-table hook of :mod:`frapnet.hookspecs`, named without the
    ``frapnet_`` prefix (``rules.apply_action(state, seat, action)``), taking the spec's own
    arguments (``HookSpec.argnames``) positionally — so a hook added to the specs gets a caller
    with no table to update. Where a hook has exactly one plain implementation (the common case),
    its function is called directly — with the arguments it names, if it takes only some of the
    spec's (pluggy allows that; the caller's ``__wrapped__`` is then the function); otherwise
    through pluggy, so house rules and wrappers work as usual. ``trace`` (default: from
    :func:`trace_plugins`) routes every call through pluggy and turns on its tracing to stderr,
    so pluggy's call monitoring sees every call.
    """

    def __init__(self, pm: pluggy.PluginManager, trace: bool | None = None) -> None:
        self.pm = pm
        self.kept: dict = {}
        """The table's view parts kept from one change to the next while unchanged
        (:func:`frapnet.engine.core.view`): the same objects, so a fan-out reuses their bytes."""
        self.trace = trace_plugins() if trace is None else trace
        if self.trace:
            pm.trace.root.setwriter(sys.stderr.write)
            pm.enable_tracing()
        self.hooks: tuple[str, ...] = tuple(
            n[len("frapnet_"):] for n in sorted(vars(pm.hook)) if n.startswith("frapnet_") and n not in _LOADER_HOOKS
            and getattr(getattr(pm.hook, n), "spec", None) is not None)
        for name in self.hooks:
            setattr(self, name, self._caller(name))

    def implemented(self, name: str) -> bool:
        """True if some plugin of this table implements hook ``frapnet_<name>``."""
        return bool(getattr(self.pm.hook, "frapnet_" + name).get_hookimpls())

    def _caller(self, name: str):
        caller = getattr(self.pm.hook, "frapnet_" + name)
        args = tuple(caller.spec.argnames)
        impls = caller.get_hookimpls()
        if not self.trace and len(impls) == 1 and not (impls[0].hookwrapper or getattr(impls[0], "wrapper", False)) \
                and set(impls[0].argnames) <= set(args):
            fn, want = impls[0].function, tuple(impls[0].argnames)
            if want == args:
                return fn
            # it takes only some of the spec's arguments (pluggy allows that: an argument added to
            # a spec later, e.g. frapnet_sample_deal's effort): pass it those, still without pluggy
            if want == args[:len(want)]:
                k = len(want)

                def direct(*values, _fn=fn, _k=k):
                    return _fn(*values[:_k])
            else:
                pick = itemgetter(*(args.index(a) for a in want)) if len(want) > 1 else \
                    (lambda values, _i=args.index(want[0]): (values[_i],))

                def direct(*values, _fn=fn, _pick=pick):
                    return _fn(*_pick(values))
            direct.__name__ = name
            direct.__wrapped__ = fn
            return direct

        def call(*values, _caller=caller, _args=args):
            return _caller(**dict(zip(_args, values)))
        call.__name__ = name
        return call
