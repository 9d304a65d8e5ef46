"""Safe text for the terminal: everything another player or the network can write.

Names, chat lines, table names, labels, log lines and error messages arrive from the network.
Before they reach the screen :func:`safe_text` removes terminal escape sequences (CSI, OSC, DCS,
…) and replaces every other control or formatting character (C0, DEL, C1, bidi overrides,
zero-width and line/paragraph separators) with ``"�"``-free visible text, so nobody can move the
cursor, recolour, retitle or rewrite another player's screen. :func:`safe_name` also cuts a
name to :data:`NAME_CELLS` terminal cells with an ellipsis.

Player names follow the host's one rule (:func:`frapnet.net.protocol.clean_name`, docs/protocol.md
``hello``): a name the host sends is shown as sent — :func:`safe_name` changes nothing in it but
the cut to the column's width (issue #9); it only guards against a host that did not clean it.
"""
from __future__ import annotations

import re
import unicodedata

from prompt_toolkit.utils import get_cwidth

NAME_CELLS = 16
"""The widest a player or table name is shown, in terminal cells."""

# ESC-introduced sequences: CSI (ESC [ … final), OSC/DCS/SOS/PM/APC (ESC ] … BEL or ST),
# two-character escapes (ESC x); and the 8-bit C1 forms of CSI (0x9b) and OSC/DCS/… (0x9d…).
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"                      # CSI
    r"|\x1b[\]PX^_].*?(?:\x07|\x1b\\|\x9c|$)"        # OSC, DCS, SOS, PM, APC … to BEL/ST
    r"|\x1b[ -/]*[0-~]?"                              # other ESC sequences (and a lone ESC)
    r"|\x9b[0-?]*[ -/]*[@-~]?"                        # 8-bit CSI
    r"|[\x90\x98\x9d\x9e\x9f].*?(?:\x07|\x1b\\|\x9c|$)",  # 8-bit DCS/SOS/OSC/PM/APC
    re.S)


def _visible(ch: str) -> str:
    """``ch`` itself if printable, a space for whitespace controls, else nothing."""
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Zl", "Zp"):
        return " " if ch in "\t\n\r\x0b\x0c\u2028\u2029\x85" else ""
    if cat in ("Cf", "Cs", "Co", "Cn"):
        return ""  # bidi overrides, zero-width joiners, surrogates, private use, unassigned
    return ch


def safe_text(text, limit: int | None = None) -> str:
    """``text`` (any value; non-strings are shown with ``str``) with escape sequences removed and
    control/format characters dropped (tabs and line breaks become spaces), on one line. With
    ``limit`` (terminal cells) the result is cut to fit, ending in ``"…"`` when cut."""
    if text is None:
        return ""
    if not isinstance(text, str):
        text = str(text)
    if text.isprintable():
        s = text
    else:
        s = "".join(_visible(ch) for ch in _ESCAPES.sub("", text))
    if limit is not None:
        s = cut(s, limit)
    return s


def safe_name(text, limit: int = NAME_CELLS) -> str:
    """A player or table name made safe (:func:`safe_text`), spaces squeezed, cut to ``limit``
    cells; ``"?"`` if nothing printable is left."""
    s = " ".join(safe_text(text).split())
    return cut(s, limit) or "?"


def width(s: str) -> int:
    """Terminal cells ``s`` takes (wide characters count 2)."""
    return sum(get_cwidth(c) for c in s)


def cut(s: str, limit: int) -> str:
    """``s`` cut to at most ``limit`` terminal cells, ending in ``"…"`` when cut."""
    if limit <= 0:
        return ""
    if width(s) <= limit:
        return s
    out, w = [], 0
    for ch in s:
        cw = get_cwidth(ch)
        if w + cw > limit - 1:
            break
        out.append(ch)
        w += cw
    return "".join(out) + "…"


def cut_apart(names: list[str], limits: list[int]) -> list[str]:
    """Each of ``names`` cut to its ``limits`` cells (:func:`cut`) so that names that differ stay
    apart: where two cut alike ("Bot 10" and "Bot 11" → "Bot…"), each of them keeps its end
    after the ellipsis instead ("B…10", "B…11"), as much of it as tells them apart."""
    out = [cut(n, k) for n, k in zip(names, limits)]
    for _round in range(2):  # at most twice: ends kept, then nothing better to do
        seen: dict[str, list[int]] = {}
        for i, c in enumerate(out):
            seen.setdefault(c, []).append(i)
        alike = [ix for ix in seen.values() if len(ix) > 1 and len({names[i] for i in ix}) > 1]
        if not alike:
            break
        for ix in alike:
            for i in ix:
                out[i] = _cut_keeping_end(names[i], limits[i], [names[j] for j in ix if names[j] != names[i]])
    return out


def _cut_keeping_end(name: str, limit: int, others: list[str]) -> str:
    """``name`` in at most ``limit`` cells as its start, "…" and the shortest end of it that no
    name of ``others`` has; just its start (:func:`cut`) if no such end fits."""
    if width(name) > limit >= 3:
        for k in range(1, len(name)):
            tail = name[-k:]
            if width(tail) + 2 > limit:
                break
            if not any(o.endswith(tail) for o in others):
                return cut(name, limit - width(tail)) + tail  # cut's "…" between start and end
    return cut(name, limit)


def pad(s: str, cells: int) -> str:
    """``s`` cut or padded with spaces to exactly ``cells`` terminal cells."""
    s = cut(s, cells)
    return s + " " * (cells - width(s))


def fmt_amount(n) -> str:
    """A whole amount of chips with its sign (``+200``, ``−100``, ``0``); exact at any size (F6)."""
    if not isinstance(n, int) or isinstance(n, bool):
        return safe_text(n, 24)
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "0"


def wrap(s: str, cells: int, rest: int | None = None) -> list[str]:
    """``s`` broken into lines of at most ``cells`` terminal cells at spaces (the lines after the
    first at most ``rest`` cells, default ``cells``: room for a hanging indent); a word longer
    than a line (a long URL, ``aaaa…``) starts a new line and is cut across full lines, nothing
    added to it or dropped from it (issue #10). At least one line."""
    if cells <= 0:
        return [s]
    later = cells if rest is None else max(1, rest)
    lines: list[str] = []
    cur, cw = "", 0

    def room() -> int:
        return cells if not lines else later

    for word in s.split(" "):
        ww = width(word)
        if cur and cw + 1 + ww <= room():
            cur, cw = cur + " " + word, cw + 1 + ww
            continue
        if cur or lines:
            lines.append(cur)
        while ww > room():  # a very long word: full lines of it
            part, pw = "", 0
            for ch in word:
                c = get_cwidth(ch)
                if pw + c > room() and part:
                    break
                part, pw = part + ch, pw + c
            lines.append(part)
            word = word[len(part):]
            ww = width(word)
        cur, cw = word, ww
    lines.append(cur)
    return lines


# said when the host stops with the match unfinished and resumes it (closing's resumable, issue #9;
# translated in frapnet/locale like every _() string)
HOST_STOPPED = ("The host stopped; the match is not over. Once the host is back, run the same join command "
                "again to take your seat back.")
HOST_STOPPED_WATCHING = ("The host stopped; the match is not over. Once the host is back, run the same join command "
                         "again to watch on.")  # (a spectator has no seat to take back)
HOST_STOPPED_HERE = "The table stopped; the match is not over. Run the same command again to go on with it."
# (`frapnet host --play`: the host ran in this very process, and its command resumes the match)
# said when another connection took this seat with its token (closing's code "replaced"): the
# player's own other terminal or window, most often (a second `frapnet join` under the same name)
SEAT_TAKEN_OVER = ("This seat was taken over by another connection with its token (another terminal or window, "
                   "perhaps); the game goes on there.")
DEAL_INTERRUPTED = ("Deal {n} was interrupted: the host stopped before revealing its shuffle. It is checked when "
                    "the host reveals it after resuming; if it cannot be checked then, it is not checked.")


# The host writes its error messages in English (docs/protocol.md "error"); a client in another
# language shows the sentence for the error's code instead, translated in frapnet/locale like every
# _() string (issue #10: a Russian screen had English lines). Codes: protocol.ERROR_CODES, and the
# client's own "closed" (the connection closed before the welcome).
ERROR_TEXTS = {
    "malformed": "The host could not read a message from this client.",
    "too_large": "A message was too large for the host.",
    "bad_message": "The host refused a malformed message.",
    "unknown_kind": "The host does not know a message this client sent.",
    "version": "This client's protocol version does not match the host's.",
    "password": "Wrong or missing password.",
    "bad_name": "The name is empty once control characters are removed.",
    "no_table": "There is no such table on this host.",
    "table_full": "Every seat is taken; you can join as a spectator.",
    "no_rematch": "No rematch is on offer now.",
    "seat_taken": "That seat is taken.",
    "bad_token": "The seat token is not valid at this table.",
    "not_joined": "The host expected a hello first.",
    "already_joined": "This connection has already joined.",
    "not_seated": "Spectators do not act.",
    "wrong_seat": "You cannot act for another seat.",
    "stale": "Too late: the table has moved on; choose again.",
    "illegal": "The host refused the move: it breaks a rule.",
    "flood": "Too many messages a second; some were dropped.",
    "timeout": "The host waited too long for this client's hello.",
    "busy": "The host is busy (too many connections); try again later.",
    "internal": "The host failed to handle a message (a bug on the host; it is logged there).",
    "late": "A shuffle answer was not expected now.",
    "bad_nonce": "The shuffle nonce did not match its hash; this seat is left out of the shuffle.",
    "closed": "The host closed the connection.",
}


def error_text(err: dict, gettext, lang: str) -> str:
    """An ``error`` message (or a refused join: ``code``, ``message``, ``rule``) as one line for
    the screen: the host's own message in English, the code's sentence (:data:`ERROR_TEXTS`)
    translated by ``gettext`` in another language; the rule ID after it in brackets."""
    code = err.get("code")
    if lang != "en" and isinstance(code, str) and code in ERROR_TEXTS:
        text = gettext(ERROR_TEXTS[code])
    else:
        text = safe_text(err.get("message") or code, 300)
    rule = err.get("rule")
    return text + (f" ({safe_text(rule, 12)})" if rule else "")


def fit_lines(text: str, columns: int | None = None) -> str:
    """``text`` for a plain terminal ``columns`` cells wide (default: this terminal's width; the
    final standings after the full screen is gone): each line longer than ``columns`` − 1 cells
    broken between words (:func:`wrap`), every part indented as the line was, the parts after the
    first one more."""
    if columns is None:
        import shutil
        columns = shutil.get_terminal_size((80, 24)).columns
    out = []
    for line in text.splitlines():
        body = line.lstrip(" ")
        indent = line[:len(line) - len(body)]
        cells = max(20, columns - 1 - len(indent))
        out += [indent + (" " if i else "") + part for i, part in enumerate(wrap(body, cells, cells - 1))]
    return "\n".join(out)


def join_problem(f, gettext, lang: str) -> str:
    """Why joining failed (a Failure: the host's refusal, JoinError, or no connection), in
    ``lang``: a refusal as the host says it in English, else by its code
    (:func:`frapnet.tui.text.error_text`); a connection failure by its kind, in words."""
    from twisted.internet import error

    from frapnet.net.client import JoinError

    if f.check(JoinError):  # the host's refusal: its own words in English
        if lang == "en":
            return f.getErrorMessage() or f.type.__name__
        return error_text({"code": f.value.code, "message": f.value.message}, gettext, lang)
    _ = gettext  # no connection: in words, not Twisted's ("Connection was refused by other side: 111: …")
    if f.check(error.ConnectionRefusedError):
        return _("nobody is listening at that address and port")
    if f.check(error.DNSLookupError):
        return _("no computer of that name was found")
    if f.check(error.TimeoutError, error.TCPTimedOutError):
        return _("the host did not answer in time")
    if f.check(error.NoRouteError):
        return _("there is no route to that address")
    if f.check(error.ConnectionDone, error.ConnectionLost):  # a port that is not a frapnet table's
        return _("the other side closed the connection without answering: is a frapnet table at that port?")
    return _("the connection failed: {why}").format(why=f.getErrorMessage() or f.type.__name__)
