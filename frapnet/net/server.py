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
from frapnet.net.protocol import CLOSING_CODES, ProtocolError, check_client_message, check_seat, error_message, for_log, \
    name_key
from frapnet.net.seats import seat_with_token
from frapnet.net.sockets import close_after_reading
from frapnet.net.table import Table

log = Logger(namespace="frapnet.host")

LINGER = 2.0
"""Seconds a connection the host closes is given to read the host's last messages and close its
end, while what it still sends is read and dropped (:func:`frapnet.net.sockets.close_after_reading`);
then it is aborted. Issue #9: closing with its input unread made the kernel reset the connection,
and the reset could throw away the ``error`` saying why (a flood)."""
MAX_LINGERING = 64
"""Closing connections (``LINGER``) kept at most; past that the oldest is aborted, so connections
that get themselves closed and never close their end cannot pile up."""


PACED = frozenset(("act", "nonce_hash", "nonce"))
"""Client messages the game paces (an action; a deal's shuffle answers, two per deal): free once
accepted, and never dropped for going over the rate; a refused one counts, and only the hard
limit (the connection closed) stops a flood of them."""


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
    answers_rematch = False  # the hello said it can answer a rematch offer (docs/protocol.md "Rematch")
    LOG_REFUSALS = 20
    """Refused messages logged per connection (the rest are only counted)."""
    _refusals = 0
    _lingering = False  # closed by the host: what the peer still sends is read and dropped
    _abort_call = None

    def connectionMade(self) -> None:
        super().connectionMade()
        self.callLater = self.factory.clock.callLater
        self.setTimeout(self.factory.handshake_timeout)
        self._window = -1.0
        self._count = 0
        self._flood_told = False
        self.peer_desc = peer_desc(self.transport)
        log.info("connection from {peer}", peer=self.peer_desc)

    def timeoutConnection(self) -> None:
        log.info("{peer}: no hello in {t}s; closing", peer=self.peer_desc, t=self.factory.handshake_timeout)
        self.sendMessage(error_message("timeout", f"no hello within {self.factory.handshake_timeout} seconds"))
        self.dropConnection("handshake timeout")

    def frameError(self, err: wire.WireError) -> None:
        if self._closing:
            return
        if err.code == "bad_message":  # a decodable body of a refused shape (nested too deep): ignored
            if not self._flooding():
                log.info("{peer}: bad_message: {msg}", peer=self.peer_desc, msg=for_log(err.message, 300))
                self.sendMessage(error_message(err.code, err.message))
            return
        log.info("{peer}: {code}: {msg}; closing", peer=self.peer_desc, code=err.code, msg=for_log(err.message, 300))
        self.sendMessage(error_message(err.code, err.message))
        self.dropConnection(err.message)

    def _flooding(self, weight: int = 1, soft: bool = True) -> bool:
        """Count a message of ``weight`` in this one-second window; True if it must be dropped:
        over ``4 × rate`` the connection is closed (``flood``); over ``rate`` — unless ``soft`` is
        false (a message the game paces: :data:`PACED`) — it is dropped, with one ``flood`` error
        per window (docs/protocol.md "Session")."""
        now = self.factory.clock.seconds()
        if now - self._window >= 1.0:
            self._window, self._count, self._flood_told = now, 0, False
        self._count += weight
        if self._count > 4 * self.factory.rate:
            log.info("{peer}: flood ({n} messages in a second); closing", peer=self.peer_desc, n=self._count)
            self.sendMessage(error_message("flood", f"more than {4 * self.factory.rate} messages a second; "
                                                    "closing the connection"))
            self.dropConnection("flood")
            return True
        if soft and self._count > self.factory.rate:
            self._tell_flood()
            return True
        return False

    def _tell_flood(self) -> None:
        """The one ``flood`` error of this window: messages are being dropped."""
        if not self._flood_told:
            self._flood_told = True
            self.sendMessage(error_message("flood", f"more than {self.factory.rate} messages a second; "
                                                    "messages are being dropped"))

    def messageReceived(self, raw: dict) -> None:
        # An accepted action or shuffle answer costs nothing, and those are never dropped for
        # the rate (the game itself paces them: a fast computer player must never be throttled,
        # nor lose a move or a deal's nonce to a burst of pings); a chat line, broadcast to
        # everyone, costs 5.
        kind = raw.get("type")
        paced = kind in PACED
        if self._flooding(5 if kind in ("chat", "lang") else 1, soft=not paced):  # lang: a view built
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
                if paced:
                    self._count -= 1  # a shuffle answer taken (a refused one raised): refund
        except ProtocolError as exc:
            self._log_refusal(kind, exc)
            if paced and self._count > self.factory.rate and not exc.fatal:
                self._tell_flood()  # a refused act or shuffle answer over the rate: unanswered, as others are
                return
            self.sendMessage(exc.to_message())
            if exc.fatal:
                self.dropConnection(exc.message)
        except Exception:  # noqa: BLE001 - never let one message crash the host
            log.failure("{peer}: internal error handling {kind}", peer=self.peer_desc, kind=for_log(kind, 40))
            self.sendMessage(error_message("internal", "the host failed to handle that message"))

    def _log_refusal(self, kind, exc: ProtocolError) -> None:
        """One log line per refused message — the client's words escaped and cut
        (:func:`frapnet.net.protocol.for_log`), and at most :attr:`LOG_REFUSALS` lines per
        connection, so a hostile client can neither write to the operator's terminal nor flood it."""
        self._refusals += 1
        if self._refusals > self.LOG_REFUSALS:
            return
        log.info("{peer} ({who}): refused {kind}: {code} {rule}{msg}{more}", peer=self.peer_desc, who=self.who(),
                 kind=for_log(kind, 40), code=exc.code, rule=f"[{exc.rule}] " if exc.rule else "",
                 msg=for_log(exc.message, 300),
                 more="; further refusals on this connection are not logged" if self._refusals == self.LOG_REFUSALS
                 else "")

    def _abort_if_open(self) -> None:
        if self.transport is not None and getattr(self.transport, "connected", False):
            self.transport.abortConnection()

    def dataReceived(self, data: bytes) -> None:
        if self._lingering:
            return  # the host is closing this connection: read and dropped (dropConnection)
        super().dataReceived(data)

    def dropConnection(self, reason: str = "") -> None:
        """Close after what is already written, so that it reaches the peer: half-close, read and
        drop whatever the peer still sends until it closes its end, abort after :data:`LINGER`
        seconds (:func:`frapnet.net.sockets.close_after_reading`)."""
        if self._lingering or self.transport is None:
            return
        self._closing = self._lingering = True
        self._flush_all()
        self._unprocessed = b""  # a partial frame read before: never completed now
        self.factory.closing(self)
        self._abort_call = close_after_reading(self.transport, self.factory.clock, LINGER)

    def _dispatch(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "ping":
            self.sendMessage({"type": "pong", "id": msg.get("id")})
            return
        if self.table is None:
            if kind != "hello":
                raise ProtocolError("not_joined", f"send hello first (got {kind})")
            table = self.factory.table_for(msg.get("table"))
            if table.password is not None and seat_with_token(table.seats, msg.get("token")) is None:
                held = self.factory.password_held(self.addr_host, msg["name"], table)
                if held:
                    raise ProtocolError("password", held, fatal=True)
            self.name = msg["name"]
            self.answers_rematch = msg["rematch"]  # it can show a rematch offer (docs/protocol.md)
            self.table = table
            try:
                if seat_with_token(table.seats, msg.get("token")) is None:  # with its token, seat is ignored
                    check_seat(msg.get("seat"), len(table.seats))
                self.seat = table.join(self, msg)
            except ProtocolError as exc:
                self.table = None
                if exc.code == "password":
                    self.factory.password_failed(self.addr_host, msg["name"], table)
                raise
            self.factory.joined(self)
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
        elif kind in ("nonce_hash", "nonce"):
            self.table.dealing.answer(self, msg)
        elif kind == "lang":  # its texts in another language from now on, and a view in it now
            self.lang = msg["lang"]
            self.send({"type": "view", "view": self.table.view_for(self.seat, self.lang)})

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
        """Send one message map to this client (queued while it does not read); after a
        ``closing``, nothing more: the connection closes (docs/protocol.md "Session": the last
        message is always the one saying why)."""
        self.sendMessage(msg)
        if msg.get("type") == "closing":
            self.dropConnection("closing")

    def send_frame(self, kind: str, data: bytes) -> None:
        """Send one already encoded message of type ``kind`` (the same bytes go to many peers);
        a ``closing`` closes the connection after it, as :meth:`send`."""
        self.sendFrame(kind, data)
        if kind == "closing":
            self.dropConnection("closing")

    send_frames = wire.FramedProtocol.sendFrames
    """Send a change's encoded messages ``[(kind, data), …]`` in order, in one write
    (:meth:`frapnet.net.wire.FramedProtocol.sendFrames`)."""

    def close(self, reason: str) -> None:
        """Tell the client why (``closing``, with its ``code`` where the reason has one:
        :data:`frapnet.net.protocol.CLOSING_CODES`), then close after what is already written."""
        msg = {"type": "closing", "reason": reason, "result": None}
        code = CLOSING_CODES.get(reason)
        if code is not None:
            msg["code"] = code
        self.sendMessage(msg)
        self.dropConnection(reason)

    def connectionLost(self, reason=None) -> None:
        self.setTimeout(None)
        call = getattr(self, "_abort_call", None)
        if call is not None and call.active():
            call.cancel()
        super().connectionLost(reason)
        self.factory.forget(self)
        if self.overflowed:
            log.info("{peer}: stopped reading; outbound queue over {n} bytes, aborted", peer=self.peer_desc,
                     n=self.max_queued)
        log.info("{peer} ({who}) disconnected", peer=getattr(self, "peer_desc", "?"), who=self.who())
        if self.table is not None:
            self.table.lost(self)



def peer_desc(transport) -> str:
    """``"host:port"`` of ``transport``'s peer (anything with ``getPeer()``), for log lines; ``"?"``."""
    try:
        a = transport.getPeer()
        return f"{a.host}:{a.port}"
    except Exception:  # noqa: BLE001
        return "?"


class _BusyProtocol(wire.FramedProtocol):
    """Says ``busy`` and closes — so that the word reaches the peer (which has often sent its
    hello already), reading and dropping its input until it closes, as HostProtocol does, while
    fewer than :data:`MAX_LINGERING` of them do (past that, a plain close)."""

    _abort_call = None

    def connectionMade(self) -> None:
        super().connectionMade()
        self.sendMessage(error_message("busy", "the host has too many connections; try later"))
        self._closing = True
        self._flush_all()
        if self.factory.busy_lingering < MAX_LINGERING:
            self.factory.busy_lingering += 1
            self._abort_call = close_after_reading(self.transport, self.factory.clock, LINGER)
            self._counted = True
        else:
            self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        pass  # read and dropped

    def messageReceived(self, msg: dict) -> None:
        pass

    def connectionLost(self, reason=None) -> None:
        super().connectionLost(reason)
        if self._abort_call is not None and self._abort_call.active():
            self._abort_call.cancel()
        if getattr(self, "_counted", False):
            self._counted = False
            self.factory.busy_lingering -= 1


PASSWORD_WINDOW = 60.0
"""Seconds over which wrong passwords are counted (per address and name, and per table)."""


class HostFactory(tprotocol.ServerFactory):
    """Accepts connections for ``tables`` (name → Table). ``clock``: the reactor (time).

    Limits (docs/protocol.md "Session"), each answered with ``error`` and a close:

    - ``max_connections`` (default 256) in all, ``max_pending`` (default 64) of them before their
      hello, ``max_pending_per_address`` (default 16) before their hello from one address. A
      connection over the per-address limit gets ``busy``; one over the other two pushes out the
      oldest connection still waiting for its hello from the address with the most of them
      (``busy``) — so silent connections from any number of addresses can never keep a player,
      or a seated player coming back with a token, from reaching the table; with no connection
      waiting, the new one gets ``busy``.
    - ``handshake_timeout`` (seconds, default 10) for the hello; ``rate`` (messages per second per
      connection, default 50).
    - Wrong passwords (issue #9): after ``password_tries`` (5) in a minute from one address under
      one name, that name from that address gets ``password`` at once, right or wrong, until the
      minute has passed (others behind the same address — a NAT'd group — still join); after
      ``table_password_tries`` (20) in a minute at one table, from anywhere, every password for
      it is refused unchecked until the minute has passed — except a hello carrying a seat
      token of that table (a player coming back).
    """

    protocol = HostProtocol
    noisy = False

    def __init__(self, tables: dict[str, Table], clock, max_connections: int = 256,
                 handshake_timeout: float = 10.0, rate: int = 50, max_pending_per_address: int = 16,
                 max_pending: int = 64, password_tries: int = 5, table_password_tries: int = 20) -> None:
        self.tables = tables
        self.clock = clock
        self.max_connections = max_connections
        self.handshake_timeout = handshake_timeout
        self.rate = rate
        self.max_pending_per_address = max_pending_per_address
        self.max_pending = max_pending
        self.password_tries = password_tries
        self.table_password_tries = table_password_tries
        self._password_failures: dict = {}  # (address, name key) -> times of its recent wrong passwords
        self._table_failures: dict = {}  # table name -> times of its recent wrong passwords
        self.connections: set = set()
        self.pending: dict = {}  # connections before their hello, oldest first (a dict keeps order)
        self.lingering: dict = {}  # connections the host is closing (LINGER), oldest first
        self.busy_lingering = 0  # `busy` connections closing the same way
        self._busy_logged = False

    # --- passwords -------------------------------------------------------------------------
    def _recent(self, book: dict, key) -> list:
        now = self.clock.seconds()
        times = [t for t in book.get(key, ()) if now - t < PASSWORD_WINDOW]
        if times:
            book[key] = times
        else:
            book.pop(key, None)
        return times

    def password_failed(self, host, name: str, table: Table) -> None:
        """Note a wrong password from address ``host`` under player name ``name`` at ``table``."""
        now = self.clock.seconds()
        self._password_failures.setdefault((host, name_key(name)), []).append(now)
        self._table_failures.setdefault(table.name, []).append(now)

    def password_held(self, host, name: str, table: Table) -> str | None:
        """Why a password from ``host`` under ``name`` for ``table`` is not checked now, or None
        (it is checked): the address and name, or the table, had too many wrong ones lately."""
        if len(self._recent(self._password_failures, (host, name_key(name)))) >= self.password_tries:
            return (f"{self.password_tries} wrong passwords from this address under this name in the last minute; "
                    "try again in a minute")
        times = self._recent(self._table_failures, table.name)
        if len(times) >= self.table_password_tries:
            wait = max(1, int(PASSWORD_WINDOW - (self.clock.seconds() - times[-self.table_password_tries]) + 0.999))
            return (f"{len(times)} wrong passwords at table {table.name!r} in the last minute; password "
                    f"checks are paused: try again in {wait} s")
        return None

    def password_locked(self, host, name: str = "", table: Table | None = None) -> bool:
        """True while a password from ``host`` (under ``name``, for ``table``) is not checked."""
        if table is None:
            return len(self._recent(self._password_failures, (host, name_key(name)))) >= self.password_tries
        return self.password_held(host, name, table) is not None

    # --- connections ------------------------------------------------------------------------
    def table_for(self, name: str | None) -> Table:
        if name is None:
            if len(self.tables) == 1:
                return next(iter(self.tables.values()))
            raise ProtocolError("no_table", "this host has several tables; name one (hello.table): "
                                + ", ".join(self.tables), fatal=True)
        t = self.tables.get(name)
        if t is None:
            raise ProtocolError("no_table", f"no table {for_log(name, 64)!r} here (tables: {', '.join(self.tables)})",
                                fatal=True)
        return t

    def joined(self, p: HostProtocol) -> None:
        """``p`` has said its hello and joined a table: it no longer waits."""
        self.pending.pop(p, None)

    def forget(self, p: HostProtocol) -> None:
        """``p``'s connection is gone."""
        self.connections.discard(p)
        self.pending.pop(p, None)
        self.lingering.pop(p, None)

    def closing(self, p: HostProtocol) -> None:
        """The host is closing ``p`` (:meth:`HostProtocol.dropConnection`): it waits for nothing
        now, and it no longer counts against ``max_connections``; past :data:`MAX_LINGERING`
        such connections the oldest is aborted."""
        self.pending.pop(p, None)
        if p in self.connections:
            self.lingering[p] = None
        while len(self.lingering) > MAX_LINGERING:
            victim = next(iter(self.lingering))
            self.forget(victim)
            victim._abort_if_open()

    def _push_out(self) -> bool:
        """Close the oldest connection still waiting for its hello from the address with the
        most of them (``busy``), to make room; False if none waits."""
        if not self.pending:
            return False
        counts: dict = {}
        for c in self.pending:
            counts[c.addr_host] = counts.get(c.addr_host, 0) + 1
        most = max(counts.values())
        victim = next(c for c in self.pending if counts[c.addr_host] == most)  # oldest first
        self.pending.pop(victim)
        victim.sendMessage(error_message("busy", "too many connections are waiting for their hello; try again"))
        victim.dropConnection("pushed out")
        return True

    def _busy(self, addr, pending: int):
        if not self._busy_logged:  # once per burst, not once per refused connection
            log.warn("refusing {addr}: {n} connections already ({m} from that address before hello)",
                     addr=addr, n=len(self.connections), m=pending)
            self._busy_logged = True
            self.clock.callLater(1.0, setattr, self, "_busy_logged", False)
        p = _BusyProtocol()
        p.factory = self
        return p

    def buildProtocol(self, addr):
        host = getattr(addr, "host", None)
        mine = sum(1 for c in self.pending if c.addr_host == host)
        if mine >= self.max_pending_per_address:
            return self._busy(addr, mine)
        while len(self.connections) - len(self.lingering) >= self.max_connections or \
                len(self.pending) >= self.max_pending:
            if not self._push_out():
                return self._busy(addr, mine)
        p = self.protocol()
        p.factory = self
        p.addr_host = host
        self.connections.add(p)
        self.pending[p] = None
        return p
