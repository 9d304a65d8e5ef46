"""The engine's plain state object."""
from __future__ import annotations

from typing import Any

# Match phases (the game keeps its own deal phases in ``state.deal``).
DEAL = "deal"          # a deal is in progress
BETWEEN = "between"    # waiting for the next deal (the host passes the next deck in)
OVER = "over"          # the match has ended (K12, L12); no further deal


class State:
    """One table's whole state: the match (ledger, dealer, history) and the deal in progress.

    Plain data; the engine never mutates a State it was given: :func:`frapnet.engine.apply`
    works on :meth:`clone`. Attributes:

    - ``game`` (str), ``spec`` (GameSpec), ``players`` (n), ``options`` (dict, every option),
      ``house_rules`` (tuple of names), ``rules`` (this table's hook callers).
    - ``balances``: list of n whole numbers (chips, or points in a points game);
      ``pot``: whole chips in the pot (Napoleon: the treasure). Chips games keep
      ``sum(balances) + pot == 0`` (F6).
    - ``phase``: ``"deal"``, ``"between"`` or ``"over"``; ``deal_no``: deals started so far;
      ``dealer``: the current deal's dealer (None before the first deal).
    - ``deal``: the game's per-deal object (has ``clone()``); ``deal_over``: set by the game
      when the deal has ended; ``to_act``: tuple of seats whose turn it is.
    - ``history``: the deals so far, as a persistent list (``None`` or ``(rest, entry)``, newest
      first, so appending is O(1) and clones share it); an entry is ``(dealer, deck tuple,
      actions)`` where ``actions`` is again such a list of ``(seat, verb[, arg])``. Use
      :meth:`deals` for plain tuples — enough to write a record; ``reports``: tuple of settled
      deal reports; ``version``: accepted actions and deals so far (the wire's state version).
    - ``match``: a dict the game may use for match-level data (Frak You penalty points…);
      copied on clone, so a game must replace nested values rather than mutate them.
    """

    __slots__ = ("game", "spec", "players", "options", "house_rules", "rules", "balances", "pot",
                 "phase", "deal_no", "dealer", "deal", "deal_over", "to_act", "history",
                 "reports", "version", "match")

    def deals(self) -> list[tuple[int, tuple, tuple]]:
        """Every deal so far, oldest first: ``(dealer, deck, actions)`` with actions a tuple."""
        out = []
        node = self.history
        while node is not None:
            node, (dealer, deck, acts) = node
            out.append((dealer, deck, tuple(_unwind(acts))))
        out.reverse()
        return out

    def clone(self) -> "State":
        new = State.__new__(State)
        new.game = self.game
        new.spec = self.spec
        new.players = self.players
        new.options = self.options
        new.house_rules = self.house_rules
        new.rules = self.rules
        new.balances = self.balances[:]
        new.pot = self.pot
        new.phase = self.phase
        new.deal_no = self.deal_no
        new.dealer = self.dealer
        new.deal = self.deal.clone() if self.deal is not None else None
        new.deal_over = self.deal_over
        new.to_act = self.to_act
        new.history = self.history
        new.reports = self.reports
        new.version = self.version
        new.match = dict(self.match)
        return new

    def __repr__(self) -> str:
        return (f"<State {self.game} n={self.players} phase={self.phase} deal={self.deal_no} "
                f"dealer={self.dealer} pot={self.pot} balances={self.balances} v={self.version}>")

    def __eq__(self, other: Any) -> bool:
        """Two states are equal when their ledger, history and deal are equal."""
        if not isinstance(other, State):
            return NotImplemented
        return (self.game == other.game and self.players == other.players
                and self.options == other.options and self.house_rules == other.house_rules
                and self.balances == other.balances and self.pot == other.pot
                and self.phase == other.phase and self.deal_no == other.deal_no
                and self.dealer == other.dealer and self.deals() == other.deals()
                and self.to_act == other.to_act and self.match == other.match
                and self.deal == other.deal)

    __hash__ = None  # mutable-looking; not hashable


class DealBase:
    """A base for a game's per-deal object (``state.deal``): equality field by field over the
    subclass's ``__slots__`` (records replayed to an equal state compare equal); not hashable.
    The subclass still writes its own fast ``clone()``."""

    __slots__ = ()

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None


def _unwind(node) -> list:
    out = []
    while node is not None:
        node, item = node
        out.append(item)
    out.reverse()
    return out


def push(node, item):
    """Append ``item`` to a persistent list (O(1); the old list is unchanged)."""
    return (node, item)
