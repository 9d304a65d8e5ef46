"""Issue #11 "done when", end to end with real processes: a hosted match with two joined terminal
clients (in tmux) shows ✓ after every deal, and `frapnet verify` passes its record and fails a
tampered copy; a host that deals another deck than the one it committed to (a test double: the
real host with its dealt deck reversed) is caught by every client — both terminals show the
warning naming the deal, the host's own computer players log it — and by `frapnet verify`.
"""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

# the tmux driver of the terminal client's own end-to-end tests (tests run with --import-mode=importlib)
_spec = importlib.util.spec_from_file_location("_tui_tmux", Path(__file__).with_name("test_tui_tmux.py"))
_tui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tui)
TMUX, Tmux, _drive = _tui.TMUX, _tui.Tmux, _tui._drive

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")

CHEAT = ("import sys, frapnet.net.dealing as d\n"
         "honest = d.ShuffleRound.deck\n"
         "d.ShuffleRound.deck = lambda self, pack: honest(self, pack)[::-1]  # not the committed deck\n"
         "from frapnet.cli import main\n"
         "sys.exit(main(sys.argv[1:]))\n")


def _host(tmp_path, *extra, cheat=False):
    rec = tmp_path / "match.json"
    cmd = [sys.executable, "-c", CHEAT] if cheat else [sys.executable, "-m", "frapnet"]
    host = subprocess.Popen(cmd + ["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--players", "4",
                                   "--bots", "2", "--seed", "11", "--pause", "0.5", "--record", str(rec), "--rematch", "0",
                                   *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = re.search(r"on 127\.0\.0\.1:(\d+)", host.stdout.readline())
    assert m
    return host, int(m.group(1)), rec


def _join(tmp_path, port, name):
    return Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8 {sys.executable} -m frapnet join "
                f"127.0.0.1:{port} --name {name} --lang en; echo FRAPNET-EXIT=$?; sleep 60")


def _play(terms: dict, until, timeout=120.0) -> dict:
    """Drive every terminal like a plain player until ``until(name, screen)`` holds for each;
    return every screen seen, per name."""
    seen = {name: [] for name in terms}
    done = set()
    deadline = time.monotonic() + timeout
    while len(done) < len(terms):
        assert time.monotonic() < deadline, {n: t.capture() for n, t in terms.items()}
        for name, t in terms.items():
            s = t.capture()
            seen[name].append(s)
            if until(name, s):
                done.add(name)
            elif "Enter: continue" in s:
                t.keys("Enter")
            elif _drive(t, s):
                t.wait(lambda x, s=s: x != s, 10, f"{name}'s screen to change")
        time.sleep(0.05)
    return seen


def _verify(path):
    return subprocess.run([sys.executable, "-m", "frapnet", "verify", str(path)], capture_output=True, text=True,
                          timeout=60)


def test_two_joined_clients_see_every_deal_checked_and_the_record_verifies(tmp_path):
    host, port, rec = _host(tmp_path, "--deals", "3")
    terms = {}
    try:
        terms = {n: _join(tmp_path, port, n) for n in ("Olga", "Ivan")}
        seen = _play(terms, lambda n, s: "FRAPNET-EXIT=" in s or "table closed" in s)
        for name, screens in seen.items():
            marks = {int(m) for s in screens for m in re.findall(r"✓ deal (\d) fair", s)}
            assert marks == {1, 2, 3}, (name, screens[-1])  # ✓ in the status bar after every deal
            assert not any("NOT FAIR" in s or "FAILED THE FAIRNESS" in s for s in screens)
        out, err = host.communicate(timeout=60)
        assert host.returncode == 0, err[-2000:]
    finally:
        for t in terms.values():
            t.kill()
        if host.poll() is None:
            host.kill()
            host.communicate()
    ok = _verify(rec)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    lines = ok.stdout.splitlines()
    assert lines[-1] == "3 deals verified" and all(" ✓ commitment " in x for x in lines[:3])
    assert all(x.endswith("nonces of seats 0 1 2 3") for x in lines[:3])  # both people and both bots
    data = json.loads(rec.read_text())
    data["deals"][1]["deck"][0], data["deals"][1]["deck"][-1] = data["deals"][1]["deck"][-1], data["deals"][1]["deck"][0]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    bad = _verify(tampered)
    assert bad.returncode == 2 and bad.stdout.startswith("NOT VERIFIED: deal 2: the recorded deck"), bad.stdout


def test_a_host_dealing_another_deck_is_caught_by_every_client_and_by_verify(tmp_path):
    host, port, rec = _host(tmp_path, "--deals", "2", cheat=True)
    terms = {}
    try:
        terms = {n: _join(tmp_path, port, n) for n in ("Olga", "Ivan")}
        seen = _play(terms, lambda n, s: "FRAPNET-EXIT=" in s or "table closed" in s)
        for name, screens in seen.items():
            for deal in (1, 2):
                assert any(f"⚠⚠ DEAL {deal} FAILED THE FAIRNESS CHECK" in s for s in screens), (name, screens[-1])
                assert any(f"⚠ DEAL {deal} NOT FAIR" in s for s in screens), (name, screens[-1])  # status bar
            assert not any(re.search(r"✓ deal \d fair", s) for s in screens)
        out, err = host.communicate(timeout=60)
    finally:
        for t in terms.values():
            t.kill()
        if host.poll() is None:
            host.kill()
            host.communicate()
    # the host's own two computer players (seats 2 and 3) checked deal 1 too (the last deal's
    # reveal may still be on its way to them when the host process ends)
    warned = sorted(set(re.findall(r"seat (\d): ⚠⚠ DEAL 1 FAILED THE FAIRNESS CHECK", err)))
    assert warned == ["2", "3"], err[-3000:]
    bad = _verify(rec)
    assert bad.returncode == 2 and bad.stdout.startswith(
        "NOT VERIFIED: deal 1: the recorded deck is not the one the seed and nonces give"), bad.stdout
