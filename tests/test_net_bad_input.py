"""Bad input found by attacking a real `frapnet host` (issue #3 "Bad input"), each fixed and
pinned here: connection-slot exhaustion by watchers or silent connections (code ``busy``), a
strict protocol version (``version``), timing-safe secrets (``password``/``bad_token``), the
`frapnet host` arguments that are not game rules (exit 2 naming the argument; rule F1 for
``--players 1``), and hostile record files for `frapnet replay` / `--resume` (rule ``record``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from twisted.internet.address import IPv4Address

from frapnet import record
from frapnet.commands import host as host_cmd
from frapnet.commands._options import parse_options
from frapnet.net.seats import same_secret
from frapnet.net.protocol import PROTOCOL_VERSION, version_compatible

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_net_host import Conn, make  # noqa: E402 - the StringTransport client of the host units
FRAPNET = [sys.executable, "-m", "frapnet"]


class ConnFrom(Conn):
    """A Conn from another address (``host``)."""

    def __init__(self, factory, host):
        Conn._n += 1
        addr = IPv4Address("TCP", host, Conn._n)
        self.proto = factory.buildProtocol(addr)
        from twisted.internet.testing import StringTransportWithDisconnection
        self.tr = StringTransportWithDisconnection(peerAddress=addr)
        self.tr.protocol = self.proto
        self.proto.makeConnection(self.tr)
        self.pos, self.log, self.view, self.welcome = 0, [], None, None


def test_spectators_are_capped_busy_and_a_player_still_joins():
    """Watchers cannot fill the host: the 33rd spectator gets ``busy`` (closed); a player then
    still takes a seat, and the table is unchanged by the refusal."""
    table, factory, clock = make(players=2)
    watchers = []
    for i in range(32):
        w = Conn(factory)
        assert w.hello(f"W{i}", spectate=True)[0]["type"] == "welcome"
        watchers.append(w)
    extra = Conn(factory)
    err = extra.hello("W32", spectate=True)[0]
    assert err["code"] == "busy" and "32 spectators" in err["message"] and not extra.open
    assert len(table.spectators) == 32
    p = Conn(factory)
    assert p.hello("Olga")[0]["seat"] == 0 and table.seats[0].name == "Olga"


def test_silent_connections_from_one_address_are_capped_busy_others_join():
    """16 connections from one address that never send hello: the 17th gets ``busy``; a
    player from another address joins; after the hellos time out the address may connect again."""
    table, factory, clock = make(players=2)
    silent = [ConnFrom(factory, "10.0.0.9") for _ in range(16)]
    refused = ConnFrom(factory, "10.0.0.9")
    assert refused.errors()[0]["code"] == "busy" and not refused.open
    assert all(c.open for c in silent)
    other = ConnFrom(factory, "10.0.0.7")
    assert other.hello("Olga")[0]["seat"] == 0
    # a joined connection no longer counts as pending
    joined = silent[0]
    assert joined.hello("Ivan")[0]["seat"] == 1
    assert ConnFrom(factory, "10.0.0.9").open
    clock.advance(10.5)  # handshake timeout closes the silent ones
    assert not any(c.open for c in silent[1:])
    assert all(ConnFrom(factory, "10.0.0.9").open for _ in range(10))


@pytest.mark.parametrize("version, ok", [
    ("1.0", True), ("1.12", True), ("2.0", False), ("1.0\x00", False), ("1", False), ("1.0.1", False),
    ("\uff11.0", False), ("1.0 ", False), ("", False),
])
def test_protocol_version_is_exactly_major_minor(version, ok):
    """hello.protocol is ``MAJOR.MINOR`` in ASCII digits; anything else gets ``version``."""
    assert version_compatible(version) is ok
    _, factory, _ = make()
    c = Conn(factory)
    c.send({"type": "hello", "protocol": version, "name": "Olga"})
    first = c.read()[0]
    assert (first["type"] == "welcome") if ok else (first["code"] == "version" and not c.open)


def test_secret_compare_hashes_first_any_length_or_script():
    """Passwords and tokens compare as SHA-256 digests (``compare_digest``): equal only when
    equal, whatever the lengths; non-ASCII passwords work."""
    assert same_secret("пароль", "пароль") and not same_secret("пароль", "парол")
    assert not same_secret("", "x") and not same_secret("x" * 128, "x") and same_secret("", "")
    table, factory, _ = make(password="пароль")
    assert Conn(factory).hello("A", password="пароль" + "x" * 100)[0]["code"] == "password"
    assert Conn(factory).hello("B", password="пароль")[0]["type"] == "welcome"


def _host_args(*argv):
    p = argparse.ArgumentParser()
    host_cmd.add_arguments(p)
    return p.parse_args(list(argv))


@pytest.mark.parametrize("argv, needle", [
    (["--port", "70000"], "--port must be 0…65535"),
    (["--port", "-1"], "--port must be 0…65535"),
    (["--deals", "0"], "--deals must be at least 1"),
    (["--deals", "-3"], "--deals must be at least 1"),
    (["--grace", "-1"], "--grace must be a finite number of seconds ≥ 0"),
    (["--grace", "nan"], "--grace must be a finite number"),
    (["--pause", "inf"], "--pause must be a finite number"),
    (["--bot-delay", "-0.5"], "--bot-delay must be"),
    (["--name", "a\x1b[2Jb"], "control characters"),
    (["--name", "ж" * 32], "1…63 bytes"),
    (["--name", " "], "1…63 bytes"),
    (["--name", "\u3164"], "1…63 bytes of UTF-8, with a printable character"),  # prints as nothing
    (["--name", "Friday\u2028night"], "line breaks are not allowed"),
    (["--name", " Friday"], "no space at either end"),
    (["--name", "Friday\u3164"], "no space at either end"),
    (["--record", "/"], "is a directory"),
    (["--record", "/nonexistent-dir/r.json"], "no folder"),
])
def test_host_arguments_checked_before_listening(argv, needle):
    """Each bad `frapnet host` argument is named (exit 2 in run())."""
    assert needle in (host_cmd.check_arguments(_host_args(*argv)) or "")


@pytest.mark.parametrize("argv, needle", [
    (["--game", "frap"], "holds a napoleon match, not frap (--game)"),
    (["--players", "5"], "holds a match of 4 players, not 5 (--players)"),
    (["--option", "trumps=false"], "holds a match with no option trumps, not trumps=false (--option)"),
    (["--house-rule", "misere"], "holds a match with no house rules, not misere (--house-rule)"),
])
def test_resume_refuses_a_command_line_that_asks_for_another_table(tmp_path, capsys, argv, needle):
    """`frapnet host --resume --record FILE` continues the record's match; a --game, --players,
    --house-rule or --option typed on the command line that differs from it is named (exit 2,
    before listening) instead of being dropped without a word (the host used to play Napoleon
    when told --game frap)."""
    rec = tmp_path / "napoleon.json"
    rec.write_text(json.dumps({"format": "frapnet-record/1", "game": "napoleon", "players": 4, "options": {},
                               "house_rules": [], "deals": []}))
    args = _host_args(*argv, "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--db",
                      str(tmp_path / "j.sqlite3"), "--record", str(rec), "--resume")
    assert host_cmd.run(args) == 2
    err = capsys.readouterr().err
    assert needle in err and "leave that option out" in err


def test_host_arguments_ok(tmp_path):
    assert host_cmd.check_arguments(_host_args("--port", "0", "--deals", "1", "--grace", "0", "--name",
                                               "Стол Ивана", "--record", str(tmp_path / "r.json"))) is None
    assert os.listdir(tmp_path) == []  # the write probe leaves nothing behind


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_host_record_in_unwritable_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o500)
    assert "cannot write into" in host_cmd.check_arguments(_host_args("--record", str(ro / "r.json")))


@pytest.mark.parametrize("argv, needle", [
    (["--deals", "0"], "--deals must be at least 1"),
    (["--players", "1"], "rule F1"),
    (["--port", "99999"], "--port must be 0…65535"),
    (["--record", "/proc/no/such.json"], "--record"),
    # issue #9 hostile input: a house rule named twice was taken (listed twice to every player,
    # and 10,000 copies from a config file kept the host from ever dealing)
    (["--house-rule", "pam", "--house-rule", "pam"], "house rule 'pam' is named twice"),
    # a 100,000-character option value was quoted whole: a 100 KB error line
    (["--option", "deck=" + "x" * 100_000], "rule F2: option 'deck' = '" + "x" * 59 + "…(100002 characters) is not"),
])
def test_host_cli_bad_arguments_exit_2(argv, needle):
    """A real `frapnet host` process: exit 2, the argument (or rule F1) named, nothing on stdout."""
    p = subprocess.run(FRAPNET + ["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce", *argv],
                       capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert p.returncode == 2 and needle in p.stderr and p.stdout == "", p.stderr[-2000:]


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"a":' * 5000 + "1" + "}" * 5000, "nested too deeply"),
    ('{"format": "frapnet-record/1", "players": ' + "9" * 200_000 + "}", "an integer of 200000 digits"),
])
def test_hostile_record_json_is_a_record_error_quickly(text, message):
    """rule ``record``: deeply nested JSON (was a RecursionError traceback) and integer literals
    so long that parsing them takes seconds (a million digits: 16 s) are refused at once."""
    t = time.perf_counter()
    with pytest.raises(record.ReplayError) as exc:
        record.loads(text)
    assert exc.value.rule == "record" and message in exc.value.message
    assert time.perf_counter() - t < 5  # generous: the point is "not minutes"


def test_a_record_naming_a_house_rule_twice_is_refused_naming_it_issue_9():
    """Issue #9 hostile input (a bad record): ``house_rules: ["pam", "pam"]`` was replayed, the
    rule listed twice."""
    rec = {"format": "frapnet-record/1", "game": "frap", "players": 4, "options": {}, "house_rules": ["pam", "pam"],
           "deals": []}
    with pytest.raises(record.ReplayError) as exc:
        record.replay(rec)
    assert exc.value.rule == "record" and exc.value.message == "house rule 'pam' is named twice"


def test_replay_cli_deeply_nested_exit_2(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    p = subprocess.run(FRAPNET + ["replay", str(f), "--json"], capture_output=True, text=True, cwd=ROOT,
                       timeout=30)
    assert p.returncode == 2 and '"rule": "record"' in p.stdout and "Traceback" not in p.stderr, p.stderr[-2000:]


def test_seat_kept_for_host_bots_cannot_be_taken_by_a_stranger():
    """`--bots K` keeps the last K seats: a hello naming one gets ``seat_taken`` (it used to
    take it, and the host's computer player then failed to join); a hello without ``seat``
    skips it; only its token (given to the host's own computer player) takes it, and it keeps
    that token if the player leaves before the match."""
    table, factory, clock = make(players=3, reserved=[1, 2])
    thief = Conn(factory)
    err = thief.hello("Mallory", seat=2)[0]
    assert err["code"] == "seat_taken" and "computer player" in err["message"] and not thief.open
    assert Conn(factory).hello("Forger", token="A" * 24)[0]["code"] == "bad_token"
    human = Conn(factory)
    assert human.hello("Olga")[0]["seat"] == 0
    late = Conn(factory)
    assert late.hello("Ivan")[0]["code"] == "table_full"
    token = table.reserved_token(2)
    bot = Conn(factory)
    w = bot.hello("Bot 3", token=token, bot=True)[0]
    assert w["seat"] == 2 and w["token"] == token and table.seats[2].status == "bot"
    bot.send({"type": "leave"})
    assert table.seats[2].status == "empty" and table.seats[2].token == token
    again = Conn(factory)
    assert again.hello("Bot 3", token=token, bot=True)[0]["seat"] == 2
    with pytest.raises(ValueError):
        table.reserved_token(0)


def test_host_bots_take_their_kept_seats_by_token():
    """start_host gives each of its computer players its seat's token (a real host on loopback)."""
    code = (
        "from twisted.internet import task, defer\n"
        "from frapnet.hosting import HostConfig, TableConfig, start_host\n"
        "async def main(r):\n"
        "    h = start_host(r, HostConfig(TableConfig(players=3, seed='1', deals=1, pause=0.0, level='random'), bots=3))\n"
        "    res = await h.finished\n"
        "    await h.stop()\n"
        "    print(res['deals'], [s.token == h.table.reserved_token(s.index) for s in h.table.seats])\n"
        "task.react(lambda r: defer.ensureDeferred(main(r)))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.split("\n")[0] == "1 [True, True, True]"


def test_password_guessing_locked_out_for_a_minute():
    """Each wrong password closes the connection (``password``); after 5 in a minute the
    address gets ``password`` even for the right one, for that minute; other addresses join."""
    table, factory, clock = make(password="s3cret")
    for i in range(5):
        c = ConnFrom(factory, "10.0.0.66")
        assert c.hello("G", password=f"guess{i}")[0]["code"] == "password" and not c.open
    locked = ConnFrom(factory, "10.0.0.66")
    err = locked.hello("G", password="s3cret")[0]
    assert err["code"] == "password" and "try again in a minute" in err["message"] and table.seats[0].status == "empty"
    assert ConnFrom(factory, "10.0.0.5").hello("Olga", password="s3cret")[0]["seat"] == 0
    clock.advance(61)
    assert ConnFrom(factory, "10.0.0.66").hello("G", password="s3cret")[0]["seat"] == 1


def test_option_nested_too_deeply_is_a_clear_error():
    """`frapnet host --option ante=[[[…]]]` (50 000 deep) was a RecursionError traceback."""
    with pytest.raises(ValueError, match="--option ante: the value is nested too deeply"):
        parse_options(["ante=" + "[" * 50_000 + "]" * 50_000])
    assert parse_options(["ante=200", "revoke=penalize"]) == {"ante": 200, "revoke": "penalize"}


def _journaled_match(tmp_path):
    """A journal holding a 3-seat match one deal in; returns (journal, match id)."""
    import random as _random
    from twisted.internet.task import Clock
    from frapnet import engine
    from frapnet.net.config import TableConfig
    from frapnet.net.journal import Journal
    from frapnet.net.table import Table
    db = Journal(str(tmp_path / "j.sqlite3"))
    t = Table(TableConfig(name="T", players=3, nonce_time=0.0), clock=Clock(), rng=_random.Random(1))
    t.journal = db.new_match("T", t.state)
    t.state, _ = engine.start_deal(t.state, engine.pack(t.state), 0)
    t.journal.deal_started(t.state)
    return db, t.journal.id


def _resume(db, mid):
    import random as _random
    from twisted.internet.task import Clock
    from frapnet.net.config import TableConfig
    from frapnet.net.table import Table
    t = Table(TableConfig(name="T", players=3, nonce_time=0.0), clock=Clock(), rng=_random.Random(1))
    t.journal = db.open_match(mid)
    t.resume(db.record(mid))
    return t


@pytest.mark.parametrize("name, token", [
    (5, "short"), ("A", 5), ("B", "short"), ("C", "x" * 129), (None, None), (b"bytes", b"t" * 24),
])
def test_resume_with_unusable_saved_seats_leaves_them_empty(tmp_path, name, token):
    """`frapnet host` resuming from its journal (issue #9): a seat row edited into something
    unusable — a token that is not a 16…128-character string — leaves that seat empty (its
    player joins anew); the match itself resumes (the deals and actions are the truth)."""
    db, mid = _journaled_match(tmp_path)
    db.db.execute("INSERT INTO seats (match, seat, name, token, bot) VALUES (?, 0, ?, ?, 0)",
                  (mid, name if name is not None else "", token))
    t = _resume(db, mid)
    assert t.state.deal_no == 1 and [s.status for s in t.seats] == ["empty"] * 3


def test_resume_cleans_saved_names_and_keeps_good_tokens(tmp_path):
    """Saved names are cleaned like a hello's (no control characters, at most 32 characters); a
    ``taken_over`` that is not 1 (an edited 7 or text) is not taken over: the seat waits for its token."""
    db, mid = _journaled_match(tmp_path)
    good = "t" * 24
    db.db.executemany("INSERT INTO seats (match, seat, name, token, bot, taken_over) VALUES (?, ?, ?, ?, ?, ?)", [
        (mid, 0, "\x1b[2JEve\u202e" + "x" * 100, good, 7, 7), (mid, 1, "", good + "2", 0, "yes"),
        (mid, 2, "NoToken", None, 0, 1)])
    t = _resume(db, mid)
    assert t.seats[0].name == "[2JEve" + "x" * 26 and t.seats[0].token == good and t.seats[0].is_bot is False
    assert t.seats[0].status == "reconnecting" and not t.seats[0].takeover
    assert t.seats[1].name == "" and t.seats[1].status == "reconnecting" and t.seats[2].status == "empty"


def test_a_view_that_cannot_be_encoded_falls_back_the_table_goes_on(monkeypatch):
    """A game plugin whose view holds a value with no msgpack form (here an object) used to
    raise out of the fan-out after the action was applied, so no seat heard of the change;
    now that seat gets the generic view (no cards), the others their full views."""
    from frapnet import engine
    table, factory, clock = make(players=2)
    a, b = Conn(factory), Conn(factory)
    a.hello("A"), b.hello("B")
    real = engine.view

    def buggy(state, seat, lang="en"):
        v = real(state, seat, lang)
        if seat == 1:
            v["oops"] = object()
        return v
    real_part = engine.seat_part

    def buggy_part(state, seat, public, lang="en"):  # the fan-out's way to the same view (issue #9)
        own = real_part(state, seat, public, lang)
        if seat == 1:
            own["hand"] = object()
        return own
    real_parts = engine.seat_parts

    def buggy_parts(state, seats, public, lang="en", legal=None):  # every seat's at once (the host's call)
        seats = list(seats)
        return [dict(own, hand=object()) if s == 1 else own
                for s, own in zip(seats, real_parts(state, seats, public, lang, legal))]
    monkeypatch.setattr(engine, "view", buggy)
    monkeypatch.setattr(engine, "seat_part", buggy_part)
    monkeypatch.setattr(engine, "seat_parts", buggy_parts)
    st = table.state
    seat = st.to_act[0]
    (a if seat == 0 else b).act(engine.action_to_wire(engine.legal_actions(st, seat)[0]), st.version)
    a.read(), b.read()
    assert table.state.version == st.version + 1
    assert a.view["version"] == b.view["version"] == table.state.version
    assert "hand" in a.view and "hand" not in b.view and b.view["actions"] == [] and b.view["names"] == ["A", "B"]


def test_an_event_that_cannot_be_encoded_is_sent_as_its_words(monkeypatch):
    """Likewise for a plugin's event with an unencodable field: its type and text are sent."""
    from frapnet import engine
    table, factory, clock = make(players=2)
    a, b = Conn(factory), Conn(factory)
    a.hello("A"), b.hello("B")
    real = engine.apply

    def buggy(state, seat, action):
        new, events = real(state, seat, action)
        return new, [dict(events[0], oops=object())] + list(events[1:])
    monkeypatch.setattr(engine, "apply", buggy)
    st = table.state
    seat = st.to_act[0]
    (a if seat == 0 else b).act(engine.action_to_wire(engine.legal_actions(st, seat)[0]), st.version)
    evs = [m["event"] for m in b.read() if m["type"] == "event"]
    assert evs and set(evs[0]) == {"type", "text"} and evs[0]["text"]
    assert b.view["version"] == table.state.version == st.version + 1
