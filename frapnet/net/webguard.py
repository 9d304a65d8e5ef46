"""The HTTP connections of the browser endpoint (:mod:`frapnet.net.web`; docs/web.md "Security"):
:class:`Guard` wraps each one (a :class:`twisted.protocols.policies.ProtocolWrapper`) and bounds
what it may send and for how long, :class:`GuardFactory` caps how many there are.

- Bytes: before the upgrade :data:`MAX_HTTP_INPUT` in all; after it ``MAX_FRAME`` + :data:`SLACK`
  since the last whole WebSocket message; a WebSocket whose peer stops reading is aborted once
  :data:`MAX_UNREAD` bytes wait for it.
- Time (issue #9, slowloris): a connection not yet upgraded has ``request_time`` seconds (10)
  from its start, and from each answer, to finish a request, however it trickles bytes
  (Twisted's :class:`~twisted.protocols.policies.TimeoutMixin`, never reset by input).
- Count: ``max_http`` in all, ``max_http_per_address`` from one address; at ``max_http`` a new
  connection pushes out the oldest closing one, else the oldest not upgraded one of the address
  with the most, else a WebSocket that has not joined a table — never one at a table.
- Closing: half-close, read and drop until the peer closes (:func:`frapnet.net.sockets.close_after_reading`),
  so a WebSocket's last ``error`` and Close, or an HTTP answer, reach it.
"""
from __future__ import annotations

from twisted.logger import Logger
from twisted.protocols import policies
from twisted.protocols.policies import TimeoutMixin
from wsproto.utilities import LocalProtocolError

from frapnet.net import wire
from frapnet.net.server import LINGER, peer_desc
from frapnet.net.sockets import close_after_reading

log = Logger(namespace="frapnet.web")

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


class Guard(TimeoutMixin, policies.ProtocolWrapper):
    """Wraps each HTTP connection: counts the bytes it sends and refuses too many — before the
    upgrade :data:`MAX_HTTP_INPUT` in all, after it MAX_FRAME + SLACK since the last whole
    WebSocket message (wsproto hands messages over whole, so this is what bounds the buffer).

    Before its upgrade a connection has ``factory.request_time`` seconds from its start, and
    again from each answer it gets (the next request on a kept-alive connection), to finish its
    request; then it is aborted, however it trickles bytes meanwhile (a slowloris restarts the HTTP
    idle timeout with each byte; issue #9). A WebSocket has no such deadline."""

    bridge = None  # the frapnet.net.web bridge once upgraded
    pending = 0
    dead = False
    closing = False
    _linger_call = None

    def connectionMade(self) -> None:
        self.callLater = self.factory.clock.callLater  # TimeoutMixin's clock
        self.setTimeout(self.factory.request_time)

    started = False  # bytes of a request came since the last answer (or since the connection opened)

    def timeoutConnection(self) -> None:
        if self.bridge is not None or self.closing:
            return
        if self.started:  # a request begun and not finished in time (a slowloris): worth a line
            log.info("{peer}: HTTP request not complete in {t}s; aborted", peer=peer_desc(self),
                     t=self.factory.request_time)
        # else an idle connection — a browser's preconnect, or kept alive after its answer — closed quietly
        self.evict()

    def evict(self) -> None:
        """Abort this connection at once (its slot is free from now)."""
        self.dead = True
        self.setTimeout(None)
        self.factory.unregisterProtocol(self)
        self.transport.abortConnection()

    def write(self, data) -> None:
        if self.bridge is None and not self.closing:
            self.setTimeout(self.factory.request_time)  # answered: time for its next request
            self.started = False
        super().write(data)

    def writeSequence(self, seq) -> None:
        if self.bridge is None and not self.closing:
            self.setTimeout(self.factory.request_time)
            self.started = False
        super().writeSequence(seq)

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
        self.setTimeout(None)
        self._linger_call = close_after_reading(self.transport, self.factory.clock, LINGER)

    def connectionLost(self, reason) -> None:
        self.setTimeout(None)
        if self._linger_call is not None and self._linger_call.active():
            self._linger_call.cancel()
        super().connectionLost(reason)

    def upgraded(self, bridge) -> None:
        self.bridge = bridge
        self.pending = 0
        self.setTimeout(None)  # a WebSocket now: the host protocol's own timeouts apply

    def evictable(self) -> int:
        """How readily this connection is pushed out to make room: 0 closing, 1 an HTTP
        connection not upgraded, 2 a WebSocket that has not joined a table, -1 never (a
        WebSocket at a table: a seated player or a spectator)."""
        if self.closing or self.dead:
            return 0
        if self.bridge is None:
            return 1
        proto = self.bridge.proto
        return 2 if proto is None or getattr(proto, "table", None) is None else -1

    def message_done(self) -> None:
        self.pending = 0

    def dataReceived(self, data: bytes) -> None:
        for i in range(0, len(data), _SLICE):
            if self.dead or self.wrappedProtocol is None:  # refused, or closed meanwhile
                return
            chunk = data[i:i + _SLICE]
            self.pending += len(chunk)
            self.started = True
            try:
                self.wrappedProtocol.dataReceived(chunk)
            except LocalProtocolError:  # e.g. a ping after the close, which wsproto cannot answer now
                self.dead = True  # the close is under way: read nothing more of it
                self.transport.loseConnection()
                return
            if self.bridge is None and self.pending > MAX_HTTP_INPUT and not self.dead:
                self.dead = True
                log.info("{peer}: over {n} bytes of HTTP request; aborted", peer=peer_desc(self), n=MAX_HTTP_INPUT)
                self.transport.abortConnection()
            elif self.bridge is not None and self.pending > wire.MAX_FRAME + SLACK and not self.dead:
                self.dead = True  # read nothing more of it; the host protocol says too_large and closes
                self.transport.pauseProducing()
                self.bridge.too_large()
            elif self.bridge is not None and not self.dead and _unread(self.transport) > MAX_UNREAD:
                self.dead = True  # it sends (pings) and does not read the answers (issue #9)
                log.info("{peer}: stopped reading; over {n} bytes of WebSocket answers waiting for it; aborted",
                         peer=peer_desc(self), n=MAX_UNREAD)
                self.transport.abortConnection()


def _unread(transport) -> int:
    """Bytes written to a Twisted TCP transport that the kernel has not taken yet (0 for another
    kind of transport)."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except (AttributeError, TypeError):
        return 0


class GuardFactory(policies.WrappingFactory):
    """Caps HTTP connections: ``max_http`` in all, ``max_http_per_address`` from one address (a
    WebSocket counts too; the host factory's own caps apply to it as well). A connection over
    ``max_http`` pushes one out (issue #9, slowloris): the oldest one closing, else the oldest
    not yet upgraded of the address with the most of those, else the oldest WebSocket that has
    not joined a table; never a WebSocket at a table. With none of those it is refused.
    ``request_time``: seconds a connection has to finish a request (:class:`Guard`)."""

    protocol = Guard
    noisy = False

    def logPrefix(self) -> str:
        return "frapnet-web"  # "frapnet-web starting on 8080": filtered like the TCP port's line

    def __init__(self, site, max_http: int, max_http_per_address: int, clock=None,
                 request_time: float = 10.0) -> None:
        super().__init__(site)
        self.max_http = max_http
        self.max_http_per_address = max_http_per_address
        self.request_time = request_time
        if clock is None:
            from twisted.internet import reactor as clock
        self.clock = clock

    def unregisterProtocol(self, p) -> None:
        self.protocols.pop(p, None)  # a pushed-out connection is forgotten before it is lost

    def _push_out(self) -> bool:
        """Abort one connection to make room (see the class); False if none may go."""
        ranked = [(p.evictable(), p) for p in self.protocols]
        for rank in (0, 1, 2):
            mine = [p for r, p in ranked if r == rank]
            if not mine:
                continue
            if rank == 1:  # the address holding the most
                counts: dict = {}
                for p in mine:
                    counts[p.addr_host] = counts.get(p.addr_host, 0) + 1
                most = max(counts.values())
                mine = [p for p in mine if counts[p.addr_host] == most]
            victim = mine[0]  # self.protocols keeps the order they came in: the oldest
            if not self._pushed_logged:
                log.info("HTTP connections full ({n}): pushing out {a}", n=len(self.protocols), a=peer_desc(victim))
                self._pushed_logged = True
                self.clock.callLater(1.0, setattr, self, "_pushed_logged", False)
            victim.evict()
            return True
        return False

    _pushed_logged = False

    def buildProtocol(self, addr):
        host = getattr(addr, "host", None)
        if sum(1 for p in self.protocols if getattr(p, "addr_host", None) == host) >= self.max_http_per_address:
            log.info("refusing HTTP connection from {a}: too many connections from that address", a=host)
            return None
        while len(self.protocols) >= self.max_http:
            if not self._push_out():
                log.info("refusing HTTP connection from {a}: too many connections", a=host)
                return None
        p = super().buildProtocol(addr)
        p.addr_host = host
        return p
