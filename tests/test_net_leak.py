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

Fair deals (issue #11, docs/fairness.md): every connection answers the shuffle as a real client
does (frapnet.net.dealcheck.DealChecker), and no seat or spectator may receive the host's seed or
salt, or the deck key that follows from them and the nonces — as raw bytes or hex — before the
deal's last card is played or it is thrown in: only in the shuffle_reveal frame sent after it.
Every client's check of every reveal must then pass.
"""
from __future__ import annotations

import random

import msgpack
import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet import engine, fairness
from frapnet.cards import format_card
from frapnet.net import wire
from frapnet.net.config import TableConfig
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.net.dealcheck import OK, DealChecker
from frapnet.net.protocol import PROTOCOL_VERSION
from frapnet.net.web import web_factory


class Answering:
    """Both kinds of connection answer the shuffle as a real client does (DealChecker) and keep
    the verdict of every reveal."""
    _n = 50000

    def start_checking(self) -> None:
        Answering._n += 1
        self.checker = DealChecker(nonce_source=lambda deal, n=Answering._n: fairness.seeded_secret("nonce", n, deal))
        self.verdicts = []

    def handle(self, msgs) -> None:
        for msg in msgs:
            kind = msg["type"]
            if kind == "view":
                self.checker.view(msg["view"])
            elif kind == "welcome":
                self.checker.welcome(msg)
            elif kind == "event":
                self.checker.event(msg["event"])
            elif kind in ("shuffle_commit", "shuffle_hashes"):
                reply = (self.checker.commit if kind == "shuffle_commit" else self.checker.hashes)(msg)
                if reply is not None:
                    self.send(reply)
            elif kind == "shuffle_reveal":
                self.verdicts.append(self.checker.reveal(msg))


class Conn(Answering):

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
        self.start_checking()
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
        self.handle(out)
        return out


class WSConn(Answering):
    """A seat or spectator over the web endpoint's WebSocket (conftest.MemoryWebSocket)."""

    def __init__(self, memory_ws, wf, name, **hello):
        self.c = memory_ws(wf)
        assert self.c.accepted
        self.scanned = 0
        self.view = None
        self.start_checking()
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
        self.handle(out)
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


def deal_secrets(table) -> dict[str, bytes]:
    """The current deal's secrets in every encoding a frame could carry them in."""
    rnd = table.dealing.round
    if rnd is None:
        return {}
    key = fairness.deck_key(rnd.seed, rnd.nonces)
    out = {}
    for name, value in (("seed", rnd.seed), ("salt", rnd.salt), ("deck key", key)):
        out[f"{name} (raw)"] = value
        out[f"{name} (hex)"] = value.hex().encode()
        out[f"{name} (HEX)"] = value.hex().upper().encode()
    return out


def secrets_leaked(table, data: bytes) -> list[str]:
    """Secrets of the current deal in ``data`` outside its shuffle_reveal frame (which may come
    only once the deal is over, as the last frame of the step that ended it)."""
    if table.dealing.revealed:
        reveal = wire.frame(table.dealing.round.reveal_message())[4:]  # its body: TCP and WebSocket alike
        at = data.find(reveal)
        assert at >= 0 or not any(v in data for v in deal_secrets(table).values())
        data = data[:at] if at >= 0 else data
    return [name for name, value in deal_secrets(table).items() if value in data]


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
    scanned = own_seen = steps = secret_scans = 0
    cut_ins = blind = 0

    def scan():
        nonlocal scanned, own_seen, secret_scans
        know.update(table.state)
        if table.state.deal is None:
            for c in everyone:
                data = c.new_bytes()
                assert hits(data, pack) == []
                assert secrets_leaked(table, data) == [], f"seat {c.seat} was sent the shuffle's secrets"
            return
        for c in everyone:
            data = c.new_bytes()
            scanned += len(data)
            leaked = secrets_leaked(table, data)
            assert leaked == [], f"deal {table.state.deal_no}: seat {c.seat} was sent {leaked} before the reveal"
            secret_scans += bool(deal_secrets(table))
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
    assert secret_scans > steps  # the secrets were looked for in every stream at every step
    for c in everyone:  # every deal was shuffled with every seat's nonce and checked by every client
        c.read()  # the last deal's reveal, after the final scan
        assert [v.status for v in c.verdicts] == [OK] * deals, [v.text for v in c.verdicts if v.status != OK]
    assert all(None not in p["nonces"] for p in table.dealing.proofs)
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
    for _ in range(3):  # the shuffle's two answers, then the deal
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


def test_secret_scanner_catches_an_early_reveal():
    """Control (issue #11): the reveal sent in the middle of a deal is caught by the scan."""
    clock = Clock()
    table = Table(TableConfig(name="T", players=3, pause=0.0), clock=clock, rng=random.Random(4))
    factory = HostFactory({"T": table}, clock)
    conns = [Conn(factory, f"P{i}") for i in range(3)]
    for _ in range(3):
        for c in conns:
            c.read()
    assert table.state.phase == "deal" and not table.dealing.revealed
    assert secrets_leaked(table, conns[0].new_bytes()) == []
    table.fanout.send_all(table.dealing.round.reveal_message())  # a host that reveals too early
    assert secrets_leaked(table, conns[1].new_bytes()) == ["seed (hex)", "salt (hex)"]
