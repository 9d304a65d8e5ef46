"""`kill -9` a real `frapnet host` at random moments and start the same command again (issue #9
"Tests"; docs/reliability.md). Computer players in every seat, loopback only, nothing
announced. Every match finishes, its record replays to exactly the balances the host reports
(F6), equal to those of the same command run without a crash; `frapnet export` and `frapnet
stats` read the same journal. The 20-kill run (with a match past 1 MiB) is bench/crash.py."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from crashlib import host_command, leftover_temporaries, replay_balances, run_with_kills  # noqa: E402

pytestmark = pytest.mark.timeout(600)


def frapnet(*args, env=None):
    return subprocess.run([sys.executable, "-m", "frapnet", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_kill_9_at_random_moments_the_same_command_finishes_the_match(tmp_path):
    """Four SIGKILLs at random moments of a 6-deal match; the same command resumes each time at
    its last accepted action: the final result equals an uninterrupted run's, the record replays
    to it exactly, no temporary file is left, and export/stats agree with it."""
    db, rec = str(tmp_path / "j.sqlite3"), str(tmp_path / "r.json")
    cmd = host_command(db, rec, deals=6, seed="31")
    crashed = run_with_kills(cmd, db, kills=4, rng=random.Random(4), spread=60)
    assert len(crashed["killed_at"]) == 4 and crashed["runs"] == 5
    assert "resuming the match of table" in crashed["stderr"] and "(match 1 in the journal" in crashed["stderr"]
    clean = run_with_kills(host_command(str(tmp_path / "k.sqlite3"), str(tmp_path / "k.json"), 6, "31"),
                           str(tmp_path / "k.sqlite3"), kills=0, rng=random.Random(0))
    got, want = crashed["result"], clean["result"]
    assert got["deals"] == want["deals"] == 6
    assert (got["balances"], got["pot"]) == (want["balances"], want["pot"])
    assert sum(got["balances"]) + got["pot"] == 0  # F6: no chip created or lost
    rep = replay_balances(rec)
    assert rep["ok"] and (rep["balances"], rep["pot"]) == (got["balances"], got["pot"])
    assert leftover_temporaries(str(tmp_path)) == []
    exported = frapnet("export", "--db", db)
    assert exported.returncode == 0 and json.loads(exported.stdout) == json.loads(Path(rec).read_text())
    # issue #11: every deal's shuffle proof survived the kills — the record verifies, deal by deal
    proofs = [d["shuffle"] for d in json.loads(exported.stdout)["deals"]]
    assert len(proofs) == 6 and all(p["scheme"] == "frapnet-shuffle/1" and p["nonces"] for p in proofs)
    verified = frapnet("verify", rec, "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["ok"] is True, verified.stdout
    stats = json.loads(frapnet("stats", "--db", db, "--json").stdout)
    assert stats["matches"] == 1 and [p["name"] for p in stats["players"]] == ["Bot 0", "Bot 1", "Bot 2", "Bot 3"]
    reports = rep["deals"]
    for seat, p in enumerate(stats["players"]):
        g = p["games"]["frap"]
        assert (p["matches"], p["deals"], g["net"], g["unit"]) == (1, 6, got["balances"][seat], "chips")
        made = sum(1 for d in reports if d["frapper"] == seat and d["outcome"] in ("played", "no_whist")
                   and not d["remises"][seat])
        assert g["counts"]["fraps_made"] == made
        assert g["counts"]["remises"] == sum(1 for d in reports if d["remises"][seat])


def test_a_12_seat_match_past_2_64_resumed_from_its_journal_plays_on_exactly_F6(tmp_path):
    """F6: 12 seats, a 52-card pack, an ante of 2^66 — balances pass 2^64 in the first deal; two
    SIGKILLs; the resumed host plays on exactly: the same balances as without the crashes."""
    opts = ["--option", f"ante={2 ** 66}", "--option", "deck=52"]
    db, rec = str(tmp_path / "j.sqlite3"), str(tmp_path / "r.json")
    crashed = run_with_kills(host_command(db, rec, 3, "12", players=12, extra=opts), db, kills=2,
                             rng=random.Random(12), spread=80)
    clean = run_with_kills(host_command(str(tmp_path / "k.sqlite3"), str(tmp_path / "k.json"), 3, "12",
                                        players=12, extra=opts), str(tmp_path / "k.sqlite3"), 0, random.Random(0))
    got = crashed["result"]
    assert len(crashed["killed_at"]) == 2 and got["deals"] == 3
    assert max(abs(b) for b in got["balances"]) > 2 ** 64
    assert (got["balances"], got["pot"]) == (clean["result"]["balances"], clean["result"]["pot"])
    rep = replay_balances(rec)
    assert (rep["balances"], rep["pot"]) == (got["balances"], got["pot"])
