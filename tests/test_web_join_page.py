"""The web join page names the table before you sit down (issue #10): ``GET /table.json`` over
the real HTTP stack in memory, and the page in headless Chromium (a screenshot to look at:
$FRAPNET_SCREENSHOTS/web-join-table.png) — the table's name and game shown as text, never as
markup; a player's name as the host cleaned it (issue #9, docs/protocol.md hello)."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransportWithDisconnection

from frapnet.net.config import TableConfig
from frapnet.net.server import HostFactory
from frapnet.net.table import Table
from frapnet.net.web import web_factory

sys.path.insert(0, str(Path(__file__).parent))
from test_web_browser import Host, browser, shots_dir, state, wait, pytestmark as browser_mark  # noqa: E402,F401

NAME = '<img src=x onerror="alert(1)"> & Пятница'  # 43 bytes of UTF-8: a table name may be 63


def get(path: bytes, table: Table) -> bytes:
    hf = HostFactory({table.name: table}, Clock())
    p = web_factory(hf, reactor=Clock(), names={"localhost"}).buildProtocol(IPv4Address("TCP", "127.0.0.1", 5555))
    tr = StringTransportWithDisconnection(peerAddress=IPv4Address("TCP", "127.0.0.1", 5555))
    tr.protocol = p
    p.makeConnection(tr)
    p.dataReceived(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
    return tr.value()


def test_issue10_table_json_names_the_table_and_its_game_in_the_asked_language():
    table = Table(TableConfig(name=NAME, players=4, pause=0.0, password="pw", nonce_time=0.0), clock=Clock(),
                  rng=random.Random(1))
    resp = get(b"/table.json?lang=ru", table)
    head, body = resp.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 200") and b"Content-Type: application/json; charset=utf-8" in head
    assert b"X-Content-Type-Options: nosniff" in head
    assert body == (b'{"tables": [{"name": "<img src=x onerror=\\"alert(1)\\"> & \\u041f\\u044f\\u0442\\u043d\\u0438'
                    b'\\u0446\\u0430", "game": "frap", "title": "\\u0424\\u0440\\u0430\\u043f", "players": 4, '
                    b'"seats_free": 4, "password": true}]}')
    assert json.loads(body)["tables"][0]["title"] == "Фрап"
    en = json.loads(get(b"/table.json", table).split(b"\r\n\r\n", 1)[1])["tables"][0]
    assert (en["title"], en["name"]) == ("Frap", NAME)
    assert json.loads(get(b"/table.json?lang=de", table).split(b"\r\n\r\n", 1)[1])["tables"][0]["title"] == "Frap"


@browser_mark
def test_issue10_the_join_page_names_the_table_and_game_as_text_issue9_names_as_the_host_cleaned_them(browser):
    from selenium.webdriver.common.by import By

    host = Host("--players", "2", "--bots", "1", "--seed", "8", "--name", NAME)
    d = browser(lang="ru")
    try:
        d.get(host.url)
        wait(lambda: d.find_element(By.ID, "join-table").is_displayed(), 10, "the table's line")
        assert d.find_element(By.ID, "join-table-name").text == NAME
        assert d.find_element(By.ID, "join-game").text == "Фрап"
        assert d.find_element(By.ID, "join-seats").text == "свободно мест: 1 из 2"
        assert d.find_element(By.ID, "join-table").text == f"{NAME} · Фрап · свободно мест: 1 из 2"
        assert d.execute_script("return document.querySelectorAll('#join img, body img').length") == 0
        d.save_screenshot(str(shots_dir() / "web-join-table.png"))
        # a name over the host's 32 characters (once cleaned) is refused on the page, as by frapnet join
        d.find_element(By.ID, "join-name").send_keys("Я" * 33)
        d.find_element(By.ID, "join-play").click()
        assert d.find_element(By.ID, "join-error").text == "В имени не больше 32 символов."
        assert state(d)["welcome"] is None
        d.find_element(By.ID, "join-name").clear()
        # a name with markup, a bidi override and a no-break space: seated as the host cleaned it, shown as text
        d.find_element(By.ID, "join-name").send_keys("<b>Ольга</b>\u202e\u00a0 X")
        d.find_element(By.ID, "join-play").click()
        wait(lambda: state(d)["view"] is not None, 20, "the first view")
        assert state(d)["view"]["names"][0] == "<b>Ольга</b> X"
        # read in one script: the seat table is drawn anew with every view (a computer player's move
        # between finding the cell and reading it left a stale element)
        name_cell = d.execute_script("return document.querySelector('#seats td.name').textContent")
        assert name_cell.startswith("<b>Ольга</b> X (вы)"), name_cell
        assert d.execute_script("return document.querySelectorAll('#seats b').length") == 0
        assert d.find_element(By.ID, "table-name").text == NAME
        d.save_screenshot(str(shots_dir() / "web-join-table-seated.png"))
    finally:
        host.stop()


@browser_mark
def test_issue10_a_russian_page_says_a_password_refusal_in_russian(browser):
    from selenium.webdriver.common.by import By

    host = Host("--players", "2", "--bots", "1", "--password", "kitchen")
    d = browser(lang="ru")
    try:
        d.get(host.url)
        wait(lambda: d.find_element(By.ID, "join-password").is_displayed(), 10, "the password field")
        d.find_element(By.ID, "join-name").send_keys("Ольга")
        d.find_element(By.ID, "join-password").send_keys("wrong")
        d.find_element(By.ID, "join-play").click()
        wait(lambda: d.find_element(By.ID, "join-error").text, 10, "the refusal")
        assert d.find_element(By.ID, "join-error").text == "Неверный пароль или пароль не указан."
        assert state(d)["welcome"] is None
    finally:
        host.stop()
