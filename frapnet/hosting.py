"""Start-up of a host: one table, its Twisted server, its computer players and its LAN
announcement, wired on a given reactor from one :class:`HostConfig` (issue #9; docs/hosting.md)::

    from frapnet.hosting import HostConfig, TableConfig, start_host
    config = HostConfig(TableConfig(game="frap", players=4, options={"ante": 100}), bots=3)
    handle = start_host(reactor, config)
    handle.port        # the TCP port it listens on (int)
    handle.table       # the Table (handle.table.state is the engine State)
    handle.web_port    # the web page's HTTP port (HostConfig(web=PORT)), or None
    handle.finished    # Deferred: fires with the result dict when the match ends
    handle.stop()      # Deferred: closes every connection, the listener, bots, announcing

The takeover's computer player (:class:`frapnet.bots.players.SeatPlayers`, one
``frapnet.bots.make_player`` player per seat) is handed to the table
here: frapnet.net never imports frapnet.bots. The reactor is never imported at module level
(stack-notes.md): pass one in.
"""
from __future__ import annotations

import os
import random
import sqlite3
from dataclasses import dataclass, field

from twisted.internet import defer
from twisted.internet.task import deferLater
from twisted.logger import Logger

from frapnet import record
from frapnet.bots.client import start_bots
from frapnet.bots.players import SeatPlayers
from frapnet.net import discovery, rematch
from frapnet.net.config import TableConfig
from frapnet.net.journal import Journal, JournalError, resume_key
from frapnet.net.protocol import PROTOCOL_VERSION
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.plugins import default_registry

__all__ = ["HostConfig", "HostHandle", "TableConfig", "loopback_for", "start_host"]

log = Logger(namespace="frapnet.host")


@dataclass(frozen=True)
class HostConfig:
    """A host's settings (frozen), built once from the command line.

    - ``table``: the table's own settings (:class:`frapnet.net.config.TableConfig`).
    - ``bots``: seats n−K…n−1 filled by in-process computer players at ``table.level``,
      connected over loopback (0…n).
    - ``bind``, ``port``: where to listen (port 0: any free port).
    - ``plugins_dirs``: one-file plugin folders (when no registry is given to :func:`start_host`).
    - ``announce``, ``interfaces``: advertise the table on the LAN (DNS-SD) on those addresses.
    - ``max_connections``, ``handshake_timeout`` (seconds), ``rate`` (messages per second per
      connection): :class:`frapnet.net.server.HostFactory`'s limits.
    - ``db``: the journal file (:class:`frapnet.net.journal.Journal`; None: nothing is stored
      but ``table.record``). Every accepted action is committed to it before anyone is told.
    - ``continue_unfinished``: resume this command's unfinished match from ``db`` (the same
      table name, game, seats, options and house rules; its host process gone) — `frapnet
      host` after a crash; `frapnet play` starts a new match each time.
    - ``resume``: ``--resume``: if nothing in ``db`` is resumed and ``table.record`` exists,
      continue the match that record file holds (stored into ``db`` from then on).
    - ``web``: also serve the table's web page and WebSocket on this HTTP port of ``bind``
      (:mod:`frapnet.net.web`; 0: any free port; None: no web page). It is announced in the TXT
      key ``web`` (docs/web.md).
    """

    table: TableConfig = field(default_factory=TableConfig)
    bots: int = 0
    bind: str = "127.0.0.1"
    port: int = 0
    plugins_dirs: tuple = ()
    announce: bool = False
    interfaces: tuple | None = None
    max_connections: int = 256
    handshake_timeout: float = 10.0
    rate: int = 50
    resume: bool = False
    web: int | None = None
    db: str | None = None
    continue_unfinished: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "plugins_dirs", tuple(self.plugins_dirs or ()))
        if self.interfaces is not None:
            object.__setattr__(self, "interfaces", tuple(self.interfaces))


class HostHandle:
    """A running host: ``port`` (int), ``table`` (Table), ``factory``, ``finished`` (Deferred
    firing with the result dict), ``stop()`` (Deferred); ``journal`` (the
    :class:`frapnet.net.journal.Journal`, or None), ``match_id`` (the match's number in it),
    ``resumed`` (None, or where the resumed match stood: :func:`frapnet.record.resume_summary`)."""

    def __init__(self, reactor, listener, factory: HostFactory, table: Table, bots: list, finished) -> None:
        self.reactor = reactor
        self.listener = listener
        self.factory = factory
        self.table = table
        self.bots = bots
        self.finished = finished
        self.port = listener.getHost().port
        self.announcer = None
        self.web_listener = None
        self.web_port: int | None = None
        self.journal = None
        self.match_id: int | None = None
        self.resumed: str | None = None
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
        if self.web_listener is not None:
            await defer.maybeDeferred(self.web_listener.stopListening)
        for p in list(self.factory.connections):
            p.dropConnection("host stopping")
        # give the transports a moment to flush the closing messages
        await deferLater(self.reactor, 0.05, lambda: None)
        if self.journal is not None:
            self.journal.close()


def loopback_for(bind: str) -> str:
    """The address a process on this machine connects to for a host listening on ``bind``."""
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


def start_host(reactor, config: HostConfig, *, registry=None) -> HostHandle:
    """Start a host with one table on ``reactor`` as ``config`` says; return its :class:`HostHandle`.

    ``config.bots`` seats (the last ones, n−K…n−1) are filled by in-process computer players
    (:func:`frapnet.bots.client.start_bots`) connected over loopback; humans get the first free
    seats. ``table.seed``: shuffles, first dealer (F7) and bot decisions reproducible; otherwise
    ``random.SystemRandom``. ``registry``: the plugins (default: built-ins, entry points and
    ``config.plugins_dirs``).
    With ``config.db`` the match is journaled (:mod:`frapnet.net.journal`): this command's
    unfinished match there is resumed at its last accepted action (``continue_unfinished``),
    its seats waiting for their tokens; else a new match is stored.
    Raises RuleError / PluginError for a bad game, option or house rule, ValueError for a
    bad ``bots`` count or a record for another table, ReplayError for a record or journal that
    does not replay, JournalError for a journal that cannot be used, and the reactor's
    CannotListenError if a port is taken (its ``port`` says which: ``config.port`` or
    ``config.web``).
    """
    tc = config.table
    if registry is None:
        registry = default_registry(list(config.plugins_dirs))
    players, bots = tc.players, config.bots
    if not isinstance(bots, int) or not 0 <= bots <= players:
        raise ValueError(f"--bots must be 0…{players} (the table has {players} seats), not {bots!r}")
    rng = random.Random(tc.seed) if tc.seed is not None else random.SystemRandom()
    finished = defer.Deferred()
    table = Table(tc, clock=reactor, rng=rng, registry=registry, reserved=range(players - bots, players),
                  choose=SeatPlayers(seed=tc.seed, registry=registry),
                  on_finish=lambda result: reactor.callLater(0, finished.callback, result))
    db, match_id, resumed = _open_journal(config, table)
    factory = HostFactory({table.name: table}, reactor, max_connections=config.max_connections,
                          handshake_timeout=config.handshake_timeout, rate=config.rate)
    try:
        listener = reactor.listenTCP(config.port, factory, interface=config.bind)
    except Exception:
        _release(db, match_id)
        raise
    handle = HostHandle(reactor, listener, factory, table, [], finished)
    handle.journal, handle.match_id, handle.resumed = db, match_id, resumed
    table.resumes = db is not None and config.continue_unfinished  # closing's resumable (issue #9)
    if config.web is not None:
        from frapnet.net.web import listen_web
        try:
            handle.web_listener = listen_web(reactor, factory, config.web, interface=config.bind)
        except Exception:
            listener.stopListening()
            _release(db, match_id)
            raise
        handle.web_port = handle.web_listener.getHost().port
    # debug only: `frapnet host` prints this on stdout itself (not twice on one terminal)
    log.debug("hosting table {name} ({game}, {n} seats) on {bind}:{port}", name=table.name, game=tc.game,
              n=players, bind=config.bind, port=handle.port)
    if bots:
        seats = list(range(players - bots, players))
        handle.bots = start_bots(reactor, loopback_for(config.bind), handle.port, bots, level=tc.level,
                                 seed=tc.seed, seats=seats, delay=tc.bot_delay, password=tc.password)
        for bot, seat in zip(handle.bots, seats):  # set before their hello (sent once connected)
            bot.client.token = table.reserved_token(seat)
    if config.announce:
        handle.announcer = _announce(reactor, table, handle.port, config.interfaces, handle.web_port)
    return handle


def _open_journal(config: HostConfig, table: Table):
    """Give ``table`` its journal: resume this command's unfinished match from ``config.db``,
    or continue ``--resume --record FILE`` (the journal's own copy of that match if it holds
    one the file is the beginning of, else the file, stored anew), or start a new match.
    Returns ``(Journal or None, match id or None, resume summary or None)``."""
    tc = config.table
    from_record = config.resume and tc.record and os.path.exists(tc.record)
    if not config.db:
        if from_record:
            table.resume(record.load(tc.record))
            return None, None, record.resume_summary(table.state)
        return None, None, None
    db = Journal(config.db)
    try:
        st = table.state
        key = resume_key(table.name, st.game, st.players, dict(st.options), st.house_rules)
        waiting = db.unfinished(key) if config.continue_unfinished else []
        rec = record.load(tc.record) if from_record else None
        if not waiting and rec is not None:
            stored = db.with_record(tc.record)
            if stored is not None and _continues(db.record(stored[0]), rec):
                waiting = [stored[0]]
        for match_id in reversed(waiting):  # the newest first
            try:
                stored_rec = db.record(match_id)
                record.replay(stored_rec, table.registry, record.check_shuffle)  # a damaged proof too
            except record.ReplayError as exc:  # e.g. a plugin changed its rules: keep it, start anew
                log.error("journal {path}: match {id} does not replay ({err}); it stays in the journal "
                          "(frapnet export {id}) and a new match starts", path=db.path, id=match_id, err=exc)
                db.abandon(match_id, f"does not replay: {exc}")
                continue
            table.match_no = db.series(match_id)  # a rematch goes on as one (frapnet.net.rematch)
            table.journal = db.open_match(match_id, _record_of(db, match_id, tc.record, table.match_no), table.name)
            table.resume(stored_rec)
            return db, match_id, record.resume_summary(table.state)
        if rec is not None:
            table.resume(rec)
            mj = db.new_match(table.name, table.state, tc.record)
            mj.import_state(table.state, table.dealing.proofs)
            table.journal = mj
            return db, mj.id, record.resume_summary(table.state)
        table.journal = db.new_match(table.name, table.state, tc.record)
        return db, table.journal.id, None
    except sqlite3.Error as exc:  # e.g. the disk failed or another process holds the file
        db.close()
        raise JournalError(f"{config.db}: cannot use the journal ({exc})") from None
    except BaseException:
        db.close()
        raise


def _record_of(db: Journal, match_id: int, first: str | None, match: int) -> str | None:
    """The record file of stored match ``match_id``, number ``match`` of its series, resumed with
    ``--record first``: ``first`` for the first match; for a rematch the file the journal stored
    for it if it is one of ``first``'s (it may exist: its own), else the next free one
    (:func:`frapnet.net.rematch.record_path`: never another match's record)."""
    if first is None or match <= 1:
        return first
    stored, root = db.record_file(match_id), os.path.splitext(os.path.abspath(first))[0]
    if stored and stored.startswith(root + "."):
        return stored
    return rematch.record_path(first, match)


def _release(db, match_id) -> None:
    """The host did not start (a port taken): leave its match to the next run."""
    if db is not None:
        db.release(match_id)
        db.close()


def _continues(stored: dict, rec: dict) -> bool:
    """True if the record file ``rec`` is the beginning of the ``stored`` match: the same game,
    seats, options, house rules and, deal by deal, the same dealer and deck."""
    same = all(stored.get(k) == rec.get(k) for k in ("game", "players", "options", "house_rules"))
    ds, dr = stored["deals"], rec.get("deals") or []
    return same and len(dr) <= len(ds) and all(
        isinstance(b, dict) and (a["dealer"], a["deck"]) == (b.get("dealer"), b.get("deck")) for a, b in zip(ds, dr))


def _announce(reactor, table: Table, port: int, interfaces, web_port: int | None = None):
    """Announce the table on the LAN with frapnet.net.discovery (DNS-SD), keeping its TXT
    ``seats_free`` up to date (and ``web``, the web page's HTTP port, when it has one); None if
    announcing fails."""
    extra = {"web": web_port} if web_port is not None else {}

    def props():
        return discovery.table_props(table.state.game, table.free_seats(), table.state.players, PROTOCOL_VERSION,
                                     table.password is not None, **extra)
    try:
        ann = discovery.announce(reactor, table.name, port, props(), list(interfaces) if interfaces else None)
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
    """A Deferred firing (with None) when the concurrent.futures ``fut`` is done — its
    done-callback hops to the reactor with ``callFromThread`` — or after ``timeout`` seconds."""
    d = defer.Deferred()

    def fire() -> None:
        if not d.called:
            d.callback(None)
    timer = reactor.callLater(timeout, fire)
    fut.add_done_callback(lambda _f: reactor.callFromThread(fire))

    def done(result):
        if timer.active():
            timer.cancel()
        return result
    return d.addBoth(done)
