"""Wire format units: framing, the strict msgpack codec, big integers (F6), bounded buffering.

docs/protocol.md "Framing" and "Encoding"; stack-notes.md "Framing msgpack over TCP".
"""
from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings, strategies as st
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet.net import viewcodec, wire
from frapnet.net.protocol import ProtocolError, check_client_message, clean_text
from frapnet.testing import seat_map


def test_frame_is_length_prefixed_msgpack():
    msg = {"type": "chat", "text": "hi"}
    f = wire.frame(msg)
    body = msgpack.packb(msg, use_bin_type=True)
    assert f == len(body).to_bytes(4, "big") + body
    assert wire.decode(f[4:]) == msg


@pytest.mark.parametrize("n", [2 ** 64, 2 ** 64 - 1, -(2 ** 63), -(2 ** 63) - 1, 10 ** 40, -(10 ** 40), 0])
def test_big_integers_exact_F6(n):
    """F6: chip amounts have no upper bound; integers beyond 64 bits travel exactly (ext 1)."""
    body = wire.encode({"type": "view", "view": {"balances": [n, -n], "pot": n}})
    got = wire.decode(body)
    assert got["view"]["balances"] == [n, -n] and got["view"]["pot"] == n
    assert type(got["view"]["pot"]) is int
    if n >= 2 ** 64 or n < -(2 ** 63):
        assert msgpack.ExtType(wire.EXT_BIGINT, str(n).encode()) in msgpack.unpackb(body)["view"]["balances"]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(10 ** 300), max_value=10 ** 300))
def test_any_integer_round_trips_F6(n):
    assert wire.decode(wire.encode({"type": "x", "n": n}))["n"] == n


@pytest.mark.parametrize("payload, why", [
    (b"\x01" + b"12x", "not digits"),
    (b"\x01" + b"", "empty"),
    (b"\x01" + b"9" * 1001, "too many digits"),
])
def test_bad_bigint_extension_is_malformed(payload, why):
    code, data = payload[0], payload[1:]
    body = msgpack.packb({"type": "x", "n": msgpack.ExtType(code, data)})
    with pytest.raises(wire.WireError) as e:
        wire.decode(body)
    assert e.value.code == "malformed", why


def test_unknown_extension_type_is_refused_never_unpickled():
    import pickle
    body = msgpack.packb({"type": "x", "n": msgpack.ExtType(7, pickle.dumps(object))})
    with pytest.raises(wire.WireError, match="unknown msgpack extension type 7"):
        wire.decode(body)


@pytest.mark.parametrize("body, match", [
    (b"\xc1", "not a valid msgpack"),                                     # never-used byte
    (msgpack.packb({"type": "x"}) + b"\x00", "not a valid msgpack"),       # trailing bytes (ExtraData)
    (msgpack.packb({"type": "x"})[:-1], "not a valid msgpack"),            # truncated
    (msgpack.packb([1, 2, 3]), "a message is a map"),
    (msgpack.packb({"kind": "x"}), "string \"type\""),
    (msgpack.packb({"type": 5}), "string \"type\""),
    (msgpack.packb({1: "x", "type": "hello"}), "not a valid msgpack message: a map key that is not a str "
                                                r"\(or bin\), but int$"),  # strict_map_key, in our words
    (msgpack.packb({"type": b"\xff\xfe"}, use_bin_type=False), "not a valid msgpack"),  # bad UTF-8
    (msgpack.packb({"type": "x", "a": list(range(wire.MAX_ARRAY + 1))}), "not a valid msgpack"),
    (msgpack.packb({"type": "x", "s": "a" * (wire.MAX_STR + 1)}), "not a valid msgpack"),
])
def test_malformed_bodies(body, match):
    with pytest.raises(wire.WireError, match=match) as e:
        wire.decode(body)
    assert e.value.code == "malformed"


def test_body_over_limit_is_too_large():
    with pytest.raises(wire.WireError) as e:
        wire.decode(b"\x00" * (wire.MAX_FRAME + 1))
    assert e.value.code == "too_large"


class Echo(wire.FramedProtocol):
    def __init__(self):
        self.got, self.errors = [], []

    def messageReceived(self, msg):
        self.got.append(msg)

    def frameError(self, err):
        self.errors.append(err)
        super().frameError(err)


def _connected(proto):
    tr = StringTransportWithDisconnection()
    tr.protocol = proto
    proto.makeConnection(tr)
    return tr


def test_frames_split_and_joined_arbitrarily():
    p = Echo()
    _connected(p)
    data = b"".join(wire.frame({"type": "chat", "text": str(i)}) for i in range(50))
    for i in range(0, len(data), 3):
        p.dataReceived(data[i:i + 3])
    assert [m["text"] for m in p.got] == [str(i) for i in range(50)]


def test_oversized_length_prefix_closes_before_buffering():
    """A 4-byte prefix announcing more than MAX_FRAME: refused at once, nothing buffered."""
    p = Echo()
    tr = _connected(p)
    p.dataReceived((wire.MAX_FRAME + 1).to_bytes(4, "big") + b"x" * 10)
    assert [e.code for e in p.errors] == ["too_large"]
    assert not tr.connected
    assert len(p._unprocessed) < 100  # nothing of the claimed body was kept


def test_outbound_queue_bounded_views_coalesced():
    """stack-notes.md: while the peer does not read, views are coalesced; overflow aborts."""
    p = Echo()
    p.max_queued = 10_000
    tr = _connected(p)
    tr.producer.pauseProducing()  # the kernel buffer is full
    for i in range(100):
        p.sendMessage({"type": "view", "view": {"version": i}})
    assert len(p._queue) == 1 and tr.value() == b""
    tr.producer.resumeProducing()
    assert wire.decode(tr.value()[4:]) == {"type": "view", "view": {"version": 99}}
    tr.clear()
    tr.producer.pauseProducing()
    for i in range(100):
        p.sendMessage({"type": "event", "event": {"text": "x" * 200, "n": i}})
    assert p.overflowed and tr.disconnected  # aborted, not a graceful close



def test_a_changes_frames_go_out_in_one_write_in_order_and_queue_as_before():
    """Issue #9 (host speed): ``sendFrames`` writes a change's events and view in one transport
    call, in order; while the peer does not read they are queued frame by frame — a newer view
    replaces the queued one, events stay in order — and the bound still aborts the connection."""
    p = Echo()
    p.max_queued = 10_000
    tr = _connected(p)
    writes = []
    real = tr.writeSequence
    tr.writeSequence = lambda seq: (writes.append(len(seq)), real(seq))
    change = [wire.frame({"type": "event", "event": {"n": 1}}), wire.frame({"type": "event", "event": {"n": 2}}),
              wire.frame({"type": "view", "view": {"version": 7}})]
    p.sendFrames([("event", change[0]), ("event", change[1]), ("view", change[2])])
    assert writes == [3] and tr.value() == b"".join(change) and p.bytes_sent == sum(map(len, change))
    tr.clear()
    tr.producer.pauseProducing()
    for v in (8, 9):
        p.sendFrames([("event", wire.frame({"type": "event", "event": {"n": v}})),
                      ("view", wire.frame({"type": "view", "view": {"version": v}}))])
    assert [k for k, _ in p._queue] == ["event", "event", "view"] and tr.value() == b""
    tr.producer.resumeProducing()
    got, data = [], tr.value()
    while data:
        n = int.from_bytes(data[:4], "big")
        got.append(wire.decode(data[4:4 + n]))
        data = data[4 + n:]
    assert got == [{"type": "event", "event": {"n": 8}}, {"type": "event", "event": {"n": 9}},
                   {"type": "view", "view": {"version": 9}}]
    tr.producer.pauseProducing()
    p.sendFrames([("event", wire.frame({"type": "event", "event": {"t": "x" * 6000}}))] * 2)
    assert p.overflowed and tr.disconnected  # past max_queued: aborted, as sendFrame does

def test_clean_text_strips_controls_and_escapes():
    assert clean_text("Ol\x1b[31mga\x07\u202e", 32) == "Ol[31mga"
    assert clean_text("a\nb\tc", 32) == "a b c"
    assert clean_text("x" * 100, 32) == "x" * 32


def test_hello_validation():
    for tag, lang in [("ru_RU.UTF-8", "ru"), ("en-GB", "en"), ("", "en"), ("\x1b[", "en"), ("RU", "ru")]:
        assert check_client_message({"type": "hello", "protocol": "1.0", "name": "x", "lang": tag})["lang"] == lang
    ok = check_client_message({"type": "hello", "protocol": "1.0", "name": " Olga\x1b ", "lang": "ru"})
    assert ok["name"] == "Olga" and ok["lang"] == "ru" and ok["spectate"] is False and ok["token"] is None
    for bad, code in [({"type": "hello", "name": "x"}, "bad_message"),
                      ({"type": "hello", "protocol": 1, "name": "x"}, "bad_message"),
                      ({"type": "hello", "protocol": "1.0", "name": "\x1b\x07"}, "bad_name"),
                      ({"type": "hello", "protocol": "1.0", "name": ["x"]}, "bad_message"),
                      ({"type": "hello", "protocol": "1.0", "name": "x", "spectate": "yes"}, "bad_message"),
                      ({"type": "act", "action": "play", "version": 1}, "bad_message"),
                      ({"type": "act", "action": [], "version": 1}, "bad_message"),
                      ({"type": "act", "action": ["play", "AS"], "version": True}, "bad_message"),
                      ({"type": "act", "action": ["play", "AS"]}, "bad_message"),
                      ({"type": "chat", "text": 5}, "bad_message"),
                      ({"type": "shuffle"}, "unknown_kind")]:
        with pytest.raises(ProtocolError) as e:
            check_client_message(bad)
        assert e.value.code == code, bad


def test_protocol_doc_lists_every_kind_and_error_code():
    """docs/protocol.md is the contract: every message kind and error code appears in it, and its
    example frames are the bytes the codec produces."""
    from pathlib import Path

    from frapnet.net.protocol import CLIENT_KINDS, ERROR_CODES, HOST_KINDS
    doc = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    for kind in CLIENT_KINDS + HOST_KINDS:
        assert f"### `{kind}`" in doc, kind
    import re
    documented = set(re.findall(r"^### `([a-z_]+)`", doc, re.M))  # and every documented kind is known
    assert documented == set(CLIENT_KINDS + HOST_KINDS), documented ^ set(CLIENT_KINDS + HOST_KINDS)
    for code in ERROR_CODES:
        assert f"| `{code}` |" in doc, code
    assert wire.frame({"type": "ping", "id": 1}).hex(" ") == \
        "00 00 00 0f 82 a4 74 79 70 65 a4 70 69 6e 67 a2 69 64 01"
    act = wire.frame({"type": "act", "action": ["play", "10H"], "version": 42}).hex(" ")
    assert act[:90] in doc.replace("\n", " ")


values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10 ** 30), max_value=10 ** 30) | st.text(max_size=8)
    | st.sampled_from([0, 1, 1.0, True, False, 2 ** 64, -(2 ** 63) - 1]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["balances", "pot", "hand", "seats", "seat", "x", "y"]), values,
                                max_size=7), min_size=1, max_size=6),
       st.integers(min_value=0, max_value=20))
def test_shared_encoder_frames_are_byte_identical_F6(bodies, extra):
    """One SharedEncoder framing many maps (the per-seat views of one state) gives, for each,
    exactly frame({"type": "view", "view": body}) — equal values of other types (1, 1.0, True),
    big integers as ext 1 (F6), map headers past 15 keys included."""
    enc = viewcodec.SharedEncoder()
    for body in bodies:
        body = dict(body, **{f"k{i}": i for i in range(extra)})
        assert enc.frame("view", "view", body) == wire.frame({"type": "view", "view": body})


def _default_calls(monkeypatch) -> list:
    """Every value the encoder hands to ``wire._default`` from now on (big integers, F6), in order."""
    calls = []
    orig = wire._default

    def spy(obj):
        calls.append(obj)
        return orig(obj)
    monkeypatch.setattr(wire, "_packer", wire.msgpack.Packer(default=spy, use_bin_type=True))
    return calls


def test_shared_encoder_encodes_each_shared_value_once_F6(monkeypatch):
    """The point of it: 12 views with the same 12 big balances call the big-integer hook for
    12 numbers, not 144."""
    calls = _default_calls(monkeypatch)
    balances = [2 ** 70 + i for i in range(12)]
    enc = viewcodec.SharedEncoder()
    frames = [enc.frame("view", "view", {"seat": s, "balances": list(balances), "hand": [str(s)]})
              for s in range(12)]
    assert len(calls) == 12 and len(set(frames)) == 12
    assert wire.decode(frames[5][4:])["view"] == {"seat": 5, "balances": balances, "hand": ["5"]}


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["balances", "pot", "hand", "seats", "sheet", "x", "y", "ui"]), values,
                       min_size=1, max_size=8),
       st.dictionaries(st.sampled_from(["balances", "pot", "hand", "seats", "sheet", "x", "y", "ui"]), values,
                       max_size=8),
       st.lists(st.booleans(), min_size=8, max_size=8),
       st.dictionaries(st.sampled_from(["hand", "seat", "x", "ui"]), values, max_size=3))
def test_public_encoder_after_a_previous_one_frames_byte_identically_F6(old, new, keep, own):
    """Issue #9: a public view encoded after the last change's (``previous``) reuses the bytes of
    the values that are the very same objects, or lists/maps of the very same objects (the score
    sheet's rows, also once grown at its end) — and every frame is still exactly ``frame()`` of the
    whole view (a seat's: its own keys last, :func:`seat_map`): equal values of other types (``[1]`` then ``[True]``, 1 then 1.0), big integers
    (F6) and a changed key order are encoded anew."""
    prev = viewcodec.PublicEncoder("view", "view", old)
    body = {}
    for (k, v), same in zip(new.items(), keep):
        if same and k in old:  # the very object, a fresh list/map of the very same items, or grown
            v = old[k] if not isinstance(old[k], (list, dict)) or len(body) % 3 == 0 else \
                dict(old[k]) if isinstance(old[k], dict) else list(old[k]) + ([v] if len(body) % 3 == 2 else [])
        body[k] = v
    enc = viewcodec.PublicEncoder("view", "view", body, prev)
    assert enc.public_frame() == wire.frame({"type": "view", "view": body})
    part = {k: v for k, v in own.items() if k in body}
    assert enc.frame_part(part) == wire.frame({"type": "view", "view": seat_map(body, part)})
    assert enc.frame_part(part) == wire.frame({"type": "view", "view": seat_map(body, part)})  # its bytes cached
    if set(own) - set(body):
        assert enc.frame_part(own) is None


def test_public_encoder_encodes_an_unchanged_score_sheet_once_per_match_F6(monkeypatch):
    """Issue #9: the score sheet's rows are the state's own objects (never changed): after a
    change that left them alone, the next public view does not encode their big integers again,
    only the balances that changed; a new row (a deal settled) is the only one encoded — past 15
    rows too, where msgpack's array header grows from one byte to three."""
    calls = _default_calls(monkeypatch)
    rows = [{"deal": d, "after": [2 ** 70 + d * 12 + s for s in range(12)], "pot": 2 ** 66} for d in range(30)]
    first = viewcodec.PublicEncoder("view", "view", {"balances": list(rows[-1]["after"]), "sheet": list(rows)})
    assert len(calls) == 12 + 30 * 13
    calls.clear()
    body = {"balances": [2 ** 71] * 12, "sheet": list(rows)}
    second = viewcodec.PublicEncoder("view", "view", body, first)
    assert len(calls) == 12 and second.public_frame() == wire.frame({"type": "view", "view": body})
    calls.clear()
    new_row = {"deal": 30, "after": [2 ** 72] * 12, "pot": 2 ** 66}
    body = {"balances": body["balances"], "sheet": rows + [new_row]}
    third = viewcodec.PublicEncoder("view", "view", body, second)
    assert len(calls) == 13 and third.public_frame() == wire.frame({"type": "view", "view": body})
    for n in (14, 15, 16, 17):  # 15 → 16 rows: a fixarray becomes an array16
        enc = viewcodec.PublicEncoder("view", "view", {"sheet": rows[:n + 1]}, viewcodec.PublicEncoder("view", "view", {"sheet": rows[:n]}))
        assert enc.public_frame() == wire.frame({"type": "view", "view": {"sheet": rows[:n + 1]}})
    long = [{"deal": d, "after": [d], "pot": 0} for d in range(65536)]  # 65,535 → 65,536 rows: array16 → array32
    enc = viewcodec.PublicEncoder("view", "view", {"sheet": long}, viewcodec.PublicEncoder("view", "view", {"sheet": long[:-1]}))
    assert enc.public_frame() == wire.frame({"type": "view", "view": {"sheet": long}})



def test_public_encoder_encodes_again_only_what_is_not_the_last_changes_object(monkeypatch):
    """Issue #9 (12-seat latency): the next change's public view encodes only the values that are
    not the very objects of the last one (or lists/maps of the very objects, or an empty list
    again): the match's options and the last deal's report in words (the ui map's) are the same
    objects from change to change (Frap's ``frapnet_view_ui``), so an unchanged ui map costs
    nothing. A value equal but of another type (1, then True) is encoded anew; so is a short one
    (its last bytes under ``viewcodec._REUSE_FROM``): packing it again is cheaper than comparing."""
    calls = []
    real = wire.encode
    monkeypatch.setattr(wire, "encode", lambda v: (calls.append(v), real(v))[1])
    monkeypatch.setattr(wire, "pack_fast", lambda v: (calls.append(v), real(v))[1])  # the encoder's short values
    opts, report = [["ante", "100"]] * 20, {"columns": ["a long enough column heading"] * 5}
    first = viewcodec.PublicEncoder("view", "view", {"v": 1, "marks": [], "ui": {"options": opts, "report": report},
                                                     "d": [1] * 200})
    calls.clear()
    body = {"v": 2, "marks": [], "ui": {"options": opts, "report": report}, "d": [True] * 200}
    second = viewcodec.PublicEncoder("view", "view", body, first)
    assert len(real({"ui": body["ui"]})) >= viewcodec._REUSE_FROM
    # the version and the short empty list packed again (cheaper than comparing); d's items are
    # equal to the last ones but of another type (1 == True), so d too; never the long ui map
    assert calls == [2, [], body["d"]]
    assert second.public_frame() == wire.frame({"type": "view", "view": body})
    assert wire.decode(second.public_frame()[4:])["view"]["d"] == [True] * 200
    calls.clear()
    body = {"v": 3, "marks": [], "ui": {"options": opts, "report": dict(report)}, "d": body["d"]}
    third = viewcodec.PublicEncoder("view", "view", body, second)
    assert calls == [3, [], body["ui"]] and third.public_frame() == wire.frame({"type": "view", "view": body})


def test_frap_ui_map_keeps_the_options_and_reports_words_from_change_to_change(registry):
    """Issue #9: Frap's ui map gives the very same ``options`` (F27) and ``report`` objects while
    the match's options and its last report are the same — so the fan-out reuses their bytes —
    and new ones once the report is another deal's; their words are those of each language."""
    from frapnet import engine
    from frapnet.testing import random_deals
    import random
    state = engine.new_match("frap", 4, {}, (), registry)
    seen = []
    for _, _, _, st in random_deals(state, random.Random(4), 3):
        if st.phase == engine.DEAL and st.reports:
            seen.append((st.reports[-1], engine.view(st, None)["ui"], engine.view(st, None, "ru")["ui"]))
    assert len(seen) > 10
    for (r0, a, a_ru), (r1, b, b_ru) in zip(seen, seen[1:]):
        assert a["options"] is b["options"] and a_ru["options"] is b_ru["options"]
        assert (a["report"] is b["report"]) == (r0 is r1) and (a_ru["report"] is b_ru["report"]) == (r0 is r1)
    ui, ui_ru = seen[-1][1], seen[-1][2]
    assert ui["options"][1] == ["ante", "100"] and ui_ru["options"][1] == ["взнос", "100"]
    assert ui["report"]["columns"][0]["title"] == "tricks" and ui_ru["report"]["columns"][0]["title"] == "взятки"
