"""Hostile input (issue #3 "Bad input"): random bytes, truncated frames, oversized frames, valid
msgpack of wrong shapes, nesting bombs, floods. The host survives, answers with clear errors (or
closes with the reason logged), the state is unchanged, and the other seats finish their match.

Part 1 fuzzes one HostProtocol in-process (hypothesis; StringTransport). Part 2 attacks a real
`frapnet host` process over loopback while its computer players play a match.
"""
from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
from pathlib import Path

import msgpack
from hypothesis import given, settings, strategies as st
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet.net import wire
from frapnet.net.config import TableConfig
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.net.protocol import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parent.parent
FRAPNET = [sys.executable, "-m", "frapnet"]


# --- part 1: in-process fuzzing ----------------------------------------------------------------

def _table():
    clock = Clock()
    table = Table(TableConfig(name="T", players=2, pause=0.0, nonce_time=0.0), clock=clock, rng=random.Random(1))
    factory = HostFactory({"T": table}, clock, rate=10 ** 6)
    conns = []
    for i in range(2):
        p = factory.buildProtocol(None)
        tr = StringTransportWithDisconnection(peerAddress=IPv4Address("TCP", "127.0.0.1", 1000 + i))
        tr.protocol = p
        p.makeConnection(tr)
        p.dataReceived(wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": f"P{i}"}))
        conns.append((p, tr))
    return table, factory, conns


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 63), max_value=2 ** 64 - 1) | st.floats()
    | st.text(max_size=20) | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.one_of(
    st.binary(max_size=300),
    st.builds(lambda m: wire.frame(m) if isinstance(m, dict) and isinstance(m.get("type"), str) else
              len(msgpack.packb(m)).to_bytes(4, "big") + msgpack.packb(m), json_like),
    st.builds(lambda kind, fields: wire.frame({"type": kind, **fields}),
              st.sampled_from(["hello", "act", "chat", "leave", "ping", "welcome", "view", ""]),
              st.dictionaries(st.sampled_from(["action", "version", "text", "seat", "name", "protocol", "token",
                                               "spectate", "id", "password", "lang"]), json_like, max_size=4)),
))
def test_fuzzed_frames_never_crash_or_change_state(data):
    table, factory, conns = _table()
    before = (table.state.version, table.state.balances[:], [s.status for s in table.seats])
    victim, tr = conns[0]
    victim.dataReceived(data)  # must not raise
    # nothing changed unless the fuzz happened to be a legal action of the victim's own seat
    assert (table.state.version, table.state.balances) == tuple(before[:2]) or table.actions_applied == 1
    # any answer the host sent is well-formed
    out = tr.value()
    pos = 0
    while len(out) - pos >= 4:
        n = int.from_bytes(out[pos:pos + 4], "big")
        msg = wire.decode(out[pos + 4:pos + 4 + n])
        pos += 4 + n
        if msg["type"] == "error":
            assert isinstance(msg["code"], str) and isinstance(msg["message"], str)
    # the other seat still plays: its legal action is accepted
    other, otr = conns[1]
    v = table.state
    if v.phase == "deal" and table.seats[1].peer is other:
        seat = v.to_act[0]
        p = conns[seat][0]
        if table.seats[seat].peer is p:
            from frapnet import engine
            act = engine.action_to_wire(engine.legal_actions(v, seat)[0])
            p.dataReceived(wire.frame({"type": "act", "action": act, "version": v.version}))
            assert table.state.version == v.version + 1


def test_nesting_bomb_is_malformed_not_a_crash():
    table, factory, conns = _table()
    p, tr = conns[0]
    tr.clear()
    body = b"\x91" * 100_000 + b"\xc0"  # 100 000 nested one-element arrays
    p.dataReceived(len(body).to_bytes(4, "big") + body)
    msg = wire.decode(tr.value()[4:])
    assert msg["type"] == "error" and msg["code"] == "malformed" and not tr.connected


# --- part 2: a real host process under attack ----------------------------------------------------

def _connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def _read_all(s: socket.socket, wait: float = 0.5) -> tuple[list[dict], bool]:
    """Messages until the host closes (True) or nothing arrives for ``wait`` seconds (False)."""
    s.settimeout(wait)
    buf = b""
    closed = False
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                closed = True
                break
            buf += chunk
    except (socket.timeout, TimeoutError):
        pass
    except ConnectionResetError:
        closed = True
    msgs, pos = [], 0
    while len(buf) - pos >= 4:
        n = int.from_bytes(buf[pos:pos + 4], "big")
        if len(buf) - pos - 4 < n:
            break
        msgs.append(wire.decode(buf[pos + 4:pos + 4 + n]))
        pos += 4 + n
    return msgs, closed


def _codes(msgs):
    return [m["code"] for m in msgs if m["type"] == "error"]


def _hello(name="X", **kw):
    return wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, **kw})


def test_real_host_survives_attacks_and_the_match_finishes():
    host = subprocess.Popen(FRAPNET + ["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--players", "5",
                                       "--bots", "4", "--deals", "3", "--seed", "3", "--pause", "0.1",
                                       "--bot-delay", "0.01", "--grace", "60",
                                       "--nonce-time", "0"],  # Mallory's raw socket sends no nonces
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        line = host.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        rnd = random.Random(5)

        # random bytes: a malformed frame gets "malformed" and a close
        s = _connect(port)
        s.sendall(b"\x00\x00\x00\x10" + bytes(rnd.randrange(256) for _ in range(16)))
        msgs, closed = _read_all(s)
        assert _codes(msgs) == ["malformed"] and closed

        # an oversized frame: refused from its length prefix alone
        s = _connect(port)
        s.sendall((wire.MAX_FRAME + 1).to_bytes(4, "big") + b"\x80" * 1000)
        msgs, closed = _read_all(s)
        assert _codes(msgs) == ["too_large"] and closed

        # a truncated frame then silence: the handshake timeout is 10 s; just leave it hanging open
        hanging = _connect(port)
        hanging.sendall(b"\x00\x00\x01\x00" + b"\x81")

        # valid msgpack of wrong shapes: clear errors, the connection stays usable
        s = _connect(port)
        for body in [msgpack.packb([1, 2]), msgpack.packb({"type": 7}), msgpack.packb("hello")]:
            s.sendall(len(body).to_bytes(4, "big") + body)
            msgs, closed = _read_all(s, 0.3)
            assert _codes(msgs) == ["malformed"] and closed
            s = _connect(port)
        s.sendall(wire.frame({"type": "act", "action": ["play", "AS"], "version": 0}))
        s.sendall(wire.frame({"type": "nonsense"}))
        s.sendall(_hello(name=["not", "a", "string"]))
        s.sendall(_hello("Mallory", token="forged-token-forged-token"))
        msgs, closed = _read_all(s)
        assert _codes(msgs) == ["not_joined", "unknown_kind", "bad_message", "bad_token"] and closed

        # take the free seat, then send bad actions of every kind (the table then waits for seat 0)
        # (as a computer client: once she leaves, a table with no person at it plays on — with a
        # person gone it would wait for one between deals, design.md principle 5)
        s = _connect(port)
        s.sendall(_hello("Mallory", bot=True))
        msgs, _ = _read_all(s, 0.5)
        welcome = msgs[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        views = [m["view"] for m in msgs if m["type"] == "view"]
        version = views[-1]["version"]
        for bad in [{"type": "act", "action": ["play", "ZZ"], "version": version},
                    {"type": "act", "action": ["fly"], "version": version},
                    {"type": "act", "action": ["discard", "7C"], "version": version},  # F10/F11: not now
                    {"type": "act", "action": ["play", ["AS", "KS"]], "version": version},
                    {"type": "act", "action": ["pass"], "version": version, "seat": 2},
                    {"type": "act", "action": ["pass"], "version": version - 1},
                    {"type": "act", "action": "pass", "version": version},
                    {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "again"},
                    {"type": "chat", "text": {"x": 1}}]:
            s.sendall(wire.frame(bad))
        msgs, _ = _read_all(s, 0.5)
        codes = _codes(msgs)
        assert codes[:3] == ["illegal", "illegal", "illegal"] and "wrong_seat" in codes and "stale" in codes
        assert "already_joined" in codes and codes.count("bad_message") == 2
        assert all(m["rule"] == "record" for m in msgs if m["type"] == "error" and m["code"] == "illegal"
                   and "unknown verb" in m["message"])

        # a flood: dropped, then the connection is aborted
        flood = _connect(port)
        flood.sendall(_hello("Flood", spectate=True) + wire.frame({"type": "ping"}) * 1000)
        msgs, closed = _read_all(flood, 1.0)
        assert "flood" in _codes(msgs) and closed

        # Mallory leaves: the host plays seat 0, and the computer players finish the match
        s.sendall(wire.frame({"type": "leave"}))
        out, err = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
    assert host.returncode == 0, err[-3000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["deals"] == 3 and sum(result["balances"]) + result["pot"] == 0  # F6
    # every refusal was logged with its reason
    for needle in ("malformed", "too_large", "flood", "refused act: stale", "refused act: illegal [F", "left seat 0"):
        assert needle in err, needle


SLOW_READER = r'''
import json, socket
from twisted.internet import defer, task
from frapnet.net import wire, server as H
from frapnet.hosting import HostConfig, TableConfig, start_host

H.HostProtocol.max_queued = 8 * 1024          # small, so the test is quick
aborted = []
_overflow = H.HostProtocol.outboundOverflow


def spy(self):
    aborted.append(self.peer_desc)
    _overflow(self)


H.HostProtocol.outboundOverflow = spy
_made = H.HostProtocol.connectionMade


def small_send_buffer(self):  # the kernel holds little of what the host sends, so it backs up soon
    _made(self)
    self.transport.getHandle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)


H.HostProtocol.connectionMade = small_send_buffer


async def main(reactor):
    handle = start_host(reactor, HostConfig(TableConfig(players=4, seed="1", deals=DEALS, pause=0.0, level="random"), bots=4))
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", handle.port))
    s.sendall(wire.frame({"type": "hello", "protocol": "1.0", "name": "Sloth", "spectate": True}))
    result = await handle.finished                 # it never reads while the match runs
    await handle.stop()
    reset = False
    try:
        s.settimeout(2)
        while s.recv(65536):
            pass
    except ConnectionResetError:
        reset = True
    print(json.dumps({"deals": result["deals"], "aborted": aborted, "reset": reset}))


task.react(lambda r: defer.ensureDeferred(main(r)))
'''


def test_a_client_that_does_not_read_is_aborted_the_match_goes_on():
    """stack-notes.md "Host robustness": the outbound queue is bounded; a spectator that never
    reads its socket (tiny receive and send buffers) is aborted; the four computer players finish
    the match's 20 deals."""
    p = subprocess.run([sys.executable, "-c", SLOW_READER.replace("DEALS", "20")], capture_output=True, text=True,
                       cwd=ROOT, timeout=180)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["deals"] == 20 and len(out["aborted"]) == 1 and out["reset"] is True
