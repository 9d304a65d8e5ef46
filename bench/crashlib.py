"""Kill a real `frapnet host` with SIGKILL at random moments and start the same command again
until its match ends (issue #9 "Tests"); shared by tests/test_crash.py and bench/crash.py."""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

PHASE_OF_VERB = {"look": "bidding", "pass": "bidding", "frap": "bidding", "blind_frap": "bidding",
                 "whist": "bidding", "buy": "buying", "take_trump": "buying", "cut_in": "buying",
                 "cut_in_trump": "buying", "decline": "buying", "discard": "buying", "play": "play"}


def host_command(db: str, rec: str, deals: int, seed: str, players: int = 4, extra=()) -> list[str]:
    """The one `frapnet host` command line every run repeats (computer players in every seat)."""
    return [sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
            "--players", str(players), "--bots", str(players), "--level", "random", "--deals", str(deals),
            "--seed", seed, "--pause", "0", "--db", db, "--record", rec, *extra]


def _actions(db: str) -> tuple[int, str | None]:
    """How many actions the journal holds, and the verb of the newest (None: none yet)."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            row = con.execute("SELECT COUNT(*), (SELECT action FROM actions ORDER BY rowid DESC LIMIT 1) "
                              "FROM actions").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return 0, None
    return row[0], (json.loads(row[1])[1] if row[1] else None)


def journal_actions(db: str) -> int:
    """How many accepted actions the journal ``db`` holds (all its matches)."""
    return _actions(db)[0]


def run_with_kills(cmd: list[str], db: str, kills: int, rng: random.Random, env=None, spread: int = 300,
                   timeout: float = 600.0, targets: list[int] | None = None) -> dict:
    """Run ``cmd``; ``kills`` times SIGKILL it once the journal has grown by a random 1…``spread``
    actions — or, with ``targets`` (journal sizes, ascending), once it holds ``targets[i]``
    actions for the i-th kill — then start the same command again; finally let it end. Returns
    ``{"result": the host's JSON result line, "killed_at": [(actions, phase), …], "runs": n}``."""
    killed_at = []
    runs = 0
    deadline = time.monotonic() + timeout
    if targets is not None:
        kills = len(targets)
    while True:
        runs += 1
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if len(killed_at) < kills:
            start, _ = _actions(db)
            target = targets[len(killed_at)] if targets is not None else start + rng.randint(1, spread)
            while p.poll() is None and time.monotonic() < deadline:
                n, verb = _actions(db)
                if n >= target:
                    p.send_signal(signal.SIGKILL)
                    p.wait()
                    killed_at.append((n, PHASE_OF_VERB.get(verb, verb)))
                    break
                time.sleep(0.002)
            if p.returncode is not None and p.returncode == -signal.SIGKILL:
                continue
        out, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
        if p.returncode != 0:
            raise AssertionError(f"frapnet host exited {p.returncode}:\n{err[-3000:]}")
        lines = [x for x in out.splitlines() if x.startswith("{")]
        return {"result": json.loads(lines[-1]), "killed_at": killed_at, "runs": runs, "stderr": err}


def replay_balances(rec: str, env=None) -> dict:
    """`frapnet replay REC --json` of the record file."""
    r = subprocess.run([sys.executable, "-m", "frapnet", "replay", rec, "--json"], capture_output=True, text=True,
                       env=env, timeout=300)
    return json.loads(r.stdout)


def leftover_temporaries(folder: str) -> list[str]:
    return sorted(f for f in os.listdir(folder) if ".tmp" in f)
