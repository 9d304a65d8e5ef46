"""A newcomer's report on the web page, in headless Chromium against real `frapnet host --web` /
`frapnet play --web` processes (tests/test_web_browser.py's helpers; the page's logic without a
browser: tests/test_web_page_node.py). Each test says what the page got wrong before.
Screenshots go to $FRAPNET_SCREENSHOTS (default: a temp dir)."""
from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_web_browser as tw  # noqa: E402
from test_web_browser import (ENV, FRAPNET, ROOT, Host, browser, buttons, join, my_turn,  # noqa: E402,F401
                              play_until, pytestmark, shots_dir, state, wait)

CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def by_id(d, i):
    from selenium.webdriver.common.by import By
    return d.find_element(By.ID, i)


def test_leaving_says_you_left_once_and_hides_the_chat(browser):
    """"Leave the table" said the table was closed — the badge "table closed", "The table is closed:
    you left the table" above the hand, and the log said it twice, the second time in lower case.
    The others play on: the page says you left, once, and hides the chat and the Leave button."""
    host = Host("--players", "4", "--bots", "3", "--level", "random", "--seed", "3", "--bot-delay", "0.2")
    d = browser()
    try:
        join(d, host.url, "Olga")
        wait(lambda: my_turn(d), 20, "our turn")
        assert by_id(d, "chat-form").is_displayed() and by_id(d, "leave").is_displayed()
        d.execute_script("window.confirm = () => true;")
        by_id(d, "leave").click()
        wait(lambda: state(d)["closed"] is not None, 10, "the host's answer to leave")
        time.sleep(0.5)
        s = state(d)
        assert s["closed"]["left"] is True and s["status"] == "closed"
        assert [x["text"] for x in s["log"] if "left" in x["text"].lower()] == ["You left the table."]
        assert by_id(d, "status").text == "left the table"
        assert by_id(d, "turn").text.splitlines() == [
            "You left the table; the game goes on without you. To come back, reload this page.",
            "Nothing can be played here any more; the table is shown as it was."]
        assert "closed" not in by_id(d, "turn").text.lower()
        assert not by_id(d, "chat-form").is_displayed() and not by_id(d, "leave").is_displayed()
        d.save_screenshot(str(shots_dir() / "web-left.png"))
    finally:
        host.stop()


def test_switching_language_mid_deal_keeps_the_connection(browser):
    """The seat's page switches EN → RU → EN mid-deal: the host's labels follow over the same
    connection (no new WebSocket: the page's connection counter stays 1), a spectator's log never
    says the seat came back, and the host refuses no nonce as late."""
    host = Host("--players", "3", "--bots", "2", "--seed", "7", "--bot-delay", "0.1")
    d, w = browser(), browser()
    try:
        join(w, host.url, "Watcher", watch=True)
        join(d, host.url, "Olga")
        wait(lambda: my_turn(d), 20, "our turn (deal 1 dealt and shuffled)")
        welcome = state(d)["welcome"]
        by_id(d, "lang-switch").click()
        wait(lambda: buttons(d) and all(CYRILLIC.search(lab) for _, _, lab in buttons(d)), 10, "Russian labels")
        assert re.search(CYRILLIC, state(d)["view"]["phase_label"]) and by_id(d, "turn").text.startswith("Ваш ход")
        d.save_screenshot(str(shots_dir() / "web-lang-ru.png"))
        by_id(d, "lang-switch").click()
        wait(lambda: buttons(d) and not any(CYRILLIC.search(lab) for _, _, lab in buttons(d)), 10, "English labels")
        time.sleep(1.0)
        s = state(d)
        assert d.execute_script("return window.frapnet.gen") == 1  # one WebSocket all along
        assert s["welcome"] == welcome and s["status"] == "connected"
        assert not [x for x in s["log"] if x["kind"] == "error"], s["log"]
        seen = [x["text"] for x in state(w)["log"]]  # a spectator's log: Olga joined once, and never came back
        assert len([x for x in seen if x.startswith("Olga joined")]) == 1 and not [x for x in seen if "is back" in x], seen
    finally:
        host.p.send_signal(signal.SIGTERM)
        try:
            _, err = host.p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            host.stop()
            raise
    assert "late" not in err and "is back" not in err, err[-3000:]


def test_the_score_sheet_keeps_its_rows_and_shows_the_final_balances_when_the_host_stops(browser, tmp_path):
    """`frapnet host` stopped (SIGTERM) in deal 2: the row after deal 1 stays, and the balances as
    the host stopped are the last row — the sheet used to show only its header. The host resumes
    the match (its journal), so that row is "last seen", not "final" (a newcomer read "final" and
    the "Result:" line as the match's end). The log says the host stopped once."""
    host = Host("--players", "3", "--bots", "2", "--level", "random", "--seed", "4", "--bot-delay", "0",
                "--pause", "0.2", "--db", str(tmp_path / "j.sqlite3"))
    d = browser()
    try:
        join(d, host.url, "Olga")
        play_until(d, lambda: (state(d)["view"] or {}).get("deal_no") == 2 and my_turn(d), random.Random(4),
                   {"shot"}, timeout=90)  # "shot": leave docs/web.md's web-desktop.png to its own test
        host.p.send_signal(signal.SIGTERM)
        wait(lambda: state(d)["closed"] is not None, 20, "the closing")
        res = state(d)["closed"]["result"]
        rows = d.execute_script("""return [...document.querySelectorAll("#sheet tbody tr")].map(
            (r) => [r.className, ...[...r.querySelectorAll("td")].map((td) => td.textContent)]);""")

        def sign(n):
            n = int(n)
            return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")
        assert rows[0][:2] == ["", "after deal 1"] and len(rows) == 2
        assert rows[-1] == ["now", "last seen", *[sign(b) for b in res["balances"]], str(res["pot"])]
        assert not d.find_elements("css selector", "#result")  # no "Result:": the match goes on
        log = [x["text"] for x in state(d)["log"] if x["kind"] == "status"]
        assert log[-1].startswith("The host stopped; the match is not over.") and "host stopping" not in " ".join(log)
        d.save_screenshot(str(shots_dir() / "web-host-stopped.png"))
    finally:
        host.stop()


def test_frapnet_play_web_interrupted_in_its_first_deal_shows_the_final_row(browser):
    """The report's case: Ctrl-C (SIGINT) of `frapnet play --web` in deal 1 — the sheet had only
    its "now" row, which went with the table; now the final balances are there."""
    p = subprocess.Popen(FRAPNET + ["play", "--web", "0", "--players", "3", "--seed", "2", "--bot-delay", "0"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=ROOT, env=ENV)
    d = browser(lang="ru")
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", p.stdout.readline()).group(0)
        join(d, url, "Ольга")
        wait(lambda: my_turn(d), 20, "our turn")
        assert d.execute_script('return document.querySelector("#sheet tbody tr.now td").textContent') == "сейчас"
        p.send_signal(signal.SIGINT)
        wait(lambda: state(d)["closed"] is not None, 20, "the closing")
        time.sleep(0.3)
        cells = d.execute_script("""return [...document.querySelectorAll("#sheet tbody tr")].map(
            (r) => [...r.querySelectorAll("td")].map((td) => td.textContent));""")
        res = state(d)["closed"]["result"]
        assert len(cells) == 1 and cells[0][0] == "в конце" and cells[0][-1] == str(res["pot"])
        d.save_screenshot(str(shots_dir() / "web-play-interrupted-ru.png"))
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate()


def test_no_status_badge_on_the_join_form(browser):
    """Before any connection the status badge is empty: it is not drawn at all (it showed as a small
    orange dash beside the RU/EN button), also after switching the language."""
    host = Host("--players", "2", "--bots", "1")
    d = browser()
    try:
        d.get(host.url)
        wait(lambda: by_id(d, "join-table").is_displayed(), 10, "the join form")
        assert not by_id(d, "status").is_displayed()
        by_id(d, "lang-switch").click()
        wait(lambda: by_id(d, "join-play").text == "Сесть за стол", 5, "Russian words")
        assert not by_id(d, "status").is_displayed()
        d.save_screenshot(str(shots_dir() / "web-join-ru.png"))
    finally:
        host.stop()


def header_gap(d) -> float:
    """Pixels between the end of the balance header's text and the start of the trick header's."""
    return d.execute_script("""
        const text = (th) => { const r = document.createRange(); r.selectNodeContents(th); return r.getBoundingClientRect(); };
        return text(document.querySelector("#seats th.trick-card")).left - text(document.querySelector("#seats th.amount")).right;""")


def test_the_balance_and_trick_headers_are_apart(browser):
    host = Host("--players", "4", "--bots", "3", "--seed", "3")
    try:
        for lang in ("en", "ru"):
            d = browser(lang=lang)
            join(d, host.url, "Olga" if lang == "en" else "Ольга", watch=True)
            wait(lambda: d.find_elements("css selector", "#seats th.trick-card"), 10, "the seats")
            assert header_gap(d) >= 8, header_gap(d)
    finally:
        host.stop()


def test_a_360_px_russian_page_keeps_the_seat_table_inside_its_panel(browser, monkeypatch):
    """At 360×640 in Russian the seat table ("игрок заявка взятки счёт …") stays inside its panel
    through a whole deal — bids such as "подрезка", a trick on the table, the dealer's mark — and the
    trick is the line under the table; nothing scrolls sideways."""
    monkeypatch.setattr(tw, "face", lambda card: "")  # the helper checks for an English card name on the button
    host = Host("--players", "4", "--bots", "3", "--level", "random", "--seed", "5", "--bot-delay", "0.1",
                "--pause", "0.3", "--deals", "1", "--rematch", "0")
    d = browser(width=360, height=640, lang="ru")
    worst, shot = [], []
    try:
        join(d, host.url, "Ольга")

        def done():
            m = d.execute_script("""
                const b = document.getElementById("board"), s = document.getElementById("seats");
                const pad = parseFloat(getComputedStyle(b).paddingRight), de = document.documentElement;
                return [de.scrollWidth - de.clientWidth, s.getBoundingClientRect().right - (b.getBoundingClientRect().right - pad),
                        ...[...s.querySelectorAll("th")].filter((th) => th.offsetParent).map(
                          (th) => th.getBoundingClientRect().right - (b.getBoundingClientRect().right - pad))];""")
            worst.append(max(m))
            v = state(d)["view"] or {}
            if v.get("last_trick") and not v.get("trick") and not shot:
                shot.append(d.save_screenshot(str(shots_dir() / "web-phone-ru.png")))
            # the trick's line names who played each card (read with the view it was drawn from)
            line, first = d.execute_script("""const v = window.frapnet.view || {};
                const t = (v.trick || []).length ? v.trick : (v.last_trick || []);
                return [document.getElementById("trick").textContent, t.length ? v.names[Number(t[0][0])] : null];""")
            assert first is None or line.startswith(first), (line, first)
            return state(d)["closed"] is not None
        play_until(d, done, random.Random(1), {"shot"}, timeout=120)  # not docs/web.md's web-desktop.png
    finally:
        host.stop()
    assert shot and max(worst) <= 0.5, max(worst)


LONG_SHEET = """
  const MP = window.MessagePack, ws = window.frapnet.ws, deliver = ws.onmessage;
  ws.onmessage = (ev) => {  // every view from now on as after 25 deals: the host's sheet of 25 rows
    const m = MP.decode(new Uint8Array(ev.data));
    if (!m || m.type !== "view" || !m.view) { deliver(ev); return; }
    const rows = [];
    for (let k = 1; k <= 25; k++) rows.push({deal: k, after: [-1300 * k, 0, 1300 * k, 2600 * k - 400 * (k % 3)], pot: 400 * (k % 3)});
    m.view.sheet = rows; m.view.sheet_base = null;
    const b = MP.encode(m);
    deliver({data: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)});
  };"""


def test_a_long_score_sheet_never_pushes_the_hand_below_the_window(browser, tmp_path):
    """A newcomer at deal 22 on a 1280×800 desktop (657 px of page) found "Your turn", the cards
    and the buttons below the window: the side column (score sheet, log) set the height of the
    seat table's row, and each deal pushed the hand down; the turn clock ran out and the computer
    whisted for them. Now the hand sits under the seat table whatever the side column holds, the
    score sheet scrolls within its box, its names over the columns, the latest deal in view; on a
    390 px phone the sheet scrolls sideways rather than cutting figures ("2000" read "200")."""
    for width, height in ((1280, 657), (390, 700)):
        host = Host("--players", "4", "--bots", "3", "--level", "random", "--seed", "5", "--bot-delay", "0.1",
                    "--db", str(tmp_path / f"journal-{width}.sqlite3"))  # (else the second resumes the first's match)
        try:
            d = browser(width=width, height=height)
            join(d, host.url, "Olga")
            wait(lambda: my_turn(d), 20, "our turn")
            d.execute_script(LONG_SHEET)
            by_id(d, "lang-switch").click()  # the host sends the view again (in Russian), now with 25 rows
            wait(lambda: d.execute_script("return document.querySelectorAll('#sheet tbody tr').length") >= 25, 10,
                 "the 25 rows")
            d.save_screenshot(str(shots_dir() / f"long-sheet-{width}.png"))
            box = d.execute_script("""
                const r = (i) => document.getElementById(i).getBoundingClientRect();
                const w = document.getElementById('sheet-wrap'), last = document.querySelector('#sheet tbody tr:last-child');
                const head = document.querySelector('#sheet thead th').getBoundingClientRect();
                return {hand: r('hand').bottom, actions: r('actions').bottom, inner: innerHeight, innerW: innerWidth,
                        wrapTop: w.getBoundingClientRect().top, wrapBottom: w.getBoundingClientRect().bottom,
                        wrapRight: w.getBoundingClientRect().right, headTop: head.top, lastBottom: last.getBoundingClientRect().bottom,
                        scrollW: w.scrollWidth, clientW: w.clientWidth};""")
            if width > 900:  # two columns: the hand and its buttons in the window
                assert box["actions"] <= box["inner"], box
            assert box["wrapRight"] <= box["innerW"]  # the sheet's box inside the page: figures scroll, never cut
            assert abs(box["headTop"] - box["wrapTop"]) < 2  # the names stay over their columns
            assert box["lastBottom"] <= box["wrapBottom"] + 1  # the latest row ("now") in view
            assert box["wrapBottom"] - box["wrapTop"] < 400  # the sheet's own box, not the page, grows
            buttons_text = [b.text for b in d.find_elements("css selector", "#actions button.act")]
            assert buttons_text, "the moves are offered"
        finally:
            host.stop()
