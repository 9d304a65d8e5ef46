"""The web page once its connection is over (frapnet/net/web_assets: app.js, tableview.js), as the
terminal client (tests/test_tui_screen_texts.py): the seat taken over by another connection with its
token, the host stopping, the connection given up — afterwards the page offers no move, counts no
turn clock down and marks nobody's turn; it says why.

The page's own scripts run unchanged under Node.js on a small stand-in for the browser
(tests/web_page_harness.js), fed real engine views, with a clock the test moves (ten minutes of
reconnecting pass at once); skipped without node. In Chromium: tests/test_web_browser.py (a tab
whose seat another tab took)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_tui_model import NAMES as NAMES_4, table, view  # noqa: E402

NODE = shutil.which("node") or shutil.which("nodejs")
ASSETS = Path(__file__).resolve().parent.parent / "frapnet" / "net" / "web_assets"
HARNESS = Path(__file__).resolve().parent / "web_page_harness.js"
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")

HOST_STOPPED = "The host stopped; the match is not over. This page takes your seat back by itself once the host is back."
OFFLINE = "The connection is lost — reconnecting…; you can play again once the table is back."
TAKEN = ("This seat was taken over by another connection with its token (another window or device, perhaps); "
         "the game goes on there.")
NOTHING = "Nothing can be played here any more; the table is shown as it was."


def page(steps, saved=True) -> dict:
    """Run the page on ``steps`` (see the harness); what it showed at each ``snap``. ``saved``: the
    page holds Olga's seat token and sits down by itself; else it opens on the join form."""
    inp = {"assets": str(ASSETS), "saved": {"frapnet@127.0.0.1:8080": {"token": "t0k", "name": "Olga"}} if saved else {},
           "steps": steps}
    r = subprocess.run([NODE, str(HARNESS)], input=json.dumps(inp), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def my_turn_with_a_clock() -> list:
    """Olga (seat 0) sits down; it is her turn to bid, with 20 s on the turn clock."""
    v = view(table(), 0)
    v.update(version=1, deadlines=[20.0, None, None, None])
    return [{"msg": {"type": "welcome", "seat": 0, "token": "t0k", "table": "test table", "players": 4}},
            {"msg": {"type": "view", "view": v}}]


def no_turn(shown: dict) -> bool:
    return not any("turn" in r["cls"].split() for r in shown["seats"])


def test_the_page_live_shows_the_turn_clock_counting_and_the_moves():
    """The baseline the closed page is compared with: "Your turn · turn clock 20 s" counting down,
    the moves as buttons, ▶ on Olga's row."""
    got = page(my_turn_with_a_clock() + [{"snap": "live"}, {"wait": 3}, {"snap": "later"}])
    live, later = got["live"], got["later"]
    assert live["turn"] == "Your turn · turn clock 20 s" and later["turn"] == "Your turn · turn clock 17 s"
    assert "Look at your cards" in live["actions"] and "Pass" in live["actions"]
    assert live["seats"][0]["cls"].split()[0] == "turn" and live["status"] == "connected"


def test_a_page_whose_seat_was_taken_over_offers_no_move_and_counts_no_clock():
    """Closing's code "replaced": the line says so, the hand and the moves are gone, nobody's row
    is marked to act, Olga's row says "taken over", and the clock's line does not change."""
    closing = {"type": "closing", "reason": "replaced by a new connection with this seat's token",
               "code": "replaced"}
    got = page(my_turn_with_a_clock() + [{"wait": 2}, {"msg": closing}, {"snap": "closed"}, {"wait": 5},
                                         {"click": "actions"}, {"snap": "later"}])
    closed, later = got["closed"], got["later"]
    assert closed["turn"] == TAKEN + NOTHING and closed["turnClass"] == "closed"
    assert "turn clock" not in closed["turn"] and later["turn"] == closed["turn"]
    assert closed["handHidden"] and closed["actions"] == [] and later["actions"] == []
    assert no_turn(closed) and "taken over" in closed["seats"][0]["text"]
    assert closed["status"] == "seat taken over"
    assert later["sent"].count("act") == 0  # nothing was played from the closed page


def test_a_page_whose_host_stopped_shows_the_result_and_no_move():
    """The host stops mid-deal (closing "host stopping", resumable): the line says the host stopped
    and the page takes the seat back by itself, the result is shown, no move, no turn, no clock;
    Olga's row says "disconnected"."""
    closing = {"type": "closing", "reason": "host stopping", "resumable": True,
               "result": {"balances": [-100, -100, -100, -100], "pot": 400}}
    got = page(my_turn_with_a_clock() + [{"snap": "open"}, {"msg": closing}, {"wait": 4}, {"snap": "closed"}])
    closed = got["closed"]
    assert closed["turn"] == HOST_STOPPED  # the seat waits for the host to resume the match
    assert closed["status"] == "connection lost — reconnecting…"  # not "table closed": the match goes on
    # the top bar keeps the deal's facts but not its phase: "bidding" would stay there for good
    assert "bidding" in got["open"]["facts"] and "bidding" not in closed["facts"] and "pot" in closed["facts"]
    # no "Result:" line and no "final" row: the match is not over, the host resumes it (a newcomer
    # read them as the match's end); the sheet's last row is the balances as last seen
    assert closed["actions"] == [] and closed["handHidden"] and "Result" not in closed["actionsText"]
    assert [r["cells"][0] for r in closed["sheet"]] == ["last seen"]
    assert no_turn(closed) and "disconnected" in closed["seats"][0]["text"] and "turn clock" not in closed["turn"]


def test_a_page_that_gives_up_reconnecting_says_so_and_offers_no_move():
    """The host is gone and does not come back: after ten minutes of retries the page stops,
    says the connection is closed (reload to try again) and, as after a closing, offers nothing."""
    got = page(my_turn_with_a_clock() + [{"close": True}, {"snap": "retrying"}, {"giveUp": True},
                                         {"snap": "gone"}])
    assert got["retrying"]["status"] == "connection lost — reconnecting…"
    gone = got["gone"]
    assert gone["status"] == "disconnected"
    assert gone["turn"] == "The connection is closed. Reload this page to try again." + NOTHING
    assert gone["actions"] == [] and gone["handHidden"] and no_turn(gone)


def test_a_page_whose_host_stopped_takes_its_seat_back_by_itself_when_the_host_resumes_issue_9():
    """A newcomer stopped the host with Ctrl-C (closing "host stopping", resumable) and ran the same
    command again: the page sat there saying "table closed" until every friend reloaded by hand.
    Now it keeps trying, as after a lost connection, and once a retry reaches the host it sends its
    hello with the seat's token and plays on."""
    closing = {"type": "closing", "reason": "host stopping", "resumable": True,
               "result": {"balances": [-100, -100, -100, -100], "pot": 400, "deals": 1, "unfinished": True}}
    v = view(table(), 0)
    v.update(version=2)
    got = page(my_turn_with_a_clock() + [
        {"msg": closing}, {"close": True}, {"wait": 1}, {"snap": "stopped"},
        {"wait": 3}, {"open": True}, {"snap": "retried"},
        {"msg": {"type": "welcome", "seat": 0, "token": "t0k", "table": "test table", "players": 4}},
        {"msg": {"type": "view", "view": v}}, {"snap": "back"}])
    stopped, retried, back = got["stopped"], got["retried"], got["back"]
    assert stopped["turn"] == HOST_STOPPED and stopped["actions"] == [] and stopped["handHidden"]
    assert retried["sockets"] >= 2 and retried["sentMsgs"][-1]["type"] == "hello"
    assert retried["sentMsgs"][-1]["token"] == "t0k"  # the same seat
    assert back["status"] == "connected" and back["turn"] == "Your turn"
    assert "Look at your cards" in back["actions"] and not back["handHidden"]


def test_while_the_connection_is_down_the_page_offers_no_move_and_counts_no_clock():
    """The host was killed (kill -9) while it was Olga's turn: the page still counted the turn clock
    down with live cards and buttons, and a move chosen then was lost without a word. Now the line
    says the connection is lost, no button is offered, a tapped card says why, and once the table
    is back the moves are too."""
    v = view(table(), 0)
    v.update(version=2, deadlines=[20.0, None, None, None])
    got = page(my_turn_with_a_clock() + [
        {"close": True}, {"wait": 2}, {"snap": "down"}, {"click": "actions"}, {"snap": "clicked"},
        {"wait": 3}, {"open": True},
        {"msg": {"type": "welcome", "seat": 0, "token": "t0k", "table": "test table", "players": 4}},
        {"msg": {"type": "view", "view": v}}, {"snap": "back"}])
    down, clicked, back = got["down"], got["clicked"], got["back"]
    assert down["status"] == "connection lost — reconnecting…"
    assert down["turn"] == OFFLINE and "turn clock" not in down["turn"]
    assert down["actions"] == [] and not down["handHidden"]
    assert clicked["sent"].count("act") == 0
    assert back["turn"] == "Your turn · turn clock 20 s" and "Pass" in back["actions"]


# --- the newcomer's report: leaving, the host stopping, the language, the score sheet, fairness --------

LEFT = {"type": "closing", "reason": "you left the table", "result": None, "code": "left"}


def test_leaving_says_so_once_and_not_that_the_table_closed():
    """"Leave the table": the page sends leave and says "You left the table." once — not again, in
    lower case, when the host's closing (code "left") answers; the badge says "left the table"
    (not "table closed", in no alarm colour: the others play on), the line above the hand says the
    game goes on without you, and the chat and the Leave button are gone."""
    got = page(my_turn_with_a_clock() + [{"snap": "before"}, {"press": "leave"}, {"snap": "asked"}, {"msg": LEFT},
                                         {"close": True}, {"wait": 30}, {"snap": "left"}])
    before, asked, left = got["before"], got["asked"], got["left"]
    assert not before["chatHidden"] and not before["leaveHidden"]
    assert asked["sent"][-1] == "leave" and asked["leaveHidden"] and asked["chatHidden"]
    assert [x["text"] for x in left["log"] if "left" in x["text"].lower()] == ["You left the table."]
    assert left["status"] == "left the table" and left["statusKind"] == "left"
    assert left["turn"] == "You left the table; the game goes on without you. To come back, reload this page." + NOTHING
    assert "table is closed" not in left["turn"].lower() and "left the table" in left["seats"][0]["text"]
    assert left["chatHidden"] and left["leaveHidden"] and left["actions"] == [] and left["handHidden"]
    assert left["sockets"] == 1 and left["sent"].count("hello") == 1  # no reconnecting after leaving
    # the last balances this page saw stay on the score sheet, said as such
    assert [r["cells"] for r in left["sheet"]] == [["when you left", "−100", "−100", "−100", "−100", "400"]]


def test_leaving_when_the_connection_drops_before_the_hosts_answer_does_not_sit_down_again():
    """The connection closes after "Leave the table" but before the host's closing: the page does
    not reconnect (its hello, without the dropped token, would take a seat again)."""
    got = page(my_turn_with_a_clock() + [{"press": "leave"}, {"close": True}, {"wait": 30}, {"snap": "gone"}])
    gone = got["gone"]
    assert gone["sockets"] == 1 and gone["sent"] == ["hello", "leave"] and gone["status"] == "left the table"
    assert gone["turn"].startswith("You left the table;") and gone["chatHidden"]


def test_leaving_in_russian():
    v = view(table(), 0, "ru")
    v.update(version=1)
    got = page([{"press": "lang-switch"}, {"msg": {"type": "welcome", "seat": 0, "token": "t0k", "players": 4}},
                {"msg": {"type": "view", "view": v}}, {"press": "leave"}, {"msg": LEFT}, {"snap": "left"}])
    left = got["left"]
    assert left["status"] == "вы вышли" and "стол закрыт" not in left["turn"].lower()
    assert [x["text"] for x in left["log"] if "вышли" in x["text"]] == ["Вы вышли из-за стола."]
    assert left["turn"].startswith("Вы вышли из-за стола; игра продолжается без вас.")


def test_the_host_stopping_is_said_once_and_the_score_sheet_keeps_its_rows_and_shows_the_result():
    """The host stops (closing "host stopping"): one sentence in the log — not that sentence and then
    a bare "host stopping" — and the score sheet keeps the deals it listed, the "now" row giving way
    to the host's final balances and pot (as the terminal's "final" row)."""
    v = view(table(), 0)
    v.update(version=3, deal_no=2, balances=[100, -300, -100, -100], pot=400,
             sheet=[{"deal": 1, "after": [200, -200, 0, 0], "pot": 0}])
    start = [{"msg": {"type": "welcome", "seat": 0, "token": "t0k", "table": "test table", "players": 4}},
             {"msg": {"type": "view", "view": v}}, {"snap": "live"}]
    result = {"balances": [100, -300, -100, -100], "pot": 400, "deals": 2, "unfinished": True}
    for resumable, said, badge in ((True, HOST_STOPPED, "connection lost — reconnecting…"),
                                   (False, "The table is closed: the host stopped.", "table closed")):
        closing = {"type": "closing", "reason": "host stopping", "result": result, "resumable": resumable}
        got = page(start + [{"msg": closing}, {"snap": "closed"}])
        live, closed = got["live"], got["closed"]
        assert [r["cells"] for r in live["sheet"]] == [["after deal 1", "+200", "−200", "0", "0", "0"],
                                                       ["now", "+100", "−300", "−100", "−100", "400"]]
        assert [x["text"] for x in closed["log"] if x["kind"] == "status"] == [said]
        assert not any("host stopping" in x["text"] for x in closed["log"])
        assert [(r["cls"], r["cells"]) for r in closed["sheet"]] == [
            ("", ["after deal 1", "+200", "−200", "0", "0", "0"]),
            ("final", ["final", "+100", "−300", "−100", "−100", "400"]) if not resumable else
            ("now", ["last seen", "+100", "−300", "−100", "−100", "400"])]  # resumed: no final yet
        assert closed["status"] == badge and closed["chatHidden"]


def test_the_score_sheet_shows_the_final_balances_when_the_table_closes_in_its_first_deal():
    """Closed in deal 1 (Ctrl-C of frapnet play --web): the sheet had only its "now" row; it now
    shows the final row, not just its header."""
    closing = {"type": "closing", "reason": "host stopping", "resumable": False,  # frapnet play: no journal
               "result": {"balances": [-100, -100, -100, -100], "pot": 400, "deals": 1, "unfinished": True}}
    got = page(my_turn_with_a_clock() + [{"msg": closing}, {"snap": "closed"}])
    assert [r["cells"] for r in got["closed"]["sheet"]] == [["final", "−100", "−100", "−100", "−100", "400"]]


def test_switching_language_at_the_table_sends_lang_and_does_not_reconnect():
    """RU/EN while seated: the page tells the host over the same connection ({"type": "lang"},
    docs/protocol.md "lang") — no second hello, no new connection (the others used to see "Olga is
    back"); a quick double click sends nothing. On the join form it sends nothing at all, and while
    reconnecting the next hello carries the language."""
    got = page(my_turn_with_a_clock() + [
        {"press": "lang-switch"}, {"wait": 1}, {"snap": "ru"},
        {"press": "lang-switch"}, {"press": "lang-switch"}, {"wait": 1}, {"snap": "double"},
        {"close": True}, {"press": "lang-switch"}, {"wait": 1}, {"open": True}, {"snap": "dropped"}])
    ru, double, dropped = got["ru"], got["double"], got["dropped"]
    assert ru["sockets"] == 1 and ru["sent"] == ["hello", "lang"] and ru["sentMsgs"][-1] == {"type": "lang", "lang": "ru"}
    assert ru["sentMsgs"][0]["lang"] == "en" and ru["turn"].startswith("Ваш ход")  # the page's own words at once
    assert double["sent"] == ["hello", "lang"]
    assert dropped["sockets"] == 2 and dropped["sent"] == ["hello", "lang", "hello"]
    assert dropped["sentMsgs"][-1]["lang"] == "en" and dropped["sentMsgs"][-1]["token"] == "t0k"
    join_form = page([{"press": "lang-switch"}, {"wait": 1}, {"snap": "form"}], saved=False)["form"]
    assert join_form["sockets"] == 0 and join_form["sent"] == []
    # switched after the hello went out, before its welcome: the language follows the welcome
    late = page([{"press": "lang-switch"}, {"wait": 1},
                 {"msg": {"type": "welcome", "seat": 0, "token": "t0k", "players": 4}}, {"snap": "w"}])["w"]
    assert [m["type"] for m in late["sentMsgs"]] == ["hello", "lang"] and late["sentMsgs"][0]["lang"] == "en"


def test_a_deal_whose_reveal_checks_is_said_in_the_terminals_words_as_a_success():
    """The fairness line (fairness.js checks the commitment and the page's own nonce; it has no
    rules engine for the cards): worded like the terminal's lines ("✓ deal N: …; cards not checked
    here"), logged as a success (app.css #log li.ok, green), not as a status (orange)."""
    import hashlib

    seed, salt = bytes(range(32)), bytes(range(32, 64))
    commit = {"type": "shuffle_commit", "deal": 1, "commitment": hashlib.sha256(seed + salt).hexdigest(), "seats": [1, 2, 3]}
    reveal = {"type": "shuffle_reveal", "deal": 1, "proof": {"seed": seed.hex(), "salt": salt.hex()}}
    for lang, said in (("en", "✓ deal 1: the host shuffled as it promised before the deal, with your random number "
                              "mixed in; cards not checked here"),
                       ("ru", "✓ сдача 1: хост перетасовал так, как обещал до сдачи, с вашим случайным числом; карты "
                              "здесь не проверены")):
        steps = [{"press": "lang-switch"}] if lang == "ru" else []
        got = page(steps + my_turn_with_a_clock()[:1] + [{"msg": commit}, {"msg": reveal}, {"snap": "s"}])["s"]
        assert got["log"][-1] == {"kind": "ok", "text": said}
        assert "commitment opened" not in said and "обязательство" not in said
    css = (ASSETS / "app.css").read_text(encoding="utf-8")
    assert "#log li.ok { color: var(--go); }" in css


# --- the newcomer's browser pass (2026-12-06): tricks, the turn-up, the match's end -------------------------

def _playing():
    """Deal 1 at trick 2: every seat stood pat (F15), seat 0 led and took the first trick (F19);
    Olga (seat 0) has led the second, the others still to play."""
    from test_tui_model import act, table as frap_table
    st = frap_table()
    for seat, verb in ((0, "frap"), (1, "whist"), (2, "whist"), (3, "whist")):
        st = act(st, seat, verb)
    while st.deal.phase != "play":
        st = act(st, st.to_act[0], "buy", ())
    from frapnet import engine
    for _ in range(5):  # a whole trick, and the first card of the next
        seat = st.to_act[0]
        st, _e = engine.apply(st, seat, engine.legal_actions(st, seat)[0])
    return st


def test_the_trick_before_stays_readable_while_the_next_is_played_F19():
    """Computer players lead again at once: the page showed a taken trick for under half a second
    and the newcomer never saw who took it. Now the trick before has its own line, its winner
    starred, while the next one is played."""
    from frapnet import engine
    st = _playing()
    v = view(st, 1)
    v.update(version=5)
    got = page([{"msg": {"type": "welcome", "seat": 1, "token": "t0k", "table": "test table", "players": 4}},
                {"msg": {"type": "view", "view": v}}, {"snap": "play"}])
    shown = got["play"]
    assert len(st.deal.trick) == 1 and len(st.deal.last_trick) == 4
    winner = NAMES_4[st.deal.last_winner]
    assert shown["lastTrick"].startswith("last trick: ") and f"{winner} " in shown["lastTrick"]
    assert shown["lastTrick"].count("★") == 1 and shown["trick"].count("★") == 0
    led = st.deal.trick[0]
    assert shown["trick"].startswith(NAMES_4[led[0]])
    assert engine.view(st, 1)["last_winner"] == st.deal.last_winner


def test_the_match_end_counts_the_rematch_question_down_and_shows_the_standings():
    """The rematch question said "Answer within 60 s" for a minute without counting, and no final
    standings showed; a rematch then wiped the score sheet before anyone saw who won. Now the
    seconds count down, the standings show under the question, and they stay in the log when the
    next match begins."""
    v = view(table(), 0)
    v.update(version=9, to_act=[], actions=[], match_over=True, balances=[300, -500, 100, 100], pot=0,
             sheet=[{"deal": 1, "after": [300, -500, 100, 100], "pot": 0}])
    got = page([{"msg": {"type": "welcome", "seat": 0, "token": "t0k", "table": "test table", "players": 4}},
                {"msg": {"type": "view", "view": v}},
                {"msg": {"type": "rematch_offer", "seconds": 60, "waiting": [0]}}, {"snap": "asked"},
                {"wait": 5}, {"snap": "later"}, {"msg": {"type": "rematch_start", "match": 2}}, {"snap": "next"}])
    asked, later, nxt = got["asked"], got["later"], got["next"]
    names = NAMES_4
    board = f"Final standings: 1. {names[0]} +300, 2. {names[2]} +100, 2. {names[3]} +100, 4. {names[1]} −500"
    assert "Answer within 60 s." in asked["turn"] and board in asked["turn"]
    assert "Answer within 55 s." in later["turn"]
    assert [x["text"] for x in nxt["log"] if x["kind"] == "status"][-2:] == [
        board, "Match 2 begins with the same seats."]


def test_back_from_a_lost_connection_the_page_forgets_the_offline_message_and_hides_leave_and_chat_meanwhile():
    """A newcomer tapped a card while the host was down ("The connection is lost…", right), and once
    the page was back — "connected", "Your turn", the moves — the red line still said the connection
    was lost. And "Leave the table" and the chat were offered while nothing could reach the host
    (the leave dropped the seat's token here and never reached the host, which held the seat)."""
    from test_tui_model import act
    st = act(table(), 0, "look")
    v = view(st, 0)
    v.update(version=2, deadlines=[20.0, None, None, None])
    welcome = {"type": "welcome", "seat": 0, "token": "t0k", "table": "test table", "players": 4}
    got = page([{"msg": welcome}, {"msg": {"type": "view", "view": v}}, {"snap": "live"},
                {"close": True}, {"wait": 1}, {"click": "hand"}, {"snap": "down"},
                {"wait": 3}, {"open": True}, {"msg": welcome}, {"msg": {"type": "view", "view": v}}, {"snap": "back"}])
    live, down, back = got["live"], got["down"], got["back"]
    assert st.to_act[0] == 0 and not live["leaveHidden"] and not live["chatHidden"]
    assert down["message"] == OFFLINE and down["leaveHidden"] and down["chatHidden"]
    assert down["sent"].count("act") == 0 and down["sent"].count("leave") == 0
    assert back["message"] == "" and back["status"] == "connected" and back["turn"].startswith("Your turn")
    assert not back["leaveHidden"] and not back["chatHidden"]
