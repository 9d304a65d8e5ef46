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
players (:mod:`frapnet.bots`) call the three bot hooks at the end of this module
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

docs/plugins.md shows every hook with an example, how to write, test, package and install a
plugin, and the worked example plugins/example_pam.py (a house rule overriding one hook).
"""
from __future__ import annotations

import pluggy

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


# --- computer players (called by frapnet.bots; optional, firstresult) ---------------------------
#
# design.md principle 8: the search is generic and sees only views; each game plugin ships the
# knowledge it needs through these hooks. /work/team/bots-interface.md has the worked example.

@hookspec(firstresult=True)
def frapnet_sample_deal(state, seat, observations, rng, effort):
    """Sample the current deal's hidden cards consistently with everything ``seat`` has seen.

    Determinized search (GIB, Kermit; OpenSpiel's ``ResampleFromInfostate``) starts here.

    :param state: a :class:`~frapnet.engine.state.State` of this table before any deal
        (``players``, ``options``, ``house_rules``, ``rules``; ``deal`` None), for reading the
        table's rules (``state.rules.pack(state)`` is the pack). Do not keep or change it.
    :param seat: the seat whose knowledge is used, 0…n−1.
    :param observations: the views ``seat`` received during the current deal, oldest first, as
        :func:`frapnet.engine.view` gives them (plain dicts; host-only keys such as ``names`` may
        be present and mean nothing here): ``observations[-1]`` is the view now (a deal in
        progress), and every earlier item has the same ``deal_no``. A player that saw the whole
        deal has one view per accepted action (``version`` rising by 1; a repeated version is
        the same state again and may be skipped); one that arrived mid-deal (a takeover, a
        reconnect) has fewer — a sampler that cannot place a gap returns None.
    :param rng: a :class:`random.Random`; the only source of randomness (same rng state, same
        observations → same sample).
    :param effort: a str, how much work the caller wants spent making the sample *likely* rather
        than merely consistent (the contract below holds for both):

        - ``"any"`` (:data:`SAMPLE_ANY`) — any one consistent deal will do, as cheaply as
          possible: the caller's choice does not depend on where the hidden cards lie (``basic``,
          whose policy reads only the seat's own cards and public facts, must decide in ≤ 5 ms).
          Skip inference from the other seats' choices (La Krap deals the hidden cards once).
        - ``"search"`` (:data:`SAMPLE_SEARCH`) — one of many samples a search averages over
          (``expert``): the sampler may spend more (milliseconds) so that the deal also explains
          what the other seats did (La Krap keeps the best of up to 16 placings that fits
          ``basic``'s choices; Frap draws hands that fit the bids).

        Any other value means ``"search"``. A sampler that works the same either way simply does
        not name this argument (pluggy passes an implementation only the arguments it takes; its
        calls then go through pluggy instead of the direct fast path, a few microseconds).
    :returns: one **deal sample**, a dict::

            {"dealer": int,                       # the deal's dealer (observations[-1]["dealer"])
             "deck": [card, ...],                 # a permutation of the pack, top first (F8 layout)
             "actions": [[seat, verb, arg?], ...],  # every action of the deal so far, in order
             "before": {"balances": [...], "pot": int, "match": {...}}}   # the ledger before it

        i.e. a hypothetical deal record (record-format.md) with the match's ledger before the
        deal. Replayed from ``before`` (``engine.start_deal`` then ``engine.apply`` of each
        action), it must accept every action (so every earlier public action stays legal: a
        seat that did not follow suit holds none of that suit, F20) and give ``seat`` exactly
        the views in ``observations`` (``version`` aside) — so no card is placed where ``seat``
        saw something else. Hidden arguments (others' discards, passed cards) are sampled too.
        Return None when the observations cannot be explained (e.g. a gap this sampler does not
        handle); the bot then decides from the view alone.

    Called by :func:`frapnet.bots.sampling.sample_states` (which replays the sample into a
    State; ``basic`` asks with ``effort="any"``, ``expert`` with ``"search"``); checked by
    :func:`frapnet.testing.check_sampler`. Never sees a hidden card: its only inputs are the
    seat's views.
    """


SAMPLE_ANY = "any"
"""``frapnet_sample_deal``'s ``effort`` for a caller that needs any one consistent deal (``basic``)."""

SAMPLE_SEARCH = "search"
"""``frapnet_sample_deal``'s ``effort`` for one of a search's samples (``expert``): likely, not only consistent."""


@hookspec(firstresult=True)
def frapnet_policy(state, seat, actions, rng):
    """A fast game-aware move for ``seat`` — the playout policy of the search, and ``basic``.

    :param state: a full State with a deal in progress — in a search a *sampled* one
        (:func:`frapnet_sample_deal`), so it does hold every hidden card — but the policy must
        read only what ``seat`` may know: its own hand (even before it has looked, F9), its own
        discards, and public facts (declarations, the turn-up, the trick, cards played, tricks
        taken, counts, ledger). Never another seat's hand, the talon or others' discards: the
        tests give it states that differ only there and require the same choice.
    :param seat: the seat to move (in ``state.to_act``).
    :param actions: ``engine.legal_actions(state, seat)`` (normalised tuples), non-empty.
    :param rng: a :class:`random.Random` for any tie-breaking.
    :returns: one element of ``actions`` (the same tuple), or None to let the caller choose at
        random. Must be cheap (tens of microseconds): a search calls it at every step of
        thousands of playouts.
    """


@hookspec(firstresult=True)
def frapnet_deal_result(before, after, seat):
    """``seat``'s result between two states of one table, in the game's unit, higher better.

    :param before: a State (the deal's start, or a search's decision point).
    :param after: a later State of the same table (the deal ended: ``after.deal_over``).
    :param seat: 0…n−1.
    :returns: a number: Frap and Napoleon chips won divided by the ante / stake (``+1.0`` is one
        ante), a points game its points (negated where fewer points are better, Frak You K12).
        Without an implementation the bots and ``frapnet arena`` use the change of
        ``balances[seat]`` divided by the ``ante`` or ``stake`` option if the table has one.
    """


# --- fan-out (called by the host through frapnet.engine.seat_part; optional, firstresult) ------

@hookspec(firstresult=True)
def frapnet_seat_view(state, seat, lang):
    """Only ``seat``'s own keys of its view of the deal — for speed (issue #9 "Fan-out once").

    :param state: a State with a deal in progress (as for :func:`frapnet_view`).
    :param seat: the seat whose view it is, 0…n−1 (never None).
    :param lang: ``"en"`` or ``"ru"``, as for :func:`frapnet_view`.
    :returns: a dict of the keys of ``frapnet_view(state, seat, lang)`` whose values differ from
        the public view ``frapnet_view(state, None, lang)`` (Frap: ``hand``, ``hand_count``,
        ``looked``, ``discards``); every key returned must also be a key of the public view, and
        ``{**frapnet_view(state, None, lang), **frapnet_seat_view(state, seat, lang)}`` must
        equal ``frapnet_view(state, seat, lang)`` (tests/test_fanout.py checks it for every
        installed game). Never another seat's hand (F9). None: build this seat's whole view
        with ``frapnet_view`` this time.

    The host builds the public view once per change and only this part per seat
    (:func:`frapnet.engine.seat_part`; at 12 seats building and encoding every view is several
    times cheaper). Without it — or when a house rule implements ``frapnet_view`` but not this
    hook, so that its change is never bypassed — each seat's whole view is built with
    ``frapnet_view``: the same views, slower.
    """


@hookspec(firstresult=True)
def frapnet_view_ui(state, seat, lang):
    """What a client shows of this table for ``seat`` (None: a spectator), in ``lang``
    (``"en"``/``"ru"``), so that no client needs game words or rules (design.md principles 3, 10).

    Return a dict with any of these keys (the engine fills in a default for each one missing or
    None, :mod:`frapnet.engine.present`); called in and between deals (``state.deal`` may be
    None, or the last deal, already settled):

    - ``title`` str (the game's name in ``lang``); ``goal`` str, one line; ``special_cards`` list of str, one line per special card.
    - ``keys`` {verb: letter}: the key of each verb's button (``{"frap": "f"}``); ``hints``
      {letter: str}: what a key that does nothing now says (Frap: ``t`` before looking, F16).
    - ``ledger`` {``title``: str, ``signed``: bool}: the balance column (``"penalty points"``).
    - ``pot`` str|None: the pot's name in the header; None shows no pot.
    - ``columns`` [str] and ``cells`` [[str] per seat 0…n−1]: the game's own seat-table columns.
    - ``marks`` [str per seat, ≤ 3 cells]: shown after the name (La Krap's team).
    - ``refusals`` {card: str}: why a card of the seat's hand cannot be chosen now, with the
      rule ID (``"Q♠ cannot be played now: follow suit ♥ (F20)"``).
    - ``cursor`` card|None: where the hand's cursor starts (a card the seat can give away).
    - ``card_marks`` {card: one character}; ``trick_marks``/``last_trick_marks`` [str per card of
      ``trick``/``last_trick``]; ``legend`` [str]: what the marks mean.
    - ``report`` {``columns``: [{``title``: str, ``cells``: [str per seat]}], ``notes``: [str]}
      for the last settled deal (``state.reports[-1]``), or None.
    - ``options`` [[label, value]]: the table options in words (F27).

    Never a card the seat may not see (F9). Return None to take every default.
    """


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


# --- computer players: a shortlist for large decisions (optional, firstresult) ------------------

@hookspec(firstresult=True)
def frapnet_candidates(state, seat, actions, rng):
    """A few sensible moves for ``expert`` to compare where ``seat`` has many legal actions (more
    than :data:`frapnet.bots.players.MAX_CANDIDATES`, 12: Frak You's 286 passes K3, La Krap's
    exchanges L7) — a search cannot tell hundreds apart with a few dozen samples.

    :param state: a full State with a deal in progress, *sampled* as for :func:`frapnet_policy`:
        read only what ``seat`` may know (its own hand and discards, public facts) — the tests
        give it states that differ only in hidden cards and require the same list.
    :param seat: the seat to move (in ``state.to_act``).
    :param actions: ``engine.legal_actions(state, seat)`` (normalised tuples), non-empty.
    :param rng: a :class:`random.Random` for any tie-breaking.
    :returns: a list of distinct elements of ``actions`` (at most about 8; the search plays every
        one in every sample), the policy's own move among them; or None, and ``expert`` plays
        the policy's move. ``expert`` keeps the policy's move unless another candidate beats it
        on the same samples by a clear margin (``frapnet.bots.players.MARGIN``).
    """


# --- fan-out: the seat's own part of the ui map (optional, firstresult) --------------------------

@hookspec(firstresult=True)
def frapnet_seat_view_ui(state, seat, lang):
    """Only ``seat``'s own fields of its ``ui`` map — for speed (issue #9 "Fan-out once"), as
    :func:`frapnet_seat_view` is for the view.

    :param state: a State, in or between deals (as for :func:`frapnet_view_ui`).
    :param seat: the seat whose screen it is, 0…n−1 (never None).
    :param lang: ``"en"`` or ``"ru"``, as for :func:`frapnet_view_ui`.
    :returns: a dict of the :func:`frapnet_view_ui` fields in which this seat's screen differs
        from a spectator's — Frap: ``hints`` (F16), ``refusals`` (F20) and ``cursor`` (F16, F17)
        for the seat to act; La Krap: ``card_marks`` (the seat's team card, L5) — with the values
        ``frapnet_view_ui(state, seat, lang)`` gives them; ``{}`` when nothing is the seat's own
        (Napoleon, Frak You). The engine puts these fields over the spectator's map, built once
        per change and language: the result must equal the seat's whole map from
        ``frapnet_view_ui`` with every default filled in (tests/test_fanout.py checks it for
        every installed game at every step of random deals). Never another seat's card (F9).
        None: build this seat's whole map with ``frapnet_view_ui`` this time.

    Without it — or when a house rule implements ``frapnet_view_ui`` but not this hook, so that
    its change is never bypassed — each seat's whole map is built with ``frapnet_view_ui``
    (:func:`frapnet.engine.present.seat_ui`): the same screens, slower (at 12 seats, about a
    tenth of a millisecond per seat per change).
    """


# --- computer players: more samples for a few costly decisions (optional, firstresult) ----------

@hookspec(firstresult=True)
def frapnet_search_factor(state, seat, actions):
    """How many times ``expert``'s fixed sample budget (``--iterations``; the arena's 24) this
    decision deserves: a game whose few big decisions are cheap to simulate and decide much of a
    deal's result (Napoleon's auction, N4: a bid is worth ±b × (n−1) stakes, and 24 samples of so
    wide a result cannot tell a bid from a pass) asks for more samples there.

    :param state: a full State with a deal in progress, *sampled* as for :func:`frapnet_policy`:
        read only what ``seat`` may know.
    :param seat: the seat to move (in ``state.to_act``).
    :param actions: the candidates ``expert`` compares (normalised tuples of
        ``engine.legal_actions``), non-empty.
    :returns: a number ≥ 1 (``expert`` examines ``iterations × factor`` samples, rounded down, at
        most :data:`frapnet.bots.players.MAX_FACTOR` times the budget), or None for the budget as
        it is. A time budget (``--think``) is not multiplied: the wall-clock limit per decision
        stays, and a cheap decision already gets many samples in its time.
    """


# --- computer players: solving a sampled deal's play exactly (optional, firstresult) -------------

@hookspec(firstresult=True)
def frapnet_solve_play(state, seat):
    """The exact result of the rest of a *sampled* deal (every card placed) when each seat plays
    to maximise its own result (max^n; how GIB and Kermit solve a determinized deal), where the
    rest is small enough to solve — Frap's play phase (F19–F21: four tricks, at most four cards a
    hand). ``expert`` (:mod:`frapnet.bots.players`) asks it on its first sample of a decision; where
    it answers (Frap: a play decision), every candidate of every sample is solved right after the
    candidate is applied instead of being played out with the game's policy (the determinized
    "double dummy" play of a bridge program). With ``frapnet.bots.players.SOLVE = "always"`` it is
    also asked before every step of the playouts from earlier decisions and replaces the policy
    from the first step where it answers (measured weaker in Frap: docs/bots.md).

    :param state: a full State with a deal in progress (``state.phase == "deal"``), usually a
        sampled one on the search's fast path: it may read every hidden card. Do not change it.
    :param seat: the seat whose search asks (0…n−1); the answer is for every seat all the same.
    :returns: a list of n numbers, one per seat 0…n−1: that seat's result from ``state`` to the end
        of the deal, in the unit of :func:`frapnet_deal_result` — so that ``deal_result(before,
        state, s) + answer[s]`` is the seat's result of the whole line (Frap: antes, the trick money
        still to come, F23, minus the remise it pays, F24/F25; 0 for a seat not in play) — with
        every seat in play choosing, at each of its turns, the legal card (F20) that maximises its
        own final result given how the others answer (ties: the lowest card, so the same state
        always gets the same answer). None where the game does not solve this state (another
        phase, or rules the solver does not cover: Frap's F22 ``revoke: penalize`` and house rules
        return None): ``expert`` then plays on with the policy as without this hook.

    Must be fast (Frap at 4 players: about 3 ms CPU on average from the first lead, p99 about
    15 ms; a few microseconds outside the play phase, where it returns None at once). Without an
    implementation every simulated deal is played to the end with the game's ``frapnet_policy``.
    """


# --- computer players: what the search maximises (optional, firstresult) -------------------------

@hookspec(firstresult=True)
def frapnet_search_rival(state, seat):
    """How much the other seats' results count against ``seat``'s own in ``expert``'s search: it
    chooses the candidate with the best mean of ``own − w × mean(others)`` over its samples, each
    seat's result being :func:`frapnet_deal_result` from the decision to the end of the simulated
    deal (plus :func:`frapnet_solve_play`'s answer where the deal was solved).

    :param state: a full State with a deal in progress (the search's first sample); read only the
        table's rules and public facts (``state.players``, ``state.options``).
    :param seat: the seat that searches (0…n−1).
    :returns: ``w``, a number ≥ 0 (0: the seat's own result alone, as without this hook), or None.
        Frap answers 1.0: a chip another seat pays into the pot (a remise, F24; a top-up, F12/F13)
        is not lost but becomes the next pot (F24, F28), of which each of the n seats holds an
        even share, so a seat's worth after a deal is its balance plus ``pot / n``; with the ledger
        closed (F6: balances + pot = 0, so the pot's change is minus the sum of the balances')
        that is ``(n − 1)/n × (own − mean(others))`` — the same choice as ``w = 1``.
        (``frapnet arena`` still scores ``frapnet_deal_result``: the pot left after a deal is
        counted as lost to everyone.)
    """
