"""`frapnet games [--plugins-dir DIR…] [--json]`: every game a host can offer, and the house rules.

For each game: name, title, player range, its options (name, default, allowed values, the rule
that defines it) and the house rules that apply to it; then each house rule with the games it
applies to. Only games whose plugin loaded completely are listed; plugins that were refused are
named at the end (see `frapnet plugins` for the details). Exit status 0.
"""
HELP = "list the games and house rules a host can offer, with player ranges and options"


def add_arguments(p):
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def report(registry) -> dict:
    """The ``--json`` object::

        {"games": [{"name", "title", "players": [min, max], "options": [{"name", "default",
                    "kind", "rule", "doc", "choices"?, "allowed"?}], "verbs", "ledger", "summary",
                    "plugin", "version", "house_rules": [names]}],
         "house_rules": [{"name", "games", "rule", "summary", "plugin", "version"}],
         "not_loaded": [{"name", "source", "error"}]}
    """
    games = []
    for name in sorted(registry.games):
        spec, info = registry.games[name]
        d = spec.describe()
        d.update(plugin=info.name, version=info.version,
                 house_rules=[h.name for h in registry.house_rules_for(name)])
        games.append(d)
    rules = []
    for name in sorted(registry.house_rules):
        spec, info = registry.house_rules[name]
        rules.append(dict(spec.describe(), plugin=info.name, version=info.version))
    return {"games": games, "house_rules": rules,
            "not_loaded": [{"name": p.name, "source": p.source, "error": p.error} for p in registry.errors]}


def _value(v) -> str:
    if isinstance(v, bool):  # as `--option KEY=VALUE` and records spell it
        return "true" if v else "false"
    return str(v)


def _allowed(o: dict) -> str:
    if o.get("choices"):
        return ", ".join(_value(c) for c in o["choices"])
    if o["kind"] == "bool":
        return "true, false"
    return o.get("allowed") or "a whole number"


def format_text(rep: dict) -> str:
    """The human listing."""
    lines = []
    for g in rep["games"]:
        lo, hi = g["players"]
        lines.append(f"{g['name']} — {g['title']}, {lo}–{hi} players  (plugin {g['plugin']} {g['version']})")
        if g.get("summary"):
            lines.append(f"  {g['summary']}")
        if g["options"]:
            lines.append("  options:")
            for o in g["options"]:
                lines.append(f"    {o['name']} = {_value(o['default'])}  [{o['rule']}] allowed: {_allowed(o)}")
                if o.get("doc"):
                    lines.append(f"        {o['doc']}")
        else:
            lines.append("  options: none")
        if g["house_rules"]:
            lines.append(f"  house rules: {', '.join(g['house_rules'])}")
        lines.append("")
    if rep["house_rules"]:
        lines.append("house rules:")
        for h in rep["house_rules"]:
            rule = f" [{h['rule']}]" if h.get("rule") else ""
            lines.append(f"  {h['name']}{rule} — for {', '.join(h['games'])}  (plugin {h['plugin']} {h['version']})")
            if h.get("summary"):
                lines.append(f"      {h['summary']}")
    else:
        lines.append("house rules: none")
    if rep["not_loaded"]:
        lines.append("")
        lines.append("not loaded (see `frapnet plugins`): "
                     + "; ".join(f"{e['name']}: {e['error']}" for e in rep["not_loaded"]))
    return "\n".join(lines)


def emit(text: str) -> None:
    """Print ``text``; a reader that went away (``frapnet games | head``) is not an error."""
    import os
    import sys

    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise


def run(args) -> int:
    import json

    from frapnet.plugins import default_registry

    rep = report(default_registry(args.plugins_dir))
    if args.json:
        emit(json.dumps(rep, ensure_ascii=False, indent=1))
    else:
        emit(format_text(rep))
    return 0
