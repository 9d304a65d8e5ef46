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
  incoming message (:class:`frapnet.net.webguard.Guard` counts the bytes received since the last whole message).
  A text message gets ``error`` ``malformed`` (only binary messages are used) and is closed.
- Only the files in :data:`ASSETS`, ``/table.json`` (the table the page joins: its name, game,
  seats and whether it has a password, :func:`tables_info` — what the LAN announcement tells
  anyone) and ``/ws`` are served (``GET``/``HEAD``); anything else is 404, other methods 405. At most ``max_http`` TCP connections in all (a new one pushes out an
  idle one, never a WebSocket at a table), ``max_http_per_address`` from one address; an HTTP
  connection may send at most 64 KiB before its upgrade, and has 10 seconds to finish a request
  (:mod:`frapnet.net.webguard`).

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
from frapnet.net.webguard import MAX_HTTP_INPUT, MAX_UNREAD, SLACK, Guard, GuardFactory  # noqa: F401 - re-exported
from frapnet.net.webcheck import local_names, origin_allowed, upgrade_problem  # noqa: F401 - re-exported

log = Logger(namespace="frapnet.web")

WS_PATH = b"/ws"
TABLE_PATH = b"/table.json"
ASSETS = {
    b"/": ("index.html", "text/html; charset=utf-8"),
    b"/app.js": ("app.js", "text/javascript; charset=utf-8"),
    b"/app.css": ("app.css", "text/css; charset=utf-8"),
    b"/msgpack.min.js": ("msgpack.min.js", "text/javascript; charset=utf-8"),
    b"/fairness.js": ("fairness.js", "text/javascript; charset=utf-8"),
    b"/words.js": ("words.js", "text/javascript; charset=utf-8"),
    b"/tableview.js": ("tableview.js", "text/javascript; charset=utf-8"),
    b"/msgpack-LICENSE.txt": ("msgpack-LICENSE.txt", "text/plain; charset=utf-8"),
}
"""URL path → (file in frapnet/net/web_assets, content type): everything the endpoint serves
besides the WebSocket."""

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
        self.guard = request.channel.transport if isinstance(request.channel.transport, Guard) else None

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

def tables_info(tables: dict, lang: str, titles: dict | None = None) -> dict:
    """What ``GET /table.json`` answers (issue #10: the join page names the table before you sit
    down): ``{"tables": [{"name", "game", "title", "players", "seats_free", "password"}]}`` —
    ``title`` the game's name in ``lang`` (the view's ``ui.title``), ``seats_free`` as the LAN
    announcement counts them, ``password`` true/false. ``titles``: a cache, (table, lang) → title."""
    from frapnet.engine import present

    titles = {} if titles is None else titles
    out = []
    for t in tables.values():
        key = (t.name, lang)
        if key not in titles:
            try:
                titles[key] = str(present.ui(t.state, None, lang)["title"])
            except Exception:  # noqa: BLE001 - a game plugin's bug: its spec's title
                titles[key] = t.state.spec.title
        out.append({"name": t.name, "game": t.state.game, "title": titles[key], "players": len(t.seats),
                    "seats_free": t.free_seats(), "password": t.password is not None})
    return {"tables": out}


class _Site(resource.Resource):
    """The only resource: the assets by exact path, ``/table.json``, ``/ws`` behind the Origin
    check, else 404."""

    isLeaf = True

    def __init__(self, host_factory, assets: dict, names: set[str]) -> None:
        super().__init__()
        from twisted.web.websocket import WebSocketResource

        self.assets = assets
        self.names = names
        self.host_factory = host_factory
        self.titles: dict = {}
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
        if path == TABLE_PATH:
            import json

            from frapnet.net.protocol import host_lang

            lang = host_lang((request.args.get(b"lang") or [b"en"])[0].decode("ascii", "replace")[:16])
            request.setHeader(b"content-type", b"application/json; charset=utf-8")
            return json.dumps(tables_info(self.host_factory.tables, lang, self.titles)).encode("ascii")
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


def web_factory(host_factory, *, max_http: int = 512, max_http_per_address: int = 32, http_timeout: float = 15.0,
                request_time: float = 10.0, names: set[str] | None = None, reactor=None) -> policies.WrappingFactory:
    """The Twisted server factory of the endpoint (what :func:`listen_web` listens with): the
    page, its assets and the WebSocket for ``host_factory``. ``reactor``: the clock for HTTP
    timeouts (tests pass a ``Clock``). Raises FileNotFoundError if the page's files are missing."""
    kw = {"reactor": reactor} if reactor is not None else {}
    site = server.Site(_Site(host_factory, load_assets(), names if names is not None else local_names()),
                       timeout=http_timeout, **kw)
    site.noisy = False
    site.log = lambda request: None  # no access log lines on the host's terminal
    site.displayTracebacks = False
    return GuardFactory(site, max_http, max_http_per_address, clock=reactor, request_time=request_time)


def listen_web(reactor, host_factory, port: int = 0, interface: str = "0.0.0.0", **kw):
    """Serve the page and the WebSocket on TCP ``port`` of ``interface``; return the listening
    port (``.getHost().port``, ``.stopListening()``). ``host_factory`` builds the protocol for
    each WebSocket (``buildProtocol(addr)`` — the host's factory, whose caps and limits apply).
    Keywords as :func:`web_factory`: ``max_http`` (TCP connections in all, 512),
    ``max_http_per_address`` (32), ``http_timeout`` (seconds an idle HTTP connection is kept, not a
    WebSocket; 15), ``request_time`` (seconds a connection has to finish its request, from its
    start or its last answer, however slowly it sends; 10), ``names`` (host names accepted besides IP addresses; :func:`local_names`).
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


__all__ = ["ASSETS", "TABLE_PATH", "WebSocketStream", "tables_info", "listen_web", "web_factory", "origin_allowed", "lan_address", "web_url", "qr_text",
           "local_names", "load_assets"]
