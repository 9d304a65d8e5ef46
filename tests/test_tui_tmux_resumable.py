"""Issue #9, in a real terminal against real host processes: `frapnet host` stopped with SIGTERM
mid-deal (HostHandle.stop → closing with ``resumable``) used to make `frapnet join` forget its
seat token (tokens.json became {}) and say "DEAL 1 FAILED THE FAIRNESS CHECK"; the same host
command resumed the match with the seat waiting for its token, and the same join command was
refused with table_full. Now the client keeps the token, says the host stopped and how to take
the seat back, calls the deal interrupted, and the same join command sits down again."""
from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_tui_tmux import TMUX, Tmux  # noqa: E402 - the private tmux server helper

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _host(port: int, db: Path) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", str(port), "--bind", "127.0.0.1",
                          "--players", "2", "--bots", "1", "--no-announce", "--seed", "5", "--name", "Resume",
                          "--db", str(db), "--grace", "120"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert re.search(rf"on 127\.0\.0\.1:{port}", line), (line, p.stderr.read()[-2000:] if p.poll() is not None else "")
    return p


def test_a_host_stopped_with_sigterm_keeps_the_seat_for_the_same_join_command_issue_9(tmp_path):
    port, db, state = _free_port(), tmp_path / "j.sqlite3", tmp_path / "state"
    tokens_file = state / "frapnet" / "tokens.json"
    join = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 XDG_STATE_HOME={state} {sys.executable} -m frapnet "
            f"join 127.0.0.1:{port} --name Olga --lang en; echo FRAPNET-EXIT=$?; sleep 60")
    host = _host(port, db)
    t = t2 = again = None
    try:
        t = Tmux(join, 100, 30)
        t.wait(lambda s: "[l] Look" in s and "Olga (you)" in s, 20, "the table (deal 1 dealt)")
        saved = json.loads(tokens_file.read_text())
        assert len(saved) == 1
        token = next(iter(saved.values()))["Olga"]["token"]
        host.send_signal(signal.SIGTERM)  # Ctrl-C/SIGTERM: HostHandle.stop → Table.finish("host stopping")
        assert host.wait(20) == 0
        closed = " ".join(t.wait(lambda s: "Press q to quit." in s, 10, "the closing").split())  # lines wrap
        assert "The host stopped; the match is not over. Once the host is back, run the same join command " \
               "again to take your seat back." in closed, closed
        assert "Deal 1 was interrupted: the host stopped before revealing its shuffle." in closed, closed
        assert "FAILED" not in closed and "no shuffle is waiting" not in closed
        assert json.loads(tokens_file.read_text()) == saved  # the token is kept (was {})
        t.keys("q")
        after = t.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet join to exit")
        assert "FRAPNET-EXIT=0" in after
        # the way back stays on the terminal after exit too (it went with the full screen)
        assert "run the same join command again to take your seat back." in " ".join(after.split()), after
        again = _host(port, db)  # the same command: the journal resumes the match, seat 0 waits for its token
        t2 = Tmux(join, 100, 30)
        # (its log line too: a capture can catch a frame half drawn)
        back = t2.wait(lambda s: ("Olga (you)" in s and "Taking back your seat" in s) or "FRAPNET-EXIT=" in s, 20,
                       "the seat taken back")
        assert "FRAPNET-EXIT=" not in back and "table_full" not in back, back
        assert "Taking back your seat with its saved token…" in back
        assert json.loads(tokens_file.read_text())[next(iter(saved))]["Olga"]["token"] == token
        t2.keys("q")
        t2.wait(lambda s: "Leave the table?" in s, 5, "the confirmation")
        t2.keys("y")
        assert "FRAPNET-EXIT=0" in t2.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet join to exit")
    finally:
        for x in (t, t2):
            if x is not None:
                x.kill()
        for p in (host, again):
            if p is not None and p.poll() is None:
                p.kill()
                p.communicate()
