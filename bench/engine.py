"""Engine benchmark: random legal play of every registered game (issue #2 "Performance", #5).

    python bench/engine.py [--seconds S] [--repeat R] [--game NAME ...] [--no-openspiel] [--profile]

For each game it plays random legal deals on one core — at every step it calls
``legal_actions`` for the seat to act and applies an action chosen uniformly from that list —
and prints deals/s and actions/s; then the same with ``view()`` of the acting seat added at
every action (the host sends a view after each action), with view calls/s. Frap runs with 4
and 12 players; every other game (installed variants) with 4 players, or the nearest count its
rule book allows, and with its maximum; each variant's actions/s is shown as a ratio to
Frap's (issue #5: within 2× of Frap per action). Decks are shuffled before timing (shuffling
is the host's job, not the engine's). Rates use this process's CPU time (``time.process_time``),
best of ``--repeat`` runs, so other load on the machine disturbs them less.

The same run times OpenSpiel's C++ ``oh_hell`` (4 players, 8 cards per suit = 32 cards,
4 tricks) through its Python API, choosing uniformly among legal actions and chance outcomes,
and prints its games/s and the ratio of Frap's four-player deals/s to it. Install it with
``pip install open_spiel`` (not a frapnet dependency); without it the row is skipped with
the reason.

Then (issue #8) random playouts from mid-deal states (halfway through 64 random deals) to the end
of the deal, per game (Frap with 4 and 12 players): the pure ``engine.apply`` path and the search's
fast path (:mod:`frapnet.engine.fast`: copy once, apply in place), side by side in one run, with the
speed-up; ``--baseline REV`` adds the pure path of an older revision (its tree extracted with
``git archive``, timed in a subprocess, interleaved with this tree's runs) — issue #8 measures the
fast path against the code before it (``--baseline 5b4df86``). Prints figures only; it never fails on a slow machine.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from frapnet import engine  # noqa: E402
from frapnet.plugins import default_registry  # noqa: E402


def play_deals(game: str, players: int, seconds: float, with_view: bool, seed: int = 1) -> dict:
    """Play random legal deals of ``game`` for about ``seconds`` of CPU time; return the counts."""
    rng = random.Random(seed)
    state = engine.new_match(game, players)
    pack = engine.pack(state)
    decks = []
    for _ in range(256):
        d = pack[:]
        rng.shuffle(d)
        decks.append(d)
    legal_actions, apply, view, start_deal = engine.legal_actions, engine.apply, engine.view, engine.start_deal
    choice = rng.choice
    deals = actions = views = 0
    view_time = 0.0
    clock = time.process_time
    t0 = clock()
    deadline = t0 + seconds
    while True:
        if state.phase == engine.OVER:
            state = engine.new_match(game, players)
        state, _ = start_deal(state, decks[deals & 255], 0 if state.dealer is None else None)
        while state.phase == "deal":
            seat = state.to_act[0]
            state, _ = apply(state, seat, choice(legal_actions(state, seat)))
            actions += 1
            if with_view:
                v0 = clock()
                view(state, seat)
                view_time += clock() - v0
                views += 1
        deals += 1
        if deals & 15 == 0 and clock() > deadline:
            break
    elapsed = clock() - t0
    return {"deals": deals, "actions": actions, "seconds": elapsed, "views": views, "view_seconds": view_time}


def mid_deal_states(game: str, players: int, count: int = 64, seed: int = 7) -> list:
    """``count`` states halfway through random legal deals of ``game`` (half of each deal's actions
    played; deals that end at once are skipped), built with the pure engine."""
    rng = random.Random(seed)
    out = []
    base = engine.new_match(game, players)
    pack = engine.pack(base)
    while len(out) < count:
        deck = pack[:]
        rng.shuffle(deck)
        start, _ = engine.start_deal(base, deck, 0)
        path = [start]
        s = start
        while s.phase == engine.DEAL:
            seat = s.to_act[0]
            s, _ = engine.apply(s, seat, rng.choice(engine.legal_actions(s, seat)))
            path.append(s)
        if len(path) >= 3:
            out.append(path[(len(path) - 1) // 2])
    return out


def baseline_playouts(rev: str, game: str, players: int, seconds: float, seed: int) -> dict:
    """:func:`playouts` with the pure apply() of git revision ``rev`` (its frapnet tree extracted
    to a temp dir, timed in a subprocess that imports it)."""
    import json
    import subprocess
    import tempfile

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    cache = _BASELINES.get(rev)
    if cache is None:
        cache = _BASELINES[rev] = tempfile.mkdtemp(prefix="frapnet-baseline-")
        tar = subprocess.run(["git", "-C", root, "archive", rev, "frapnet", "bench/engine.py"], check=True,
                             capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", cache], input=tar, check=True)
        # the worker needs this file's playouts(); the old tree supplies frapnet
        with open(os.path.join(cache, "bench", "engine.py"), "w") as f:
            f.write(open(os.path.abspath(__file__)).read())
    out = subprocess.run([sys.executable, os.path.join(cache, "bench", "engine.py"), "--_playout-worker", game,
                          str(players), str(seconds), str(seed)], check=True, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=cache)).stdout
    return json.loads(out.strip().splitlines()[-1])


_BASELINES: dict = {}


def playouts(game: str, players: int, seconds: float, fast_path: bool, seed: int = 1, baseline: bool = False) -> dict:
    """Random playouts from mid-deal states to the end of the deal for about ``seconds`` of CPU
    time (issue #8): ``fast_path`` False uses the pure ``engine.apply`` (a new state per action),
    True copies the state once and applies in place (:mod:`frapnet.engine.fast`)."""
    if not baseline:
        from frapnet.engine import fast

    mids = mid_deal_states(game, players)
    rng = random.Random(seed)
    choice = rng.choice
    legal_actions, apply = engine.legal_actions, engine.apply
    n = actions = 0
    clock = time.process_time
    t0 = clock()
    deadline = t0 + seconds
    pick = lambda st, seat, acts: choice(acts)  # noqa: E731
    while True:
        s = mids[n & 63]
        if fast_path:
            before = s.version
            s = fast.playout(fast.copy_state(s), pick)
            actions += s.version - before
        else:
            while s.phase == engine.DEAL:
                seat = s.to_act[0]
                s, _ = apply(s, seat, choice(legal_actions(s, seat)))
                actions += 1
        n += 1
        if n & 15 == 0 and clock() > deadline:
            break
    return {"deals": n, "actions": actions, "seconds": clock() - t0}


def best(game, players, seconds, repeat, with_view):
    runs = [play_deals(game, players, seconds, with_view, seed=i + 1) for i in range(repeat)]
    return max(runs, key=lambda r: r["deals"] / r["seconds"])


def openspiel_oh_hell(seconds: float, repeat: int):
    """Games/s and actions/s of OpenSpiel's C++ oh_hell (4 players, 32 cards, 4 tricks), or the reason
    it cannot run."""
    try:
        import pyspiel
    except ImportError as exc:
        return None, f"open_spiel is not installed ({exc}); pip install open_spiel to add this row"
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_suits": 4, "num_cards_per_suit": 8,
                                         "num_tricks_fixed": 4})
    results = []
    for r in range(repeat):
        rng = random.Random(r + 1)
        choice = rng.choice
        games = actions = 0
        clock = time.process_time
        t0 = clock()
        deadline = t0 + seconds
        while True:
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(choice(s.chance_outcomes())[0])
                else:
                    s.apply_action(choice(s.legal_actions()))
                actions += 1
            games += 1
            if games & 15 == 0 and clock() > deadline:
                break
        results.append({"deals": games, "actions": actions, "seconds": clock() - t0})
    return max(results, key=lambda x: x["deals"] / x["seconds"]), None


def row(label, r):
    dps = r["deals"] / r["seconds"]
    aps = r["actions"] / r["seconds"]
    return dps, aps, f"{label:<34} {dps:>10,.0f} {aps:>12,.0f} {r['actions'] / r['deals']:>8.1f}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    p.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is shown (default 3)")
    p.add_argument("--game", action="append", help="only these games (default: every registered game)")
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel oh_hell row")
    p.add_argument("--baseline", metavar="REV", default=None,
                   help="also time the pure apply() playouts of git revision REV (e.g. the commit before "
                        "issue #8), in a subprocess alternating with this tree's runs")
    p.add_argument("--playouts-only", action="store_true", help="only the mid-deal playout rows")
    p.add_argument("--_playout-worker", nargs=4, metavar=("GAME", "N", "SECONDS", "SEED"), help=argparse.SUPPRESS)
    p.add_argument("--profile", action="store_true", help="cProfile four-player Frap and print the top functions")
    args = p.parse_args(argv)

    if args._playout_worker:
        g, n, sec, seed = args._playout_worker
        import json
        print(json.dumps(playouts(g, int(n), float(sec), False, seed=int(seed), baseline=True)))
        return 0
    if args.profile:
        import cProfile
        import pstats
        cProfile.runctx("play_deals('frap', 4, args.seconds, False)", globals(), {"args": args}, "/tmp/frap.prof")
        pstats.Stats("/tmp/frap.prof").sort_stats("tottime").print_stats(20)
        return 0

    reg = default_registry()
    games = args.game or ["frap"] + sorted(g for g in reg.games if g != "frap")
    print(f"frapnet engine benchmark — {time.strftime('%Y-%m-%d')} — {platform.node()} — "
          f"{platform.processor() or platform.machine()} — Python {platform.python_version()}")
    try:
        load = os.getloadavg()[0]
        print(f"one core; CPU time of this process; best of {args.repeat} × {args.seconds:g} s; "
              f"load average {load:.1f} on {os.cpu_count()} cores")
    except OSError:
        pass
    print(f"{'':<34} {'deals/s':>10} {'actions/s':>12} {'act/deal':>8}")
    frap_aps = frap_dps = None
    for game in ([] if args.playouts_only else games):
        spec = reg.game(game)
        counts = [4, 12] if game == "frap" else sorted({min(max(4, spec.min_players), spec.max_players),
                                                         spec.max_players})
        for n in counts:
            r = best(game, n, args.seconds, args.repeat, False)
            dps, aps, text = row(f"{game} {n} players", r)
            if game == "frap" and n == 4:
                frap_aps, frap_dps = aps, dps
            ratio = "" if game == "frap" or frap_aps is None else f"   actions/s {aps / frap_aps:.2f}× Frap's (4 players)"
            print(text + ratio)
            rv = best(game, n, args.seconds, args.repeat, True)
            _, _, text = row(f"{game} {n} players + view/action", rv)
            vps = rv["views"] / rv["view_seconds"] if rv["view_seconds"] else float("nan")
            print(text + f"   view() {vps:,.0f}/s")
    print()
    print(f"{'random playouts from mid-deal (issue #8)':<34} {'playouts/s':>10} {'actions/s':>12} {'speed-up':>8}")
    for game in games:
        spec = reg.game(game)
        counts = [4, 12] if game == "frap" else [min(max(4, spec.min_players), spec.max_players)]
        for n in counts:
            kinds = (["base"] if args.baseline else []) + [False, True]
            rs: dict = {k: [] for k in kinds}
            for i in range(args.repeat):  # interleaved: side by side in one run (a shared, noisy machine)
                for k in kinds:
                    if k == "base":
                        rs[k].append(baseline_playouts(args.baseline, game, n, args.seconds, i + 1))
                    else:
                        rs[k].append(playouts(game, n, args.seconds, k, seed=i + 1))
            runs = {k: max(v, key=lambda r: r["deals"] / r["seconds"]) for k, v in rs.items()}
            rate = {k: runs[k]["deals"] / runs[k]["seconds"] for k in kinds}
            labels = {"base": f"apply() at {(args.baseline or '')[:10]}", False: "apply()", True: "fast path"}
            for k in kinds:
                r = runs[k]
                extra = ""
                if k is True:
                    extra = f"{rate[True] / rate[False]:>7.2f}×"
                    if args.baseline:
                        extra += f"  ({rate[True] / rate['base']:.2f}× {args.baseline[:10]})"
                print(f"{game + f' {n} players, ' + labels[k]:<34} {rate[k]:>10,.0f} "
                      f"{r['actions'] / r['seconds']:>12,.0f} {extra:>8}")
    if not args.no_openspiel and not args.playouts_only:
        r, why = openspiel_oh_hell(args.seconds, args.repeat)
        if r is None:
            print(f"{'OpenSpiel oh_hell (C++)':<34} skipped: {why}")
        else:
            dps, aps, text = row("OpenSpiel oh_hell 4p 32 cards (C++)", r)
            extra = f"   Frap 4p deals/s = {frap_dps / dps:.2f}× oh_hell games/s" if frap_dps else ""
            print(text + extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
