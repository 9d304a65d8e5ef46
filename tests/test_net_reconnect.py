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

import json
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
    from frapnet.net.host import start_host

    handle = start_host(reactor, players=4, bots=3, level="basic", seed=SEED, deals=DEALS, pause=0.0,
                        grace=0.3 if mode == "takeover" else 30.0, options={"cut_in": True})
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

    def on_view(view):
        bot_view(view)
        if info["dropped"] and info["reconnected"] and info["sync_ok"] is None:
            # the first view after the reconnect: a full sync, identical to the host's own view
            host_view = handle.table.view_for(0, "en")
            info["sync_ok"] = view == host_view and view["version"] == handle.table.state.version
        if mode in PHASES and not info["dropped"] and _phase_matches(view, mode):
            info["dropped"] = True
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
def runs() -> dict:
    p = subprocess.run([sys.executable, __file__, "none", *PHASES, "takeover"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr[-4000:]
    return {r["mode"]: r for r in json.loads(p.stdout.strip().splitlines()[-1])}


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
    assert r["deals"] == DEALS and r["engine_ok"]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])
