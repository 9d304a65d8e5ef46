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
