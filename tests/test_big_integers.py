"""Issue #9 hostile-input leftovers: an integer of ~1,001 digits in a message, an option or the
config file. The errors quoted the digits (a 1,000-character line, the stale `version` whole)
or named the wrong thing ("must hold decimal digits" for a big integer of 1,001 digits), and
some such values were taken although the protocol cannot carry them (a `--deals` or an ante of
1,001 digits: every client then failed to decode the host's views). Now each error says
"integer too large: N digits (limit L)", quotes no digits, and changes nothing.

Limits: 19 digits for a number in a client message (versions, seats, deals, ids, an action's
argument: never amounts); 100 for a value the host sends (options, `--deals`, the config file),
well under the 1,000 digits the protocol's ext 1 carries (:data:`frapnet.net.wire.MAX_BIGINT_DIGITS`):
the amounts grow from it.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import msgpack
import pytest

from frapnet import config, engine
from frapnet.cards import CardError, parse_card
from frapnet.errors import MAX_INT_DIGITS, RuleError, digits, shown
from frapnet.net import protocol, wire

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_net_host import Conn, make  # noqa: E402 - the StringTransport client of the host units

BIG = 10 ** 999  # 1,000 digits: as much as ext 1 carries
BIGGER = 10 ** 1000  # 1,001 digits


def test_the_largest_ante_still_travels_F6():
    """An ante of 1,000 digits was taken, and the first deal's pot (1,001 digits) could not be
    sent: every client failed to decode the views (the host's own computer players: CRITICAL
    tracebacks, the match stuck). The largest ante taken now plays deals whose every view decodes."""
    assert (MAX_INT_DIGITS, wire.MAX_BIGINT_DIGITS) == (100, 1000)
    import random

    from frapnet.plugins import default_registry

    ante = 4 * 10 ** (MAX_INT_DIGITS - 1)  # 100 digits
    rng = random.Random(3)
    st = engine.new_match("frap", 4, {"ante": ante}, (), default_registry())
    for _ in range(4):
        deck = engine.pack(st)
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, 0 if st.dealer is None else None)
        while st.phase == engine.DEAL:
            seat = st.to_act[0]
            st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
        for seat in (None, 0, 1, 2, 3):
            view = engine.view(st, seat)
            assert wire.decode(wire.frame({"type": "view", "view": view})[4:])["view"]["balances"] == view["balances"]
    assert max(digits(b) for b in st.balances) > MAX_INT_DIGITS  # the amounts grew past the ante's digits


@pytest.mark.parametrize("n, d", [(0, 1), (9, 1), (10, 2), (-10, 2), (10 ** 18 - 1, 18), (10 ** 18, 19),
                                  (2 ** 64, 20), (BIG, 1000), (-BIGGER, 1001), (10 ** 5000, 5001)],
                         ids=lambda v: f"{digits(v)}d" if isinstance(v, int) and abs(v) > 10 ** 20 else None)
def test_digits_counts_without_converting_to_text(n, d):
    assert digits(n) == d  # 10**5000 would be past Python's default 4300-digit str() limit


def test_shown_names_a_long_integer_by_its_digits():
    assert shown(12345) == "12345"
    assert shown(BIGGER) == "an integer of 1001 digits"
    assert shown(-(10 ** 5000)) == "an integer of 5001 digits"  # no ValueError at str()'s 4300-digit limit
    with pytest.raises(CardError) as exc:
        parse_card(BIG)
    assert str(exc.value) == ("an integer of 1000 digits is not a card string "
                              "(expected rank then suit, e.g. '10H', 'QS', 'RJ')")


# --- messages ---------------------------------------------------------------------------------------

def _two_seats():
    table, factory, clock = make(players=2)
    a, b = Conn(factory), Conn(factory)
    a.hello("A"), b.hello("B")
    a.read(), b.read()
    return table, {0: a, 1: b}


@pytest.mark.parametrize("msg, text", [
    ({"type": "act", "action": ["look"], "version": BIG},
     "act: field 'version': integer too large: 1000 digits (limit 19)"),
    ({"type": "act", "action": ["look"], "version": -BIG},
     "act: field 'version': integer too large: 1000 digits (limit 19)"),
    ({"type": "act", "action": ["look"], "version": 0, "seat": BIG},
     "act: field 'seat': integer too large: 1000 digits (limit 19)"),
    ({"type": "act", "action": ["play", BIG], "version": 0},
     "act: an argument: integer too large: 1000 digits (limit 19)"),
    ({"type": "act", "action": ["buy", ["AS", BIG]], "version": 0},
     "act: an argument: integer too large: 1000 digits (limit 19)"),
    ({"type": "nonce", "deal": BIG, "nonce": "ab"}, "nonce: field 'deal': integer too large: 1000 digits (limit 19)"),
    ({"type": "ping", "id": BIG}, "ping: field 'id': integer too large: 1000 digits (limit 19)"),
    ({"type": "ping", "id": 10 ** 19}, "ping: field 'id': integer too large: 20 digits (limit 19)"),
])
def test_a_huge_integer_in_a_message_is_bad_message_naming_the_limit(msg, text):
    table, conns = _two_seats()
    st = table.state
    seat = st.to_act[0]
    c = conns[seat]
    if msg["type"] == "act" and msg["version"] == 0:
        msg = {**msg, "version": st.version}
    c.send(msg)
    assert c.errors() == [{"type": "error", "code": "bad_message", "message": text, "rule": None}]
    assert c.open and table.state is st and table.rejected == 0
    c.send({"type": "ping", "id": 10 ** 19 - 1})  # 19 digits: in
    assert [m for m in c.read() if m["type"] == "pong"] == [{"type": "pong", "id": 10 ** 19 - 1}]


def test_a_huge_seat_in_hello_names_the_limit():
    table, factory, clock = make(players=2)
    c = Conn(factory)
    c.send({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "name": "Eve", "seat": BIG})
    assert [e["message"] for e in c.errors()] == ["hello: field 'seat': integer too large: 1000 digits (limit 19)"]
    assert table.names == ["", ""]


def test_a_big_integer_extension_over_the_limit_names_it():
    """ext 1 of 1,001 digits said "must hold decimal digits" — which it does."""
    body = msgpack.packb({"type": "ping", "id": msgpack.ExtType(wire.EXT_BIGINT, b"9" * 1001)})
    with pytest.raises(wire.WireError) as exc:
        wire.decode(body)
    assert exc.value.code == "malformed"
    assert exc.value.message == ("not a valid msgpack message: extension 1 (big integer): "
                                 "integer too large: 1001 digits (limit 1000)")
    body = msgpack.packb({"type": "ping", "id": msgpack.ExtType(wire.EXT_BIGINT, b"12x")})
    with pytest.raises(wire.WireError, match=r"extension 1 \(big integer\) must hold decimal digits"):
        wire.decode(body)
    assert wire.decode(wire.encode({"type": "x", "n": -BIG}))["n"] == -BIG  # 1,000 digits and a sign: in


# --- the rules engine ------------------------------------------------------------------------------

def test_options_and_arguments_quote_no_digits(registry):
    with pytest.raises(RuleError) as exc:
        engine.new_match("frap", 4, {"ante": BIGGER + 2}, (), registry)
    assert exc.value.message == ("option 'ante' = an integer of 1001 digits: "
                                 "a positive whole number of chips divisible by 4")
    st = engine.new_match("frap", 4, {}, (), registry)
    with pytest.raises(RuleError) as exc:
        engine.normalize_action(st.spec, 4, 0, ["play", BIG])
    assert exc.value.message.startswith("play: an integer of 1000 digits is not a card string")
    if "napoleon" in registry.games:  # its own check quotes the bid: a whole number is bounded first
        st = engine.new_match("napoleon", 4, {}, (), registry)
        with pytest.raises(RuleError) as exc:
            engine.normalize_action(st.spec, 4, 0, ["bid", BIG])
        assert (exc.value.rule, exc.value.message) == ("record", "'bid' takes a whole number: integer too large: "
                                                                 "1000 digits (limit 19)")


# --- options, the config file, the command line -------------------------------------------------------

def test_an_option_of_1001_digits_is_refused_naming_the_limit_quickly():
    from frapnet.commands._options import parse_options

    assert parse_options(["ante=" + "4" + "0" * 99]) == {"ante": 4 * 10 ** 99}  # 100 digits: in
    with pytest.raises(ValueError) as exc:
        parse_options(["ante=1" + "0" * 1000])
    assert str(exc.value) == "--option ante: integer too large: 1001 digits (limit 100)"
    t = time.perf_counter()
    with pytest.raises(ValueError) as exc:
        parse_options(["ante=-" + "7" * 300_000])  # never parsed: int() of it would take seconds
    assert str(exc.value) == "--option ante: integer too large: 300000 digits (limit 100)"
    assert time.perf_counter() - t < 0.5


@pytest.mark.parametrize("text, key", [
    ("[table]\ndeals = 1" + "0" * 1000, "table.deals"),
    ("[table]\nplayers = -1" + "0" * 1000, "table.players"),
    ("[options.frap]\nante = 1" + "0" * 1000, "options.frap.ante"),
])
def test_a_config_integer_of_1001_digits_names_the_key_and_the_limit(tmp_path, text, key):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(config.ConfigError) as exc:
        config.load(path)
    assert str(exc.value) == f"{path}: {key}: integer too large: 1001 digits (limit 100)"


def test_host_arguments_of_1001_digits_name_the_limit():
    import argparse

    from frapnet.commands import host as host_cmd

    p = argparse.ArgumentParser()
    host_cmd.add_arguments(p)
    d = "1" + "0" * 1000
    assert host_cmd.check_arguments(p.parse_args(["--deals", d])) == \
        "--deals: integer too large: 1001 digits (limit 100)"
    assert host_cmd.check_arguments(p.parse_args(["--port", d])) == \
        "--port must be 0…65535 (0: any free port), not an integer of 1001 digits"


@pytest.mark.parametrize("which", ["²", "9" * 5000, "٣"])
def test_export_of_a_match_number_that_is_no_number_is_no_traceback(which):
    from frapnet.commands.export import _choose

    assert _choose([{"id": 1, "table": "T"}], which) is None


def test_resuming_a_record_whose_ante_is_too_large_to_host_is_refused(tmp_path, registry):
    """A record may hold any amount (F6: `frapnet replay` reads a 5,001-digit ante), but a host
    sends them to every player: `frapnet host --resume` of such a record started and no client
    could decode its views. Now: exit 2, naming the option and the limit."""
    import subprocess

    from frapnet import record

    path = tmp_path / "big.json"
    path.write_text(record.dumps(engine.record(engine.new_match("frap", 4, {"ante": 4 * 10 ** 100}, (), registry))))
    p = subprocess.run([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
                        "--resume", "--record", str(path), "--db", str(tmp_path / "j.sqlite3")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"frapnet host: --resume: {path}: option 'ante': integer too large: 101 digits (limit 100); "
                        "a host sends it, and the amounts that grow from it, to every player\n")


# --- amounts growing past what the protocol carries (issue #9; frapnet.net.amounts) -----------------

def _worked_at(ante: int, cut: int = 0) -> dict:
    """S0's worked example (one deal: pot P = 4 antes; the frapper pays 2P, a whister P: the next
    pot is 3P) with ante ``ante``, its last ``cut`` actions left out."""
    import copy

    from frapnet.testing import shared_dir
    rec = copy.deepcopy(__import__("json").loads((shared_dir() / "cases" / "frap-s0-worked-example.json")
                                                  .read_text())["record"])
    rec["options"] = {**rec["options"], "ante": ante}
    if cut:
        del rec["deals"][0]["actions"][-cut:]
    return rec


def _resumed_table(rec: dict, tmp_path):
    """A host table resumed from ``rec``, its four seats taken by StringTransport clients that
    decode every frame they get (wire.decode refuses an integer of more than 1,000 digits)."""
    from test_net_host import seat_all
    table, factory, clock = make(options=dict(rec["options"]), record=str(tmp_path / "r.json"))
    table.resume(rec)
    return table, clock, seat_all(factory)


def _closing(conns):
    got = [[m for m in c.read() + c.log if m["type"] == "closing"] for c in conns]
    assert all(len(g) >= 1 for g in got)
    return got[0][0]


@pytest.mark.shared
def test_a_move_that_would_pass_1000_digits_ends_the_match_before_it_issue_9(tmp_path):
    """Issue #9 / F6: ante 10^999 (pot 4·10^999, 1,000 digits); the deal's last card settles it
    with remises making a pot of 12·10^999 — 1,001 digits, which no client could decode. The
    host does not apply that card: the match ends just before it, everyone gets ``closing``
    naming the limit, with the last result the protocol carries, not resumable; every frame
    sent decodes, and the record (that deal unfinished) replays to the same figures."""
    from frapnet import record
    from frapnet.net import amounts
    full = _worked_at(10 ** 999)
    last = full["deals"][0]["actions"][-1]  # [1, "play", "9S"]
    table, clock, conns = _resumed_table(_worked_at(10 ** 999, cut=1), tmp_path)
    before = table.state
    assert before.pot == 4 * 10 ** 999 - 3 * 10 ** 999 and digits(4 * 10 ** 999) == 1000  # three tricks paid
    conns[last[0]].act(last[1:])
    closing = _closing(conns)
    assert closing["reason"] == amounts.PAST == ("the next move would take the amounts past the 1,000 digits the "
                                                 "protocol carries: the match ends before it (F6)")
    assert closing["resumable"] is False and table.finished and table.state is before
    assert (closing["result"]["balances"], closing["result"]["pot"]) == (before.balances, before.pot)
    assert max(digits(b) for b in before.balances + [before.pot]) == 1000
    res = record.replay_json(record.load(str(tmp_path / "r.json")))
    assert res["ok"] and res["deals"][0]["outcome"] == "unfinished"
    assert (res["balances"], res["pot"]) == (before.balances, before.pot)
    assert record.replay_json(full)["pot"] == 12 * 10 ** 999  # F6: a record still holds it (replay reads it)


@pytest.mark.shared
@pytest.mark.parametrize("ante, ends", [(10 ** 990, True), (10 ** 987, False)], ids=["992-digit pot", "989-digit pot"])
def test_between_deals_amounts_past_990_digits_end_the_match_issue_9(tmp_path, ante, ends):
    """Issue #9 / F6: the worked deal played to its end at ante 10^990 leaves a pot of 12·10^990
    (992 digits): the next deal could carry it past 1,000, so the match ends there — ``closing``
    says why, not resumable, the record whole and replayable. At ante 10^987 (a 989-digit pot)
    the next deal is dealt as usual."""
    from frapnet import record
    from frapnet.net import amounts
    last = _worked_at(ante)["deals"][0]["actions"][-1]
    table, clock, conns = _resumed_table(_worked_at(ante, cut=1), tmp_path)
    conns[last[0]].act(last[1:])
    clock.advance(1)
    st = table.state
    assert st.deal_no == (1 if ends else 2) and table.finished is ends
    if not ends:
        return
    assert st.pot == 12 * ante  # the remises: 3P, P = 4 antes
    assert digits(st.pot) == 992 and amounts.NEAR_DIGITS == 990
    closing = _closing(conns)
    assert closing["reason"] == ("the amounts passed 990 digits, near the 1,000 digits the protocol carries: "
                                 "the match ends after this deal (F6)")
    assert closing["resumable"] is False and closing["result"]["pot"] == st.pot
    res = record.replay_json(record.load(str(tmp_path / "r.json")))
    assert res["ok"] and res["deals"][0]["outcome"] == "played" and res["balances"] == st.balances


@pytest.mark.shared
def test_no_frame_carries_an_integer_past_1000_digits_and_no_host_resumes_one_issue_9(tmp_path):
    """The encoder refuses what every decoder refuses (too_large, naming the limit), and `frapnet
    host --resume` of a record whose amounts passed 1,000 digits (the worked deal at ante 10^999:
    a pot of 1,001 digits; `frapnet replay` reads it, F6) exits 2 saying so."""
    import subprocess

    from frapnet import record
    assert wire.decode(wire.encode({"type": "x", "n": -BIG}))["n"] == -BIG
    with pytest.raises(wire.WireError) as exc:
        wire.encode({"type": "x", "n": BIGGER})
    assert (exc.value.code, exc.value.message) == ("too_large", "integer too large: 1001 digits (limit 1000)")
    path = tmp_path / "big.json"
    path.write_text(record.dumps(_worked_at(10 ** 999)))
    p = subprocess.run([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
                        "--resume", "--record", str(path), "--db", str(tmp_path / "j.sqlite3")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr == (f"frapnet host: --resume: {path}: its amounts have 1001 digits, more "
                                              "than the 1,000 the protocol carries; `frapnet replay` reads it, no "
                                              "host can send it\n")
