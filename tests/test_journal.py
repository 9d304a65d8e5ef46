"""The SQLite journal (issue #9 item 2; docs/reliability.md): one appended row per accepted
action, committed before its effects are sent; no amount in an INTEGER column (F6: they pass
2^63); the state rebuilt by replaying; `--record FILE` exported at deal ends and at exit, never
per move; `frapnet export` and the record agree; temporaries never outlive a crash."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
from pathlib import Path

import pytest
from twisted.internet.task import Clock

from frapnet import engine, record, stats
from frapnet.net import journal as journalmod
from frapnet.net.config import TableConfig
from frapnet.net.journal import Journal, write_atomically
from frapnet.net.server import HostFactory
from frapnet.net.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_net_host import Conn, make, seat_all, to_act  # noqa: E402 - the StringTransport client of the host units


def journaled(tmp_path, players=4, **kw):
    """A table (:func:`test_net_host.make`) whose match is stored in a fresh journal
    (tmp_path/j.sqlite3): ``(table, factory, clock, journal)``."""
    db = Journal(str(tmp_path / "j.sqlite3"))
    table, factory, clock = make(players, **kw)
    table.journal = db.new_match("T", table.state, table.config.record)
    return table, factory, clock, db


def play_random(table, conns, clock, rng, moves, until=None):
    """Up to ``moves`` steps of random legal play (or the clock's 10 ms when nobody may act);
    stops once ``until()`` holds (default: the table finished). Returns whether it holds."""
    done = until or (lambda: table.finished)
    for _ in range(moves):
        if done():
            return True
        acting = to_act(conns)
        if not acting:
            clock.advance(0.01)
            continue
        c = acting[0]
        c.act(rng.choice(c.view["actions"])["action"])
    return done()


def test_wal_full_sync_and_one_committed_row_per_action_before_any_view(tmp_path):
    """Issue #9: WAL, synchronous=FULL; the action's row is on disk — seen by another
    connection — when the first view of its effects is sent."""
    table, factory, clock, db = journaled(tmp_path)
    assert db.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    conns = seat_all(factory)
    other = sqlite3.connect(str(tmp_path / "j.sqlite3"))
    seen = []
    c = to_act(conns)[0]
    real_send = c.proto.send_frames  # a change's events and view go out in one call (the fan-out's peer interface)

    def spy(frames):
        if any(kind == "view" for kind, _ in frames):  # the first view after the action: its row committed
            seen.append(other.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
        return real_send(frames)
    c.proto.send_frames = spy
    before = other.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    c.act(c.view["actions"][0]["action"])
    assert before == 0 and seen and seen[0] == 1
    rows = other.execute("SELECT version, deal, action FROM actions").fetchall()
    assert rows == [(table.state.version, 0, json.dumps(engine.record(table.state)["deals"][0]["actions"][0]))]


def test_amounts_pass_2_64_and_no_integer_column_holds_one_F6(tmp_path):
    """F6: an ante of 2^66 — balances pass 2^64; the journal holds them only as replayable
    actions and JSON text; every INTEGER value in it is small (seats, deals, versions, ids)."""
    table, factory, clock, db = journaled(tmp_path, options={"ante": 2 ** 66})
    conns = seat_all(factory)
    play_random(table, conns, clock, random.Random(5), 400)
    assert table.state.deal_no >= 2 and max(abs(b) for b in table.state.balances) > 2 ** 64
    for (name,) in db.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        for row in db.db.execute(f"SELECT * FROM {name}"):
            assert all(not isinstance(v, int) or abs(v) < 2 ** 40 for v in row), (name, row)
    rec = db.record(table.journal.id)
    st, _ = record.replay(rec)
    assert st.balances == table.state.balances and st.pot == table.state.pot and st.version == table.state.version


def test_replaying_the_journal_rebuilds_the_state_mid_deal_and_seats_wait_for_tokens(tmp_path):
    """A table resumed from the journal stands at its last accepted action; each seat has its
    name and token back and is `reconnecting` until that token comes (design.md principle 5)."""
    table, factory, clock, db = journaled(tmp_path, players=3)
    conns = seat_all(factory, 3)
    play_random(table, conns, clock, random.Random(2), 7)
    assert table.state.phase == engine.DEAL
    tokens = [c.welcome["token"] for c in conns]
    mid = table.journal.id
    again = Journal(str(tmp_path / "j.sqlite3"))
    t2 = Table(TableConfig(name="T", players=3, pause=0.0, nonce_time=0.0), clock=Clock(), rng=random.Random(1))
    t2.journal = again.open_match(mid)
    t2.resume(again.record(mid))
    assert t2.state == table.state
    assert [s.status for s in t2.seats] == ["reconnecting"] * 3 and [s.token for s in t2.seats] == tokens
    assert [s.name for s in t2.seats] == ["P0", "P1", "P2"]


def test_record_file_is_exported_at_deal_ends_and_exit_only(tmp_path, monkeypatch):
    """Issue #9: `--record FILE` is exported from the journal at every deal end and when the
    table ends — never per move."""
    path = tmp_path / "r.json"
    table, factory, clock, db = journaled(tmp_path, record=str(path))
    exports = []
    real = journalmod.write_atomically
    monkeypatch.setattr(journalmod, "write_atomically",
                        lambda p, t, **kw: (exports.append(table.state.phase), real(p, t, **kw)))
    conns = seat_all(factory)
    c = to_act(conns)[0]
    c.act(c.view["actions"][0]["action"])
    assert exports == [] and not path.exists()
    while table.state.deal_no == 1 and table.state.phase == engine.DEAL:
        play_random(table, conns, clock, random.Random(len(exports)), 1)
    assert exports == [engine.BETWEEN]
    exported, stored = record.load(str(path)), db.record(table.journal.id)
    assert exported == stored  # the file is the journal's match
    # issue #11: each deal's shuffle proof (with the host's seed) is stored with the deal and exported
    assert [d.pop("shuffle") for d in exported["deals"]] == table.dealing.proofs
    assert table.dealing.proofs[0]["scheme"] == "frapnet-shuffle/1" and len(table.dealing.proofs[0]["seed"]) == 64
    assert exported == engine.record(table.state)
    table.finish("host stopping")
    assert len(exports) == 2


def test_a_record_holding_a_deal_in_play_is_readable_by_its_owner_only(tmp_path):
    """Issue #9 (found by a newcomer): `--record FILE` written when the host stops in the middle
    of a deal holds that deal's deck and shuffle secrets — every hand of the deal the same
    command resumes — so it is mode 0600 then, like the journal; written at a deal's end (every
    deal in it revealed) it has the user's usual mode, to be shared and verified."""
    import os
    import stat
    old = os.umask(0o022)
    try:
        path = tmp_path / "r.json"
        table, factory, clock, db = journaled(tmp_path, record=str(path))
        conns = seat_all(factory)
        while table.state.deal_no == 1 and table.state.phase == engine.DEAL:
            play_random(table, conns, clock, random.Random(5), 1)
        assert stat.S_IMODE(path.stat().st_mode) == 0o644  # deal 1 over and revealed
        while table.state.phase != engine.DEAL or not table.state.history:
            clock.advance(0.01)
        table.finish("host stopping")  # deal 2 in play
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert record.load(str(path))["deals"][-1]["deck"]  # (what it protects: the deal's deck)
    finally:
        os.umask(old)


def test_a_finished_match_is_not_resumed_a_stopped_one_is(tmp_path):
    """`finish(over=True)` (the match ended) stores the result; the host stopping leaves the
    match unfinished — the same command resumes it."""
    table, factory, clock, db = journaled(tmp_path, players=2, deals=1)
    conns = seat_all(factory, 2)
    play_random(table, conns, clock, random.Random(3), 500)
    assert table.finished
    key = journalmod.resume_key("T", "frap", 2, dict(table.state.options), ())
    assert db.unfinished(key) == []
    m = db.matches()[-1]
    assert m["finished"] and m["reason"] == "match over" and m["result"] == table.result
    t2 = Table(TableConfig(name="T", players=2, pause=0.0, nonce_time=0.0), clock=Clock(), rng=random.Random(1))
    t2.journal = db.new_match("T", t2.state)
    t2.finish("host stopping")
    assert db.unfinished(key) == [t2.journal.id]


def test_temporaries_of_a_dead_process_are_removed_when_the_record_is_next_written(tmp_path):
    """A crash between writing FILE.tmpPID and renaming it leaves a temporary: the next write of
    that record removes it (its process is gone); a live process's temporary is kept."""
    path = str(tmp_path / "r.json")
    dead = f"{path}.tmp999999"
    Path(dead).write_text("half a record")
    live = f"{path}.tmp1"  # pid 1 is alive
    Path(live).write_text("another host's")
    write_atomically(path, "{}")
    assert Path(path).read_text() == "{}" and not Path(dead).exists() and Path(live).exists()
    assert sorted(os.listdir(tmp_path)) == ["r.json", "r.json.tmp1"]


def test_a_journal_that_is_not_one_is_refused_by_name(tmp_path):
    bad = tmp_path / "x.sqlite3"
    bad.write_text("not sqlite at all " * 100)
    with pytest.raises(journalmod.JournalError, match="not a frapnet journal"):
        Journal(str(bad))
    with pytest.raises(journalmod.JournalError, match="no journal there"):
        Journal(str(tmp_path / "missing.sqlite3"), create=False)


def test_the_journal_file_is_private(tmp_path):
    Journal(str(tmp_path / "j.sqlite3")).close()
    assert (tmp_path / "j.sqlite3").stat().st_mode & 0o077 == 0  # seat tokens are in it


# --- a rematch (frapnet.net.rematch) is a new match of the table's series ---------------------------

def until_offer(table, conns, clock, rng):
    if not play_random(table, conns, clock, rng, 5000, until=lambda: table.rematch is not None or table.finished):
        raise AssertionError("the match did not end")


def test_a_rematch_is_journaled_as_a_new_match_and_counted_as_one(tmp_path):
    """Issue #9 with issue #10 item 7: the match before a rematch is stored as over (reason
    "rematch", its result); the rematch is a new match of the same table, seats and tokens, number
    2 of the series, its record in RECORD.2.json; `frapnet stats` counts two matches."""
    path = tmp_path / "friday.json"
    table, factory, clock, db = journaled(tmp_path, deals=1, rematch=30.0, record=str(path))
    conns = seat_all(factory, rematch=True)  # clients that answer offers
    until_offer(table, conns, clock, random.Random(3))
    first, first_id = table.state.balances[:], table.journal.id
    for c in conns:
        c.send({"type": "rematch", "accept": True})
    assert table.match_no == 2 and table.journal.id == first_id + 1
    m1, m2 = db.matches()
    assert (m1["series"], m1["reason"], m1["result"]["balances"], m1["deals"]) == (1, "rematch", first, 1)
    assert m1["finished"] and not m2["finished"] and m2["series"] == 2 and m2["table"] == "T"
    assert m2["names"] == ["P0", "P1", "P2", "P3"]
    assert [s["token"] for s in db.seats(m2["id"])] == [c.welcome["token"] for c in conns]
    until_offer(table, conns, clock, random.Random(4))
    conns[0].send({"type": "rematch", "accept": False})
    assert table.finished
    m1, m2 = db.matches()
    assert m2["finished"] and m2["result"]["balances"] == table.state.balances and m2["deals"] == 1
    assert record.load(str(tmp_path / "friday.2.json")) == db.record(m2["id"])
    assert record.replay_json(db.record(m1["id"]))["balances"] == first
    got = stats.player_stats(db)
    assert got["matches"] == 2
    for seat, p in enumerate(got["players"]):
        g = p["games"]["frap"]
        assert (p["name"], p["matches"], p["deals"]) == (f"P{seat}", 2, 2)
        assert g["net"] == first[seat] + table.state.balances[seat]
    assert db.unfinished(journalmod.resume_key("T", "frap", 4, dict(table.state.options), ())) == []


def test_the_same_command_resumes_a_rematch_as_the_rematch(tmp_path):
    """A host killed during a rematch resumes it as match 2 of the series: the same state, its
    record still RECORD.2.json (frapnet.hosting) — even once that file exists (the rematch's own,
    exported at a deal end: issue #9, a rematch takes the next free name only when it begins)."""
    from frapnet import hosting
    path = tmp_path / "friday.json"
    table, factory, clock, db = journaled(tmp_path, deals=2, rematch=30.0, record=str(path))
    conns = seat_all(factory, rematch=True)  # clients that answer offers
    until_offer(table, conns, clock, random.Random(3))
    for c in conns:
        c.send({"type": "rematch", "accept": True})
    c = to_act(conns)[0]
    c.act(c.view["actions"][0]["action"])
    with db.db:  # as after kill -9: the process that played it is gone
        db.db.execute("UPDATE matches SET owner_pid = NULL")
    (tmp_path / "friday.2.json").write_text("{}")  # as if exported at a deal end of the rematch
    again = Table(table.config, clock=Clock(), rng=random.Random(1))
    config = hosting.HostConfig(table.config, db=str(tmp_path / "j.sqlite3"))
    db2, mid, summary = hosting._open_journal(config, again)
    try:
        assert (mid, again.match_no, summary) == (table.journal.id, 2, "in deal 1 after 1 action")
        assert again.state == table.state and again.journal.record_path == str(tmp_path / "friday.2.json")
    finally:
        db2.close()


# --- bad --db files: one clear line naming the file, exit 2, no traceback ------------------------------

def test_a_corrupt_foreign_or_locked_journal_is_one_line_naming_it(tmp_path):
    """Bad input (BRIEF): `frapnet host/play/stats/export --db FILE` with a file that is not
    SQLite, an SQLite database of another program, or a journal another process holds locked —
    exit 2 and one line on stderr naming FILE and what is wrong; nothing written into it."""
    import subprocess
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    foreign = tmp_path / "foreign.sqlite3"
    con = sqlite3.connect(str(foreign))
    con.execute("CREATE TABLE users (id INTEGER, email TEXT)")
    con.commit()
    con.close()
    locked = tmp_path / "locked.sqlite3"
    Journal(str(locked)).close()
    holder = sqlite3.connect(str(locked), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, and not letting go
    host = ["host", "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--bots", "4", "--deals", "1"]
    cases = [(host + ["--db", str(corrupt)], corrupt, "not a frapnet journal"),
             (["play", "--db", str(corrupt)], corrupt, "not a frapnet journal"),
             (["stats", "--db", str(corrupt)], corrupt, "not a frapnet journal"),
             (["export", "--db", str(corrupt)], corrupt, "not a frapnet journal"),
             (host + ["--db", str(foreign)], foreign, "an SQLite database of something else"),
             (["stats", "--db", str(foreign)], foreign, "an SQLite database of something else"),
             (host + ["--db", str(locked)], locked, "locked by another process"),
             (["export", "--db", str(tmp_path / "none.sqlite3")], tmp_path / "none.sqlite3", "no journal there")]
    procs = [subprocess.Popen([sys.executable, "-m", "frapnet", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True) for args, _, _ in cases]
    try:
        for p, (args, path, why) in zip(procs, cases):
            out, err = p.communicate(timeout=120)
            lines = err.splitlines()
            assert p.returncode == 2 and out == "", (args, p.returncode, out, err)
            assert len(lines) == 1 and lines[0].startswith(f"frapnet {args[0]}: --db: {path}: "), (args, err)
            assert why in lines[0] and "Traceback" not in err, (args, err)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    con = sqlite3.connect(str(foreign))
    assert [n for (n,) in con.execute("SELECT name FROM sqlite_master")] == ["users"]  # untouched
    con.close()
    assert not (tmp_path / "none.sqlite3").exists()


def test_after_a_restart_between_deals_the_next_shuffle_waits_for_every_seat(tmp_path):
    """Issue #9 with issue #11: a host restarted between deals does not shuffle the next deal with
    whoever happens to be back already — each seat left out of the nonces only because the host had
    just restarted (and a seeded match dealt otherwise than without the crash; bench/crash.py
    found it). The shuffle waits until every seat is back and asks them all; a seat that does not
    come back holds it no longer than its grace period."""
    from test_fair_deal import Peer

    def commits(peers):
        return [m["seats"] for m in peers[0].msgs if m["type"] == "shuffle_commit"]

    config = TableConfig(name="T", players=3, pause=0.0, nonce_time=1.0, grace=30.0)
    table = Table(config, clock=Clock(), rng=random.Random(1))
    db = Journal(str(tmp_path / "j.sqlite3"))
    table.journal = db.new_match("T", table.state)
    factory = HostFactory({"T": table}, table.clock, rate=10 ** 6)
    peers = [Peer(factory, f"P{i}") for i in range(3)]
    for _ in range(3):
        for p in peers:
            p.read()
    assert commits(peers) == [[0, 1, 2]] and table.state.deal_no == 1
    rng = random.Random(2)
    while table.state.phase == engine.DEAL:
        seat = table.state.to_act[0]
        table.apply_action(seat, engine.action_to_wire(rng.choice(engine.legal_actions(table.state, seat))),
                           table.state.version)
    tokens = [next(m for m in p.msgs if m["type"] == "welcome")["token"] for p in peers]
    for last_back in (True, False):  # the host is killed here, between deal 1 and deal 2; twice
        again = Table(config, clock=Clock(), rng=random.Random(1))
        again.journal = Journal(str(tmp_path / "j.sqlite3")).open_match(table.journal.id)
        again.resume(again.journal.journal.record(table.journal.id))
        f2 = HostFactory({"T": again}, again.clock, rate=10 ** 6)
        back = [Peer(f2, f"P{i}", token=tokens[i]) for i in range(2)]
        for _ in range(3):
            again.clock.advance(0.1)
            for p in back:
                p.read()
        assert commits(back) == [] and again.state.deal_no == 1  # seat 2 is not back yet
        if last_back:
            back.append(Peer(f2, "P2", token=tokens[2]))
        else:
            again.clock.advance(30)  # seat 2's grace is over: the host plays it
        for _ in range(3):
            again.clock.advance(0.1)
            for p in back:
                p.read()
        assert commits(back) == ([[0, 1, 2]] if last_back else [[0, 1]]) and again.state.deal_no == 2
        nonces = again.dealing.proofs[1]["nonces"]
        assert [n is not None for n in nonces] == [True, True, last_back]
        with db.db:  # as after another kill -9
            db.db.execute("DELETE FROM actions WHERE deal = 1")
            db.db.execute("DELETE FROM deals WHERE deal = 1")
            db.db.execute("UPDATE matches SET owner_pid = NULL")


@pytest.mark.parametrize("damage", ["not json", "[" * 100_000 + "]" * 100_000])
def test_a_damaged_row_in_the_journal_is_named_never_a_traceback_issue_9(tmp_path, damage):
    """Issue #9 hostile input (a bad record): one action row of a stored, unfinished match that is
    not JSON (or JSON nested 100,000 deep) made `frapnet export` and `frapnet stats` end in a
    traceback (JSONDecodeError, RecursionError), and the same `frapnet host` command crash at
    start. Now: export says which match cannot be read (exit 2); stats counts it as skipped;
    the host keeps it in the journal, logs why and starts a new match, which finishes."""
    import subprocess
    db = tmp_path / "j.sqlite3"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    host = [sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
            "--bots", "4", "--deals", "1", "--level", "random", "--pause", "0", "--seed", "3", "--db", str(db)]
    p = subprocess.run(host, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    con = sqlite3.connect(str(db))
    con.execute("UPDATE matches SET finished_at = NULL, owner_pid = NULL, result = NULL")  # as after a crash
    con.execute("UPDATE actions SET action = ? WHERE version = (SELECT MIN(version) FROM actions)", (damage,))
    con.commit()
    con.close()
    j = Journal(str(db))
    with pytest.raises(record.ReplayError, match=r"match 1: deal 1's action 1 in the journal is not valid JSON"):
        j.record(1)
    assert stats.player_stats(j)["skipped"] == [1]
    j.close()
    if damage != "not json":
        return  # the commands take the same path for either damage: run them once (the suite's time)
    p = subprocess.run([sys.executable, "-m", "frapnet", "export", "1", "--db", str(db)], capture_output=True,
                       text=True, env=env, timeout=60)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"frapnet export: {db}: match 1 cannot be exported: match 1: deal 1's "
                               "action 1 in the journal is not valid JSON")
    p = subprocess.run(host, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-3000:]
    assert json.loads(p.stdout.splitlines()[-1])["deals"] == 1
    assert "match 1 does not replay (match 1: deal 1's action 1 in the journal is not valid JSON" in p.stderr
    j = Journal(str(db))
    assert [(m["id"], m["finished"] is not None) for m in j.matches()] == [(1, True), (2, True)]
    j.close()


def test_a_damaged_shuffle_proof_in_the_journal_is_named_never_a_traceback(tmp_path):
    """docs/fairness.md: a host resuming a match checks its stored shuffle proofs; one whose seed
    was changed in the journal made the same `frapnet host` command crash at start (a ReplayError
    traceback, exit 1). Now it is a match that does not replay: kept, the reason logged with the
    deal, and a new match starts and finishes."""
    import subprocess
    db = tmp_path / "j.sqlite3"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    host = [sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
            "--bots", "4", "--deals", "1", "--level", "random", "--pause", "0", "--seed", "3", "--db", str(db)]
    assert subprocess.run(host, capture_output=True, text=True, env=env, timeout=120).returncode == 0
    con = sqlite3.connect(str(db))
    proof = json.loads(con.execute("SELECT shuffle FROM deals WHERE match = 1 AND deal = 0").fetchone()[0])
    proof["seed"] = ("1" if proof["seed"][0] != "1" else "2") + proof["seed"][1:]
    con.execute("UPDATE deals SET shuffle = ? WHERE match = 1 AND deal = 0", (json.dumps(proof),))
    con.execute("UPDATE matches SET finished_at = NULL, owner_pid = NULL, result = NULL")  # as after a crash
    con.commit()
    con.close()
    p = subprocess.run(host, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-3000:]
    assert json.loads(p.stdout.splitlines()[-1])["deals"] == 1
    assert "match 1 does not replay (its shuffle proof does not verify (frapnet verify): the commitment is not " \
           "SHA-256(seed ‖ salt): the seed or salt differs from the one committed (deal 1))" in p.stderr, p.stderr[-3000:]


HOSTILE_NAME = "\x1b[2J\x1b]0;pwned\x07Olga\x9b31m\u202eevil\nBot 9: 99 match(es)"
"""A seat name hand-edited (or planted) in a journal: clear the screen, set the terminal's title,
ring the bell, an 8-bit CSI, a bidi override, and a line break that fakes a line of output."""
HOSTILE_SHOWN = r"\x1b[2J\x1b]0;pwned\x07Olga\x9b31m\u202eevil\nBot 9: 99 match(es)"
"""The same as the host logs client text (frapnet.net.protocol.for_log)."""


def _hostile_journal(tmp_path):
    table, factory, clock, db = journaled(tmp_path, deals=1)
    assert play_random(table, seat_all(factory), clock, random.Random(5), 5000)
    db.close()
    con = sqlite3.connect(str(tmp_path / "j.sqlite3"))
    con.execute("UPDATE seats SET name = ? WHERE seat = 0", (HOSTILE_NAME,))
    con.execute("UPDATE matches SET table_name = ?, game = game, started_at = ?",
                ("T\x1b]0;x\x07\tfake", "2026-12-01\x1b[31m"))
    con.commit()
    con.close()
    return str(tmp_path / "j.sqlite3")


def _run(command, capsys, **args):
    from argparse import Namespace
    limit = sys.get_int_max_str_digits()  # `frapnet stats` lifts it for the whole process (F6)
    try:
        assert command.run(Namespace(**args)) == 0
    finally:
        sys.set_int_max_str_digits(limit)
    return capsys.readouterr().out


def test_stats_and_export_list_escape_names_read_from_the_journal_issue_9(tmp_path, capsys):
    """Issue #9 hostile input (a hand-edited journal): `frapnet stats` and `frapnet export --list`
    printed the names they read raw — ESC, BEL, C1 controls, bidi overrides and line breaks
    reached the terminal. Now they are escaped as the host logs client text; `--json` is valid
    JSON holding the real strings, every control and format character as a \\u escape."""
    from frapnet.commands import export as export_cmd, stats as stats_cmd
    db = _hostile_journal(tmp_path)
    out = _run(stats_cmd, capsys, db=db, json=False, plugins_dir=[])
    lines = out.splitlines()
    assert lines[:2] == ["1 match in the journal", f"{HOSTILE_SHOWN}: 1 match, 1 deal"]
    assert lines[2].startswith("  frap: 1 match, 1 deal, net ") and lines[3] == "P1: 1 match, 1 deal"
    assert len(lines) == 9 and not any(c in out for c in "\x1b\x07\x9b\u202e\t")
    assert "net \u2212" in out and "net -" not in out  # a loss signed as on every screen (−, not -)
    out = _run(stats_cmd, capsys, db=db, json=True, plugins_dir=[])
    assert not any(c in out for c in "\x1b\x07\x9b\u202e") and out.count("\n") == 1
    assert "\\u009b31m\\u202eevil\\nBot 9" in out  # escaped in the JSON text itself
    got = json.loads(out)
    assert sorted(p["name"] for p in got["players"]) == sorted([HOSTILE_NAME, "P1", "P2", "P3"])
    out = _run(export_cmd, capsys, db=db, list=True, match=None, output=None)
    assert out == (r"1	2026-12-01\x1b[31m	T\x1b]0;x\x07\tfake	frap	1 deal	finished	"
                   + HOSTILE_SHOWN + ", P1, P2, P3\n")


def test_hand_edited_seat_rows_and_owner_are_read_as_damage_never_a_traceback_issue_9(tmp_path):
    """Issue #9 hostile input (a hand-edited journal): an ``owner_pid`` that is text made the same
    `frapnet host` command end in a TypeError (os.kill); seat rows renumbered or deleted gave
    their names and tokens to the wrong seats on resume (a returning player's token opened another
    player's seat); a seat name stored as a BLOB made `frapnet stats` end in a TypeError. Now: a
    pid that is no process id is no live owner; each row goes to the seat it names (others are
    dropped, their seat free); a name that is not text is no name."""
    table, factory, clock, db = journaled(tmp_path, players=4)
    conns = seat_all(factory)
    play_random(table, conns, clock, random.Random(4), 40, until=lambda: table.state.deal_no >= 1)
    table.finish("host stopping")  # unfinished: the same command resumes it
    mid = table.journal.id
    want = [(s.name, s.token) for s in table.seats]
    assert [n for n, _ in want] == ["P0", "P1", "P2", "P3"] and all(t and len(t) >= 16 for _, t in want)
    key = journalmod.resume_key("T", "frap", 4, dict(table.state.options), ())
    with db.db:
        db.db.execute("UPDATE matches SET owner_pid = 'me'")
        db.db.execute("UPDATE seats SET seat = 99 WHERE seat = 0")  # seat 0's row names no seat of 4
        db.db.execute("DELETE FROM seats WHERE seat = 2")
        db.db.execute("UPDATE seats SET name = x'ff00' WHERE seat = 3")
    assert db.unfinished(key) == [mid]
    for pid in ("12", 3.5, -1, 2 ** 40, b"1"):
        assert journalmod.alive(pid) is False, pid
    assert journalmod.alive(os.getpid()) is True
    saved = db.open_match(mid).saved_seats(4)
    assert saved == [("", None, False, False), ("P1", want[1][1], False, False), ("", None, False, False),
                     ("", want[3][1], False, False)]
    assert [(s["seat"], s["name"]) for s in db.seats(mid)] == [(0, ""), (1, "P1"), (2, ""), (3, "")]
    assert db.matches()[-1]["names"] == ["", "P1", "", ""]
    got = stats.player_stats(db)
    assert [p["name"] for p in got["players"]] == ["P1"] and got["skipped"] == []


def test_a_journal_on_a_read_only_file_system_is_said_so(tmp_path):
    """Issue #9 attack: a valid journal on a read-only mount was called "not a frapnet journal
    (unable to open database file)". Now the one line says it cannot be written. The mount is
    made read-only in a private mount namespace (``unshare -m``; skipped where that is refused)."""
    import shutil
    import subprocess
    ro = tmp_path / "ro"
    ro.mkdir()
    Journal(str(ro / "j.sqlite3")).close()
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    script = (f"mount --bind {ro} {ro} && mount -o remount,bind,ro {ro} && "
              f"exec {sys.executable} -m frapnet host --port 0 --bind 127.0.0.1 --no-announce --bots 4 --deals 1 "
              f"--db {ro / 'j.sqlite3'}")
    p = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    if "mount" in p.stderr and p.returncode != 2 or "unshare:" in p.stderr:
        pytest.skip(f"no private read-only mount here: {p.stderr.strip()[:200]}")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert f"{ro / 'j.sqlite3'}: cannot be written — a read-only file, folder or file system" in p.stderr, p.stderr
    assert "not a frapnet journal" not in p.stderr


def _restart(tmp_path, table, grace=30.0):
    """The same command started again after ``table``'s host stopped: a new Table resumed from the
    journal (tmp_path/j.sqlite3) — ``(table, factory, clock)``."""
    clock = Clock()
    again = Table(TableConfig(name="T", players=len(table.seats), pause=0.0, nonce_time=0.0, grace=grace),
                  clock=clock, rng=random.Random(1))
    again.journal = Journal(str(tmp_path / "j.sqlite3")).open_match(table.journal.id)
    again.resume(again.journal.journal.record(table.journal.id))
    return again, HostFactory({"T": again}, clock, rate=10 ** 6), clock


def _stored_seats(db, table):
    return [(s["name"], s["taken_over"]) for s in db.seats(table.journal.id)]


def test_a_seat_whose_player_left_is_free_after_a_restart_a_dropped_one_waits_for_its_token(tmp_path):
    """The newcomer's report (docs/protocol.md `leave`; docs/hosting.md "Dropped connections"): a
    person who leaves mid-match hands the seat to the host, and anyone's hello takes it — the
    journal stored nothing of that, so after a restart the seat waited `reconnecting` for a token
    its client had dropped on leaving (every join `table_full`, until the grace ran out). Now the
    journal stores it (``taken_over``): after the restart P0's seat is free — a newcomer sits there,
    its old token takes it back too — while P1's seat (connection dropped) and P2's (connected when
    the host stopped) wait for their tokens for the grace period, as before."""
    table, factory, clock, db = journaled(tmp_path, players=3, grace=60.0)
    conns = seat_all(factory, 3)
    play_random(table, conns, clock, random.Random(4), 6)
    assert table.state.deal_no == 1 and table.state.phase == engine.DEAL
    tokens = [c.welcome["token"] for c in conns]
    conns[0].send({"type": "leave"})
    conns[1].tr.loseConnection()
    assert [s.status for s in table.seats] == ["bot", "reconnecting", "connected"]
    assert _stored_seats(db, table) == [("P0", True), ("P1", False), ("P2", False)]
    table.finish("host stopping")

    again, f2, clock2 = _restart(tmp_path, table)
    assert [(s.status, s.takeover) for s in again.seats] == [("bot", True), ("reconnecting", False),
                                                            ("reconnecting", False)]
    assert again.free_seats() == 1
    newcomer = Conn(f2)
    newcomer.hello("Nina")
    assert newcomer.welcome["seat"] == 0 and again.seats[0].name == "Nina" and not again.seats[0].takeover
    assert _stored_seats(db, again) == [("Nina", False), ("P1", False), ("P2", False)]
    late = Conn(f2)
    assert [(m["code"]) for m in late.hello("Vera") if m["type"] == "error"] == ["table_full"]
    back = [Conn(f2) for _ in range(2)]
    for c, tok, name in zip(back, tokens[1:], ("P1", "P2")):
        c.hello(name, token=tok)
    assert [c.welcome["seat"] for c in back] == [1, 2] and again.humans_connected() == 3

    # a second restart: P0's old token takes an open seat back, as before a restart
    newcomer.send({"type": "leave"})
    assert _stored_seats(db, again) == [("Nina", True), ("P1", False), ("P2", False)]
    again.finish("host stopping")
    third, f3, _ = _restart(tmp_path, again)
    p0 = Conn(f3)
    p0.hello("Nina", token=newcomer.welcome["token"])
    assert p0.welcome["seat"] == 0 and third.seats[0].status == "connected"
    assert _stored_seats(db, third) == [("Nina", False), ("P1", False), ("P2", False)]


def test_after_a_restart_every_person_gone_a_newcomer_sits_and_the_table_deals_on(tmp_path):
    """The newcomer's report between deals: every person left in deal 1; the host played the deal
    to its end and waited (design.md principle 5: no deal for people all away); restarted, it
    waits again — and a newcomer's hello now takes a seat and the table deals deal 2 (before the
    fix: `table_full`)."""
    table, factory, clock, db = journaled(tmp_path, players=3, grace=60.0)
    conns = seat_all(factory, 3)
    play_random(table, conns, clock, random.Random(5), 3)
    for c in conns:
        c.send({"type": "leave"})
    for _ in range(400):
        if table.waiting:
            break
        clock.advance(0.1)
    assert table.waiting and table.state.deal_no == 1 and table.state.phase != engine.DEAL
    table.finish("host stopping")
    again, f2, clock2 = _restart(tmp_path, table)
    clock2.advance(0.1)
    assert again.waiting and again.free_seats() == 3 and again.state.deal_no == 1
    c = Conn(f2)
    c.hello("Nina")
    clock2.advance(0.1)
    c.read()
    assert c.welcome["seat"] == 0 and again.state.deal_no == 2 and c.view["deal_no"] == 2


def test_after_a_restart_a_seat_not_back_within_its_grace_is_free_and_stored_so(tmp_path):
    """The grace period of a resumed seat runs out as a dropped player's does (docs/hosting.md):
    the host plays it (`seat_takeover`) and a newcomer may take it; the journal stores that, so a
    further restart frees it at once instead of waiting the grace period again."""
    table, factory, clock, db = journaled(tmp_path, players=3, grace=60.0)
    conns = seat_all(factory, 3)
    play_random(table, conns, clock, random.Random(6), 6)
    table.finish("host stopping")
    tokens = [c.welcome["token"] for c in conns]
    again, f2, clock2 = _restart(tmp_path, table)
    back = [Conn(f2) for _ in range(2)]
    for c, tok, name in zip(back, tokens, ("P0", "P1")):
        c.hello(name, token=tok)
    late = Conn(f2)
    assert [m["code"] for m in late.hello("Vera") if m["type"] == "error"] == ["table_full"]  # P2's seat waits
    clock2.advance(29.9)
    assert again.seats[2].status == "reconnecting"
    clock2.advance(0.2)  # its grace (30 s) is over: the host plays the seat, and it is free
    back[0].read()
    assert [(e["type"], e["seat"], e["text"]) for e in (m["event"] for m in back[0].log if m["type"] == "event")
            if e["type"].startswith("seat_")][-1] == \
        ("seat_takeover", 2, "P2 did not come back in time — a computer player takes the seat")
    assert (again.seats[2].status, again.seats[2].takeover) == ("bot", True)
    assert _stored_seats(db, again) == [("P0", False), ("P1", False), ("P2", True)]
    again.finish("host stopping")
    third, f3, _ = _restart(tmp_path, again)
    assert [(s.status, s.takeover) for s in third.seats] == [("reconnecting", False), ("reconnecting", False),
                                                            ("bot", True)]
    vera = Conn(f3)
    vera.hello("Vera")
    assert vera.welcome["seat"] == 2


def test_a_journal_written_before_taken_over_gets_the_column_and_older_rows_wait_for_tokens(tmp_path):
    """A schema-2 journal of an earlier frapnet (seats without ``taken_over``): opened, the column
    is added in place (the schema stays 2, so an older frapnet still opens the file — it neither
    reads nor names the column); its seats read as not taken over, so they wait for their tokens
    as they did."""
    table, factory, clock, db = journaled(tmp_path, players=3)
    conns = seat_all(factory, 3)
    play_random(table, conns, clock, random.Random(4), 6)
    table.finish("host stopping")
    with db.db:
        db.db.execute("ALTER TABLE seats DROP COLUMN taken_over")
    db.close()
    again = Journal(str(tmp_path / "j.sqlite3"))
    assert "taken_over" in {r[1] for r in again.db.execute("PRAGMA table_info(seats)")}
    assert again.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
    assert [s["taken_over"] for s in again.seats(table.journal.id)] == [False, False, False]
    t2, _, _ = _restart(tmp_path, table)
    assert [s.status for s in t2.seats] == ["reconnecting"] * 3


def test_stats_and_export_on_an_empty_file_say_no_journal_and_leave_it_empty(tmp_path, capsys):
    """`frapnet stats --db EMPTY` and `export --list --db EMPTY` read the journal read-only: the
    zero-byte file stays zero bytes (it was turned into a 45 KB journal and "0 matches" printed)."""
    from frapnet.cli import main

    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    for argv in (["stats", "--db", str(empty)], ["export", "--list", "--db", str(empty)]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == f"frapnet {argv[0]}: --db: {empty}: no journal there (a host creates it: frapnet host --db FILE)\n"
    assert empty.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["empty.sqlite3"]


def test_a_journal_read_by_stats_is_not_changed_even_one_an_older_frapnet_wrote(tmp_path):
    """Read-only (``create=False``): a journal of an older frapnet is upgraded in memory only."""
    table, factory, clock, db = journaled(tmp_path, players=3)
    play_random(table, seat_all(factory, 3), clock, random.Random(4), 6)
    table.finish("host stopping")
    with db.db:
        db.db.execute("ALTER TABLE seats DROP COLUMN taken_over")
    db.close()
    path = tmp_path / "j.sqlite3"
    before = path.read_bytes()
    ro = Journal(str(path), create=False)
    assert [s["taken_over"] for s in ro.seats(table.journal.id)] == [False, False, False]
    assert len(ro.matches()) == 1
    ro.close()
    assert path.read_bytes() == before


def test_an_empty_file_given_to_a_host_as_its_journal_is_made_private(tmp_path):
    """docs/hosting.md: the journal is 0600 (shuffle secrets, seat tokens) — an existing empty file too."""
    path = tmp_path / "given.sqlite3"
    path.write_bytes(b"")
    path.chmod(0o644)
    Journal(str(path)).close()
    assert path.stat().st_mode & 0o777 == 0o600 and path.stat().st_size > 0
