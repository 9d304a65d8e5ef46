"""`frapnet stats [--db FILE] [--json]`: per player name across the stored matches (issue #9)."""
HELP = "per-player statistics across the matches stored in the host's journal"


def add_arguments(p):
    p.add_argument("--db", default=None, metavar="FILE",
                   help="the journal (default: journal.sqlite3 in your frapnet data folder)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")


def run(args) -> int:
    import sys

    from frapnet import stats
    from frapnet.commands._journal import open_checked
    from frapnet.plugins import default_registry

    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # F6: net results are exact at any size
    journal = open_checked(args.db, "stats", create=False)
    if journal is None:
        return 2
    try:
        res = stats.player_stats(journal, default_registry(args.plugins_dir))
    finally:
        journal.close()
    print(stats.dumps_for_terminal(res) if args.json else stats.summary(res))
    return 0
