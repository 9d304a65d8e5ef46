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

    def welcome(self, seat: int | None, token: str | None, lang: str) -> dict:
        """The ``welcome`` message for ``seat`` (None: a spectator) with its ``token``
        (docs/protocol.md lists the fields)."""
        t = self.table
        st = t.state
        spec = st.spec
        return {
            "type": "welcome", "protocol": PROTOCOL_VERSION, "table": t.name, "game": st.game,
            "title": spec.title, "options": dict(st.options), "house_rules": list(st.house_rules),
            "rules": spec.describe(), "plugins": self._plugins(), "seat": seat, "token": token,
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
        out = self._event_frames(events) if events else {}
        for key, (p, frames) in self._view_frames().items():
            if key in out:
                out[key][1].extend(frames)
            else:
                out[key] = (p, frames)
        if after is not None:
            last = (after["type"], wire.frame(after), after)
            for p in self.peers():
                if id(p) in out:
                    out[id(p)][1].append(last)
                else:
                    out[id(p)] = (p, [last])
        self._deliver(out)

    def views(self) -> None:
        """Send every connected seat its own view and every spectator the public view.

        Fan-out once (issue #9 part 5): per language, the public view is built and encoded once
        (:func:`frapnet.engine.public_view`, :class:`frapnet.net.viewcodec.PublicEncoder`: balances,
        pot, seats, the last report — big integers past 2^64 included, F6 — and the ui map); per
        seat only its own keys are built (:func:`frapnet.engine.seat_part`: ``seat``, its hand
        once looked — F9 — its discards, its ``actions``, and its own ui fields if any: refusals,
        cursor…) and encoded. Every frame is byte-for-byte what encoding that seat's whole view
        alone gives (tests/test_fanout.py, test_net_wire.py)."""
        self._deliver(self._view_frames())

    def events(self, events: list[dict]) -> None:
        """Send each engine event (with its ``text`` from the game's ``frapnet_describe_event``
        in each recipient's language) to everyone; one message and one encoding per language.
        An event the plugin cannot describe or encode goes out as its type and words only."""
        if events:
            self._deliver(self._event_frames(events))

    # Frames to send, per peer (keyed by id, in peers() order): (kind, data, msg) — ``msg`` the
    # message map for a peer without ``send_frame`` (None for the others: never built for them).
    def _view_frames(self) -> dict[int, tuple]:
        t = self.table
        names, connection, deadlines = t.names, t.connection(), t.takeover.deadlines()
        public: dict[str, tuple] = {}  # lang -> (public view, its encoder; None: the game's view failed)
        out: dict[int, tuple] = {}

        def public_for(lang: str) -> tuple:
            if lang not in public:
                try:
                    v = engine.public_view(t.state, lang)
                    v["names"], v["connection"], v["table"], v["deadlines"] = names, connection, t.name, deadlines
                    public[lang] = (v, viewcodec.PublicEncoder("view", "view", v, self._encoders.get(lang)))
                except Exception:  # noqa: BLE001 - a game plugin's bug: per-seat views, logged there
                    public[lang] = (self.view_for(None, lang, names, connection), None)
            return public[lang]

        parts = self._seat_frames(public_for, t.versions.legal_now(t.state))
        for s in t.seats:
            p = s.peer
            if p is None:
                continue
            v, data = None, None
            bytes_only = hasattr(p, "send_frame")
            own, data = parts.get(s.index, (None, None))
            if data is not None and not bytes_only:
                v = {**public[p.lang][0], **own}
            if data is None:  # the slow path: the seat's whole view, encoded on its own
                v, data = self._frame_view(viewcodec.SharedEncoder(), s.index,
                                           self.view_for(s.index, p.lang, names, connection))
            out[id(p)] = (p, [("view", data, None if bytes_only else {"type": "view", "view": v})])
        spectator_frames: dict[str, tuple[dict, bytes]] = {}
        for p in t.spectators:
            if p.lang not in spectator_frames:
                pub, enc = public_for(p.lang)
                spectator_frames[p.lang] = (pub, enc.public_frame()) if enc is not None else \
                    self._frame_view(viewcodec.SharedEncoder(), None, pub)
            pub, data = spectator_frames[p.lang]
            out[id(p)] = (p, [("view", data, {"type": "view", "view": pub})])
        self._encoders = {lang: enc for lang, (_, enc) in public.items() if enc is not None}
        return out

    def _seat_frames(self, public_for, legal: list | None) -> dict[int, tuple[dict, bytes]]:
        """Per connected seat, its own part of the view (:func:`frapnet.engine.seat_parts`, one
        call per language) and its view's frame (:meth:`frapnet.net.viewcodec.PublicEncoder.frame_parts`).
        A seat whose language's public view failed, whose game hooks raised (each seat then
        alone, so only the failing one loses this path) or whose part cannot be encoded has none."""
        t = self.table
        by_lang: dict[str, list[int]] = {}
        for s in t.seats:
            if s.peer is not None:
                by_lang.setdefault(s.peer.lang, []).append(s.index)
        out: dict[int, tuple[dict, bytes]] = {}
        state = t.state
        for lang, seats in by_lang.items():
            pub, enc = public_for(lang)
            if enc is None:
                continue
            try:
                owns = engine.seat_parts(state, seats, pub, lang, legal)
            except Exception:  # noqa: BLE001 - a game plugin's bug: seat by seat, the failing ones left out
                owns = []
                for i in seats:
                    try:
                        owns.append(engine.seat_part(state, i, pub, lang, legal[i] if legal is not None else None))
                    except Exception:  # noqa: BLE001 - that seat gets its whole view, logged there
                        owns.append(None)
            for i, own, data in zip(seats, owns, enc.frame_parts(owns)):
                if data is not None:
                    out[i] = (own, data)
        return out

    def _event_frames(self, events: list[dict]) -> dict[int, tuple]:
        t = self.table
        names = t.names
        peers = self.peers()
        out: dict[int, tuple] = {id(p): (p, []) for p in peers}
        for ev in events:
            by_lang: dict[str, tuple[dict, bytes]] = {}  # one message and one encoding per language
            for p in peers:
                if p.lang not in by_lang:
                    try:
                        text = engine.describe_event(t.state, ev, names, p.lang)
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
                out[id(p)][1].append(("event", data, msg))
        return out

    @staticmethod
    def _deliver(out: dict[int, tuple]) -> None:
        """Send each peer its frames, in order: all in one call of its ``send_frames`` if it has
        one (a HostProtocol: one transport write), else one ``send_frame`` or ``send`` each. A
        peer whose sending raises is logged in one line and its connection aborted; the peers
        after it still get the change."""
        for p, frames in out.values():
            try:
                many = getattr(p, "send_frames", None)
                if many is not None:
                    many([(kind, data) for kind, data, _ in frames])
                    continue
                one = getattr(p, "send_frame", None)
                for kind, data, msg in frames:
                    if one is not None:
                        one(kind, data)
                    else:
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
