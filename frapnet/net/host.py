"""The host: a Twisted node that owns tables and is their only referee (issue #3).

Layers:

- :class:`Table` — one table's logic without sockets: seats, tokens, the engine state, its
  version, applying actions (:func:`frapnet.engine.apply`), fan-out of views and events, chat,
  spectators, grace periods and computer takeover, the deal loop and the record. It talks to
  its connections through a tiny *peer* interface (``peer.send(msg)``, ``peer.close(reason)``,
  ``peer.lang``; optionally ``peer.send_frame(kind, data)``, a message already encoded once
  for many peers), and to time through an ``IReactorTime`` (``callLater``), so tests drive it
  with fake peers and ``twisted.internet.task.Clock``.
- :class:`HostProtocol` / :class:`HostFactory` — one connection each: framing and decoding
  (:mod:`frapnet.net.wire`), message validation (:mod:`frapnet.net.protocol`), handshake
  timeout, flood limiting, connection limit, bounded outbound buffer.
- :func:`start_host` — everything `frapnet host` and `frapnet play` need, on a given reactor::

      from frapnet.net.host import start_host
      handle = start_host(reactor, game="frap", players=4, options={"ante": 100}, bots=3,
                          level="basic", bind="127.0.0.1", port=0, seed=None, announce=False)
      handle.port        # the TCP port it listens on (int)
      handle.table       # the Table (handle.table.state is the engine State)
      handle.finished    # Deferred: fires with the result dict when the match ends
      handle.stop()      # Deferred: closes every connection, the listener, bots, announcing

  Raises :class:`frapnet.errors.RuleError` for bad options (naming the rule, e.g. F5) and
  :class:`frapnet.errors.PluginError` for an unknown game or house rule, before listening.

Seats are 0…n−1 clockwise; amounts are whole chips. The reactor is never imported at module
level (stack-notes.md): pass one in.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import re
import secrets
from typing import Any, Callable, Iterable

from twisted.internet import defer, protocol as tprotocol
from twisted.logger import Logger
from twisted.protocols.policies import TimeoutMixin

from frapnet import engine
from frapnet.errors import RuleError
from frapnet.net import wire
from frapnet.net.protocol import (PROTOCOL_VERSION, ProtocolError, check_client_message, error_message,
                                  version_compatible)

log = Logger(namespace="frapnet.host")

EMPTY, CONNECTED, RECONNECTING, BOT = "empty", "connected", "reconnecting", "bot"
RECORD_EVERY_ACTION_LIMIT = 1024 * 1024
"""Up to this size (bytes) the record is rewritten after every accepted action; beyond it, at
every deal start and end only."""


def _same_secret(given: str, secret: str) -> bool:
    """Timing-safe comparison of a password or seat token: both are hashed first (SHA-256), so
    neither the content nor the length of ``secret`` shows in how long a wrong guess takes."""
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest(),
                               hashlib.sha256(secret.encode("utf-8", "surrogatepass")).digest())


def _send_frame(peer, msg: dict, data: bytes) -> None:
    """Send ``msg`` already encoded as ``data`` (``wire.frame(msg)``) to ``peer``: its
    ``send_frame(kind, data)`` if it has one (a HostProtocol), else ``send(msg)``."""
    send_frame = getattr(peer, "send_frame", None)
    if send_frame is not None:
        send_frame(msg["type"], data)
    else:
        peer.send(msg)


def _send_encoded(peer, kind: str, data: bytes, field: str, body: dict) -> None:
    """Like :func:`_send_frame` for the message ``{"type": kind, field: body}`` (built only for a
    peer without ``send_frame``)."""
    send_frame = getattr(peer, "send_frame", None)
    if send_frame is not None:
        send_frame(kind, data)
    else:
        peer.send({"type": kind, field: body})


class Seat:
    """One seat: ``name`` (str, "" while empty), ``token`` (the seat token, or None while
    empty), ``peer`` (the connection playing it, or None), ``status`` (``"empty"``,
    ``"connected"``, ``"reconnecting"``, ``"bot"``), ``is_bot`` (a computer client joined it),
    ``takeover`` (the host itself plays it: the player's grace period ran out or they left)."""

    __slots__ = ("index", "name", "token", "peer", "status", "is_bot", "takeover", "grace_call", "reserved")

    def __init__(self, index: int, reserved: bool = False) -> None:
        self.index = index
        self.name = ""
        self.token: str | None = None
        self.peer = None
        self.status = EMPTY
        self.is_bot = False
        self.takeover = False
        self.grace_call = None
        self.reserved = reserved


SEAT_EVENT_TEXT = {
    "en": {
        "seat_joined": "{name} joined the table (seat {seat1})",
        "seat_joined_bot": "{name} (computer) joined the table (seat {seat1})",
        "seat_lost": "{name} lost connection; the seat waits {grace} s",
        "seat_back": "{name} is back",
        "seat_left": "{name} left the table",
        "seat_left_takeover": "{name} left — a computer player takes the seat",
        "seat_takeover": "{name} did not come back in time — a computer player takes the seat",
    },
    "ru": {
        "seat_joined": "За стол садится {name} (место {seat1})",
        "seat_joined_bot": "За стол садится {name} (компьютер, место {seat1})",
        "seat_lost": "Связь с {name} потеряна; место ждёт {grace} с",
        "seat_back": "{name} снова за столом",
        "seat_left": "{name} уходит из-за стола",
        "seat_left_takeover": "{name} уходит из-за стола — место занимает компьютер",
        "seat_takeover": "{name} не вернулся вовремя — место занимает компьютер",
    },
}
"""Per language, the words of the host's seat events (docs/protocol.md "Seat events"); the key
is the event type, with ``_bot`` (a computer player joined) or ``_takeover`` (the host plays
the seat from now on) appended."""


def seat_event_text(event: dict, lang: str) -> str:
    """A seat event (``{"type": "seat_joined"|"seat_lost"|"seat_back"|"seat_left"|
    "seat_takeover", "seat": int 0…n−1, "name": str, ...}``) in plain words in ``lang``
    (``"en"``, ``"ru"``; any other language gets English). Seats are shown counted from 1."""
    words = SEAT_EVENT_TEXT.get(lang, SEAT_EVENT_TEXT["en"])
    key = event["type"]
    if event.get("bot"):
        key += "_bot"
    if event.get("takeover"):
        key += "_takeover"
    grace = event.get("grace", 0)
    grace = int(grace) if float(grace).is_integer() else grace
    return words[key].format(name=event.get("name") or "?", seat1=event["seat"] + 1, grace=grace)


def _random_choose(view: dict, level: str, rng: random.Random) -> list:
    return rng.choice([a["action"] for a in view["actions"]])


def bot_chooser() -> Callable[[dict, str, random.Random], list]:
    """``choose(view, level, rng) -> action list``: frapnet.bots.strategy.choose if installed,
    else a uniform random choice among the view's actions."""
    try:
        from frapnet.bots.strategy import choose
    except ImportError:  # pragma: no cover - the bots package is part of frapnet
        return _random_choose
    return choose


class Table:
    """One table: seats, the engine state, and everything the referee does (no sockets).

    Arguments: ``name`` (shown to players), ``game``, ``players`` (n seats), ``options``,
    ``house_rules`` — checked by :func:`frapnet.engine.new_match` (RuleError/PluginError);
    ``clock`` (``callLater``/``seconds``), ``rng`` (shuffles and the first dealer, F7),
    ``password`` (None: open), ``grace`` (seconds a dropped player keeps the seat before the
    host plays it), ``pause`` (seconds between deals), ``deals`` (stop after this many; None:
    until the game's match ends), ``record`` (a path: the record is rewritten, atomically,
    after every accepted action and deal start — before anyone is told; past
    :data:`RECORD_EVERY_ACTION_LIMIT` bytes at deal boundaries only), ``reserved`` (seats kept
    for ``--bots``: each has its token from the start (:meth:`reserved_token`), and only a
    hello with that token takes it — a hello without ``seat`` skips it, one naming it is
    refused with ``seat_taken``),
    ``level`` (the takeover bot's level), ``bot_delay`` (seconds before a takeover move),
    ``on_finish`` (called once with the result dict), ``registry`` (plugins),
    ``max_spectators`` (more spectators are refused with ``busy``, so that watchers can never
    fill the host's connections and lock players out of their seats).

    Seat changes are told to everyone as events (:meth:`_seat_event`, docs/protocol.md "Seat
    events"). Once a person (a client without ``bot``) has sat here, no new deal starts while
    no person is connected: ``waiting`` is True until one is back (design.md principle 5); a
    table of computer players only deals on.
    """

    def __init__(self, name: str, game: str = "frap", players: int = 4, options: dict | None = None,
                 house_rules: Iterable[str] = (), *, clock, rng: random.Random | None = None,
                 password: str | None = None, grace: float = 120.0, pause: float = 1.0,
                 deals: int | None = None, record: str | None = None, reserved: Iterable[int] = (),
                 level: str = "basic", bot_delay: float = 0.0, on_finish: Callable[[dict], Any] | None = None,
                 registry=None, seed: Any = None, max_spectators: int = 32) -> None:
        self.name = name
        self.registry = registry
        self.state = engine.new_match(game, players, options or {}, tuple(house_rules), registry)
        self.clock = clock
        self.rng = rng if rng is not None else random.SystemRandom()
        self.seed = seed
        self.password = password
        self.grace = grace
        self.pause = pause
        self.deals = deals
        self.record_path = record
        self.level = level
        self.bot_delay = bot_delay
        self.on_finish = on_finish
        reserved = set(reserved)
        self.seats = [Seat(i, i in reserved) for i in range(players)]
        for s in self.seats:  # only the host's own computer players get these (start_host)
            if s.reserved:
                s.token = secrets.token_urlsafe(18)
        self.spectators: list = []
        self.max_spectators = max_spectators
        self.started = False
        self.finished = False
        self.result: dict | None = None
        self._next_deal_call = None
        self._bot_calls: dict[int, Any] = {}
        self._choose = bot_chooser()
        self.actions_applied = 0
        self.rejected = 0
        # Per seat: the state version at which that seat's legal actions last changed, and those
        # actions. An action made against any version since then is still current for that seat
        # (another seat looking at its cards, or choosing its cards to pass at the same time,
        # does not make it stale); one made before it — or sent twice — is refused as stale.
        self._since = [0] * self.state.players
        self._seat_actions: list = [None] * self.state.players
        self.on_seats_changed: Callable[[], Any] | None = None
        self._record_size = 0
        self._rejoined = False  # set by _claim: the last hello took back a held seat
        self.had_human = False  # a person (not a computer player) has sat at this table
        self.waiting = False  # between deals, waiting for a person to come back (principle 5)

    # --- descriptions ------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Per seat 0…n−1, the player's name ("" while empty)."""
        return [s.name for s in self.seats]

    def connection(self) -> list[str]:
        """Per seat: ``"connected"``, ``"reconnecting"``, ``"bot"`` or ``"empty"``."""
        return [s.status for s in self.seats]

    def free_seats(self) -> int:
        """How many seats are empty (for the LAN announcement's ``seats_free``)."""
        return sum(1 for s in self.seats if s.status == EMPTY)

    def players_info(self) -> list[dict]:
        """The welcome's ``players``: per seat ``{"seat", "name", "connection"}``."""
        return [{"seat": s.index, "name": s.name, "connection": s.status} for s in self.seats]

    def _plugins(self) -> list[dict]:
        from frapnet.plugins import default_registry
        reg = self.registry or default_registry()
        out = []
        names = {self.state.game: "game", **{h: "house_rule" for h in self.state.house_rules}}
        for info in reg.plugins:
            provides = [g for g in info.games if g in names] + [h for h in info.house_rules if h in names]
            if provides and not info.error:
                out.append({"name": info.name, "version": info.version, "provides": provides})
        return out

    def welcome(self, seat: int | None, token: str | None, lang: str) -> dict:
        """The ``welcome`` message for ``seat`` (None: a spectator) with its ``token``
        (docs/protocol.md lists the fields)."""
        st = self.state
        spec = st.spec
        return {
            "type": "welcome", "protocol": PROTOCOL_VERSION, "table": self.name, "game": st.game,
            "title": spec.title, "options": dict(st.options), "house_rules": list(st.house_rules),
            "rules": spec.describe(), "plugins": self._plugins(), "seat": seat, "token": token,
            "players": self.players_info(), "password": self.password is not None, "grace": self.grace,
            "deals": self.deals,
        }

    def view_for(self, seat: int | None, lang: str, names: list | None = None,
                 connection: list | None = None) -> dict:
        """``engine.view`` for ``seat`` (None: public) plus ``names``, ``connection``, ``table``
        (``names``/``connection``: those lists already made for this state, shared by a fan-out)."""
        try:
            v = engine.view(self.state, seat, lang)
        except Exception:  # noqa: BLE001 - a game plugin's bug: fall back to the generic keys
            log.failure("table {table}: the game's view for seat {seat} failed", table=self.name, seat=seat)
            v = self._generic_view(seat)
        v["names"] = self.names if names is None else names
        v["connection"] = self.connection() if connection is None else connection
        v["table"] = self.name
        return v

    def _generic_view(self, seat: int | None) -> dict:
        """The generic keys only (no cards): what a seat gets when the game's view fails."""
        st = self.state
        return {"game": st.game, "players": st.players, "seat": seat, "version": st.version,
                "deal_no": st.deal_no, "balances": list(st.balances), "pot": st.pot, "to_act": list(st.to_act),
                "actions": [], "names": self.names, "connection": self.connection(), "table": self.name}

    def _frame_view(self, enc, seat: int | None, v: dict) -> tuple[dict, bytes]:
        """``v`` framed by ``enc``; if it cannot be encoded (a game plugin put a value with no
        msgpack form in its view), log it and frame the generic view instead."""
        try:
            return v, enc.frame("view", "view", v)
        except (TypeError, ValueError, OverflowError):
            log.failure("table {table}: the view for seat {seat} cannot be sent", table=self.name, seat=seat)
            v = self._generic_view(seat)
            return v, wire.frame({"type": "view", "view": v})

    # --- fan-out ---------------------------------------------------------------------------
    def _peers(self) -> list:
        return [s.peer for s in self.seats if s.peer is not None] + list(self.spectators)

    def broadcast_views(self) -> None:
        """Send every connected seat its own view and every spectator the public view.

        One :class:`frapnet.net.wire.SharedEncoder` per fan-out: what the views share (balances,
        pot, seats, the last report — big integers above 2^64 included, F6) is encoded once, not
        once per seat; every frame is byte-for-byte what encoding that seat's view alone gives."""
        enc = wire.SharedEncoder()
        names, connection = self.names, self.connection()
        for s in self.seats:
            p = s.peer
            if p is not None:
                v, data = self._frame_view(enc, s.index, self.view_for(s.index, p.lang, names, connection))
                _send_encoded(p, "view", data, "view", v)
        public: dict[str, tuple[dict, bytes]] = {}
        for p in self.spectators:
            if p.lang not in public:
                public[p.lang] = self._frame_view(enc, None, self.view_for(None, p.lang, names, connection))
            v, data = public[p.lang]
            _send_encoded(p, "view", data, "view", v)

    def _send_events(self, events: list[dict]) -> None:
        if not events:
            return
        names = self.names
        peers = self._peers()
        for ev in events:
            by_lang: dict[str, tuple[dict, bytes]] = {}  # one message and one encoding per language
            for p in peers:
                if p.lang not in by_lang:
                    try:
                        text = engine.describe_event(self.state, ev, names, p.lang)
                    except Exception:  # noqa: BLE001 - a plugin's bug must not stop the table
                        log.failure("describing event {type} failed", type=ev.get("type"))
                        text = str(ev.get("type", "")).replace("_", " ")
                    msg = {"type": "event", "event": dict(ev, text=text)}
                    try:
                        data = wire.frame(msg)
                    except (TypeError, ValueError, OverflowError):  # a plugin's event: send its words only
                        log.failure("event {type} cannot be sent", type=ev.get("type"))
                        msg = {"type": "event", "event": {"type": str(ev.get("type", "")), "text": text}}
                        data = wire.frame(msg)
                    by_lang[p.lang] = (msg, data)
                msg, data = by_lang[p.lang]
                _send_frame(p, msg, data)

    def _seat_event(self, kind: str, s: Seat, **facts) -> None:
        """Tell everyone at the table (seats and spectators) about a change at seat ``s``: an
        ``event`` of type ``kind`` (``seat_joined``, ``seat_lost``, ``seat_back``,
        ``seat_left``, ``seat_takeover``) with ``seat``, ``name``, ``facts`` and ``text`` in
        each recipient's language (:func:`seat_event_text`); encoded once per language."""
        ev = {"type": kind, "seat": s.index, "name": s.name, **facts}
        by_lang: dict[str, tuple[dict, bytes]] = {}
        for p in self._peers():
            if p.lang not in by_lang:
                msg = {"type": "event", "event": dict(ev, text=seat_event_text(ev, p.lang))}
                by_lang[p.lang] = (msg, wire.frame(msg))
            msg, data = by_lang[p.lang]
            _send_frame(p, msg, data)

    def _send_all(self, msg: dict) -> None:
        """``msg`` to every seat's connection and every spectator, encoded once."""
        data = wire.frame(msg)
        for p in self._peers():
            _send_frame(p, msg, data)

    def _changed(self, events: list[dict] = ()) -> None:
        self._send_events(list(events))
        self.broadcast_views()
        self._schedule_takeover()
        if self.on_seats_changed is not None and not events:
            self.on_seats_changed()

    # --- joining -----------------------------------------------------------------------------
    def join(self, peer, hello: dict) -> int | None:
        """Seat (or seat as spectator) the peer that sent ``hello`` (checked by
        :func:`frapnet.net.protocol.check_client_message`); send it ``welcome`` and a view.

        Returns the seat (None for a spectator). Raises ProtocolError (fatal) with code
        ``version``, ``password``, ``bad_token``, ``seat_taken``, ``table_full``.
        """
        if not version_compatible(hello["protocol"]):
            raise ProtocolError("version", f"protocol {hello['protocol']!r} is not compatible with this "
                                           f"host's {PROTOCOL_VERSION}", fatal=True)
        if self.password is not None and not _same_secret(hello.get("password") or "", self.password):
            raise ProtocolError("password", "wrong or missing password for table " + repr(self.name), fatal=True)
        peer.lang = hello["lang"]
        if self.finished:
            raise ProtocolError("table_full", "the match at this table has ended", fatal=True)
        if hello["spectate"]:
            if len(self.spectators) >= self.max_spectators:
                raise ProtocolError("busy", f"table {self.name!r} already has {self.max_spectators} spectators; "
                                            "try later", fatal=True)
            self.spectators.append(peer)
            peer.seat = None
            log.info("table {table}: spectator {name} joined", table=self.name, name=hello["name"])
            peer.send(self.welcome(None, None, peer.lang))
            peer.send({"type": "view", "view": self.view_for(None, peer.lang)})
            return None
        seat = self._claim(peer, hello)
        s = self.seats[seat]
        peer.seat = seat
        peer.send(self.welcome(seat, s.token, peer.lang))
        if self._rejoined:
            self._seat_event("seat_back", s)
        else:
            self._seat_event("seat_joined", s, bot=s.is_bot)
        self._changed()
        self._maybe_start()
        return seat

    def reserved_token(self, seat: int) -> str:
        """The token of ``seat``, kept for one of the host's own computer players (``--bots``)."""
        s = self.seats[seat]
        if not s.reserved or s.token is None:
            raise ValueError(f"seat {seat} is not kept for a computer player")
        return s.token

    def _claim(self, peer, hello: dict) -> int:
        self._rejoined = False
        token = hello.get("token")
        s = None
        if token:
            for x in self.seats:
                if x.token is not None and _same_secret(token, x.token):
                    s = x
                    break
            if s is None:
                raise ProtocolError("bad_token", "that seat token is not valid at this table (the seat was given "
                                                 "up)", fatal=True)
            if s.status != EMPTY:
                return self._reclaim(s, peer, hello)
            # an empty seat kept for the host's computer player, taken with its token
        want = hello.get("seat")
        if s is not None:
            pass
        elif want is not None:
            if not 0 <= want < len(self.seats):
                raise ProtocolError("bad_message", f"seat {want} does not exist (seats 0…{len(self.seats) - 1})",
                                    fatal=True)
            s = self.seats[want]
            if s.status != EMPTY:
                raise ProtocolError("seat_taken", f"seat {want} is taken by {s.name!r}; to take it back "
                                                  "send its token", fatal=True)
            if s.reserved:
                raise ProtocolError("seat_taken", f"seat {want} is kept for the host's computer player",
                                    fatal=True)
        else:
            free = [x for x in self.seats if x.status == EMPTY and not x.reserved]
            if not free:
                raise ProtocolError("table_full", f"every seat at {self.name!r} is taken; join as a spectator",
                                    fatal=True)
            s = free[0]
        s.name = hello["name"]
        if not s.reserved:
            s.token = secrets.token_urlsafe(18)
        s.peer = peer
        s.is_bot = hello.get("bot", False)
        s.status = BOT if s.is_bot else CONNECTED
        s.takeover = False
        if not s.is_bot:
            self.had_human = True
            self._wake()
        self.write_seats()
        log.info("table {table}: {name} took seat {seat}{bot}", table=self.name, name=s.name, seat=s.index,
                 bot=" (computer)" if s.is_bot else "")
        return s.index

    def _reclaim(self, s: Seat, peer, hello: dict) -> int:
        if s.peer is not None and s.peer is not peer:  # the old connection is stale: replace it
            old = s.peer
            s.peer = None
            old.seat = None
            old.close("replaced by a new connection with this seat's token")
        if s.grace_call is not None and s.grace_call.active():
            s.grace_call.cancel()
        s.grace_call = None
        s.peer = peer
        s.takeover = False
        s.status = BOT if s.is_bot else CONNECTED
        self._cancel_bot(s.index)
        self._rejoined = True
        if not s.is_bot:
            self._wake()
        log.info("table {table}: {name} reconnected to seat {seat}", table=self.name, name=s.name, seat=s.index)
        return s.index

    def _maybe_start(self) -> None:
        if self.started or self.finished or any(s.status == EMPTY for s in self.seats):
            return
        self.started = True
        log.info("table {table}: all {n} seats taken; the match begins", table=self.name, n=len(self.seats))
        self._start_deal()

    def humans_connected(self) -> int:
        """How many seats a person (not a computer player) plays over a live connection now."""
        return sum(1 for s in self.seats if s.status == CONNECTED)

    def _wake(self) -> None:
        """A person is back at a table that was waiting between deals: deal on after the pause."""
        if self.waiting and not self.finished:
            self.waiting = False
            log.info("table {table}: a player is back; the match goes on", table=self.name)
            if self._next_deal_call is None:
                self._next_deal_call = self.clock.callLater(self.pause, self._start_deal)

    def _start_deal(self) -> None:
        self._next_deal_call = None
        if self.finished:
            return
        if self.had_human and not self.humans_connected():
            # design.md principle 5: nobody plays a match for people who are all away; a table
            # of computer players only (host --bots = players) plays on
            if not self.waiting:
                log.info("table {table}: no player connected; waiting before deal {n}", table=self.name,
                         n=self.state.deal_no + 1)
            self.waiting = True
            return
        deck = engine.pack(self.state)
        self.rng.shuffle(deck)
        dealer = self.rng.randrange(self.state.players) if self.state.dealer is None else None  # F7: by lot
        self.state, events = engine.start_deal(self.state, deck, dealer)
        self._track_versions(None)
        self.write_record()
        self._changed(events)
        self._after_change()

    # --- playing -----------------------------------------------------------------------------
    def act(self, peer, msg: dict) -> None:
        """Apply the ``act`` message ``msg`` from ``peer``'s seat.

        Raises ProtocolError ``not_seated``, ``wrong_seat``, ``stale`` (version differs from
        the state's: made against an older state or sent twice), ``illegal`` (the engine's
        RuleError, with its rule). The state is unchanged on any error.
        """
        seat = getattr(peer, "seat", None)
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot act")
        if msg.get("seat") is not None and msg["seat"] != seat:
            raise ProtocolError("wrong_seat", f"you sit at seat {seat}; you cannot act for seat {msg['seat']}")
        self.apply_action(seat, msg["action"], msg["version"])

    def apply_action(self, seat: int, action: Any, version: int) -> None:
        """Apply ``action`` for ``seat`` if ``version`` is the current state version."""
        if self.finished:
            raise ProtocolError("illegal", "the match has ended", "record")
        if not isinstance(version, int) or not self._since[seat] <= version <= self.state.version:
            self.rejected += 1
            raise ProtocolError("stale", f"the action was made against state version {version}; seat {seat}'s "
                                         f"choices changed at version {self._since[seat]} (already applied, or "
                                         f"the table moved on)")
        try:
            new, events = engine.apply(self.state, seat, action)
        except RuleError as exc:
            self.rejected += 1
            raise ProtocolError("illegal", exc.message, exc.rule) from None
        self.state = new
        self.actions_applied += 1
        self._track_versions(seat)
        # journaled before its effects are sent (design.md principle 5); a very long match's
        # record is rewritten at deal boundaries only, so a move never waits on megabytes of I/O
        if self._record_size <= RECORD_EVERY_ACTION_LIMIT or self.state.phase != engine.DEAL:
            self.write_record()
        self._changed(events)
        self._after_change()

    def _track_versions(self, actor: int | None) -> None:
        """Note, per seat, whether its legal actions changed with the new state (see ``_since``).

        ``actor`` (the seat whose action was just applied; None at a deal start: every seat)
        always counts as changed, so a duplicate of its action is refused as stale.
        """
        st = self.state
        for seat in range(st.players):
            acts = engine.legal_actions(st, seat)
            if seat == actor or actor is None or acts != self._seat_actions[seat]:
                self._since[seat] = st.version
            self._seat_actions[seat] = acts

    def _after_change(self) -> None:
        st = self.state
        if st.phase == engine.DEAL:
            return
        if st.phase == engine.OVER or (self.deals is not None and st.deal_no >= self.deals):
            self.finish("match over")
        elif self._next_deal_call is None:
            self._next_deal_call = self.clock.callLater(self.pause, self._start_deal)

    # --- computer takeover (design.md principle 5) ------------------------------------------
    def _schedule_takeover(self) -> None:
        if self.finished or self.state.phase != engine.DEAL:
            return
        for seat in self.state.to_act:
            s = self.seats[seat]
            if s.takeover and seat not in self._bot_calls:
                self._bot_calls[seat] = self.clock.callLater(self.bot_delay, self._takeover_move, seat,
                                                             self.state.version)

    def _cancel_bot(self, seat: int) -> None:
        call = self._bot_calls.pop(seat, None)
        if call is not None and call.active():
            call.cancel()

    def _takeover_move(self, seat: int, version: int) -> None:
        self._bot_calls.pop(seat, None)
        s = self.seats[seat]
        if self.finished or not s.takeover or self.state.version != version or seat not in self.state.to_act:
            self._schedule_takeover()
            return
        view = engine.view(self.state, seat)
        rng = random.Random(f"{self.seed}/{seat}/{version}") if self.seed is not None else self.rng
        try:
            action = self._choose(view, self.level, rng)
        except Exception:  # noqa: BLE001 - a strategy bug must not stall the table
            log.failure("takeover strategy failed; playing a random legal action")
            action = engine.action_to_wire(rng.choice(engine.legal_actions(self.state, seat)))
        try:
            self.apply_action(seat, action, version)
        except ProtocolError as exc:
            log.warn("takeover move {action} for seat {seat} refused: {msg}", action=action, seat=seat,
                     msg=exc.message)
            self.apply_action(seat, engine.action_to_wire(engine.legal_actions(self.state, seat)[0]), version)

    # --- chat, leaving, connection loss ------------------------------------------------------
    def chat(self, peer, text: str) -> None:
        """Send a (cleaned) chat line from ``peer`` to everyone at the table."""
        if not text:
            return
        seat = getattr(peer, "seat", None)
        name = self.seats[seat].name if seat is not None else getattr(peer, "name", "spectator")
        self._send_all({"type": "chat", "seat": seat, "name": name, "text": text})

    def leave(self, peer) -> None:
        """``peer`` leaves: a seat is played by the host from now on (or freed before the match)."""
        self.lost(peer, left=True)
        peer.close("you left the table")

    def lost(self, peer, left: bool = False) -> None:
        """``peer``'s connection is gone (or it left): start the grace period of its seat."""
        if peer in self.spectators:
            self.spectators.remove(peer)
            return
        seat = getattr(peer, "seat", None)
        if seat is None or self.seats[seat].peer is not peer:
            return
        peer.seat = None
        s = self.seats[seat]
        s.peer = None
        if self.finished:
            return
        if left:
            log.info("table {table}: {name} left seat {seat}", table=self.name, name=s.name, seat=seat)
            self._seat_event("seat_left", s, takeover=self.started)
            self._give_up(s)
        else:
            log.info("table {table}: {name} at seat {seat} disconnected; holding the seat for {grace}s",
                     table=self.name, name=s.name, seat=seat, grace=self.grace)
            s.status = RECONNECTING
            s.grace_call = self.clock.callLater(self.grace, self._grace_over, seat)
            self._seat_event("seat_lost", s, grace=self.grace)
            self._changed()

    def _grace_over(self, seat: int) -> None:
        s = self.seats[seat]
        s.grace_call = None
        if s.status == RECONNECTING and not self.finished:
            log.info("table {table}: seat {seat} ({name}) did not come back in time", table=self.name, seat=seat,
                     name=s.name)
            if self.started:
                self._seat_event("seat_takeover", s)
            else:
                self._seat_event("seat_left", s, takeover=False)
            self._give_up(s)

    def _give_up(self, s: Seat) -> None:
        if s.grace_call is not None and s.grace_call.active():
            s.grace_call.cancel()
        s.grace_call = None
        if self.started:
            s.status = BOT  # the host plays the seat; the token still takes it back
            s.takeover = True
        else:
            s.status, s.name, s.is_bot = EMPTY, "", False
            if not s.reserved:  # a kept seat keeps its token: the host's computer player may come back
                s.token = None
            self.write_seats()
        self._changed()

    # --- ending ------------------------------------------------------------------------------
    def result_dict(self) -> dict:
        """``table``, ``game``, ``deals`` (started), ``match_over`` and the game's match report
        (``balances`` and ``pot`` in whole chips, or ``points``)."""
        st = self.state
        out = {"table": self.name, "game": st.game, "deals": st.deal_no, "match_over": st.phase == engine.OVER}
        out.update(engine.match_report(st))
        return out

    def finish(self, reason: str) -> None:
        """End the table: write the record, tell everyone (``closing`` with the result)."""
        if self.finished:
            return
        self.finished = True
        for call in list(self._bot_calls.values()) + [self._next_deal_call] + [s.grace_call for s in self.seats]:
            if call is not None and call.active():
                call.cancel()
        self._bot_calls.clear()
        self.write_record()
        self.result = self.result_dict()
        log.info("table {table}: {reason}; result {result}", table=self.name, reason=reason,
                 result=json.dumps(self.result))
        self._send_all({"type": "closing", "reason": reason, "result": self.result})
        if self.on_finish is not None:
            self.on_finish(self.result)

    # --- resuming after a restart (design.md principle 5) -------------------------------------
    @property
    def seats_path(self) -> str | None:
        """Where the seats' names and tokens are kept beside the record (``RECORD.seats``)."""
        return f"{self.record_path}.seats" if self.record_path else None

    def write_seats(self) -> None:
        """Save every seat's name, token and kind beside the record (so a restarted host knows
        them); atomically, readable by the owner only; a failure is logged."""
        path = self.seats_path
        if not path:
            return
        data = [{"name": s.name, "token": s.token, "bot": s.is_bot} for s in self.seats]
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"table": self.name, "seats": data}, f)
            os.replace(tmp, path)
        except OSError as exc:
            log.error("cannot write {path}: {err}", path=path, err=exc)

    def resume(self, rec: dict) -> None:
        """Continue the match written in ``rec`` (this table's record): replay it (mid-deal
        included), advance the shuffling rng past the deals already dealt (so a seeded match
        goes on exactly as it would have), and give every seat saved in ``RECORD.seats`` back its
        name and token with status ``reconnecting`` (its grace period starts now); seats kept for
        the host's own computer players are left empty for them to take again.

        Raises :class:`frapnet.record.ReplayError` if the record does not replay, ValueError if
        it is for another game, seat count or options.
        """
        from frapnet import record
        state, _ = record.replay(rec, self.registry)
        st = self.state
        if (state.game, state.players, state.options, state.house_rules) != \
                (st.game, st.players, st.options, st.house_rules):
            raise ValueError(f"the record is for {state.game} with {state.players} players and options "
                             f"{state.options}, not this table's {st.game}, {st.players}, {st.options}")
        for i in range(state.deal_no):  # the same draws _start_deal made
            self.rng.shuffle(engine.pack(st))
            if i == 0:
                self.rng.randrange(st.players)
        self.state = state
        self._track_versions(None)
        for s, (name, token, is_bot) in zip(self.seats, self._saved_seats()):
            if s.reserved or token is None:
                continue
            s.name, s.token, s.is_bot = name, token, is_bot
            self.had_human = self.had_human or not is_bot
            s.status = RECONNECTING
            s.grace_call = self.clock.callLater(self.grace, self._grace_over, s.index)
        self.started = state.deal_no > 0
        from frapnet.commands.host import resume_summary
        log.info("table {table}: resumed {where} (state version {v})", table=self.name,
                 where=resume_summary(state), v=state.version)
        if self.started:
            self._after_change()

    def _saved_seats(self) -> list[tuple[str, str | None, bool]]:
        """Per seat, ``(name, token, is_bot)`` from ``RECORD.seats`` (token None: nothing
        usable saved). The file is checked like client input — a damaged or hostile file gives
        empty seats (logged), never a crash: names are cleaned (no control characters, at most
        32 characters), tokens must be 16…128-character strings."""
        from frapnet.net.protocol import MAX_NAME, MAX_TOKEN, clean_text
        path = self.seats_path
        if not path or not os.path.exists(path):
            return []
        try:
            with open(path, encoding="utf-8") as f:
                data = json.loads(f.read(1024 * 1024))
            saved = data.get("seats") if isinstance(data, dict) else None
            if not isinstance(saved, list):
                raise ValueError("no list of seats")
        except (OSError, ValueError, RecursionError) as exc:
            log.error("cannot read {path}: {err}; seats start empty", path=path, err=str(exc)[:200])
            return []
        out = []
        for info in saved[:len(self.seats)]:
            info = info if isinstance(info, dict) else {}
            token, name = info.get("token"), info.get("name")
            ok = isinstance(token, str) and 16 <= len(token) <= MAX_TOKEN
            out.append((clean_text(name, MAX_NAME) if isinstance(name, str) else "", token if ok else None,
                        info.get("bot") is True))
        return out

    def write_record(self) -> None:
        """Rewrite the record file (record-format.md) atomically, if one was asked for.
        A failure to write is logged; the table goes on."""
        if not self.record_path:
            return
        from frapnet import record
        tmp = f"{self.record_path}.tmp{os.getpid()}"
        try:
            text = record.dumps(engine.record(self.state))
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.record_path)
            self._record_size = len(text)
        except OSError as exc:
            log.error("cannot write the record {path}: {err}", path=self.record_path, err=exc)


# --- connections ----------------------------------------------------------------------------------

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


_TWISTED_NOISE = re.compile(r"^(\S+ starting on \d+|\(\w+ Port \d+ Closed\)|Starting factory .*|Stopping factory .*)$")


def not_twisted_noise(event: dict):
    """A ``twisted.logger`` filter predicate for a host's log: drops Twisted's own lines about
    listening ports (``HostFactory starting on 7777``, ``(TCP Port 7777 Closed)``) and factories
    starting or stopping, which it logs however ``noisy`` is set; keeps everything else.
    Returns a :class:`twisted.logger.PredicateResult`."""
    from twisted.logger import PredicateResult
    if event.get("log_namespace") == "log_legacy":
        text = " ".join(str(x) for x in event.get("message") or ())
        if _TWISTED_NOISE.match(text):
            return PredicateResult.no
    return PredicateResult.maybe


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


# --- start_host ---------------------------------------------------------------------------------

class HostHandle:
    """A running host: ``port`` (int), ``table`` (Table), ``factory``, ``finished`` (Deferred
    firing with the result dict), ``stop()`` (Deferred)."""

    def __init__(self, reactor, listener, factory: HostFactory, table: Table, bots: list, finished) -> None:
        self.reactor = reactor
        self.listener = listener
        self.factory = factory
        self.table = table
        self.bots = bots
        self.finished = finished
        self.port = listener.getHost().port
        self.announcer = None
        self._stopped: defer.Deferred | None = None

    def stop(self) -> defer.Deferred:
        """Stop announcing and listening, close every connection (after telling them), stop bots."""
        if self._stopped is not None:
            return self._stopped
        self._stopped = defer.ensureDeferred(self._stop())
        return self._stopped

    async def _stop(self) -> None:
        if not self.table.finished:
            self.table.finish("host stopping")
        for b in self.bots:
            b.stop()
        if self.announcer is not None:
            try:
                await _wait_future(self.reactor, self.announcer.close())
            except Exception:  # noqa: BLE001
                log.failure("stopping the LAN announcement failed")
        await defer.maybeDeferred(self.listener.stopListening)
        for p in list(self.factory.connections):
            p.dropConnection("host stopping")
        # give the transports a moment to flush the closing messages
        d = defer.Deferred()
        self.reactor.callLater(0.05, d.callback, None)
        await d


GC_THRESHOLDS = (10_000, 50, 1000)
"""The cyclic garbage collector's thresholds in a host process (Python's default: 700, 10, 10)."""


def tune_gc() -> None:
    """For a long-running host process (`frapnet host`), once its tables are set up: collect,
    move every object alive now (modules, plugins, tables) out of the cyclic collector's reach
    (``gc.freeze()``), and collect less often (:data:`GC_THRESHOLDS`). Objects are still freed
    as soon as nothing refers to them; only the rare reference cycles wait longer. With
    Python's defaults a full collection over hundreds of tables' states paused the host for
    65 ms (bench/net.py "Capacity": 400 four-seat tables over the 50 ms p99); tuned, the worst
    pause at 600 tables was 14 ms. Process-wide: call it from a host's main, not a library."""
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _loopback_for(bind: str) -> str:
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


def start_host(reactor, *, game: str = "frap", players: int = 4, options: dict | None = None,
               house_rules: Iterable[str] = (), bots: int = 0, level: str = "basic", bind: str = "127.0.0.1",
               port: int = 0, seed: Any = None, name: str | None = None, password: str | None = None,
               grace: float = 120.0, pause: float = 1.0, deals: int | None = None, record: str | None = None,
               plugins_dirs: Iterable[str] = (), announce: bool = False, interfaces: list[str] | None = None,
               registry=None, bot_delay: float = 0.0, max_connections: int = 256,
               handshake_timeout: float = 10.0, rate: int = 50, resume: bool = False) -> HostHandle:
    """Start a host with one table on ``reactor``; return its :class:`HostHandle`.

    ``bots`` seats (the last ones, n−K…n−1) are filled by in-process computer players at
    ``level`` (``random``/``basic``; :func:`frapnet.bots.client.start_bots`) connected over
    loopback; humans get the first free
    seats. ``seed``: shuffles, first dealer (F7) and bot decisions reproducible; otherwise
    ``random.SystemRandom``. ``announce``: advertise on the LAN (frapnet.net.discovery) on
    ``interfaces``. ``resume``: if the ``record`` file exists, continue the match it holds
    (:meth:`Table.resume`: a restarted host, design.md principle 5). Other arguments as
    :class:`Table` and :class:`HostFactory`.
    Raises RuleError / PluginError for a bad game, option or house rule, ValueError for a
    bad ``bots`` count or a record for another table, ReplayError for a record that does not
    replay, and the reactor's CannotListenError if the port is taken.
    """
    if registry is None:
        from frapnet.plugins import default_registry
        registry = default_registry(list(plugins_dirs))
    if not isinstance(bots, int) or not 0 <= bots <= players:
        raise ValueError(f"--bots must be 0…{players} (the table has {players} seats), not {bots!r}")
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    name = name or f"{game} table"
    finished = defer.Deferred()
    table = Table(name, game, players, options, house_rules, clock=reactor, rng=rng, password=password,
                  grace=grace, pause=pause, deals=deals, record=record, reserved=range(players - bots, players),
                  level=level, bot_delay=bot_delay, registry=registry, seed=seed,
                  on_finish=lambda result: reactor.callLater(0, finished.callback, result))
    if resume and record and os.path.exists(record):
        from frapnet.record import load
        table.resume(load(record))
    factory = HostFactory({name: table}, reactor, max_connections=max_connections,
                          handshake_timeout=handshake_timeout, rate=rate)
    listener = reactor.listenTCP(port, factory, interface=bind)
    handle = HostHandle(reactor, listener, factory, table, [], finished)
    # debug only: `frapnet host` prints this on stdout itself (not twice on one terminal)
    log.debug("hosting table {name} ({game}, {n} seats) on {bind}:{port}", name=name, game=game, n=players,
             bind=bind, port=handle.port)
    target = _loopback_for(bind)
    if bots:
        from frapnet.bots.client import start_bots
        seats = list(range(players - bots, players))
        handle.bots = start_bots(reactor, target, handle.port, bots, level=level, seed=seed, seats=seats,
                                 delay=bot_delay, password=password)
        for bot, seat in zip(handle.bots, seats):  # set before their hello (sent once connected)
            bot.client.token = table.reserved_token(seat)
    if announce:
        handle.announcer = _announce(reactor, table, handle.port, interfaces)
    return handle


def _announce(reactor, table: Table, port: int, interfaces):
    """Announce the table on the LAN with frapnet.net.discovery (DNS-SD), keeping its TXT
    ``seats_free`` up to date; None if discovery is unavailable or fails."""
    try:
        from frapnet.net.discovery import announce, table_props
    except ImportError:
        log.info("LAN discovery is not available; not announcing")
        return None

    def props():
        return table_props(table.state.game, table.free_seats(), table.state.players, PROTOCOL_VERSION,
                           table.password is not None)
    try:
        ann = announce(reactor, table.name, port, props(), interfaces)
    except Exception:  # noqa: BLE001 - a bad name or interface must not stop the host
        log.failure("announcing the table on the LAN failed")
        return None
    last = {"free": table.free_seats()}

    def seats_changed():
        if table.free_seats() != last["free"]:
            last["free"] = table.free_seats()
            try:
                ann.update(props())
            except Exception:  # noqa: BLE001
                log.failure("updating the LAN announcement failed")
    table.on_seats_changed = seats_changed
    log.info("announcing table {name} on the LAN (_frapnet._tcp)", name=table.name)
    return ann


def _wait_future(reactor, fut, timeout: float = 2.0) -> defer.Deferred:
    """A Deferred firing when the concurrent.futures ``fut`` is done (or after ``timeout`` s)."""
    d = defer.Deferred()
    start = reactor.seconds()

    def poll():
        if fut.done() or reactor.seconds() - start > timeout:
            d.callback(None)
        else:
            reactor.callLater(0.02, poll)
    poll()
    return d
