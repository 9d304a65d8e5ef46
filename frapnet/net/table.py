"""The referee of one table (issue #3): seats, tokens, the engine state and its version, and
applying actions (:func:`frapnet.engine.apply`) — without sockets. It uses the seats, fanout,
journal and takeover modules of frapnet.net; it talks to its connections through the *peer*
interface (:class:`frapnet.net.fanout.Peer`) and to time through ``callLater``, so tests drive
it with fake peers and ``twisted.internet.task.Clock``. Seats 0…n−1 clockwise; whole chips.
"""
from __future__ import annotations

import json
import random
import secrets
from typing import Any, Callable, Iterable

from twisted.logger import Logger

from frapnet import engine, record
from frapnet.errors import RuleError
from frapnet.net.config import TableConfig
from frapnet.net.dealing import FairDealing
from frapnet.net.fanout import Fanout
from frapnet.net.journal import RecordFile
from frapnet.net.protocol import PROTOCOL_VERSION, ProtocolError, distinct_name, version_compatible
from frapnet.net import amounts, protocol, rematch, seats
from frapnet.net.seats import BOT, CONNECTED, EMPTY, RECONNECTING, Seat, SeatVersions, same_secret, seat_with_token
from frapnet.net.takeover import Chooser, Takeover

log = Logger(namespace="frapnet.host")


class Table:
    """One table: seats, the engine state, and the referee's decisions (no sockets).

    ``config`` (:class:`frapnet.net.config.TableConfig`): name, game, seats, options, house
    rules — checked by :func:`frapnet.engine.new_match` (RuleError/PluginError) — password,
    grace period, pause, deals, record, the takeover player's level and delay, seed,
    spectator limit, nonce time. ``clock`` (``callLater``/``seconds``); ``rng`` (unseeded shuffle
    secrets, :class:`frapnet.net.dealing.FairDealing`, and the first dealer, F7; default ``random.SystemRandom``); ``registry`` (plugins); ``reserved`` (seats
    kept for the host's own computer players, ``--bots``: each has its token from the start
    (:meth:`reserved_token`), and only a hello with that token takes it — a hello without
    ``seat`` skips it, one naming it is refused with ``seat_taken``); ``choose`` (the
    takeover's computer player, :data:`frapnet.net.takeover.Chooser`; default a random legal
    move); ``on_finish`` (called once with the result dict); ``journal`` (a
    :class:`frapnet.net.journal.MatchJournal`; default a ``RecordFile`` of ``config.record``).

    Seat changes are told to everyone as events (docs/protocol.md "Seat events"). Once a person
    (a client without ``bot``) has sat here, no new deal starts while no person is connected:
    ``waiting`` is True until one is back (design.md principle 5); a table of computer players
    only deals on.
    """

    def __init__(self, config: TableConfig, *, clock, rng: random.Random | None = None, registry=None,
                 reserved: Iterable[int] = (), choose: Chooser | None = None,
                 on_finish: Callable[[dict], Any] | None = None, journal=None) -> None:
        self.config = config
        self.name = config.name
        self.registry = registry
        self.state = engine.new_match(config.game, config.players, config.options, config.house_rules, registry)
        self.clock = clock
        self.rng = rng if rng is not None else random.SystemRandom()
        self.seed = config.seed
        self.password = config.password
        self.grace = config.grace
        self.pause = config.pause
        self.deals = config.deals
        self.on_finish = on_finish
        reserved = set(reserved)
        self.seats = [Seat(i, i in reserved) for i in range(config.players)]
        for s in self.seats:  # only the host's own computer players get these (frapnet.hosting)
            if s.reserved:
                s.token = secrets.token_urlsafe(18)
        self.spectators: list = []
        self.max_spectators = config.max_spectators
        self.started = False
        self.finished = False
        self.result: dict | None = None
        self._next_deal_call = None
        self.fanout = Fanout(self)
        self.journal = journal if journal is not None else RecordFile(config.record)
        # the host's journal resumes an unfinished match with the same command (set by
        # frapnet.hosting for a journal with continue_unfinished): closing says ``resumable``
        self.resumes = False
        self.takeover = Takeover(self, clock, choose, config.level, config.bot_delay, config.seed, config.turn_time)
        self.dealing = FairDealing(self, config.nonce_time)  # every deal's commit–reveal (fairness.md)
        self.actions_applied = 0
        self.rejected = 0
        self.versions = SeatVersions(self.state.players)  # when an act is stale (docs/protocol.md act)
        self.on_seats_changed: Callable[[], Any] | None = None
        self._rejoined = False  # set by _claim: the last hello took back a held seat
        self.had_human = False  # a person (not a computer player) has sat at this table
        self.waiting = False  # between deals, waiting for a person to come back (principle 5)
        self.match_no = 1  # 2, 3… after rematches with the same seats
        self.rematch: rematch.Rematch | None = None  # the open rematch offer at a match's end

    # --- descriptions ------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Per seat 0…n−1, the player's name ("" while empty)."""
        return [s.name for s in self.seats]

    def connection(self) -> list[str]:
        """Per seat: ``"connected"``, ``"reconnecting"``, ``"bot"`` or ``"empty"``."""
        return [s.status for s in self.seats]

    def free_seats(self) -> int:
        """How many seats a newcomer may take (for the LAN announcement's ``seats_free``): the
        empty ones and those the host plays because their player left (:meth:`open_seat`)."""
        return sum(1 for s in self.seats if s.status == EMPTY or self.open_seat(s))

    @staticmethod
    def open_seat(s: Seat) -> bool:
        """A seat the host plays because its person left or did not come back in time (issue #10
        item 7): free for anyone to take — the player who quit, or a newcomer — with a new token."""
        return s.takeover and s.peer is None and not s.reserved

    def players_info(self) -> list[dict]:
        """The welcome's ``players``: per seat ``{"seat", "name", "connection"}``."""
        return [{"seat": s.index, "name": s.name, "connection": s.status} for s in self.seats]

    def welcome(self, seat: int | None, token: str | None, lang: str, name: str = "") -> dict:
        """The ``welcome`` message for ``seat`` (None: a spectator) with its ``token`` and the
        ``name`` the table knows it by (:meth:`frapnet.net.fanout.Fanout.welcome`)."""
        return self.fanout.welcome(seat, token, lang, name)

    def view_for(self, seat: int | None, lang: str) -> dict:
        """The view ``seat`` (None: public) gets now, in ``lang`` (:meth:`Fanout.view_for`)."""
        return self.fanout.view_for(seat, lang)

    def broadcast_views(self) -> None:
        """Send every connected seat its own view and every spectator the public view."""
        self.fanout.views()

    def _changed(self, events: list[dict] = (), after: dict | None = None) -> None:
        self.takeover.turn_clock()  # before the views: they carry the deadlines
        self.fanout.change(list(events), after)  # the events, the views, ``after``: one write per connection
        self.takeover.schedule()
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
        if self.password is not None and not same_secret(hello.get("password") or "", self.password):
            raise ProtocolError("password", "wrong or missing password for table " + repr(self.name), fatal=True)
        peer.lang = hello["lang"]
        if self.finished:
            raise ProtocolError("table_full", "the match at this table has ended", fatal=True)
        rematch.check_join(self, hello)  # a newcomer while a rematch is offered: the match has ended
        if hello["spectate"]:
            if len(self.spectators) >= self.max_spectators:
                raise ProtocolError("busy", f"table {self.name!r} already has {self.max_spectators} spectators; "
                                            "try later", fatal=True)
            peer.name = distinct_name(hello["name"], self.names + [getattr(p, "name", "") for p in self.spectators])
            self.spectators.append(peer)
            peer.seat = None
            log.info("table {table}: spectator {name} joined", table=self.name, name=peer.name)
            peer.send(self.welcome(None, None, peer.lang, peer.name))
            self.dealing.catch_up(peer)
            peer.send({"type": "view", "view": self.fanout.view_for(None, peer.lang)})
            rematch.resend(self, peer)
            return None
        seat = self._claim(peer, hello)
        s = self.seats[seat]
        peer.seat = seat
        peer.send(self.welcome(seat, s.token, peer.lang, s.name))
        self.dealing.catch_up(peer)
        if self._rejoined:
            self.fanout.seat_event("seat_back", s)
        else:
            self.fanout.seat_event("seat_joined", s, bot=s.is_bot)
        self._changed()
        rematch.resend(self, peer)
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
        s = seat_with_token(self.seats, token)
        if token:
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
            if s.status != EMPTY and not self.open_seat(s):
                raise ProtocolError("seat_taken", f"seat {want} is taken by {s.name!r}; to take it back "
                                                  "send its token", fatal=True)
            if s.reserved:
                raise ProtocolError("seat_taken", f"seat {want} is kept for the host's computer player",
                                    fatal=True)
        else:
            free = [x for x in self.seats if x.status == EMPTY and not x.reserved] or \
                [x for x in self.seats if self.open_seat(x)]  # then one the host plays for a player gone
            if not free:
                raise ProtocolError("table_full", f"every seat at {self.name!r} is taken; join as a spectator",
                                    fatal=True)
            s = free[0]
        if self.open_seat(s):
            self.takeover.cancel(s.index)  # its computer player stops: a person sits here again
        s.name = distinct_name(hello["name"], [x.name for x in self.seats if x is not s]  # "Olga 2" (issue #9)
                               + [getattr(p, "name", "") for p in self.spectators])
        if not s.reserved:
            s.token = secrets.token_urlsafe(18)
        s.peer = peer
        s.is_bot = hello.get("bot", False)
        s.status = BOT if s.is_bot else CONNECTED
        s.takeover = False
        if not s.is_bot:
            self.had_human = True
            self._wake()
        self.journal.seats_changed(self.name, self.seats)
        log.info("table {table}: {name} took seat {seat}{bot}", table=self.name, name=s.name, seat=s.index,
                 bot=" (computer)" if s.is_bot else "")
        return s.index

    def _reclaim(self, s: Seat, peer, hello: dict) -> int:
        if s.peer is not None and s.peer is not peer:  # the old connection is stale: replace it
            old = s.peer
            s.peer = None
            old.seat = None
            old.close(protocol.REPLACED)  # closing's code "replaced" (docs/protocol.md)
        self.takeover.cancel_grace(s)
        was_open, s.takeover = s.takeover, False
        s.peer = peer
        s.status = BOT if s.is_bot else CONNECTED
        self.takeover.cancel(s.index)
        self._rejoined = True
        if was_open:  # its player is back with the token: the seat is no longer free (after a restart too)
            self.journal.seats_changed(self.name, self.seats)
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
        self.dealing.busy or self.dealing.start(self._deal_ready)  # the deck: seed + nonces (fairness.md)

    def _deal_ready(self, deck: list, proof: dict) -> None:
        dealer = self.rng.randrange(self.state.players) if self.state.dealer is None else None  # F7: by lot
        state, events = engine.start_deal(self.state, deck, dealer)
        if amounts.past_limit(state):  # its antes: more digits than the protocol carries (issue #9)
            return self.finish(amounts.PAST, capped=True)
        self.state = state
        self._track_versions(None)
        self.journal.deal_started(self.state, proof)
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
        if not self.versions.current(seat, version, self.state):
            self.rejected += 1
            raise ProtocolError("stale", f"the action was made against state version {version}; seat {seat}'s "
                                         f"choices changed at version {self.versions.since[seat]} (already applied, or "
                                         f"the table moved on)")
        try:
            new, events = engine.apply(self.state, seat, action)
        except RuleError as exc:
            self.rejected += 1
            raise ProtocolError("illegal", exc.message, exc.rule) from None
        if amounts.past_limit(new):  # never a view no client can decode: the match ends before it
            return self.finish(amounts.PAST, capped=True)
        self.state = new
        self.actions_applied += 1
        self._track_versions(seat)
        self.journal.action_applied(self.state)  # before its effects are sent (design.md principle 5)
        self._changed(events, self.dealing.reveal() if self.state.phase != engine.DEAL else None)
        self._after_change()

    def _track_versions(self, actor: int | None) -> None:
        """After a change: :meth:`frapnet.net.seats.SeatVersions.track` (``actor``: the seat that
        just acted; None: every seat's choices count as changed)."""
        self.versions.track(self.state, actor, engine.legal_actions)

    def _after_change(self) -> None:
        st = self.state
        if st.phase == engine.DEAL:
            return
        self.dealing.over()  # the deal has ended: reveal its seed, after its last event and views
        if st.phase == engine.OVER or (self.deals is not None and st.deal_no >= self.deals):
            if not rematch.offer(self):  # a rematch with the same seats, if allowed and a person is here
                self.finish("match over")
        elif amounts.near_limit(st):  # the next deal could pass what the protocol carries (issue #9)
            self.finish(amounts.NEAR, capped=True)
        elif self._next_deal_call is None:
            self._next_deal_call = self.clock.callLater(self.pause, self._start_deal)

    # --- chat, leaving, connection loss ------------------------------------------------------
    def chat(self, peer, text: str) -> None:
        """Send a (cleaned) chat line from ``peer`` to everyone at the table."""
        if not text:
            return
        seat = getattr(peer, "seat", None)
        name = self.seats[seat].name if seat is not None else getattr(peer, "name", "spectator")
        self.fanout.send_all({"type": "chat", "seat": seat, "name": name, "text": text})

    def leave(self, peer) -> None:
        """``peer`` leaves: a seat is played by the host from now on (or freed before the match)."""
        self.lost(peer, left=True)
        peer.close(protocol.LEFT)  # closing's code "left"

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
        if self.rematch is not None:
            self.rematch.gone(seat)  # no rematch with the same seats: the table ends
        if self.finished:
            return
        if left:
            log.info("table {table}: {name} left seat {seat}", table=self.name, name=s.name, seat=seat)
            self.fanout.seat_event("seat_left", s, takeover=self.started)
            self._give_up(s)
        else:
            log.info("table {table}: {name} at seat {seat} disconnected; holding the seat for {grace}s",
                     table=self.name, name=s.name, seat=seat, grace=self.grace)
            s.status = RECONNECTING
            self.takeover.start_grace(s, self.grace)
            self.fanout.seat_event("seat_lost", s, grace=self.grace)
            self._changed()

    def grace_over(self, seat: int) -> None:
        """The grace period of ``seat`` ran out (:class:`frapnet.net.takeover.Takeover`): if the
        player is still away, the host plays the seat from now on (freed before the match)."""
        s = self.seats[seat]
        s.grace_call = None
        if s.status == RECONNECTING and not self.finished:
            log.info("table {table}: seat {seat} ({name}) did not come back in time", table=self.name, seat=seat,
                     name=s.name)
            if self.started:
                self.fanout.seat_event("seat_takeover", s)
            else:
                self.fanout.seat_event("seat_left", s, takeover=False)
            self._give_up(s)

    def _give_up(self, s: Seat) -> None:
        self.takeover.cancel_grace(s)
        if self.started:
            s.status = BOT  # the host plays the seat; the token still takes it back
            s.takeover = True  # free to take (open_seat): stored, so a restarted host frees it too
        else:
            s.status, s.name, s.is_bot = EMPTY, "", False
            if not s.reserved:  # a kept seat keeps its token: the host's computer player may come back
                s.token = None
        self.journal.seats_changed(self.name, self.seats)
        self._changed()

    # --- ending ------------------------------------------------------------------------------
    def result_dict(self) -> dict:
        """``table``, ``game``, ``deals`` (started), ``match_over``, ``unfinished`` (ended mid-deal: rules/frap.md
        "What frapnet decided" 7), the game's match report (``balances`` and ``pot`` in chips, or ``points``)."""
        st = self.state
        out = {"table": self.name, "game": st.game, "deals": st.deal_no, "match_over": st.phase == engine.OVER,
               "unfinished": st.phase == engine.DEAL}
        out.update(engine.match_report(st))
        return out

    def finish(self, reason: str, capped: bool = False) -> None:
        """End the table: store it (over if the match ended — ``capped``: its amounts reached what
        the protocol carries, :mod:`frapnet.net.amounts` — else for the same command to resume),
        tell everyone (``closing`` with the result)."""
        if self.finished:
            return
        self.finished = True
        if self.rematch is not None:
            self.rematch.cancel()
            self.rematch = None
        self.takeover.cancel_all()
        self.dealing.cancel()
        if self._next_deal_call is not None and self._next_deal_call.active():
            self._next_deal_call.cancel()
        self.result = self.result_dict()
        st = self.state  # over: the game's end, or the deals asked for played (not resumable)
        over = capped or st.phase == engine.OVER or st.phase != engine.DEAL and st.deal_no >= (self.deals or st.deal_no + 1)
        self.journal.finished(st, self.result, over, reason)
        log.info("table {table}: {reason}; result {result}", table=self.name, reason=reason,
                 result=json.dumps(self.result))
        # resumable (issue #9): the same host command resumes this match from its journal, so the
        # clients keep their seat tokens and an unrevealed deal is interrupted, not failed
        self.fanout.send_all({"type": "closing", "reason": reason, "result": self.result,
                              "resumable": bool(self.resumes and not over)})
        if self.on_finish is not None:
            self.on_finish(self.result)

    # --- a rematch with the same seats (issue #10 item 7; frapnet.net.rematch) -----------------
    def rematch_answer(self, peer, accept: bool) -> None:
        """``peer``'s answer to the rematch offer. Raises ProtocolError ``no_rematch`` when none
        is open; a spectator's answer changes nothing."""
        if self.rematch is None:
            raise ProtocolError("no_rematch", "no rematch is on offer at this table now")
        if getattr(peer, "seat", None) is not None:
            self.rematch.answer(peer.seat, accept)

    # --- resuming after a restart (design.md principle 5) -------------------------------------
    def resume(self, rec: dict) -> None:
        """Continue the match written in ``rec`` (this table's record): replay it (mid-deal
        included) with its shuffle proofs (fairness.md), advance the rng past the first dealer's
        draw, and give every seat ``journal.saved_seats`` back its name and token, ``reconnecting`` (its grace
        starts now) or, taken over before, free to take (:func:`frapnet.net.seats.restore_seats`).

        Raises :class:`frapnet.record.ReplayError` if the record does not replay or a deal's shuffle
        proof does not verify (:func:`frapnet.record.check_shuffle`), ValueError if
        it is for another game, seat count or options.
        """
        state, _ = record.replay(rec, self.registry, record.check_shuffle)  # a damaged proof: refused
        st = self.state
        if (state.game, state.players, state.options, state.house_rules) != \
                (st.game, st.players, st.options, st.house_rules):
            raise ValueError(f"the record is for {state.game} with {state.players} players and options "
                             f"{state.options}, not this table's {st.game}, {st.players}, {st.options}")
        self.state = state
        self.dealing.resume(rec, state)
        self._track_versions(None)
        self.started = state.deal_no > 0
        for s in seats.restore_seats(self.seats, self.journal.saved_seats(len(self.seats)), self.started):
            self.takeover.start_grace(s, self.grace)
        self.had_human = self.had_human or any(s.token and not (s.reserved or s.is_bot) for s in self.seats)
        log.info("table {table}: resumed {where} (state version {v})", table=self.name,
                 where=record.resume_summary(state), v=state.version)
        if self.started:
            self.takeover.schedule()  # the seats it plays move on in the deal in play
            self._after_change()
