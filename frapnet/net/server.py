"""The Twisted side of the host (issue #3): one :class:`HostProtocol` per connection — framing
and decoding (:mod:`frapnet.net.wire`), message validation (:mod:`frapnet.net.protocol`),
handshake timeout, flood limiting, bounded outbound buffer — and the :class:`HostFactory` that
accepts connections for a host's tables (connection limits, password lockout). Each connection
is a *peer* of its :class:`frapnet.net.table.Table` (``send``, ``send_frame``, ``close``,
``lang``, ``seat``).
"""
from __future__ import annotations

from twisted.internet import protocol as tprotocol
from twisted.logger import Logger
from twisted.protocols.policies import TimeoutMixin

from frapnet.net import wire
from frapnet.net.protocol import ProtocolError, check_client_message, error_message
from frapnet.net.table import Table

log = Logger(namespace="frapnet.host")


class HostProtocol(wire.FramedProtocol, TimeoutMixin):
    """One client connection to the host (a seat, a spectator, or not yet joined).

    Before ``welcome`` only ``hello`` and ``ping`` are accepted; a silent connection is closed
    after ``factory.handshake_timeout`` seconds. More than ``factory.rate`` messages in a
    second (accepted actions not counted, a chat line counting 5) are dropped (one ``flood``
    error per second); more than four times that closes the connection. Every refused message gets an ``error``; fatal ones then close the connection.
    """

    seat: int | None = None
    table: Table | None = None
    addr_host = None
    lang = "en"
    name = ""
    joined_seat: int | None = None  # the seat this connection took at its hello (None: spectator)

    def connectionMade(self) -> None:
        super().connectionMade()
        self.callLater = self.factory.clock.callLater
        self.setTimeout(self.factory.handshake_timeout)
        self._window = -1.0
        self._count = 0
        self._flood_told = False
        self.peer_desc = _peer_desc(self.transport)
        log.info("connection from {peer}", peer=self.peer_desc)

    def timeoutConnection(self) -> None:
        log.info("{peer}: no hello in {t}s; closing", peer=self.peer_desc, t=self.factory.handshake_timeout)
        self.sendMessage(error_message("timeout", f"no hello within {self.factory.handshake_timeout} seconds"))
        self.dropConnection("handshake timeout")

    def frameError(self, err: wire.WireError) -> None:
        if self._closing:
            return
        log.info("{peer}: {code}: {msg}; closing", peer=self.peer_desc, code=err.code, msg=err.message)
        self.sendMessage(error_message(err.code, err.message))
        self.dropConnection(err.message)

    def _flooding(self, weight: int = 1) -> bool:
        now = self.factory.clock.seconds()
        if now - self._window >= 1.0:
            self._window, self._count, self._flood_told = now, 0, False
        self._count += weight
        if self._count > 4 * self.factory.rate:
            log.info("{peer}: flood ({n} messages in a second); closing", peer=self.peer_desc, n=self._count)
            self.sendMessage(error_message("flood", f"more than {4 * self.factory.rate} messages a second; "
                                                    "closing the connection"))
            self._closing = True
            self.transport.pauseProducing()  # read nothing more from it
            self.transport.loseConnection()
            # a peer that does not read either cannot hold the connection open
            self._abort_call = self.factory.clock.callLater(5.0, self._abort_if_open)
            return True
        if self._count > self.factory.rate:
            if not self._flood_told:
                self._flood_told = True
                self.sendMessage(error_message("flood", f"more than {self.factory.rate} messages a second; "
                                                        "messages are being dropped"))
            return True
        return False

    def messageReceived(self, raw: dict) -> None:
        # An accepted action costs nothing (the game itself paces those: a fast computer player
        # must never be throttled); a chat line, broadcast to everyone, costs 5.
        kind = raw.get("type")
        if self._flooding(5 if kind == "chat" else 1):
            return
        try:
            msg = check_client_message(raw)
            if kind == "act":
                version = self.table.state.version if self.table is not None else None
                self._dispatch(msg)
                if self.table is not None and self.table.state.version != version:
                    self._count -= 1  # accepted: refund
            else:
                self._dispatch(msg)
        except ProtocolError as exc:
            log.info("{peer} ({who}): refused {kind}: {code} {rule}{msg}", peer=self.peer_desc, who=self.who(),
                     kind=raw.get("type"), code=exc.code, rule=f"[{exc.rule}] " if exc.rule else "", msg=exc.message)
            self.sendMessage(exc.to_message())
            if exc.fatal:
                self.dropConnection(exc.message)
        except Exception:  # noqa: BLE001 - never let one message crash the host
            log.failure("{peer}: internal error handling {kind}", peer=self.peer_desc, kind=raw.get("type"))
            self.sendMessage(error_message("internal", "the host failed to handle that message"))

    def _abort_if_open(self) -> None:
        if self.transport is not None and getattr(self.transport, "connected", False):
            self.transport.abortConnection()

    def _dispatch(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "ping":
            self.sendMessage({"type": "pong", "id": msg.get("id")})
            return
        if self.table is None:
            if kind != "hello":
                raise ProtocolError("not_joined", f"send hello first (got {kind})")
            table = self.factory.table_for(msg.get("table"))
            if table.password is not None and self.factory.password_locked(self.addr_host):
                raise ProtocolError("password", f"more than {self.factory.password_tries} wrong passwords from "
                                                f"this address; try again in a minute", fatal=True)
            self.name = msg["name"]
            self.table = table
            try:
                self.seat = table.join(self, msg)
            except ProtocolError as exc:
                self.table = None
                if exc.code == "password":
                    self.factory.password_failed(self.addr_host)
                raise
            self.joined_seat = self.seat
            self.setTimeout(None)
            return
        if kind == "hello":
            raise ProtocolError("already_joined", "this connection has already joined")
        if kind == "act":
            self.table.act(self, msg)
        elif kind == "chat":
            self.table.chat(self, msg["text"])
        elif kind == "leave":
            self.table.leave(self)
        elif kind == "rematch":
            self.table.rematch_answer(self, msg["accept"])

    def who(self) -> str:
        """This connection in a log line: ``"seat 2"``, ``"spectator"``, ``"left seat 2"`` (it
        gave its seat up, or another connection took it back), or ``"connection before hello"``."""
        if self.table is None:
            return "connection before hello"
        if self.seat is not None:
            return f"seat {self.seat}"
        if self.joined_seat is None:
            return "spectator"
        return f"left seat {self.joined_seat}"

    # the peer interface used by Table
    def send(self, msg: dict) -> None:
        """Send one message map to this client (queued while it does not read)."""
        self.sendMessage(msg)

    def send_frame(self, kind: str, data: bytes) -> None:
        """Send one already encoded message of type ``kind`` (the same bytes go to many peers)."""
        self.sendFrame(kind, data)

    def close(self, reason: str) -> None:
        """Tell the client why (``closing``), then close after what is already written."""
        self.sendMessage({"type": "closing", "reason": reason, "result": None})
        self.dropConnection(reason)

    def connectionLost(self, reason=None) -> None:
        self.setTimeout(None)
        call = getattr(self, "_abort_call", None)
        if call is not None and call.active():
            call.cancel()
        super().connectionLost(reason)
        self.factory.connections.discard(self)
        if self.overflowed:
            log.info("{peer}: stopped reading; outbound queue over {n} bytes, aborted", peer=self.peer_desc,
                     n=self.max_queued)
        log.info("{peer} ({who}) disconnected", peer=getattr(self, "peer_desc", "?"), who=self.who())
        if self.table is not None:
            self.table.lost(self)



def _peer_desc(transport) -> str:
    try:
        a = transport.getPeer()
        return f"{a.host}:{a.port}"
    except Exception:  # noqa: BLE001
        return "?"


class _BusyProtocol(wire.FramedProtocol):
    def connectionMade(self) -> None:
        super().connectionMade()
        self.sendMessage(error_message("busy", "the host has too many connections; try later"))
        self.dropConnection("busy")

    def messageReceived(self, msg: dict) -> None:
        pass


class HostFactory(tprotocol.ServerFactory):
    """Accepts connections for ``tables`` (name → Table). ``clock``: the reactor (time);
    ``max_connections`` (default 256), ``handshake_timeout`` (seconds, default 10), ``rate``
    (messages per second per connection, default 50), ``max_pending_per_address`` (connections
    from one address that have not yet sent their hello, default 16: one machine opening
    hundreds of silent connections cannot take every slot). Over a limit a connection gets
    ``error`` ``busy`` and is closed. After ``password_tries`` (5) wrong passwords in a minute
    an address gets ``password`` at once, right or wrong, until that minute has passed."""

    protocol = HostProtocol
    noisy = False

    def __init__(self, tables: dict[str, Table], clock, max_connections: int = 256,
                 handshake_timeout: float = 10.0, rate: int = 50, max_pending_per_address: int = 16) -> None:
        self.tables = tables
        self.clock = clock
        self.max_connections = max_connections
        self.handshake_timeout = handshake_timeout
        self.rate = rate
        self.max_pending_per_address = max_pending_per_address
        self.password_tries = 5
        self._password_failures: dict = {}  # address -> times of its recent wrong passwords
        self.connections: set = set()
        self._busy_logged = False

    def password_failed(self, host) -> None:
        """Note a wrong password from address ``host``."""
        self._password_failures.setdefault(host, []).append(self.clock.seconds())

    def password_locked(self, host) -> bool:
        """True while ``host`` has given more than ``password_tries`` wrong passwords in the
        last 60 seconds (guessing a table's password costs a minute per few tries)."""
        now = self.clock.seconds()
        times = [t for t in self._password_failures.get(host, ()) if now - t < 60.0]
        if times:
            self._password_failures[host] = times
        else:
            self._password_failures.pop(host, None)
        return len(times) >= self.password_tries

    def table_for(self, name: str | None) -> Table:
        if name is None:
            if len(self.tables) == 1:
                return next(iter(self.tables.values()))
            raise ProtocolError("no_table", "this host has several tables; name one (hello.table): "
                                + ", ".join(self.tables), fatal=True)
        t = self.tables.get(name)
        if t is None:
            raise ProtocolError("no_table", f"no table {name!r} here (tables: {', '.join(self.tables)})", fatal=True)
        return t

    def buildProtocol(self, addr):
        host = getattr(addr, "host", None)
        pending = sum(1 for c in self.connections if c.table is None and c.addr_host == host)
        if len(self.connections) >= self.max_connections or pending >= self.max_pending_per_address:
            if not self._busy_logged:  # once per burst, not once per refused connection
                log.warn("refusing {addr}: {n} connections already ({m} from that address before hello)",
                         addr=addr, n=len(self.connections), m=pending)
                self._busy_logged = True
                self.clock.callLater(1.0, setattr, self, "_busy_logged", False)
            p = _BusyProtocol()
            p.factory = self
            return p
        p = self.protocol()
        p.factory = self
        p.addr_host = host
        self.connections.add(p)
        return p
