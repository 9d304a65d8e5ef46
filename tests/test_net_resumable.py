"""Issue #9: a host stopped with its match unfinished (Ctrl-C/SIGTERM, the journal resumes it with
the same command) says so in ``closing`` (``resumable``, docs/protocol.md); the clients keep the
seat token, a deal it stopped in the middle of is "interrupted" — never "failed the fairness
check" — and a ``late`` answer to a client's own nonce after a reconnect is not shown to anyone.

In-process here (the real server protocol over StringTransports, tests/test_fair_deal.py's
Peer; the real TableClient message handling); the terminal client against real host processes
is in tests/test_tui_tmux_resumable.py."""
from __future__ import annotations

import sys
from pathlib import Path

from frapnet.net.client import TableClient
from frapnet.net.dealcheck import MISMATCH, OK, PARTIAL

INTERRUPTED = "interrupted"  # frapnet.net.dealcheck.INTERRUPTED (the Verdict status)
from frapnet.tui import i18n, tokens
from frapnet.tui.model import Screen

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_fair_deal import Peer, _table  # noqa: E402 - the host units over the real server protocol


class _Proto:
    def __init__(self, peer):
        self.peer = peer
        self.transport = None

    def sendMessage(self, msg):
        self.peer.send(msg)


class ClientPeer(Peer):
    """A Peer whose messages go through a real :class:`TableClient`'s handling (its DealChecker
    answers the shuffle; ``client.on_error``/``on_fairness``/``on_closing`` see what a player's
    client would show)."""

    def __init__(self, factory, name, client=None, **hello):
        from twisted.internet.task import Clock
        self.client = client or TableClient("127.0.0.1", 1, name, reactor=Clock(), reconnect=False)
        self.shown_errors, self.verdicts = [], []
        self.client.on_error = self.shown_errors.append
        self.client.on_fairness = self.verdicts.append
        super().__init__(factory, name, silent=True, **hello)

    def read(self):
        out = super().read()
        for m in out:
            self.client._message(_Proto(self), m)
        return out


def _dealt(table, peers, clock):
    for _ in range(20):
        for p in peers:
            p.read()
        if table.state.deal_no >= 1 and table.state.phase == "deal":
            for p in peers:
                p.read()  # the deal's first views
            return
        clock.advance(0.1)
    raise AssertionError("deal 1 was not dealt")


def _closing(peer):
    return [m for m in peer.msgs if m["type"] == "closing"]


def test_a_host_stopped_mid_deal_with_a_journal_says_resumable_and_the_deal_is_interrupted_issue_9():
    table, factory, clock = _table(players=2, nonce_time=1.0)
    table.resumes = True  # frapnet.hosting: a journal and continue_unfinished (the same command resumes)
    a, b = ClientPeer(factory, "Olga"), ClientPeer(factory, "Ivan")
    _dealt(table, [a, b], clock)
    assert a.client.checker.deals[1].seen_view and a.client.checker.deals[1].my_nonce is not None
    table.finish("host stopping")
    a.read()
    assert [(m["reason"], m["resumable"]) for m in _closing(a)] == [("host stopping", True)]
    assert a.client.closing["resumable"] is True
    assert [(v.deal, v.status, v.bad, v.problem) for v in a.verdicts] == [(1, INTERRUPTED, False, None)]
    assert "FAILED" not in a.verdicts[0].text and "not fair" not in a.verdicts[0].text
    assert a.verdicts[0].text.startswith("deal 1 was interrupted: the host stopped before revealing its shuffle")
    assert tokens.keeps_seat(a.client.closing) is True
    # the same checker, shown the reveal the resumed host sends at the deal's end: checked
    proof = table.dealing.proofs[0]
    v = a.client.checker.reveal({"type": "shuffle_reveal", "deal": 1, "proof": proof})
    assert v.status in (OK, PARTIAL) and not v.bad, v.text


def test_a_host_that_closes_a_deal_unrevealed_without_resuming_still_fails_the_check_issue_9():
    table, factory, clock = _table(players=2, nonce_time=1.0)
    assert table.resumes is False  # a Table without frapnet.hosting's journal: nothing resumes it
    a, b = ClientPeer(factory, "Olga"), ClientPeer(factory, "Ivan")
    _dealt(table, [a, b], clock)
    table.finish("host stopping")
    a.read()
    assert [(m["reason"], m["resumable"]) for m in _closing(a)] == [("host stopping", False)]
    assert [(v.deal, v.status, v.problem) for v in a.verdicts] == \
        [(1, MISMATCH, "the host never revealed its seed for this deal")]
    assert tokens.keeps_seat(a.client.closing) is False


def test_a_match_played_to_its_deals_is_not_resumable_issue_9():
    """Over by the deals asked for (--deals 1): nothing to resume, so not resumable even with a
    journal — the token is no use any more."""
    import random

    from test_journal import play_random
    from test_net_host import make, seat_all
    table, factory, clock = make(2, deals=1)
    table.resumes = True
    conns = seat_all(factory, 2)
    assert play_random(table, conns, clock, random.Random(3), 800)
    assert table.result["match_over"] is False and table.result["deals"] == 1  # over by the deals asked for
    conns[0].read()
    assert [(m["reason"], m["resumable"]) for m in conns[0].log if m["type"] == "closing"] == [("match over", False)]


def test_a_late_answer_to_our_own_nonce_after_a_reconnect_is_not_shown_issue_9():
    """A reconnect mid-deal: the host sends the shuffle's commit (``dealt``) and hashes again,
    the client's checker answers with its nonce once more, the host says ``late`` ("nonce: no
    shuffle is waiting for an answer now") — expected, so it never reaches on_error."""
    table, factory, clock = _table(players=2, nonce_time=1.0)
    a, b = ClientPeer(factory, "Olga"), ClientPeer(factory, "Ivan")
    _dealt(table, [a, b], clock)
    token = a.client.token
    assert token and a.shown_errors == []
    a.tr.loseConnection()
    again = ClientPeer(factory, "Olga", client=a.client, token=token)
    for _ in range(3):
        again.read()
        b.read()
    errors = [m for m in again.msgs if m["type"] == "error"]
    assert [(m["code"], m["message"]) for m in errors] == [("late", "nonce: no shuffle is waiting for an answer now")]
    assert again.shown_errors == [] and a.client.errors == 1  # counted, not shown
    # any other error still reaches the player
    again.send({"type": "act", "action": ["nonsense"], "version": table.state.version})
    again.read()
    assert [e["code"] for e in again.shown_errors] != [] and "late" not in [e["code"] for e in again.shown_errors]


def test_the_terminal_client_says_the_host_stopped_and_how_to_take_the_seat_back_issue_9():
    msg = {"type": "closing", "reason": "host stopping", "resumable": True,
           "result": {"balances": [-100, -100], "pot": 200, "match_over": False}}
    en = Screen(i18n.translation("en").gettext, "en")
    en.set_welcome({"seat": 0})
    en.set_closing(msg)
    lines = [t for _, t in en.log]
    assert ("The host stopped; the match is not over. Once the host is back, run the same join command again "
            "to take your seat back.") in lines and en.resumable is True
    watcher = Screen(i18n.translation("en").gettext, "en")  # a spectator has no seat to take back
    watcher.set_welcome({"seat": None})
    watcher.set_closing(msg)
    assert ("The host stopped; the match is not over. Once the host is back, run the same join command again "
            "to watch on.") in [t for _, t in watcher.log] and not any("seat back" in t for _, t in watcher.log)
    ru = Screen(i18n.translation("ru").gettext, "ru")
    ru.set_closing(msg)
    assert ("Хост остановлен; партия не окончена. Когда хост снова заработает, запустите ту же команду "
            "подключения — и вы вернётесь на своё место.") in [t for _, t in ru.log]
    over = Screen(i18n.translation("en").gettext, "en")
    over.set_closing(dict(msg, resumable=False))
    assert not any("run the same join command" in t for _, t in over.log) and over.resumable is False
    from frapnet.net.dealcheck import Verdict
    ru.add_fairness(Verdict(3, INTERRUPTED, "deal 3 was interrupted"))
    assert ru.log[-1] == ("status", "Сдача 3 прервана: хост остановился, не раскрыв тасовку. Она будет проверена, "
                                    "когда хост раскроет её после возобновления; если проверить её тогда не "
                                    "удастся, она останется непроверенной.")
    assert ru.unfair == [] and ru.message != ru.log[-1][1]


def test_a_computer_player_counts_an_interrupted_deal_neither_checked_nor_unfair_issue_9():
    from twisted.internet.task import Clock

    from frapnet.bots.client import Bot
    table, factory, clock = _table(players=2, nonce_time=1.0)
    table.resumes = True
    bot = Bot("127.0.0.1", 1, "Robo", level="basic", seed="1", reactor=Clock())
    a, b = ClientPeer(factory, "Robo", client=bot.client), ClientPeer(factory, "Ivan")
    a.client.on_fairness = bot._on_fairness  # as Bot wires it (ClientPeer replaced it to record)
    _dealt(table, [a, b], clock)
    table.finish("host stopping")
    a.read()
    assert (bot.unfair, bot.checked) == (0, 0)
    assert [v.status for v in a.client.checker.verdicts] == [INTERRUPTED]
