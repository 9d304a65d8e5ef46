"""Layer rules of the frapnet package (issue #9 item 1; docs/architecture.md "Layers").

Every import in every module of frapnet/ — module-level, inside functions, under
``TYPE_CHECKING`` — is read with :mod:`ast` and checked against :data:`MAY_IMPORT`: which of
frapnet's units a unit may use. Lowest first: cards, errors, hookspecs, paths, fairness; engine; plugins,
games, record; net; bots and tui (each on net, neither on the other); hosting (on net and bots), stats;
runtime (process set-up); commands; cli. Nothing imports a unit above its own. The engine and
the games import no Twisted, prompt_toolkit, msgpack, sqlite3 or sockets; no module in
frapnet/net, the plugin API (hookspecs) or a game (Frap, house rules, variants, one-file plugins)
passes 500 lines; variants and one-file plugins use only the plugin API layers.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "frapnet"

BASE = {"cards", "errors", "hookspecs", "paths", "fairness"}
RULES = BASE | {"engine", "plugins", "games", "record"}
MAY_IMPORT: dict[str, set[str]] = {
    "frapnet": set(),                    # the package root: its version only
    "cards": {"errors"},
    "errors": set(),
    "hookspecs": {"errors"},
    "paths": set(),
    "fairness": set(),
    "locale": set(),
    "engine": {"cards", "errors", "hookspecs"},
    "plugins": BASE | {"frapnet", "engine"},
    "games": {"cards", "errors", "hookspecs", "engine"},
    "house_rules": {"cards", "errors", "hookspecs", "engine", "games"},  # built-in house-rule plugins
    "config": RULES | {"frapnet"},  # the user's config file
    "record": BASE | {"frapnet", "engine", "plugins"},
    "testing": RULES | {"frapnet", "bots"},  # check_sampler/check_policy replay a game's samples (issue #8)
    "net": RULES | {"frapnet"},
    "bots": RULES | {"frapnet", "net"},
    "tui": {"frapnet", "cards", "errors", "paths", "net"},
    "hosting": RULES | {"frapnet", "net", "bots"},
    "stats": RULES | {"frapnet", "net"},
    "runtime": set(),
    "commands": RULES | {"frapnet", "net", "bots", "tui", "hosting", "stats", "runtime", "testing", "config"},
    "cli": {"frapnet", "commands"},
    "__main__": {"cli"},
}
"""Per unit of frapnet (a subpackage or a top-level module), the units it may import; a unit
always may import itself."""

NO_IO = {"twisted", "prompt_toolkit", "msgpack", "zeroconf", "sqlite3", "socket", "asyncio", "selectors"}
NO_THIRD_PARTY: dict[str, set[str]] = {
    "cards": NO_IO, "errors": NO_IO, "hookspecs": NO_IO, "engine": NO_IO, "games": NO_IO,
    "plugins": NO_IO, "record": NO_IO, "net": {"prompt_toolkit"}, "bots": {"prompt_toolkit"},
}
"""Per unit, top-level third-party or standard modules it must not import (design.md: the
engine and games do no I/O and know no event loop)."""

KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("engine/rules.py", "frapnet.plugins"):
        "a caller that imported only the engine gets the installed games (engine.new_match('frap', 4)): "
        "the loader is imported on first use, in a function",
}
"""Imports against the layers still allowed — each listed with its reason; the test fails once
one is gone, so the list only shrinks."""

PLUGIN_API = {"cards", "errors", "hookspecs", "engine", "games"}
"""What a variant (variants/*/) or a one-file plugin (plugins/) may import from frapnet."""


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` (a file under ``root``) imports, as ``(line, dotted name)`` —
    relative imports resolved, ``from X import Y`` giving both ``X`` and ``X.Y`` (Y may be a
    submodule), ``importlib.import_module("frapnet.…")`` with a literal name included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = list(path.relative_to(root).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((node.lineno, mod))
            out += [(node.lineno, f"{mod}.{a.name}") for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and node.args[0].value.startswith("frapnet"):
            out.append((node.lineno, node.args[0].value))  # importlib.import_module("frapnet.x")
    return out


def unit_of(dotted: str) -> str | None:
    """``frapnet.net.table`` → ``net``; ``frapnet`` → ``frapnet``; a non-frapnet name → None.
    ``frapnet.X`` where X is not a unit (``from frapnet import __version__``) → ``frapnet``."""
    parts = dotted.split(".")
    if parts[0] != "frapnet":
        return None
    if len(parts) == 1 or parts[1] not in MAY_IMPORT:
        return "frapnet"
    return parts[1]


def modules() -> list[Path]:
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_unit_of_the_package_is_in_the_table():
    """A new subpackage or top-level module must be placed in a layer (MAY_IMPORT) first."""
    units = {p.relative_to(PKG).parts[0].removesuffix(".py") for p in modules()}
    units.discard("__init__")
    assert units <= set(MAY_IMPORT), f"not in MAY_IMPORT: {sorted(units - set(MAY_IMPORT))}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path):
    """Issue #9: lower layers never import higher ones — function-level imports included."""
    rel = path.relative_to(PKG)
    unit = "frapnet" if rel.parts == ("__init__.py",) else rel.parts[0].removesuffix(".py")
    allowed = MAY_IMPORT[unit] | {unit}
    banned = NO_THIRD_PARTY.get(unit, set())
    bad = []
    where = str(rel)
    for line, name in imports(path):
        target = unit_of(name)
        if any(where == f and (name == m or name.startswith(m + ".")) for f, m in KNOWN_EXCEPTIONS):
            continue
        if target is not None and target not in allowed:
            bad.append(f"line {line}: {unit} imports {name} ({target} is not below {unit})")
        top = name.split(".")[0]
        if top in banned:
            bad.append(f"line {line}: {unit} imports {top} (no I/O or event loop in {unit})")
    assert not bad, "\n".join(bad)


def test_the_walker_sees_function_level_and_relative_imports(tmp_path):
    """The checker itself: a function-local, a relative and an importlib import are all found,
    and each would break engine's rules."""
    mod = tmp_path / "frapnet" / "engine" / "probe.py"
    mod.parent.mkdir(parents=True)
    mod.write_text("from .state import State\nfrom ..net import wire\n\ndef f():\n    import twisted\n"
                   "    from frapnet.commands import host\n    importlib.import_module('frapnet.tui.app')\n")
    found = {n: line for line, n in imports(mod, tmp_path)}
    assert found == {"frapnet.engine.state": 1, "frapnet.engine.state.State": 1, "frapnet.net": 2,
                     "frapnet.net.wire": 2, "twisted": 5, "frapnet.commands": 6, "frapnet.commands.host": 6,
                     "frapnet.tui.app": 7}
    assert {unit_of(n) for n in found} - MAY_IMPORT["engine"] == {None, "engine", "net", "commands", "tui"}


def test_the_known_exceptions_are_still_needed():
    """Each KNOWN_EXCEPTIONS entry still names a real import (remove it when the code is fixed)."""
    for (file, mod), why in KNOWN_EXCEPTIONS.items():
        names = [n for _, n in imports(PKG / file)]
        assert any(n == mod or n.startswith(mod + ".") for n in names), f"{file} no longer imports {mod}: {why}"


def test_no_module_in_net_passes_500_lines():
    """Issue #9: no module in frapnet/net over 500 lines (split it by job instead)."""
    long = {p.name: n for p in (PKG / "net").glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


def test_no_script_of_the_web_page_passes_500_lines():
    """The same rule for the web page's own scripts (frapnet/net/web_assets; the vendored
    msgpack.min.js aside): app.js (757 lines) was split into app.js (connection, messages,
    controls), tableview.js (drawing) and words.js (the page's Russian words)."""
    files = [p for p in (PKG / "net" / "web_assets").glob("*.js") if not p.name.endswith(".min.js")]
    assert {p.name for p in files} >= {"app.js", "tableview.js", "words.js", "fairness.js"}
    long = {p.name: n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


def test_no_module_of_the_plugin_api_or_a_game_passes_500_lines():
    """The same rule for the plugin API and the games (hookspecs, Frap, the house rules, every
    variant's package, the one-file plugins): a module past 500 lines is split by concern — as
    hookspecs.py (522 lines), frap.py (735), the variants' plugin.py (704–894) and La Krap's
    bots.py (564) were (docs/architecture.md)."""
    files = [*(PKG / "hookspecs").glob("*.py"), *(PKG / "games").glob("*.py"), *(PKG / "house_rules").glob("*.py"),
             *ROOT.glob("variants/*/frapnet_*/*.py"), *ROOT.glob("plugins/*.py")]
    assert len(files) >= 30 and PKG / "hookspecs" / "__init__.py" in files
    long = {str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


PLUGIN_FILES = sorted(p for p in [*ROOT.glob("variants/*/*/*.py"), *ROOT.glob("variants/*/*.py"),
                                  *ROOT.glob("plugins/*.py")] if "tests" not in p.relative_to(ROOT).parts)


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_plugins_use_only_the_plugin_api(path):
    """A game or house-rule plugin sees the rules layers only: never the host, the clients, the
    terminal UI or the commands (docs/plugins.md)."""
    bad = [f"line {line}: {name}" for line, name in imports(path)
           if (u := unit_of(name)) is not None and u not in PLUGIN_API | {"frapnet"}]
    assert not bad, "\n".join(bad)


def test_the_engine_finds_the_installed_plugins_only_through_frapnet_plugins():
    """Issue #10 review: engine/core.py imports nothing of frapnet.plugins (the hook callers are
    engine/rules.py). A library caller that imports only the engine still gets the installed
    games (F1: four seats of Frap): rules.installed_registry imports the loader on first use (the
    one known exception above); frapnet.plugins.Rules is still the plugin API's name."""
    import subprocess
    import sys
    code = ("import sys\n"
            "from frapnet import engine\n"
            "before = 'frapnet.plugins' in sys.modules\n"
            "st = engine.new_match('frap', 4)\n"
            "import frapnet.plugins, frapnet.engine.rules\n"
            "print(before, st.game, st.players, st.balances, frapnet.plugins.Rules is frapnet.engine.rules.Rules,"
            " type(st.rules).__module__)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False frap 4 [0, 0, 0, 0] True frapnet.engine.rules"
