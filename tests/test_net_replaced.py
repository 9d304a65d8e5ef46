"""A newcomer's report: two terminals of one user account — a second `frapnet join` under the same
--name takes the seat over with the saved token (the reconnect path, as intended), and the
replaced first client said "DEAL 1 FAILED THE FAIRNESS CHECK: the host never revealed its seed".

The host's ``closing`` to the replaced connection carries ``code`` ``"replaced"`` (docs/protocol.md
"closing"; ``"left"`` answers ``leave``); a deal that goes on without the connection is
"departed" — not checked there, never failed — and the connection that took the seat is shown the
reveal and checks it. The terminal client says plainly that the seat was taken over, keeps the
saved token, and shows no alarm. In-process here (the real server protocol over StringTransports,
the real TableClient); the terminal client in tmux against a real host is
tests/test_tui_tmux.py::test_a_second_join_under_the_same_name_takes_the_seat_over_and_the_first_says_so_without_a_fairness_alarm."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from frapnet import engine
from frapnet.net.dealcheck import DEPARTED, MISMATCH, OK, PARTIAL, DealChecker, Verdict
from frapnet.net.protocol import LEFT, REPLACED, closing_code
from frapnet.tui import i18n, tokens
from frapnet.tui.model import Screen
from frapnet.tui.render import status_bar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_net_resumable import ClientPeer, _closing, _dealt  # noqa: E402 - the host units, real TableClients
from test_fair_deal import _table  # noqa: E402

TAKEN_EN = ("This seat was taken over by another connection with its token (another terminal or window, perhaps); "
            "the game goes on there.")
TAKEN_RU = "Это место заняло другое подключение с его жетоном (наверное, другой терминал или окно); игра продолжается там."
DEPARTED_TEXT = ("deal 1 not checked here: this connection left it before the host revealed its shuffle "
                 "(the deal goes on without it)")


def _play_to_the_deal_end(table, peers, clock):
    """Every seat acts (the first legal action) through its own connection until deal 1 is over."""
    for _ in range(400):
        for p in peers:
            p.read()
        if table.state.deal_no > 1 or table.state.phase != engine.DEAL:
            break
        seat = table.state.to_act[0]
        action = engine.legal_actions(table.state, seat)[0]
        peer = next(p for p in peers if p.client.seat == seat)
        peer.send({"type": "act", "action": list(action), "version": table.state.version})
        clock.advance(0.05)
    else:
        raise AssertionError("deal 1 did not end")
    for _ in range(10):
        for p in peers:
            p.read()
        clock.advance(0.1)


def test_a_seat_taken_over_with_its_token_mid_deal_is_no_failed_check_and_the_new_connection_checks_it():
    table, factory, clock = _table(players=2, nonce_time=1.0)
    olga, ivan = ClientPeer(factory, "Olga"), ClientPeer(factory, "Ivan")
    _dealt(table, [olga, ivan], clock)
    assert olga.client.checker.deals[1].seen_view and olga.client.seat == 0
    token = olga.client.token
    # a second terminal of the same account: a new client, the saved token
    again = ClientPeer(factory, "Olga", token=token)
    again.read()
    olga.read()
    assert [(m["reason"], m["code"], m["result"], "resumable" in m) for m in _closing(olga)] == \
        [(REPLACED, "replaced", None, False)]
    assert [(v.deal, v.status, v.bad, v.problem, v.text) for v in olga.verdicts] == \
        [(1, DEPARTED, False, None, DEPARTED_TEXT)]
    assert olga.client.checker.deals == {} and tokens.keeps_seat(olga.client.closing) is True
    assert again.client.seat == 0 and again.client.token == token and table.seats[0].peer is again.proto
    # the deal goes on at the new connection, which is shown the reveal and checks it
    _play_to_the_deal_end(table, [again, ivan], clock)
    assert [(v.deal, v.status in (OK, PARTIAL), v.bad) for v in again.verdicts] == [(1, True, False)], \
        [v.text for v in again.verdicts]
    assert [(v.deal, v.status) for v in ivan.verdicts] == [(1, OK)]
    assert [m["type"] for m in olga.msgs].count("shuffle_reveal") == 0  # the old one never saw it: departed
    assert _closing(again) == [] and _closing(ivan) == []


def test_leaving_mid_deal_is_closing_code_left_and_no_failed_check():
    table, factory, clock = _table(players=2, nonce_time=1.0)
    olga, ivan = ClientPeer(factory, "Olga"), ClientPeer(factory, "Ivan")
    _dealt(table, [olga, ivan], clock)
    olga.send({"type": "leave"})
    olga.read()
    assert [(m["reason"], m.get("code")) for m in _closing(olga)] == [(LEFT, "left")]
    assert [(v.deal, v.status, v.bad) for v in olga.verdicts] == [(1, DEPARTED, False)]
    assert tokens.keeps_seat(olga.client.closing) is False  # the seat was given up


def test_a_computer_player_whose_seat_is_taken_over_counts_the_deal_neither_checked_nor_unfair():
    from twisted.internet.task import Clock

    from frapnet.bots.client import Bot
    table, factory, clock = _table(players=2, nonce_time=1.0)
    bot = Bot("127.0.0.1", 1, "Robo", level="basic", seed="1", reactor=Clock())
    a, b = ClientPeer(factory, "Robo", client=bot.client), ClientPeer(factory, "Ivan")
    a.client.on_fairness = bot._on_fairness  # as Bot wires it (ClientPeer replaced it to record)
    _dealt(table, [a, b], clock)
    ClientPeer(factory, "Robo", token=bot.client.token).read()
    a.read()
    assert [(m["code"], m["reason"]) for m in _closing(a)] == [("replaced", REPLACED)]
    assert (bot.unfair, bot.checked) == (0, 0)
    assert [v.status for v in a.client.checker.verdicts] == [DEPARTED]


def test_the_host_stopping_mid_deal_without_resuming_has_no_code_and_still_fails_the_check():
    """Only a deal that goes on without this connection is departed; the host ending it unrevealed
    (not resumable) is still the failure docs/fairness.md names."""
    table, factory, clock = _table(players=2, nonce_time=1.0)
    olga, ivan = ClientPeer(factory, "Olga"), ClientPeer(factory, "Ivan")
    _dealt(table, [olga, ivan], clock)
    table.finish("host stopping")
    olga.read()
    assert ["code" in m for m in _closing(olga)] == [False]
    assert [(v.status, v.problem) for v in olga.verdicts] == [(MISMATCH, "the host never revealed its seed for this deal")]


def test_closing_code_reads_the_field_or_an_older_hosts_exact_reason():
    assert closing_code({"type": "closing", "reason": "whatever", "code": "replaced"}) == "replaced"
    assert closing_code({"type": "closing", "reason": REPLACED, "result": None}) == "replaced"  # an older host
    assert closing_code({"type": "closing", "reason": LEFT}) == "left"
    assert closing_code({"type": "closing", "reason": "host stopping", "result": None}) is None
    assert closing_code({"type": "closing", "reason": "replaced by a new connection"}) is None  # not the exact words
    assert closing_code({"type": "closing"}) is None
    assert REPLACED == "replaced by a new connection with this seat's token" and LEFT == "you left the table"


def test_the_checker_departs_from_seen_unrevealed_deals_only_for_replaced_and_left():
    def seen():
        c = DealChecker()
        c.welcome({"seat": 0, "game": "frap", "players": [{}, {}]})
        c.commit({"type": "shuffle_commit", "deal": 1, "commitment": "ab" * 32, "seats": [0, 1]})
        c.view({"deal_no": 1, "hand": ["7S", "8S", "9S", "10S"], "dealer": 1})
        return c
    for code in ("replaced", "left"):
        assert [(v.deal, v.status, v.bad) for v in seen().closing(code=code)] == [(1, DEPARTED, False)]
    assert [(v.deal, v.status) for v in seen().closing(code="something newer")] == [(1, MISMATCH)]
    assert [(v.deal, v.status) for v in seen().closing()] == [(1, MISMATCH)]
    assert [(v.deal, v.status) for v in seen().closing(resumable=True, code="replaced")] == [(1, "interrupted")]


def test_the_terminal_client_says_the_seat_was_taken_over_in_english_and_russian_without_an_alarm():
    msg = {"type": "closing", "reason": REPLACED, "result": None, "code": "replaced"}
    for lang, taken, bar, reason in (("en", TAKEN_EN, "seat taken over", "this seat was taken over by another "
                                      "connection with its token"),
                                     ("ru", TAKEN_RU, "место занято другим подключением",
                                      "это место заняло другое подключение с его жетоном")):
        s = Screen(i18n.translation(lang).gettext, lang)
        before = len(s.log)
        s.add_fairness(Verdict(1, DEPARTED, DEPARTED_TEXT))  # TableClient reports it just before the closing
        s.set_closing(msg)
        press_q = "Press q to quit." if lang == "en" else "Нажмите q, чтобы выйти."
        assert list(s.log)[before:] == [("status", taken), ("status", press_q)]
        assert s.replaced is True and s.closed == reason and s.unfair == [] and s.message == ""
        right = "".join(t for _style, t in status_bar(s, 120))
        assert right.rstrip().endswith(bar) and "NOT FAIR" not in right and "НЕ" not in right
        assert s.standings_text() == taken  # printed on the restored terminal: no "final" standings, the match goes on
    old_host = Screen()
    old_host.set_closing({"type": "closing", "reason": REPLACED, "result": None})  # no code: its exact reason
    assert old_host.replaced is True and list(old_host.log)[-2] == ("status", TAKEN_EN)
    over = Screen()
    over.set_closing({"type": "closing", "reason": "match over", "result": {"balances": [1, -1], "pot": 0}})
    assert over.replaced is False and list(over.log)[-2][1].startswith("The table has closed (match over).")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_at_80_columns_the_status_bar_keeps_the_whole_connection_state_and_short_key_hints(lang):
    """The bottom line of an 80-column terminal: the connection's state (the Russian «место занято
    другим подключением», «связь потеряна — переподключаемся…») and a deal's fairness are never cut;
    when they leave too little room, the key hints are the short «? help · q quit», whole."""
    _ = i18n.translation(lang).gettext
    replaced = Screen(_, lang)
    replaced.set_closing({"type": "closing", "reason": REPLACED, "result": None, "code": "replaced"})
    lost = Screen(_, lang)
    lost.status = "reconnecting"
    lost.fair_deal = 12
    for s, state in ((replaced, _("seat taken over")), (lost, _("connection lost — reconnecting…"))):
        bar = "".join(t for _style, t in status_bar(s, 80))
        assert len(bar) == 80 and bar.rstrip().endswith(state), bar
        hints = bar.split("  ")[0].strip()
        assert hints in (_("? help · . last trick · = scores · q quit"),
                         _("? help · . last trick · = scores · Tab chat · q quit"), _("? help · q quit")), bar
    assert "".join(t for _style, t in status_bar(lost, 80)).count(_("✓ deal {n} fair").format(n=12)) == 1
