"""`frapnet plugins [--plugins-dir DIR…] [--json]`: every plugin, loaded or not (issue #5).

For each plugin: its name, version, where it came from (built-in, an installed distribution's
entry point, or a file in a plugins dir), the API major it declares, the hooks it implements,
the games and house rules it provides — or why it was not loaded. Exit status 0 when every
plugin loaded, 1 when any was refused (so scripts and CI notice), 2 for bad arguments.
"""
HELP = "list installed plugins: name, version, source, hooks, and why any failed to load"


def add_arguments(p):
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def report(registry) -> dict:
    """The ``--json`` object: ``{"api_version", "plugins_dirs", "plugins": [PluginInfo.describe()…],
    "errors": [{"name", "source", "error"}…]}``."""
    from frapnet import hookspecs

    return {
        "api_version": hookspecs.API_VERSION,
        "plugins": [p.describe() for p in registry.plugins],
        "errors": [{"name": p.name, "source": p.source, "error": p.error} for p in registry.errors],
    }


def format_text(rep: dict) -> str:
    """The human listing: one block per plugin, the refused ones marked NOT LOADED with the reason."""
    lines = [f"frapnet plugin API {rep['api_version']}"]
    for p in rep["plugins"]:
        status = "" if p["loaded"] else "  NOT LOADED"
        lines.append("")
        lines.append(f"{p['name']} {p['version']}{status}")
        lines.append(f"  from:   {p['source']}")
        if p["loaded"]:
            if p["games"]:
                lines.append(f"  games:  {', '.join(p['games'])}")
            if p["house_rules"]:
                lines.append(f"  house rules: {', '.join(p['house_rules'])}")
            hooks = [h.removeprefix("frapnet_") for h in p["hooks"]]
            lines.append(f"  hooks:  {', '.join(hooks) or 'none'}")
            for w in p.get("warnings", ()):
                lines.append(f"  warning: {w}")
        else:
            lines.append(f"  error:  {p['error']}")
    errs = rep["errors"]
    lines.append("")
    if errs:
        lines.append(f"{len(errs)} plugin(s) not loaded: " + ", ".join(e["name"] for e in errs)
                     + " (their games and house rules are not offered)")
    else:
        lines.append(f"{len(rep['plugins'])} plugin(s), all loaded")
    return "\n".join(lines)


def emit(text: str) -> None:
    """Print ``text``; a reader that went away (``frapnet plugins | head``) is not an error."""
    import os
    import sys

    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise


def run(args) -> int:
    import json

    from frapnet.plugins import default_registry

    registry = default_registry(args.plugins_dir)
    rep = report(registry)
    if args.json:
        emit(json.dumps(rep, ensure_ascii=False, indent=1))
    else:
        emit(format_text(rep))
    return 1 if rep["errors"] else 0
