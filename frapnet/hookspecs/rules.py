"""The rules hooks of the plugin API: registration, options, the pack, dealing, legal actions,
applying an action, trick-winning, settling and the reports, and a settled deal's statistics.

The engine (:mod:`frapnet.engine`) calls them; the plugin loader calls the two ``register``
hooks. Every spec here is exposed by :mod:`frapnet.hookspecs`, whose docstring has the shapes
(``state``, ``seat``, ``action``, ``event``) and the version policy.
"""
from __future__ import annotations

from frapnet.hookspecs.markers import hookspec


# --- registration (called once per plugin by the loader) -------------------------------------

@hookspec
def frapnet_register_games(register):
    """Register the games this plugin provides.

    ``register(spec)`` takes a :class:`frapnet.engine.spec.GameSpec` (name, title, player
    range and its rule ID, options, verbs, ledger kind). Return value ignored.
    Called by the loader once per plugin; a name already taken is refused with a message.
    """


@hookspec
def frapnet_register_house_rules(register):
    """Register the house rules this plugin provides.

    ``register(spec)`` takes a :class:`frapnet.engine.spec.HouseRuleSpec` (name, games it
    applies to, rule ID). A house rule is active at a table only when the table lists it in
    ``house_rules`` (F27); its other hooks are then registered on that table's manager.
    """


# --- per table (called by the engine; firstresult) -------------------------------------------

@hookspec(firstresult=True)
def frapnet_validate_options(spec, players, options):
    """Check a table's options as a whole, after each was parsed by its ``OptionSpec``.

    ``spec`` is the GameSpec, ``players`` the seat count, ``options`` a dict with every
    option (defaults filled in). Return the dict to use (e.g. ``deck: "auto"`` resolved), or
    raise RuleError naming the rule (F2: deck too small for the players). Called once when a
    table or record is opened.
    """


@hookspec(firstresult=True)
def frapnet_pack(state):
    """Return the pack this table deals, as a list of canonical cards (F2: 32/36/52 cards).

    The engine checks that every deck passed to :func:`frapnet_deal` is a permutation of it.
    """


@hookspec(firstresult=True)
def frapnet_deal(state, deck, dealer):
    """**Dealing.** Start a deal on ``state`` from ``deck`` (list of cards, top first).

    Set ``state.deal`` (the game's per-deal object), ``state.to_act`` and collect antes/stakes
    into ``state.pot`` (F5). ``dealer`` is the dealing seat (F7/F8). Return a list of events.
    """


@hookspec(firstresult=True)
def frapnet_legal_actions(state, seat):
    """Every action ``seat`` may take now, as a list of action tuples, and no other.

    A seat that may not act returns ``[]`` (or e.g. ``[("look",)]`` in Frap, F9). Called at
    every step by the host, the bots and the tests.
    """


@hookspec(firstresult=True)
def frapnet_apply_action(state, seat, action):
    """Apply ``action`` (already normalised) by ``seat`` to ``state`` in place.

    Raise RuleError with the rule ID if it is not legal. Set ``state.deal_over = True`` when
    the deal has ended; the engine then calls :func:`frapnet_settle`. Return a list of events.
    A game calls :func:`frapnet_trick_winner` through ``state.rules.trick_winner(state, trick)``
    when a trick is complete, so that house rules can change trick-winning.
    """


@hookspec(firstresult=True)
def frapnet_trick_winner(state, trick):
    """**Trick-winning.** Return the seat that wins ``trick``.

    ``trick`` is a list of ``(seat, card)`` in playing order, the lead first. Frap: F21 (the
    highest trump, else the highest card of the suit led).
    """


@hookspec(firstresult=True)
def frapnet_settle(state):
    """**Scoring.** Settle the ended deal on ``state`` in place and return its report.

    Move chips between ``state.balances`` and ``state.pot`` (F23/F24) or add points. If the
    match has ended (K12, L12), replace ``state.match`` with a dict holding ``"over": True``
    (``state.match = dict(state.match, over=True)``; the engine reads ``state.match.get("over")``
    and then sets ``state.phase`` to ``"over"``). The report is a dict for
    ``frapnet replay --json`` (record-format.md), e.g. ``{"dealer": 0, "outcome": "played",
    "trump": "C", "tricks": [...], "remises": [...], "pot_after": 1200}``.
    """


@hookspec(firstresult=True)
def frapnet_deal_report(state):
    """The report of the deal in progress (``outcome: "unfinished"``), for a record that stops
    mid-deal (record-format.md, "Reporting conventions")."""


@hookspec(firstresult=True)
def frapnet_match_report(state):
    """Match-level keys of ``frapnet replay --json``: ``{"balances": [...], "pot": n}`` for a
    chips game, ``{"points": [...]}`` for a points game."""


# --- statistics (called by `frapnet stats`; optional, firstresult) -----------------------------

@hookspec(firstresult=True)
def frapnet_deal_stats(state, report):
    """The game's own counts for one settled deal, per seat — what `frapnet stats` adds up per
    player across the journal's matches (issue #9 item 3).

    :param state: the State right after the deal was settled (``state.phase`` is ``"between"``
        or ``"over"``; ``state.deal`` is that deal, ``state.balances`` the ledger after it).
    :param report: that deal's report (``frapnet_deal_report``, the same dict as
        ``state.reports[-1]``).
    :returns: ``{count_name: [k_0, …, k_{n−1}]}`` — per count (snake_case, e.g. Frap's
        ``fraps_made``, ``fraps_failed``, ``blind_fraps``, ``remises``; Napoleon's
        ``contracts_made``, ``contracts_failed``), a whole number ≥ 0 per seat 0…n−1 of how many
        times it happened to that seat in this deal (usually 0 or 1). Names are shown with
        ``_`` as spaces. None (or no implementation): the game has no counts of its own; the
        matches, deals and net result are counted anyway.
    """
