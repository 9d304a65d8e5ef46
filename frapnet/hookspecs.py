"""The frapnet plugin API: pluggy hook specifications, versioned.

A **game plugin** (Frap itself, Napoleon, Frak You, La Krap, or yours) implements these hooks;
a **house-rule plugin** implements the few it changes and defers to the rest. Plugins are
modules or objects whose functions are marked with :data:`hookimpl`::

    from frapnet.hookspecs import hookimpl

    @hookimpl
    def frapnet_register_games(register):
        register(GameSpec(name="mygame", ...))

Who calls what: the engine (:mod:`frapnet.engine`) calls every hook except the two
``register`` hooks, which the plugin loader (:mod:`frapnet.plugins`) calls once per plugin.
Each table has its own plugin manager holding only its game's plugin and its active house
rules (registered after the game, so pluggy calls them first). All per-table hooks are
``firstresult``: the first implementation that returns something other than ``None`` decides,
so a house rule returns ``None`` to defer, or uses ``@hookimpl(wrapper=True)`` to adjust the
game's answer.

Shapes used by every hook:

- ``state`` — :class:`frapnet.engine.state.State`: ``players`` (n), ``options`` (dict),
  ``dealer``, ``balances`` (list of whole chips or points per seat 0…n−1), ``pot`` (whole chips),
  ``deal`` (the game's own per-deal object, with a ``clone()`` method), ``to_act`` (tuple of
  seats whose turn it is), ``rules`` (this table's hook callers).
- ``seat`` — an int 0…n−1, clockwise (F4).
- ``action`` — a tuple ``(verb,)`` or ``(verb, argument)``; cards are canonical strings
  (``"10H"``), card lists are tuples sorted by :func:`frapnet.cards.card_key`.
- ``event`` — a dict with ``"type"`` and public facts only (never a hidden card), e.g.
  ``{"type": "trick", "winner": 2, "cards": [[1, "AS"], …], "amount": 100}``.

Errors: a hook that refuses an action raises :class:`frapnet.errors.RuleError` naming the
rule ID (``RuleError("F20", "must follow suit ♥")``). It may have mutated ``state`` before
raising: the engine always works on a clone and discards it.

Version policy: :data:`API_VERSION` is ``"MAJOR.MINOR"``. A plugin declares the major version
it was written for as a module attribute ``FRAPNET_API = 1`` (``"1"`` and ``"1.0"`` read the
same; a plugin that declares nothing is taken to be written for the current major); the loader
refuses a plugin for another major, with a message saying so. Minor versions only add hooks or
arguments (an implementation may take fewer arguments than the spec), so older plugins keep
working; anything else (a hook removed or renamed, a changed argument or return shape) is a new
major.

docs/plugins.md shows every hook with an example, how to write, test, package and install a
plugin, and the worked example plugins/example_pam.py (a house rule overriding one hook).
"""
from __future__ import annotations

import pluggy

API_VERSION = "1.0"
API_MAJOR = 1

hookspec = pluggy.HookspecMarker("frapnet")
hookimpl = pluggy.HookimplMarker("frapnet")


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

    Move chips between ``state.balances`` and ``state.pot`` (F23/F24) or add points; set
    ``state.match_over`` if the match has ended (K12, L12). The report is a dict for
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


@hookspec(firstresult=True)
def frapnet_view(state, seat, lang):
    """What ``seat`` may know of the deal (``seat`` None: a spectator), as a plain dict.

    Never another seat's hand, discards or the talon (F9: no cards until the seat has looked).
    Keys understood by every client: ``phase``, ``phase_label``, ``trump``, ``turn_up``,
    ``talon`` (count), ``hand`` (list or None), ``seats`` (list of dicts with ``declaration``,
    ``tricks``, ``cards``, ``looked``, ``in_play``), ``trick`` ([[seat, card], …]),
    ``leader``, ``last_trick``, ``piles``. ``lang`` is ``"en"`` or ``"ru"``.
    """


@hookspec(firstresult=True)
def frapnet_action_label(state, seat, action, lang):
    """A short human label for ``action`` in ``lang`` (``"Play 10♥"``, ``"Фрап"``), so that a
    client without this game's plugin can offer it."""


@hookspec(firstresult=True)
def frapnet_describe_event(state, event, names, lang):
    """One event in plain words for a log pane (``"Olga declared frap"``, ``"Ivan took the trick
    with Q♠"``), in ``lang``. ``names`` is the list of seat names, seat 0…n−1. Return None to
    let the client fall back to a generic line. Called by the host for each recipient."""
