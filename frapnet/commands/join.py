"""`frapnet join NAME|HOST:PORT`: sit down at a table in this terminal (docs/playing.md)."""
HELP = "join a table (by its LAN name or HOST:PORT) in this terminal"


def add_arguments(p):
    p.add_argument("table", metavar="NAME|HOST:PORT", help="the table's name on the LAN, or HOST:PORT")
    p.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    p.add_argument("--password", default=None, metavar="TEXT|-",
                   help="the table's password, if it has one; - asks for it (or reads a line of standard input); "
                        "default: $FRAPNET_PASSWORD")
    p.add_argument("--spectate", action="store_true", help="watch without taking a seat")
    p.add_argument("--lang", default=None, choices=("en", "ru"), help="language (default: from the locale)")
    p.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                   help="how long to look for a table by name on the LAN (default 3)")
    p.add_argument("--new-seat", action="store_true",
                   help="take a new seat even if a seat token for this table was saved (see docs/playing.md)")
    p.add_argument("--interface", action="append", default=None, metavar="ADDR",
                   help="look for the table by name only on this interface address (repeatable; default all)")


def run(args) -> int:
    from frapnet import config
    from frapnet.commands._options import default_name, name_error
    from frapnet.commands._say import cli_lang, fail, needs_terminal

    try:  # your name and language from the config file, unless given here
        cfg = config.load()
        from_cfg = config.apply(cfg, args, {})
    except config.ConfigError as exc:  # said in --lang's language, else the environment's
        return fail("join", f"bad config file {exc}", cli_lang(args))
    lang = cli_lang(args)  # --lang, else the config file's language, else the environment's
    from frapnet.net.discovery import timeout_problem

    problem = (name_error(args.name, "--name", cfg.path if "name" in from_cfg else None)  # the host's rule
               or timeout_problem(args.timeout))
    if problem:
        return fail("join", problem, lang)
    if (refused := needs_terminal("join", lang)) is not None:
        return refused
    from frapnet.commands._password import table_password

    name = args.name or default_name()
    try:
        password = table_password(args.password)
    except (ValueError, EOFError) as exc:
        return fail("join", str(exc) or "no password given", lang)
    from frapnet.net.discovery import resolve

    try:  # before the reactor: browsing by name runs its own short-lived loop
        host, port = resolve(args.table, timeout=args.timeout, interfaces=args.interface)
    except Exception as exc:  # noqa: BLE001 - ValueError, DiscoveryError, OSError: say what went wrong
        return fail("join", str(exc), lang)

    from frapnet.tui import tokens
    from frapnet.tui.app import install_reactor, react, run_client

    # a seat token saved by an earlier run (a closed terminal): take the seat back with it
    token = None if (args.new_seat or args.spectate) else tokens.load_token(host, port, player=name)
    install_reactor()
    return react(lambda reactor: run_client(reactor, host, port, name, lang, password=password,
                                            spectate=args.spectate, token=token, remember=not args.spectate))
