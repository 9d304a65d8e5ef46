"""The fan-out: building each seat's view and every event, encoding them, and sending them to a
table's connections (issue #3; docs/protocol.md "Views", "Events", "Seat events").

:class:`Fanout` is owned by a :class:`frapnet.net.table.Table` and reads the table's seats,
spectators and state; it never changes them. Every seat gets only its own view
(``engine.view(state, seat)``: its own hand, F9); spectators get the public view.

Connections are *peers* (:class:`Peer`): ``peer.send(msg)``, ``peer.lang``, and optionally
``peer.send_frame(kind, data)`` taking bytes already encoded once for many peers and
``peer.send_frames([(kind, data), …])`` taking a change's frames at once, in order (a
:class:`frapnet.net.server.HostProtocol` has both: one transport write per change; test doubles
need neither).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from twisted.logger import Logger

from frapnet import engine
from frapnet.net import viewcodec, wire
from frapnet.net.protocol import PROTOCOL_VERSION
from frapnet.net.seats import Seat, seat_event_text
from frapnet.plugins import default_registry

if TYPE_CHECKING:  # pragma: no cover - for annotations only
    from frapnet.net.table import Table

log = Logger(namespace="frapnet.host")


class Peer(Protocol):
    """What a table needs of one connection (a seat's or a spectator's)."""

    lang: str
    """The language of its texts (``"en"``, ``"ru"``)."""
    seat: int | None
    """Its seat 0…n−1, None for a spectator or once it has left."""

    def send(self, msg: dict) -> None:
        """Send one message map."""

    def close(self, reason: str) -> None:
        """Tell it why (``closing``) and close the connection."""


_NO_FRAME = (None, None)


_TAKES_FRAMES: dict[type, bool] = {}


def _takes_frames(peer) -> bool:
    """Does ``peer`` take encoded frames (``send_frame``: a HostProtocol), or only message maps?
    (Asked of its class, once.)"""
    kind = type(peer)
    takes = _TAKES_FRAMES.get(kind)
    if takes is None:
        takes = hasattr(peer, "send_frame")
        if hasattr(kind, "send_frame"):  # a method of the class: the same for all its peers
            _TAKES_FRAMES[kind] = takes
    return takes


def send_frame(peer, msg: dict, data: bytes) -> None:
    """Send ``msg`` already encoded as ``data`` (``wire.frame(msg)``) to ``peer``: its
    ``send_frame(kind, data)`` if it has one (a HostProtocol), else ``send(msg)``."""
    sender = getattr(peer, "send_frame", None)
    if sender is not None:
        sender(msg["type"], data)
    else:
        peer.send(msg)


class Fanout:
    """Views and events of one ``table``, built and encoded once per change and sent to its
    seats' connections and spectators."""

    def __init__(self, table: "Table") -> None:
        self.table = table
        self._encoders: dict[str, viewcodec.PublicEncoder] = {}
        """Per language, the encoder of the last public view sent: what is unchanged since keeps
        its bytes (the score sheet's rows, the last report, unchanged balances)."""
        self._lists: dict[str, list] = {}
        """The last ``names``, ``connection`` and ``deadlines`` lists sent: an equal new one is
        replaced by the very same object, whose bytes the encoder then reuses."""

    def _same(self, key: str, value: list) -> list:
        """``value``, or the last list sent under ``key`` if it is equal (lists of str, float or
        None: equal means the same bytes)."""
        last = self._lists.get(key)
        if last == value:
            return last
        self._lists[key] = value
        return value

    def peers(self) -> list:
        """Every connection at the table: the seats' (in seat order), then the spectators."""
        t = self.table
        return [s.peer for s in t.seats if s.peer is not None] + list(t.spectators)

    def _plugins(self) -> list[dict]:
        t = self.table
        reg = t.registry or default_registry()
        out = []
        names = {t.state.game: "game", **{h: "house_rule" for h in t.state.house_rules}}
        for info in reg.plugins:
            provides = [g for g in info.games if g in names] + [h for h in info.house_rules if h in names]
            if provides and not info.error:
                out.append({"name": info.name, "version": info.version, "provides": provides})
        return out

    def welcome(self, seat: int | None, token: str | None, lang: str, name: str = "") -> dict:
        """The ``welcome`` message for ``seat`` (None: a spectator) with its ``token`` and
        ``name``: the connection's name as the table shows it, cleaned and made distinct
        (docs/protocol.md lists the fields)."""
        t = self.table
        st = t.state
        spec = st.spec
        return {
            "type": "welcome", "protocol": PROTOCOL_VERSION, "table": t.name, "game": st.game,
            "title": spec.title, "options": dict(st.options), "house_rules": list(st.house_rules),
            "rules": spec.describe(), "plugins": self._plugins(), "seat": seat, "token": token, "name": name,
            "players": t.players_info(), "password": t.password is not None, "grace": t.grace,
            "deals": t.deals, "turn_time": t.takeover.turn_time,
        }

    # --- views -----------------------------------------------------------------------------
    def view_for(self, seat: int | None, lang: str, names: list | None = None,
                 connection: list | None = None) -> dict:
        """``engine.view`` for ``seat`` (None: public) plus ``names``, ``connection``, ``table``
        (``names``/``connection``: those lists already made for this state, shared by a fan-out).
        A game plugin whose view raises gets the generic view (no cards), logged."""
        t = self.table
        try:
            v = engine.view(t.state, seat, lang)
        except Exception:  # noqa: BLE001 - a game plugin's bug: fall back to the generic keys
            log.failure("table {table}: the game's view for seat {seat} failed", table=t.name, seat=seat)
            v = self.generic_view(seat)
        v["names"] = t.names if names is None else names
        v["connection"] = t.connection() if connection is None else connection
        v["table"] = t.name
        v["deadlines"] = t.takeover.deadlines()
        return v

    def generic_view(self, seat: int | None) -> dict:
        """The generic keys only (no cards): what a seat gets when the game's view fails."""
        t = self.table
        st = t.state
        return {"game": st.game, "players": st.players, "seat": seat, "version": st.version,
                "deal_no": st.deal_no, "balances": list(st.balances), "pot": st.pot, "to_act": list(st.to_act),
                "actions": [], "names": t.names, "connection": t.connection(), "table": t.name,
                "deadlines": t.takeover.deadlines()}

    def _frame_view(self, enc, seat: int | None, v: dict) -> tuple[dict, bytes]:
        """``v`` framed by ``enc``; if it cannot be encoded (a game plugin put a value with no
        msgpack form in its view), log it and frame the generic view instead."""
        try:
            return v, enc.frame("view", "view", v)
        except (TypeError, ValueError, OverflowError):
            log.failure("table {table}: the view for seat {seat} cannot be sent", table=self.table.name, seat=seat)
            v = self.generic_view(seat)
            return v, wire.frame({"type": "view", "view": v})

    def change(self, events: list[dict], after: dict | None = None) -> None:
        """After a change of the table: every engine event (:meth:`events`), then every view
        (:meth:`views`), then ``after`` if given (a message for everyone, encoded once: a deal's
        ``shuffle_reveal``) — each peer's frames of the change in that order, in one transport
        write (:meth:`frapnet.net.wire.FramedProtocol.sendFrames`)."""
        t = self.table
        names = self._same("names", t.names)
        ev = None
        if events:
            langs = {s.peer.lang for s in t.seats if s.peer is not None}
            langs.update(p.lang for p in t.spectators)
            ev = self._event_frames(events, langs, names)
        post = ((after["type"], wire.frame(after)), after) if after is not None else None
        self._deliver(self._view_frames(names, ev, post))

    def views(self) -> None:
        """Send every connected seat its own view and every spectator the public view.

        Fan-out once (issue #9 part 5): per language, the public view is built and encoded once
        (:func:`frapnet.engine.public_view`, :class:`frapnet.net.viewcodec.PublicEncoder`: balances,
        pot, seats, the last report — big integers past 2^64 included, F6 — and the ui map); per
        seat only its own keys are built (:func:`frapnet.engine.seat_parts`: ``seat``, its hand
        once looked — F9 — its discards, its ``actions``, and its own ui fields if any: refusals,
        cursor…) and encoded. Every frame is byte-for-byte what encoding that seat's whole view
        alone gives (tests/test_fanout.py, test_net_wire.py)."""
        self._deliver(self._view_frames())

    def events(self, events: list[dict]) -> None:
        """Send each engine event (with its ``text`` from the game's ``frapnet_describe_event``
        in each recipient's language) to everyone; one message and one encoding per language.
        An event the plugin cannot describe or encode goes out as its type and words only."""
        if not events:
            return
        peers = self.peers()
        by_lang = self._event_frames(events, {p.lang for p in peers})
        self._deliver([(p, list(by_lang[p.lang][0]), None if _takes_frames(p) else list(by_lang[p.lang][1]))
                       for p in peers])

    # A change's frames to send: per peer, in peers() order, (peer, frames, msgs) — ``frames`` a
    # list of (kind, data), ``msgs`` the same messages as maps for a peer that takes no encoded
    # frames (a test double with ``send`` only; None for the others: never built for them).
    def _view_frames(self, names: list | None = None, ev: dict | None = None, post: tuple | None = None) -> list[tuple]:
        """Every peer's frames of a change: ``ev``'s (per language, the events' frames and
        messages, :meth:`_event_frames`), its view, then ``post`` (a ``(kind, data)`` frame and
        its message) — ``(peer, frames, msgs)`` per peer, seats (in seat order) then spectators."""
        t = self.table
        same = self._same
        names = same("names", t.names) if names is None else names
        connection = same("connection", t.connection())
        deadlines = same("deadlines", t.takeover.deadlines())
        public: dict[str, tuple] = {}  # lang -> (public view, its encoder; None: the game's view failed)
        out: list[tuple] = []
        append = out.append
        tail = [post[0]] if post is not None else []

        def public_for(lang: str) -> tuple:
            if lang not in public:
                try:
                    v = engine.public_view(t.state, lang)
                    v["names"], v["connection"], v["table"], v["deadlines"] = names, connection, t.name, deadlines
                    public[lang] = (v, viewcodec.PublicEncoder("view", "view", v, self._encoders.get(lang)))
                except Exception:  # noqa: BLE001 - a game plugin's bug: per-seat views, logged there
                    public[lang] = (self.view_for(None, lang, names, connection), None)
            return public[lang]

        def msgs_of(lang: str, view: dict) -> list:  # the change as maps (a peer that takes no frames)
            return [*(ev[lang][1] if ev else ()), {"type": "view", "view": view}, *([post[1]] if post else ())]

        seated = [s for s in t.seats if s.peer is not None]
        owns, datas = self._seat_frames(public_for, t.versions.legal_now(t.state), seated)
        one_lang = ev is not None and len(ev) == 1
        head = next(iter(ev.values()))[0] if one_lang else []
        for s, own, data in zip(seated, owns, datas):
            p = s.peer
            if data is not None and _takes_frames(p):  # the usual case: the frames alone
                pre = head if one_lang or ev is None else ev[p.lang][0]
                append((p, [*pre, ("view", data), *tail], None))
                continue
            if data is None:  # the slow path: the seat's whole view, encoded on its own
                v, data = self._frame_view(viewcodec.SharedEncoder(), s.index,
                                           self.view_for(s.index, p.lang, names, connection))
            else:
                v = {**public[p.lang][0], **own}
            pre = ev[p.lang][0] if ev else []
            append((p, [*pre, ("view", data), *tail], None if _takes_frames(p) else msgs_of(p.lang, v)))
        spectator_frames: dict[str, tuple[dict, bytes]] = {}
        for p in t.spectators:
            if p.lang not in spectator_frames:
                pub, enc = public_for(p.lang)
                spectator_frames[p.lang] = (pub, enc.public_frame()) if enc is not None else \
                    self._frame_view(viewcodec.SharedEncoder(), None, pub)
            pub, data = spectator_frames[p.lang]
            pre = ev[p.lang][0] if ev else []
            append((p, [*pre, ("view", data), *tail], None if _takes_frames(p) else msgs_of(p.lang, pub)))
        self._encoders = {lang: enc for lang, (_, enc) in public.items() if enc is not None}
        return out

    def _seat_frames(self, public_for, legal: list | None, seated: list[Seat]) -> tuple[list, list]:
        """Per seat of ``seated`` (seats with a connection), its own part of the view
        (:func:`frapnet.engine.seat_parts`, one call per language) and its view's frame
        (:meth:`frapnet.net.viewcodec.PublicEncoder.frame_parts`) — two lists in ``seated``'s
        order — or None and None: a seat whose language's public view failed, whose game hooks
        raised (each seat then alone, so only the failing one loses this path) or whose part
        cannot be encoded."""
        state = self.table.state
        langs = {s.peer.lang for s in seated}
        if len(langs) == 1:  # one language at the table (the usual case): one call, in seat order
            groups = [(langs.pop(), seated)]
        else:
            by_lang: dict[str, list[Seat]] = {}
            for s in seated:
                by_lang.setdefault(s.peer.lang, []).append(s)
            groups = list(by_lang.items())
        out: dict[int, tuple] = {}
        for lang, seats in groups:
            pub, enc = public_for(lang)
            if enc is None:
                continue
            index = [s.index for s in seats]
            try:
                owns = engine.seat_parts(state, index, pub, lang, legal)
            except Exception:  # noqa: BLE001 - a game plugin's bug: seat by seat, the failing ones left out
                owns = []
                for i in index:
                    try:
                        owns.append(engine.seat_part(state, i, pub, lang, legal[i] if legal is not None else None))
                    except Exception:  # noqa: BLE001 - that seat gets its whole view, logged there
                        owns.append(None)
            datas = enc.frame_parts(owns)
            if len(groups) == 1:
                return owns, datas
            for i, own, data in zip(index, owns, datas):
                if data is not None:
                    out[i] = (own, data)
        pairs = [out.get(s.index, _NO_FRAME) for s in seated]
        return [own for own, _ in pairs], [data for _, data in pairs]

    def _event_frames(self, events: list[dict], langs: set[str], names: list | None = None) -> dict[str, tuple[list, list]]:
        """Per language of ``langs``: the frames of ``events`` — ``[(kind, data)]`` — and the
        same messages as maps, each with its ``text`` in that language (``names``: the seats'
        names, if the caller has them)."""
        t = self.table
        names = t.names if names is None else names
        out: dict[str, tuple[list, list]] = {}
        for lang in langs:
            pairs, msgs = [], []
            for ev in events:
                try:
                    text = engine.describe_event(t.state, ev, names, lang)
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
                pairs.append(("event", data))
                msgs.append(msg)
            out[lang] = (pairs, msgs)
        return out

    @staticmethod
    def _deliver(out: list[tuple]) -> None:
        """Send each peer its frames, in order — ``out``: ``(peer, frames, msgs)`` per peer, as
        :meth:`_view_frames` gives them: all in one call of its ``send_frames`` if it has one (a
        HostProtocol: one transport write), else one ``send_frame`` each, else ``send`` of each of
        ``msgs``. A peer whose sending raises is logged in one line and its connection aborted;
        the peers after it still get the change."""
        for p, frames, msgs in out:
            try:
                many = getattr(p, "send_frames", None)
                if many is not None:
                    many(frames)
                    continue
                one = getattr(p, "send_frame", None)
                if one is not None:
                    for kind, data in frames:
                        one(kind, data)
                else:
                    for msg in msgs:
                        p.send(msg)
            except Exception as exc:  # noqa: BLE001 - one broken connection must not cost the others the change
                log.error("cannot send to {peer}: {err}; closing that connection",
                          peer=getattr(p, "peer_desc", "a peer"), err=repr(exc)[:200])
                try:
                    p.transport.abortConnection()
                except Exception:  # noqa: BLE001 - already gone, or not a transport
                    pass

    def seat_event(self, kind: str, s: Seat, **facts) -> None:
        """Tell everyone at the table (seats and spectators) about a change at seat ``s``: an
        ``event`` of type ``kind`` (``seat_joined``, ``seat_lost``, ``seat_back``,
        ``seat_left``, ``seat_takeover``) with ``seat``, ``name``, ``facts`` and ``text`` in
        each recipient's language (:func:`frapnet.net.seats.seat_event_text`); encoded once per
        language."""
        ev = {"type": kind, "seat": s.index, "name": s.name, **facts}
        by_lang: dict[str, tuple[dict, bytes]] = {}
        for p in self.peers():
            if p.lang not in by_lang:
                msg = {"type": "event", "event": dict(ev, text=seat_event_text(ev, p.lang))}
                by_lang[p.lang] = (msg, wire.frame(msg))
            msg, data = by_lang[p.lang]
            send_frame(p, msg, data)

    def send_all(self, msg: dict) -> None:
        """``msg`` to every seat's connection and every spectator, encoded once."""
        data = wire.frame(msg)
        for p in self.peers():
            send_frame(p, msg, data)
