"""`frapnet arena`: computer players against each other in duplicate deals, in-process (issue #8).

    frapnet arena --game G --players N --seats L1,L2,…,LN --decks D --seed S
                  [--jobs J] [--iterations K] [--option K=V] [--json]

Each of D shuffled decks is played once for every rotation of the seats, every deal a fresh match;
prints per level the mean result per deal with a 95% confidence interval (the deck is the unit),
every pairwise difference with its CI, and decision times p50/p99 (wall and CPU). `--json` prints
exactly one object instead (frapnet.bots.arena.run_arena). Exit status 0, or 2 for bad arguments.
"""
HELP = "computer players against each other in duplicate deals (levels compared with confidence intervals)"


def add_arguments(p):
    from frapnet.bots.levels import LEVELS

    p.add_argument("--game", default="frap", help="the game (default frap)")
    p.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    p.add_argument("--seats", default=None, metavar="L1,L2,…",
                   help=f"one level per seat, comma-separated ({', '.join(LEVELS)}); default expert,basic,basic,…")
    p.add_argument("--decks", type=int, default=100, metavar="D", help="shuffled decks; each is played once per rotation (default 100)")
    p.add_argument("--seed", default="1", help="seed of the decks and the players (default 1): same seed, same numbers")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="play decks in J processes (default 1)")
    from frapnet.commands._options import add_search_arguments
    add_search_arguments(p, think=False, iterations_default="24")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a table option (repeatable)")
    p.add_argument("--house-rule", action="append", default=[], metavar="NAME", help="a house rule (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the shape in docs/bots.md)")


def _parse_options(items):
    from frapnet.commands._options import parse_options
    return parse_options(items)


def run(args) -> int:
    import json
    import sys

    from frapnet.bots.arena import format_report, run_arena
    from frapnet.errors import PluginError, RuleError

    seats = args.seats.split(",") if args.seats else ["expert"] + ["basic"] * (args.players - 1)
    seats = [s.strip() for s in seats]
    if args.jobs < 1:
        print(f"frapnet arena: --jobs must be at least 1, not {args.jobs}", file=sys.stderr)
        return 2
    from frapnet.commands._options import check_search_arguments
    problem = check_search_arguments(args)
    if problem:
        print(f"frapnet arena: {problem}", file=sys.stderr)
        return 2
    try:
        options = _parse_options(args.option)
    except ValueError as exc:
        print(f"frapnet arena: {exc}", file=sys.stderr)
        return 2
    bar = None
    progress = None
    if sys.stdout.isatty() and sys.stdin.isatty():
        from prompt_toolkit.shortcuts import ProgressBar
        bar = ProgressBar(title=f"frapnet arena: {args.game}, {args.decks} decks × {args.players} rotations")
        bar.__enter__()
        counter = bar(label="decks", total=args.decks)

        def progress(k):
            counter.items_completed = k
            bar.invalidate()
    try:
        rep = run_arena(args.game, args.players, seats, args.decks, seed=args.seed, jobs=args.jobs,
                        iterations=args.iterations, options=options, house_rules=args.house_rule, progress=progress)
    except RuleError as exc:
        print(f"frapnet arena: rule {exc.rule}: {exc.message}", file=sys.stderr)
        return 2
    except (PluginError, ValueError) as exc:
        print(f"frapnet arena: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    cpu = rep.pop("_cpu")
    if args.json:
        print(json.dumps(rep))
        return 0
    from frapnet.plugins import default_registry
    spec = default_registry().game(args.game)
    unit = "antes" if "ante" in options or spec.option("ante") else "stakes" if spec.option("stake") else "points"
    rep["_cpu"] = cpu
    for line in format_report(rep, unit):
        print(line)
    return 0
