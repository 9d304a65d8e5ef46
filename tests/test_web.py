"""The browser endpoint (issue #12; docs/web.md "Security"): the WebSocket speaks the TCP
protocol of docs/protocol.md — same messages, limits and errors — through the host's own
protocol class; the Origin check; only the page, its assets and /ws are served.

These run the real HTTP server, upgrade and WebSocket stack (Twisted + wsproto) over in-memory
transports with a fake clock (MemoryWebSocket in conftest.py); the real-socket and real-browser
tests are in test_web_browser.py.
"""
from __future__ import annotations

import random

import msgpack
import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet.net import wire
from frapnet.net.config import TableConfig
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.net.web import ASSETS, load_assets, origin_allowed, web_factory

HELLO = {"type": "hello", "protocol": "1.0", "name": "Olga"}


def make(players=2, password=None, **factory_kw):
    clock = Clock()
    table = Table(TableConfig(name="T", players=players, pause=0.0, password=password, nonce_time=0.0), clock=clock,
                  rng=random.Random(1))
    hf = HostFactory({"T": table}, clock, **factory_kw)
    return clock, table, hf, web_factory(hf, reactor=clock, names={"localhost", "gamebox"})


def codes(msgs):
    return [m.get("code") for m in msgs if m["type"] == "error"]


# --- Origin -----------------------------------------------------------------------------------

@pytest.mark.parametrize("origin, host, ok", [
    ("http://192.168.1.20:8080", "192.168.1.20:8080", True),
    ("http://localhost:8080", "localhost:8080", True),
    ("https://[fe80::1]:8080", "[fe80::1]:8080", True),
    ("http://GameBox:8080", "gamebox:8080", True),
    (None, "192.168.1.20:8080", False),                        # no Origin
    ("null", "192.168.1.20:8080", False),                      # a sandboxed page or a file
    ("http://evil.example", "192.168.1.20:8080", False),       # another site
    ("http://192.168.1.20:9999", "192.168.1.20:8080", False),  # another port is another origin
    ("http://evil.example:8080", "evil.example:8080", False),  # DNS rebinding: not our name
    ("ws://192.168.1.20:8080", "192.168.1.20:8080", False),
])
def test_origin_rule(origin, host, ok):
    assert (origin_allowed(origin, host, {"localhost", "gamebox"}) is None) is ok


def test_wrong_origin_gets_403_and_no_seat(memory_ws):
    clock, table, hf, wf = make()
    c = memory_ws(wf, origin="http://evil.example")
    assert c.accepted is False and c.rejected_status == 403
    assert b"101 Switching" not in c.raw() and b"another site" in c.raw()
    assert table.names == ["", ""] and not hf.connections  # nothing reached the table
    c2 = memory_ws(wf, origin=None)
    assert c2.rejected_status == 403 and b"no Origin header" in c2.raw()


# --- the same protocol ------------------------------------------------------------------------

def test_websocket_seat_gets_welcome_event_view_and_plays(memory_ws):
    clock, table, hf, wf = make()
    a, b = memory_ws(wf), memory_ws(wf)
    assert a.accepted and b.accepted
    a.send(HELLO)
    b.send({**HELLO, "name": "Ivan", "lang": "ru"})
    ma, mb = a.read(), b.read()
    assert [m["type"] for m in ma[:3]] == ["welcome", "event", "view"]
    assert ma[0]["seat"] == 0 and mb[0]["seat"] == 1 and len(ma[0]["token"]) >= 24
    assert table.names == ["Olga", "Ivan"] and table.state.deal_no == 1
    mb = b.read()
    actor = a if 0 in a.view["to_act"] else b
    act = actor.view["actions"][0]
    version = table.state.version
    actor.send({"type": "act", "action": act["action"], "version": actor.view["version"]})
    assert table.state.version > version  # accepted: the same Table.act as over TCP
    assert any(m["type"] == "view" for m in actor.read())
    # each message is one binary WebSocket message holding exactly one msgpack map
    other = b if actor is a else a
    other.send({"type": "ping", "id": 7})
    assert other.read()[-1] == {"type": "pong", "id": 7}


def test_bad_messages_get_the_documented_errors(memory_ws):
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    c.send({"type": "act", "action": ["look"], "version": 1})
    assert codes(c.read()) == ["not_joined"] and not c.disconnected
    c.send({"type": "warp"})
    assert codes(c.read()) == ["unknown_kind"]
    c.send_bytes(msgpack.packb({"type": "ping"}) + b"\x00")  # trailing byte
    assert codes(c.read()) == ["malformed"] and c.disconnected


def test_text_message_is_malformed_and_closes(memory_ws):
    from wsproto.events import TextMessage
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    c.proto.dataReceived(c.ws.send(TextMessage(data='{"type": "hello"}')))
    msgs = c.read()
    assert codes(msgs) == ["malformed"] and "binary" in msgs[0]["message"]
    assert c.disconnected and c.closed_code == 1000


def test_wrong_password_before_any_seat_or_view(memory_ws):
    clock, table, hf, wf = make(password="s3cret")
    c = memory_ws(wf)
    c.send({**HELLO, "password": "guess"})
    msgs = c.read()
    assert [m["type"] for m in msgs] == ["error"] and msgs[0]["code"] == "password"
    assert c.disconnected and table.names == ["", ""]
    ok = memory_ws(wf)
    ok.send({**HELLO, "password": "s3cret"})
    assert ok.read()[0]["type"] == "welcome"


def _close_later(c) -> None:
    """Make ``c``'s in-memory TCP transport close as a real one does: ``loseConnection`` only
    starts the close (Twisted flushes, and calls connectionLost on a later turn of the loop)."""
    c.tr.loseConnection = lambda: setattr(c.tr, "disconnecting", True)


def test_a_ping_after_a_refused_text_message_is_no_traceback_issue_9(memory_ws):
    """Issue #9 hostile input (WebSocket): a text message and a ping in one TCP read. The text
    message is refused (``malformed``, WebSocket close); wsproto then cannot answer the ping in
    its closing state: LocalProtocolError escaped dataReceived (a critical traceback in the
    host's log, the connection aborted before the client had its ``error``)."""
    from wsproto.events import Ping, TextMessage
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    _close_later(c)
    c.proto.dataReceived(c.ws.send(TextMessage(data="hello")) + c.ws.send(Ping(b"after")))  # must not raise
    msgs = c.read()
    assert codes(msgs) == ["malformed"] and "binary" in msgs[0]["message"]
    assert c.closed_code == 1000 and c.tr.disconnecting


def test_a_websocket_closed_by_its_peer_is_skipped_by_the_fan_out_issue_9(memory_ws):
    """Issue #9 hostile input (WebSocket): a spectator sends a WebSocket Close; until its TCP
    connection is gone (a later turn of the loop) the table changes. Sending it the change raised
    wsproto's LocalProtocolError inside the fan-out: the acting seat got ``internal`` for an
    action that WAS applied, and the peers after it missed the change's frames."""
    from wsproto.events import CloseConnection
    clock, table, hf, wf = make()
    a, b = memory_ws(wf), memory_ws(wf)
    a.send(HELLO)
    b.send({**HELLO, "name": "Ivan"})
    gone, last = memory_ws(wf), memory_ws(wf)
    gone.send({**HELLO, "name": "Petr", "spectate": True})
    last.send({**HELLO, "name": "Anna", "spectate": True})
    for c in (a, b, gone, last):
        c.read()
    _close_later(gone)
    gone.proto.dataReceived(gone.ws.send(CloseConnection(1000)))
    assert gone.read() == [] and gone.closed_code == 1000 and gone.tr.disconnecting  # the host answered the close
    actor = a if 0 in a.view["to_act"] else b
    version = table.state.version
    actor.send({"type": "act", "action": actor.view["actions"][0]["action"], "version": actor.view["version"]})
    assert table.state.version == version + 1
    assert codes(actor.read()) == []  # accepted, and not answered with "internal"
    seen = last.read()
    assert [m["type"] for m in seen][-1] == "view" and seen[-1]["view"]["version"] == version + 1
    assert gone.read() == []


# --- limits -------------------------------------------------------------------------------------

def test_oversized_message_is_too_large_and_closed(memory_ws):
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    c.send_bytes(msgpack.packb({"type": "chat", "text": "x" * (wire.MAX_FRAME + 10)}))
    msgs = c.read()
    assert codes(msgs) == ["too_large"] and str(wire.MAX_FRAME) in msgs[0]["message"]
    assert c.disconnected
    # a message of exactly MAX_FRAME bytes is still a message (unknown fields are ignored)
    d = memory_ws(wf)
    msg = {"type": "ping", "id": 1, "a": "a" * 60000, "b": "b" * 60000, "c": "c" * 60000, "d": "d" * 60000,
           "e": ""}
    msg["e"] = "e" * (wire.MAX_FRAME - len(msgpack.packb(msg)) - 2)  # its str 16 header adds 2
    body = msgpack.packb(msg)
    assert len(body) == wire.MAX_FRAME
    d.send_bytes(body)
    assert d.read() == [{"type": "pong", "id": 1}] and not d.disconnected


def test_endless_frame_is_refused_without_buffering_it(memory_ws):
    """A frame header announcing 1 TiB, then data: refused once MAX_FRAME + SLACK bytes arrived."""
    from frapnet.net.web import SLACK
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    # a masked binary frame header with a 64-bit length of 2**40 (client frames are masked)
    header = bytes([0x82, 0x80 | 127]) + (2 ** 40).to_bytes(8, "big") + b"\x00\x00\x00\x00"
    c.proto.dataReceived(header)
    sent = 0
    chunk = b"\x00" * 65536
    while not c.disconnected and sent < 4 * wire.MAX_FRAME:
        c.proto.dataReceived(chunk)
        sent += len(chunk)
    assert c.disconnected and sent <= wire.MAX_FRAME + SLACK + len(chunk)
    assert b"too_large" in c.raw()


def test_flood_is_dropped_then_closed(memory_ws):
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    c.send(HELLO)
    c.read()
    for i in range(60):
        c.send({"type": "ping", "id": i})
    msgs = c.read()
    assert codes(msgs) == ["flood"] and sum(m["type"] == "pong" for m in msgs) == 49  # hello counted
    assert not c.disconnected
    for i in range(200):
        c.send({"type": "ping", "id": i})
    assert codes(c.read())[-1] == "flood" and c.disconnected


def test_connection_caps_apply_to_websockets(memory_ws):
    """The host's connection limit counts WebSockets: at the limit a new one pushes out the
    oldest still waiting for its hello (``busy``, issue #9); once all have joined, a new one gets
    ``busy`` itself."""
    clock, table, hf, wf = make(max_connections=3)
    conns = [memory_ws(wf) for _ in range(4)]
    assert all(c.accepted for c in conns)
    assert codes(conns[0].read()) == ["busy"] and conns[0].disconnected
    assert len(hf.connections) == 3
    conns[1].send(HELLO)
    conns[2].send({**HELLO, "name": "Ivan"})
    conns[3].send({**HELLO, "spectate": True, "name": "Petr"})
    late = memory_ws(wf)
    assert codes(late.read()) == ["busy"] and late.disconnected and len(hf.connections) == 3


def test_handshake_timeout_over_websocket(memory_ws):
    clock, table, hf, wf = make()
    c = memory_ws(wf)
    clock.advance(10.5)
    assert codes(c.read()) == ["timeout"] and c.disconnected


# --- only the page --------------------------------------------------------------------------------

def _http(wf, request: bytes) -> bytes:
    addr = IPv4Address("TCP", "127.0.0.1", 30001)
    p = wf.buildProtocol(addr)
    tr = StringTransportWithDisconnection(peerAddress=addr)
    tr.protocol = p
    p.makeConnection(tr)
    p.dataReceived(request)
    return tr.value()


def test_serves_only_the_page_and_its_assets():
    clock, table, hf, wf = make()
    assets = load_assets()
    for path in ASSETS:
        resp = _http(wf, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
        assert resp.startswith(b"HTTP/1.1 200") and resp.endswith(assets[path][1])
        assert b"Content-Security-Policy: default-src 'none'" in resp and b"X-Content-Type-Options: nosniff" in resp
    for path in (b"/../pyproject.toml", b"/web_assets/app.js", b"/etc/passwd", b"/app.js/x", b"/ws/x"):
        assert _http(wf, b"GET " + path + b" HTTP/1.1\r\nHost: h\r\n\r\n").startswith(b"HTTP/1.1 404")
    assert _http(wf, b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi").startswith(b"HTTP/1.1 405")
    # a plain GET of /ws (no upgrade) with a good Origin is refused by the WebSocket library
    resp = _http(wf, b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\n\r\n")
    assert resp.startswith(b"HTTP/1.1 400")


UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\nUpgrade: websocket\r\n"
           b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")


@pytest.mark.parametrize("change, status, why", [
    ((b"Connection: Upgrade", b"Connection: \xff"), 400, b"Connection: a value that is not ASCII text"),
    ((b"Version: 13\r\n", b"Version: 13\r\nSec-WebSocket-Extensions: \xfe\r\n"), 400,
     b"Sec-WebSocket-Extensions: a value that is not ASCII text"),
    ((b"Version: 13\r\n", b"Version: 13\r\nSec-WebSocket-Protocol: \xff\r\n"), 400,
     b"Sec-WebSocket-Protocol: a value that is not ASCII text"),
    ((b"Connection: Upgrade", b"Connection: keep-alive"), 400, b"no 'Connection: Upgrade'"),
    ((b"Upgrade: websocket", b"Upgrade: h2c"), 400, b"no 'Upgrade: websocket'"),
    ((b"Version: 13", b"Version: 8"), 426, b"Sec-WebSocket-Version 13 only"),
    ((b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", b""), 400, b"no Sec-WebSocket-Key"),
    # a key that is not 16 bytes in base64 was upgraded (issue #9 attack); RFC 6455 section 4.1
    ((b"dGhlIHNhbXBsZSBub25jZQ==", b"not-base64!!"), 400, b"Sec-WebSocket-Key: not one base64 value of 16 bytes"),
    ((b"dGhlIHNhbXBsZSBub25jZQ==", b""), 400, b"Sec-WebSocket-Key: not one base64 value of 16 bytes"),
    ((b"dGhlIHNhbXBsZSBub25jZQ==", b"dGhlIHNhbXBsZQ=="), 400, b"Sec-WebSocket-Key: not one base64 value of 16 bytes"),
    ((b"Version: 13\r\n", b"Version: 13\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"), 400,
     b"Sec-WebSocket-Key: not one base64 value of 16 bytes"),
])
def test_a_bad_websocket_upgrade_is_refused_naming_the_header_issue_9(change, status, why):
    """Issue #9 hostile input (WebSocket): a non-ASCII byte in the upgrade's Connection,
    Sec-WebSocket-Extensions or Sec-WebSocket-Protocol header raised UnicodeDecodeError in the
    WebSocket library — a critical traceback in the host's log and "500 Processing Failed";
    other bad upgrades were an error-level log line and "websocket protocol negotiation error".
    Now: 400 (426 for another version) naming the header, an info line."""
    clock, table, hf, wf = make()
    resp = _http(wf, UPGRADE.replace(*change) + b"\r\n")
    assert resp.startswith(b"HTTP/1.1 %d " % status) and why in resp, resp[-300:]
    assert not hf.connections  # nothing reached the table
    assert _http(wf, UPGRADE + b"\r\n").startswith(b"HTTP/1.1 101")  # a good upgrade still works


def test_an_endless_http_request_is_aborted():
    clock, table, hf, wf = make()
    addr = IPv4Address("TCP", "127.0.0.1", 30002)
    p = wf.buildProtocol(addr)
    tr = StringTransportWithDisconnection(peerAddress=addr)
    tr.protocol = p
    p.makeConnection(tr)
    p.dataReceived(b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100000000\r\n\r\n")
    for _ in range(8):
        p.dataReceived(b"z" * 16384)
    assert tr.disconnecting or not tr.connected


def test_an_idle_connection_is_closed_quietly_a_slow_request_with_a_log_line():
    """Each time a browser opened the page, the host logged "HTTP request not complete in 10s;
    aborted" for the connections Chromium opens ahead of need and never uses: an idle connection
    (no byte of a request since it opened, or since its last answer) is closed after 10 s without
    a log line; a request begun and not finished in time (a slowloris) still gets its line."""
    from twisted.logger import globalLogPublisher
    said = []
    observer = lambda e: said.append(e.get("log_format", ""))  # noqa: E731
    globalLogPublisher.addObserver(observer)
    try:
        clock, table, hf, wf = make()
        idle, begun = [], []
        for i, out in ((0, idle), (1, begun)):
            addr = IPv4Address("TCP", "127.0.0.1", 30100 + i)
            p = wf.buildProtocol(addr)
            tr = StringTransportWithDisconnection(peerAddress=addr)
            tr.protocol = p
            p.makeConnection(tr)
            out.append(tr)
        begun_proto = begun[0].protocol
        begun_proto.dataReceived(b"GET / HT")
        clock.advance(11)
        assert not idle[0].connected and not begun[0].connected
        assert sum("not complete" in f for f in said) == 1
    finally:
        globalLogPublisher.removeObserver(observer)


def _slow_http(wf, host: str, port: int):
    """A connection from ``host`` that has sent the first byte of a request; None if refused."""
    addr = IPv4Address("TCP", host, port)
    p = wf.buildProtocol(addr)
    if p is None:
        return None
    tr = StringTransportWithDisconnection(peerAddress=addr)
    tr.protocol = p
    p.makeConnection(tr)
    p.dataReceived(b"G")
    return p, tr


def test_slow_http_requests_from_many_addresses_cannot_lock_out_a_browser_issue_9(memory_ws):
    """Issue #9 hostile input (slowloris): 16 addresses × 32 connections, each sending its
    request's headers a byte a second (every byte restarts the HTTP idle timeout), held all 512
    HTTP connections: a browser could neither load the page nor open its WebSocket. Now a new
    connection at the cap pushes out the oldest not yet upgraded one of the address with the
    most (a seated player's WebSocket is never pushed out), and a request whose headers are not
    in after 10 seconds is aborted whatever it sends."""
    clock, table, hf, wf = make()
    olga = memory_ws(wf)
    olga.send(HELLO)
    assert olga.read()[0]["seat"] == 0
    slow = [c for a in range(16) for i in range(32) if (c := _slow_http(wf, f"10.0.0.{a + 1}", 20000 + i))]
    assert len(slow) == 512 and sum(tr.connected for _, tr in slow) == 511  # the 512th pushed one out: all but Olga's slot
    dribble = b"ET / HTTP/1.1\r\nHost: 10.0.0.1:8080\r\nX-a: " + b"b" * 100
    for second in range(5):  # a byte a second on each
        clock.advance(1)
        for p, tr in slow:
            if tr.connected:
                p.dataReceived(dribble[second:second + 1])
    resp = _http(wf, b"GET / HTTP/1.1\r\nHost: 192.168.1.20:8080\r\n\r\n")  # a browser, from 127.0.0.1
    assert resp.startswith(b"HTTP/1.1 200") and resp.endswith(load_assets()[b"/"][1])
    ivan = memory_ws(wf)
    assert ivan.accepted
    ivan.send({**HELLO, "name": "Ivan"})
    assert ivan.read()[0]["seat"] == 1 and table.names == ["Olga", "Ivan"]
    assert sum(tr.connected for _, tr in slow) == 509  # one pushed out for each of the two
    assert olga.tr.connected and not olga.disconnected and olga.read()  # Olga plays on
    for second in range(5, 11):
        clock.advance(1)
        for p, tr in slow:
            if tr.connected:
                p.dataReceived(dribble[second:second + 1])
    assert not any(tr.connected for _, tr in slow)  # 10 s, headers incomplete: aborted
    assert olga.tr.connected and ivan.tr.connected  # WebSockets have no such deadline
    clock.advance(60)
    assert olga.tr.connected and ivan.tr.connected


# --- a real host process, real sockets ------------------------------------------------------------

class SocketWS:
    """A WebSocket client over a real TCP socket (wsproto does the framing)."""

    def __init__(self, port: int, origin: str | None):
        import socket
        from wsproto import ConnectionType, WSConnection
        from wsproto.events import Request

        self.s = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.ws = WSConnection(ConnectionType.CLIENT)
        host = f"127.0.0.1:{port}"
        self.s.sendall(self.ws.send(Request(host=host, target="/ws",
                                            extra_headers=[("Origin", origin)] if origin else [])))
        self.status = None
        self.closed = False
        self.eof = False
        self.msgs: list = []
        self._buf = b""
        self.pump(lambda: self.status is not None)

    def pump(self, until, timeout: float = 5.0):
        import socket
        import time as _t
        from wsproto.events import AcceptConnection, BytesMessage, CloseConnection, RejectConnection

        end = _t.monotonic() + timeout
        while not until() and not self.closed and _t.monotonic() < end:
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                data = b""
            self.ws.receive_data(data or None)
            if not data:
                self.closed = self.eof = True
            for ev in self.ws.events():
                if isinstance(ev, AcceptConnection):
                    self.status = 101
                elif isinstance(ev, RejectConnection):
                    self.status = ev.status_code
                elif isinstance(ev, BytesMessage):
                    self._buf += ev.data
                    if ev.message_finished:
                        self.msgs.append(wire.decode(self._buf))
                        self._buf = b""
                elif isinstance(ev, CloseConnection):
                    self.closed = True

    def read_to_eof(self, timeout: float = 5.0) -> None:
        """Read (and parse) until the host's FIN — past its Close frame and past a failed send:
        the host's last words arrive before its FIN (issue #9)."""
        import time as _t

        end = _t.monotonic() + timeout
        while not self.eof and _t.monotonic() < end:
            self.closed = False  # a Close frame: read on to the FIN
            self.pump(lambda: self.eof, end - _t.monotonic())
        self.closed = self.closed or self.eof

    def send(self, body: bytes) -> None:
        from wsproto.events import Message
        try:
            self.s.sendall(self.ws.send(Message(data=body)))
        except OSError:
            self.closed = True


def test_real_endpoint_refuses_wrong_origin_oversized_message_and_flood():
    """docs/web.md "Security", over real sockets against `frapnet host --web 0`."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    p = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                          "--no-announce", "--web", "0", "--players", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=root)
    try:
        p.stdout.readline()
        port = int(re.search(r":(\d+)/", p.stdout.readline()).group(1))
        bad = SocketWS(port, "http://evil.example")
        assert bad.status == 403
        big = SocketWS(port, f"http://127.0.0.1:{port}")
        assert big.status == 101
        big.send(b"\x81" + b"x" * (wire.MAX_FRAME + 1))
        big.read_to_eof()
        assert codes(big.msgs) == ["too_large"] and big.closed
        flood = SocketWS(port, f"http://127.0.0.1:{port}")
        for i in range(400):
            flood.send(msgpack.packb({"type": "ping", "id": i}))
        flood.read_to_eof()
        assert codes(flood.msgs)[-1] == "flood" and flood.closed
        assert flood.msgs[-1]["message"] == "more than 200 messages a second; closing the connection"
        pongs = [m for m in flood.msgs if m["type"] == "pong"]
        assert 0 < len(pongs) <= 50
        ok = SocketWS(port, f"http://127.0.0.1:{port}")
        ok.send(msgpack.packb(HELLO))
        ok.pump(lambda: any(m["type"] == "view" for m in ok.msgs))
        assert ok.msgs[0]["type"] == "welcome" and ok.msgs[0]["seat"] == 0  # the host is fine
    finally:
        p.kill()
        p.communicate()


def test_a_websocket_that_sends_pings_and_never_reads_is_aborted_issue_9():
    """Issue #9 hostile input (docs/protocol.md "Session": a client that does not read is
    disconnected once about 1 MiB waits for it). WebSocket pings are answered by the WebSocket
    layer itself, past the host protocol's bounded queue: a client sending pings (and a small
    message now and then, under the flood limit) without reading made the host's memory grow by
    every byte it sent. Real sockets, `frapnet host --web 0`."""
    import os
    import re
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    from wsproto.events import Ping

    root = Path(__file__).resolve().parent.parent
    p = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                          "--no-announce", "--web", "0", "--players", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=root, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        p.stdout.readline()
        port = int(re.search(r":(\d+)/", p.stdout.readline()).group(1))
        c = SocketWS(port, f"http://127.0.0.1:{port}")
        assert c.status == 101
        c.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        chunk = b"".join(c.ws.send(Ping(b"p" * 125)) for _ in range(2000))  # 270 KB of pings
        aborted, sent, end = False, 0, time.monotonic() + 20
        while sent < 24 << 20 and time.monotonic() < end:
            try:
                c.send(msgpack.packb({"type": "ping", "id": sent}))  # a message: the pings are not one endless one
                c.s.sendall(chunk)
            except (ConnectionResetError, BrokenPipeError):
                aborted = True
                break
            except OSError:  # a time-out: the host stopped reading without aborting
                break
            sent += len(chunk)
            time.sleep(0.025)  # 40 messages a second, under the flood limit of 50
        assert aborted and sent < 16 << 20, sent  # 1 MiB of answers waited for it (and the kernels' buffers full)
        ok = SocketWS(port, f"http://127.0.0.1:{port}")
        ok.send(msgpack.packb(HELLO))
        ok.pump(lambda: any(m["type"] == "view" for m in ok.msgs))
        assert ok.msgs[0]["type"] == "welcome"  # the host is fine
    finally:
        p.kill()
        _, err = p.communicate()
    assert "WebSocket answers waiting for it; aborted" in err and "Traceback" not in err, err[-3000:]


def _unshare_reason():
    import os
    import shutil
    import subprocess
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "a private network namespace needs root (unshare -n); .ci/run runs as root"
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "unshare or ip (iproute2) missing; .ci/run installs iproute2"
    r = subprocess.run(["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True, text=True)
    return None if r.returncode == 0 else f"cannot create a network namespace: {r.stderr.strip()}"


UNSHARE_REASON = _unshare_reason()


@pytest.mark.skipif(UNSHARE_REASON is not None, reason=UNSHARE_REASON or "")
def test_frapnet_tables_shows_the_web_address(tmp_path):
    """Issue #12: the announcement carries TXT web=PORT; `frapnet tables` shows the page's URL.
    Announcing happens only inside a private network namespace (loopback, multicast on)."""
    import subprocess
    import sys

    py = sys.executable
    script = f"""
ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo
cd {tmp_path}
{py} -m frapnet host --port 0 --bind 127.0.0.1 --web 0 --announce --interface 127.0.0.1 --players 2 \\
    --name Attic > host.out 2> host.err &
h=$!
i=0; until grep -q "web page at" host.out; do i=$((i+1)); [ $i -lt 300 ] || exit 9; sleep 0.1; done
{py} -m frapnet tables --timeout 3 --interface 127.0.0.1
{py} -m frapnet tables --timeout 3 --interface 127.0.0.1 --json
kill $h
grep "web page at" host.out
"""
    r = subprocess.run(["unshare", "-n", "sh", "-ec", script], capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    url = lines[-1].split()[-1]
    port = url.rsplit(":", 1)[1].strip("/")
    assert lines[0].split() == ["TABLE", "GAME", "FREE/SEATS", "PASSWORD", "ADDRESS", "WEB"]
    row = lines[1].split()
    assert row[0] == "Attic" and row[-1] == f"http://127.0.0.1:{port}/" and url == row[-1]
    import json
    listed = json.loads(next(ln for ln in lines if ln.startswith("[")))
    assert listed[0]["props"]["web"] == port


def test_frapnet_play_web_serves_a_local_table():
    """`frapnet play --web 0` (no terminal needed): a local table on 127.0.0.1 whose page is
    served; a browser's WebSocket sits at seat 0, the other seats are computer players."""
    import re
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    p = subprocess.Popen([sys.executable, "-m", "frapnet", "play", "--web", "0", "--players", "3", "--seed", "2",
                          "--bot-delay", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=root)
    try:
        line = p.stdout.readline()
        m = re.match(r"frapnet: web page at (http://127\.0\.0\.1:(\d+)/)$", line.strip())
        assert m, (line, p.stderr.read() if p.poll() is not None else "")
        with urllib.request.urlopen(m.group(1), timeout=10) as r:
            assert r.status == 200 and b'<script src="/app.js"' in r.read()
        ws = SocketWS(int(m.group(2)), f"http://127.0.0.1:{m.group(2)}")
        ws.send(msgpack.packb(HELLO))
        ws.pump(lambda: any(x["type"] == "view" for x in ws.msgs))
        welcome = ws.msgs[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert [pl["connection"] for pl in welcome["players"]][1:] == ["bot", "bot"]
    finally:
        p.kill()
        p.communicate()
