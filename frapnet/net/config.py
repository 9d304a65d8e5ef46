"""The settings of one table, built once (from the command line, or by a test) and read by
everything that runs it (style.md item 8: one config object instead of 20-odd keyword
arguments). :class:`frapnet.hosting.HostConfig` adds the host's own settings around it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TableConfig:
    """One table's settings (frozen; ``dataclasses.replace`` makes a changed copy).

    - ``name``: shown to players and in the LAN announcement (1…63 bytes of UTF-8).
    - ``game``, ``players`` (n seats, 0…n−1 clockwise), ``options`` (the game's table options,
      amounts in whole chips), ``house_rules`` (names): checked by :func:`frapnet.engine.new_match`
      when the table is made (RuleError naming the rule, PluginError).
    - ``password``: None for an open table.
    - ``grace``: seconds a dropped player keeps the seat before the host plays it.
    - ``pause``: seconds between deals.
    - ``deals``: stop after this many deals (None: until the game's match ends).
    - ``record``: a record file kept up to date (:mod:`frapnet.net.journal`), or None.
    - ``level``, ``bot_delay``: the takeover computer player's level and seconds per move.
    - ``seed``: shuffles, the first dealer (F7) and computer moves reproducible (None: system
      randomness).
    - ``nonce_time``: seconds each seat has for each answer of a deal's shuffle (its nonce hash,
      then its nonce; docs/fairness.md); a seat that does not answer in time is left out. 0:
      no seat is asked (the deck follows from the host's seed alone — tests only).
    - ``max_spectators``: more spectators are refused with ``busy`` (watchers can never fill
      the host's connections and lock players out of their seats).
    - ``rematch``: seconds a finished match waits for its players to accept a rematch with the
      same seats (:mod:`frapnet.net.rematch`; default 60); 0: no offer, the table closes at once.
    - ``turn_time``: the turn clock (issue #9), seconds a connected seat has to act before the
      computer player makes that one move for it (the seat stays the player's); None or 0: off
      (the library's and `frapnet play`'s default; `frapnet host` uses 120).
    """

    name: str = "frap table"
    game: str = "frap"
    players: int = 4
    options: dict = field(default_factory=dict)
    house_rules: tuple = ()
    password: str | None = None
    grace: float = 120.0
    pause: float = 1.0
    deals: int | None = None
    record: str | None = None
    level: str = "basic"
    bot_delay: float = 0.0
    seed: Any = None
    max_spectators: int = 32
    rematch: float = 60.0
    turn_time: float | None = None
    nonce_time: float = 3.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", dict(self.options or {}))
        object.__setattr__(self, "house_rules", tuple(self.house_rules or ()))
