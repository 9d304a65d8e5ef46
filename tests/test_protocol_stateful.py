"""A hypothesis state machine of the table protocol (issue #9 "Targets"; docs/protocol.md).

Up to five clients connect to a three-seat Frap table (the host's HostProtocol on a
StringTransport, time on a Clock — test_net_host.py's harness) and, in any order hypothesis
picks: say hello (right or wrong protocol, a seat, a spectator, a token of a seat that was
held), play a legal action of their latest view, replay an old one (stale), send one the rules
refuse, send garbage frames, unknown kinds, chat, ping, drop the connection, leave; the clock
moves (handshake timeouts, grace periods, computer takeover, the next deal).

After every step the host must have kept the protocol's promises:

- every byte it sent decodes as frames of host kinds; every ``error`` has a documented code
  (and an ``illegal`` one a rule);
- a refused message changed nothing (the state version moves only when a legal action was
  sent, someone joined, dropped or came back, or the clock ran);
- every joined connection's latest view is of the table's current version (each seat is told
  after every change), names its own seat, and shows its hand only once looked (F9) and
  exactly that seat's cards; a spectator's view has no hand;
- balances + pot = 0 (F6); no error or critical line in the host's log.
"""
from __future__ import annotations

import sys
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from twisted.logger import LogLevel, formatEvent, globalLogPublisher

from frapnet import engine
from frapnet.net import wire
from frapnet.net.protocol import ERROR_CODES, HOST_KINDS, PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_net_host import Conn, make  # noqa: E402 - the StringTransport client of the host units

SEATS = 3
GARBAGE = [
    b"\x00\x00\x00\x03abc",                               # not msgpack
    b"\x00\x00\x00\x01\x91",                              # truncated array
    b"\x00\x00\x00\x02\x92\x01",                          # an array, not a map
    b"\x00\x00\x00\x03\x81\xa4t",                         # truncated map
    (wire.MAX_FRAME + 1).to_bytes(4, "big"),              # too large
    b"\x00\x00\x00\x08\x81\xa4type\xd4\xff\x01",          # timestamp extension (-1)
]
KINDS = st.sampled_from(["hello", "act", "chat", "leave", "ping", "welcome", "view", "nonsense", ""])
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.text(max_size=8),
                   st.lists(st.text(max_size=4), max_size=3))


class ProtocolMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.table, self.factory, self.clock = make(players=SEATS, grace=30.0, bot_delay=0.5)
        self.conns: list[Conn] = []
        self.tokens: list[str] = []
        self.old_actions: list[tuple[Conn, list, int]] = []
        self.log: list[dict] = []
        globalLogPublisher.addObserver(self.log.append)
        self.expect_change = False

    def teardown(self):
        globalLogPublisher.removeObserver(self.log.append)

    # --- helpers ---------------------------------------------------------------------------
    def _live(self):
        return [c for c in self.conns if c.open]

    def _joined(self):
        return [c for c in self._live() if c.welcome is not None and c.proto.table is not None]

    def _read_all(self):
        for c in self.conns:
            for m in c.read():
                assert m["type"] in HOST_KINDS, m
                if m["type"] == "error":
                    assert m["code"] in ERROR_CODES, m
                    assert (m["rule"] is not None) == (m["code"] == "illegal"), m
                if m["type"] == "welcome" and m["token"]:
                    self.tokens.append(m["token"])

    # --- rules -----------------------------------------------------------------------------
    @initialize()
    def three_players_sit_down(self):
        """The match starts at once (every seat taken); the rules then drop, rejoin, play…"""
        for name in ("Olga", "Ivan", "Petr"):
            c = Conn(self.factory)
            c.hello(name)
            self.conns.append(c)
        self.expect_change = True

    @precondition(lambda self: len(self._live()) < 5)
    @rule(sit=st.booleans())
    def connect(self, sit):
        """A new connection; with ``sit`` it also says a plain hello (the third seat starts the match)."""
        c = Conn(self.factory)
        self.conns.append(c)
        if sit:
            self.expect_change = True
            c.hello("Petr")

    @precondition(lambda self: self._live())
    @rule(data=st.data(), protocol=st.sampled_from([PROTOCOL_VERSION, PROTOCOL_VERSION, "1.7", "2.0", "x"]),
          name=st.sampled_from(["Olga", "Ivan", "olga", "\x1b[2JEve", ""]), spectate=st.booleans(),
          seat=st.one_of(st.none(), st.integers(-1, SEATS)), use_token=st.booleans())
    def hello(self, data, protocol, name, spectate, seat, use_token):
        c = data.draw(st.sampled_from(self._live()))
        msg = {"type": "hello", "protocol": protocol, "name": name, "spectate": spectate, "seat": seat}
        if use_token and self.tokens:
            msg["token"] = data.draw(st.sampled_from(self.tokens))
        self.expect_change = True  # a seat taken (or taken back) is a change
        c.send(msg)

    @precondition(lambda self: self._joined())
    @rule(data=st.data(), times=st.integers(1, 30))
    def legal_actions(self, data, times):
        """Up to ``times`` legal actions in a row, each from a seat whose latest view offers one."""
        for _ in range(times):
            self.legal_action(data)
            for c in self.conns:
                c.read()

    @precondition(lambda self: self._joined())
    @rule(data=st.data())
    def legal_action(self, data):
        movers = [c for c in self._joined() if c.view and c.view.get("actions") and c.proto.seat is not None]
        if not movers:
            return
        c = data.draw(st.sampled_from(movers))
        a = data.draw(st.sampled_from(c.view["actions"]))["action"]
        self.old_actions.append((c, a, c.view["version"]))
        self.expect_change = True
        c.act(a)

    @precondition(lambda self: self.old_actions)
    @rule(data=st.data())
    def replay_old_action(self, data):
        """An action already applied (or made against an older view): stale, nothing changes."""
        c, a, version = data.draw(st.sampled_from(self.old_actions))
        if c.open:
            c.act(a, version)

    @precondition(lambda self: self._joined())
    @rule(data=st.data(), verb=st.sampled_from(["play", "buy", "frap", "fly", "discard", "look"]), arg=VALUES,
          dv=st.integers(-3, 3))
    def odd_action(self, data, verb, arg, dv):
        c = data.draw(st.sampled_from(self._joined()))
        v = (c.view or {}).get("version", 0) + dv
        action = [verb] if arg is None else [verb, arg]
        legal = [x["action"] for x in (c.view or {}).get("actions", [])]
        if action in legal or action == ["look"]:  # F9: a seat may look at its cards at any time
            self.expect_change = True
        c.send({"type": "act", "action": action, "version": v})

    @precondition(lambda self: self._live())
    @rule(data=st.data(), body=st.sampled_from(GARBAGE))
    def garbage(self, data, body):
        data.draw(st.sampled_from(self._live())).proto.dataReceived(body)
        self.expect_change = True  # a joined seat closed for it is a change ("reconnecting")

    @precondition(lambda self: self._live())
    @rule(data=st.data(), kind=KINDS, fields=st.dictionaries(
        st.sampled_from(["action", "version", "text", "seat", "id", "name", "protocol"]), VALUES, max_size=3))
    def random_message(self, data, kind, fields):
        c = data.draw(st.sampled_from(self._live()))
        self.expect_change = kind in ("hello", "act", "leave")
        c.send({"type": kind, **fields})

    @precondition(lambda self: self._live())
    @rule(data=st.data(), text=st.text(max_size=30))
    def chat_or_ping(self, data, text):
        c = data.draw(st.sampled_from(self._live()))
        c.send({"type": "chat", "text": text})
        c.send({"type": "ping", "id": 7})

    @precondition(lambda self: self._live())
    @rule(data=st.data(), leave=st.booleans())
    def drop(self, data, leave):
        c = data.draw(st.sampled_from(self._live()))
        self.expect_change = True
        if leave:
            c.send({"type": "leave"})
        else:
            c.tr.loseConnection()

    @rule(seconds=st.sampled_from([0.1, 1.0, 11.0, 31.0]))
    def time_passes(self, seconds):
        self.expect_change = True
        self.clock.advance(seconds)

    # --- checking --------------------------------------------------------------------------
    @invariant()
    def promises_kept(self):
        if not hasattr(self, "_version"):
            self._version = self.table.state.version
        self._read_all()
        st_ = self.table.state
        if not self.expect_change:
            assert st_.version == self._version, "a refused message changed the state"
        self.expect_change = False
        self._version = st_.version
        ledger = engine.match_report(st_)
        if "balances" in ledger and "pot" in ledger:
            assert sum(ledger["balances"]) + ledger["pot"] == 0  # F6
        deal = getattr(st_, "deal", None)
        for c in self._joined():
            v = c.view
            assert v is not None and v["version"] == st_.version, "a joined connection missed a change"
            seat = c.proto.seat
            if c.proto in self.table.spectators:
                assert v["seat"] is None and not v.get("hand")
            elif seat is not None:
                assert v["seat"] == seat
                if deal is not None and st_.phase == engine.DEAL and "hand" in v:
                    if deal.looked[seat]:
                        assert sorted(v["hand"]) == sorted(deal.hands[seat])  # F9
                    else:
                        assert v["hand"] is None  # F9: not before looking
        bad = [formatEvent(e) for e in self.log if e.get("log_level") in (LogLevel.error, LogLevel.critical)]
        assert bad == [], bad


ProtocolMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=40, deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow])
test_protocol_state_machine = ProtocolMachine.TestCase
