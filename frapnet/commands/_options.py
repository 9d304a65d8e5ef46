"""What `frapnet host`, `play`, `join`, `bot` and `arena` read from their command lines the same
way: table options (``--option KEY=VALUE``), the default player name, and the computer players'
``--level``, ``--think`` and ``--iterations`` (one definition and one check for every command that
takes them). Cheap to import."""
from __future__ import annotations

import getpass
import json
import re

from frapnet.errors import shown


def parse_options(items: list[str]) -> dict:
    """``["ante=200", "cut_in=false"]`` → ``{"ante": 200, "cut_in": False}`` (JSON if possible).
    Raises ValueError for an item without ``=`` or a key, a key given twice, a JSON value nested too deeply for the
    parser, or a whole number of more than :data:`frapnet.errors.MAX_INT_DIGITS` digits (one that
    long is refused unparsed)."""
    from frapnet.errors import MAX_INT_DIGITS, too_large

    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {shown(item)}: expected KEY=VALUE")
        if key.strip() in out:  # as a house rule named twice: never silently the last one
            raise ValueError(f"--option {shown(key.strip())}: given twice; give each option once")
        n = len(value.strip().lstrip("-"))
        if n > MAX_INT_DIGITS and _INT_LITERAL.fullmatch(value.strip()):  # not parsed: quadratic in its length
            raise ValueError(f"--option {key.strip()}: integer too large: {n} digits (limit {MAX_INT_DIGITS})")
        try:
            out[key.strip()] = parsed = json.loads(value)
        except ValueError:
            out[key.strip()] = value
            continue
        except RecursionError:
            raise ValueError(f"--option {key.strip()}: the value is nested too deeply") from None
        big = too_large(parsed, MAX_INT_DIGITS)
        if big:  # the host sends its options to every player: the protocol carries at most this (issue #9)
            raise ValueError(f"--option {key.strip()}: {big}")
    return out


_INT_LITERAL = re.compile(r"-?[0-9]+")


def add_level_argument(p, who: str = "computer players' level", think_option: bool = False) -> None:
    """``--level`` (random, basic, expert; default None: the config file's, else the default).
    ``think_option``: the command also takes ``--think`` (:func:`add_search_arguments`), which the
    help may then name; elsewhere it names expert's default time instead."""
    from frapnet.bots.levels import LEVELS, level_help

    p.add_argument("--level", default=None, choices=tuple(LEVELS),
                   help=f"{who}; without it, the config file's level, else the default:\n" + level_help(think_option))


def add_search_arguments(p, think: bool = True, iterations_default: str = "") -> None:
    """expert's budget: ``--think SECONDS`` (if ``think``) and ``--iterations N``."""
    from frapnet.bots.levels import DEFAULT_THINK

    if think:
        p.add_argument("--think", type=float, default=None, metavar="SECONDS",
                       help=f"expert: wall-time budget per decision (default {DEFAULT_THINK})")
    p.add_argument("--iterations", type=int, default=None, metavar="N",
                   help="expert: examine exactly N sampled deals per decision (reproducible"
                        + ("; overrides --think" if think else "") + (f"; default {iterations_default}" if
                                                                       iterations_default else "") + ")")


def check_search_arguments(args) -> str | None:
    """What is wrong with ``--think`` (a positive number of seconds) or ``--iterations`` (at least
    1), or None; an argument the command does not take is skipped."""
    think, its = getattr(args, "think", None), getattr(args, "iterations", None)
    if think is not None and not think > 0:
        return f"--think must be a positive number of seconds, not {think}"
    if its is not None and its < 1:
        return f"--iterations must be at least 1, not {shown(its)}"
    return None


def default_name() -> str:
    """The login name, else "Player"."""
    try:
        return getpass.getuser() or "Player"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "Player"


def record_error(record: str) -> str | None:
    """What is wrong with ``--record FILE`` (None if nothing), said before the table starts
    (`frapnet host`, `play`): it must be a file this process can create or replace (probed by
    creating and removing a temporary file beside it), in an existing folder."""
    import os

    path = os.path.abspath(record)
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        return f"--record {record}: is a directory, not a file"
    if not os.path.isdir(folder):
        return f"--record {record}: no folder {folder}"
    probe = f"{path}.tmp{os.getpid()}"  # the name atomic.write_atomically uses
    try:
        with open(probe, "w", encoding="utf-8"):
            pass
        os.remove(probe)
    except OSError as exc:
        return f"--record {record}: cannot write into {folder}: {exc.strerror}"
    return None


def name_error(name, flag: str = "--name", config_path=None) -> str | None:
    """What to say about a player name the host would not seat as typed (empty once cleaned, or
    over :data:`frapnet.net.protocol.MAX_NAME` characters: the rule of
    :func:`frapnet.net.protocol.name_problem`, docs/protocol.md ``hello``), naming where it came
    from — ``flag``, or ``config_path``'s ``name`` key; None if it is fine (or None: the default)."""
    if name is None:
        return None
    from frapnet.net.protocol import for_log, name_problem

    why = name_problem(name)
    if why is None:
        return None
    where = f"bad config file {config_path}: name:" if config_path else f"{flag} '{for_log(name, 40)}':"
    return f"{where} {why}"


def print_web_address(handle, bind: str, interfaces=None, qr: bool = True) -> str | None:
    """If the host ``handle`` serves the web page (``handle.web_port``), print ``frapnet: web page
    at URL`` and the URL as a QR code (for a phone's camera) on stdout; return the URL (None if
    there is no web page). The address is the one players reach: ``bind`` if it names one
    interface, else the first of ``interfaces``, else this machine's first LAN address."""
    port = getattr(handle, "web_port", None)
    if port is None:
        return None
    from frapnet.net.web import lan_address, qr_text, web_url

    url = web_url(lan_address(bind, interfaces), port)
    print(f"frapnet: web page at {url}", flush=True)
    if qr:
        code = qr_text(url)
        try:
            if code:
                print(code, end="", flush=True)
        except UnicodeEncodeError:  # a terminal without UTF-8: the address above is enough
            pass
    return url
