"""Issue #11: the host's ShuffleRound and the clients' DealChecker, message by message (no sockets).

A host double runs the exchange for four seats and a spectator, deals with the engine, feeds each
client exactly the views its seat gets, and reveals; an honest deal checks ✓ at every client, a
deal of another deck than the committed one is flagged by every client, naming the deal.
"""
from __future__ import annotations

import json
import random

import pytest
from twisted.internet.task import Clock

from frapnet import engine, fairness
from frapnet.net.dealcheck import MISMATCH, OK, DealChecker
from frapnet.net.dealing import ShuffleRound
from frapnet.net.protocol import ProtocolError


def welcome(seat, n=4):
    return {"type": "welcome", "seat": seat, "game": "frap", "options": {}, "house_rules": [],
            "players": [{"seat": s} for s in range(n)], "rules": {"verbs": ["look", "play"]}}


class Table:
    """A host double: one deal, exchanged with ``clients`` (seat None: a spectator)."""

    def __init__(self, n=4, silent=(), tamper=None, seed=3):
        self.n, self.silent, self.tamper = n, set(silent), tamper
        self.clock = Clock()
        self.state = engine.new_match("frap", n, {})
        self.clients = [DealChecker(nonce_source=lambda deal, s=s: bytes([s + 1]) * 32) for s in range(n + 1)]
        for seat, c in enumerate(self.clients):
            c.welcome(welcome(seat if seat < n else None, n))
        self.rng = random.Random(seed)
        self.sent: list[dict] = []
        self.left_out = []
        self.round = None
        self.dealt = None

    def send_all(self, msg):
        self.sent.append(msg)
        for seat, c in enumerate(self.clients):
            if msg["type"] == "shuffle_commit":
                reply = c.commit(msg)
                if reply and seat not in self.silent:
                    self.clock.callLater(0.01, self.round.got_hash, seat, reply["deal"], reply["hash"])
            elif msg["type"] == "shuffle_hashes":
                reply = c.hashes(msg)
                if reply and seat not in self.silent:
                    self.clock.callLater(0.01, self.round.got_nonce, seat, reply["deal"], reply["nonce"])

    def deal(self, time_limit=2.0):
        seed, salt = self.rng.randbytes(32), self.rng.randbytes(32)
        self.round = ShuffleRound(self.state.deal_no + 1, self.n, range(self.n), seed, salt, clock=self.clock,
                                  time_limit=time_limit, send_all=self.send_all, on_done=self._dealt,
                                  on_left_out=lambda s, r: self.left_out.append((s, r)))
        self.round.start()
        while self.dealt is None:
            self.clock.advance(0.01)
        self.play_out()
        verdicts = [c.reveal(self.round.reveal_message()) for c in self.clients]
        return verdicts

    def _dealt(self, rnd):
        deck = rnd.deck(engine.pack(self.state))
        if self.tamper:
            deck = self.tamper(deck)
        self.dealt = self.clock.seconds()
        self.state, _ = engine.start_deal(self.state, deck, 0)
        self.views()

    def views(self):
        for seat, c in enumerate(self.clients):
            c.view(engine.view(self.state, seat if seat < self.n else None))

    def play_out(self):
        rng = random.Random(11)
        while self.state.phase == engine.DEAL:
            seat = self.state.to_act[0]
            acts = engine.legal_actions(self.state, seat)
            # look first and whist, so that cards are seen and played
            act = next((a for a in acts if a[0] in ("look", "whist", "frap")), rng.choice(acts))
            self.state, events = engine.apply(self.state, seat, act)
            for e in events:
                for c in self.clients:
                    c.event(e)
            self.views()


def test_honest_deal_checks_at_every_client():
    t = Table()
    verdicts = t.deal()
    assert [v.status for v in verdicts] == [OK] * 5
    assert verdicts[0].text.startswith("✓ deal 1 checked:")
    assert t.left_out == [] and t.dealt == pytest.approx(0.02, abs=0.011)  # two quick round trips
    assert t.round.proof()["nonces"].count(None) == 0


def swap_first_hands(deck):
    """The host double's cheat: deal seat 1's first card to seat 2 and back (F8 order)."""
    d = list(deck)
    d[1], d[2] = d[2], d[1]
    return d


def test_a_deck_other_than_the_committed_one_is_caught_by_every_seat():
    """One card swapped between two hands: the two seats by their hands, the others (and the
    spectator) when a swapped card is played (seed 7: seat 3 plays 7D)."""
    t = Table(tamper=swap_first_hands, seed=7)
    verdicts = t.deal()
    played = "seat 3 played 7D, which the committed shuffle deals to another seat"
    assert [v.problem for v in verdicts] == [
        played, played,
        "your hand held 7H, which the committed shuffle does not deal you (it deals you 7D 7S QD 9D)",
        "your hand held 7D, which the committed shuffle does not deal you (it deals you 7H 9H 7C JH)",
        played]
    assert all(v.status == MISMATCH and v.text.startswith("⚠⚠ DEAL 1 FAILED THE FAIRNESS CHECK") for v in verdicts)


def test_a_stacked_deck_is_caught_by_every_client_spectator_included():
    """A wholly different deck (the host shuffled alone): every seat and the spectator see it."""
    t = Table(tamper=lambda deck: random.Random(5).sample(deck, len(deck)))
    verdicts = t.deal()
    assert [v.status for v in verdicts] == [MISMATCH] * 5
    assert "your hand held" in verdicts[0].problem


def test_a_silent_seat_is_left_out_after_the_time_limit():
    t = Table(silent={2})
    verdicts = t.deal(time_limit=1.5)
    assert t.left_out == [(2, "no_hash")]
    assert t.dealt == pytest.approx(1.5 + 0.01, abs=0.011)  # at most the limit, plus the nonce round trip
    assert t.round.proof()["nonces"][2] is None
    assert [m["left_out"] for m in t.sent if m["type"] == "shuffle_hashes"] == [[2]]
    assert [v.status for v in verdicts] == [OK] * 5


def test_reveal_with_another_seed_or_my_nonce_changed_is_flagged():
    t = Table()
    t.deal()
    good = t.round.reveal_message()
    c = DealChecker()
    c.welcome(welcome(0))
    reply = c.commit({"type": "shuffle_commit", "deal": 1, "commitment": good["proof"]["commitment"], "seats": [0]})
    assert reply["type"] == "nonce_hash"
    hashes = list(good["proof"]["nonce_hashes"])
    hashes[0] = reply["hash"]
    assert c.hashes({"type": "shuffle_hashes", "deal": 1, "hashes": hashes, "left_out": []})["type"] == "nonce"
    c.view({"deal_no": 1, "dealer": 0, "turn_up": None})
    forged = {"type": "shuffle_reveal", "deal": 1, "proof": {**good["proof"], "nonce_hashes": hashes}}
    v = c.reveal(forged)
    assert v.bad and v.problem == "your own nonce is missing or changed in the reveal"


def test_round_refuses_late_wrong_and_mismatched_answers():
    clock = Clock()
    done = []
    r = ShuffleRound(1, 3, [0, 1], bytes(32), bytes(32), clock=clock, time_limit=1.0, send_all=lambda m: None,
                     on_done=done.append)
    r.start()
    with pytest.raises(ProtocolError) as e:
        r.got_hash(2, 1, "00" * 32)
    assert e.value.code == "late"
    with pytest.raises(ProtocolError) as e:
        r.got_hash(0, 2, "00" * 32)
    assert e.value.code == "late"
    with pytest.raises(ProtocolError) as e:
        r.got_hash(0, 1, "xyz")
    assert e.value.code == "bad_message"
    nonce = bytes([7]) * 32
    r.got_hash(0, 1, fairness.nonce_hash(nonce).hex())
    r.got_hash(1, 1, fairness.nonce_hash(nonce).hex())
    assert r.stage == "nonces"
    with pytest.raises(ProtocolError) as e:
        r.got_nonce(1, 1, "11" * 32)
    assert e.value.code == "bad_nonce" and r.left_out == {1: "bad_nonce"}
    r.got_nonce(0, 1, nonce.hex())
    assert done == [r] and r.nonces == [nonce, None, None]
    assert r.proof()["nonce_hashes"][1] is not None and r.proof()["nonces"][1] is None


def test_terminal_screen_shows_the_check_and_keeps_a_failure_on_screen():
    """The terminal client's part (frapnet.tui): ✓ per deal; a failure stays in the status bar."""
    from frapnet.net.dealcheck import Verdict
    from frapnet.tui import i18n, render
    from frapnet.tui.model import Screen
    s = Screen(i18n.translation("en").gettext, "en")
    s.add_fairness(Verdict(1, OK, "✓ deal 1 checked"))
    bar = "".join(t for _s, t in render.status_bar(s, 120))
    assert "✓ deal 1 fair" in bar and s.log[-1] == ("status", "✓ deal 1 is fair: every card you saw is where "
                                                              "the shuffle put it")
    s.add_fairness(Verdict(2, MISMATCH, "…", "the turn-up was 7S; the committed shuffle turns up KD"))
    s.add_fairness(Verdict(3, OK, "✓ deal 3 checked"))
    bar = "".join(t for _s, t in render.status_bar(s, 120))
    assert "⚠ DEAL 2 NOT FAIR" in bar and "✓" not in bar
    assert ("error", "⚠⚠ DEAL 2 FAILED THE FAIRNESS CHECK: the turn-up was 7S; the committed shuffle turns up KD") \
        in s.log
    ru = Screen(i18n.translation("ru").gettext, "ru")
    ru.add_fairness(Verdict(4, MISMATCH, "…", "x"))
    assert "⚠ СДАЧА 4 НЕЧЕСТНАЯ" in "".join(t for _s, t in render.status_bar(ru, 120))


# --- the real referee (frapnet.net.table) over in-memory connections --------------------------

class Peer:
    """A connection to a Table through the real server protocol (bytes in, bytes out); it
    answers the shuffle like a real client (DealChecker) unless ``silent``."""
    _n = 61000

    def __init__(self, factory, name, silent=False, **hello):
        from twisted.internet.address import IPv4Address
        from twisted.internet.testing import StringTransportWithDisconnection
        from frapnet.net import wire
        from frapnet.net.protocol import PROTOCOL_VERSION
        Peer._n += 1
        self.wire, self.silent, self.pos, self.msgs = wire, silent, 0, []
        addr = IPv4Address("TCP", "127.0.0.1", Peer._n)
        self.proto = factory.buildProtocol(addr)
        self.tr = StringTransportWithDisconnection(peerAddress=addr)
        self.tr.protocol = self.proto
        self.proto.makeConnection(self.tr)
        self.checker = DealChecker(nonce_source=lambda deal, n=Peer._n: fairness.seeded_secret("nonce", n, deal))
        self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, **hello})

    def send(self, msg):
        self.proto.dataReceived(self.wire.frame(msg))

    def read(self):
        data, out = self.tr.value(), []
        while len(data) - self.pos >= 4:
            n = int.from_bytes(data[self.pos:self.pos + 4], "big")
            msg = self.wire.decode(data[self.pos + 4:self.pos + 4 + n])
            self.pos += 4 + n
            out.append(msg)
            kind = msg["type"]
            if kind == "welcome":
                self.checker.welcome(msg)
            elif kind == "view":
                self.checker.view(msg["view"])
            elif kind in ("shuffle_commit", "shuffle_hashes") and not self.silent:
                reply = (self.checker.commit if kind == "shuffle_commit" else self.checker.hashes)(msg)
                if reply:
                    self.send(reply)
        self.msgs += out
        return out


def _table(players=3, nonce_time=2.5):
    from frapnet.net.config import TableConfig
    from frapnet.net.server import HostFactory
    from frapnet.net.table import Table as Referee
    clock = Clock()
    table = Referee(TableConfig(name="T", players=players, pause=0.0, nonce_time=nonce_time), clock=clock,
                    rng=random.Random(1))
    return table, HostFactory({"T": table}, clock, rate=10 ** 6), clock


def test_a_seat_that_never_sends_its_nonce_delays_the_deal_by_at_most_the_time_limit():
    """Issue #11: the silent seat is left out after --nonce-time seconds and everyone is told."""
    table, factory, clock = _table(nonce_time=2.5)
    peers = [Peer(factory, "Olga"), Peer(factory, "Ivan"), Peer(factory, "Sloth", silent=True)]
    watcher = Peer(factory, "Watcher", spectate=True)
    for p in peers + [watcher]:
        p.read()
    assert table.dealing.busy and table.state.deal_no == 0  # waiting for Sloth's hash
    clock.advance(2.49)
    assert table.state.deal_no == 0
    clock.advance(0.01)  # the time limit: the hashes go out without Sloth's
    for p in peers + [watcher]:
        p.read()  # Olga and Ivan reveal their nonces at once: the deal starts
    assert table.state.deal_no == 1 and clock.seconds() == 2.5
    proof = table.dealing.proofs[0]
    assert [x is None for x in proof["nonces"]] == [False, False, True] and proof["nonce_hashes"][2] is None
    told = [m["event"] for m in watcher.msgs if m["type"] == "event" and m["event"]["type"] == "shuffle_left_out"]
    assert told == [{"type": "shuffle_left_out", "seat": 2, "name": "Sloth", "reason": "no_hash", "deal": 1,
                     "text": "Sloth did not answer the shuffle in time; deal 1 is shuffled without their nonce"}]


def test_shuffle_answers_out_of_turn_are_refused_and_change_nothing():
    table, factory, clock = _table(players=2, nonce_time=1.0)
    a, b = Peer(factory, "A", silent=True), Peer(factory, "B", silent=True)
    spectator = Peer(factory, "W", spectate=True)
    for p in (a, b, spectator):
        p.read()
    commit = next(m for m in a.msgs if m["type"] == "shuffle_commit")
    assert commit["seats"] == [0, 1] and commit["time"] == 1.0 and len(commit["commitment"]) == 64
    spectator.send({"type": "nonce_hash", "deal": 1, "hash": "ab" * 32})
    a.send({"type": "nonce_hash", "deal": 2, "hash": "ab" * 32})
    a.send({"type": "nonce_hash", "deal": 1, "hash": "not hex"})
    a.send({"type": "nonce", "deal": 1, "nonce": "cd" * 32})  # a nonce before the hashes are out
    a.send({"type": "nonce_hash", "deal": 1, "hash": fairness.nonce_hash(bytes(32)).hex()})
    a.send({"type": "nonce_hash", "deal": 1, "hash": fairness.nonce_hash(bytes(32)).hex()})  # twice
    codes = lambda p: [m["code"] for m in p.read() if m["type"] == "error"]
    assert codes(spectator) == ["not_seated"]
    assert codes(a) == ["late", "bad_message", "late", "late"]
    b.send({"type": "nonce_hash", "deal": 1, "hash": fairness.nonce_hash(bytes([1]) * 32).hex()})
    b.read()
    a.send({"type": "nonce", "deal": 1, "nonce": "11" * 32})  # not the nonce behind A's hash
    assert codes(a) == ["bad_nonce"]
    b.send({"type": "nonce", "deal": 1, "nonce": "01" * 32})
    assert table.state.deal_no == 1 and clock.seconds() == 0  # B's answer completed the round
    assert [x is None for x in table.dealing.proofs[0]["nonces"]] == [True, False]
    assert table.dealing.proofs[0]["nonce_hashes"][0] is not None  # A committed, then failed to reveal


def test_seeded_runs_agree_with_each_other_replay_and_verify(tmp_path):
    """Issue #11 item 3: `--seed` derives the host's secrets and its computer players' nonces, and
    the record keeps the nonces: two runs give the same record, which replays and verifies."""
    import json
    import subprocess
    import sys
    recs = []
    for run in ("a", "b"):
        path = tmp_path / f"{run}.json"
        out = subprocess.run([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                              "--no-announce", "--players", "4", "--bots", "4", "--seed", "7", "--deals", "2",
                              "--pause", "0", "--record", str(path)], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-2000:]
        recs.append(json.loads(path.read_text()))
    assert recs[0] == recs[1]
    assert [d["shuffle"]["seed"] for d in recs[0]["deals"]] == \
        [fairness.seeded_secret("seed", 7, k).hex() for k in (1, 2)]
    assert [d["shuffle"]["nonces"][0] for d in recs[0]["deals"]] == \
        [fairness.seeded_secret("nonce", 7, k, 0).hex() for k in (1, 2)]
    path = tmp_path / "a.json"
    ver = subprocess.run([sys.executable, "-m", "frapnet", "verify", str(path)], capture_output=True, text=True,
                         timeout=60)
    assert ver.returncode == 0 and ver.stdout.splitlines()[-1] == "2 deals verified", ver.stdout
    rep = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(path), "--json"], capture_output=True,
                         text=True, timeout=60)
    assert json.loads(rep.stdout)["ok"] is True


def test_a_resumed_host_reveals_the_deal_it_committed_to_before_the_crash(tmp_path):
    """design.md principle 5 with issue #11: the proof (seed included) is stored with the deal in
    the journal (issue #9), so a host restarted in the middle of a deal reveals the same seed at its
    end, and the record exported from the journal verifies."""
    from frapnet import record
    from frapnet.net.config import TableConfig
    from frapnet.net.journal import Journal
    from frapnet.net.server import HostFactory
    from frapnet.net.table import Table as Referee
    path = str(tmp_path / "m.json")
    config = TableConfig(name="T", players=3, pause=0.0, nonce_time=1.0, record=path, deals=1)
    clock = Clock()
    table = Referee(config, clock=clock, rng=random.Random(1))
    db = Journal(str(tmp_path / "j.sqlite3"))
    table.journal = db.new_match("T", table.state, path)
    factory = HostFactory({"T": table}, clock, rate=10 ** 6)
    peers = [Peer(factory, f"P{i}") for i in range(3)]
    for _ in range(3):
        for p in peers:
            p.read()
    assert table.state.deal_no == 1
    committed = table.dealing.proofs[0]
    for _ in range(3):  # a few moves, then the host "crashes"
        seat = table.state.to_act[0]
        table.apply_action(seat, engine.action_to_wire(engine.legal_actions(table.state, seat)[0]), table.state.version)
    tokens = [next(m for m in p.msgs if m["type"] == "welcome")["token"] for p in peers]
    again = Referee(config, clock=Clock(), rng=random.Random(1))
    again.journal = Journal(str(tmp_path / "j.sqlite3")).open_match(table.journal.id, path)  # after the crash
    again.resume(again.journal.journal.record(table.journal.id))
    assert again.state.phase == engine.DEAL and again.dealing.proofs[0] == committed
    factory = HostFactory({"T": again}, again.clock, rate=10 ** 6)
    back = [Peer(factory, f"P{i}", token=tokens[i]) for i in range(3)]
    for p in back:
        p.read()
    rng = random.Random(2)
    while again.state.phase == engine.DEAL:
        seat = again.state.to_act[0]
        again.apply_action(seat, engine.action_to_wire(rng.choice(engine.legal_actions(again.state, seat))),
                           again.state.version)
    reveals = [m for m in back[0].read() if m["type"] == "shuffle_reveal"]
    assert [r["proof"] for r in reveals] == [committed]
    assert [d["deal"] for d in record.verify(record.load(path))] == [0]


@pytest.mark.parametrize("damage, needle", [
    (lambda deal: deal["shuffle"].update(nonce_hashes=[]), "nonce_hashes must be a list of 3 entries"),
    (lambda deal: deal["shuffle"].update(seed="00" * 32), "the commitment is not SHA-256(seed ‖ salt)"),
    (lambda deal: deal["shuffle"].pop("salt"), "salt"),
    # a record's text is quoted escaped (it reached the terminal raw from `frapnet verify`)
    (lambda deal: deal["deck"].__setitem__(0, "\x1b[2J\u202eAS"), "card 1 (from the top) is '\\x1b[2J\\u202eAS'"),
])
def test_a_resumed_record_whose_shuffle_proof_does_not_verify_is_refused(tmp_path, damage, needle):
    """docs/fairness.md, record-format.md: a host resuming a record (``--resume --record``, or the
    journal's copy) checks every deal's shuffle proof as `frapnet verify` does; a damaged one is a
    ReplayError (rule ``record``) naming the deal — before, the host resumed it and revealed it at
    the deal's end, and every client reported the host as dealing another deck. A record without
    proofs (from before fair deals) still resumes."""
    from frapnet import record
    from frapnet.net.config import TableConfig
    from frapnet.net.server import HostFactory
    from frapnet.net.table import Table as Referee
    path = str(tmp_path / "m.json")
    config = TableConfig(name="T", players=3, pause=0.0, nonce_time=1.0, record=path)
    table = Referee(config, clock=Clock(), rng=random.Random(1))
    factory = HostFactory({"T": table}, table.clock, rate=10 ** 6)
    peers = [Peer(factory, f"P{i}") for i in range(3)]
    for _ in range(3):
        for p in peers:
            p.read()
    for _ in range(3):
        seat = table.state.to_act[0]
        table.apply_action(seat, engine.action_to_wire(engine.legal_actions(table.state, seat)[0]), table.state.version)
    rec = engine.record(table.state)
    rec["deals"][0]["shuffle"] = dict(table.dealing.proofs[0])
    assert record.verify(json.loads(json.dumps(rec)))  # as stored, it verifies and resumes
    Referee(config, clock=Clock(), rng=random.Random(1)).resume(json.loads(json.dumps(rec)))
    damage(rec["deals"][0])
    with pytest.raises(record.ReplayError) as exc:
        Referee(config, clock=Clock(), rng=random.Random(1)).resume(rec)
    assert exc.value.rule == "record" and exc.value.deal == 0 and needle in exc.value.message
    with pytest.raises(record.VerifyError) as bad:  # `frapnet verify` names the same problem
        record.verify(rec)
    assert needle in str(bad.value) and "\x1b" not in str(bad.value)
    if "from the top" in needle:  # (a damaged deck does not replay without its proof either)
        return
    del rec["deals"][0]["shuffle"]  # no proof at all: a record from before fair deals
    again = Referee(config, clock=Clock(), rng=random.Random(1))
    again.resume(rec)
    assert again.state.version == table.state.version


def test_a_deal_whose_seed_is_never_revealed_is_flagged():
    got = []
    c = DealChecker(on_verdict=got.append)
    c.welcome(welcome(0))
    c.commit({"type": "shuffle_commit", "deal": 1, "commitment": "aa" * 32, "seats": [0]})
    c.view({"deal_no": 1, "dealer": 0, "hand": None})
    c.commit({"type": "shuffle_commit", "deal": 2, "commitment": "bb" * 32, "seats": [0]})  # no reveal of 1
    assert [(v.deal, v.problem) for v in got] == [(1, "the host never revealed its seed for this deal")]
    c.view({"deal_no": 2, "dealer": 1, "hand": None})
    c.closing()
    assert [(v.deal, v.status) for v in got] == [(1, MISMATCH), (2, MISMATCH)]


def test_after_a_rematch_the_new_match_deals_are_followed_from_deal_1_again():
    """A rematch (issue #10) counts its deals from 1 again: plays are noted for the new deal 1."""
    c = DealChecker()
    c.welcome(welcome(0))
    c.commit({"type": "shuffle_commit", "deal": 3, "commitment": "aa" * 32, "seats": []})
    c.deals.pop(3)  # revealed
    c.commit({"type": "shuffle_commit", "deal": 1, "commitment": "bb" * 32, "seats": []})
    c.event({"type": "play", "seat": 2, "card": "AS"})
    assert c.deals[1].played == {(2, "AS")}


def test_a_russian_screen_says_a_caught_deck_in_russian():
    """The terminal client in Russian: a deal caught by the check (one card swapped between two
    hands) is said in Russian — the headline and the detail, cards as the rule books spell them —
    in the log and the message line; in English the detail is DealChecker's own."""
    from frapnet.tui import i18n
    from frapnet.tui.model import Screen

    t = Table(tamper=swap_first_hands, seed=7)
    verdicts = t.deal()
    ru = Screen(i18n.translation("ru").gettext, "ru")
    for v in verdicts[:3]:
        ru.add_fairness(v)
    assert [text for kind, text in ru.log if kind == "error"] == [
        "⚠⚠ СДАЧА 1 НЕ ПРОШЛА ПРОВЕРКУ ЧЕСТНОСТИ: место 3 сыграло 7♦, а обещанная тасовка сдаёт эту карту "
        "другому месту"] * 2 + [
        "⚠⚠ СДАЧА 1 НЕ ПРОШЛА ПРОВЕРКУ ЧЕСТНОСТИ: у вас на руке были 7♥, а обещанная тасовка их вам не сдаёт "
        "(она сдаёт вам 7♦ 7♠ Д♦ 9♦)"]
    assert ru.message == ru.log[-1][1]
    en = Screen(i18n.translation("en").gettext, "en")
    en.add_fairness(verdicts[2])
    assert en.message == ("⚠⚠ DEAL 1 FAILED THE FAIRNESS CHECK: your hand held 7H, which the committed shuffle "
                          "does not deal you (it deals you 7D 7S QD 9D)")
