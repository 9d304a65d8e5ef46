"""Issue #9 hostile-input leftovers: the host's last words reach a peer it closes on.

When the host closes a connection for a flood (or an oversized message), the peer is usually
still sending. A socket closed with unread input makes the kernel answer with a reset, which
throws away what the host had written but the peer's kernel had not taken yet — the ``error``
saying why (``tests/test_web.py``'s flood test lost it now and then under load). The host now
half-closes (FIN after its last bytes), reads and discards what still arrives until the peer
closes its end (at most :data:`frapnet.net.server.LINGER` seconds, then it aborts).

The peer here has a tiny receive buffer (2 KiB) and sends more after the host has decided to
close, so the error frame is still in the host's kernel when the unread bytes arrive: before
the fix the peer read the first ~1.3 KB and then ``ECONNRESET``, every time.
"""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest

from frapnet.net import wire
from frapnet.net.protocol import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_web import SocketWS  # noqa: E402 - a WebSocket client over a real socket

FLOOD_CLOSE = wire.frame({"type": "error", "code": "flood",
                          "message": "more than 200 messages a second; closing the connection", "rule": None})
"""The host's last frame to a connection that sent over 4 × 50 messages in a second."""


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """A real ``frapnet host`` (TCP and web ports, 2 seats) on loopback: (tcp port, web port)."""
    db = tmp_path_factory.mktemp("closing") / "journal.sqlite3"
    p = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                          "--no-announce", "--web", "0", "--players", "2", "--db", str(db)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        tcp = int(re.search(r":(\d+)\s*$", p.stdout.readline()).group(1))
        web = int(re.search(r":(\d+)/", p.stdout.readline()).group(1))
        yield tcp, web, p
    finally:
        p.kill()
        p.communicate()


def _read_to_end(s: socket.socket, timeout: float = 5.0) -> tuple[bytes, str]:
    """Everything the peer receives until the host's FIN ("eof") or a reset ("reset")."""
    s.settimeout(timeout)
    buf = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return buf, "eof"
            buf += chunk
    except ConnectionResetError:
        return buf, "reset"


def _pings(n: int, start: int = 0) -> bytes:
    return b"".join(wire.frame({"type": "ping", "id": i}) for i in range(start, start + n))


def test_tcp_flood_error_reaches_a_peer_still_sending_issue_9(host):
    tcp, _, _ = host
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # the host's answers back up in its kernel
    s.connect(("127.0.0.1", tcp))
    hello = wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Flood", "spectate": True})
    s.sendall(hello + _pings(260))  # welcome, a view, 49 pongs, "dropped", then the closing flood error
    time.sleep(0.2)
    s.sendall(_pings(50, 260))  # arrives after the host decided to close: unread input
    time.sleep(0.2)
    data, end = _read_to_end(s)
    s.close()
    assert end == "eof", (len(data), data[-200:])
    assert data.endswith(FLOOD_CLOSE)
    assert data.count(b"\xa4pong") == 49  # the hello was the first of the 50 answered


def test_websocket_flood_error_reaches_a_peer_still_sending_issue_9(host):
    _, web, _ = host
    c = SocketWS.__new__(SocketWS)  # SocketWS's handshake, on a socket with a tiny receive buffer
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import Request

    c.s = socket.socket()
    c.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    c.s.settimeout(5)
    c.s.connect(("127.0.0.1", web))
    c.ws = WSConnection(ConnectionType.CLIENT)
    c.s.sendall(c.ws.send(Request(host=f"127.0.0.1:{web}", target="/ws",
                                  extra_headers=[("Origin", f"http://127.0.0.1:{web}")])))
    c.status, c.closed, c.eof, c.msgs, c._buf = None, False, False, [], b""
    c.pump(lambda: c.status is not None)
    assert c.status == 101
    c.send(msgpack.packb({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "WsFlood", "spectate": True}))
    for i in range(260):
        c.send(msgpack.packb({"type": "ping", "id": i}))
    time.sleep(0.2)
    for i in range(50):
        c.send(msgpack.packb({"type": "ping", "id": 260 + i}))
    assert not c.closed  # the host read (and dropped) them: no reset while the peer sends
    time.sleep(0.2)
    data, end = _read_to_end(c.s)
    c.s.close()
    c.ws.receive_data(data)
    c.ws.receive_data(None)
    from wsproto.events import BytesMessage, CloseConnection

    events = list(c.ws.events())
    bodies = [e.data for e in events if isinstance(e, BytesMessage)]
    assert end == "eof", (len(data), data[-200:])
    assert bodies[-1] == FLOOD_CLOSE[4:]  # one binary message per frame, without its length
    assert isinstance(events[-1], CloseConnection) and events[-1].code == 1000
    assert sum(1 for b in bodies if msgpack.unpackb(b)["type"] == "pong") == 49


# --- the same, in-process: the timer and the slots ---------------------------------------------------

from twisted.internet.address import IPv4Address  # noqa: E402
from twisted.internet.testing import StringTransportWithDisconnection  # noqa: E402

from frapnet.net import server  # noqa: E402
from test_net_host import make  # noqa: E402


class HalfCloseTransport(StringTransportWithDisconnection):
    """A StringTransport that, like TCP, can close its write side only."""

    write_closed = False

    def loseWriteConnection(self):
        self.write_closed = True


def _connect(factory, port):
    addr = IPv4Address("TCP", f"10.0.0.{port % 250 + 1}", port)
    p = factory.buildProtocol(addr)
    tr = HalfCloseTransport(peerAddress=addr)
    tr.protocol = p
    p.makeConnection(tr)
    return p, tr


def test_a_closing_connection_reads_and_drops_then_is_aborted_after_linger_issue_9():
    table, factory, clock = make(players=2)
    p, tr = _connect(factory, 1)
    p.dataReceived(_pings(201))
    assert tr.value().endswith(FLOOD_CLOSE) and tr.write_closed and tr.connected  # FIN sent, still reading
    assert list(factory.lingering) == [p] and p not in factory.pending
    tr.clear()
    p.dataReceived(_pings(500) + b"\xff" * 70_000)  # dropped: no answer, nothing buffered
    assert tr.value() == b"" and p._unprocessed == b"" and tr.connected
    clock.advance(server.LINGER - 0.01)
    assert tr.connected
    clock.advance(0.02)
    assert not tr.connected and not factory.lingering and not factory.connections  # aborted


def test_closing_connections_free_their_slot_and_are_capped_issue_9():
    table, factory, clock = make(players=2)
    factory.max_connections = 2
    closing = []
    for i in range(server.MAX_LINGERING + 1):
        p, tr = _connect(factory, 100 + i)
        assert isinstance(p, server.HostProtocol)  # never busy: closing ones do not count
        p.dataReceived(b"\x00\x00\x00\x02\x91\x01")  # not a map: malformed, closed
        assert tr.value().endswith(wire.frame({"type": "error", "code": "malformed",
                                               "message": "a message is a map, not list", "rule": None}))
        closing.append(tr)
    assert len(factory.lingering) == server.MAX_LINGERING and not closing[0].connected  # the oldest: aborted
    assert all(tr.connected and tr.write_closed for tr in closing[1:])
    (a, ta), (b, tb) = _connect(factory, 7), _connect(factory, 8)
    assert isinstance(a, server.HostProtocol) and isinstance(b, server.HostProtocol)
    c, tc = _connect(factory, 9)  # two open besides the closing ones: the oldest waiting one makes room
    assert isinstance(c, server.HostProtocol) and ta.write_closed and not tb.write_closed
    assert ta.value().endswith(wire.frame({"type": "error", "code": "busy",
                                           "message": "too many connections are waiting for their hello; try again",
                                           "rule": None}))


def test_busy_is_said_and_read_to_the_end_too_issue_9():
    """A connection refused ``busy`` (17 from one address before their hello) has usually sent
    its hello already: it gets the same half-close, its input dropped, aborted after LINGER."""
    table, factory, clock = make(players=2)
    waiting = [_connect(factory, 250 * i + 3) for i in range(16)]  # one address: 10.0.0.4
    assert all(isinstance(p, server.HostProtocol) for p, _ in waiting)
    p, tr = _connect(factory, 250 * 16 + 3)
    assert isinstance(p, server._BusyProtocol) and factory.busy_lingering == 1
    assert tr.value() == wire.frame({"type": "error", "code": "busy",
                                     "message": "the host has too many connections; try later", "rule": None})
    assert tr.write_closed and tr.connected
    p.dataReceived(wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Late"}))
    assert tr.value().count(b"busy") == 1
    clock.advance(server.LINGER + 0.01)
    assert not tr.connected and factory.busy_lingering == 0
