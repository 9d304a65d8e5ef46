"""`frapnet tables [--timeout S] [--interface ADDR] [--json]`: list the tables on the LAN (DNS-SD)."""
HELP = "list the frapnet tables announced on the LAN (DNS-SD, _frapnet._tcp)"


def add_arguments(p):
    p.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                   help="how long to listen for announcements (default 3, as join and bot)")
    p.add_argument("--interface", action="append", default=None, metavar="ADDR",
                   help="browse only on the interface with this local IPv4 address (repeatable; default all)")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of {name, address, port, props, addresses}")


def web_url_of(table) -> str:
    """The table's web page (``http://ADDRESS:PORT/``) from its TXT key ``web`` (the HTTP port of
    `frapnet host --web`), or "" if it serves none (docs/web.md)."""
    from frapnet.net.web import web_url

    port = table.props.get("web", "")
    if not (port.isascii() and port.isdigit() and len(port) <= 5) or not 0 < int(port) < 65536:
        return ""  # "²" is a digit to str.isdigit, not to int() (issue #9: any machine may announce)
    return web_url(table.address, int(port))


def run(args) -> int:
    import sys

    from frapnet.net import discovery

    if problem := discovery.timeout_problem(args.timeout):
        print(f"frapnet tables: {problem}", file=sys.stderr)
        return 2
    try:
        tables = discovery.browse(args.timeout, args.interface)
    except ValueError as exc:
        print(f"frapnet tables: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"frapnet tables: cannot listen for multicast DNS: {exc}", file=sys.stderr)
        return 1
    from frapnet.stats import dumps_for_terminal, for_terminal as safe  # what the LAN says, escaped (issue #9)

    if args.json:
        print(dumps_for_terminal([t.to_dict() for t in tables]))
        return 0
    if not tables:
        print(f"No tables found in {args.timeout:g} s.")
        return 0
    rows = [("TABLE", "GAME", "FREE/SEATS", "PASSWORD", "ADDRESS", "WEB")]  # "3/4": 3 of 4 seats free
    for t in tables:
        p = t.props
        rows.append((safe(t.name), safe(p.get("game", "?")),
                     f"{safe(p.get('seats_free', '?'), 8)}/{safe(p.get('players', '?'), 8)}",
                     safe(p.get("password", "?"), 8), f"{t.address}:{t.port}", web_url_of(t)))
    if not any(r[5] for r in rows[1:]):  # no table serves a web page: no WEB column
        rows = [r[:5] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    print("\nJoin one with: frapnet join NAME   (or frapnet join ADDRESS)")
    return 0
