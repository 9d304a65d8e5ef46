"""`frapnet bot HOST:PORT [--level random|basic|expert] [--think S] [--iterations N] [--name NAME]
[--seed S] [--delay S]`: one computer player joins a table and plays until the match ends (issue #3
item 6; levels issue #8).

TARGET is ``HOST:PORT`` or a table name found on the LAN (DNS-SD, like `frapnet join NAME`).
Prints ``frapnet bot: NAME at seat N of TABLE`` once seated and, when the host ends the match,
its result as one JSON line. Logs go to stderr. Exit status: 0 when the match ended, 1 if the
host could not be reached or refused the bot (the reason is printed), or closed the connection
before the end, 2 for bad arguments.
"""
HELP = "a computer player: join a table (HOST:PORT or a table name) and play it to the end"


def add_level_arguments(p):
    """``--level``, ``--think``, ``--iterations`` (frapnet.commands._options)."""
    from frapnet.commands._options import add_level_argument, add_search_arguments
    add_level_argument(p, think_option=True)
    add_search_arguments(p)


def add_arguments(p):
    p.add_argument("target", metavar="HOST:PORT", help="the host's address and port, or a table name on the LAN")
    add_level_arguments(p)
    p.add_argument("--name", default="Bot", help="the name shown at the table (default Bot)")
    p.add_argument("--seed", default=None, help="make the bot's choices reproducible")
    p.add_argument("--delay", type=float, default=0.0, metavar="S", help="seconds to think before each move")
    p.add_argument("--password", default=None, metavar="TEXT|-",
                   help="the table's password, if it has one; - asks for it (or reads a line of standard input); "
                        "default: $FRAPNET_PASSWORD")
    p.add_argument("--seat", type=int, default=None,
                   help="ask for this seat (0…n−1, counted clockwise from 0); refused if it is taken")
    p.add_argument("--table", default=None, help="table name, for a host with several tables")
    p.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                   help="how long to look for a table by name on the LAN (default 3, as join and tables)")
    p.add_argument("--interface", action="append", default=None, metavar="ADDR",
                   help="look for a table NAME only on this interface address (repeatable)")


def log_observer(stream):
    """The bot's log on ``stream`` (stderr): frapnet's own events from info up, Twisted's only from
    warn up — none of its "Main loop terminated." or factory lines —, each one plain line
    ``frapnet bot: TEXT`` (a failure adds its error message, not a traceback)."""
    from twisted.logger import LogLevel, formatEvent

    def observe(event: dict) -> None:
        level = event.get("log_level") or LogLevel.info
        own = str(event.get("log_namespace", "")).startswith("frapnet")
        if level < (LogLevel.info if own else LogLevel.warn):
            return
        text = formatEvent(event)
        failure = event.get("log_failure")
        if failure is not None:
            text += f": {failure.getErrorMessage()}"
        print(f"frapnet bot: {text}", file=stream, flush=True)
    return observe


def run(args) -> int:
    import json
    import sys

    from frapnet.net import discovery

    from frapnet import config
    from frapnet.commands._password import table_password

    try:  # the computer players' level from the config file, unless given here
        cfg = config.load()
    except config.ConfigError as exc:
        print(f"frapnet bot: bad config file {exc}", file=sys.stderr)
        return 2
    from frapnet.bots.levels import DEFAULT_LEVEL
    args.level = args.level or cfg.level or DEFAULT_LEVEL
    if args.delay < 0:
        print(f"frapnet bot: --delay must be 0 or more seconds, not {args.delay}", file=sys.stderr)
        return 2
    from frapnet.commands._options import check_search_arguments, name_error
    problem = check_search_arguments(args) or name_error(args.name) or discovery.timeout_problem(args.timeout)
    if problem:
        print(f"frapnet bot: {problem}", file=sys.stderr)
        return 2
    try:
        password = table_password(args.password)
    except ValueError as exc:
        print(f"frapnet bot: {exc}", file=sys.stderr)
        return 2
    try:
        host, port = discovery.resolve(args.target, args.timeout, args.interface)
    except ValueError as exc:
        print(f"frapnet bot: {exc}", file=sys.stderr)
        return 2
    except discovery.DiscoveryError as exc:
        print(f"frapnet bot: {exc}", file=sys.stderr)
        return 1

    from twisted.internet import defer, task
    from twisted.logger import globalLogBeginner

    globalLogBeginner.beginLoggingTo([log_observer(sys.stderr)], redirectStandardIO=False)
    from frapnet.bots.client import Bot
    from frapnet.net.client import JoinError

    status = {"code": 0}

    async def main(reactor):
        bot = Bot(host, port, args.name, level=args.level, seed=args.seed, delay=args.delay, password=password,
                  seat=args.seat, table=args.table, reactor=reactor, think=args.think, iterations=args.iterations)
        try:
            welcome = await bot.connect()
        except JoinError as exc:
            print(f"frapnet bot: the host refused: {exc.message} ({exc.code})", file=sys.stderr)
            status["code"] = 1
            return
        except Exception as exc:  # noqa: BLE001 - connection refused, timeout…
            print(f"frapnet bot: cannot reach {host}:{port}: {exc}", file=sys.stderr)
            status["code"] = 1
            return
        seat = welcome.get("seat")
        # the name the table gave it: a second "Bot" at a table sits as "Bot 2" (one name per table)
        name = next((p.get("name") for p in welcome.get("players") or () if isinstance(p, dict)
                     and p.get("seat") == seat and p.get("name")), args.name)
        print(f"frapnet bot: {name} at seat {seat} of {welcome.get('table')}", flush=True)
        result = await bot.done
        if result is not None:
            print(json.dumps(result, ensure_ascii=False), flush=True)
        else:
            print("frapnet bot: the host closed the connection before the match ended", file=sys.stderr)
            status["code"] = 1

    try:
        task.react(lambda reactor: defer.ensureDeferred(main(reactor)))
    except SystemExit as exc:  # react always exits; keep our own status
        return int(exc.code or 0) or status["code"]
    return status["code"]
