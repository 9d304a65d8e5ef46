"""Host units without sockets: HostProtocol on StringTransport, time on a Clock (issue #3).

Handshake, seats and tokens, stale/duplicate/out-of-turn actions, chat, spectators, floods,
timeouts, the grace period and computer takeover, the deal loop (F7 dealer rotation) and the
record. Rule IDs are named where an action is refused (F10, F20…).
"""
from __future__ import annotations

import json
import random

import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet import engine, record
from frapnet.net import wire
from frapnet.testing import seat_map
from frapnet.net.config import TableConfig
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.net.protocol import PROTOCOL_VERSION


class Conn:
    """One client connection to a HostFactory over a StringTransport; decodes what it gets."""

    _n = 40000

    def __init__(self, factory):
        Conn._n += 1
        self.proto = factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", Conn._n))
        self.tr = StringTransportWithDisconnection(peerAddress=IPv4Address("TCP", "127.0.0.1", Conn._n))
        self.tr.protocol = self.proto
        self.proto.makeConnection(self.tr)
        self.pos = 0
        self.log: list[dict] = []
        self.view = None
        self.welcome = None

    def send(self, msg):
        self.proto.dataReceived(wire.frame(msg))

    def hello(self, name="Olga", **kw):
        self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, **kw})
        return self.read()

    def read(self) -> list[dict]:
        data = self.tr.value()
        out = []
        while len(data) - self.pos >= 4:
            n = int.from_bytes(data[self.pos:self.pos + 4], "big")
            if len(data) - self.pos - 4 < n:
                break
            msg = wire.decode(data[self.pos + 4:self.pos + 4 + n])
            self.pos += 4 + n
            out.append(msg)
            if msg["type"] == "view":
                self.view = msg["view"]
            elif msg["type"] == "welcome":
                self.welcome = msg
        self.log.extend(out)
        return out

    def errors(self):
        return [m for m in self.read() if m["type"] == "error"]

    def act(self, action, version=None):
        self.send({"type": "act", "action": action, "version": self.view["version"] if version is None else version})

    @property
    def open(self):
        return self.tr.connected


def make(players=4, clock=None, **kw):
    clock = clock or Clock()
    kw.setdefault("pause", 0.0)
    kw.setdefault("nonce_time", 0.0)  # these fake peers send no nonces (fair deals: tests/test_fair_deal.py)
    rate = kw.pop("rate", 50)
    rng = random.Random(kw.pop("seed", 1))
    extra = {k: kw.pop(k) for k in ("on_finish", "registry", "choose", "reserved") if k in kw}
    table = Table(TableConfig(name="T", players=players, **kw), clock=clock, rng=rng, **extra)
    factory = HostFactory({"T": table}, clock, rate=rate)
    return table, factory, clock


def seated(players=4, **kw):
    """:func:`make` with every seat taken by P0…P(n−1) (:func:`seat_all`): ``(table, factory,
    clock, conns)`` — the set-up most tests here share (review finding D2)."""
    table, factory, clock = make(players, **kw)
    return table, factory, clock, seat_all(factory, players)


def seat_all(factory, n=4, **hello):
    conns = []
    for i in range(n):
        c = Conn(factory)
        c.hello(f"P{i}", **hello)
        conns.append(c)
    for c in conns:
        c.read()
    return conns


def to_act(conns):
    for c in conns:
        c.read()
    v = conns[0].view
    return [c for c in conns if c.welcome["seat"] in v["to_act"]]


def test_welcome_fields_and_unique_tokens():
    table, factory, _ = make(password=None)
    c = Conn(factory)
    msgs = c.hello("Olga", lang="ru")
    w = msgs[0]
    assert w["type"] == "welcome" and w["protocol"] == PROTOCOL_VERSION and w["table"] == "T"
    assert w["game"] == "frap" and w["seat"] == 0 and w["options"]["ante"] == 100
    assert w["rules"]["name"] == "frap" and w["rules"]["players"] == [2, 12]
    assert [p["name"] for p in w["plugins"]] == ["frap"]
    assert w["players"][0] == {"seat": 0, "name": "Olga", "connection": "connected"}
    assert len(w["token"]) >= 24
    assert msgs[1]["type"] == "event" and msgs[1]["event"]["type"] == "seat_joined"
    v = msgs[2]["view"]
    assert v["names"] == ["Olga", "", "", ""] and v["connection"] == ["connected", "empty", "empty", "empty"]
    assert v["table"] == "T" and v["seat"] == 0
    c2 = Conn(factory)
    assert c2.hello("Ivan")[0]["token"] != w["token"]


@pytest.mark.parametrize("hello, code", [
    ({"protocol": "2.0"}, "version"),
    ({"protocol": "x"}, "version"),
    ({"name": "\x1b\x1b"}, "bad_name"),
    ({"name": 17}, "bad_message"),
])
def test_handshake_refusals_close(hello, code):
    _, factory, _ = make()
    c = Conn(factory)
    c.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Olga", **hello})
    errs = c.errors()
    assert errs[0]["code"] == code
    if code != "bad_message":
        assert not c.open


def test_password():
    table, factory, _ = make(password="s3cret")
    bad = Conn(factory)
    assert bad.hello("Olga", password="nope")[0]["code"] == "password" and not bad.open
    none = Conn(factory)
    assert none.hello("Olga")[0]["code"] == "password"
    good = Conn(factory)
    assert good.hello("Olga", password="s3cret")[0]["type"] == "welcome"
    assert table.seats[0].name == "Olga" and table.seats[1].status == "empty"


def test_handshake_timeout():
    _, factory, clock = make()
    c = Conn(factory)
    clock.advance(9.9)
    assert c.open
    clock.advance(0.2)
    assert c.errors()[0]["code"] == "timeout" and not c.open


def test_messages_before_hello_refused():
    _, factory, _ = make()
    c = Conn(factory)
    c.send({"type": "act", "action": ["pass"], "version": 0})
    assert c.errors()[0]["code"] == "not_joined" and c.open


def test_occupied_seat_needs_token_and_token_reclaims():
    table, factory, clock = make()
    a = Conn(factory)
    token = a.hello("Olga")[0]["token"]
    thief = Conn(factory)
    assert thief.hello("Eve", seat=0)[0]["code"] == "seat_taken" and not thief.open
    forged = Conn(factory)
    assert forged.hello("Eve", token="x" * 24)[0]["code"] == "bad_token"
    # a reconnect with the token while the old connection still looks alive replaces it
    b = Conn(factory)
    w = b.hello("Olga", token=token)[0]
    assert w["seat"] == 0 and w["token"] == token and not a.open
    assert table.seats[0].peer is b.proto and table.seats[0].status == "connected"


def test_match_starts_when_all_seats_taken_F7():
    table, factory, _ = make()
    conns = seat_all(factory, 3)
    assert table.state.deal_no == 0 and conns[0].view["deal_no"] == 0
    c = Conn(factory)
    c.hello("P3")
    assert table.state.deal_no == 1 and table.state.phase == "deal"
    v = c.view
    # F7: first dealer by lot (seeded rng); F8: the seat left of the dealer bids first
    assert v["to_act"] == [(v["dealer"] + 1) % 4]
    ev = [m for m in c.log if m["type"] == "event" and not m["event"]["type"].startswith("seat_")]
    assert ev[0]["event"]["type"] == "deal" and "deals" in ev[0]["event"]["text"]


def test_action_stays_current_while_other_seats_only_look():
    """F9: another seat looking at its cards bumps the table's version but not the choices of
    the seat to act (F10), so that seat's action made against the older view is accepted."""
    table, factory, _, conns = seated()
    first = to_act(conns)[0]
    v0 = table.state.version
    lookers = [c for c in conns if c is not first]
    for c in lookers:
        c.act(["look"], version=v0)
        assert c.errors() == []
    assert table.state.version == v0 + 3
    first.act(["pass"], version=v0)
    assert first.errors() == [] and table.state.version == v0 + 4
    assert table.state.deal.declared[first.welcome["seat"]] == "pass"
    first.act(["pass"], version=v0)  # sent twice: never applied twice
    assert first.errors()[0]["code"] == "stale" and table.state.version == v0 + 4


def test_simultaneous_pass_cards_all_accepted_against_one_version():
    """K3 (Frak You): every seat chooses its three cards at the same time; each choice made
    against the deal's first view is accepted, although the others' choices bump the version."""
    from frapnet.plugins import default_registry
    if "frak_you" not in default_registry().games:
        pytest.skip("frapnet-frak-you is not installed")
    table, factory, clock, conns = seated(game="frak_you", seed=3)
    for c in conns:
        c.read()
    v0 = table.state.version
    assert sorted(table.state.to_act) == [0, 1, 2, 3]
    for c in conns:
        hand = c.view["hand"]
        c.act(["pass_cards", hand[:3]], version=v0)
        assert c.errors() == [], c.welcome["seat"]
    assert table.state.version == v0 + 4
    assert table.state.deal.phase == "play"  # K3: the exchange happened when the last seat chose


def test_out_of_turn_stale_duplicate_wrong_seat_and_spectator():
    table, factory, _, conns = seated()
    spec = Conn(factory)
    assert spec.hello("Watcher", spectate=True)[0]["seat"] is None
    first = to_act(conns)[0]
    other = next(c for c in conns if c is not first and c.welcome["seat"] != (first.welcome["seat"] + 1) % 4)
    v0 = table.state.version
    other.act(["frap"])
    e = other.errors()[0]
    assert (e["code"], e["rule"]) == ("illegal", "F10")  # F10: not this seat's turn to bid
    other.act(["whist"], version=v0)
    assert other.errors()[0]["code"] in ("illegal",)
    first.act(["pass"], version=v0 - 1)
    assert first.errors()[0]["code"] == "stale"
    first.act(["frap"], version=v0, )
    assert first.errors() == [] and table.state.version == v0 + 1
    first.act(["frap"], version=v0)  # the same action again: never applied twice
    assert first.errors()[0]["code"] == "stale" and table.state.version == v0 + 1
    first.send({"type": "act", "action": ["pass"], "version": table.state.version, "seat": 3 - first.welcome["seat"]})
    assert first.errors()[0]["code"] == "wrong_seat"
    spec.act(["pass"], version=table.state.version)
    assert spec.errors()[0]["code"] == "not_seated"
    first.send({"type": "act", "action": ["shuffle"], "version": table.state.version})
    e = first.errors()[0]
    assert (e["code"], e["rule"]) == ("illegal", "record") and "unknown verb" in e["message"]
    assert table.state.version == v0 + 1 and table.rejected >= 5


def test_play_refused_F20_then_accepted():
    """F20 through the wire: a card not held is refused with the rule ID, state unchanged."""
    table, factory, _, conns = seated(options={"cut_in": False})
    # everyone: frap by the first, whist by all others, stand pat
    for _ in range(4):
        c = to_act(conns)[0]
        c.act(["frap"] if table.state.deal.phase == "bid" else ["whist"])
    while table.state.deal.phase == "buy":
        to_act(conns)[0].act(["buy", []])
    c = to_act(conns)[0]
    hand = c.view["hand"]
    not_mine = next(x for x in engine.pack(table.state) if x not in hand)
    v = table.state.version
    c.act(["play", not_mine])
    e = c.errors()[0]
    assert (e["code"], e["rule"]) == ("illegal", "F20") and table.state.version == v
    c.act(["play", c.view["actions"][0]["action"][1]])
    assert c.errors() == [] and table.state.version == v + 1


def test_chat_cleaned_and_spectator_chat():
    _, factory, _ = make()
    a, b = Conn(factory), Conn(factory)
    a.hello("Olga")
    b.hello("Spy", spectate=True)
    a.send({"type": "chat", "text": "hi\x1b[2J there\u202e" + "x" * 1000})
    chats = [m for m in b.read() if m["type"] == "chat"]
    assert chats[0]["seat"] == 0 and chats[0]["name"] == "Olga"
    assert chats[0]["text"].startswith("hi[2J therex") and len(chats[0]["text"]) == 500
    b.send({"type": "chat", "text": "boo"})
    assert [m for m in a.read() if m["type"] == "chat"][-1] == {"type": "chat", "seat": None, "name": "Spy",
                                                               "text": "boo"}


def test_flood_dropped_then_aborted():
    table, factory, clock = make()
    a = Conn(factory)
    a.hello("Olga")
    for _ in range(60):
        a.send({"type": "ping", "id": 1})
    msgs = a.read()
    assert sum(m["type"] == "pong" for m in msgs) == 49  # hello counted: 50 a second
    assert [m["code"] for m in msgs if m["type"] == "error"] == ["flood"]
    clock.advance(1.1)
    a.send({"type": "ping", "id": 2})
    assert a.read()[-1] == {"type": "pong", "id": 2}
    for _ in range(250):
        a.send({"type": "ping"})
    assert not a.open and [m["code"] for m in a.read() if m["type"] == "error"] == ["flood", "flood"]


def test_connection_limit():
    """At the limit a new connection pushes out the oldest one still waiting for its hello
    (``busy``); once every connection has joined, a new one gets ``busy`` (issue #9)."""
    table, factory, clock = make()
    factory.max_connections = 2
    a, b = Conn(factory), Conn(factory)
    c = Conn(factory)
    assert [e["code"] for e in a.errors()] == ["busy"] and not a.open and b.open and c.open
    b.hello("Olga"), c.hello("Ivan")
    d = Conn(factory)
    assert d.errors()[0]["code"] == "busy" and not d.open and b.open and c.open


def test_grace_then_takeover_then_token_returns():
    """design.md principle 5: a dropped seat waits `grace`, then the host plays it; the token takes it back."""
    table, factory, clock, conns = seated(grace=30.0)
    victim = to_act(conns)[0]
    s = victim.welcome["seat"]
    token = victim.welcome["token"]
    victim.tr.loseConnection()
    other = next(c for c in conns if c is not victim)
    other.read()
    assert other.view["connection"][s] == "reconnecting"
    v = table.state.version
    clock.advance(29)
    assert table.state.version == v  # the table waits
    clock.advance(2)
    assert other.read() and other.view["connection"][s] == "bot"
    assert table.state.version > v  # the host moved for the seat
    back = Conn(factory)
    w = back.hello("Olga", token=token)[0]
    assert w["seat"] == s and table.seats[s].status == "connected" and not table.seats[s].takeover


def test_seat_freed_if_dropped_before_match():
    table, factory, clock = make(grace=5.0)
    a = Conn(factory)
    tok = a.hello("Olga")[0]["token"]
    a.tr.loseConnection()
    clock.advance(6)
    assert table.seats[0].status == "empty"
    c = Conn(factory)
    assert c.hello("Olga", token=tok)[0]["code"] == "bad_token"


def test_leave_mid_match_host_plays_on():
    table, factory, clock, conns = seated()
    conns[1].send({"type": "leave"})
    assert [m for m in conns[1].read() if m["type"] == "closing"] and not conns[1].open
    assert table.seats[1].status == "bot" and table.seats[1].takeover


def test_deals_loop_record_and_closing(tmp_path):
    """--deals N: N deals, the dealer passing clockwise (F7), the record replays to the same ledger."""
    path = tmp_path / "rec.json"
    finished = []
    table, factory, clock, conns = seated(deals=3, record=str(path), on_finish=finished.append)
    rng = random.Random(5)
    for _ in range(5000):
        if table.finished:
            break
        acting = to_act(conns)
        if not acting:
            clock.advance(0.1)
            continue
        c = acting[0]
        c.act(rng.choice(c.view["actions"])["action"])
        assert c.errors() == []
    assert table.finished and table.state.deal_no == 3
    dealers = [d["dealer"] for d in record.load(str(path))["deals"]]
    assert dealers[1] == (dealers[0] + 1) % 4 and dealers[2] == (dealers[0] + 2) % 4
    res = record.replay_json(json.loads(path.read_text()))
    assert res["ok"] and res["balances"] == finished[0]["balances"] == table.state.balances
    assert res["pot"] == finished[0]["pot"]
    assert sum(res["balances"]) + res["pot"] == 0  # F6
    closing = [m for m in conns[0].read() if m["type"] == "closing"]
    assert closing[0]["result"]["balances"] == res["balances"]


def test_big_balances_in_views_exact_F6():
    table, factory, _, conns = seated()
    big = 2 ** 70 + 3
    table.state.balances = [big, -big, 5, -5]
    table.broadcast_views()
    assert conns[2].read()[-1]["view"]["balances"] == [big, -big, 5, -5]


def test_views_hide_other_hands_F9():
    table, factory, _, conns = seated()
    c = to_act(conns)[0]
    assert c.view["hand"] is None  # F9: face down until looked at
    c.act(["look"])
    c.read()
    assert sorted(c.view["hand"]) == sorted(table.state.deal.hands[c.welcome["seat"]])
    for o in conns:
        if o is not c:
            assert o.view["hand"] is None


def test_accepted_actions_never_count_as_flood_chat_counts_five():
    """A fast computer player is never throttled: only refused actions and other messages count."""
    table, factory, clock, conns = seated(deals=30)
    rng = random.Random(3)
    played = 0
    while not table.finished and played < 300:  # all within one second of the Clock
        acting = to_act(conns)
        if not acting:
            clock.advance(0.001)
            continue
        c = acting[0]
        c.act(rng.choice(c.view["actions"])["action"])
        assert c.errors() == []
        played += 1
    assert played > 150 and all(c.open for c in conns)
    chatter = conns[0]
    clock.advance(1.5)
    for i in range(11):
        chatter.send({"type": "chat", "text": f"line {i}"})
    msgs = chatter.read()
    assert sum(m["type"] == "chat" for m in msgs) == 10
    assert [m["code"] for m in msgs if m["type"] == "error"] == ["flood"]


def test_a_burst_of_other_messages_never_costs_a_move_or_a_deals_nonce():
    """Found by a client written from docs/protocol.md: at a fast table a seat's shuffle answers
    (two a deal) and stale acts filled the 50-a-second budget, then its next act or nonce was
    dropped — the deal went on without its nonce, or the table waited for the turn clock. Now an
    act, a ``nonce_hash`` or a ``nonce`` is never dropped for the rate and costs nothing once
    accepted; only the hard limit (200 a second) counts them."""
    import hashlib
    import os

    table, factory, clock = make(nonce_time=5.0)
    conns = seat_all(factory, 4)
    secret = {}

    def burst_then_answer():
        for c in conns:
            c.read()
            for m in [m for m in c.log if m["type"].startswith("shuffle_")]:
                if m["type"] == "shuffle_commit" and c.welcome["seat"] in m["seats"] and (c, m["deal"]) not in secret:
                    for _ in range(60):
                        c.send({"type": "ping", "id": 1})
                    secret[c, m["deal"]] = os.urandom(32)
                    c.send({"type": "nonce_hash", "deal": m["deal"],
                             "hash": hashlib.sha256(secret[c, m["deal"]]).hexdigest()})
                elif m["type"] == "shuffle_hashes" and (c, m["deal"]) in secret and (c, -m["deal"]) not in secret:
                    secret[c, -m["deal"]] = True
                    c.send({"type": "nonce", "deal": m["deal"], "nonce": secret[c, m["deal"]].hex()})

    burst_then_answer()  # each seat: 60 pings, then its nonce's hash
    burst_then_answer()  # each seat: its nonce
    assert table.state.phase == engine.DEAL and table.state.deal_no == 1
    assert all(p is not None for p in table.dealing.proofs) and len(table.dealing.proofs) == 1
    assert all(n is not None for n in table.dealing.proofs[0]["nonces"])  # every seat's nonce went in
    assert all([e["code"] for e in c.log if e["type"] == "error"] == ["flood"] for c in conns)  # pings over 50 dropped
    c = to_act(conns)[0]
    for _ in range(60):
        c.send({"type": "ping", "id": 2})
    v = table.state.version
    c.act(c.view["actions"][0]["action"])
    assert table.state.version == v + 1 and c.open  # not dropped, though 60 pings came first this second
    for _ in range(250):
        c.send({"type": "ping"})
    assert not c.open  # the hard limit still closes a flood


def test_refused_acts_over_the_rate_get_no_answer_of_their_own_and_the_hard_limit_closes():
    """A flood of refused acts (stale ones) is answered as a flood of pings is: 50 answers a second,
    then one ``flood`` error and silence; past 200 the connection closes."""
    table, factory, clock, conns = seated(deals=3)
    c = conns[0]
    c.read()
    clock.advance(1.1)  # a fresh one-second window (the hello counted in the last one)
    v = table.state.version
    for _ in range(120):
        c.act(["look"], version=v + 1000)  # newer than the table's: stale
    codes = [m["code"] for m in c.read() if m["type"] == "error"]
    assert codes.count("stale") == 50 and codes.count("flood") == 1 and c.open and table.state.version == v
    for _ in range(100):
        c.act(["look"], version=v + 1000)
    assert not c.open


def test_match_ends_when_the_game_says_so_K12(registry):
    """Without --deals the table runs until the game's match is over (Frak You K12), then closes."""
    if "frak_you" not in registry.games:
        pytest.skip("the frak_you variant is not installed")
    finished = []
    table, factory, clock, conns = seated(game="frak_you", seed=2, on_finish=finished.append, registry=registry)
    rng = random.Random(4)
    for _ in range(20000):
        if table.finished:
            break
        acting = to_act(conns)
        if not acting:
            clock.advance(0.01)
            continue
        c = acting[0]
        c.act(rng.choice(c.view["actions"])["action"])
    assert table.finished and table.state.phase == "over" and finished[0]["match_over"] is True
    assert finished[0]["points"] == engine.match_report(table.state)["points"]
    assert [m for m in conns[1].read() if m["type"] == "closing"][0]["result"] == finished[0]


def test_several_tables_one_host_are_independent():
    clock = Clock()
    a = Table(TableConfig(name="A", players=2, pause=0.0, nonce_time=0.0), clock=clock, rng=random.Random(1))
    b = Table(TableConfig(name="B", players=2, options={"ante": 200}, pause=0.0, nonce_time=0.0), clock=clock,
              rng=random.Random(2))
    factory = HostFactory({"A": a, "B": b}, clock)
    lost = Conn(factory)
    assert lost.hello("Olga")[0]["code"] == "no_table" and not lost.open
    ca = [Conn(factory) for _ in range(2)]
    cb = [Conn(factory) for _ in range(2)]
    for i, c in enumerate(ca):
        assert c.hello(f"A{i}", table="A")[0]["table"] == "A"
    for i, c in enumerate(cb):
        assert c.hello(f"B{i}", table="B")[0]["options"]["ante"] == 200
    vb = b.state.version
    first = to_act(ca)[0]
    first.send({"type": "act", "action": ["frap"], "version": a.state.version})
    first.proto.dataReceived(b"\x00\x00\x00\x02\xc1\xc1")  # then garbage: that connection is closed
    assert a.state.version > 0 and b.state.version == vb
    assert not first.open and all(c.open for c in cb)
    assert b.state.balances == [-200, -200] and to_act(cb)  # table B plays on


def test_every_view_frame_is_exactly_that_seats_view_encoded_F6_F9():
    """The shared fan-out encoding changes no byte: after every action of a 12-seat match whose
    amounts are past 2^64 (F6: an ante of 2^66), each seat's last frame is frame(view_for(seat)) (its own keys
    last: frapnet.testing.seat_map) and each spectator's
    frame(view_for(None)) — so no seat gets another's hand (F9) through a shared encoding."""
    table, factory, clock, conns = seated(players=12, seed=5, deals=4, options={"ante": 2 ** 66})
    watcher = Conn(factory)
    watcher.hello("W", spectate=True)
    rng = random.Random(5)
    checked = 0
    while not table.finished:
        st = table.state
        if st.phase != "deal":
            clock.advance(0.01)
            continue
        seat = st.to_act[0]
        conns[seat].act(engine.action_to_wire(rng.choice(engine.legal_actions(st, seat))), st.version)
        assert table.state.version == st.version + 1
        for c in conns + [watcher]:
            seat_of = c.welcome["seat"]
            data = c.tr.value()
            c.read()
            if table.finished:
                break
            view = table.view_for(seat_of, "en")
            if seat_of is not None:  # a seat's own keys come last (viewcodec.PublicEncoder.frame_part)
                view = seat_map(view, engine.seat_part(table.state, seat_of, engine.public_view(table.state)))
            want = wire.frame({"type": "view", "view": view})
            if table.state.phase != "deal":  # after a deal's last view: its shuffle_reveal (issue #11)
                want += wire.frame(table.dealing.round.reveal_message())
            assert data.endswith(want)
            checked += 1
    assert checked > 13 * 100 and max(map(abs, table.state.balances)) >= 2 ** 64


def _events(conn, kind=None):
    return [m["event"] for m in conn.read() if m["type"] == "event" and (kind is None or m["event"]["type"] == kind)]


def test_seat_events_join_lost_back_left_takeover_in_each_language():
    """design.md principle 5 made visible: every seat change is a public event to everyone at the
    table — join, lost connection, back, grace over (takeover), left — with `text` in each
    recipient's language (docs/protocol.md "Seat events")."""
    table, factory, clock = make(grace=30.0)
    watcher = Conn(factory)
    watcher.hello("W", spectate=True, lang="ru")
    conns = seat_all(factory)  # P0…P3, English
    joined = _events(watcher, "seat_joined")
    assert [(e["seat"], e["name"], e["bot"]) for e in joined] == [(0, "P0", False), (1, "P1", False),
                                                                   (2, "P2", False), (3, "P3", False)]
    assert joined[1]["text"] == "За стол садится P1 (место 1)"  # seats counted from 0 (issue #10 item 8)
    p0 = conns[0]
    p0_events = [m["event"] for m in p0.log if m["type"] == "event" and m["event"]["type"] == "seat_joined"]
    assert [e["text"] for e in p0_events] == [f"P{i} joined the table (seat {i})" for i in range(4)]  # from 0

    token = conns[2].welcome["token"]
    conns[2].tr.loseConnection()
    lost = _events(p0, "seat_lost")
    assert lost == [{"type": "seat_lost", "seat": 2, "name": "P2", "grace": 30.0,
                     "text": "P2 lost connection; the seat waits 30 s"}]
    assert _events(watcher, "seat_lost")[0]["text"] == "Связь с P2 потеряна; место ждёт 30 с"
    back = Conn(factory)
    back.hello("P2", token=token)
    assert [e["text"] for e in _events(p0, "seat_back")] == ["P2 is back"]
    assert [e["text"] for e in _events(watcher, "seat_back")] == ["P2 снова за столом"]

    conns[1].send({"type": "leave"})
    left = _events(p0, "seat_left")
    assert [(e["seat"], e["takeover"], e["text"]) for e in left] == [
        (1, True, "P1 left — a computer player takes the seat")]
    assert _events(watcher, "seat_left")[0]["text"] == "P1 уходит из-за стола — место занимает компьютер"

    conns[3].tr.loseConnection()
    p0.read()
    clock.advance(31)
    took = _events(p0, "seat_takeover")
    assert [(e["seat"], e["text"]) for e in took] == [(3, "P3 did not come back in time — a computer player takes "
                                                          "the seat")]


def test_seat_left_before_the_match_frees_the_seat_event():
    """Before the match a leaver's seat is freed (no takeover): `seat_left` with takeover false."""
    table, factory, clock = make(grace=5.0)
    a, b = Conn(factory), Conn(factory)
    a.hello("Olga")
    b.hello("Ivan")
    a.tr.loseConnection()
    clock.advance(6)
    texts = [(e["type"], e["text"]) for e in _events(b) if e["type"].startswith("seat_")]
    assert texts == [("seat_lost", "Olga lost connection; the seat waits 5 s"), ("seat_left", "Olga left the table")]
    assert table.seats[0].status == "empty"


def test_client_log_shows_seat_events():
    """The terminal client's log (frapnet.tui.model.Screen.add_event) shows a seat event's text."""
    from frapnet.tui.model import Screen
    table, factory, clock, conns = seated(grace=30.0)
    conns[1].tr.loseConnection()
    screen = Screen(lang="en")
    for e in _events(conns[0]):
        screen.add_event(e)
    assert ("event", "P1 lost connection; the seat waits 30 s") in list(screen.log)


def _run_clock(clock, table, steps=3000):
    for _ in range(steps):
        if table.finished:
            break
        clock.advance(0.1)


def test_table_without_people_waits_between_deals_then_resumes_principle_5(tmp_path):
    """design.md principle 5: once every person has gone (only takeovers left) the table finishes
    the deal in play, then deals no more — the record stops growing — until a person is back."""
    path = tmp_path / "rec.json"
    table, factory, clock = make(players=2, grace=1.0, record=str(path))
    a, b = Conn(factory), Conn(factory)
    a.hello("Olga")
    b.hello("Ivan")
    assert table.state.deal_no == 1
    token = b.welcome["token"]
    a.send({"type": "leave"})
    b.tr.loseConnection()
    _run_clock(clock, table)
    assert table.waiting and table.state.deal_no == 1 and table.state.phase == engine.BETWEEN
    size = path.stat().st_size
    clock.advance(600)
    assert table.state.deal_no == 1 and path.stat().st_size == size  # nothing more was played
    back = Conn(factory)
    back.hello("Ivan", token=token)
    clock.advance(0.1)
    assert not table.waiting and table.state.deal_no == 2 and table.state.phase == engine.DEAL
    assert len(record.load(str(path))["deals"]) == 1  # exported at deal ends (issue #9): deal 1 only


def test_table_of_computer_players_only_plays_on():
    """A table where only computer players ever sat (host --bots = players) keeps dealing."""
    table, factory, clock = make(players=2, grace=1.0, deals=3)
    a, b = Conn(factory), Conn(factory)
    a.hello("Bot 1", bot=True)
    b.hello("Bot 2", bot=True)
    a.send({"type": "leave"})
    b.send({"type": "leave"})
    _run_clock(clock, table)
    assert table.finished and table.state.deal_no == 3 and not table.waiting and not table.had_human


def test_log_names_spectators_and_connections_before_hello():
    """Log lines name what a connection was: a seat, a spectator, a leaver, or nothing yet."""
    table, factory, clock = make()
    pre, spec, seated = Conn(factory), Conn(factory), Conn(factory)
    spec.hello("W", spectate=True)
    seated.hello("Olga")
    assert (pre.proto.who(), spec.proto.who(), seated.proto.who()) == (
        "connection before hello", "spectator", "seat 0")
    seated.send({"type": "leave"})
    assert seated.proto.who() == "left seat 0"


def test_twisted_port_and_factory_noise_filtered_from_the_host_log():
    from twisted.logger import PredicateResult

    from frapnet.runtime import not_twisted_noise

    def legacy(text):
        return {"log_namespace": "log_legacy", "message": (text,), "log_format": "{log_text}"}
    assert not_twisted_noise(legacy("HostFactory starting on 7777")) == PredicateResult.no
    assert not_twisted_noise(legacy("(TCP Port 7777 Closed)")) == PredicateResult.no
    assert not_twisted_noise(legacy("Starting factory <HostFactory object>")) == PredicateResult.no
    assert not_twisted_noise(legacy("something else")) == PredicateResult.maybe
    assert not_twisted_noise({"log_namespace": "frapnet.host", "log_format": "HostFactory starting on 1"}) \
        == PredicateResult.maybe


def test_resume_summary_counts_finished_deals_and_actions():
    """`frapnet host --resume` says where the match stands: mid-deal with its actions, or between deals."""
    from frapnet.record import resume_summary
    st = engine.new_match("frap", 4, {})
    assert resume_summary(st) == "before the first deal"
    deck = engine.pack(st)
    random.Random(2).shuffle(deck)
    st, _ = engine.start_deal(st, deck, dealer=0)
    assert resume_summary(st) == "in deal 1 after 0 actions"
    seat = st.to_act[0]
    st, _ = engine.apply(st, seat, engine.legal_actions(st, seat)[0])
    assert resume_summary(st) == "in deal 1 after 1 action"
    rng = random.Random(3)
    while st.phase == engine.DEAL:
        seat = st.to_act[0]
        st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
    assert resume_summary(st) == "after 1 finished deal"
    deck = engine.pack(st)
    st, _ = engine.start_deal(st, deck)
    assert resume_summary(st) == "in deal 2 after 0 actions (1 finished deal)"


def test_host_help_says_when_the_record_is_written():
    """`frapnet host --help` (issue #9): moves go to the --db journal before anyone is told; --record is
    exported at deal ends, never per move."""
    import argparse

    from frapnet.commands import host as host_cmd
    p = argparse.ArgumentParser()
    host_cmd.add_arguments(p)
    text = " ".join(p.format_help().split())
    assert "every accepted move is stored in this SQLite file before anyone is told" in text
    assert "exported from the journal at every deal end and when the host stops (never per move)" in text


def test_a_player_who_quit_takes_a_free_seat_again():
    """Issue #10 item 7: a seat the host plays because its player left is free: the player who
    quit (or anyone) takes it back with a new hello — no `table_full` — and the computer stops
    playing it; the old token is void; `seats_free` counts it while it is open."""
    table, factory, clock, conns = seated(bot_delay=5.0)
    old_token = conns[1].welcome["token"]
    assert table.free_seats() == 0
    conns[1].send({"type": "leave"})
    assert table.seats[1].takeover and table.free_seats() == 1
    back = Conn(factory)
    w = back.hello("P1 again")[0]
    assert w["type"] == "welcome" and w["seat"] == 1 and w["token"] != old_token
    s = table.seats[1]
    assert (s.status, s.takeover, s.name) == ("connected", False, "P1 again") and table.free_seats() == 0
    joined = [m for m in conns[0].read() if m["type"] == "event" and m["event"]["type"] == "seat_joined"]
    assert joined and joined[-1]["event"]["seat"] == 1
    v = table.state.version
    if 1 in table.state.to_act:  # the computer player would have moved after 5 s
        clock.advance(10)
        assert table.state.version == v
    assert Conn(factory).hello("Eve", token=old_token)[0]["code"] == "bad_token"
    # every seat taken again: a fifth person is refused as before
    assert Conn(factory).hello("Zed")[0]["code"] == "table_full"


def test_a_seat_given_up_can_be_asked_for_by_number():
    table, factory, clock, conns = seated()
    conns[2].send({"type": "leave"})
    w = Conn(factory).hello("Ann", seat=2)[0]
    assert w["type"] == "welcome" and w["seat"] == 2
    assert Conn(factory).hello("Bob", seat=3)[0]["code"] == "seat_taken"  # a seat with its player is not free


def test_lang_switches_one_connections_texts_without_a_reconnect():
    """docs/protocol.md ``lang``: a seat that switches to Russian mid-deal gets a view in Russian
    at once (its action labels, F-rules' words), and its events from then on; the others hear
    nothing of it (no seat_back) and keep English; the seat and the state are unchanged."""
    table, factory, clock, conns = seated(4)
    for c in conns:
        c.read()
    version = table.state.version
    conns[1].send({"type": "lang", "lang": "ru-RU"})
    got = conns[1].read()
    assert [m["type"] for m in got] == ["view"] and got[0]["view"]["version"] == version
    v = got[0]["view"]
    assert v["phase_label"] == "торговля" and v["seat"] == 1
    assert all(m["type"] != "event" for m in conns[0].read())  # nobody else is told
    c = to_act(conns)[0]
    c.act(c.view["actions"][0]["action"])
    ev1 = [m["event"]["text"] for m in conns[1].read() if m["type"] == "event"]
    ev0 = [m["event"]["text"] for m in conns[0].read() if m["type"] == "event"]
    assert ev1 and ev0 and ev1 != ev0 and conns[0].view["phase_label"] == "bidding"
    assert table.seats[1].peer is conns[1].proto and conns[1].open
    conns[2].send({"type": "lang", "lang": "xx"})  # a language the host does not write: English
    assert conns[2].read()[-1]["view"]["phase_label"] == "bidding"
    conns[2].send({"type": "lang"})
    assert [e["code"] for e in conns[2].errors()] == ["bad_message"]


# --- a rematch with the same seats (issue #10 item 7) ------------------------------------------------

def play_until(table, conns, clock, done, rng):
    for _ in range(5000):
        if done():
            return
        acting = to_act(conns)
        if not acting:
            clock.advance(0.1)
            continue
        c = acting[0]
        c.act(rng.choice(c.view["actions"])["action"])
        assert c.errors() == []
    raise AssertionError("the deal did not end")


def of_type(conn, kind):
    """Every message of ``kind`` this connection has got so far."""
    conn.read()
    return [m for m in conn.log if m["type"] == kind]


def test_rematch_offered_accepted_same_seats_new_match(tmp_path):
    """At the match's end (one deal here) every person is offered a rematch; when all accept, a
    new match starts at the same seats with the same tokens, balances from zero and the antes of
    its first deal (F5: 100 each, pot 400), its record beside the first one's (RECORD.2.json)."""
    path = tmp_path / "friday.json"
    finished = []
    table, factory, clock = make(deals=1, rematch=30.0, record=str(path), on_finish=finished.append)
    conns = seat_all(factory, rematch=True)  # clients that show the offer (docs/protocol.md hello)
    tokens = [c.welcome["token"] for c in conns]
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(3))
    first = table.state.balances[:]
    offers = [of_type(c, "rematch_offer") for c in conns]
    assert all(len(o) == 1 for o in offers)
    offer = offers[0][0]
    assert offer["waiting"] == [0, 1, 2, 3] and offer["seconds"] == 30.0 and offer["match"] == 2
    assert offer["result"]["balances"] == first and offer["result"]["deals"] == 1
    assert not table.finished and finished == [] and all(c.open for c in conns)
    for c in conns[:3]:
        c.send({"type": "rematch", "accept": True})
    assert table.rematch is not None and table.match_no == 1  # still waiting for seat 3
    conns[3].send({"type": "rematch"})  # accept is the default
    assert [m["match"] for m in of_type(conns[0], "rematch_start")] == [2]
    assert table.match_no == 2 and table.state.deal_no == 1 and not table.finished
    assert table.state.balances == [-100] * 4 and table.state.pot == 400  # F5: a fresh match's antes
    assert [s.token for s in table.seats] == tokens and [s.name for s in table.seats] == ["P0", "P1", "P2", "P3"]
    # the rematch's record goes beside the first (exported from the journal at its deal ends, issue #9)
    assert table.journal.record_path == str(tmp_path / "friday.2.json")
    assert record.replay_json(json.loads(path.read_text()))["balances"] == first
    # the second match ends too: the offer again; a "no" ends the table with that match's result
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(4))
    assert of_type(conns[2], "rematch_offer")[-1]["match"] == 3
    conns[2].send({"type": "rematch", "accept": False})
    closing = of_type(conns[0], "closing")
    assert table.finished and closing[0]["reason"] == "seat 2 declined the rematch"
    assert closing[0]["result"]["balances"] == table.state.balances == finished[0]["balances"]
    res = record.replay_json(json.loads((tmp_path / "friday.2.json").read_text()))
    assert res["ok"] and res["balances"] == finished[0]["balances"]


def test_rematch_ends_when_a_player_leaves_or_nobody_answers():
    table, factory, clock = make(deals=1, rematch=30.0)
    conns = seat_all(factory, rematch=True)
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(3))
    conns[1].send({"type": "leave"})
    assert table.finished and of_type(conns[0], "closing")[0]["reason"] == "seat 1 left before the rematch"
    table, factory, clock = make(deals=1, rematch=30.0)
    conns = seat_all(factory, rematch=True)
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(3))
    conns[0].send({"type": "rematch", "accept": True})
    clock.advance(29)
    assert not table.finished
    clock.advance(2)
    assert table.finished and of_type(conns[1], "closing")[0]["reason"] == "no answer to the rematch in 30 s"


def test_a_connection_that_comes_back_during_the_rematch_offer_gets_it_with_the_seconds_left():
    """docs/protocol.md ``rematch_offer``: a seat that reconnects with its token while the offer
    is open (its old connection replaced, as after a Wi-Fi blip) gets the offer again after its
    view, ``seconds`` what is left of the wait, so its player can still answer; a spectator that
    arrives then gets it too. All four accepting starts match 2 (was: the offer ran out)."""
    table, factory, clock = make(deals=1, rematch=30.0)
    conns = seat_all(factory, rematch=True)
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(3))
    first = of_type(conns[0], "rematch_offer")[0]
    clock.advance(12)
    back = Conn(factory)
    got = back.hello("P0", token=conns[0].welcome["token"], rematch=True)
    assert not conns[0].open and back.welcome["seat"] == 0
    assert [m["type"] for m in got][-2:] == ["view", "rematch_offer"]
    again = got[-1]
    assert again["seconds"] == 18 and again["waiting"] == [0, 1, 2, 3] and again["match"] == 2
    assert again["result"] == first["result"]
    watcher = Conn(factory)
    assert watcher.hello("Watcher", spectate=True)[-1]["type"] == "rematch_offer"
    for c in [back] + conns[1:]:
        c.send({"type": "rematch", "accept": True})
    assert table.match_no == 2 and not table.finished
    assert [m["match"] for m in of_type(back, "rematch_start")] == [2]
    late = Conn(factory)  # once the offer is over, nobody gets it again
    assert "rematch_offer" not in [m["type"] for m in late.hello("Late", spectate=True)]


def test_during_the_rematch_offer_newcomers_are_refused_and_a_mute_client_ends_it():
    """docs/protocol.md ``rematch_offer``: while the offer is open the match has ended — a hello
    for a seat without a token is ``table_full`` (a spectator may come); an offer sent again
    lists only the seats still to answer; a seat still to answer that comes back on a client
    without ``rematch`` ends the offer at once ("seat 1 cannot answer the rematch"), instead of
    the whole wait for an answer that cannot come."""
    table, factory, clock = make(players=3, deals=1, rematch=30.0)
    conns = seat_all(factory, 3, rematch=True)
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(3))
    late = Conn(factory)
    assert [m["code"] for m in late.hello("Dave", rematch=True) if m["type"] == "error"] == ["table_full"]
    assert not late.open and table.names == ["P0", "P1", "P2"]
    assert Conn(factory).hello("Watcher", spectate=True)[-1]["waiting"] == [0, 1, 2]
    conns[0].send({"type": "rematch", "accept": True})
    back = Conn(factory)
    assert back.hello("P0", token=conns[0].welcome["token"], rematch=True)[-1]["waiting"] == [1, 2]
    mute = Conn(factory)
    mute.hello("P1", token=conns[1].welcome["token"])  # its client cannot show the question
    closing = of_type(conns[2], "closing")
    assert table.finished and closing and closing[0]["reason"] == "seat 1 cannot answer the rematch"
    assert clock.seconds() < 30  # not the whole wait


def test_closing_is_the_last_message_a_connection_gets():
    """docs/protocol.md "Session": when the table ends (here a rematch declined), each
    connection's last message is its ``closing``; a ping or a lang sent after it gets nothing
    (the host answered them until it was stopped)."""
    table, factory, clock = make(deals=1, rematch=30.0)
    conns = seat_all(factory, rematch=True)
    play_until(table, conns, clock, lambda: table.rematch is not None, random.Random(3))
    conns[1].send({"type": "rematch", "accept": False})
    assert table.finished and conns[0].read()[-1]["type"] == "closing"
    conns[0].send({"type": "ping", "id": 7})
    conns[0].send({"type": "lang", "lang": "ru"})
    assert conns[0].read() == [] and conns[0].log[-1]["type"] == "closing"


def test_no_rematch_offer_when_off_or_a_person_cannot_answer_or_without_people():
    """rematch 0 (`--rematch 0`): the table closes at the match's end; an answer then is refused
    with no_rematch. With the default (60 s) but one person whose client said no ``rematch`` in
    its hello (it cannot show the question): no offer either, the table closes at once
    (docs/protocol.md "rematch_offer"). A table of computer players only is never offered one."""
    assert TableConfig().rematch == 60.0
    table, factory, clock = make(deals=1, rematch=0)
    conns = seat_all(factory, rematch=True)
    conns[0].send({"type": "rematch", "accept": True})
    assert [e["code"] for e in conns[0].errors()] == ["no_rematch"]
    play_until(table, conns, clock, lambda: table.finished, random.Random(3))
    assert of_type(conns[0], "closing")[0]["reason"] == "match over" and of_type(conns[0], "rematch_offer") == []
    table, factory, clock = make(deals=1)
    conns = seat_all(factory, 3, rematch=True)
    old = Conn(factory)
    old.hello("Old client")  # no "rematch" in its hello
    conns.append(old)
    play_until(table, conns, clock, lambda: table.finished, random.Random(3))
    assert of_type(old, "rematch_offer") == [] and len(of_type(old, "closing")) == 1
    assert of_type(conns[0], "closing")[0]["reason"] == "match over" and table.rematch is None
    table, factory, clock = make(deals=1, rematch=30.0)
    conns = []
    for i in range(4):
        c = Conn(factory)
        c.hello(f"B{i}", bot=True)
        conns.append(c)
    play_until(table, conns, clock, lambda: table.finished, random.Random(3))
    assert table.rematch is None
