"""Leak test (design.md principle 4, issue #3): over many random deals, every byte the host sends
to a seat or to a spectator is scanned for any card that seat may not see at that moment — over
TCP and over the browser's WebSocket (issue #12: seat 0 and a second spectator are WebSocket
connections through frapnet.net.web; their raw WebSocket bytes, HTTP upgrade included, are scanned).

"May see", for seat i during a deal (rules-frap.md):
- its own hand, once it has looked (F9) — and every card it has held while looking this deal,
  including the cards it discarded when buying (F15), for the turn-up (F16) or after a cut-in,
  and the hand it threw away on cutting in (F17);
- every turn-up of the deal, dead ones included (F8, F12), face up on the table;
- every card played to a trick (F19–F21).
A spectator may see only the turn-ups and played cards. Every other card of the pack (other
hands, the talon, other players' discards, an unlooked own hand) is forbidden; its encodings
(the msgpack string "10H" and the text form "10♥") must never appear in that stream.
"""
from __future__ import annotations

import random

import msgpack
import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet import engine
from frapnet.cards import format_card
from frapnet.net import wire
from frapnet.net.config import TableConfig
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.net.protocol import PROTOCOL_VERSION
from frapnet.net.web import web_factory


class Conn:
    _n = 50000

    def __init__(self, factory, name, **hello):
        Conn._n += 1
        addr = IPv4Address("TCP", "127.0.0.1", Conn._n)
        self.proto = factory.buildProtocol(addr)
        self.tr = StringTransportWithDisconnection(peerAddress=addr)
        self.tr.protocol = self.proto
        self.proto.makeConnection(self.tr)
        self.scanned = 0
        self.pos = 0
        self.view = None
        self.proto.dataReceived(wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, **hello}))
        self.seat = self.read()[0]["seat"]

    def send(self, msg: dict) -> None:
        self.proto.dataReceived(wire.frame(msg))

    def new_bytes(self) -> bytes:
        data = self.tr.value()
        out = data[self.scanned:]
        self.scanned = len(data)
        return out

    def read(self):
        data = self.tr.value()
        out = []
        while len(data) - self.pos >= 4:
            n = int.from_bytes(data[self.pos:self.pos + 4], "big")
            msg = wire.decode(data[self.pos + 4:self.pos + 4 + n])
            self.pos += 4 + n
            out.append(msg)
            if msg["type"] == "view":
                self.view = msg["view"]
            assert msg["type"] != "error", msg
        return out


class WSConn:
    """A seat or spectator over the web endpoint's WebSocket (conftest.MemoryWebSocket)."""

    def __init__(self, memory_ws, wf, name, **hello):
        self.c = memory_ws(wf)
        assert self.c.accepted
        self.scanned = 0
        self.view = None
        self.c.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, **hello})
        self.seat = self.read()[0]["seat"]

    def send(self, msg: dict) -> None:
        self.c.send(msg)

    def new_bytes(self) -> bytes:
        data = self.c.raw()
        out = data[self.scanned:]
        self.scanned = len(data)
        return out

    def read(self):
        out = self.c.read()
        for msg in out:
            assert msg["type"] != "error", msg
        self.view = self.c.view
        return out


def encodings(card: str) -> tuple[bytes, bytes]:
    return msgpack.packb(card), format_card(card, symbols=True).encode()


class Knowledge:
    """Per-deal accumulated 'may see' sets, updated from the engine state after every step."""

    def __init__(self, n):
        self.n = n
        self.deal_no = None

    def update(self, state):
        d = state.deal
        if d is None:
            return
        if state.deal_no != self.deal_no:
            self.deal_no = state.deal_no
            self.public: set[str] = set()
            self.own = [set() for _ in range(self.n)]
        if d.turn_up:
            self.public.add(d.turn_up)
        self.public.update(d.dead_turn_ups)
        if d.blind_turn_up:
            self.public.add(d.blind_turn_up)
        for _, c in d.trick:
            self.public.add(c)
        for _, c in d.last_trick or ():
            self.public.add(c)
        for i in range(self.n):
            if d.looked[i]:
                self.own[i].update(d.hands[i])
                self.own[i].update(d.discards[i])
                self.own[i].update(d.thrown[i])

    def forbidden(self, pack, seat):
        ok = self.public | (self.own[seat] if seat is not None else set())
        return [c for c in pack if c not in ok]


def hits(data: bytes, cards) -> list[str]:
    return [c for c in cards if any(e in data for e in encodings(c))]


@pytest.mark.parametrize("players, options, deals, seed", [
    (4, {}, 30, 1),
    (4, {"cut_in": True, "revoke": "penalize"}, 30, 2),
    (3, {"graded_remise": True}, 25, 3),
    (6, {}, 20, 4),
    (12, {}, 5, 5),
])
def test_no_card_leaks_to_any_seat_or_spectator(players, options, deals, seed, memory_ws):
    clock = Clock()
    table = Table(TableConfig(name="T", players=players, options=options, pause=0.0, deals=deals), clock=clock,
                  rng=random.Random(seed))
    factory = HostFactory({"T": table}, clock, rate=10 ** 6)
    wf = web_factory(factory, reactor=clock)
    conns = [WSConn(memory_ws, wf, "P0")] + [Conn(factory, f"P{i}") for i in range(1, players)]
    spectator = Conn(factory, "Watcher", spectate=True)
    web_spectator = WSConn(memory_ws, wf, "WebWatcher", spectate=True)
    everyone = conns + [spectator, web_spectator]
    assert conns[0].seat == 0 and web_spectator.seat is None
    pack = engine.pack(table.state)
    know = Knowledge(players)
    rng = random.Random(seed * 7919)
    scanned = own_seen = steps = 0
    cut_ins = blind = 0

    def scan():
        nonlocal scanned, own_seen
        know.update(table.state)
        if table.state.deal is None:
            for c in everyone:
                assert hits(c.new_bytes(), pack) == []
            return
        for c in everyone:
            data = c.new_bytes()
            scanned += len(data)
            leaked = hits(data, know.forbidden(pack, c.seat))
            assert leaked == [], f"deal {table.state.deal_no}: seat {c.seat} was sent {leaked}"
            if c.seat is not None and hits(data, know.own[c.seat]):
                own_seen += 1

    scan()
    while not table.finished:
        for c in everyone:
            c.read()
        acting = [c for c in conns if c.view and c.seat in c.view["to_act"]]
        if not acting:
            clock.advance(0.01)  # the next deal
            scan()
            continue
        c = acting[0]
        action = rng.choice(c.view["actions"])["action"]
        cut_ins += action[0] in ("cut_in", "cut_in_trump")
        blind += action[0] == "blind_frap"
        c.send({"type": "act", "action": action, "version": c.view["version"]})
        steps += 1
        scan()
    assert table.state.deal_no == deals and steps > deals * 3
    assert scanned > 100_000
    assert own_seen > deals  # the scanner does see cards where they are allowed (it can fail)
    assert web_spectator.scanned > 20_000 and conns[0].scanned > 20_000  # WebSocket bytes were scanned
    if players == 4 and options.get("cut_in"):
        assert cut_ins > 0 and blind > 0  # the risky paths were exercised


@pytest.mark.parametrize("transport", ["tcp", "websocket"])
def test_scanner_catches_a_leak(transport, memory_ws):
    """Control: another seat's stream, scanned against this seat's forbidden set, has hits — in
    TCP bytes and in WebSocket bytes alike."""
    clock = Clock()
    table = Table(TableConfig(name="T", players=4, pause=0.0), clock=clock, rng=random.Random(9))
    factory = HostFactory({"T": table}, clock)
    if transport == "tcp":
        conns = [Conn(factory, f"P{i}") for i in range(4)]
    else:
        wf = web_factory(factory, reactor=clock)
        conns = [WSConn(memory_ws, wf, f"P{i}") for i in range(4)]
    for c in conns:
        c.read()
    first = next(c for c in conns if c.seat in c.view["to_act"])
    first.send({"type": "act", "action": ["look"], "version": first.view["version"]})
    know = Knowledge(4)
    know.update(table.state)
    other = next(c for c in conns if c is not first)
    data = first.tr.value() if transport == "tcp" else first.c.raw()
    assert sorted(hits(data, know.forbidden(engine.pack(table.state), other.seat))) == \
        sorted(table.state.deal.hands[first.seat])
