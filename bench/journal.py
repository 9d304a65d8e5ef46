"""The SQLite journal's cost (issue #9 "Targets"; docs/performance.md, docs/reliability.md).

1. A 200-deal 4-bot Frap match (`--pause 0 --bot-delay 0`, seeded), in its own process each
   time, with the journal (WAL, synchronous=FULL, one committed row per accepted action) and
   without it — alternating, in one run. Target: with ≤ 1.5× without.
2. The journal's cost per accepted action (``MatchJournal.action_applied``: one INSERT and
   its COMMIT) at deal 1 and at deal 1,000 of one match, in one process. Target: flat.

With ``--control MS``, part 1 plays a third match in each round: without the journal, but waiting
MS milliseconds (``time.sleep``: no disk, no SQLite) after each accepted action, where the
journal's commit would be — what the wait alone costs this machine. (On a VM whose core is given
to others while the process waits, the Python after each wait runs slower: the match's CPU time
grows, not only its wall time by the waits.)

    .venv/bin/python bench/journal.py [--deals 200] [--rounds 3] [--long 1000] [--control 0.5]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MATCH = r"""
import json, sys, time
from twisted.internet import asyncioreactor
import asyncio
loop = asyncio.new_event_loop(); asyncio.set_event_loop(loop); asyncioreactor.install(loop)
from twisted.internet import defer, task
from twisted.logger import globalLogBeginner
globalLogBeginner.beginLoggingTo([lambda e: None], redirectStandardIO=False)
from frapnet.hosting import HostConfig, TableConfig, start_host
db, deals = (sys.argv[1] or None), int(sys.argv[2])
wait = float(db[6:]) / 1000 if db and db.startswith("sleep:") else None
if wait is not None:
    db = None

async def main(reactor):
    t0 = time.perf_counter()
    h = start_host(reactor, HostConfig(TableConfig(name="bench", players=4, deals=deals, pause=0, bot_delay=0,
                                                   seed="bench"), bots=4, db=db))
    if wait is not None:  # the control: a wait where the journal's commit would be
        h.table.journal.action_applied = lambda state: time.sleep(wait)
    result = await h.finished
    t1 = time.perf_counter()
    await h.stop()
    print(json.dumps({"seconds": t1 - t0, "cpu": time.process_time(), "deals": result["deals"], "balances": result["balances"],
                      "actions": h.table.actions_applied}))
task.react(lambda r: defer.ensureDeferred(main(r)))
"""


def match(db: str | None, deals: int) -> dict:
    r = subprocess.run([sys.executable, "-c", MATCH, db or "", str(deals)], capture_output=True, text=True,
                       cwd=ROOT, timeout=1800)
    lines = [x for x in r.stdout.splitlines() if x.startswith("{")]
    if not lines:
        raise RuntimeError(r.stderr[-3000:])
    return json.loads(lines[-1])


def per_action(long: int) -> tuple[list[float], list[float], int]:
    """Seconds per action_applied at deal 1 and at deal ``long`` of one journaled match."""
    from frapnet import engine
    from frapnet.net.journal import Journal
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        db = Journal(f"{tmp}/j.sqlite3")
        st = engine.new_match("frap", 4, {})
        mj = db.new_match("bench", st)
        first, last = [], []
        for d in range(1, long + 1):
            deck = engine.pack(st)
            rng.shuffle(deck)
            st, _ = engine.start_deal(st, deck, 0 if st.dealer is None else None)
            mj.deal_started(st)
            while st.phase == engine.DEAL:
                seat = st.to_act[0]
                st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
                t0 = time.perf_counter()
                mj.action_applied(st)
                dt = time.perf_counter() - t0
                if d == 1:
                    first.append(dt)
                elif d == long:
                    last.append(dt)
        rows = db.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        db.close()
    return first, last, rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--long", type=int, default=1000)
    ap.add_argument("--control", type=float, default=None, metavar="MS",
                    help="also run the match without the journal, waiting MS ms after each accepted action")
    a = ap.parse_args()
    with_j, without, control = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.rounds):  # alternating, so the machine's noise hits both alike
            without.append(match(None, a.deals))
            with_j.append(match(f"{tmp}/j{i}.sqlite3", a.deals))
            if a.control is not None:
                control.append(match(f"sleep:{a.control}", a.deals))
    same = all(x["balances"] == without[0]["balances"] for x in with_j + without + control)
    tw = statistics.median(x["seconds"] for x in with_j)
    to = statistics.median(x["seconds"] for x in without)
    print(f"1. {a.deals}-deal 4-bot match, {with_j[0]['actions']} accepted actions, median of {a.rounds} "
          f"alternating runs: without journal {to:.2f} s, with journal {tw:.2f} s -> {tw / to:.2f}x "
          f"(target <= 1.5x); same result every run: {same}")
    print(f"   runs without: {[round(x['seconds'], 2) for x in without]}, with: {[round(x['seconds'], 2) for x in with_j]}")
    cpu = lambda runs: statistics.median(x["cpu"] for x in runs)  # noqa: E731 - the match process's CPU seconds
    print(f"   CPU time of the match process (median): without {cpu(without):.2f} s, with {cpu(with_j):.2f} s")
    if control:
        tc = statistics.median(x["seconds"] for x in control)
        print(f"   control, without journal but a {a.control} ms sleep after each accepted action: {tc:.2f} s -> "
              f"{tc / to:.2f}x the match without (CPU {cpu(control):.2f} s; the sleeps alone "
              f"{with_j[0]['actions'] * a.control / 1000:.2f} s); runs {[round(x['seconds'], 2) for x in control]}")
    first, last, rows = per_action(a.long)
    f, l_ = statistics.median(first) * 1e6, statistics.median(last) * 1e6
    print(f"2. journal cost per accepted action (INSERT + COMMIT, synchronous=FULL): deal 1 median {f:.0f} us "
          f"(p90 {sorted(first)[int(len(first) * .9)] * 1e6:.0f}), deal {a.long} median {l_:.0f} us "
          f"(p90 {sorted(last)[int(len(last) * .9)] * 1e6:.0f}) with {rows} rows in the journal -> "
          f"{l_ / f:.2f}x (target: flat)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
