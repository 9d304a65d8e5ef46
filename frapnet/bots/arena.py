"""The arena (issue #8): computer players against each other in duplicate deals, in-process.

Each of ``decks`` shuffled decks is played once for every rotation of the seats (level ``L[i]``
sits at seat ``(i + r) mod n`` in rotation r), every deal a fresh match (fresh antes: Frap's pots
compound and would let a few deals decide everything), dealer seat 0. Every player is made by
:func:`frapnet.bots.make_player` and sees only its seat's views (after the deal starts and after
every action). A seat's result is ``frapnet_deal_result`` from the match before the deal to its
end: antes / stakes, or points (higher better).

Statistics: the deck is the unit of independence. For each deck, a level's result is the mean
over its seats and the rotations; the mean over decks is reported with a 95% confidence interval
(normal, 1.96 standard errors), and each pair of levels likewise by the per-deck difference.
Decision times are per decision, wall (``time.perf_counter``) and CPU (``time.process_time``).

Deterministic: the decks come from ``seed``; every player's seed from ``(seed, deck, rotation,
seat)``; with a fixed ``iterations`` an ``expert`` examines a fixed number of samples, so the same
arguments give the same numbers whatever ``jobs`` is (decks are split across processes and
gathered in order).
"""
from __future__ import annotations

import math
import random
import time
from typing import Any, Callable

from frapnet import engine
import frapnet.plugins  # noqa: F401 - the installed plugins become the engine's default registry
from frapnet.bots import sampling
from frapnet.bots.players import make_player

DEFAULT_ITERATIONS = 24
"""``expert``'s samples per decision in the arena when ``--iterations`` is not given (so every
arena run is reproducible by default)."""


def deck_for(pack: list[str], seed: Any, index: int) -> list[str]:
    """Deck number ``index`` (0…) of an arena run with ``seed``: ``pack`` shuffled by a
    ``random.Random`` seeded with ``"arena:{seed}:{index}"``."""
    d = list(pack)
    random.Random(f"arena:{seed}:{index}").shuffle(d)
    return d


def play_deck(game: str, players: int, seats: list[str], seed: Any, index: int, iterations: int | None,
              options: dict | None = None, house_rules=(), registry=None) -> dict:
    """Play deck ``index`` once per rotation. Returns ``{"index", "results": {level: [per-seat
    results…]}, "times": {level: [(wall_s, cpu_s), …]}}``."""
    base = engine.new_match(game, players, options, house_rules, registry)
    deck = deck_for(engine.pack(base), seed, index)
    results: dict[str, list[float]] = {}
    times: dict[str, list[tuple[float, float]]] = {}
    for r in range(players):
        level_of = [seats[(s - r) % players] for s in range(players)]
        bots = [make_player(level_of[s], game=game, players=players, seat=s,
                            seed=f"{seed}:{index}:{r}:{s}", iterations=iterations if level_of[s] == "expert" else None,
                            registry=registry) for s in range(players)]
        st, _ = engine.start_deal(base, deck, 0)
        for s in range(players):
            bots[s].observe(engine.view(st, s))
        guard = 0
        while st.phase == engine.DEAL:
            seat = st.to_act[0]
            view = engine.view(st, seat)
            w0, c0 = time.perf_counter(), time.process_time()
            action = bots[seat].choose(view)
            times.setdefault(level_of[seat], []).append((time.perf_counter() - w0, time.process_time() - c0))
            st, _ = engine.apply(st, seat, action)
            for s in range(players):
                bots[s].observe(engine.view(st, s))
            guard += 1
            if guard > 10_000:
                raise RuntimeError(f"{game}: a deal did not end after 10,000 actions")
        for s in range(players):
            results.setdefault(level_of[s], []).append(sampling.deal_result(base, st, s))
    return {"index": index, "results": results, "times": times}


def _mean_ci(xs: list[float]) -> tuple[float, list[float]]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, [m, m]
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    h = 1.96 * math.sqrt(var / n)
    return m, [m - h, m + h]


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


def _work(args):
    return play_deck(*args)


def run_arena(game: str, players: int, seats: list[str], decks: int, seed: Any = 1, jobs: int = 1,
              iterations: int | None = None, options: dict | None = None, house_rules=(),
              progress: Callable[[int], None] | None = None) -> dict:
    """Run an arena; return the ``--json`` object (issue #8)::

        {"game", "players", "decks", "deals",
         "levels": {LEVEL: {"mean", "ci": [lo, hi], "decisions", "p50_ms", "p99_ms"}},
         "diffs": [{"a", "b", "mean", "ci": [lo, hi]}]}     # diff = a − b, per deck

    plus, under the private key ``"_cpu"``, CPU-time percentiles per level for the text output.
    ``seats``: one level per seat (``len(seats) == players``). ``progress(k)`` is called after
    each deck with the number done. ``jobs`` > 1 plays decks in that many processes.
    Raises ValueError for a wrong number of seats, an unknown level, or decks < 1.
    """
    from frapnet.bots.players import LEVELS

    if len(seats) != players:
        raise ValueError(f"--seats names {len(seats)} levels for {players} players")
    for lv in seats:
        if lv not in LEVELS:
            raise ValueError(f"unknown level {lv!r} (levels: {', '.join(LEVELS)})")
    if decks < 1:
        raise ValueError(f"--decks must be at least 1, not {decks}")
    its = iterations if iterations is not None else DEFAULT_ITERATIONS
    engine.new_match(game, players, options, house_rules)  # refuse bad options before any work
    tasks = [(game, players, list(seats), seed, i, its, options, tuple(house_rules)) for i in range(decks)]
    out: list[dict] = []
    if jobs > 1:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn" if jobs > 1 else None)
        with ctx.Pool(jobs) as pool:
            for k, res in enumerate(pool.imap(_work, tasks, chunksize=1), 1):
                out.append(res)
                if progress:
                    progress(k)
    else:
        for k, t in enumerate(tasks, 1):
            out.append(_work(t))
            if progress:
                progress(k)
    out.sort(key=lambda r: r["index"])
    levels = list(dict.fromkeys(seats))
    per_deck = {lv: [sum(r["results"][lv]) / len(r["results"][lv]) for r in out] for lv in levels}
    report: dict = {"game": game, "players": players, "decks": decks, "deals": decks * players, "levels": {},
                    "diffs": []}
    cpu: dict = {}
    for lv in levels:
        m, ci = _mean_ci(per_deck[lv])
        walls = [w for r in out for (w, _) in r["times"].get(lv, ())]
        cpus = [c for r in out for (_, c) in r["times"].get(lv, ())]
        report["levels"][lv] = {"mean": m, "ci": ci, "decisions": len(walls),
                                "p50_ms": _pct(walls, 0.5) * 1000, "p99_ms": _pct(walls, 0.99) * 1000}
        cpu[lv] = {"p50_ms": _pct(cpus, 0.5) * 1000, "p99_ms": _pct(cpus, 0.99) * 1000}
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            m, ci = _mean_ci([x - y for x, y in zip(per_deck[a], per_deck[b])])
            report["diffs"].append({"a": a, "b": b, "mean": m, "ci": ci})
    report["_cpu"] = cpu
    return report


def format_report(rep: dict, unit: str) -> list[str]:
    """The arena's text output, one line per item."""
    lines = [f"{rep['game']}, {rep['players']} players: {rep['decks']} decks × {rep['players']} rotations = "
             f"{rep['deals']} deals (duplicate; fresh match every deal); results in {unit} per deal, 95% CI"]
    lines.append(f"{'level':<10} {'mean':>9} {'95% CI':>21} {'decisions':>10} {'wall p50/p99 ms':>17} {'CPU p50/p99 ms':>16}")
    for lv, d in rep["levels"].items():
        c = rep["_cpu"][lv]
        lines.append(f"{lv:<10} {d['mean']:>+9.3f} [{d['ci'][0]:>+8.3f}, {d['ci'][1]:>+8.3f}] {d['decisions']:>10} "
                     f"{d['p50_ms']:>8.1f}/{d['p99_ms']:<8.1f} {c['p50_ms']:>7.1f}/{c['p99_ms']:<8.1f}")
    for d in rep["diffs"]:
        lines.append(f"{d['a']} − {d['b']}: {d['mean']:+.3f} [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}] {unit} per deal")
    return lines
