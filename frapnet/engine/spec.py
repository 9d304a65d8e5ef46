"""Game and option descriptions that plugins register (pure data, no I/O)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from frapnet.errors import RuleError, shown

# Argument kinds of a verb, used to check and normalise actions before a game sees them.
ARG_NONE = None      # ("pass",)
ARG_CARD = "card"    # ("play", "10H")         one card, canonical string
ARG_CARDS = "cards"  # ("buy", ("7C", "8H"))  a tuple of cards, sorted by cards.card_key
ARG_INT = "int"      # ("bid", 3)              a whole number (not a bool)
ARG_SUIT = "suit"    # ("declare", "H")        a suit letter S, H, D or C


@dataclass(frozen=True)
class OptionSpec:
    """One table option of a game (F27: agreed before play, shown to every player).

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``; ``choices`` lists the allowed values of
    a choice (a value is compared after ``coerce``, e.g. ``"32"`` → ``32``); ``check`` is an
    extra predicate for ints (e.g. "positive and divisible by 4"). A bad value raises
    :class:`RuleError` naming ``rule`` (a non-boolean flag names ``"record"``, per
    record-format.md).
    """

    name: str
    default: Any
    kind: str
    rule: str
    doc: str = ""
    choices: tuple = ()
    check: Callable[[Any], bool] | None = None
    check_doc: str = ""
    coerce: Callable[[Any], Any] | None = None

    def parse(self, value: Any) -> Any:
        """Return the normalised value, or raise RuleError naming this option and its rule."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RuleError("record", f"option {self.name!r} must be true or false, not {shown(value)}")
            return value
        if self.coerce is not None:
            try:
                value = self.coerce(value)
            except (TypeError, ValueError):
                pass
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(self.rule, f"option {self.name!r} must be a whole number, not {shown(value)}")
            if self.check is not None and not self.check(value):
                raise RuleError(self.rule, f"option {self.name!r} = {shown(value)}: {self.check_doc}")
            return value
        if self.kind == "choice":
            if isinstance(value, bool) or value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise RuleError(self.rule, f"option {self.name!r} = {shown(value)} is not one of {allowed}")
            return value
        raise ValueError(f"unknown option kind {self.kind!r}")  # a plugin bug

    def describe(self) -> dict:
        """Plain description for `frapnet games` and the handshake."""
        d = {"name": self.name, "default": self.default, "kind": self.kind, "rule": self.rule, "doc": self.doc}
        if self.choices:
            d["choices"] = list(self.choices)
        if self.check_doc:
            d["allowed"] = self.check_doc
        return d


@dataclass(frozen=True)
class GameSpec:
    """What a game plugin registers with ``frapnet_register_games``.

    - ``name``: the record's ``game`` (``"frap"``); ``title``: shown to players.
    - ``min_players``/``max_players`` and ``players_rule`` (``"F1"``): the seat range.
    - ``options``: the table options, in display order.
    - ``verbs``: verb → argument kind (``None``, ``"card"``, ``"cards"``, ``"int"``, ``"suit"``);
      any other verb is refused with rule ``"record"``.
    - ``dealer_rule``: the rule named when a later deal's dealer breaks the rotation (F7).
    - ``match_rule``: the rule named for a deal after the match has ended (K12), or None.
    - ``ledger``: ``"chips"`` (balances + pot = 0) or ``"points"`` (scores).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    players_rule: str
    options: tuple[OptionSpec, ...] = ()
    verbs: dict = field(default_factory=dict)
    dealer_rule: str = "record"
    match_rule: str | None = None
    ledger: str = "chips"
    summary: str = ""

    def option(self, name: str) -> OptionSpec | None:
        for o in self.options:
            if o.name == name:
                return o
        return None

    def defaults(self) -> dict:
        return {o.name: o.default for o in self.options}

    def describe(self) -> dict:
        return {
            "name": self.name, "title": self.title, "players": [self.min_players, self.max_players],
            "options": [o.describe() for o in self.options], "verbs": sorted(self.verbs),
            "ledger": self.ledger, "summary": self.summary,
        }


@dataclass(frozen=True)
class HouseRuleSpec:
    """What a house-rule plugin registers with ``frapnet_register_house_rules``.

    ``name`` is the record's ``house_rules`` entry; ``games`` the games it applies to;
    ``rule`` the rule ID it implements (``"F26"``).
    """

    name: str
    games: tuple[str, ...]
    rule: str = ""
    summary: str = ""

    def describe(self) -> dict:
        return {"name": self.name, "games": list(self.games), "rule": self.rule, "summary": self.summary}
