"""Wire limits as docs/protocol.md ("Encoding", "act", errors) states them, found by an attack on a
live host: a body nested more than 32 deep is ``bad_message`` and ignored (the connection stays
open), one too deep for msgpack to decode is ``malformed`` (closed); an error never names
msgpack's exception classes; a boolean action argument is ``bad_message`` (not an ``illegal``
move, rule ``record``); runs of spaces in a name are one space for everyone."""
from __future__ import annotations

import sys
from pathlib import Path

import msgpack
import pytest

from frapnet.net import wire

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_net_host import Conn, make  # noqa: E402 - the StringTransport client of the host units


def _lists(k: int, leaf=1):
    """``leaf`` inside ``k`` lists: in a message body (a map, depth 1) it reaches depth 1 + k."""
    v = leaf
    for _ in range(k):
        v = [v]
    return v


def _raw(conn: Conn, body: bytes) -> None:
    conn.proto.dataReceived(len(body).to_bytes(4, "big") + body)


def test_a_body_nested_33_deep_is_bad_message_and_the_connection_stays_open():
    table, factory, clock = make(players=2)
    c = Conn(factory)
    c.hello("Olga")
    c.send({"type": "ping", "id": 1, "extra": _lists(31)})  # 32 levels in all: allowed
    assert [m["type"] for m in c.read()] == ["pong"]
    c.send({"type": "ping", "id": 2, "extra": _lists(32)})  # 33 levels
    errs = c.errors()
    assert [e["code"] for e in errs] == ["bad_message"]
    assert "nested more than 32 deep" in errs[0]["message"]
    assert c.open
    c.send({"type": "ping", "id": 3})
    assert [m.get("id") for m in c.read() if m["type"] == "pong"] == [3]


def _maps(k: int, leaf=1):
    """``leaf`` inside ``k`` maps (key ``"k"``)."""
    v = leaf
    for _ in range(k):
        v = {"k": v}
    return v


@pytest.mark.parametrize("make_nest", [_lists, _maps, lambda k: _maps(k // 2, _lists(k - k // 2))])
def test_decode_counts_lists_and_maps_to_exactly_32_levels(make_nest):
    """docs/protocol.md "Encoding": the body's own map is depth 1; 32 levels decode, 33 are
    ``bad_message`` — for lists, maps and the two mixed, beside shallow siblings of any width."""
    wide = list(range(200)) + [{"a": [1, 2, {"b": "c"}]}] * 5
    ok = wire.encode({"type": "ping", "wide": wide, "x": make_nest(31)})
    assert wire.decode(ok)["x"] == make_nest(31)
    with pytest.raises(wire.WireError) as e:
        wire.decode(wire.encode({"type": "ping", "wide": wide, "x": make_nest(32)}))
    assert e.value.code == "bad_message"


def test_a_body_too_deep_to_decode_is_malformed_without_msgpack_class_names():
    table, factory, clock = make(players=2)
    c = Conn(factory)
    c.hello("Olga")
    _raw(c, b"\x82\xa4type\xa4ping\xa1x" + b"\x91" * 5000 + b"\xc0")
    errs = c.errors()
    assert [e["code"] for e in errs] == ["malformed"] and not c.open
    assert errs[0]["message"] == "not a valid msgpack message: values nested far too deep to decode"


@pytest.mark.parametrize("body, why", [
    (b"\xc1", "not a valid msgpack message: not valid msgpack (a truncated or unknown encoding)"),
    (msgpack.packb({"type": "ping"}) + b"x", "not a valid msgpack message: bytes after the end of the message"),
    (b"\x81\xa4ty", "not a valid msgpack message: the message ends too early (truncated)"),
    (b"\x81\xa4type\xa2\xff\xfe", "not a valid msgpack message: a str that is not valid UTF-8"),
    (msgpack.packb({"type": "ping", "a": list(range(5000))}),
     "not a valid msgpack message: an array longer than the limit of 4096"),
])
def test_malformed_bodies_are_explained_in_words(body, why):
    with pytest.raises(wire.WireError) as e:
        wire.decode(body)
    assert e.value.code == "malformed" and e.value.message == why
    assert "Error" not in why and "max_" not in why


def test_a_boolean_action_argument_is_bad_message_and_changes_nothing():
    table, factory, clock = make(players=2)
    conns = [Conn(factory), Conn(factory)]
    for i, c in enumerate(conns):
        c.hello(f"P{i}")
        c.read()
    st = table.state
    seat = st.to_act[0]
    conns[seat].send({"type": "act", "action": ["play", True], "version": st.version})
    errs = conns[seat].errors()
    assert [e["code"] for e in errs] == ["bad_message"] and "true/false" in errs[0]["message"]
    assert table.state is st and conns[seat].open


def test_runs_of_spaces_in_a_name_become_one_space():
    table, factory, clock = make(players=3)
    a, b = Conn(factory), Conn(factory)
    a.hello("bot  1")
    b.hello("Bot   1")
    names = [p["name"] for p in b.welcome["players"]]
    assert names[:2] == ["bot 1", "Bot 1 2"]


@pytest.mark.parametrize("seat", [3, 64, -1, 10 ** 30])
def test_a_hello_for_a_seat_that_does_not_exist_is_bad_message_and_closed(seat):
    """docs/protocol.md "error": bad_message, "a `seat` that does not exist: closed" — a seat past
    the table's was, but one past 63 (or negative) left the connection open."""
    table, factory, clock = make(players=3)
    c = Conn(factory)
    msgs = c.hello("Olga", seat=seat)
    assert [m["type"] for m in msgs] == ["error"] and msgs[0]["code"] == "bad_message" and not c.open
    assert table.names == ["", "", ""]
