"""`frapnet play`: a local table against computer players, in this terminal (docs/playing.md)."""
HELP = "play against computer players in this terminal (a local table; nothing is announced)"


def add_arguments(p):
    p.add_argument("--players", type=int, default=None, help="number of seats, yours included (default 4)")
    p.add_argument("--game", default=None, help="the game (default frap)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a table option (repeatable), e.g. ante=200 or cut_in=false")
    p.add_argument("--house-rule", action="append", default=[], metavar="NAME", help="a house rule (repeatable)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")
    from frapnet.commands._options import add_level_argument
    add_level_argument(p)
    p.add_argument("--seed", default=None, help="seed for shuffles and computer players (a reproducible match)")
    p.add_argument("--lang", default=None, choices=("en", "ru"), help="language (default: from the locale)")
    p.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    p.add_argument("--deals", type=int, default=None, metavar="N", help="end the match after N deals")
    p.add_argument("--record", default=None, metavar="FILE", help="write the match's record here (docs/records.md)")
    p.add_argument("--bot-delay", type=float, default=0.5, metavar="SECONDS",
                   help="computer players think this long, so you can follow them (default 0.5)")
    p.add_argument("--pause", type=float, default=1.0, metavar="SECONDS",
                   help="pause between deals (default 1.0)")
    p.add_argument("--rematch", type=float, default=60.0, metavar="SECONDS",
                   help="at the match's end, offer its players a rematch with the same seats and wait this "
                        "long for their answers (default 60; 0: no offer, the table closes at once)")
    p.add_argument("--db", default=None, metavar="FILE",
                   help="store the match in this journal (default: journal.sqlite3 in your frapnet data folder; "
                        "`frapnet stats` counts it)")
    p.add_argument("--web", type=int, default=None, metavar="PORT",
                   help="play in your browser instead of this terminal: serve the table's page on this "
                        "port of 127.0.0.1 and print its address (0: any free port; docs/web.md)")


def host_config(args, name: str, options: dict, web: int | None = None):
    """The :class:`frapnet.hosting.HostConfig` of a `frapnet play` command line: a table on
    127.0.0.1 only, a computer player in every seat but the first, nothing announced; ``web``:
    also serve its web page on that HTTP port (`frapnet play --web`). The match is stored in the
    journal (for `frapnet stats` and `frapnet export`), and every `frapnet play` starts a new one
    (a local game is not resumed)."""
    from frapnet.hosting import HostConfig, TableConfig
    from frapnet.net.journal import default_path

    table = TableConfig(name=name, game=args.game, players=args.players, options=options,
                        house_rules=args.house_rule, deals=args.deals, record=args.record, level=args.level,
                        bot_delay=args.bot_delay, pause=args.pause, seed=args.seed, rematch=args.rematch)
    return HostConfig(table, bots=args.players - 1, bind="127.0.0.1", port=0, announce=False, web=web,
                      db=args.db or default_path(), continue_unfinished=False)


def check_arguments(args) -> str | None:
    """What is wrong with the non-rule arguments (None if nothing): ``--deals`` ≥ 1 when given;
    ``--bot-delay``, ``--pause`` and ``--rematch`` finite and ≥ 0 seconds; ``--record`` a file
    this process can write (:func:`frapnet.commands._options.record_error`)."""
    import math

    from frapnet.commands._options import record_error

    if args.deals is not None and args.deals < 1:
        return f"--deals must be at least 1, not {args.deals}"
    for flag, value in (("--bot-delay", args.bot_delay), ("--pause", args.pause), ("--rematch", args.rematch)):
        if not math.isfinite(value) or value < 0:
            return f"{flag} must be a finite number of seconds ≥ 0, not {value}"
    return record_error(args.record) if args.record else None


def run(args) -> int:
    from frapnet.bots.levels import DEFAULT_LEVEL

    from frapnet import config
    from frapnet.commands._options import default_name, name_error, parse_options
    from frapnet.commands._say import cli_lang, fail, needs_terminal
    from frapnet.errors import PluginError, RuleError

    # every mistake in the arguments and the config file first (exit 2), whatever the terminal;
    # then the terminal
    try:  # the user's config file gives what the command line leaves out (docs/playing.md)
        cfg = config.load()
    except config.ConfigError as exc:  # said in --lang's language, else the environment's
        return fail("play", f"bad config file {exc}", cli_lang(args))
    from_cfg = config.apply(cfg, args, {"game": "frap", "players": 4, "level": DEFAULT_LEVEL})
    lang = cli_lang(args)  # --lang, else the config file's language, else the environment's
    problem = check_arguments(args) or name_error(args.name, "--name", cfg.path if "name" in from_cfg else None)
    if problem:
        return fail("play", problem, lang)
    try:
        options = parse_options(args.option)
        from frapnet import engine
        from frapnet.plugins import default_registry
        registry = default_registry(args.plugins_dir)
        engine.new_match(args.game, args.players, options, args.house_rule, registry)
        config.check_options(cfg, args.game, args.players, registry)
        options = {**cfg.options_for(args.game), **options}  # --option wins over the file
        engine.new_match(args.game, args.players, options, args.house_rule, registry)
    except config.ConfigError as exc:
        return fail("play", f"bad config file {exc}", lang)
    except (RuleError, PluginError, ValueError) as exc:
        text = exc.describe() if isinstance(exc, RuleError) else str(exc)
        if from_cfg:  # a value from the file may be the cause: say where it came from
            text += f" (settings from {cfg.path}: {', '.join(sorted(from_cfg))})"
        return fail("play", text, lang)  # a game's rule text is its own (English)
    from frapnet.commands._journal import open_checked
    db = open_checked(args.db, "play")  # a bad --db file: one line naming it (issue #9)
    if db is None:
        return 2
    db.close()
    if args.web is None and (refused := needs_terminal("play", lang)) is not None:
        return refused
    name = args.name or default_name()

    if args.web is not None:
        return _play_web(args, name, options, registry, lang)

    from frapnet.tui.app import install_reactor, react, run_local

    install_reactor()

    def main(reactor):
        from frapnet.hosting import start_host

        handle = start_host(reactor, host_config(args, name, options), registry=registry)
        nonces = None
        if args.seed is not None:  # --seed: your own client's shuffle nonces follow from it too (a reproducible match)
            from frapnet.fairness import seeded_secret
            nonces = lambda deal, seat: seeded_secret("nonce", args.seed, deal, seat)  # noqa: E731
        return run_local(reactor, handle, name=name, lang=lang, nonces=nonces)

    return react(main)


def _play_web(args, name: str, options: dict, registry, lang: str = "en") -> int:
    """`frapnet play --web PORT`: the same local table (127.0.0.1 only, computer players in every
    other seat, nothing announced), played in the browser: print the page's address, wait for
    the match to end (or Ctrl-C), print the result as one JSON line. Mistakes are said in ``lang``."""
    import json

    from frapnet.commands._say import fail

    if not 0 <= args.web <= 65535:
        return fail("play", f"--web must be an HTTP port 0…65535 (0: any free port), not {args.web}", lang)
    from frapnet.commands._options import print_web_address
    from frapnet.tui.app import install_reactor, react

    install_reactor()
    from twisted.internet import defer
    from twisted.internet.error import CannotListenError

    async def main(reactor):
        from frapnet.hosting import start_host

        try:
            handle = start_host(reactor, host_config(args, name, options, web=args.web), registry=registry)
        except CannotListenError as exc:
            fail("play", f"cannot listen on 127.0.0.1:{exc.port} for --web: {exc.socketError}", lang)
            return 1
        print_web_address(handle, "127.0.0.1", qr=False)
        print("frapnet: open the address above in your browser; Ctrl-C ends the table", flush=True)
        stop = defer.Deferred()
        reactor.addSystemEventTrigger("before", "shutdown", lambda: handle.stop())
        handle.finished.addBoth(lambda r: stop.callback(r) if not stop.called else None)
        result = await stop
        await handle.stop()
        if isinstance(result, dict):
            print(json.dumps(result, ensure_ascii=False), flush=True)
        return 0

    return react(main)
