"""The browser endpoint (issue #12; docs/web.md): one HTTP port that serves the web page, its
assets and a WebSocket speaking exactly the table protocol of docs/protocol.md.

The WebSocket side is Twisted's own :mod:`twisted.web.websocket` (wsproto underneath); nothing
here frames WebSocket bytes. Each **binary WebSocket message carries one protocol message** (the
msgpack body of one TCP frame, without the 4-byte length). The connection is handled by the
host's own protocol class, unchanged: :class:`WebSocketStream` is a transport that turns the
host protocol's length-prefixed output back into one WebSocket message per frame, and every
inbound WebSocket message is fed to the protocol as the length-prefixed frame it stands for. So
the same code checks the same limits — handshake timeout, flood, connection caps, the password
lockout, the outbound queue — and sends the same bytes (the byte-level leak test scans them).

What the endpoint adds for browsers:

- ``GET /ws`` upgrades to the WebSocket only with an ``Origin`` header equal to the page's own
  origin (``http://HOST:PORT`` of the ``Host`` header) and a ``Host`` that is an IP address,
  ``localhost`` or this machine's name (:func:`origin_allowed`); otherwise HTTP 403 and no
  upgrade (a page on another site cannot open a seat with a visitor's browser, nor can a
  DNS-rebinding name).
- A message over :data:`frapnet.net.wire.MAX_FRAME` bytes gets ``error`` ``too_large`` and the
  connection is closed; the endpoint never holds more than about ``MAX_FRAME`` + 64 KiB of one
  incoming message (:class:`_Guard` counts the bytes received since the last whole message).
  A text message gets ``error`` ``malformed`` (only binary messages are used) and is closed.
- Only the files in :data:`ASSETS` and ``/ws`` are served (``GET``/``HEAD``); anything else is
  404, other methods 405. At most ``max_http`` TCP connections in all, ``max_http_per_address``
  from one address; an HTTP connection may send at most 64 KiB before its upgrade.

Start it with :func:`listen_web` beside the TCP listener, on the same host factory::

    from frapnet.net.web import listen_web
    port = listen_web(reactor, host_factory, port=8080, interface="0.0.0.0")
    port.getHost().port      # the HTTP port
"""
from __future__ import annotations

from importlib import resources

from twisted.logger import Logger
from twisted.protocols import policies
from twisted.web import resource, server
from zope.interface import implementer
from twisted.internet.interfaces import IConsumer, ITransport
from wsproto.utilities import LocalProtocolError

from frapnet.net import wire
from frapnet.net.server import LINGER
from frapnet.net.sockets import close_after_reading
from frapnet.net.webcheck import local_names, origin_allowed, upgrade_problem  # noqa: F401 - re-exported

log = Logger(namespace="frapnet.web")

WS_PATH = b"/ws"
ASSETS = {
    b"/": ("index.html", "text/html; charset=utf-8"),
    b"/app.js": ("app.js", "text/javascript; charset=utf-8"),
    b"/app.css": ("app.css", "text/css; charset=utf-8"),
    b"/msgpack.min.js": ("msgpack.min.js", "text/javascript; charset=utf-8"),
    b"/fairness.js": ("fairness.js", "text/javascript; charset=utf-8"),
    b"/msgpack-LICENSE.txt": ("msgpack-LICENSE.txt", "text/plain; charset=utf-8"),
}
"""URL path → (file in frapnet/net/web_assets, content type): everything the endpoint serves
besides the WebSocket."""

SLACK = 64 * 1024
"""Bytes beyond :data:`~frapnet.net.wire.MAX_FRAME` (WebSocket headers, control frames, a read's
worth of the next message) one incoming message may take before it is refused as too large."""
MAX_HTTP_INPUT = 64 * 1024
"""Bytes an HTTP connection may send before it upgrades to the WebSocket (a page request is a
few hundred bytes); more aborts it."""
_SLICE = 16 * 1024
MAX_UNREAD = 1024 * 1024
"""Bytes written to a WebSocket's TCP connection that the peer has not read yet beyond which it is
aborted. The host protocol's own queue is bounded the same way (docs/protocol.md "Session"); this
also bounds what the WebSocket layer answers by itself — pongs to pings — past that queue."""

SECURITY_HEADERS = {
    b"content-security-policy": b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"x-frame-options": b"DENY",
    b"cache-control": b"no-cache",
}


def load_assets() -> dict[bytes, tuple[bytes, bytes]]:
    """Read the page's files from the package: URL path → (content type, bytes). Raises
    FileNotFoundError if the package was installed without them."""
    base = resources.files("frapnet.net") / "web_assets"
    return {path: (ctype.encode(), (base / name).read_bytes()) for path, (name, ctype) in ASSETS.items()}


# --- the transport adapter ------------------------------------------------------------------------

@implementer(ITransport, IConsumer)
class WebSocketStream:
    """The transport a host protocol (a :class:`frapnet.net.wire.FramedProtocol`) writes to when
    its peer is a WebSocket: every length-prefixed frame written becomes one binary WebSocket
    message of its body. ``ws`` is the :class:`twisted.web.websocket.WebSocketTransport`,
    ``request`` the upgraded HTTP request (its client address, its channel for back-pressure),
    ``tcp`` the TCP transport under it (abort, pause reading, TCP options)."""

    def __init__(self, ws, request, tcp) -> None:
        self.ws = ws
        self.request = request
        self.tcp = tcp
        self.connected = True
        self.disconnecting = False
        self._buf = b""

    def write(self, data: bytes) -> None:
        """``data``: whole or partial frames (4-byte big-endian length + body); each complete one
        is sent as one WebSocket message. Writes after the close are dropped."""
        if not self.connected or self.disconnecting:
            return
        buf = self._buf + data if self._buf else data
        pos = 0
        while len(buf) - pos >= 4:
            n = int.from_bytes(buf[pos:pos + 4], "big")
            if len(buf) - pos - 4 < n:
                break
            try:
                self.ws.sendBytesMessage(bytes(buf[pos + 4:pos + 4 + n]))
            except LocalProtocolError:  # the WebSocket is closing (the peer's Close came first): as after a close
                self.disconnecting = True
                self._buf = b""
                return
            pos += 4 + n
        self._buf = buf[pos:]

    def writeSequence(self, seq) -> None:
        self.write(b"".join(seq))

    def loseConnection(self, code: int = 1000) -> None:
        """A WebSocket close (``code``), then the TCP connection closes after what is written."""
        if not self.connected or self.disconnecting:
            return
        self.disconnecting = True
        self.ws.loseConnection(code)

    def abortConnection(self) -> None:
        self.disconnecting = True
        self.tcp.abortConnection()

    def getPeer(self):
        return self.request.getClientAddress()

    def getHost(self):
        return self.request.getHost()

    # back-pressure: the HTTP channel relays the socket's pause/resume to one registered producer
    def registerProducer(self, producer, streaming) -> None:
        self.request.channel.registerProducer(producer, streaming)

    def unregisterProducer(self) -> None:
        self.request.channel.unregisterProducer()

    # reading from the peer
    def pauseProducing(self) -> None:
        self.tcp.pauseProducing()

    def resumeProducing(self) -> None:
        self.tcp.resumeProducing()

    # TCP options (frapnet.net.sockets.tune_tcp): those of the socket under the WebSocket
    def setTcpNoDelay(self, on) -> None:
        self.tcp.setTcpNoDelay(on)

    def setTcpKeepAlive(self, on) -> None:
        self.tcp.setTcpKeepAlive(on)

    def getHandle(self):
        return self.tcp.getHandle()


class _Bridge:
    """A :class:`twisted.web.websocket.WebSocketProtocol` that hands the connection to a host
    protocol built by the endpoint's host factory (``buildProtocol(addr)``), over a
    :class:`WebSocketStream`."""

    def __init__(self, endpoint: "_WebSocketFactory", request) -> None:
        self.endpoint = endpoint
        self.request = request
        self.ws = None
        self.proto = None
        self.stream = None
        self.done = False  # refused a message: nothing more is read
        self.guard = request.channel.transport if isinstance(request.channel.transport, _Guard) else None

    def negotiationStarted(self, transport) -> None:
        self.ws = transport

    def negotiationFinished(self) -> None:
        # the 101 response is written by now: the host protocol may speak (e.g. ``busy``)
        self.stream = WebSocketStream(self.ws, self.request, self.request.channel.transport)
        self.proto = self.endpoint.host_factory.buildProtocol(self.request.getClientAddress())
        if self.guard is not None:
            self.guard.upgraded(self)
        self.proto.makeConnection(self.stream)

    def bytesMessageReceived(self, data) -> None:
        if self.guard is not None:
            self.guard.message_done()
        if self.done or self.proto is None:
            return
        n = len(data)
        if n > wire.MAX_FRAME:  # the length alone: the protocol refuses it as it does on TCP
            self.done = True
            self.proto.dataReceived(n.to_bytes(4, "big"))
            return
        self.proto.dataReceived(n.to_bytes(4, "big") + bytes(data))

    def textMessageReceived(self, message: str) -> None:
        if self.guard is not None:
            self.guard.message_done()
        if self.done or self.proto is None:
            return
        self.done = True
        self.proto.frameError(wire.WireError(
            "malformed", "a text WebSocket message: send each msgpack message as one binary message"))

    def too_large(self) -> None:
        """The peer has sent more than MAX_FRAME + SLACK bytes without finishing a message."""
        if self.done or self.proto is None:
            return
        self.done = True
        self.proto.dataReceived((wire.MAX_FRAME + SLACK).to_bytes(4, "big"))

    def pongReceived(self, payload: bytes) -> None:
        pass

    def connectionLost(self, reason) -> None:
        if self.stream is not None:
            self.stream.connected = False
        if self.proto is not None:
            self.proto.connectionLost(reason)


class _WebSocketFactory:
    """:class:`twisted.web.websocket.WebSocketServerFactory`: one :class:`_Bridge` per upgrade."""

    def __init__(self, host_factory) -> None:
        self.host_factory = host_factory

    def buildProtocol(self, request) -> _Bridge:
        return _Bridge(self, request)


# --- the HTTP side -------------------------------------------------------------------------------

class _Site(resource.Resource):
    """The only resource: the assets by exact path, ``/ws`` behind the Origin check, else 404."""

    isLeaf = True

    def __init__(self, host_factory, assets: dict, names: set[str]) -> None:
        super().__init__()
        from twisted.web.websocket import WebSocketResource

        self.assets = assets
        self.names = names
        self.ws = WebSocketResource(_WebSocketFactory(host_factory))

    def _headers(self, request) -> None:
        for k, v in SECURITY_HEADERS.items():
            request.setHeader(k, v)

    def render(self, request):
        if request.method not in (b"GET", b"HEAD"):
            request.setResponseCode(405)
            request.setHeader(b"allow", b"GET, HEAD")
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            return b"405 method not allowed: this host serves only the table's page\n"
        return super().render(request)

    def render_GET(self, request):
        path = request.path
        if path == WS_PATH:
            origin = request.getHeader(b"origin")
            host = request.getHeader(b"host")
            why = origin_allowed(origin.decode("latin-1") if origin else None,
                                 host.decode("latin-1") if host else None, self.names)
            if why is not None:
                log.info("{peer}: WebSocket refused: {why}", peer=_peer(request), why=why)
                request.setResponseCode(403)
                request.setHeader(b"content-type", b"text/plain; charset=utf-8")
                return f"403 forbidden: {why}\n".encode("utf-8")
            bad = upgrade_problem(request)
            if bad is not None:
                status, why = bad
                log.info("{peer}: WebSocket refused: {why}", peer=_peer(request), why=why)
                request.setResponseCode(status)
                if status == 426:
                    request.setHeader(b"sec-websocket-version", b"13")
                request.setHeader(b"content-type", b"text/plain; charset=utf-8")
                return f"{status} bad WebSocket request: {why}\n".encode("utf-8")
            return self.ws.render_GET(request)
        self._headers(request)
        hit = self.assets.get(path)
        if hit is None:
            request.setResponseCode(404)
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            return b"404 not found: this host serves only the table's page\n"
        ctype, body = hit
        request.setHeader(b"content-type", ctype)
        return body


def _peer(request) -> str:
    a = request.getClientAddress()
    return f"{getattr(a, 'host', '?')}:{getattr(a, 'port', '?')}"


class _Guard(policies.ProtocolWrapper):
    """Wraps each HTTP connection: counts the bytes it sends and refuses too many — before the
    upgrade :data:`MAX_HTTP_INPUT` in all, after it MAX_FRAME + SLACK since the last whole
    WebSocket message (wsproto hands messages over whole, so this is what bounds the buffer)."""

    bridge: _Bridge | None = None
    pending = 0
    dead = False
    closing = False
    _linger_call = None

    def loseConnection(self) -> None:
        """Close after what is written, so that it reaches the peer — a WebSocket's last
        ``error`` and Close, an HTTP response: half-close, read and drop what the peer still
        sends until it closes its end, abort after :data:`frapnet.net.server.LINGER` seconds
        (:func:`frapnet.net.sockets.close_after_reading`; issue #9: closing with unread input
        made the kernel reset the connection and lose them)."""
        if self.closing:
            return
        self.closing = self.dead = True
        self.disconnecting = 1
        self._linger_call = close_after_reading(self.transport, self.factory.clock, LINGER)

    def connectionLost(self, reason) -> None:
        if self._linger_call is not None and self._linger_call.active():
            self._linger_call.cancel()
        super().connectionLost(reason)

    def upgraded(self, bridge: _Bridge) -> None:
        self.bridge = bridge
        self.pending = 0

    def message_done(self) -> None:
        self.pending = 0

    def dataReceived(self, data: bytes) -> None:
        for i in range(0, len(data), _SLICE):
            if self.dead or self.wrappedProtocol is None:  # refused, or closed meanwhile
                return
            chunk = data[i:i + _SLICE]
            self.pending += len(chunk)
            try:
                self.wrappedProtocol.dataReceived(chunk)
            except LocalProtocolError:  # e.g. a ping after the close, which wsproto cannot answer now
                self.dead = True  # the close is under way: read nothing more of it
                self.transport.loseConnection()
                return
            if self.bridge is None and self.pending > MAX_HTTP_INPUT and not self.dead:
                self.dead = True
                log.info("{peer}: over {n} bytes of HTTP request; aborted", peer=_addr(self), n=MAX_HTTP_INPUT)
                self.transport.abortConnection()
            elif self.bridge is not None and self.pending > wire.MAX_FRAME + SLACK and not self.dead:
                self.dead = True  # read nothing more of it; the host protocol says too_large and closes
                self.transport.pauseProducing()
                self.bridge.too_large()
            elif self.bridge is not None and not self.dead and _unread(self.transport) > MAX_UNREAD:
                self.dead = True  # it sends (pings) and does not read the answers (issue #9)
                log.info("{peer}: stopped reading; over {n} bytes of WebSocket answers waiting for it; aborted",
                         peer=_addr(self), n=MAX_UNREAD)
                self.transport.abortConnection()


def _unread(transport) -> int:
    """Bytes written to a Twisted TCP transport that the kernel has not taken yet (0 for another
    kind of transport)."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except (AttributeError, TypeError):
        return 0


def _addr(p) -> str:
    try:
        a = p.getPeer()
        return f"{a.host}:{a.port}"
    except Exception:  # noqa: BLE001
        return "?"


class _GuardFactory(policies.WrappingFactory):
    """Caps HTTP connections: ``max_http`` in all, ``max_http_per_address`` from one address (a
    WebSocket counts too; the host factory's own caps apply to it as well)."""

    protocol = _Guard
    noisy = False

    def logPrefix(self) -> str:
        return "frapnet-web"  # "frapnet-web starting on 8080": filtered like the TCP port's line

    def __init__(self, site, max_http: int, max_http_per_address: int, clock=None) -> None:
        super().__init__(site)
        self.max_http = max_http
        self.max_http_per_address = max_http_per_address
        if clock is None:
            from twisted.internet import reactor as clock
        self.clock = clock

    def buildProtocol(self, addr):
        host = getattr(addr, "host", None)
        if len(self.protocols) >= self.max_http or \
                sum(1 for p in self.protocols if getattr(p, "addr_host", None) == host) >= self.max_http_per_address:
            log.info("refusing HTTP connection from {a}: too many connections", a=host)
            return None
        p = super().buildProtocol(addr)
        p.addr_host = host
        return p


def web_factory(host_factory, *, max_http: int = 512, max_http_per_address: int = 32, http_timeout: float = 15.0,
                names: set[str] | None = None, reactor=None) -> policies.WrappingFactory:
    """The Twisted server factory of the endpoint (what :func:`listen_web` listens with): the
    page, its assets and the WebSocket for ``host_factory``. ``reactor``: the clock for HTTP
    timeouts (tests pass a ``Clock``). Raises FileNotFoundError if the page's files are missing."""
    kw = {"reactor": reactor} if reactor is not None else {}
    site = server.Site(_Site(host_factory, load_assets(), names if names is not None else local_names()),
                       timeout=http_timeout, **kw)
    site.noisy = False
    site.log = lambda request: None  # no access log lines on the host's terminal
    site.displayTracebacks = False
    return _GuardFactory(site, max_http, max_http_per_address, clock=reactor)


def listen_web(reactor, host_factory, port: int = 0, interface: str = "0.0.0.0", **kw):
    """Serve the page and the WebSocket on TCP ``port`` of ``interface``; return the listening
    port (``.getHost().port``, ``.stopListening()``). ``host_factory`` builds the protocol for
    each WebSocket (``buildProtocol(addr)`` — the host's factory, whose caps and limits apply).
    Keywords as :func:`web_factory`: ``max_http`` (TCP connections in all, 512),
    ``max_http_per_address`` (32), ``http_timeout`` (seconds an idle HTTP connection is kept, not a
    WebSocket; 15), ``names`` (host names accepted besides IP addresses; :func:`local_names`).
    Raises the reactor's CannotListenError if the port is taken."""
    return reactor.listenTCP(port, web_factory(host_factory, reactor=reactor, **kw), interface=interface)


def lan_address(bind: str = "0.0.0.0", interfaces=None) -> str:
    """The address to print in the page's URL: ``bind`` if it names one interface, else the first
    of ``interfaces``, else this machine's first non-loopback IPv4 address (127.0.0.1 if none)."""
    if bind not in ("", "0.0.0.0", "::"):
        return bind
    if interfaces:
        return list(interfaces)[0]
    try:
        from frapnet.net.discovery import _local_ipv4
        return _local_ipv4()[0]
    except Exception:  # noqa: BLE001 - no ifaddr: loopback is still right for this machine
        return "127.0.0.1"


def web_url(address: str, port: int) -> str:
    """``http://ADDRESS:PORT/`` (IPv6 addresses in brackets)."""
    if ":" in address and not address.startswith("["):
        address = f"[{address}]"
    return f"http://{address}:{port}/"


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with block characters for a terminal (the ``segno`` library),
    or "" if segno is missing."""
    try:
        import segno
    except ImportError:
        return ""
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


__all__ = ["ASSETS", "WebSocketStream", "listen_web", "web_factory", "origin_allowed", "lan_address", "web_url", "qr_text",
           "local_names", "load_assets"]
