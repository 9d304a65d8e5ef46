"""The computer-player hooks of the plugin API (issue #8; all optional): the sampler
(``frapnet_sample_deal`` and its ``effort`` values :data:`SAMPLE_ANY`, :data:`SAMPLE_SEARCH`), the
fast policy (``frapnet_policy``), a deal's result (``frapnet_deal_result``), and the search's
helpers: a shortlist (``frapnet_candidates``), more samples (``frapnet_search_factor``), an exact
solver (``frapnet_solve_play``) and what it maximises (``frapnet_search_rival``).

:mod:`frapnet.bots` calls them. Every spec here is exposed by :mod:`frapnet.hookspecs`.
"""
from __future__ import annotations

from frapnet.hookspecs.markers import hookspec


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
