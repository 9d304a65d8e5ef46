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
      deal reports; ``totals``: per settled deal, oldest first, ``{"deal": deal_no,
      "after": [balances after it], "pot": pot after it}`` (the score sheet of the match: the
      view's ``sheet`` rows themselves, never changed); ``version``: accepted actions and deals so
      far (the wire's state version).
    - ``match``: a dict the game may use for match-level data (Frak You penalty points…);
      copied on clone, so a game must replace nested values rather than mutate them.
    """

    __slots__ = ("game", "spec", "players", "options", "house_rules", "rules", "balances", "pot",
                 "phase", "deal_no", "dealer", "deal", "deal_over", "to_act", "history",
                 "reports", "totals", "version", "match")

    def deals(self, since: int = 0) -> list[tuple[int, tuple, tuple]]:
        """Every deal so far, oldest first — from the deal of 0-based index ``since`` on —
        as ``(dealer, deck, actions)`` with actions a tuple."""
        entries = []
        node = self.history
        while node is not None:
            node, entry = node
            entries.append(entry)
        entries.reverse()
        return [(dealer, deck, tuple(_unwind(acts))) for dealer, deck, acts in entries[since:]]

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
        new.totals = self.totals
        new.version = self.version
        new.match = dict(self.match)
        return new

    def last_action(self) -> tuple | None:
        """The deal in progress's last action as recorded, ``(seat, verb, arg?)``, or None (no
        deal yet, or none of its actions applied)."""
        node = self.history
        if node is None:
            return None
        acts = node[1][2]
        return acts[1] if acts is not None else None

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

    ``clone()`` (style.md 5, OpenSpiel's copy constructor): a subclass that declares which of its
    fields hold lists gets a generated fast copy instead of writing one —
    ``COPY_LISTS``: fields holding a flat list (copied with ``[:]``); ``COPY_NESTED``: fields
    holding a list of lists (each inner list copied); every other slot is shared, so it must hold
    an immutable value (int, str, tuple, None, frozenset) or be replaced, never mutated. A subclass
    that defines ``clone`` itself keeps its own."""

    __slots__ = ()
    COPY_LISTS: tuple[str, ...] = ()
    COPY_NESTED: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "clone" not in cls.__dict__ and (cls.COPY_LISTS or cls.COPY_NESTED):
            cls.clone = _generated_clone(cls)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None


def _generated_clone(cls):
    """``clone(self)`` for ``cls``, generated from its ``__slots__``, ``COPY_LISTS`` and
    ``COPY_NESTED`` (one straight-line function, as fast as a hand-written one)."""
    slots = [s for k in reversed(cls.__mro__) for s in getattr(k, "__slots__", ()) if s != "__weakref__"]
    lists, nested = set(cls.COPY_LISTS), set(cls.COPY_NESTED)
    unknown = (lists | nested) - set(slots)
    if unknown:
        raise TypeError(f"{cls.__name__}: COPY_LISTS/COPY_NESTED name fields not in __slots__: {sorted(unknown)}")
    lines = ["def clone(self):", "    new = _new(_cls)"]
    for f in slots:
        if f in nested:
            lines.append(f"    new.{f} = [x[:] for x in self.{f}]")
        elif f in lists:
            lines.append(f"    new.{f} = self.{f}[:]")
        else:
            lines.append(f"    new.{f} = self.{f}")
    lines.append("    return new")
    ns = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), ns)  # noqa: S102 - code built from the class's own slot names
    fn = ns["clone"]
    fn.__doc__ = f"A copy of this {cls.__name__} sharing nothing mutable (generated from its declared fields)."
    fn.__qualname__ = f"{cls.__name__}.clone"
    return fn


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
