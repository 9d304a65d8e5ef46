"""The computer players' targets (issue #8), measured with `frapnet arena` — long; not in the suite.

    python bench/bots.py [--game G ...] [--decks-basic 1000] [--decks-expert 200] [--jobs 2]
                         [--iterations 24] [--timing-decks 10] [--seed 1]

For every game (4 players, default options) it runs, exactly as docs/bots.md records them:

1. ``frapnet arena --seats basic,random,basic,random --decks D1`` — basic beats random;
2. ``frapnet arena --seats expert,basic,basic,basic --decks D2 --iterations K`` — expert beats basic;
3. a timing run of expert at the default ``--think`` budget (wall time, what `frapnet play` uses):
   ``expert`` at one seat against ``basic`` for a few decks, through :func:`frapnet.bots.make_player`
   with no ``iterations``, printing decision time p50/p99 (wall and CPU).

Prints each command, its result line per level and difference (95% CI, the deck as the unit), and
a markdown table for docs/bots.md. Prints figures only; never fails on a slow machine.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

FRAPNET = [sys.executable, "-m", "frapnet"]


def arena(game, seats, decks, seed, jobs, iterations=None):
    cmd = ["frapnet", "arena", "--game", game, "--players", str(len(seats)), "--seats", ",".join(seats),
           "--decks", str(decks), "--seed", str(seed), "--jobs", str(jobs)]
    if iterations:
        cmd += ["--iterations", str(iterations)]
    t0 = time.time()
    out = subprocess.run(FRAPNET + cmd[1:] + ["--json"], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return " ".join(cmd), json.loads(out), time.time() - t0


def timing(game, decks, seed):
    """expert at the default think budget (wall clock), seat rotation as the arena."""
    from frapnet import engine
    from frapnet.bots import make_player
    from frapnet.bots.levels import DEFAULT_THINK
    from frapnet.bots.arena import _pct, deck_for

    walls, cpus, samples = [], [], []
    base = engine.new_match(game, 4)
    for i in range(decks):
        deck = deck_for(engine.pack(base), seed, i)
        for r in range(4):
            levels = ["expert" if (s - r) % 4 == 0 else "basic" for s in range(4)]
            # think given explicitly: a seeded player without it would examine SEEDED_ITERATIONS samples
            bots = [make_player(levels[s], game=game, players=4, seat=s, seed=f"{seed}:{i}:{r}:{s}",
                                think=DEFAULT_THINK if levels[s] == "expert" else None) for s in range(4)]
            st, _ = engine.start_deal(base, deck, 0)
            seen: dict = {}
            for s in range(4):
                bots[s].observe(engine.view(st, s))
            while st.phase == engine.DEAL:
                seat = st.to_act[0]
                v = engine.view(st, seat)
                w0, c0 = time.perf_counter(), time.process_time()
                a = bots[seat].choose(v)
                if levels[seat] == "expert":
                    walls.append(time.perf_counter() - w0)
                    cpus.append(time.process_time() - c0)
                    samples.append(bots[seat].stats.get("samples", 0) - seen.get(seat, 0))
                    seen[seat] = bots[seat].stats.get("samples", 0)
                st, _ = engine.apply(st, seat, a)
                for s in range(4):
                    bots[s].observe(engine.view(st, s))
    return {"decisions": len(walls), "p50": _pct(walls, .5) * 1000, "p99": _pct(walls, .99) * 1000,
            "cpu_p50": _pct(cpus, .5) * 1000, "cpu_p99": _pct(cpus, .99) * 1000, "max": max(walls) * 1000,
            "samples_p50": _pct([x for x in samples if x], .5)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", help="only these games (default: every installed game)")
    p.add_argument("--decks-basic", type=int, default=1000)
    p.add_argument("--decks-expert", type=int, default=200)
    p.add_argument("--iterations", type=int, default=24)
    p.add_argument("--timing-decks", type=int, default=10)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", default="1")
    p.add_argument("--skip-basic", action="store_true")
    p.add_argument("--skip-expert", action="store_true")
    p.add_argument("--skip-timing", action="store_true")
    args = p.parse_args(argv)
    from frapnet.plugins import default_registry
    games = args.game or ["frap"] + sorted(g for g in default_registry().games if g != "frap")
    print(f"frapnet bots benchmark — {time.strftime('%Y-%m-%d %H:%M')} — load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    rows = []
    for g in games:
        if not args.skip_basic:
            cmd, rep, secs = arena(g, ["basic", "random", "basic", "random"], args.decks_basic, args.seed, args.jobs)
            d = rep["diffs"][0]
            print(f"$ {cmd}   ({secs:.0f} s)")
            print(f"  basic − random: {d['mean']:+.3f} [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}]; basic decision "
                  f"p50 {rep['levels']['basic']['p50_ms']:.2f} ms, p99 {rep['levels']['basic']['p99_ms']:.2f} ms")
            rows.append((g, "basic − random", rep["decks"], d, rep["levels"]["basic"]))
        if not args.skip_expert:
            cmd, rep, secs = arena(g, ["expert", "basic", "basic", "basic"], args.decks_expert, args.seed, args.jobs,
                                   args.iterations)
            d = rep["diffs"][0]
            print(f"$ {cmd}   ({secs:.0f} s)")
            print(f"  expert − basic: {d['mean']:+.3f} [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}]; expert decision "
                  f"p50 {rep['levels']['expert']['p50_ms']:.1f} ms, p99 {rep['levels']['expert']['p99_ms']:.1f} ms")
            rows.append((g, "expert − basic", rep["decks"], d, rep["levels"]["expert"]))
        if not args.skip_timing:
            t = timing(g, args.timing_decks, args.seed)
            print(f"  expert at the default --think: {t['decisions']} decisions, wall p50 {t['p50']:.0f} ms, "
                  f"p99 {t['p99']:.0f} ms, max {t['max']:.0f} ms; CPU p50 {t['cpu_p50']:.0f} ms, p99 {t['cpu_p99']:.0f} ms; "
                  f"samples per searched decision p50 {t['samples_p50']:.0f}")
    print()
    print("| game | comparison | decks | mean per deal | 95% CI | decision p50 / p99 (wall) |")
    print("|---|---|---|---|---|---|")
    for g, what, decks, d, lv in rows:
        print(f"| {g} | {what} | {decks} | {d['mean']:+.2f} | [{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}] | "
              f"{lv['p50_ms']:.1f} / {lv['p99_ms']:.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
