"""`frapnet export [MATCH] [--db FILE] [-o FILE] [--list]`: any match stored in the journal as a
deal record (record-format.md; docs/records.md)."""
HELP = "write a match stored in the host's journal as a deal record (or list the stored matches)"


def add_arguments(p):
    p.add_argument("match", nargs="?", default=None,
                   help="the match: its number (see --list) or its table's name (the latest match of that table); "
                        "default: the latest match")
    p.add_argument("--db", default=None, metavar="FILE",
                   help="the journal (default: journal.sqlite3 in your frapnet data folder)")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="write the record to FILE (default: stdout)")
    p.add_argument("--list", action="store_true", help="list the stored matches instead")


def run(args) -> int:
    import sys

    from frapnet import record
    from frapnet.commands._journal import open_checked
    from frapnet.net.atomic import write_atomically
    from frapnet.errors import counted, shown
    from frapnet.stats import for_terminal as safe

    journal = open_checked(args.db, "export", create=False)
    if journal is None:
        return 2
    path = journal.path
    try:
        matches = journal.matches()
        if args.list:
            for m in matches:  # what the journal holds, escaped: anyone may edit the file (issue #9)
                state = "finished" if m["finished"] else "unfinished"
                names = ", ".join(safe(n) if n else "—" for n in m["names"])
                print(f"{m['id']}\t{safe(m['started'])}\t{safe(m['table'])}\t{safe(m['game'])}\t{counted(m['deals'], 'deal')}"
                      f"\t{state}\t{names}")
            return 0
        chosen = _choose(matches, args.match)
        if chosen is None:
            which = "no match is stored" if not matches else f"no stored match {shown(args.match)} (see --list)"
            print(f"frapnet export: {path}: {which}", file=sys.stderr)
            return 2
        try:
            text = record.dumps(journal.record(chosen["id"]))
        except record.ReplayError as exc:  # a damaged row (issue #9): named, never a traceback
            print(f"frapnet export: {path}: match {chosen['id']} cannot be exported: {exc}", file=sys.stderr)
            return 2
    finally:
        journal.close()
    if args.output:
        try:
            write_atomically(args.output, text + "\n")
        except OSError as exc:
            print(f"frapnet export: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 1
    else:  # to a terminal, maybe: no character that could act on it (the file keeps them as they are)
        sys.stdout.write(_json_escaped(text) + "\n")
    return 0


def _json_escaped(text: str) -> str:
    """JSON ``text`` with every character that is not printable — a bidi override, a C1 control,
    a tag (only in strings: the layout is spaces and newlines) — as its ``\\u`` escape: the same
    JSON, the same strings, nothing a terminal acts on."""
    if text.replace("\n", "").isprintable():
        return text

    def esc(ch: str) -> str:
        if ch == "\n" or ch.isprintable():
            return ch
        cp = ord(ch)
        if cp > 0xFFFF:  # a surrogate pair, as JSON writes one
            cp -= 0x10000
            return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"
        return f"\\u{cp:04x}"
    return "".join(map(esc, text))


def _choose(matches: list[dict], which: str | None):
    if not matches:
        return None
    if which is None:
        return matches[-1]
    if which.isascii() and which.isdigit():  # "²" and "٣" are digits to str.isdigit, not to int()
        if len(which) > 19:  # no match has such a number (and int() of 5,000 digits fails by default)
            return None
        return next((m for m in matches if m["id"] == int(which)), None)
    named = [m for m in matches if m["table"] == which]
    return named[-1] if named else None
