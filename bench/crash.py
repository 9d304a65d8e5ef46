"""SIGKILL a real `frapnet host` at ≥ 20 random moments across bidding, buying and play —
including a match whose record passes 1 MiB — restarting the same command each time (issue #9;
docs/reliability.md). Prints, per match, the kills (journal size and phase at each), whether it
finished, whether its record replays to exactly the balances the host reported, whether those
equal an uninterrupted run of the same command, and whether `frapnet verify` accepts every
deal's shuffle proof (issue #11) after the kills.

    .venv/bin/python bench/crash.py                 # 20 kills: 12 in a short match, 8 in a long one
    .venv/bin/python bench/crash.py --long-deals 900 --long-kills 8 --short-kills 12
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crashlib import host_command, journal_actions, leftover_temporaries, replay_balances, run_with_kills  # noqa: E402


def one(label: str, deals: int, kills: int, seed: str, rng: random.Random) -> tuple[bool, int]:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp)
        db, rec = f"{tmp}/j.sqlite3", f"{tmp}/r.json"
        # the uninterrupted run first: its journal's length bounds the kill moments, so every
        # kill asked for falls inside the match (drawn uniformly over all of it, no two alike)
        clean = run_with_kills(host_command(f"{tmp}/k.sqlite3", f"{tmp}/k.json", deals, seed),
                               f"{tmp}/k.sqlite3", 0, rng, env=env, timeout=3600)
        total = journal_actions(f"{tmp}/k.sqlite3")
        targets = sorted(rng.sample(range(1, total), min(kills, total - 1)))
        t0 = time.perf_counter()
        crashed = run_with_kills(host_command(db, rec, deals, seed), db, kills, rng, env=env, timeout=3600,
                                 targets=targets)
        t1 = time.perf_counter()
        rep = replay_balances(rec, env=env)
        got = crashed["result"]
        size = Path(rec).stat().st_size
        same = (got["balances"], got["pot"]) == (clean["result"]["balances"], clean["result"]["pot"])
        replays = rep.get("ok") and (rep["balances"], rep["pot"]) == (got["balances"], got["pot"])
        left = leftover_temporaries(tmp)
        import subprocess
        verified = subprocess.run([sys.executable, "-m", "frapnet", "verify", rec], capture_output=True, text=True,
                                  env=env, timeout=600).returncode == 0
        phases = Counter(p for _, p in crashed["killed_at"])
        print(f"{label}: {deals} deals, record {size / 1048576:.2f} MiB, {len(crashed['killed_at'])} kills "
              f"({', '.join(f'{k} {v}' for k, v in sorted(phases.items()))}) at journal sizes "
              f"{[n for n, _ in crashed['killed_at']]}; {crashed['runs']} runs in {t1 - t0:.1f} s")
        ok = got["deals"] == deals and replays and same and not left and verified
        print(f"  finished: {got['deals'] == deals}; record replays to the reported balances: {bool(replays)}; "
              f"equal to the uninterrupted run: {same}; frapnet verify: {verified}; "
              f"temporaries left: {left or 'none'} -> "
              f"{'OK' if ok else 'FAILED'}")
        return ok, len(crashed["killed_at"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--short-deals", type=int, default=40)
    ap.add_argument("--short-kills", type=int, default=12)
    ap.add_argument("--long-deals", type=int, default=900, help="enough for a record past 1 MiB")
    ap.add_argument("--long-kills", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    results = [one("short match", a.short_deals, a.short_kills, "c1", rng),
               one("long match", a.long_deals, a.long_kills, "c2", rng)]
    print(f"{sum(ok for ok, _ in results)}/{len(results)} matches OK after {sum(k for _, k in results)} kills "
          f"in all (asked for {a.short_kills + a.long_kills})")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
