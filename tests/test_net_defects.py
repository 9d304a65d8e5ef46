"""The hostile-input defects of issue #9 part 6, each reproduced on the wire and pinned here.

Every test drives the host through its connections only (HostProtocol on a StringTransport,
time on a Clock — the harness of test_net_host.py), so they do not depend on how the host is
cut into modules:

- an ``act`` whose argument is nested ~990 deep was a RecursionError while building the error
  (CRITICAL traceback, ``internal``): now a plain ``bad_message``;
- 16 addresses holding pre-hello connections took every slot (a seated player coming back with
  a valid token, and new players, got ``busy``): pre-hello connections are bounded globally and
  room is kept for players;
- client text reached the host's log raw (ESC/BEL, a 60 KB ``type`` line): escaped and cut;
- two players could sit under the same name: the host disambiguates it for everyone;
- password guessing was limited per address only: limited per table too, and one address
  (a NAT'd group) is no longer locked out together;
- the msgpack timestamp extension (−1) was accepted: ``malformed``, as docs/protocol.md says.
"""
from __future__ import annotations

import sys
from pathlib import Path

import msgpack
import pytest
from twisted.logger import LogLevel, formatEvent, globalLogPublisher

from frapnet import engine
from frapnet.net import wire
from frapnet.net.protocol import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_net_bad_input import ConnFrom  # noqa: E402 - a StringTransport client from any address
from test_net_host import Conn, make  # noqa: E402 - the StringTransport client of the host units


@pytest.fixture
def host_log():
    """Every log event the host emits during the test (twisted.logger's global publisher)."""
    events: list[dict] = []
    globalLogPublisher.addObserver(events.append)
    yield events
    globalLogPublisher.removeObserver(events.append)


def _lines(events) -> list[str]:
    return [formatEvent(e) or "" for e in events]


def _serious(events) -> list[str]:
    """Log lines at level error or critical (log.failure is critical), with their tracebacks."""
    out = []
    for e in events:
        if e.get("log_level") in (LogLevel.error, LogLevel.critical):
            f = e.get("log_failure")
            out.append((formatEvent(e) or "") + (f.getTraceback() if f is not None else ""))
    return out


def _two_seats():
    table, factory, clock = make(players=2)
    a, b = Conn(factory), Conn(factory)
    a.hello("A"), b.hello("B")
    a.read(), b.read()
    return table, factory, clock, {0: a, 1: b}


def _nested(depth: int, leaf="AS"):
    v = leaf
    for _ in range(depth):
        v = [v]
    return v


# --- 1. a deeply nested act argument -------------------------------------------------------------

@pytest.mark.parametrize("depth", [2, 990])
def test_deeply_nested_act_argument_is_bad_message_without_traceback(host_log, depth):
    """``["play", [[[…"AS"…]]]]`` nested ``depth`` deep: ``bad_message`` (connection open), no
    traceback or CRITICAL line in the log, the state unchanged; the seat's legal action (F20:
    any legal play; here its first legal action) is still accepted afterwards."""
    table, factory, clock, conns = _two_seats()
    st = table.state
    seat = st.to_act[0]
    c = conns[seat]
    c.send({"type": "act", "action": ["play", _nested(depth)], "version": st.version})
    errs = c.errors()
    assert [e["code"] for e in errs] == ["bad_message"], errs
    assert "nested" in errs[0]["message"] and len(errs[0]["message"]) <= 500
    assert c.open and table.state is st and table.rejected == 0
    assert _serious(host_log) == []
    c.act(engine.action_to_wire(engine.legal_actions(st, seat)[0]), st.version)
    assert c.errors() == [] and table.state.version == st.version + 1


def test_act_arguments_of_every_legal_shape_still_reach_the_engine():
    """The shape check lets through what the engine's verbs take (record-format.md): no argument,
    a card, a list of cards (``buy``), a whole number, a suit — they are refused by the rules
    (``illegal``, rule named), not as ``bad_message``."""
    table, factory, clock, conns = _two_seats()
    st = table.state
    c = conns[st.to_act[0]]
    for action in (["buy", ["AS", "KS"]], ["buy", []], ["discard", "7C"], ["play", 7], ["play", None]):
        c.send({"type": "act", "action": action, "version": st.version})
        errs = c.errors()
        assert [e["code"] for e in errs] == ["illegal"] and errs[0]["rule"] is not None, (action, errs)
    assert table.state is st


# --- 2. pre-hello connections cannot lock the players out ----------------------------------------

def test_silent_connections_from_16_addresses_leave_room_for_seated_and_new_players():
    """16 addresses × 16 connections that never send hello (256, the host's whole limit): a
    player whose connection dropped comes back with her token and gets her seat back; a new
    player from another address takes the free seat; the silent connections are bounded by a
    global cap (each one refused or pushed out got ``busy``)."""
    table, factory, clock = make(players=3)
    olga = ConnFrom(factory, "192.168.1.10")
    token = olga.hello("Olga")[0]["token"]
    ivan = ConnFrom(factory, "192.168.1.11")
    assert ivan.hello("Ivan")[0]["seat"] == 1
    olga.tr.loseConnection()  # Wi-Fi drop: the seat is held for her (grace)
    assert table.seats[0].status == "reconnecting"
    silent = [ConnFrom(factory, f"10.6.6.{a}") for a in range(16) for _ in range(16)]
    still_open = [c for c in silent if c.open]
    assert len(still_open) <= factory.max_pending < 256 - 12
    for c in silent:
        if not c.open:
            assert [e["code"] for e in c.errors()] == ["busy"]
    back = ConnFrom(factory, "192.168.1.10")
    msgs = back.hello("Olga", token=token)
    assert msgs[0]["type"] == "welcome" and msgs[0]["seat"] == 0 and back.open, msgs[:1]
    assert table.seats[0].status == "connected" and table.seats[0].peer is back.proto
    newcomer = ConnFrom(factory, "192.168.1.12")
    msgs = newcomer.hello("Petr")
    assert msgs[0]["type"] == "welcome" and msgs[0]["seat"] == 2, msgs[:1]
    assert table.state.deal_no == 1  # every seat taken: the match began


def test_a_full_host_refuses_busy_but_evicts_a_silent_connection_for_a_player():
    """At the host's connection limit, a new connection pushes out the oldest silent one (from
    the address with the most of them), never a joined connection."""
    table, factory, clock = make(players=2)
    factory.max_connections, factory.max_pending = 20, 20
    olga = ConnFrom(factory, "192.168.1.10")
    olga.hello("Olga")
    silent = [ConnFrom(factory, f"10.6.6.{a}") for a in range(2) for _ in range(10)]
    assert len(factory.connections) <= 20 and olga.open
    ivan = ConnFrom(factory, "192.168.1.11")
    assert ivan.hello("Ivan")[0]["seat"] == 1 and olga.open
    assert sum(1 for c in silent if not c.open) >= 1
    assert all([e["code"] for e in c.errors()] == ["busy"] for c in silent if not c.open)


# --- 3. client text in the host's log ------------------------------------------------------------

BAD = "\x1b[2J\x1b]0;owned\x07\u202e"


@pytest.mark.parametrize("msg", [
    {"type": BAD + "A" * 60_000},
    {"type": "hello", "protocol": BAD, "name": "Eve"},
    {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Eve", "table": BAD + "x" * 40},
    {"type": "\x07" * 10 + "chat" + BAD},
    {"type": "act", "action": ["play", BAD], "version": 0},
])
def test_client_text_reaching_the_log_is_escaped_and_cut(host_log, msg):
    """What a client sends reaches the operator's terminal (the host's log) with control and
    bidi characters escaped and cut: no ESC, BEL or U+202E in any line, no line over 1,000
    characters; the client still gets its error."""
    table, factory, clock = make(players=2)
    c = Conn(factory)
    if msg["type"] == "act":
        c.hello("Olga")
    c.send(msg)
    assert c.errors(), msg["type"][:20]
    lines = _lines(host_log)
    assert lines
    for line in lines:
        assert not any(ch in line for ch in "\x1b\x07\u202e"), repr(line[:200])
        assert len(line) <= 1000, len(line)
    assert any("\\x1b" in line for line in lines)  # shown escaped, not dropped silently


def test_a_frame_error_in_the_log_is_escaped_and_cut(host_log):
    """A body that is not msgpack: msgpack's own error text (it can quote the bytes) is cut too."""
    table, factory, clock = make(players=2)
    c = Conn(factory)
    body = b"\xa5\x1b[2J\x07" + b"\xc1" * 50_000
    c.proto.dataReceived(len(body).to_bytes(4, "big") + body)
    assert [e["code"] for e in c.errors()] == ["malformed"]
    for line in _lines(host_log):
        assert "\x1b" not in line and "\x07" not in line and len(line) <= 1000


# --- 4. one name per table -----------------------------------------------------------------------

def test_two_players_cannot_sit_under_one_name():
    """A second "Olga" (or "olga", or "Olga" hidden behind a zero-width space) is seated as
    "Olga 2", shown so to everyone: welcome ``players``, every view's ``names``, seat events and
    chat; her token gives her back "Olga 2"."""
    table, factory, clock = make(players=4)
    a = Conn(factory)
    a.hello("Olga")
    b = Conn(factory)
    wb = b.hello("olga")[0]
    assert wb["players"][1]["name"] != "Olga" and wb["players"][1]["name"].casefold() != "olga"
    c = Conn(factory)
    c.hello("Olga\u200b")
    names = table.names
    assert names[:3] == ["Olga", "olga 2", "Olga 3"], names
    for conn in (a, b, c):
        conn.read()
        assert conn.view["names"][:3] == names[:3]
    joined = [m["event"]["name"] for m in a.log if m["type"] == "event" and m["event"]["type"] == "seat_joined"]
    assert joined == ["Olga", "olga 2", "Olga 3"]
    b.send({"type": "chat", "text": "hi"})
    assert [m["name"] for m in a.read() if m["type"] == "chat"] == ["olga 2"]
    b.tr.loseConnection()
    again = Conn(factory)
    back = again.hello("olga", token=wb["token"])[0]
    assert back["players"][1]["name"] == "olga 2" and back["name"] == "olga 2"
    assert table.names[:3] == names[:3]


def test_the_welcome_says_the_name_a_seat_or_spectator_is_known_by():
    """docs/protocol.md ``welcome`` ``name``: the cleaned, numbered name — also for a spectator,
    whose name is in no ``players`` entry (found by a client written from the doc alone)."""
    table, factory, clock = make(players=2)
    assert Conn(factory).hello("  Ivan\u200b ")[0]["name"] == "Ivan"
    spy = Conn(factory)
    w = spy.hello("ivan", spectate=True)[0]
    assert w["seat"] is None and w["name"] == "ivan 2"
    assert [p["name"] for p in w["players"]] == ["Ivan", ""]
    spy.send({"type": "chat", "text": "hello"})
    assert [m["name"] for m in spy.read() if m["type"] == "chat"] == ["ivan 2"]


@pytest.mark.parametrize("lookalike", ["\u041elga", "Olg\u0430", "Ol\u0261a", "O\u0336lga", "OIga", "Olga\u3164",
                                       "\u039f\u217cga",
                                       # marks of combining class 0 that print as nothing or around a letter
                                       "Olga\ufe0f", "Olga\U000e0100", "Olga\u034f", "Olga\u20dd", "Olga\u0489"])
def test_a_name_that_prints_like_a_seated_players_is_numbered(lookalike):
    """One name per table (issue #9) also for names that print alike: a Cyrillic О or а, a
    script ɡ, a combining overlay, a capital I for l, a trailing Hangul filler (it prints as
    nothing) — the second player is seated as "<name> 2", spelled as typed."""
    table, factory, clock = make(players=4)
    Conn(factory).hello("Olga")
    Conn(factory).hello(lookalike)
    assert table.names[:2] == ["Olga", lookalike.replace("\u3164", "") + " 2"], table.names
    # a filler turned space, then a mark with no letter: the mark goes too (was "Olga \u0301 3")
    Conn(factory).hello("Olga\u3164\u0301")
    assert table.names[2] == "Olga 3", table.names


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u115f\u1160", " \uffa0 ",
                                   # combining marks and variation selectors with no letter to sit on
                                   "\ufe0f\ufe0e", "\u0301\u0302", "\u20dd", "\u0489", " \u0301 \u0301 "])
def test_a_name_that_prints_as_nothing_is_bad_name(blank):
    table, factory, clock = make(players=4)
    c = Conn(factory)
    got = c.hello(blank)
    assert [m["code"] for m in got if m["type"] == "error"] == ["bad_name"], got
    assert table.names == ["", "", "", ""]  # nobody was seated


def test_marks_before_the_first_letter_are_dropped_from_names_and_chat():
    """protocol.md's rule for names: a combining mark with no letter before it prints on whatever
    a screen shows there (or as nothing), so it goes; marks on letters stay (``Zoe\u0301``); a chat
    line of marks alone is no chat line."""
    table, factory, clock = make(players=4)
    a = Conn(factory)
    a.hello("\u0301\u20ddZoe\u0301 \u2764\ufe0f")
    assert table.names[0] == "Zoe\u0301 \u2764\ufe0f"
    a.send({"type": "chat", "text": "\u0301" * 5})
    a.send({"type": "chat", "text": "\u0489hi"})
    assert [m["text"] for m in a.read() if m["type"] == "chat"] == ["hi"]


def test_a_spectator_cannot_chat_under_a_seated_players_name():
    table, factory, clock = make(players=2)
    a = Conn(factory)
    a.hello("Olga")
    spy = Conn(factory)
    spy.hello("OLGA", spectate=True)
    spy.send({"type": "chat", "text": "give me your chips"})
    said = [m for m in a.read() if m["type"] == "chat"]
    assert len(said) == 1 and said[0]["seat"] is None
    assert said[0]["name"].casefold() != "olga"


# --- 5. password guessing ------------------------------------------------------------------------

def test_password_guessing_is_limited_per_table_across_addresses():
    """100 addresses, one wrong guess each (it was 511 guesses in 6 s): the table checks at most
    ``factory.table_password_tries`` wrong passwords a minute; later hellos get ``password``
    without being checked — even the right password, so the limit is no oracle — until the
    minute has passed. A seated player coming back with her token still gets in."""
    table, factory, clock = make(players=3, password="s3cret")
    olga = ConnFrom(factory, "192.168.1.10")
    token = olga.hello("Olga", password="s3cret")[0]["token"]
    olga.tr.loseConnection()
    limit = factory.table_password_tries
    assert 5 <= limit <= 30
    refused = []
    for i in range(100):
        c = ConnFrom(factory, f"10.9.{i // 250}.{i % 250 + 1}")
        err = c.hello(f"G{i}", password=f"guess{i}")[0]
        assert err["code"] == "password" and not c.open
        refused.append(err["message"])
    checked = sum(1 for m in refused if "wrong or missing password" in m)
    assert checked == limit, refused[:3]
    late = ConnFrom(factory, "10.9.200.1").hello("Ivan", password="s3cret")[0]
    assert late["code"] == "password" and "try again in" in late["message"]
    back = ConnFrom(factory, "192.168.1.10").hello("Olga", password="s3cret", token=token)[0]
    assert back["type"] == "welcome" and back["seat"] == 0
    clock.advance(61)
    assert ConnFrom(factory, "10.9.200.1").hello("Ivan", password="s3cret")[0]["seat"] == 1


def test_one_guesser_behind_a_nat_does_not_lock_out_the_others():
    """Five wrong guesses by "Mallory" from one address (a NAT'd group): Mallory is held off for
    a minute, Olga from the same address with the right password still sits down."""
    table, factory, clock = make(players=3, password="s3cret")
    for i in range(5):
        assert ConnFrom(factory, "10.0.0.66").hello("Mallory", password=f"g{i}")[0]["code"] == "password"
    held = ConnFrom(factory, "10.0.0.66").hello("Mallory", password="s3cret")[0]
    assert held["code"] == "password" and "try again in" in held["message"]
    assert ConnFrom(factory, "10.0.0.66").hello("Olga", password="s3cret")[0]["seat"] == 0


# --- 6. msgpack extensions ----------------------------------------------------------------------

def _raw(msg) -> bytes:
    body = msgpack.packb(msg, datetime=False)
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize("where", ["version", "name", "nested"])
def test_msgpack_timestamp_extension_is_malformed(where):
    """docs/protocol.md "Encoding": unknown extension types are ``malformed`` (closed) — the
    timestamp extension (−1), which msgpack decodes by itself, included; ext 1 stays an integer."""
    ts = msgpack.Timestamp(1, 0)
    msg = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Eve"}
    if where == "version":
        msg = {"type": "act", "action": ["pass"], "version": ts}
    elif where == "name":
        msg["name"] = ts
    else:
        msg["extra"] = [{"deep": [ts]}]
    with pytest.raises(wire.WireError) as exc:
        wire.decode(_raw(msg)[4:])
    assert exc.value.code == "malformed" and "extension" in exc.value.message
    table, factory, clock = make(players=2)
    c = Conn(factory)
    c.proto.dataReceived(_raw(msg))
    assert [e["code"] for e in c.errors()] == ["malformed"] and not c.open


def test_timestamp_in_a_view_sized_message_and_depth_named_first():
    """One walk finds both refusals (docs/protocol.md "Encoding"): a timestamp deep inside a
    message with many lists and maps and many 0xff bytes (negative balances, as a view has) is
    ``malformed``; the same message without it decodes exactly; a message both nested past
    MAX_DEPTH and holding a timestamp is refused for its depth (``bad_message``)."""
    rows = [{"deal": d, "after": [-200, 150, -1, 51], "pot": 0} for d in range(1, 51)]
    clean = {"type": "view", "view": {"sheet": rows, "seats": [{"seat": s, "cards": [1, 2]} for s in range(12)]}}
    assert wire.decode(_raw(clean)[4:]) == clean
    bad = {"type": "view", "view": {"sheet": rows + [{"deal": 51, "after": [msgpack.Timestamp(5, 0)]}]}}
    with pytest.raises(wire.WireError) as exc:
        wire.decode(_raw(bad)[4:])
    assert exc.value.code == "malformed" and "timestamp" in exc.value.message
    nested: list = [msgpack.Timestamp(5, 0)]
    for _ in range(wire.MAX_DEPTH + 1):
        nested = [nested]
    with pytest.raises(wire.WireError) as exc:
        wire.decode(_raw({"type": "act", "action": ["play", nested]})[4:])
    assert exc.value.code == "bad_message" and f"more than {wire.MAX_DEPTH} deep" in exc.value.message


def test_big_integer_extension_and_minus_one_still_decode():
    """Ext 1 (F6: amounts past 2^64) is an exact integer; a plain −1 (the byte 0xff) is no
    extension at all."""
    assert wire.decode(wire.encode({"type": "x", "n": 2 ** 70, "m": -1, "s": "\xff"})) == \
        {"type": "x", "n": 2 ** 70, "m": -1, "s": "\xff"}
