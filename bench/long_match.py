"""A long match on one host table (issue #9: a host that stays fast over a long evening): per
window of deals, the host's CPU time per accepted action, the largest view frame it sent, and what
exporting the record (``--record``) cost at each deal end. One Table (referee, fan-out, record
file) with SEATS in-process peers taking each encoded frame, random legal actions, no sockets:

    .venv/bin/python bench/long_match.py SEATS DEALS [EVERY] [--no-record]   # e.g. 12 400 50, 4 1000 250

The frame limit is the protocol's (256 KiB, docs/protocol.md "Framing"): a view over it is one
no client can take. Figures: docs/performance.md "Long matches".
"""
import os
import random
import sys
import tempfile
import time

from twisted.internet.task import Clock

from frapnet import engine
from frapnet.net import journal
from frapnet.net.config import TableConfig
from frapnet.net.table import Table
from frapnet.net.wire import MAX_FRAME

ARGS = [a for a in sys.argv[1:] if a != "--no-record"]
RECORD = "--no-record" not in sys.argv  # without it: the host alone, no record file exported
N, DEALS = int(ARGS[0]), int(ARGS[1])
EVERY = int(ARGS[2]) if len(ARGS) > 2 else 50

exports: list[float] = []
_export = journal.RecordFile.export


def timed_export(self, state):
    t0 = time.perf_counter()
    _export(self, state)
    exports.append(time.perf_counter() - t0)


journal.RecordFile.export = timed_export


class Peer:
    lang = "en"
    seat = None
    name = ""

    def __init__(self):
        self.biggest = 0

    def send(self, msg):
        pass

    def send_frame(self, kind, data):
        if kind == "view" and len(data) > self.biggest:
            self.biggest = len(data)

    def close(self, reason):
        pass


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "long.json")
        t = Table(TableConfig(name="T", players=N, pause=0.0, record=rec if RECORD else None), clock=Clock(),
                  rng=random.Random(1))
        peers = [Peer() for _ in range(N)]
        for i, p in enumerate(peers):
            t.join(p, {"type": "hello", "protocol": "1.0", "name": f"P{i}", "lang": "en", "password": None,
                       "token": None, "spectate": False, "seat": None, "table": None, "bot": True})
        rng = random.Random(2)
        print(f"{N} seats, {DEALS} deals; per {EVERY} deals: CPU per action, largest view frame, record export "
              f"per deal end (the frame limit: {MAX_FRAME:,} bytes)")
        acts, cpu0, mark = 0, time.process_time(), EVERY
        while not t.finished and t.state.deal_no <= DEALS:
            st = t.state
            if st.phase != engine.DEAL:
                t.clock.advance(0.01)
                continue
            seat = st.to_act[0]
            t.apply_action(seat, engine.action_to_wire(rng.choice(engine.legal_actions(st, seat))), st.version)
            acts += 1
            if t.state.phase != engine.DEAL and t.state.deal_no >= mark:
                cpu = time.process_time() - cpu0
                biggest = max(p.biggest for p in peers)
                ex = sorted(exports) or [0.0]
                print(f"  deals {mark - EVERY + 1:>5}–{mark:<5} {cpu / acts * 1e6:7.0f} us/action   largest view "
                      f"{biggest:>8,} bytes{'  PAST THE LIMIT' if biggest > MAX_FRAME else ''}   record export "
                      f"p50 {ex[len(ex) // 2] * 1e3:6.1f} ms  max {ex[-1] * 1e3:6.1f} ms  "
                      f"({os.path.getsize(rec) if RECORD else 0:,} bytes)",
                      flush=True)
                acts, cpu0, mark = 0, time.process_time(), mark + EVERY
                exports.clear()
                for p in peers:
                    p.biggest = 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
