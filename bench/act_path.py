"""Where a 12-seat act's time goes (issue #9, docs/performance.md "The floor"): the same match
played by one in-process `Table` (the referee, its events and fan-out) in three ways, side by
side in one run, alternating:

- ``memory``  — each seat's frames are joined and dropped (no system call): the Python alone;
- ``sockets`` — each seat has a real loopback TCP connection (``TCP_NODELAY``), drained by a
  child process, and its frames are ``send``-ed on it, as the host's fan-out writes them;
- ``idle``    — the same sockets, and 0.5 ms asleep before each act, as a host waits for the
  next act: the caches are colder when the act comes.

Printed per way: the act call's thread CPU time, p50 / p90 / p99 in µs (random legal actions,
fixed seeds; the first of the ROUNDS rounds of each way is a warm-up and not counted).

    .venv/bin/python bench/act_path.py [SEATS] [DEALS] [ROUNDS]   # default 12 20 3

Loopback only; prints figures, never asserts.
"""
import os
import random
import selectors
import socket
import sys
import time

from twisted.internet.task import Clock

from frapnet import engine
from frapnet.net.config import TableConfig
from frapnet.net.table import Table

SEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 12
DEALS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
WAYS = ("memory", "sockets", "idle")


def connections(n: int):
    """``n`` accepted loopback TCP sockets whose other ends a child process reads and drops."""
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(n)
    port = lst.getsockname()[1]
    pid = os.fork()
    if pid == 0:  # the drainer: reads everything until every connection closes
        sel = selectors.DefaultSelector()
        for _ in range(n):
            c = socket.create_connection(("127.0.0.1", port))
            c.setblocking(False)
            sel.register(c, selectors.EVENT_READ)
        left = n
        while left:
            for key, _ in sel.select():
                if not key.fileobj.recv(1 << 20):
                    sel.unregister(key.fileobj)
                    left -= 1
        os._exit(0)
    socks = []
    for _ in range(n):
        s, _ = lst.accept()
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        socks.append(s)
    lst.close()
    return pid, socks


class Peer:
    """A seat's connection as the fan-out sees it (``send_frames``: one write per change)."""
    lang = "en"
    seat = None
    name = ""

    def __init__(self, sock):
        self.sock = sock

    def send(self, msg):
        pass

    def send_frame(self, kind, data):
        self.send_frames([(kind, data)])

    def send_frames(self, frames):
        data = b"".join([d for _, d in frames])
        if self.sock is not None:
            self.sock.send(data)

    def close(self, reason):
        pass


def match(way: str, socks) -> list[float]:
    """One match of DEALS deals; the act calls' thread CPU seconds."""
    t = Table(TableConfig(name="T", players=SEATS, pause=0.0), clock=Clock(), rng=random.Random(1))
    for i in range(SEATS):
        t.join(Peer(socks[i] if way != "memory" else None),
               {"type": "hello", "protocol": "1.0", "name": f"P{i}", "lang": "en", "password": None, "token": None,
                "spectate": False, "seat": None, "table": None, "bot": True})
    rng = random.Random(2)
    out = []
    cpu = time.thread_time
    while t.state.deal_no <= DEALS and not t.finished:
        st = t.state
        if st.phase != engine.DEAL:
            t.clock.advance(0.01)
            continue
        seat = st.to_act[0]
        action = engine.action_to_wire(rng.choice(engine.legal_actions(st, seat)))
        if way == "idle":
            time.sleep(0.0005)
        c0 = cpu()
        t.apply_action(seat, action, st.version)
        out.append(cpu() - c0)
    return out


def main() -> int:
    pid, socks = connections(SEATS)
    got: dict[str, list[float]] = {w: [] for w in WAYS}
    for r in range(ROUNDS):
        for way in WAYS:
            xs = match(way, socks)
            if r:
                got[way].extend(xs)
    for s in socks:
        s.close()
    os.waitpid(pid, 0)
    load = os.getloadavg()[0]
    print(f"bench/act_path.py — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {SEATS} seats, {DEALS} deals, "
          f"{ROUNDS - 1} counted rounds per way, load {load:.1f}")
    for way in WAYS:
        xs = sorted(got[way])
        if not xs:
            continue
        q = lambda p: xs[min(len(xs) - 1, int(len(xs) * p))] * 1e6  # noqa: E731
        print(f"  {way:8s} act call CPU p50 {q(0.5):5.0f}  p90 {q(0.9):5.0f}  p99 {q(0.99):5.0f} µs  (n={len(xs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
