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


def shown(value) -> str:
    """``repr(value)`` for an error message, cut to :data:`SHOWN` characters with how long it was
    (issue #9: an option of 100,000 characters was quoted whole, a 100 KB line)."""
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}…({len(text)} characters)"


class PluginError(FrapnetError):
    """A plugin that could not be loaded or used (import error, API version, name clash)."""
