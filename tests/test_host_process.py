"""A real `frapnet host` process and what it leaves behind (issue #9): two stop signals in a row,
rematch records beside the first match's. Loopback only, port 0, nothing announced."""
from __future__ import annotations

import json
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from frapnet import record
from frapnet.net import wire
from frapnet.net.journal import Journal
from frapnet.net.protocol import PROTOCOL_VERSION

HOST = [sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
        "--level", "random", "--pause", "0"]


class Host:
    """A `frapnet host` subprocess whose stderr lines are collected as they come."""

    def __init__(self, *args: str) -> None:
        self.p = subprocess.Popen(HOST + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        first = self.p.stdout.readline()  # "frapnet: hosting table … on 127.0.0.1:PORT"
        assert first.startswith("frapnet: hosting table"), (first, self.p.stderr)
        self.port = int(first.rsplit(":", 1)[1])

    def _read(self) -> None:
        for line in self.p.stderr:
            self.lines.put(line)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {text!r} in the host's log: {''.join(self.err)[-2000:]}") from None
            self.err.append(line)
            if text in line:
                return line

    def finish(self, timeout: float = 30.0) -> tuple[int, str, str]:
        out = self.p.stdout.read()
        self.p.wait(timeout)
        time.sleep(0.05)
        while not self.lines.empty():
            self.err.append(self.lines.get())
        return self.p.returncode, out, "".join(self.err)


@pytest.mark.parametrize("first, second", [(signal.SIGTERM, signal.SIGTERM), (signal.SIGINT, signal.SIGTERM)],
                         ids=["TERM-TERM", "INT-TERM"])
def test_a_second_stop_signal_while_stopping_is_one_quiet_line_issue_9(tmp_path, first, second):
    """Issue #9: SIGTERM twice (or Ctrl-C then SIGTERM) logged a CRITICAL ReactorNotRunning
    traceback. Now the second signal is one "already stopping" line; the stop completes: exit 0
    (docs/hosting.md), the result on stdout, the match left unfinished in the journal (the same
    command resumes it) and its record, exported from the journal, replaying to that result (F6)."""
    db, rec = tmp_path / "j.sqlite3", tmp_path / "r.json"
    h = Host("--bots", "4", "--bot-delay", "0.02", "--seed", "5", "--db", str(db), "--record", str(rec))
    h.wait_for("the match begins")
    time.sleep(0.3)  # a few moves
    h.p.send_signal(first)
    h.wait_for(first.name)  # the first is being handled (Twisted logged "Received SIGTERM, shutting down.")
    h.p.send_signal(second)  # the stop takes at least the 50 ms the closing messages are given
    code, out, err = h.finish()
    assert "Traceback" not in err and "CRITICAL" not in err.upper() and "ReactorNotRunning" not in err, err[-3000:]
    assert code == 0
    assert f"received {second.name} while stopping: already stopping" in err
    result = json.loads(out.splitlines()[-1])
    assert result["match_over"] is False and result["deals"] >= 1
    j = Journal(str(db))
    try:
        (m,) = j.matches()
        assert m["finished"] is None and m["reason"] == "host stopping"  # unfinished: the command resumes it
        stored = j.record(m["id"])
    finally:
        j.close()
    assert record.load(str(rec)) == stored
    replayed = record.replay_json(stored)
    assert replayed["ok"] and (replayed["balances"], replayed["pot"]) == (result["balances"], result["pot"])
