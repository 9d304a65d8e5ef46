"""`frapnet host`: host a table on this machine (docs/hosting.md).

Prints ``frapnet: hosting table NAME on BIND:PORT`` on stdout once it listens, and at the end
of the match one JSON line with the result (``table``, ``game``, ``deals``, ``balances``,
``pot``…). Logs go to stderr. Exit status: 0 after the match, 2 for bad options (the message
names the rule, e.g. F5), 1 if the port cannot be opened.
"""
import errno
import socket

HELP = "host a table on this machine; others join it over the LAN"


def add_arguments(p):
    p.add_argument("--port", type=int, default=7777, help="TCP port (0: any free port; default 7777)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default 0.0.0.0: every interface)")
    p.add_argument("--name", default=None, help="table name shown to players (default: GAME at HOSTNAME)")
    p.add_argument("--game", default=None, help="the game (default frap, or the config file's table.game)")
    p.add_argument("--players", type=int, default=None, help="number of seats (default 4, or the config file's)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a table option (repeatable); VALUE is read as JSON if it can be, else as text")
    p.add_argument("--house-rule", action="append", default=[], metavar="NAME", help="a house rule (repeatable)")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")
    p.add_argument("--password", default=None, metavar="TEXT|-",
                   help="players must give this password to join; - asks for it (or reads a line of standard "
                        "input); default: $FRAPNET_PASSWORD")
    p.add_argument("--bots", type=int, default=0, metavar="K", help="K seats played by computer players")
    from frapnet.commands._options import add_level_argument
    add_level_argument(p, "computer players' level (--bots and takeover)")
    p.add_argument("--deals", type=int, default=None, metavar="N", help="stop after N deals, then exit 0")
    p.add_argument("--db", default=None, metavar="FILE",
                   help="the journal: every accepted move is stored in this SQLite file before anyone is told, "
                        "and the same command resumes an unfinished match from it after a crash (default: "
                        "journal.sqlite3 in your frapnet data folder)")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="also keep the match's record in FILE, exported from the journal at every deal end and "
                        "when the host stops (never per move)")
    p.add_argument("--resume", action="store_true",
                   help="continue the match in the --record FILE (under the table's name unless --name is "
                        "given) when the journal has none of this command to resume — the journal's own copy "
                        "of that match if it has one, else the file (a record from another machine or an "
                        "older frapnet)")
    p.add_argument("--seed", default=None, help="seed for the host's shuffle secrets, the first dealer and bots "
                        "(reproducible tests; anyone who knows it knows every deal — docs/fairness.md)")
    p.add_argument("--grace", type=float, default=120.0, metavar="SECONDS",
                   help="how long a dropped player keeps the seat before a computer plays it (default 120)")
    p.add_argument("--turn-time", type=float, default=120.0, metavar="SECONDS",
                   help="the turn clock: a connected player who has not acted after this long gets that one "
                        "move made by a computer player and keeps the seat (default 120; 0: off)")
    p.add_argument("--pause", type=float, default=1.5, metavar="SECONDS",
                   help="pause between deals so players can read the settlement (default 1.5)")
    p.add_argument("--bot-delay", type=float, default=0.0, metavar="SECONDS", help="computer players think this long")
    p.add_argument("--nonce-time", type=float, default=3.0, metavar="SECONDS",
                   help="fair deals: how long each seat has to send its shuffle nonce (its hash, then the "
                        "nonce); a seat that does not answer in time is left out and everyone is told (default 3)")
    p.add_argument("--announce", dest="announce", action="store_true", default=True,
                   help="announce the table on the LAN with DNS-SD (default)")
    p.add_argument("--no-announce", dest="announce", action="store_false", help="do not announce the table")
    p.add_argument("--interface", action="append", default=None, metavar="ADDR",
                   help="announce only on this interface address (repeatable; default all)")
    p.add_argument("--rematch", type=float, default=60.0, metavar="SECONDS",
                   help="at the match's end, offer its players a rematch with the same seats and wait this "
                        "long for their answers (default 60; 0: no offer, the table closes at once)")
    p.add_argument("--web", type=int, default=None, metavar="PORT",
                   help="also serve the table as a web page on this HTTP port, for browsers and phones "
                        "(0: any free port); prints its URL and a QR code (docs/web.md)")
    p.add_argument("--play", action="store_true",
                   help="also play at the table yourself, in this terminal (the first free seat)")
    p.add_argument("--player", default=None, metavar="NAME", help="with --play: your name (default: login name)")
    p.add_argument("--lang", default=None, choices=("en", "ru"), help="with --play: language (default: the locale)")


def check_arguments(args) -> str | None:
    """What is wrong with the non-rule arguments (None if nothing), checked before listening:
    ``--port`` 0…65535; ``--deals`` ≥ 1; ``--grace``, ``--pause``, ``--bot-delay``, ``--turn-time``, ``--nonce-time`` finite and
    ≥ 0 seconds; ``--name`` without control characters, at most 63 bytes of UTF-8 (a DNS-SD
    instance name, and hello.table's limit); ``--db`` a file in an existing folder;
    ``--record`` a file this process can create or replace (probed by creating and removing a
    temporary file beside it)."""
    import math
    import os
    import unicodedata

    from frapnet.errors import MAX_INT_DIGITS, shown, too_large

    if not 0 <= args.port <= 65535:
        return f"--port must be 0…65535 (0: any free port), not {shown(args.port)}"
    web = getattr(args, "web", None)
    if web is not None and not 0 <= web <= 65535:
        return f"--web must be an HTTP port 0…65535 (0: any free port), not {shown(web)}"
    if web is not None and web != 0 and web == args.port:
        return f"--web {web}: the web page needs another port than the table's --port"
    if too_large(args.deals, MAX_INT_DIGITS):  # every view carries it (issue #9)
        return f"--deals: {too_large(args.deals, MAX_INT_DIGITS)}"
    if args.deals is not None and args.deals < 1:
        return f"--deals must be at least 1, not {args.deals}"
    for flag, value in (("--grace", args.grace), ("--pause", args.pause), ("--bot-delay", args.bot_delay),
                        ("--rematch", args.rematch), ("--turn-time", args.turn_time), ("--nonce-time", args.nonce_time)):
        if not math.isfinite(value) or value < 0:
            return f"{flag} must be a finite number of seconds ≥ 0, not {value}"
    if args.name is not None:
        from frapnet.net.protocol import BLANKS

        if any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in args.name):
            return f"--name {args.name!r}: control characters and line breaks are not allowed in a table name"
        seen = "".join(" " if ch in BLANKS else ch for ch in args.name)
        if not seen.strip() or len(args.name.encode("utf-8")) > 63:
            return f"--name {args.name!r}: a table name is 1…63 bytes of UTF-8, with a printable character"
        if seen != seen.strip():
            return f"--name {args.name!r}: a table name has no space at either end"
    db = getattr(args, "db", None)
    if db:
        folder = os.path.dirname(os.path.abspath(db))
        if os.path.isdir(db):
            return f"--db {db}: is a directory, not a file"
        if not os.path.isdir(folder):
            return f"--db {db}: no folder {folder}"
    if args.record:
        from frapnet.commands._options import record_error

        return record_error(args.record)
    return None


def host_config(args, name: str, options: dict):
    """The :class:`frapnet.hosting.HostConfig` of a `frapnet host` command line (checked by
    :func:`check_arguments`), for table ``name`` with the parsed ``options``."""
    from frapnet.hosting import HostConfig, TableConfig
    from frapnet.net.journal import default_path

    table = TableConfig(name=name, game=args.game, players=args.players, options=options,
                        house_rules=args.house_rule, password=args.password, grace=args.grace, pause=args.pause,
                        deals=args.deals, record=args.record, level=args.level, bot_delay=args.bot_delay,
                        seed=args.seed, rematch=args.rematch, turn_time=args.turn_time or None,
                        nonce_time=args.nonce_time)
    return HostConfig(table, bots=args.bots, bind=args.bind, port=args.port, plugins_dirs=args.plugins_dir,
                      announce=args.announce, interfaces=args.interface, resume=args.resume, web=args.web,
                      db=args.db or default_path())


def saved_table_name(record_path: str) -> str | None:
    """The table name a host saved beside its record (``RECORD.seats``, key ``table``), or None
    if there is none usable (missing or damaged file; not 1…63 bytes of UTF-8 without control
    characters — the limits of ``--name``)."""
    import json
    import unicodedata

    try:
        with open(f"{record_path}.seats", encoding="utf-8") as f:
            data = json.loads(f.read(1024 * 1024))
    except (OSError, ValueError, RecursionError):
        return None
    name = data.get("table") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name.strip() or len(name.encode("utf-8")) > 63 \
            or any(unicodedata.category(ch)[0] == "C" for ch in name):
        return None
    return name


def _clash(given: dict, options: dict, st) -> str | None:
    """What in the record's match ``st`` (an engine State) differs from what the command line
    typed (``given``: ``--game``, ``--players``, ``--house-rule``, None/empty where not typed;
    ``options``: the ``--option`` values), in words — or None if nothing does."""
    import json
    if given["--game"] is not None and given["--game"] != st.game:
        return f"a {st.game} match, not {given['--game']} (--game)"
    if given["--players"] is not None and given["--players"] != st.players:
        return f"a match of {st.players} players, not {given['--players']} (--players)"
    if given["--house-rule"] and sorted(given["--house-rule"]) != sorted(st.house_rules):
        rules = ", ".join(st.house_rules) or "no house rules"
        return f"a match with {rules}, not {', '.join(given['--house-rule'])} (--house-rule)"
    for key, value in options.items():
        if key not in st.options or st.options[key] != value or type(st.options[key]) is not type(value):
            held = f"{key}={json.dumps(st.options[key])}" if key in st.options else f"no option {key}"
            return f"a match with {held}, not {key}={json.dumps(value)} (--option)"
    return None


def run(args) -> int:
    from frapnet.bots.levels import DEFAULT_LEVEL
    import json
    import sys

    from frapnet import config
    from frapnet.commands._options import name_error, parse_options
    from frapnet.commands._password import table_password
    from frapnet.errors import PluginError, RuleError, shown

    try:  # the config file gives what the command line leaves out (docs/hosting.md)
        cfg = config.load()
    except config.ConfigError as exc:
        print(f"frapnet host: bad config file {exc}", file=sys.stderr)
        return 2
    given = {"--game": args.game, "--players": args.players, "--house-rule": list(args.house_rule)}  # typed
    from_cfg = config.apply(cfg, args, {"game": "frap", "players": 4, "level": DEFAULT_LEVEL}, exclude=("name",))
    player_cfg = None  # the file that named the player, if --player did not
    if args.player is None:  # --play: your name at the table
        args.player, player_cfg = cfg.name, cfg.path
    try:
        options = parse_options(args.option)
        args.password = table_password(args.password)
    except ValueError as exc:
        print(f"frapnet host: {exc}", file=sys.stderr)
        return 2
    if args.resume and not args.record:
        print("frapnet host: --resume needs --record FILE (the match to continue)", file=sys.stderr)
        return 2
    import os
    problem = check_arguments(args) or (name_error(args.player, "--player", player_cfg) if args.play else None)
    if problem:
        print(f"frapnet host: {problem}", file=sys.stderr)
        return 2
    from frapnet.commands._journal import open_checked, table_of_record
    db = open_checked(args.db, "host")  # a bad --db file: one line naming it, before anything else
    if db is None:
        return 2
    db.close()
    from frapnet import engine
    from frapnet.plugins import default_registry
    registry = default_registry(args.plugins_dir)
    if args.resume and os.path.exists(args.record):  # the record says which game and table
        from frapnet import record
        try:
            st, _ = record.replay(record.load(args.record), registry, record.check_shuffle)
        except record.ReplayError as exc:
            print(f"frapnet host: --resume: {args.record} does not replay: {exc}", file=sys.stderr)
            return 2
        from frapnet.net import amounts, wire
        if amounts.past_limit(st):  # a record holds any amount (F6); a host must send them (issue #9)
            print(f"frapnet host: --resume: {args.record}: its amounts have {amounts.most_digits(st)} digits, more "
                  f"than the {wire.MAX_BIGINT_DIGITS:,} the protocol carries; `frapnet replay` reads it, no host can "
                  "send it", file=sys.stderr)
            return 2
        clash = _clash(given, options, st)
        if clash:  # the command line asks for another table than the record holds: say so, never drop it
            print(f"frapnet host: --resume: {args.record} holds {clash}; leave that option out to continue the "
                  "record's match, or give another --record FILE for a new one", file=sys.stderr)
            return 2
        args.game, args.players, args.house_rule = st.game, st.players, list(st.house_rules)
        options = dict(st.options)
        from frapnet.errors import MAX_INT_DIGITS, too_large
        for key, value in options.items():  # a record holds any amount (F6); a host must send it (issue #9)
            big = too_large(value, MAX_INT_DIGITS)
            if big:
                print(f"frapnet host: --resume: {args.record}: option {key!r}: {big}; a host sends it, and the "
                      "amounts that grow from it, to every player", file=sys.stderr)
                return 2
        from_cfg = set()
        # the table keeps its name (issue #10): as the journal stored it, or an older host beside the record
        args.name = args.name or table_of_record(args.db, args.record) or saved_table_name(args.record)
    try:  # validate before touching the network: a clear error naming the rule
        engine.new_match(args.game, args.players, options, args.house_rule, registry)
        if not (args.resume and os.path.exists(args.record)):
            config.check_options(cfg, args.game, args.players, registry)
            options = {**cfg.options_for(args.game), **options}  # --option wins over the file
            engine.new_match(args.game, args.players, options, args.house_rule, registry)
        if not 0 <= args.bots <= args.players:
            raise ValueError(f"--bots must be 0…{args.players}, not {shown(args.bots)}")
    except config.ConfigError as exc:
        print(f"frapnet host: bad config file {exc}", file=sys.stderr)
        return 2
    except (RuleError, PluginError, ValueError) as exc:
        text = exc.describe() if isinstance(exc, RuleError) else str(exc)
        if from_cfg:  # a value from the file may be the cause: say where it came from
            text += f" (settings from {cfg.path}: {', '.join(sorted(from_cfg))})"
        print(f"frapnet host: {text}", file=sys.stderr)
        return 2

    name = args.name or f"{args.game} at {socket.gethostname()}"
    if args.play:  # the screen client needs a terminal: refused before the table starts, as `frapnet play`
        from frapnet.commands._say import cli_lang, needs_terminal

        return needs_terminal("host", cli_lang(args)) or _play(args, name, options, registry)

    from twisted.internet import asyncioreactor
    import asyncio
    try:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        asyncioreactor.install(loop)
    except Exception:  # noqa: BLE001 - a reactor is already installed (e.g. embedded use)
        pass
    from twisted.internet import reactor, task
    from twisted.internet.error import CannotListenError
    from twisted.logger import globalLogBeginner, textFileLogObserver, FilteringLogObserver, \
        LogLevelFilterPredicate, LogLevel

    predicate = LogLevelFilterPredicate(defaultLogLevel=LogLevel.info)
    from frapnet.hosting import start_host
    from frapnet.net.journal import JournalError
    from frapnet.runtime import not_twisted_noise, stop_once_on_signals, tune_gc
    globalLogBeginner.beginLoggingTo([FilteringLogObserver(textFileLogObserver(sys.stderr),
                                                           [not_twisted_noise, predicate])],
                                     redirectStandardIO=False)
    stop_once_on_signals(reactor)  # a second SIGTERM/Ctrl-C while stopping: one line, no traceback

    status = {"code": 0}

    async def main(reactor):
        from twisted.internet import defer
        try:
            handle = start_host(reactor, host_config(args, name, options), registry=registry)
        except CannotListenError as exc:
            print(f"frapnet host: {cannot_listen(args, exc)}", file=sys.stderr)
            status["code"] = listen_status(exc)
            return
        except JournalError as exc:
            print(f"frapnet host: --db: {exc}", file=sys.stderr)
            status["code"] = 2
            return
        _say_resumed(handle, name)
        print(f"frapnet: hosting table {name} on {args.bind}:{handle.port}", flush=True)
        from frapnet.commands._options import print_web_address
        print_web_address(handle, args.bind, args.interface)
        gc_policy = tune_gc(reactor)  # a long-running host: no long garbage-collector pauses (docs/performance.md)
        stop = defer.Deferred()
        reactor.addSystemEventTrigger("before", "shutdown", lambda: handle.stop())
        handle.finished.addBoth(lambda r: stop.callback(r) if not stop.called else None)
        result = await stop
        await handle.stop()
        gc_policy.stop()
        if isinstance(result, dict):
            print(json.dumps(result, ensure_ascii=False), flush=True)

    try:
        task.react(lambda r: defer_main(r, main))
    except SystemExit as exc:
        return int(exc.code or 0) or status["code"]
    return status["code"]


def cannot_listen(args, exc) -> str:
    """The message for a port that cannot be opened (the table's ``--port`` or ``--web``): in
    words for a ``--bind`` that is no address of this machine and a port already in use, else
    the operating system's."""
    web = args.web is not None and exc.port == args.web and args.web != args.port
    why = exc.socketError
    if _bad_bind(why):
        return (f"--bind {args.bind}: not an address of this machine "
                f"(give one of its addresses, or 0.0.0.0 for every interface)")
    if getattr(why, "errno", None) == errno.EADDRINUSE:
        flag = "--web" if web else "--port"
        return f"port {exc.port} is already in use (another host? choose another with {flag})"
    return f"cannot listen on {args.bind}:{exc.port}{' (--web)' if web else ''}: {why}"


def _bad_bind(why) -> bool:
    """The listen error ``why`` says the ``--bind`` address is none of this machine's."""
    return isinstance(why, socket.gaierror) or getattr(why, "errno", None) == errno.EADDRNOTAVAIL


def listen_status(exc) -> int:
    """The exit status for :func:`cannot_listen`: 2 for a bad ``--bind`` (no address of this
    machine: a bad option), 1 for a port that cannot be opened (in use, not allowed…)."""
    return 2 if _bad_bind(exc.socketError) else 1


def _say_resumed(handle, name: str) -> None:
    """On stderr, where a resumed match stands (the same command after a crash or stop)."""
    import sys

    if handle.resumed is not None:
        where = f" (match {handle.match_id} in the journal {handle.journal.path})" if handle.journal else ""
        print(f"frapnet host: resuming the match of table {name} {handle.resumed}{where}", file=sys.stderr,
              flush=True)


def defer_main(reactor, main):
    from twisted.internet import defer
    return defer.ensureDeferred(main(reactor))


def _play(args, name: str, options: dict, registry) -> int:
    """`frapnet host --play`: host the table (LAN-visible as usual) and open the terminal client
    for the first free seat in this process, on the asyncio reactor (stack-notes.md). Logs are
    not printed (the screen is the client's); quitting the client stops the host, and once the
    terminal is back to normal the result is printed as one JSON line on stdout, as without
    ``--play`` (docs/hosting.md)."""
    import json
    import sys

    from frapnet.commands._options import default_name, print_web_address
    from frapnet.tui.app import install_reactor, react, run_local
    from frapnet.tui.i18n import default_lang

    install_reactor()
    from twisted.internet.error import CannotListenError

    from frapnet.hosting import loopback_for, start_host
    from frapnet.net.journal import JournalError

    hosted: dict = {}

    def main(reactor):
        try:
            hosted["handle"] = handle = start_host(reactor, host_config(args, name, options), registry=registry)
        except CannotListenError as exc:
            print(f"frapnet host: {cannot_listen(args, exc)}", file=sys.stderr)
            return listen_status(exc)
        except JournalError as exc:
            print(f"frapnet host: --db: {exc}", file=sys.stderr)
            return 2
        _say_resumed(handle, name)
        print(f"frapnet: hosting table {name} on {args.bind}:{handle.port}", flush=True)
        url = print_web_address(handle, args.bind, args.interface)
        kw = {}
        me = args.player or default_name()
        token = next((s.token for s in handle.table.seats if s.status == "reconnecting" and not s.is_bot
                      and s.name == me), None)
        if token:  # the same command after a crash: your seat waits for its token (issue #9)
            kw["token"] = token
        if url:  # the terminal is the client's now: say the address in its log too
            kw["on_app"] = lambda app: app.screen.add_log("system", f"web page for browsers and phones: {url}")
        return run_local(reactor, handle, name=me, lang=args.lang or default_lang(),
                         host=loopback_for(args.bind), password=args.password, **kw)

    code = react(main)
    handle = hosted.get("handle")
    if handle is not None and handle.table.result is not None:  # the terminal is restored by now
        print(json.dumps(handle.table.result, ensure_ascii=False), flush=True)
    return code
