"""The newcomer's first `./run setup` (issue #10 item 1): wall time, CPU time and lines printed,
from a fresh clone with no .venv, this checkout's HEAD against a baseline commit, alternating
(A B A B …) so the machine's drifting load hits both alike.

    .venv/bin/python bench/first_run.py --baseline 5b4df86 --runs 3

It needs the package registry (pip downloads every dependency: pip's own cache is used if the
machine has one, as a newcomer's would). Prints one row per run and the medians; asserts
nothing. Each run clones into a temporary folder and removes it afterwards.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_run(rev: str) -> dict:
    """Clone ``rev`` into a temporary folder and time its ``./run setup``."""
    with tempfile.TemporaryDirectory(prefix="frapnet-first-run-") as tmp:
        co = Path(tmp) / "frapnet"
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(co)], check=True)
        subprocess.run(["git", "-C", str(co), "checkout", "-q", rev], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run(["bash", "./run", "setup"], cwd=co, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        lines = (p.stdout + p.stderr).strip().splitlines()
        return {"rev": rev, "ok": p.returncode == 0, "wall": wall, "cpu": cpu, "lines": len(lines),
                "warnings": sum("WARNING" in x or "Warning" in x for x in lines)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default=None, help="the commit to compare with (default: HEAD only)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    args = ap.parse_args()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    revs = [head] + ([args.baseline] if args.baseline else [])
    rows = []
    print(f"load average {os.getloadavg()[0]:.1f}; Python {sys.version.split()[0]}")
    print(f"{'rev':<10} {'ok':<3} {'wall s':>7} {'cpu s':>7} {'lines':>6} {'warnings':>9}")
    for _ in range(args.runs):
        for rev in revs:
            r = one_run(rev)
            rows.append(r)
            print(f"{r['rev']:<10} {'yes' if r['ok'] else 'NO':<3} {r['wall']:7.1f} {r['cpu']:7.1f} {r['lines']:6d} "
                  f"{r['warnings']:9d}", flush=True)
    print("medians:")
    for rev in revs:
        rs = [r for r in rows if r["rev"] == rev]
        print(f"  {rev}: wall {statistics.median(r['wall'] for r in rs):.1f} s, cpu "
              f"{statistics.median(r['cpu'] for r in rs):.1f} s, {statistics.median(r['lines'] for r in rs):.0f} "
              f"lines printed")
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
