"""Reconnect at every phase of a deal (issue #3 "Reconnect"; design.md principle 5).

One subprocess (this file run as a script, so the reactor never meets pytest's) plays the same
seeded 4-seat match several times over real loopback sockets: a host (start_host) with three
computer players, seat 0 a computer player on a TableClient that reconnects with its token, and a
spectator that watches the seats' connection states. Runs:

- ``none``: no drop (the baseline result);
- ``bid`` (F10), ``whist`` (F11), ``buy`` (F15), ``cut`` (F17), ``play`` mid-trick (F19–F21):
  seat 0's connection is cut (abortConnection, as a network failure) the first time its view shows
  that phase; it reconnects with its token, gets the same seat and a full sync, and the match must
  end with exactly the baseline's balances and pot;
- ``takeover``: seat 0 vanishes for good at bidding; after the grace period (0.3 s) the host plays
  the seat (status "bot") and the match still ends.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEED = "11"
DEALS = 6
PHASES = ("bid", "whist", "buy", "cut", "play")


def _phase_matches(view: dict, phase: str) -> bool:
    if view.get("phase") != phase:
        return False
    return phase != "play" or len(view.get("trick") or ()) >= 1  # mid-trick


async def _run(reactor, mode: str) -> dict:
    from twisted.internet import defer

    from frapnet import engine
    from frapnet.bots.client import Bot
    from frapnet.net.client import TableClient
    from frapnet.hosting import HostConfig, TableConfig, start_host

    handle = start_host(reactor, HostConfig(TableConfig(
        players=4, level="basic", seed=SEED, deals=DEALS, pause=0.0, grace=0.3 if mode == "takeover" else 30.0,
        options={"cut_in": True}), bots=3))
    info = {"mode": mode, "dropped": False, "reconnected": False, "sync_ok": None, "seen": []}
    watcher = TableClient("127.0.0.1", handle.port, "Watcher", spectate=True, reconnect=False, reactor=reactor)

    def watch(view):
        state = view["connection"][0]
        if not info["seen"] or info["seen"][-1] != state:
            info["seen"].append(state)
    watcher.on_view = watch
    await watcher.connect()
    bot = Bot("127.0.0.1", handle.port, "Olga", level="basic", seed=SEED, seat=0, reactor=reactor)
    client = bot.client
    client.bot = False  # seat 0 shows as a human ("connected"), like a player's terminal
    bot_view = client.on_view
    token_before = []
    # seat 0's view as the host made it, by state version: the host's bots may act between the
    # host sending the reconnect's view and this client reading it (a busy machine), so the view is
    # compared with the host's own view of the version it carries, not with the host's latest
    host_views = {}
    fanout = handle.table.fanout
    fanout_view_for, view_frames = fanout.view_for, fanout._view_frames

    def view_for(seat, lang, *a, **kw):  # the slow path: a seat's whole view
        v = fanout_view_for(seat, lang, *a, **kw)
        if seat == 0:
            host_views[v["version"]] = copy.deepcopy(v)
        return v

    def frames(*args):  # the fan-out's fast path: record seat 0's whole view of the same state too
        view_for(0, "en")
        return view_frames(*args)
    fanout.view_for, fanout._view_frames = view_for, frames

    def on_view(view):
        bot_view(view)
        if info["dropped"] and info["reconnected"] and info["sync_ok"] is None:
            # the first view after the reconnect: a full sync, identical to the host's own view
            # of that version, and not older than the state the client dropped at
            info["sync_ok"] = view == host_views.get(view["version"]) and view["version"] >= info["drop_version"]
        if mode in PHASES and not info["dropped"] and _phase_matches(view, mode):
            info["dropped"] = True
            info["drop_version"] = view["version"]
            token_before.append(client.token)
            reactor.callLater(0, client.drop)
        if mode == "takeover" and not info["dropped"] and view.get("phase") == "bid":
            info["dropped"] = True
            reactor.callLater(0, client.close)
    client.on_view = on_view
    welcome_cb = client.on_welcome

    def on_welcome(w):
        if welcome_cb:
            welcome_cb(w)
        if info["dropped"]:
            info["reconnected"] = True
            info["same_seat"] = w["seat"] == 0 and w["token"] == token_before[0]
    client.on_welcome = on_welcome
    await bot.connect()
    info["waited"] = None
    if mode == "takeover":  # the only person is gone: after that deal the table waits (principle 5)
        while not handle.table.waiting and not handle.table.finished:
            d = defer.Deferred()
            reactor.callLater(0.02, d.callback, None)
            await d
        info["waited"] = handle.table.state.deal_no if handle.table.waiting else None
        handle.table.finish("test over")
    result = await handle.finished
    await handle.stop()
    d = defer.Deferred()
    reactor.callLater(0.05, d.callback, None)
    await d
    info["result"] = result
    info["deals"] = handle.table.state.deal_no
    info["takeover"] = handle.table.seats[0].takeover
    info["engine_ok"] = sum(result["balances"]) + result["pot"] == 0 and engine.match_report(
        handle.table.state)["balances"] == result["balances"]
    return info


def main(modes: list[str]) -> None:
    from twisted.internet import defer, task

    async def all_runs(reactor):
        out = []
        for mode in modes:
            out.append(await _run(reactor, mode))
        print(json.dumps(out))

    task.react(lambda reactor: defer.ensureDeferred(all_runs(reactor)))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict:
    """Every drop phase played out (7 s on a quiet machine). With ./run test's worker processes
    (pytest-xdist) the first worker to need it plays them and the others of the same run read its
    result (a file beside the workers' temp folders, under a lock) instead of playing them again.
    (xdist_group would do it, but pytest-xdist 3.8 cannot group with pytest 9.2.)"""
    def play() -> str:
        p = subprocess.run([sys.executable, __file__, "none", *PHASES, "takeover"], capture_output=True, text=True,
                           cwd=ROOT, timeout=120)
        assert p.returncode == 0, p.stderr[-4000:]
        return p.stdout.strip().splitlines()[-1]
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run_id:
        out = play()
    else:
        import fcntl
        shared = tmp_path_factory.getbasetemp().parent  # every worker's basetemp is beside the others
        with open(shared / f"net-reconnect-{run_id}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            cache = shared / f"net-reconnect-{run_id}.json"
            if cache.exists():
                out = cache.read_text()
            else:
                out = play()
                cache.write_text(out)
    return {r["mode"]: r for r in json.loads(out)}


def test_baseline_completes(runs):
    base = runs["none"]
    assert base["deals"] == DEALS and base["engine_ok"] and not base["dropped"]
    assert base["seen"] == ["empty", "connected"]


@pytest.mark.parametrize("phase", PHASES)
def test_drop_and_reconnect_same_result(runs, phase):
    """Drop at `phase`, reconnect with the token: same seat, full sync, the baseline's result."""
    r = runs[phase]
    assert r["dropped"], f"the seeded match never reached phase {phase}"
    assert r["reconnected"] and r["same_seat"] and r["sync_ok"]
    assert "reconnecting" in r["seen"] and r["seen"][-1] == "connected"  # the others saw it
    assert r["result"] == runs["none"]["result"] and r["deals"] == DEALS


def test_grace_over_host_plays_the_seat(runs):
    r = runs["takeover"]
    assert r["dropped"] and not r["reconnected"]
    assert r["seen"] == ["empty", "connected", "reconnecting", "bot"] and r["takeover"]
    # design.md principle 5: with no person left the table deals no more (it waits for one)
    assert r["waited"] == 1 and r["deals"] == 1 and r["engine_ok"]


# --- a host killed mid-match and restarted with --resume (design.md principle 5) --------------------

def _host_cmd(port: int, rec: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "frapnet", "host", "--port", str(port), "--bind", "127.0.0.1", "--no-announce",
            "--players", "4", "--bots", "2", "--deals", "4", "--seed", "5", "--pause", "0", "--record", str(rec),
            "--name", "Resume", "--db", str(rec.with_suffix(".sqlite3")), *extra]


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _journaled(db: Path) -> tuple[int, int]:
    """How many deals the journal ``db`` holds, and how many actions its newest deal has."""
    import sqlite3
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            deals = con.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
            last = con.execute("SELECT COUNT(*) FROM actions WHERE deal = ?", (deals - 1,)).fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0, 0
    return deals, last


def _match(tmp_path: Path, tag: str, kill_after_deals: int | None) -> tuple[dict, list[dict], Path, str]:
    import os
    import signal
    import time
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    port = _free_port()
    rec = tmp_path / f"{tag}.json"
    delay = ["--bot-delay", "0.01"] if kill_after_deals else []
    host = subprocess.Popen(_host_cmd(port, rec, *delay), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=env)
    assert host.stdout.readline().startswith("frapnet: hosting table Resume")
    bots = [subprocess.Popen([sys.executable, "-m", "frapnet", "bot", f"127.0.0.1:{port}", "--name", f"P{i}",
                              "--seed", "7", "--delay", "0.01" if kill_after_deals else "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
            for i in range(2)]
    log = ""
    if kill_after_deals:
        deadline = time.time() + 30
        while time.time() < deadline:  # the journal (issue #9) holds every accepted action: kill mid-deal
            deals, last = _journaled(rec.with_suffix(".sqlite3"))
            if deals >= kill_after_deals and last >= 5:
                break
            time.sleep(0.01)
        host.send_signal(signal.SIGKILL)  # no goodbye: as a crash or a power cut
        host.communicate()
        deals, last = _journaled(rec.with_suffix(".sqlite3"))
        log = f"killed after {deals} deals, {last} actions in the last"
        host = subprocess.Popen(_host_cmd(port, rec, "--resume", *delay), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    out, err = host.communicate(timeout=60)
    assert host.returncode == 0, err[-3000:]
    bot_results = []
    for b in bots:
        bout, berr = b.communicate(timeout=60)
        assert b.returncode == 0, berr[-2000:]
        bot_results.append(json.loads(bout.strip().splitlines()[-1]))
    return json.loads(out.strip().splitlines()[-1]), bot_results, rec, log + err


def test_host_killed_mid_deal_resumes_same_match(tmp_path):
    """Principle 5: every accepted action is journaled before it is sent; a host killed mid-deal
    and restarted with --resume replays its record, the players reconnect with their tokens to the
    same seats, and the match ends exactly as the same seeded match without the crash."""
    base, _, _, _ = _match(tmp_path, "base", None)
    result, bot_results, rec, log = _match(tmp_path, "crash", 2)
    assert "resuming the match" in log and "reconnected to seat" in log, log[-3000:]
    assert result == base and result["deals"] == 4
    assert all(r == result for r in bot_results)  # the players were there at the end
    res = json.loads(subprocess.run([sys.executable, "-m", "frapnet", "replay", "--json", str(rec)],
                                    capture_output=True, text=True, cwd=ROOT).stdout)
    assert res["ok"] and res["balances"] == result["balances"] and len(res["deals"]) == 4
    from frapnet.net.journal import Journal  # the seats' names and tokens are in the journal (issue #9)
    db = Journal(str(rec.with_suffix(".sqlite3")), create=False)
    seats = db.seats(db.matches()[-1]["id"])
    db.close()
    assert {s["name"] for s in seats[:2]} == {"P0", "P1"} and all(len(s["token"]) >= 24 for s in seats)


# --- TableClient units (MemoryReactorClock: no sockets) -------------------------------------------

def _client(**kw):
    from twisted.internet.testing import MemoryReactorClock

    from frapnet.net.client import TableClient
    reactor = MemoryReactorClock()
    c = TableClient("10.0.0.1", 7777, "Olga", reactor=reactor, **kw)
    got = {"status": [], "views": [], "errors": [], "closing": []}
    c.on_status = got["status"].append
    c.on_view = got["views"].append
    c.on_error = got["errors"].append
    c.on_closing = got["closing"].append
    return reactor, c, got


def _accept(reactor, index=-1):
    """Complete the client's latest connectTCP over a StringTransport; return (proto, transport)."""
    from twisted.internet.testing import StringTransportWithDisconnection
    host, port, factory, _timeout, _bind = reactor.tcpClients[index]
    proto = factory.buildProtocol(None)
    tr = StringTransportWithDisconnection()
    tr.protocol = proto
    proto.makeConnection(tr)
    return proto, tr


def _sent(tr):
    from frapnet.net import wire
    data, out, pos = tr.value(), [], 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        out.append(wire.decode(data[pos + 4:pos + 4 + n]))
        pos += 4 + n
    return out


def test_client_hello_act_and_token_reconnect():
    """client-contract.md: hello, welcome, act with the view's version, reconnect with the token."""
    from frapnet.net import wire
    reactor, c, got = _client(lang="ru", password="pw")
    d = c.connect()
    assert got["status"] == ["connecting"] and reactor.tcpClients[0][:2] == ("10.0.0.1", 7777)
    proto, tr = _accept(reactor)
    hello = _sent(tr)[0]
    assert hello == {"type": "hello", "protocol": "1.0", "name": "Olga", "lang": "ru", "spectate": False,
                     "password": "pw"}
    welcomes = []
    d.addCallback(welcomes.append)
    proto.dataReceived(wire.frame({"type": "welcome", "seat": 2, "token": "TOKEN-abc", "table": "T"}))
    proto.dataReceived(wire.frame({"type": "view", "view": {"version": 17, "seat": 2, "balances": [2 ** 80]}}))
    assert welcomes[0]["seat"] == 2 and c.seat == 2 and c.token == "TOKEN-abc"
    assert got["status"] == ["connecting", "connected"] and got["views"][0]["balances"] == [2 ** 80]
    tr.clear()
    c.act(["play", "10H"])
    assert _sent(tr) == [{"type": "act", "action": ["play", "10H"], "version": 17}]
    tr.loseConnection()  # the network drops
    assert got["status"][-1] == "reconnecting" and len(reactor.tcpClients) == 1
    reactor.advance(0.1)
    assert len(reactor.tcpClients) == 2
    proto2, tr2 = _accept(reactor)
    assert _sent(tr2)[0]["token"] == "TOKEN-abc"
    proto2.dataReceived(wire.frame({"type": "welcome", "seat": 2, "token": "TOKEN-abc"}))
    assert got["status"][-1] == "connected"
    proto2.dataReceived(wire.frame({"type": "closing", "reason": "match over", "result": {"pot": 0}}))
    assert got["closing"][0]["reason"] == "match over"
    tr2.loseConnection()
    reactor.advance(10)
    assert got["status"][-1] == "closed" and len(reactor.tcpClients) == 2  # no retry after closing


def test_client_backoff_grows_and_gives_up():
    reactor, c, got = _client(reconnect_for=3.0)
    c.connect()
    proto, tr = _accept(reactor)
    from frapnet.net import wire
    proto.dataReceived(wire.frame({"type": "welcome", "seat": 0, "token": "t"}))
    tr.loseConnection()
    from twisted.internet.error import ConnectionRefusedError
    from twisted.python.failure import Failure
    delays = []
    while got["status"][-1] != "closed" and len(delays) < 20:
        calls = reactor.getDelayedCalls()
        assert len(calls) == 1
        delays.append(round(calls[0].getTime() - reactor.seconds(), 3))
        reactor.advance(delays[-1])
        reactor.tcpClients[-1][2].clientConnectionFailed(None, Failure(ConnectionRefusedError()))
    assert delays == [0.1, 0.2, 0.4, 0.8, 1.6]  # then 3 s have passed: give up
    assert got["status"][-1] == "closed"


def test_client_refused_no_retry():
    from frapnet.net import wire
    from frapnet.net.client import JoinError
    reactor, c, got = _client()
    d = c.connect()
    proto, tr = _accept(reactor)
    failures = []
    d.addErrback(failures.append)
    proto.dataReceived(wire.frame({"type": "error", "code": "password", "message": "wrong password", "rule": None}))
    tr.loseConnection()
    reactor.advance(5)
    assert failures and failures[0].check(JoinError) and failures[0].value.code == "password"
    assert got["errors"][0]["code"] == "password" and got["status"][-1] == "closed"
    assert len(reactor.tcpClients) == 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])


def test_a_port_that_accepts_and_never_answers_fails_the_join_in_words():
    """A port that accepts the connection and never says anything (not a frapnet table): the join
    used to wait at "connecting…" for ever (found by a newcomer); now it fails ``WELCOME_TIMEOUT``
    (15) seconds after the hello with TimeoutError, said as "the host did not answer in time"
    (English and Russian). A reconnect that gets no welcome is dropped and tried again. A port that
    closes at once is said in words too, not as Twisted's "Connection was closed cleanly"."""
    from twisted.internet import error
    from twisted.python.failure import Failure

    from frapnet.net import client as clientmod
    from frapnet.net import wire
    from frapnet.tui import i18n
    from frapnet.tui.text import join_problem

    assert clientmod.WELCOME_TIMEOUT == 15.0
    reactor, c, got = _client()
    failures = []
    c.connect().addErrback(failures.append)
    proto, tr = _accept(reactor)
    assert _sent(tr)[0]["type"] == "hello"
    reactor.advance(14.9)
    assert failures == [] and got["status"] == ["connecting"]
    reactor.advance(0.2)
    assert len(failures) == 1 and failures[0].check(error.TimeoutError)
    assert got["status"][-1] == "closed" and len(reactor.tcpClients) == 1  # no retry of a first join
    assert join_problem(failures[0], str, "en") == "the host did not answer in time"
    assert join_problem(failures[0], i18n.translation("ru").gettext, "ru") == "хост не ответил вовремя"
    closed = Failure(error.ConnectionDone("Connection was closed cleanly."))
    assert join_problem(closed, str, "en") == \
        "the other side closed the connection without answering: is a frapnet table at that port?"
    assert "стол frapnet" in join_problem(closed, i18n.translation("ru").gettext, "ru")

    # seated, then the host comes back mute: that connection is dropped and the client dials again
    reactor, c, got = _client()
    c.connect()
    proto, tr = _accept(reactor)
    proto.dataReceived(wire.frame({"type": "welcome", "seat": 0, "token": "t"}))
    reactor.advance(20)
    assert got["status"] == ["connecting", "connected"]  # the welcome stopped the clock
    tr.loseConnection()
    reactor.advance(0.1)
    proto2, tr2 = _accept(reactor)
    reactor.advance(15.1)
    assert tr2.disconnecting or not tr2.connected
