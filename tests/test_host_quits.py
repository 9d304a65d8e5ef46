"""When the host quits mid-deal, nobody plays the deal out (issue #10 item 7): the table ends
where it stands, the record keeps the unfinished deal (so ``--resume`` continues it), and no
computer player settles it in the moment before the host stops.

Driven in a real terminal: `frapnet play` in tmux, q then y mid-deal; the record is then read
with `frapnet replay` (the engine, not the client).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


def tmux(sock: str, *args: str) -> str:
    return subprocess.run([TMUX, "-L", sock, *args], check=True, capture_output=True, text=True, timeout=10).stdout


def wait_for(pred, timeout: float, what: str):
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.mark.parametrize("command", [
    "play --seed 4 --bot-delay 0 --pause 0 --name Olga",
    "host --play --players 4 --bots 3 --bind 127.0.0.1 --port 0 --no-announce --seed 4 --player Olga",
])
def test_quitting_mid_deal_leaves_the_deal_unplayed(tmp_path, command):
    """F5/F6: four players, ante 100: after quitting in deal 1 the record's only deal is
    ``unfinished`` and every balance is just the ante paid (−100), the pot 400 — with computer
    players that move at once (--bot-delay 0), which used to finish the deal and settle it."""
    rec = tmp_path / "quit.json"
    done = tmp_path / "done"
    sock = f"frapnet-quit-{os.getpid()}-{time.monotonic_ns()}"
    cmd = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 FRAPNET_PLUGINS_DIR= {sys.executable} -m frapnet {command} "
           f"--record {rec}; echo $? > {done}; sleep 30")
    tmux(sock, "new-session", "-d", "-s", "t", "-x", "100", "-y", "30", cmd)
    try:
        wait_for(lambda: rec.exists() and "Olga" in tmux(sock, "capture-pane", "-p", "-t", "t"), 20,
                 "the table on screen")
        time.sleep(0.5)  # the computer players answer at once: the deal is under way, waiting for Olga
        tmux(sock, "send-keys", "-t", "t", "q")
        time.sleep(0.3)
        tmux(sock, "send-keys", "-t", "t", "y")
        wait_for(done.exists, 20, "frapnet play to exit")
    finally:
        subprocess.run([TMUX, "-L", sock, "kill-server"], capture_output=True, timeout=10)
    assert done.read_text().strip() == "0"
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(rec), "--json"], capture_output=True,
                       text=True, timeout=60)
    res = json.loads(p.stdout)
    assert res["ok"] is True, res
    assert [d["outcome"] for d in res["deals"]] == ["unfinished"]
    assert res["balances"] == [-100, -100, -100, -100] and res["pot"] == 400  # only the antes (F5)
