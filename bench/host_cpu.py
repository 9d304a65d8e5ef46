"""Host CPU per accepted action (issue #9): one Table (the referee, its events and fan-out) with N
seats held by in-process peers that take each encoded frame (``send_frame``) and count its bytes;
random legal actions for DEALS deals; CPU time of this process per action. No sockets, no clients:
what the host itself spends per move.

    .venv/bin/python bench/host_cpu.py SEATS DEALS [REPEAT]   # e.g. 12 20 5, 4 60

With REPEAT (default 1) the same match (same seeds) is played REPEAT times in this process and the
fewest and the median µs per action are printed: on a shared machine the fewest is the figure
least disturbed by other load (compare two checkouts with it, alternating).

It also runs against a checkout from before the host split (frapnet/net/host.py), for an A/B in
one sitting: ``git worktree add /tmp/old COMMIT`` then ``PYTHONPATH=/tmp/old .venv/bin/python
bench/host_cpu.py 12 20`` (docs/performance.md).
"""
import random
import sys
import time

from twisted.internet.task import Clock
N = int(sys.argv[1]); DEALS = int(sys.argv[2]); REPEAT = int(sys.argv[3]) if len(sys.argv) > 3 else 1
try:  # noqa: E402 - the layout since the split, else the one before it
    from frapnet.net.table import Table
    from frapnet.net.config import TableConfig
    def make(): return Table(TableConfig(name="T", players=N, pause=0.0), clock=Clock(), rng=random.Random(1))
except ImportError:
    from frapnet.net.host import Table
    def make(): return Table("T", "frap", N, {}, clock=Clock(), rng=random.Random(1), pause=0.0)
from frapnet import engine
class Peer:
    lang = "en"; seat = None; name = ""
    def __init__(self): self.n = 0
    def send(self, msg): self.n += 1
    def send_frame(self, kind, data): self.n += len(data)
    def close(self, reason): pass
def match():
    """One match of DEALS deals: (actions, CPU seconds, bytes sent)."""
    t = make()
    clock = t.clock
    peers = []
    for i in range(N):
        p = Peer(); peers.append(p)
        t.join(p, {"type": "hello", "protocol": "1.0", "name": f"P{i}", "lang": "en", "password": None, "token": None,
                   "spectate": False, "seat": None, "table": None, "bot": True})
    rng = random.Random(2)
    acts = 0
    t0 = time.process_time()
    while t.state.deal_no <= DEALS and not t.finished:
        st = t.state
        if st.phase != engine.DEAL:
            clock.advance(0.01); continue
        seat = st.to_act[0]
        a = rng.choice(engine.legal_actions(st, seat))
        t.apply_action(seat, engine.action_to_wire(a), st.version)
        acts += 1
    return acts, time.process_time() - t0, sum(p.n for p in peers)


runs = [match() for _ in range(REPEAT)]
acts, _, sent = runs[0]
per = sorted(cpu / a * 1e6 for a, cpu, _ in runs)
more = f" (fewest of {REPEAT}; median {per[len(per) // 2]:.0f})" if REPEAT > 1 else ""
print(f"{N} seats: {acts} actions, {per[0]:.0f} us CPU per action{more}, {sent / acts:.0f} bytes/action")
