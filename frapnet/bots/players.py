"""Computer players built from views alone (issue #8): ``random``, ``basic``, ``expert``.

One way to make a player — :func:`make_player` — used by ``frapnet bot``, the host's seats and
takeover, ``frapnet play`` and ``frapnet arena``. A player gets only its seat's views (the same
dicts a client decodes from the host's bytes): :meth:`Player.observe` after every change,
:meth:`Player.choose` when the seat is to act, answering one of ``view["actions"]`` in wire form.

- ``random``: uniformly among the view's actions.
- ``basic``: the game's fast policy (``frapnet_policy``) on one state sampled from what the seat has
  seen (``frapnet_sample_deal`` with ``effort="any"``: any consistent deal, since the policy reads
  only the seat's knowledge), so it remembers the deal; a game without those hooks gets the
  generic view-only player of :mod:`frapnet.bots.strategy`.
- ``expert``: determinized Monte Carlo search (GIB, Kermit): sample hidden states consistent with
  the seat's observations, play every candidate action in each sample to the end of the deal with
  the game's policy for every seat (:mod:`frapnet.engine.fast`), and choose the best mean result
  (``frapnet_deal_result``), each sample weighted by how well the others' public choices so far
  match the policy (:data:`LIKELY`) and their hidden choices completed as the policy would make them
  (:class:`_OpponentModel`). The same samples serve every candidate (common random numbers); the
  policy's own move stays unless another beats it by :data:`MARGIN` standard errors of the paired
  difference (:func:`_pick`).
  Budget: ``think`` seconds of wall time per decision (default :data:`DEFAULT_THINK`), or a fixed
  number of samples ``iterations`` (reproducible: same seed, same choices), which a game may
  multiply for a decision that deserves more (``frapnet_search_factor``: Napoleon's auction).

No I/O and no Twisted: the clock is read only by ``expert`` to keep its ``think`` budget.
"""
from __future__ import annotations

import random
import time
from typing import Any

from frapnet import engine
from frapnet.bots import sampling, strategy
from frapnet.engine import fast

from frapnet.bots.levels import DEFAULT_LEVEL, DEFAULT_THINK, LEVELS, level_help  # noqa: F401 (re-exported)

LIKELY = 0.15
"""``expert``'s opponent model: a sampled deal in which another seat's public choice (a bid, a
whist, a pass, a cut-in, a card played) is not what the game's policy would have chosen there
counts this much (weights multiply; 1.0 when it agrees). What the others did tells something about
their hands (GIB's inference from the auction and the play); a soft weight keeps the search sound
against players who do not play like the policy."""

SEEDED_ITERATIONS = 24
"""``expert``'s samples per decision when it has a seed and no explicit budget (reproducible)."""

MARGIN = 1.0
"""``expert`` plays another action than the game's policy (``basic``) only if its mean result beats
the policy's by this many standard errors of the paired difference over the same samples."""

MIN_SAMPLES = 4
"""``expert`` always looks at this many samples (unless the game offers none), whatever the clock."""

MAX_CANDIDATES = 12
"""Above this many legal actions (Frak You's passes: 286; La Krap's exchanges: 64) ``expert``
searches only the game's shortlist (``frapnet_candidates``, La Krap's exchanges) or, without one,
plays ``basic``'s choice: a few samples cannot tell so many candidates apart (the search picked the
one with the luckiest draws, and took seconds), see docs/bots-variants.md."""


MAX_FACTOR = 16
"""The most a game's ``frapnet_search_factor`` may multiply ``expert``'s fixed sample budget by."""

SOLVE = "decision"
"""Where ``expert`` uses the game's exact solver (``frapnet_solve_play``, if the game has one):
``"decision"`` — at a decision the solver covers (Frap's play, F19–F21) each candidate's sample is
solved instead of played out with the policy; ``"always"`` — also every playout from an earlier
decision (the bidding), from the first step the solver covers; ``"never"``. Measured in Frap
(docs/bots.md): ``"decision"`` plays as well as the policy's playouts, ``"always"`` worse (the
solver's opponents see every card; the real ones play like ``basic``) at three times the cost."""

RIVAL = 1.0
"""Multiplies the game's ``frapnet_search_rival`` (how much the others' mean result counts against
the seat's own in the search; 0: the seat's own result alone)."""


def _seen_cards(views: list[dict]) -> set:
    """Every card the observations show (own hands and discards, cards played, turn-ups…): an
    action of another seat naming only such cards was seen, so the opponent model judges it as it
    is; one naming another card has a sampled (hidden) argument."""
    out: set = set()

    def walk(x):
        if isinstance(x, str):
            if 2 <= len(x) <= 3:
                out.add(x)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for k, y in x.items():
                if k not in ("actions", "names", "options", "last_report"):
                    walk(y)

    for v in views:
        walk(v)
    return out


def _pick(rows: list[list[float]], weights: list[float], anchor: int) -> int:
    """The candidate to play from the search's results: ``rows[k][i]`` is candidate i's result in
    sample k (the same samples for every candidate), ``weights[k]`` the sample's weight, ``anchor``
    the policy's own choice (-1: none). The candidate with the best weighted mean, except that the
    policy's choice stays unless the best beats it by :data:`MARGIN` standard errors of their paired
    difference (common random numbers): a handful of samples must not trade a sound move for the
    one with the luckiest draws."""
    tw = sum(weights)
    m = len(rows[0])
    means = [sum(w * r[i] for w, r in zip(weights, rows)) / tw for i in range(m)]
    best = max(range(m), key=lambda i: (means[i], -i))
    if anchor < 0 or best == anchor:
        return best
    d = [r[best] - r[anchor] for r in rows]
    md = means[best] - means[anchor]
    var = sum(w * (x - md) ** 2 for w, x in zip(weights, d)) / tw
    n_eff = tw * tw / sum(w * w for w in weights)
    if n_eff < 2:
        return anchor
    se = (var / (n_eff - 1)) ** 0.5
    return best if md > MARGIN * se else anchor


def _solved_playout(state, seat: int, choose, solve):
    """Play ``state`` in place with ``choose`` (the policy) until the game's ``frapnet_solve_play``
    answers, then return its answer (each seat's result of the rest of the deal); None if the deal
    ended first (``state`` is then settled, as by :func:`frapnet.engine.fast.playout`)."""
    while state.phase == engine.DEAL:
        got = solve(state, seat)
        if got is not None:
            return got
        s = state.to_act[0]
        fast.apply_in_place(state, s, choose(state, s, state.rules.legal_actions(state, s)))
    return None


class _OpponentModel:
    """``expert``'s model of the other seats while a sample is replayed (the ``judge`` of
    :func:`frapnet.bots.sampling.sample_states`): they play like the game's policy.

    - A choice the seat saw (a bid, a whist, a card played…) that the policy would not have made
      there multiplies the sample's ``weight`` by :data:`LIKELY` (GIB's inference from the auction
      and the play).
    - A choice with a hidden argument (another seat's discards, passed cards), whose argument the
      sampler could only guess: if the policy, on this sample, makes the same public choice (the same
      verb and number of cards), its hidden argument replaces the guess — a frapper who kept its trumps
      in the real deal keeps them in the sample too; else the weight is multiplied by :data:`LIKELY`.
      If the replay then fails (the sample needs the guessed cards later), :meth:`retry` asks for it
      again as sampled.
    """

    def __init__(self, seat: int, policy, verbs: dict, seen: set) -> None:
        self.seat = seat
        self.policy = policy
        self.verbs = verbs
        self.seen = seen
        self.rng = random.Random(0)
        self.weight = 1.0
        self.complete = True
        self.completed = False

    def reset(self) -> None:
        """Before each new sample: weight 1, hidden choices completed by the policy."""
        self.weight = 1.0
        self.complete = True
        self.completed = False

    def retry(self) -> bool:
        """After a failed replay: True (replay again, keeping every sampled action) if this model
        replaced a hidden argument in it."""
        if not self.completed:
            return False
        self.weight = 1.0
        self.complete = False
        self.completed = False
        return True

    def __call__(self, st, s, act, legal):
        if s == self.seat or len(legal) < 2 or act[0] == "look":
            return None
        kind = self.verbs.get(act[0])
        hidden = False
        if kind == "card":
            hidden = act[1] not in self.seen
        elif kind == "cards":
            hidden = any(c not in self.seen for c in act[1])
        p = self.policy(st, s, legal, self.rng)
        if p is None or p[0] == "look":
            return None  # the model has no view on a choice made without looking
        if p == act:
            return None
        if hidden and p[0] == act[0] and (kind != "cards" or len(p[1]) == len(act[1])):
            if self.complete:
                self.completed = True
                return p
            return None
        self.weight *= LIKELY
        return None


class Player:
    """A computer player for one seat of one table, deciding from that seat's views only.

    Made by :func:`make_player`. Attributes: ``level``, ``game``, ``players``, ``seat``,
    ``think`` (seconds or None), ``iterations`` (samples or None), ``rng`` (its own
    ``random.Random``), ``memory`` (:class:`frapnet.bots.sampling.Memory`), ``stats`` (counts of
    samples asked, declined, dropped; decisions by search).
    """

    def __init__(self, level: str, game: str, players: int, seat: int, seed: Any = None,
                 think: float | None = None, iterations: int | None = None, registry=None) -> None:
        self.level = level
        self.game = game
        self.players = players
        self.seat = seat
        self.think = think
        self.iterations = iterations
        self.registry = registry
        self.rng = random.Random(repr(("frapnet-player", seed, seat)) if seed is not None else None)
        self.memory = sampling.Memory()
        self.stats: dict = {}
        self._table = None
        self._table_key = None

    # --- the interface every program drives ------------------------------------------------
    def observe(self, view: dict) -> None:
        """Remember ``view`` (the seat's view after a change). Never raises for a bad view."""
        self.memory.add(view)

    def choose(self, view: dict) -> list:
        """One of ``view["actions"][i]["action"]`` (the same list, wire form) for this seat.

        Raises :class:`frapnet.bots.strategy.NoAction` if the view lists no action.
        """
        acts = strategy.legal(view)
        if not acts:
            raise strategy.NoAction("the view lists no legal action for this seat")
        if len(acts) == 1 or self.level == "random":
            return acts[0] if len(acts) == 1 else self.rng.choice(acts)
        obs = self.memory.current(view)
        try:
            if self.level == "expert":
                picked = self._search(view, acts, obs)
            else:
                picked = self._basic(view, acts, obs)
        except Exception:  # noqa: BLE001 - a plugin's hook bug must not stall a table
            self.stats["errors"] = self.stats.get("errors", 0) + 1
            picked = None
        if picked is None:
            picked = strategy.choose(view, "basic", self.rng)
        return picked

    # --- helpers -------------------------------------------------------------------------------
    def _table_state(self, view: dict):
        key = (view.get("game"), view.get("players"), repr(sorted((view.get("options") or {}).items())),
               tuple(view.get("house_rules") or ()))
        if key != self._table_key:
            self._table = sampling.table_for(view, self.registry)
            self._table_key = key
        return self._table

    def _candidates(self, view: dict, acts: list, table) -> list[tuple]:
        return [engine.normalize_action(table.spec, table.players, self.seat, a) for a in acts]

    def _basic(self, view: dict, acts: list, obs: list[dict], effort: str | None = None) -> list | None:
        table = self._table_state(view)
        if not table.rules.implemented("policy"):
            return None
        # any consistent deal will do: the policy reads only the seat's own cards and public facts
        # (expert, falling back on the policy, asks as it does for its search: the same random stream)
        effort = sampling.SAMPLE_ANY if effort is None else effort
        states = sampling.sample_states(table, self.seat, obs, self.rng, 1, self.stats, effort=effort)
        if not states:
            return None
        cands = engine.legal_actions(states[0], self.seat)  # the view's, in its order (same_view checked them)
        if len(cands) != len(acts):
            cands = self._candidates(view, acts, table)
        a = states[0].rules.policy(states[0], self.seat, cands, self.rng)
        if a is None or a not in cands:
            return None
        return acts[cands.index(a)]

    def _search(self, view: dict, acts: list, obs: list[dict]) -> list | None:
        table = self._table_state(view)
        rules = table.rules
        if not rules.implemented("policy"):
            return None
        cands = self._candidates(view, acts, table)
        if ("look",) in cands and view.get("hand") is None:
            return acts[cands.index(("look",))]  # F9 and kin: information first
        shortlist = len(cands) > MAX_CANDIDATES
        if shortlist and not rules.implemented("candidates"):
            return self._basic(view, acts, obs, sampling.SAMPLE_SEARCH)
        seat = self.seat
        rng = self.rng
        start = time.perf_counter()
        budget = self.think if self.think is not None else DEFAULT_THINK
        limit = self.iterations
        rows: list[list[float]] = []   # per sample: the result of every candidate
        weights: list[float] = []
        done = 0
        anchor = None                    # the policy's own choice (index in cands)
        policy = rules.policy
        factor_hook = rules.implemented("search_factor")
        solve = rules.solve_play if SOLVE != "never" and rules.implemented("solve_play") else None
        solve_here = None
        rival = None
        prng = random.Random(rng.random())

        def chooser(st, s, legal):
            a = policy(st, s, legal, prng)
            return a if a is not None else prng.choice(legal)

        model = _OpponentModel(seat, policy, table.spec.verbs, _seen_cards(obs))
        while True:
            model.reset()
            got = sampling.sample_states(table, seat, obs, rng, 1, self.stats, judge=model, effort=sampling.SAMPLE_SEARCH)
            if not got:
                break
            root = got[0]
            if anchor is None:
                a = policy(root, seat, cands, random.Random(0))
                anchor = cands.index(a) if a in cands else -1
                if shortlist:  # frapnet_candidates: a few sensible moves, from the seat's knowledge only
                    keep = sorted({cands.index(x) for x in rules.candidates(root, seat, cands, random.Random(0)) or ()
                                   if x in cands} | ({anchor} if anchor >= 0 else set()))
                    if len(keep) < 2:
                        return acts[anchor] if anchor >= 0 else None
                    anchor = keep.index(anchor) if anchor >= 0 else -1
                    cands, acts = [cands[i] for i in keep], [acts[i] for i in keep]
                if limit is not None and factor_hook:  # frapnet_search_factor: a decision worth more samples
                    f = rules.search_factor(root, seat, cands)
                    if f is not None and f > 1:
                        limit = int(limit * min(f, MAX_FACTOR))
            if rival is None:  # frapnet_search_rival: how much the others' results count against ours
                w = rules.search_rival(root, seat) if rules.implemented("search_rival") else None
                rival = float(w) * RIVAL if w else 0.0
            if solve_here is None:
                solve_here = solve is not None and (SOLVE == "always" or solve(root, seat) is not None)
            row = []
            for c in cands:
                t = fast.copy_state(root)
                fast.apply_in_place(t, seat, c)
                rest = None
                if t.phase == engine.DEAL:
                    if not solve_here:
                        fast.playout(t, chooser)
                    else:
                        rest = _solved_playout(t, seat, chooser, solve)
                r = sampling.deal_result(root, t, seat) + (rest[seat] if rest is not None else 0.0)
                if rival:
                    others = [sampling.deal_result(root, t, s) + (rest[s] if rest is not None else 0.0)
                              for s in range(t.players) if s != seat]
                    r -= rival * sum(others) / len(others)
                row.append(r)
            rows.append(row)
            weights.append(model.weight)
            done += 1
            if limit is not None:
                if done >= limit:
                    break
            elif done >= MIN_SAMPLES and time.perf_counter() - start >= budget:
                break
        if not done:
            return None
        self.stats["searches"] = self.stats.get("searches", 0) + 1
        self.stats["samples"] = self.stats.get("samples", 0) + done
        return acts[_pick(rows, weights, anchor)]


def make_player(level: str, *, game: str, players: int, seat: int, seed: Any = None, think: float | None = None,
                iterations: int | None = None, registry=None) -> Player:
    """A computer player for ``seat`` (0…n−1) of a ``players``-seat table of ``game``.

    ``level``: a key of :data:`LEVELS` (``random``, ``basic``, ``expert``). ``seed``: any value
    (same seed and same views → same choices); None: unseeded. ``think``: ``expert``'s wall-time
    budget in seconds per decision (default :data:`DEFAULT_THINK`); ``iterations``: ``expert``
    examines exactly this many sampled deals per decision instead (reproducible; overrides
    ``think``). With a ``seed`` and neither budget, ``expert`` examines :data:`SEEDED_ITERATIONS`
    deals per decision, so a seeded match replays identically whatever the machine's speed.
    ``registry``: the plugins to use (default: the installed ones).

    Returns an object with ``observe(view)`` (call it with the seat's view after every change)
    and ``choose(view) -> action`` (one of ``view["actions"][i]["action"]``, wire form).
    Raises ValueError for an unknown level, a seat outside 0…players−1, or a negative budget.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError(f"players must be a positive whole number, not {players!r}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be 0…{players - 1}, not {seat!r}")
    if think is not None and not think > 0:
        raise ValueError(f"think must be a positive number of seconds, not {think!r}")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations must be a whole number ≥ 1, not {iterations!r}")
    if seed is not None and think is None and iterations is None:
        iterations = SEEDED_ITERATIONS  # a seeded player must not depend on the clock
    return Player(level, game, players, seat, seed=seed, think=think, iterations=iterations, registry=registry)


class SeatPlayers:
    """The host's takeover player (design.md principle 5) as a :data:`frapnet.net.takeover.Chooser`:
    ``choose(view, level, rng) -> action`` plus ``observe(view, level)``, with one :class:`Player`
    per seat made by :func:`make_player` — so a taken-over seat remembers the deal from the moment
    it was taken over (a seat taken over mid-deal is played from the view alone until the next
    deal starts; its sampler cannot explain what it did not see).

    ``seed``: the table's seed (each seat's player gets ``(seed, "takeover", seat)``; None:
    unseeded). ``think`` / ``iterations``: expert's budget. The ``rng`` a host passes is not used:
    each player owns its random source.
    """

    def __init__(self, seed: Any = None, think: float | None = None, iterations: int | None = None,
                 registry=None) -> None:
        self.seed = seed
        self.think = think
        self.iterations = iterations
        self.registry = registry
        self.players: dict[int, Player] = {}

    def _player(self, view: dict, level: str) -> Player:
        seat = view["seat"]
        p = self.players.get(seat)
        if p is None or p.level != level or p.game != view.get("game") or p.players != view.get("players"):
            seed = None if self.seed is None else repr((self.seed, "takeover", seat))
            p = self.players[seat] = make_player(level, game=view["game"], players=view["players"], seat=seat,
                                                 seed=seed, think=self.think, iterations=self.iterations,
                                                 registry=self.registry)
        return p

    def new_match(self) -> None:
        """A rematch begins at the table (its deals count from 1 again): forget every seat's deal."""
        self.players.clear()

    def observe(self, view: dict, level: str) -> None:
        """Remember a taken-over seat's view (the host calls this after every change)."""
        self._player(view, level).observe(view)

    def __call__(self, view: dict, level: str, rng: random.Random | None = None) -> list:
        """The taken-over seat's move: one of ``view["actions"][i]["action"]``."""
        return self._player(view, level).choose(view)
