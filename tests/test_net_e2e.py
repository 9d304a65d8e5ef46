"""End to end over real loopback sockets and real processes (issue #3, "Tests").

A `frapnet host` process and 4 `frapnet bot` processes play a whole 5-deal match; the record the
host writes (record-format.md) replays with `frapnet replay --json` to exactly the balances and
pot the host printed (F6: sum of balances + pot = 0), the dealer passing clockwise (F7).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FRAPNET = [sys.executable, "-m", "frapnet"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
PORT_LINE = re.compile(r"frapnet: hosting table (.+) on ([0-9.]+):(\d+)")


def start_host(*args: str) -> tuple[subprocess.Popen, int]:
    """Start `frapnet host --port 0 --bind 127.0.0.1 --no-announce ARGS`; return it and its port."""
    p = subprocess.Popen(FRAPNET + ["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV)
    line = p.stdout.readline()
    m = PORT_LINE.match(line)
    if not m:
        p.kill()
        raise AssertionError(f"no port line from frapnet host: {line!r}\n{p.stderr.read()[-3000:]}")
    return p, int(m.group(3))


def finish(p: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"process did not finish: {p.args}\n{err[-3000:]}")
    return out, err


def test_host_and_four_bot_processes_play_five_deals_and_record_replays(tmp_path):
    rec = tmp_path / "match.json"
    host, port = start_host("--players", "4", "--deals", "5", "--seed", "42", "--pause", "0",
                            "--record", str(rec), "--name", "E2E table")
    # bots 2 and 3 both ask for "Bot2": the table seats the second as "Bot2 2" and it says so (issue #9/#10)
    bots = [subprocess.Popen(FRAPNET + ["bot", f"127.0.0.1:{port}", "--name", f"Bot{min(i, 2)}", "--seed", "7",
                                        "--level", "basic" if i % 2 else "random"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV)
            for i in range(4)]
    out, err = finish(host)
    assert host.returncode == 0, err[-3000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["table"] == "E2E table" and result["deals"] == 5 and result["game"] == "frap"
    assert sum(result["balances"]) + result["pot"] == 0  # F6
    seats, names = set(), []
    for b in bots:
        bout, berr = finish(b)
        assert b.returncode == 0, berr[-2000:]
        lines = bout.strip().splitlines()
        m = re.match(r"frapnet bot: (Bot\d(?: 2)?) at seat (\d) of E2E table", lines[0])
        seats.add(int(m.group(2)))
        names.append(m.group(1))
        assert json.loads(lines[-1])["balances"] == result["balances"]  # every bot saw the same end
    assert seats == {0, 1, 2, 3} and sorted(names) == ["Bot0", "Bot1", "Bot2", "Bot2 2"]
    replay = subprocess.run(FRAPNET + ["replay", "--json", str(rec)], capture_output=True, text=True, cwd=ROOT)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    res = json.loads(replay.stdout)
    assert res["ok"] and res["balances"] == result["balances"] and res["pot"] == result["pot"]
    assert len(res["deals"]) == 5 and all(d["outcome"] != "unfinished" for d in res["deals"])
    dealers = [d["dealer"] for d in json.loads(rec.read_text())["deals"]]
    assert all(dealers[i + 1] == (dealers[i] + 1) % 4 for i in range(4))  # F7
    assert "took seat" in err and "the match begins" in err  # logged to stderr, not stdout


def test_same_seed_same_match():
    """--seed makes shuffles, the first dealer and the in-process bots reproducible."""
    results = []
    for _ in range(2):
        host, _port = start_host("--players", "4", "--bots", "4", "--deals", "3", "--seed", "9", "--pause", "0")
        out, err = finish(host)
        assert host.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert results[0] == results[1] and results[0]["deals"] == 3


@pytest.mark.parametrize("args, rule", [
    (["--option", "ante=7"], "F5"),
    (["--players", "13"], "F1"),
    (["--option", "deck=40"], "F2"),
    (["--option", "revoke=maybe"], "F22"),
])
def test_bad_option_names_rule_exit_2(args, rule):
    p = subprocess.run(FRAPNET + ["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce", *args],
                       capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert p.returncode == 2 and f"rule {rule}" in p.stderr and p.stdout == ""


def test_unknown_option_and_house_rule_exit_2():
    p = subprocess.run(FRAPNET + ["host", "--port", "0", "--no-announce", "--option", "colour=red"],
                       capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert p.returncode == 2 and "unknown option 'colour'" in p.stderr
    p = subprocess.run(FRAPNET + ["host", "--port", "0", "--no-announce", "--house-rule", "nope"],
                       capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert p.returncode == 2 and "unknown house rule 'nope'" in p.stderr


def test_port_in_use_exit_1():
    host, port = start_host("--players", "2", "--grace", "1")
    try:
        p = subprocess.run(FRAPNET + ["host", "--port", str(port), "--bind", "127.0.0.1", "--no-announce"],
                           capture_output=True, text=True, cwd=ROOT, timeout=30)
        assert p.returncode == 1 and p.stderr.endswith(
            f"frapnet host: port {port} is already in use (another host? choose another with --port)\n"), p.stderr
    finally:
        host.terminate()
        finish(host)


def test_host_play_opens_the_client_for_the_first_seat(tmp_path):
    """`frapnet host --play` (issue #4 item 4): the host's own terminal plays seat 0 in-process."""
    import shutil
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    session = f"frapnet-hostplay-{os.getpid()}"
    cmd = " ".join([sys.executable, "-m", "frapnet", "host", "--play", "--player", "Olga", "--bots", "3",
                    "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--seed", "3", "--lang", "en"])
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                    # a private data dir: the journal of the user running the suite is never resumed here
                    f"cd {ROOT} && PROMPT_TOOLKIT_NO_CPR=1 XDG_DATA_HOME={tmp_path} {cmd}; sleep 30"], check=True)
    try:
        screen = ""
        deadline = time.time() + 20
        while time.time() < deadline:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-J", "-t", session], capture_output=True,
                                    text=True).stdout
            if "Your turn" in screen:
                break
            time.sleep(0.2)
        assert "Your turn" in screen and "Olga (you)" in screen and "Bot 3" in screen, screen
        assert "Look at your cards" in screen
        # quitting (q, then y to confirm mid-deal) prints the result line, as without --play
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        time.sleep(0.3)
        subprocess.run(["tmux", "send-keys", "-t", session, "y"], check=True)
        deadline = time.time() + 10
        result = None
        while time.time() < deadline and result is None:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-J", "-t", session], capture_output=True,
                                    text=True).stdout
            for line in screen.splitlines():
                if line.startswith("{") and '"balances"' in line:
                    result = json.loads(line)
            time.sleep(0.2)
        assert result is not None, screen
        assert result["table"] and result["deals"] == 1 and sum(result["balances"]) + result["pot"] == 0  # F6
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
