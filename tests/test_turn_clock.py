"""The turn clock (issue #9 part 4): a connected seat that does not act within ``turn_time``
seconds gets exactly one move made for it by the computer player handed to the table; the seat
stays its player's; every view carries the seconds each seat to act has left (``deadlines``).
Time is a ``twisted.internet.task.Clock`` (MemoryReactorClock's clock part)."""
from __future__ import annotations

import sys
from pathlib import Path

from frapnet import engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_net_host import Conn, make  # noqa: E402 - the StringTransport client of the host units


def _table(turn_time=30.0, chooser=None):
    table, clock, conns, moves, _factory = _table_and_factory(turn_time, chooser)
    return table, clock, conns, moves


def _table_and_factory(turn_time=30.0, chooser=None):
    moves = []

    def choose(view, level, rng):  # the computer player handed in: the first legal action, noted
        moves.append((view["seat"], view["version"]))
        return view["actions"][0]["action"]
    table, factory, clock = make(players=2, turn_time=turn_time, choose=chooser or choose)
    a, b = Conn(factory), Conn(factory)
    a.hello("Olga"), b.hello("Ivan")
    conns = {0: a, 1: b}
    for c in conns.values():
        c.read()
    return table, clock, conns, moves, factory


def test_the_clock_plays_exactly_one_move_for_an_idle_seat_and_gives_it_back():
    table, clock, conns, moves = _table(30.0)
    st = table.state
    seat = st.to_act[0]
    idle = conns[seat]
    assert idle.view["deadlines"][seat] == 30.0 and idle.welcome["turn_time"] == 30.0
    assert [d for i, d in enumerate(idle.view["deadlines"]) if i != seat] == [None]
    clock.advance(29.9)
    assert table.state is st and moves == []
    clock.advance(0.2)
    # one decision for it: the bidder had not looked, and looking is no decision (F9) — the
    # computer player looks for it, then makes the one move (here the first legal action)
    assert engine.legal_actions(st, seat)[0] == ("look",) and not st.deal.looked[seat]
    assert moves == [(seat, st.version), (seat, st.version + 1)] and table.state.version == st.version + 2
    assert table.actions_applied == 2 and table.state.deal.looked[seat] and seat not in table.state.to_act
    s = table.seats[seat]
    assert s.status == "connected" and s.peer is idle.proto and not s.takeover  # still the player's
    msgs = idle.read()
    ev = [m["event"] for m in msgs if m["type"] == "event" and m["event"]["type"] == "seat_timeout"]
    assert ev == [{"type": "seat_timeout", "seat": seat, "name": s.name, "seconds": 30.0,
                   "text": f"{s.name}'s turn clock ran out (30 s) — a computer player makes this move"}]
    # the seat acts for itself again: whoever is to act now has a fresh 30 s, and acting stops it
    st2 = table.state
    nxt = st2.to_act[0]
    conns[nxt].read()
    assert nxt != seat and conns[nxt].view["deadlines"][nxt] == 30.0
    clock.advance(10)
    conns[nxt].act(engine.action_to_wire(engine.legal_actions(st2, nxt)[0]), st2.version)
    assert conns[nxt].errors() == [] and table.state.version == st2.version + 1
    assert len(moves) == 2  # nothing more was played for anyone


def test_another_seat_looking_does_not_restart_the_clock_F9():
    """F9/F10: a seat looking at its cards changes the state's version but not the bidder's
    choices, so the bidder's clock keeps running from when its turn came."""
    table, clock, conns, moves = _table(30.0)
    st = table.state
    bidder = st.to_act[0]
    other = 1 - bidder
    clock.advance(20)
    conns[other].act(["look"], st.version)
    assert conns[other].errors() == [] and table.state.version == st.version + 1
    assert conns[bidder].read() and conns[bidder].view["deadlines"][bidder] == 10.0
    clock.advance(10.1)
    assert [m[0] for m in moves] == [bidder, bidder]  # it looks, then decides (F9): one decision


def test_the_seats_own_look_does_not_restart_its_clock_F9():
    """Looking is no decision (F9): a bidder who looks with 10 s left still has 10 s, not a fresh
    30 s (a look a second before the end must not buy another clock), and the clock's move
    comes at the old end."""
    table, clock, conns, moves = _table(30.0)
    st = table.state
    bidder = st.to_act[0]
    clock.advance(20)
    conns[bidder].act(["look"], st.version)
    assert conns[bidder].errors() == [] and table.state.deal.looked[bidder]
    assert bidder in table.state.to_act and conns[bidder].view["deadlines"][bidder] == 10.0
    clock.advance(9.9)
    assert moves == []
    clock.advance(0.2)
    assert [m[0] for m in moves] == [bidder] and bidder not in table.state.to_act


def test_an_unlooked_seat_gets_one_timeout_for_one_decision_not_one_per_look_F9():
    """A computer player looks before deciding (F9: an unlooked seat is offered only ``look`` and
    moves that name no card). When a seat that has not looked runs out of time, the computer
    player looks and decides at once: one ``seat_timeout``, the seat's turn over — not a look,
    a fresh turn clock, and a second timeout for the same decision."""
    def look_first(view, level, rng):
        acts = [a["action"] for a in view["actions"]]
        return ["look"] if ["look"] in acts else [a for a in acts if a[0] != "look"][-1]
    table, clock, conns, moves = _table(30.0, chooser=look_first)
    st = table.state
    seat = st.to_act[0]
    assert not st.deal.looked[seat]
    clock.advance(30.1)
    after = table.state
    assert after.version == st.version + 2 and after.deal.looked[seat] and seat not in after.to_act
    assert [a[1:] for a in engine.record(after)["deals"][-1]["actions"][-2:]][0] == ["look"]
    msgs = conns[seat].read()
    timeouts = [m for m in msgs if m["type"] == "event" and m["event"]["type"] == "seat_timeout"]
    assert len(timeouts) == 1
    clock.advance(30.1)  # the next seat's clock, not a second one for this decision
    assert sum(1 for m in conns[seat].read() if m["type"] == "event" and m["event"]["type"] == "seat_timeout"
               and m["event"]["seat"] == seat) == 0


def test_no_clock_by_default_for_a_dropped_seat_or_a_taken_over_one():
    """Off when ``turn_time`` is None (frapnet play); a dropped seat has its grace period instead."""
    table, clock, conns, moves = _table(None)
    st = table.state
    assert conns[st.to_act[0]].view["deadlines"] == [None, None]
    clock.advance(1000)
    assert moves == [] and table.state is st
    table, clock, conns, moves = _table(30.0)
    st = table.state
    seat = st.to_act[0]
    conns[seat].tr.loseConnection()
    assert table.seats[seat].status == "reconnecting"
    clock.advance(60)  # under the 120 s grace: the table waits, no clock for a dropped seat
    assert moves == [] and table.state is st
    other = conns[1 - seat]
    other.read()
    assert other.view["deadlines"] == [None, None]


def test_coming_back_from_a_dropped_connection_does_not_restart_the_turn_clock():
    """A newcomer reloaded the web page with 91 s left and got a fresh 120 s: every reconnect bought
    a whole new clock. Now a seat back for the same decision goes on with what it had left (the
    clock stood still while it was away), and with at least BACK_AT_LEAST seconds to see the table
    again; a new decision gets the whole turn_time as before."""
    from frapnet.net.takeover import BACK_AT_LEAST
    from test_net_host import Conn
    for used, expect in ((12.0, 18.0), (28.0, BACK_AT_LEAST)):
        table, clock, conns, moves, factory = _table_and_factory(30.0)
        st = table.state
        seat = st.to_act[0]
        token = conns[seat].welcome["token"]
        clock.advance(used)
        conns[seat].tr.loseConnection()
        assert table.seats[seat].status == "reconnecting"
        clock.advance(60)  # away for a minute (under the grace): no clock runs for it meanwhile
        assert moves == [] and table.state is st
        back = Conn(factory)
        back.hello("Olga" if seat == 0 else "Ivan", token=token)
        back.read()
        assert back.view["seat"] == seat and back.view["deadlines"][seat] == expect, back.view["deadlines"]
        clock.advance(expect - 0.1)
        assert moves == []
        clock.advance(0.2)
        assert moves and moves[0][0] == seat  # the clock's move, at the end of what was left
        nxt = table.state.to_act[0]
        if nxt != seat and table.seats[nxt].peer is not None:
            assert conns[nxt].read() and conns[nxt].view["deadlines"][nxt] == 30.0  # a new decision: all of it


def test_a_real_host_plays_for_a_player_who_never_acts_and_the_match_ends():
    """`frapnet host --turn-time 0.3` (a real process, loopback): a player who joins and never
    acts keeps the seat ("connected" in every view) while the clock moves for it, one
    ``seat_timeout`` per move; the one-deal match ends with the result line, F6 balanced."""
    import json
    import os
    import socket
    import subprocess

    from frapnet.net import wire
    from frapnet.net.protocol import PROTOCOL_VERSION
    host = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                             "--no-announce", "--players", "2", "--bots", "1", "--deals", "1", "--pause", "0",
                             "--seed", "4", "--turn-time", "0.3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        port = int(host.stdout.readline().rsplit(":", 1)[1])
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Sleepy"}))
        buf, msgs = b"", []
        while not any(m["type"] == "closing" for m in msgs):
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
            while len(buf) >= 4 and len(buf) - 4 >= int.from_bytes(buf[:4], "big"):
                n = int.from_bytes(buf[:4], "big")
                msgs.append(wire.decode(buf[4:4 + n]))
                buf = buf[4 + n:]
        out, err = host.communicate(timeout=30)
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
    assert host.returncode == 0, err[-2000:]
    views = [m["view"] for m in msgs if m["type"] == "view"]
    timeouts = [m["event"] for m in msgs if m["type"] == "event" and m["event"]["type"] == "seat_timeout"]
    assert timeouts and all(e["seat"] == 0 and e["name"] == "Sleepy" for e in timeouts)
    assert all(v["connection"][0] == "connected" for v in views)
    assert any(v["deadlines"][0] is not None for v in views)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["deals"] == 1 and sum(result["balances"]) + result["pot"] == 0  # F6
    assert err.count("did not act in 0.3 s") == len(timeouts)
