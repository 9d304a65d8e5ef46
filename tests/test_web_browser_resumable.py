"""Issue #9 for the web page, in headless Chromium against real `frapnet host --web` processes
(tests/test_web_browser.py's helpers):

- the RU/EN switch mid-deal: it used to open a new connection, the page answered the shuffle it
  was sent again with its own nonce and the host said ``late`` ("nonce: no shuffle is waiting for
  an answer now") in the page's log and message line; now the page sends ``lang`` over the same
  connection (docs/protocol.md "lang"), and no error shows either way;
- the host stopped with SIGTERM mid-deal (closing with ``resumable``) used to make the page
  drop its seat token from localStorage; now it keeps it, says so in the page's language, and
  once the same host command runs again the page takes the seat back by itself (a reload too)."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_web_browser import (ENV, FRAPNET, ROOT, URL_LINE, _free_port, browser, join,  # noqa: E402,F401
                              my_turn, pytestmark, state, wait)


def _host(port: int, web: int, db: Path) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen(FRAPNET + ["host", "--port", str(port), "--bind", "127.0.0.1", "--no-announce",
                                    "--web", str(web), "--players", "2", "--bots", "1", "--seed", "7",
                                    "--db", str(db), "--grace", "120", "--pause", "0.2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV)
    p.stdout.readline()
    m = URL_LINE.match(p.stdout.readline() or "")
    if m is None:
        p.kill()
        raise AssertionError(p.communicate()[1][-3000:])
    return p, m.group(1)


def _stored(d) -> dict:
    return d.execute_script('return JSON.parse(localStorage.getItem("frapnet@" + location.host) || "{}")')


def test_the_page_hides_late_after_a_language_switch_and_keeps_its_seat_when_the_host_resumes_issue_9(
        browser, tmp_path):
    from selenium.webdriver.common.by import By

    port, web, db = _free_port(), _free_port(), tmp_path / "j.sqlite3"
    p, url = _host(port, web, db)
    q = None
    d = browser()
    try:
        join(d, url, "Olga")
        wait(lambda: my_turn(d), 20, "our turn (deal 1 dealt)")
        before = state(d)
        seat, token = before["welcome"]["seat"], before["welcome"]["token"]
        d.find_element(By.ID, "lang-switch").click()  # → RU: the host's texts in Russian, same connection
        wait(lambda: d.execute_script("return document.documentElement.lang") == "ru"
             and state(d)["status"] == "connected"
             and state(d)["view"] is not None, 15, "the page back at the seat in Russian")
        time.sleep(1.0)  # the host's answer to the nonce sent again has come by now
        s = state(d)
        assert s["welcome"]["seat"] == seat
        errors = [e["text"] for e in s["log"] if e["kind"] == "error"]
        assert errors == [], errors  # was ["nonce: no shuffle is waiting for an answer now"]
        assert "no shuffle" not in d.find_element(By.TAG_NAME, "body").text
        p.send_signal(signal.SIGTERM)  # HostHandle.stop → closing with resumable
        assert p.wait(20) == 0
        wait(lambda: state(d)["closed"] is not None, 10, "the closing")
        log = [e["text"] for e in state(d)["log"]]
        assert "Хост остановлен; партия не окончена. Когда хост снова заработает, эта страница сама вернёт вас " \
               "на ваше место." in log, log
        assert state(d)["closed"]["resumable"] is True
        # stopped in deal 1: the ledger as it stands, the antes in the pot (F6) — shown as the sheet's
        # last row as last seen, with no "Result:" line: the match is not over, the host resumes it
        res = state(d)["closed"]["result"]
        assert (res["deals"], res["unfinished"]) == (1, True) and sum(res["balances"]) + res["pot"] == 0
        assert not d.find_elements(By.ID, "result") and not d.find_elements(By.ID, "result-pot")
        last = d.execute_script("return [...document.querySelectorAll('#sheet tbody tr')].pop().className")
        assert last == "now"
        assert _stored(d).get("token") == token  # kept (was null)
        q, url2 = _host(port, web, db)  # the same command: the journal resumes the match
        assert url2 == url
        # no reload: the page keeps trying and takes the seat back by itself (a newcomer's friends
        # all had to reload by hand)
        wait(lambda: state(d)["status"] == "connected" and state(d)["closed"] is None, 30, "the seat back by itself")
        assert state(d)["welcome"]["seat"] == seat and state(d)["welcome"]["token"] == token
        d.refresh()  # and a reload still works
        wait(lambda: (state(d)["welcome"] or {}).get("seat") is not None, 20, "the seat after the reload")
        assert state(d)["welcome"]["seat"] == seat and state(d)["welcome"]["token"] == token
    finally:
        for x in (p, q):
            if x is not None and x.poll() is None:
                x.kill()
                x.communicate()
