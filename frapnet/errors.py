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


class PluginError(FrapnetError):
    """A plugin that could not be loaded or used (import error, API version, name clash)."""
