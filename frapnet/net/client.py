"""TableClient: the client side of the table protocol (/work/notes/client-contract.md).

Used by the terminal client, the computer players and tests; runs on whatever Twisted reactor
is installed (the TUI: asyncio)::

    from frapnet.net.client import TableClient
    c = TableClient("127.0.0.1", 7777, name="Olga", password=None, token=None, spectate=False,
                    lang="en", reconnect=True, reactor=None)
    c.on_welcome = lambda info: ...   # the welcome message (dict)
    c.on_view    = lambda view: ...   # engine view + names, connection, table
    c.on_event   = lambda event: ...  # a public engine event + "text"
    c.on_chat    = lambda msg: ...    # {"seat", "name", "text"}
    c.on_error   = lambda err: ...    # {"code", "message", "rule"}
    c.on_status  = lambda status: ... # "connecting" | "connected" | "reconnecting" | "closed"
    c.on_closing = lambda msg: ...    # the host's closing message {"reason", "result"} (match over…)
    c.on_fairness = lambda verdict: ... # a deal checked after its reveal (frapnet.net.dealcheck.Verdict)
    c.on_rematch = lambda msg: ...    # rematch_offer {"result", "seconds", "waiting", "match"} / rematch_start
                                      # (set before connect: the hello then says the client answers offers)
    d = c.connect()                   # Deferred: the welcome info, or JoinError
    c.act(["play", "10H"]); c.chat("hi"); c.leave(); c.rematch(True)

On a dropped connection (reconnect=True, after a welcome) it retries with the seat token,
backing off 0.1 s, 0.2 s, 0.4 s … up to 5 s between tries, for ``reconnect_for`` seconds
(default 600); the host answers with a full sync (welcome + view). It does not retry after a
``closing`` message, a fatal handshake error (wrong password, seat taken…), ``leave()`` or
``close()``.

Fair deals (docs/fairness.md): the client answers the host's ``shuffle_commit`` and
``shuffle_hashes`` with its own ``nonce_hash`` and ``nonce`` by itself, notes every card it is
shown, and checks each deal on ``shuffle_reveal`` (:class:`frapnet.net.dealcheck.DealChecker`,
attribute ``checker``); ``on_fairness`` gets the verdict — ✓, or a mismatch naming the deal.
"""
from __future__ import annotations

from typing import Any, Callable

from twisted.internet import defer, error, protocol as tprotocol
from twisted.logger import Logger

from frapnet.net import wire
from frapnet.net.dealcheck import DealChecker
from frapnet.net.protocol import PROTOCOL_VERSION, closing_code

log = Logger(namespace="frapnet.client")

FATAL_CODES = frozenset(("version", "password", "bad_name", "no_table", "table_full", "seat_taken", "bad_token",
                         "timeout", "busy", "malformed", "too_large", "bad_message"))


WELCOME_TIMEOUT = 15.0
"""Seconds a connection waits for the host's ``welcome`` after its ``hello`` (a host gives a
client 10 s to say hello): past it, a first join fails with ``twisted.internet.error.TimeoutError``
("the host did not answer in time") — the port is not a frapnet table's, or the host hangs —
and a reconnect is tried again."""


class JoinError(Exception):
    """The host refused to seat us: ``code`` and ``message`` as in the error message."""

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message
        super().__init__(f"{code}: {message}")


class _ClientProtocol(wire.FramedProtocol):
    def connectionMade(self) -> None:
        super().connectionMade()
        self.client._connected(self)

    def messageReceived(self, msg: dict) -> None:
        self.client._message(self, msg)

    def frameError(self, err: wire.WireError) -> None:
        log.warn("bad frame from the host: {msg}", msg=err.message)
        self.dropConnection(err.message)

    def connectionLost(self, reason=None) -> None:
        super().connectionLost(reason)
        self.client._lost(self, reason)


class _Factory(tprotocol.ClientFactory):
    noisy = False

    def __init__(self, client: "TableClient") -> None:
        self.client = client

    def buildProtocol(self, addr):
        p = _ClientProtocol()
        p.factory = self
        p.client = self.client
        return p

    def clientConnectionFailed(self, connector, reason) -> None:
        self.client._failed(reason)


class TableClient:
    """A connection to one table at ``host``:``port`` under ``name``.

    Keyword arguments: ``password``, ``token`` (reclaim a seat), ``spectate`` (watch only),
    ``lang`` (labels and event texts in this language), ``reconnect`` (retry with the token
    after a drop), ``seat`` (ask for a particular seat), ``bot`` (shown as a computer player),
    ``table`` (a table name, for hosts with several), ``reactor``, ``reconnect_for`` (seconds),
    ``nonce_source`` (``deal -> 32 bytes``: this client's shuffle nonces; default random).
    Attributes: ``seat`` (int or None), ``token``, ``view`` (last view), ``welcome``,
    ``status``, ``closing`` (the host's closing message, if any), ``errors`` (count),
    ``checker`` (the DealChecker; ``checker.verdicts`` lists every deal checked).
    """

    def __init__(self, host: str, port: int, name: str, *, password: str | None = None, token: str | None = None,
                 spectate: bool = False, lang: str = "en", reconnect: bool = True, reactor=None,
                 seat: int | None = None, bot: bool = False, table: str | None = None,
                 reconnect_for: float = 600.0, nonce_source=None) -> None:
        if reactor is None:
            from twisted.internet import reactor  # noqa: F811 - imported late on purpose (stack-notes.md)
        self.reactor = reactor
        self.host, self.port, self.name = host, int(port), name
        self.password, self.token, self.spectate, self.lang = password, token, spectate, lang
        self.reconnect, self.want_seat, self.bot, self.table = reconnect, seat, bot, table
        self.reconnect_for = reconnect_for
        self.seat: int | None = None
        self.view: dict | None = None
        self.welcome: dict | None = None
        self.closing: dict | None = None
        self.status = "closed"
        self.errors = 0
        self.on_welcome: Callable[[dict], Any] | None = None
        self.on_view: Callable[[dict], Any] | None = None
        self.on_event: Callable[[dict], Any] | None = None
        self.on_chat: Callable[[dict], Any] | None = None
        self.on_error: Callable[[dict], Any] | None = None
        self.on_status: Callable[[str], Any] | None = None
        self.on_closing: Callable[[dict], Any] | None = None
        self.on_fairness: Callable[[Any], Any] | None = None
        self.on_rematch: Callable[[dict], Any] | None = None
        self.answers_rematch: bool | None = None  # hello "rematch": None → whether on_rematch is set
        self.checker = DealChecker(nonce_source, on_verdict=self._fair)
        self._proto: _ClientProtocol | None = None
        self._connect_d: defer.Deferred | None = None
        self._done = False          # no more reconnecting
        self._delay = 0.1
        self._retry_call = None
        self._lost_at: float | None = None
        self._connector = None
        self._handshaking = False
        self._hello_timer = None
        self._user_closed = False

    # --- public ------------------------------------------------------------------------------
    def connect(self) -> defer.Deferred:
        """Connect and join; the Deferred fires with the welcome info or fails with JoinError
        (refused) or the connection error."""
        self._done = False
        self._user_closed = False
        self._connect_d = defer.Deferred()
        self._set_status("connecting")
        self._dial()
        return self._connect_d

    def act(self, action) -> None:
        """Send ``action`` (``[verb, arg?]``) made against the last view's state version."""
        version = self.view["version"] if self.view else 0
        self._send({"type": "act", "action": list(action), "version": version})

    def chat(self, text: str) -> None:
        self._send({"type": "chat", "text": str(text)})

    def ping(self, ident: Any = None) -> None:
        self._send({"type": "ping", "id": ident})

    def rematch(self, accept: bool = True) -> None:
        """Answer the host's rematch offer (docs/protocol.md "Rematch"): play again with the same
        seats, or not (then the table closes)."""
        self._send({"type": "rematch", "accept": bool(accept)})

    def leave(self) -> None:
        """Leave the table for good (a computer takes the seat mid-match); no reconnect."""
        self._done = True
        self._send({"type": "leave"})

    def close(self) -> None:
        """Drop the connection without leaving (the seat waits for its grace period); no reconnect."""
        self._done = True
        self._user_closed = True
        self._cancel_retry()
        if self._proto is not None and self._proto.transport is not None:
            self._proto.transport.loseConnection()
        else:
            if self._connector is not None and getattr(self._connector, "state", None) == "connecting":
                self._connector.stopConnecting()
            if self.status != "closed":
                self._set_status("closed")

    def drop(self) -> None:
        """Cut the connection abruptly as a network failure would (reconnects if enabled)."""
        if self._proto is not None and self._proto.transport is not None:
            self._proto.transport.abortConnection()

    # --- internals ---------------------------------------------------------------------------
    def _dial(self) -> None:
        self._retry_call = None
        self._connector = self.reactor.connectTCP(self.host, self.port, _Factory(self), timeout=10)

    def _send(self, msg: dict) -> None:
        if self._proto is not None:
            self._proto.sendMessage(msg)

    def _set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            if self.on_status is not None:
                self.on_status(status)

    def _connected(self, proto: _ClientProtocol) -> None:
        if self._user_closed:  # close() was called while connecting
            proto.transport.loseConnection()
            return
        self._proto = proto
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name, "lang": self.lang,
                 "spectate": self.spectate}
        if self.password is not None:
            hello["password"] = self.password
        if self.token:
            hello["token"] = self.token
        elif self.want_seat is not None:
            hello["seat"] = self.want_seat
        if self.bot:
            hello["bot"] = True
        if self.table is not None:
            hello["table"] = self.table
        answers = self.on_rematch is not None if self.answers_rematch is None else self.answers_rematch
        if answers:  # this client shows a rematch offer to its player and answers it
            hello["rematch"] = True
        self._handshaking = True
        proto.sendMessage(hello)
        self._cancel_hello_timer()
        self._hello_timer = self.reactor.callLater(WELCOME_TIMEOUT, self._no_welcome, proto)

    def _no_welcome(self, proto) -> None:
        """No ``welcome`` :data:`WELCOME_TIMEOUT` seconds after the ``hello``: a first join fails
        (TimeoutError), a reconnect drops this connection and tries again."""
        self._hello_timer = None
        if proto is not self._proto or not self._handshaking:
            return
        if self.welcome is None:
            self._done = True
            d, self._connect_d = self._connect_d, None
            if d is not None:
                d.errback(error.TimeoutError(string=f"no welcome within {WELCOME_TIMEOUT:g} s"))
        if proto.transport is not None:
            proto.transport.abortConnection()

    def _cancel_hello_timer(self) -> None:
        timer, self._hello_timer = self._hello_timer, None
        if timer is not None and timer.active():
            timer.cancel()

    def _message(self, proto, msg: dict) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            self.welcome = msg
            self._handshaking = False
            self._cancel_hello_timer()
            self.seat = msg.get("seat")
            if msg.get("token"):
                self.token = msg["token"]
            self._delay = 0.1
            self._lost_at = None
            self._set_status("connected")
            self.checker.welcome(msg)
            if self.on_welcome is not None:
                self.on_welcome(msg)
            d, self._connect_d = self._connect_d, None
            if d is not None:
                d.callback(msg)
        elif kind == "view":
            self.view = msg.get("view")
            if isinstance(self.view, dict):
                self.checker.view(self.view)
            if self.on_view is not None:
                self.on_view(self.view)
        elif kind == "event":
            if isinstance(msg.get("event"), dict):
                self.checker.event(msg["event"])
            if self.on_event is not None:
                self.on_event(msg.get("event"))
        elif kind == "chat":
            if self.on_chat is not None:
                self.on_chat({"seat": msg.get("seat"), "name": msg.get("name"), "text": msg.get("text")})
        elif kind == "error":
            self.errors += 1
            err = {"code": msg.get("code"), "message": msg.get("message"), "rule": msg.get("rule")}
            if self._handshaking and err["code"] in FATAL_CODES:
                self._done = True  # refused: do not retry
                d, self._connect_d = self._connect_d, None
                if d is not None:
                    d.errback(JoinError(err["code"], err["message"]))
                if proto.transport is not None:
                    proto.transport.loseConnection()
            if err["code"] == "late":
                # only ever the answer to our own nonce_hash/nonce (protocol.md): expected after a
                # reconnect, when the shuffle it was for is over — nothing for the player (issue #9)
                log.debug("late nonce answer: {message}", message=str(err["message"])[:200])
            elif self.on_error is not None:
                self.on_error(err)
        elif kind in ("shuffle_commit", "shuffle_hashes"):
            reply = (self.checker.commit if kind == "shuffle_commit" else self.checker.hashes)(msg)
            if reply is not None:
                proto.sendMessage(reply)
        elif kind == "shuffle_reveal":
            self.checker.reveal(msg)  # its verdict goes to on_fairness
        elif kind in ("rematch_offer", "rematch_start"):
            if self.on_rematch is not None:
                self.on_rematch(msg)
        elif kind == "closing":
            self.closing = msg
            self._done = True
            # a dealt deal never revealed: its verdict goes to on_fairness (failed; interrupted
            # when the host's journal resumes the match, ``resumable``: issue #9; departed when
            # the deal goes on without this connection — another took the seat with its token,
            # or we left: ``code``)
            self.checker.closing(resumable=msg.get("resumable") is True, code=closing_code(msg))
            # (a subclass that overrides _message to report closing itself is not called twice)
            if self.on_closing is not None and type(self)._message is TableClient._message:
                self.on_closing(msg)
        # pong and unknown kinds are ignored (a newer host may send more)

    def _fair(self, verdict) -> None:
        if verdict is None:
            return
        if self.on_fairness is not None:
            self.on_fairness(verdict)
        elif verdict.bad:
            log.warn("{text}", text=verdict.text)

    def _lost(self, proto, reason) -> None:
        if proto is not self._proto:
            return
        self._proto = None
        self._cancel_hello_timer()
        if self._done or not self.reconnect or self.welcome is None:
            self._set_status("closed")
            d, self._connect_d = self._connect_d, None
            if d is not None:
                d.errback(reason if reason is not None else JoinError("closed", "connection closed"))
            return
        self._schedule_retry()

    def _failed(self, reason) -> None:
        if self.welcome is None or self._done or not self.reconnect:
            self._set_status("closed")
            d, self._connect_d = self._connect_d, None
            if d is not None:
                d.errback(reason)
            return
        self._schedule_retry()

    def _schedule_retry(self) -> None:
        now = self.reactor.seconds()
        if self._lost_at is None:
            self._lost_at = now
            log.info("connection to {host}:{port} lost; reconnecting", host=self.host, port=self.port)
        if now - self._lost_at > self.reconnect_for:
            self._done = True
            self._set_status("closed")
            return
        self._set_status("reconnecting")
        self._retry_call = self.reactor.callLater(self._delay, self._dial)
        self._delay = min(self._delay * 2, 5.0)

    def _cancel_retry(self) -> None:
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        self._retry_call = None
