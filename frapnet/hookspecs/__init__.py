"""The frapnet plugin API: pluggy hook specifications, versioned.

A **game plugin** (Frap itself, Napoleon, Frak You, La Krap, or yours) implements these hooks;
a **house-rule plugin** implements the few it changes and defers to the rest. Plugins are
modules or objects whose functions are marked with :data:`hookimpl`::

    from frapnet.hookspecs import hookimpl

    @hookimpl
    def frapnet_register_games(register):
        register(GameSpec(name="mygame", ...))

Who calls what: the engine (:mod:`frapnet.engine`) calls the rules hooks, the plugin loader
(:mod:`frapnet.plugins`) calls the two ``register`` hooks once per plugin, and the computer
players (:mod:`frapnet.bots`) call the three bot hooks of :mod:`frapnet.hookspecs.bots`
(:func:`frapnet_sample_deal`, :func:`frapnet_policy`, :func:`frapnet_deal_result`, and
:func:`frapnet_candidates` for decisions with many legal actions, :func:`frapnet_search_factor`
for more samples where a decision deserves them;
/work/team/bots-interface.md and docs/plugins.md show how).

Required hooks: a plugin that registers a game must implement every hook in
:data:`REQUIRED_GAME_HOOKS`; the loader refuses it otherwise, naming the missing hooks. The
others are optional: without ``frapnet_validate_options`` the options stay as parsed, without
``frapnet_trick_winner`` nothing calls it, without ``frapnet_action_label`` /
``frapnet_describe_event`` clients get generic text, without the bot hooks the computer
players fall back to their view-only ``basic`` (no search), and without
``frapnet_seat_view`` / ``frapnet_seat_view_ui`` the host builds each seat's whole view / ui
map (slower, the same views).
Each table has its own plugin manager holding only its game's plugin and its active house
rules (registered after the game, so pluggy calls them first). All per-table hooks are
``firstresult``: the first implementation that returns something other than ``None`` decides,
so a house rule returns ``None`` to defer, or uses ``@hookimpl(wrapper=True)`` to adjust the
game's answer.

Shapes used by every hook:

- ``state`` — :class:`frapnet.engine.state.State`: ``players`` (n), ``options`` (dict),
  ``dealer``, ``balances`` (list of whole chips or points per seat 0…n−1), ``pot`` (whole chips),
  ``deal`` (the game's own per-deal object: a :class:`frapnet.engine.state.DealBase` subclass
  whose ``clone()`` the engine calls before every action), ``deal_over`` (set by the game when
  the deal has ended), ``match`` (match-level dict, replaced never mutated), ``to_act`` (tuple
  of seats whose turn it is), ``rules`` (this table's hook callers: ``state.rules.trick_winner``…).
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

Where the specs are, by concern (this package exposes every one of them, the markers and the
version, so ``from frapnet.hookspecs import …`` and ``pm.add_hookspecs(frapnet.hookspecs)`` see
them all): :mod:`frapnet.hookspecs.rules` — registration, options, the pack, dealing, legal
actions, applying, trick-winning, settling, the reports, statistics; :mod:`frapnet.hookspecs.views`
— the views, labels, log lines, the screen's ui map and the fan-out's per-seat parts;
:mod:`frapnet.hookspecs.bots` — the computer players' sampler, policy, deal result and search
hooks; :mod:`frapnet.hookspecs.markers` — ``hookspec`` and ``hookimpl``. A new hook: its spec in
the module of its concern, its name imported here and added to :data:`API_HISTORY`
(tests/test_plugins.py checks both).

docs/plugins.md shows every hook with an example, how to write, test, package and install a
plugin, and the worked example plugins/example_pam.py (a house rule overriding one hook).
"""
from __future__ import annotations

from frapnet.hookspecs.markers import hookimpl, hookspec  # noqa: F401 (the markers)
from frapnet.hookspecs.rules import (  # noqa: F401 (the rules hooks)
    frapnet_apply_action, frapnet_deal, frapnet_deal_report, frapnet_deal_stats, frapnet_legal_actions,
    frapnet_match_report, frapnet_pack, frapnet_register_games, frapnet_register_house_rules, frapnet_settle,
    frapnet_trick_winner, frapnet_validate_options)
from frapnet.hookspecs.views import (  # noqa: F401 (views, labels, the screen, the fan-out)
    frapnet_action_label, frapnet_describe_event, frapnet_seat_view, frapnet_seat_view_ui, frapnet_view,
    frapnet_view_ui)
from frapnet.hookspecs.bots import (  # noqa: F401 (computer players)
    SAMPLE_ANY, SAMPLE_SEARCH, frapnet_candidates, frapnet_deal_result, frapnet_policy, frapnet_sample_deal,
    frapnet_search_factor, frapnet_search_rival, frapnet_solve_play)

API_VERSION = "1.1"
API_MAJOR = 1

API_HISTORY = {
    "1.0": ("frapnet_register_games", "frapnet_register_house_rules", "frapnet_validate_options",
            "frapnet_pack", "frapnet_deal", "frapnet_legal_actions", "frapnet_apply_action",
            "frapnet_trick_winner", "frapnet_settle", "frapnet_deal_report", "frapnet_match_report",
            "frapnet_view", "frapnet_action_label", "frapnet_describe_event"),
    # computer players (issue #8), the host's fan-out (issue #9) and statistics: all optional
    "1.1": ("frapnet_sample_deal", "frapnet_policy", "frapnet_deal_result", "frapnet_seat_view",
            "frapnet_view_ui", "frapnet_deal_stats", "frapnet_candidates", "frapnet_seat_view_ui",
            "frapnet_search_factor", "frapnet_solve_play", "frapnet_search_rival"),
}
"""The hooks each minor version of the plugin API added, oldest first (the last key is
:data:`API_VERSION`). A plugin that uses a hook of a later minor than the frapnet it runs on is
still loaded; the hook is simply never called."""

REQUIRED_GAME_HOOKS = ("frapnet_pack", "frapnet_deal", "frapnet_legal_actions", "frapnet_apply_action",
                       "frapnet_settle", "frapnet_deal_report", "frapnet_match_report", "frapnet_view")
"""The hooks a plugin that registers a game must implement (the loader refuses it otherwise)."""
