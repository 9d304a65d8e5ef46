"""Message kinds of the frapnet table protocol and their validation (docs/protocol.md).

Client → host: ``hello``, ``act``, ``chat``, ``leave``, ``ping``, ``rematch``, ``nonce_hash``, ``nonce``.
Host → client: ``welcome``, ``view``, ``event``, ``chat``, ``error``, ``pong``, ``closing``,
``shuffle_commit``, ``shuffle_hashes``, ``shuffle_reveal`` (fair deals, docs/fairness.md).

:func:`check_client_message` checks a decoded map against the schema of its kind and returns
it with optional fields filled in, or raises :class:`ProtocolError` with an error ``code``
(the codes are listed in :data:`ERROR_CODES`). Nothing here touches sockets or the reactor.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from frapnet.errors import MAX_ARG_DIGITS, too_large

PROTOCOL_VERSION = "1.0"
"""``MAJOR.MINOR``: a client with another major is refused (code ``version``)."""
PROTOCOL_MAJOR = 1

MAX_NAME = 32
"""Longest player name, in characters, as the host seats it (:func:`clean_name`)."""
MAX_NAME_SENT = 4 * MAX_NAME
"""Longest ``hello.name`` the host reads, in characters, before cleaning (longer: ``bad_message``)."""
MAX_CHAT = 500
"""Longest chat line, in characters (longer lines are cut)."""
MAX_PASSWORD = 128
MAX_TOKEN = 128
MAX_LANG = 16
MAX_ARG_STR = 64
"""Longest string inside an action's argument (a card, a suit), in characters."""
MAX_ARG_LIST = 64
"""Most elements of a list argument (``buy [cards]``)."""

CLIENT_KINDS = ("hello", "act", "chat", "leave", "ping", "rematch", "nonce_hash", "nonce", "lang")
HOST_KINDS = ("welcome", "view", "event", "chat", "error", "pong", "closing", "rematch_offer", "rematch_start",
              "shuffle_commit", "shuffle_hashes", "shuffle_reveal")

ERROR_CODES = {
    "malformed": "the frame is not valid msgpack, not a map, or has no string type",
    "too_large": "a frame over the size limit (the connection is closed)",
    "bad_message": "a known kind with a missing field or a field of the wrong type or size",
    "unknown_kind": "a message type the host does not know",
    "version": "the client's protocol major version differs from the host's",
    "password": "the table has a password and it was missing or wrong",
    "bad_name": "the player name is empty or not a string",
    "no_table": "no table of that name on this host",
    "table_full": "every seat is taken (join as a spectator instead)",
    "no_rematch": "a rematch answer while no rematch is on offer",
    "seat_taken": "the seat asked for is occupied (or kept for the host's computer player) and no valid token was given",
    "bad_token": "the token matches no seat at this table",
    "not_joined": "a message other than hello before the welcome",
    "already_joined": "a second hello on the same connection",
    "not_seated": "an action from a spectator",
    "wrong_seat": "an action naming another seat",
    "stale": "the action was made against an older state version (or was sent twice)",
    "illegal": "the engine refused the action; rule names the rule it breaks",
    "flood": "too many messages per second; further ones are dropped",
    "timeout": "no hello within the handshake time limit",
    "busy": "too many connections (in all, from one address before hello) or spectators at the table",
    "internal": "the host failed to handle the message (a bug; it is logged)",
    "late": "a nonce_hash or nonce not asked for now (another deal, not asked, already sent, or after the time limit)",
    "bad_nonce": "a nonce whose SHA-256 is not the hash the seat sent (the seat is left out of the shuffle)",
}

REPLACED = "replaced by a new connection with this seat's token"
"""``closing``'s reason when another connection took this connection's seat with its token."""
LEFT = "you left the table"
"""``closing``'s reason in answer to ``leave``."""
CLOSING_CODES = {REPLACED: "replaced", LEFT: "left"}
"""``closing``'s optional ``code`` (for programs; ``reason`` is for people), by reason. Either way
the deal goes on at the table without this connection: a deal it was not shown the reveal of
was not failed by the host (docs/protocol.md "closing")."""


def closing_code(msg: dict) -> str | None:
    """A ``closing`` message's ``code`` (``"replaced"``, ``"left"``), or None: the field, else — from
    a host older than the field — the code of its exact ``reason`` (:data:`CLOSING_CODES`)."""
    code = msg.get("code")
    if isinstance(code, str):
        return code
    reason = msg.get("reason")
    return CLOSING_CODES.get(reason) if isinstance(reason, str) else None


class ProtocolError(Exception):
    """A message the host (or client) refuses: ``code`` (see ERROR_CODES), ``message``,
    ``rule`` (a rule ID for ``illegal``, else None) and ``fatal`` (close the connection)."""

    def __init__(self, code: str, message: str, rule: str | None = None, fatal: bool = False) -> None:
        self.code, self.message, self.rule, self.fatal = code, message, rule, fatal
        super().__init__(f"{code}: {message}")

    def to_message(self) -> dict:
        return error_message(self.code, self.message, self.rule)


def error_message(code: str, message: str, rule: str | None = None) -> dict:
    """The ``error`` message map."""
    return {"type": "error", "code": code, "message": message, "rule": rule}


BLANKS = "\u115f\u1160\u3164\uffa0\u2800"
"""Letters that print as nothing (the Hangul fillers, the blank Braille pattern): cleaned as a
space, so a name of them alone is empty (``bad_name``) and ``"Olga\u3164"`` is ``"Olga"``."""


def clean_text(text: str, limit: int) -> str:
    """``text`` with control and format characters (terminal escapes, bidi overrides) removed,
    whitespace runs of newlines/tabs (and the :data:`BLANKS`) turned into spaces, no space or
    combining mark (accents, variation selectors, enclosing circles: Unicode M) before its first
    letter — marks alone print as nothing, or on whatever a screen shows before them — cut to
    ``limit`` characters."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "\t\n\r\x0b\x0c" or ch in BLANKS:
            out.append(" ")
        elif cat[0] == "C":  # Cc control, Cf format (bidi), Cs, Co, Cn
            continue
        elif cat[0] == "M" and (not out or out[-1].isspace()):  # a mark with no letter to sit on
            continue
        else:
            out.append(ch)
    return "".join(out).strip()[:limit]  # (no mark was kept at the start: the loop drops those)


def clean_name(raw: str) -> str:
    """The one rule for player names (docs/protocol.md, ``hello``; issue #9): the name the host
    seats ``raw`` under and sends to everyone — control and format characters removed (terminal
    escapes lose their ESC, bidi overrides and zero-width characters go), every run of white
    space (tabs, newlines, U+2028, no-break spaces…, the :data:`BLANKS`) one space, no space at either end, cut to
    :data:`MAX_NAME` characters. ``""`` if nothing is left (the host refuses it: ``bad_name``).
    Clients show the name they are sent as plain text; applied twice it changes nothing."""
    return _squeezed(raw)[:MAX_NAME].rstrip()


def _squeezed(raw: str) -> str:
    return " ".join(clean_text(raw, len(raw)).split())


def name_problem(raw: Any) -> str | None:
    """Why a player name typed on this side (``--name``, the config file's ``name``) is not the
    name the host would seat, or None: not a string, empty once cleaned (:func:`clean_name`), or
    longer than :data:`MAX_NAME` characters — the host would cut it; the web page's name field
    stops at the same length."""
    if not isinstance(raw, str):
        return f"a player name is text, not {type(raw).__name__}"
    clean = _squeezed(raw)
    if not clean:
        return "a player name must have a printable character (control characters are removed)"
    if len(clean) > MAX_NAME:
        return f"a player name is at most {MAX_NAME} characters (this one has {len(clean)})"
    return None


LOG_LIMIT = 120
"""Longest piece of client text in one host log line, in characters (after escaping)."""


def for_log(value: Any, limit: int = LOG_LIMIT) -> str:
    """Anything a client sent, made safe for the operator's terminal (the host's log): a string
    as it is, anything else as its ``repr``; control, format and other non-printing characters
    (ESC, BEL, bidi overrides, line breaks) escaped as ``\\x1b``, ``\\u202e``…; cut to ``limit``
    characters with ``…(N chars)`` saying how long it was. Issue #9: an unknown ``type`` of
    ESC/BEL cleared the screen, and one of 60 KB made a 60 KB log line."""
    text = value if isinstance(value, str) else repr(value)
    out: list[str] = []
    n = 0
    for ch in text[:limit]:
        if ch == " " or unicodedata.category(ch)[0] not in "CZ":
            piece = ch
        else:
            piece = ch.encode("unicode_escape").decode("ascii")
        n += len(piece)
        if n > limit:
            break
        out.append(piece)
    else:
        if len(text) <= limit:
            return "".join(out)
    return "".join(out) + f"…({len(text)} chars)"


def _field(msg: dict, key: str, types: tuple, required: bool = False, default: Any = None,
           max_len: int | None = None) -> Any:
    if key not in msg or msg[key] is None:
        if required:
            raise ProtocolError("bad_message", f"{msg['type']}: field {key!r} is required")
        return default
    v = msg[key]
    if isinstance(v, bool) and bool not in types:
        raise ProtocolError("bad_message", f"{msg['type']}: field {key!r} must be {_names(types)}, not a boolean")
    if not isinstance(v, types):
        raise ProtocolError("bad_message", f"{msg['type']}: field {key!r} must be {_names(types)}, "
                                           f"not {type(v).__name__}")
    big = too_large(v, MAX_ARG_DIGITS)
    if big:  # a count, never an amount: cut before it reaches an error message (issue #9)
        raise ProtocolError("bad_message", f"{msg['type']}: field {key!r}: {big}")
    if max_len is not None and isinstance(v, (str, bytes, list)) and len(v) > max_len:
        raise ProtocolError("bad_message", f"{msg['type']}: field {key!r} is longer than {max_len}")
    return v


def _names(types: tuple) -> str:
    return " or ".join({"str": "a string", "int": "an integer", "bool": "true/false", "list": "a list",
                        "dict": "a map"}.get(t.__name__, t.__name__) for t in types)


def check_seat(seat: int | None, players: int) -> None:
    """Raise ``bad_message`` (closed) for a hello's ``seat`` the table of ``players`` seats has not:
    "seat 99 does not exist (this table has seats 0…2)"."""
    if seat is not None and not 0 <= seat < players:
        raise ProtocolError("bad_message", f"seat {str(seat)[:24]} does not exist (this table has seats "
                                           f"0…{players - 1})", fatal=True)


def check_client_message(msg: dict) -> dict:
    """Validate a client message; return a normalised copy (defaults filled in).

    Raises ProtocolError: ``unknown_kind`` for another ``type``, ``bad_message`` for a field of
    the wrong type or size, ``bad_name`` for an empty name.
    """
    kind = msg["type"]
    if kind == "hello":
        version = _field(msg, "protocol", (str,), required=True, max_len=16)
        clean = clean_name(_field(msg, "name", (str,), required=True, max_len=MAX_NAME_SENT))  # "bot  1": "bot 1"
        if not clean:
            raise ProtocolError("bad_name", "the player name is empty (after removing control and blank characters)",
                                fatal=True)
        big = too_large(msg.get("seat"), MAX_ARG_DIGITS)
        if big:  # a seat that does not exist: closed, as below
            raise ProtocolError("bad_message", f"hello: field 'seat': {big}", fatal=True)
        seat = _field(msg, "seat", (int,))  # one the table has not: closed (check_seat, once the table is known)
        return {
            "type": "hello", "protocol": version, "name": clean,
            "lang": host_lang(_field(msg, "lang", (str,), default="en", max_len=MAX_LANG)),
            "password": _field(msg, "password", (str,), max_len=MAX_PASSWORD),
            "token": _field(msg, "token", (str,), max_len=MAX_TOKEN),
            "spectate": bool(_field(msg, "spectate", (bool,), default=False)),
            "seat": seat,
            "table": _field(msg, "table", (str,), max_len=64),
            "bot": bool(_field(msg, "bot", (bool,), default=False)),
            "rematch": bool(_field(msg, "rematch", (bool,), default=False)),
        }
    if kind == "act":
        action = _field(msg, "action", (list,), required=True, max_len=4)
        if not action or not isinstance(action[0], str) or len(action[0]) > 32:
            raise ProtocolError("bad_message", "act: action must be [verb, argument?] with a string verb")
        for arg in action[1:]:
            _check_argument(arg)
        version = _field(msg, "version", (int,), required=True)
        seat = _field(msg, "seat", (int,))
        return {"type": "act", "action": action, "version": version, "seat": seat}
    if kind == "chat":
        text = _field(msg, "text", (str,), required=True, max_len=4 * MAX_CHAT)
        return {"type": "chat", "text": clean_text(text, MAX_CHAT)}
    if kind == "rematch":
        return {"type": "rematch", "accept": bool(_field(msg, "accept", (bool,), default=True))}
    if kind == "lang":
        return {"type": "lang", "lang": host_lang(_field(msg, "lang", (str,), required=True, max_len=MAX_LANG))}
    if kind in ("nonce_hash", "nonce"):
        key = "hash" if kind == "nonce_hash" else "nonce"
        deal = _field(msg, "deal", (int,), required=True)
        value = _field(msg, key, (str,), required=True, max_len=64)
        return {"type": kind, "deal": deal, key: value}
    if kind in ("leave", "ping"):
        out = {"type": kind}
        if kind == "ping":
            out["id"] = _field(msg, "id", (int, str))
            if isinstance(out["id"], str) and len(out["id"]) > 64:
                raise ProtocolError("bad_message", "ping: id is longer than 64")
        return out
    raise ProtocolError("unknown_kind", f"unknown message type {kind[:40]!r} "
                                        f"(client messages: {', '.join(CLIENT_KINDS)})")


_SCALARS = (str, int, type(None))  # bool is an int


def _check_argument(arg: Any) -> None:
    """An action's argument has one of the shapes the engine's verbs take (a card or a suit: a
    str; a whole number; nil; a list of cards: a list of those scalars), strings at most
    :data:`MAX_ARG_STR` characters, lists at most :data:`MAX_ARG_LIST` long — so that nothing a
    client nests (``["play", [[[…]]]]`` 990 deep, issue #9) reaches the rules engine or an error
    message. Raises ProtocolError ``bad_message``."""
    if isinstance(arg, list):
        if len(arg) > MAX_ARG_LIST:
            raise ProtocolError("bad_message", f"act: a list argument has at most {MAX_ARG_LIST} elements")
        items = arg
    else:
        items = (arg,)
    for x in items:
        if isinstance(x, bool):
            raise ProtocolError("bad_message", "act: an argument is a card, a suit, a number or a list of cards, "
                                               "not true/false")
        if not isinstance(x, _SCALARS):
            what = "a list nested in a list" if isinstance(x, list) else type(x).__name__
            raise ProtocolError("bad_message", "act: an argument is a card, a suit, a number or a list of cards "
                                               f"(nested at most one level), not {what}")
        if isinstance(x, str) and len(x) > MAX_ARG_STR:
            raise ProtocolError("bad_message", f"act: an argument string is longer than {MAX_ARG_STR} characters")
        big = too_large(x, MAX_ARG_DIGITS)
        if big:
            raise ProtocolError("bad_message", f"act: an argument: {big}")


_LOOKALIKE = str.maketrans({
    # Cyrillic and Greek letters (case-folded) that print as a Latin one, and Latin ones that
    # print alike in most fonts (l and capital I, 0 and O, script g, dotless i)
    "а": "a", "в": "b", "е": "e", "з": "3", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h",
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "y", "χ": "x",
    "l": "i", "ı": "i", "ɩ": "i", "0": "o", "ɡ": "g", "ɑ": "a", "ʏ": "y",
})


def name_key(name: str) -> str:
    """How two player names are compared (:func:`distinct_name`): NFKC-normalised, case-folded,
    accents and other combining marks dropped, letters that print alike made one (Cyrillic or
    Greek О and Latin O, l and I, 0 and O), spaces collapsed — ``"Olga"``, ``"olga"``,
    ``"ＯＬＧＡ"``, ``"Olga "``, ``"Оlga"`` (Cyrillic О), ``"O\u0336lga"`` and ``"OIga"`` are one
    name. Only for comparing: a player is seated and shown under the name as cleaned."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    # every non-spacing or enclosing mark: accents, and those of combining class 0 that print as
    # nothing or around a letter (variation selectors, U+034F, enclosing circles…)
    bare = "".join(ch for ch in folded if unicodedata.category(ch) not in ("Mn", "Me"))
    return " ".join(bare.translate(_LOOKALIKE).split())


def distinct_name(name: str, taken: Any) -> str:
    """``name`` if no name in ``taken`` is the same (:func:`name_key`), else ``name 2``,
    ``name 3``… — the first free one, the number kept within :data:`MAX_NAME` characters
    (issue #9: two players could sit under one name)."""
    keys = {name_key(t) for t in taken if t}
    if name_key(name) not in keys:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[:MAX_NAME - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
        n += 1


LANGUAGES = ("en", "ru")
"""The languages a host writes labels and texts in (docs/plugins.md: a plugin is asked for these)."""


def host_lang(lang: str) -> str:
    """The language a client asking for ``lang`` gets: :func:`normalize_lang`, and English for
    one the host has no texts in — so a table's fan-out never builds the same public view twice
    for spectators who named made-up languages (issue #9)."""
    lang = normalize_lang(lang)
    return lang if lang in LANGUAGES else "en"


def normalize_lang(lang: str) -> str:
    """A language tag reduced to its primary subtag: ``"ru_RU.UTF-8"``, ``"ru-RU"`` → ``"ru"``
    (``"en"`` if nothing is left)."""
    head = lang.strip().replace("-", "_").split(".", 1)[0].split("_", 1)[0].lower()
    return head if head.isalpha() and head.isascii() else "en"


def version_compatible(version: str) -> bool:
    """True if ``version`` is exactly ``"MAJOR.MINOR"`` (ASCII digits) with this host's major."""
    m = _VERSION_RE.match(version)
    return m is not None and int(m.group(1)) == PROTOCOL_MAJOR


_VERSION_RE = re.compile(r"([0-9]{1,4})\.[0-9]{1,4}\Z")
