"""Errors shared by the engine, records, plugins and the network layer."""
from __future__ import annotations


class FrapnetError(Exception):
    """Base class of frapnet's own errors."""


class RuleError(FrapnetError):
    """An action, option or record that breaks a rule.

    ``rule`` is the rule ID it breaks (``"F20"``, ``"N4"``…) or ``"record"`` for a malformed
    action, argument, option key or file (record-format.md, "Which rule an error names").
    The state the action was tried on is never changed.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")

    def to_dict(self) -> dict:
        return {"rule": self.rule, "message": self.message}

    def describe(self) -> str:
        """The error for people (:func:`describe`): ``"rule F5: …"``, or the message alone."""
        return describe(self.rule, self.message)


def describe(rule: str, message: str) -> str:
    """An error as a person reads it: ``"rule F5: the ante must be…"`` for a rule ID; the
    message alone for ``"record"``, which names no rule (the input itself was malformed: an
    unknown option, a bad card, not JSON) — so nobody reads "rule record:" (issue #10)."""
    return message if rule == "record" else f"rule {rule}: {message}"


SHOWN = 60
"""Longest value, as its ``repr``, an error message quotes whole (:func:`shown`)."""

MAX_INT_DIGITS = 100
"""Most decimal digits of a whole number the host takes for an option, ``--deals`` or a config
file value. Whatever the host takes it sends to every player (F27), and the amounts it grows
into (a pot of four antes, remises compounding: F6) too — and the protocol carries at most
:data:`frapnet.net.wire.MAX_BIGINT_DIGITS` (1,000) digits (ext 1): an ante of 1,000 digits made
a pot of 1,001 on the first deal, and no client could decode the views. 100 leaves 900 digits
of growth (about 3,000 doublings)."""

MAX_ARG_DIGITS = 19
"""Most decimal digits of a whole number in an action's argument (a bid) or in a client
message's field (a version, a seat, a deal, a ping's id): they count things, never chips, and
this keeps every one of them within 64 bits."""


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun for it: ``counted(1, "deal")`` is ``"1 deal"``, ``counted(3, "match",
    "matches")`` is ``"3 matches"`` (``many``: ``one + "s"`` when not given)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def digits(n: int) -> int:
    """The number of decimal digits of ``n`` (its sign not counted), without converting it to
    text (Python refuses ``str()`` past 4300 digits by default, and it costs time quadratic in
    the length)."""
    n = -n if n < 0 else n
    k = max(1, int((n.bit_length() - 1) * 0.30102999566398120) + 1)  # within one of the answer
    if n >= 10 ** k:
        return k + 1
    return k - 1 if k > 1 and n < 10 ** (k - 1) else k


def too_large(n, limit: int) -> str | None:
    """``"integer too large: N digits (limit L)"`` if whole number ``n`` has more than ``limit``
    digits, else None (also for anything that is not an int). Issue #9: an error quoted all of
    an integer of ~1,001 digits instead of naming the limit."""
    if not isinstance(n, int) or isinstance(n, bool) or -10 ** limit < n < 10 ** limit:
        return None
    return f"integer too large: {digits(n)} digits (limit {limit})"


def shown(value) -> str:
    """``repr(value)`` for an error message, cut to :data:`SHOWN` characters with how long it was
    (issue #9: an option of 100,000 characters was quoted whole, a 100 KB line); a whole number
    too long for that as ``"an integer of N digits"`` (no digits quoted)."""
    if isinstance(value, int) and not isinstance(value, bool) and not -10 ** SHOWN < value < 10 ** SHOWN:
        return f"an integer of {digits(value)} digits"
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}…({len(text)} characters)"


class PluginError(FrapnetError):
    """A plugin that could not be loaded or used (import error, API version, name clash)."""
