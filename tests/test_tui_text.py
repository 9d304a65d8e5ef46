"""The newcomer's findings about the clients' text (issues #9 and #10), without a terminal:
long words in the log pane, names, the Russian client's lines."""
from __future__ import annotations

import re

from frapnet.tui import render
from frapnet.tui.model import Screen
from frapnet.tui.text import width, wrap


# --- issue #10: long unbroken words in chat ------------------------------------------------------

def test_issue10_wrap_cuts_a_long_word_into_full_lines_with_room_for_the_indent():
    url = "https://example.com/" + "a" * 180
    assert wrap(f"<Olga> see {url} ok", 100, 98) == ["<Olga> see", url[:98], url[98:196], url[196:] + " ok"]
    assert wrap("b" * 45, 20) == ["b" * 20, "b" * 20, "b" * 5]
    assert wrap("ab cd ef", 5, 3) == ["ab cd", "ef"]
    assert wrap("漢字" * 6, 7) == ["漢字漢", "字漢字", "漢字漢", "字漢字"]  # wide characters: 2 cells each


def test_issue10_a_long_chat_word_in_the_log_pane_keeps_every_character_in_order():
    s = Screen()
    word = "x" * 250
    s.add_chat({"name": "Olga", "text": f"look {word}"})
    got = [text for _, text in render.log_rows(s, 80)]
    assert got == ["<Olga> look", "  " + "x" * 78, "  " + "x" * 78, "  " + "x" * 78, "  " + "x" * 16]
    assert "".join(r[2:] for r in got[1:]) == word


# --- issue #9: one rule for player names ------------------------------------------------------------

def test_issue9_clean_name_is_the_hosts_one_rule_and_the_hello_uses_it():
    from frapnet.net.protocol import MAX_NAME, MAX_NAME_SENT, ProtocolError, check_client_message, clean_name

    assert (MAX_NAME, MAX_NAME_SENT) == (32, 128)
    assert clean_name("Ol\x1b[31mga\x07\u202e") == "Ol[31mga"          # ESC, BEL and the bidi override go
    assert clean_name("  bot \t\n\u2028 1\u00a0\u3000x ") == "bot 1 x"      # every run of white space: one space
    assert clean_name("Zo\u200de") == "Zoe"                                 # zero-width joiner (Cf)
    assert clean_name("a" * 40) == "a" * 32
    assert clean_name("x" * 31 + " yz") == "x" * 31                         # no space left at the end of a cut
    assert clean_name("\x1b\x07\u202e \t") == ""
    for raw in ("Ol\x1b[31mga", "  bot \t 1 ", "Я" * 50):
        assert clean_name(clean_name(raw)) == clean_name(raw)
        hello = check_client_message({"type": "hello", "protocol": "1.0", "name": raw})
        assert hello["name"] == clean_name(raw)
    try:
        check_client_message({"type": "hello", "protocol": "1.0", "name": "a" * 129})
    except ProtocolError as exc:
        assert (exc.code, exc.message) == ("bad_message", "hello: field 'name' is longer than 128")
    else:
        raise AssertionError("a 129-character name was read")


def test_issue9_the_terminal_shows_the_name_the_host_sent_unchanged():
    """safe_name (the terminal's own guard) changes nothing in a name the host cleaned — for names
    made of letters, wide characters, spaces of every kind, controls, escapes and bidi overrides."""
    import random

    from frapnet.net.protocol import clean_name
    from frapnet.tui.text import safe_name

    rng = random.Random(9)
    alphabet = ["a", "Я", "漢", "é", "e\u0301", " ", "\t", "\n", "\u00a0", "\u2028", "\x1b[31m", "\x1b]0;x\x07",
                "\u202e", "\u200b", "\x9b", "\x7f", "<b>", "&amp;", "😀"]
    for _ in range(500):
        raw = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        name = clean_name(raw)
        if name:
            assert safe_name(name, 1000) == name, (raw, name)
            assert "\x1b" not in name and name.isprintable()


def test_issue9_local_name_inputs_stop_at_the_hosts_limit():
    from pathlib import Path

    from frapnet.commands._options import name_error
    from frapnet.net.protocol import MAX_NAME, MAX_NAME_SENT, name_problem

    assert name_problem("Olga") is None and name_problem("Я" * 32) is None and name_problem(" a\tb ") is None
    assert name_problem("Я" * 33) == "a player name is at most 32 characters (this one has 33)"
    assert name_problem("\x1b\u202e") == ("a player name must have a printable character (control characters "
                                          "are removed)")
    assert name_error("a" * 40) == ("--name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': a player name is at most 32 "
                                    "characters (this one has 40)")
    assert name_error("a" * 40, config_path=Path("/c.toml")) == (
        "bad config file /c.toml: name: a player name is at most 32 characters (this one has 40)")
    root = Path(__file__).resolve().parent.parent / "frapnet/net/web_assets"
    assert f'id="join-name" name="name" maxlength="{MAX_NAME_SENT}"' in (root / "index.html").read_text()
    assert f"const NAME_MAX = {MAX_NAME};" in (root / "app.js").read_text()


def test_issue9_frapnet_join_and_play_refuse_a_name_over_the_limit_before_connecting(tmp_path):
    import os
    import subprocess
    import sys

    env = dict(os.environ, FRAPNET_CONFIG=str(tmp_path / "c.toml"))
    (tmp_path / "c.toml").write_text('name = "' + "o" * 33 + '"\n')
    long = "Ольга" * 8  # 40 characters
    for args, want in (
            (["join", "127.0.0.1:9", "--name", long],
             f"frapnet join: --name '{long}': a player name is at most 32 characters (this one has 40)\n"),
            (["play", "--name", "\x07\u202e\t"],
             "frapnet play: --name '\\x07\\u202e\\t': a player name must have a printable character (control "
             "characters are removed)\n"),
            (["join", "127.0.0.1:9"],
             f"frapnet join: bad config file {tmp_path / 'c.toml'}: name: a player name is at most 32 characters "
             "(this one has 33)\n")):
        p = subprocess.run([sys.executable, "-m", "frapnet", *args], capture_output=True, text=True, timeout=30,
                           env=env, stdin=subprocess.DEVNULL)
        assert (p.returncode, p.stderr) == (2, want)


def test_issue9_the_chat_line_sends_at_most_what_the_host_keeps():
    from prompt_toolkit.output import DummyOutput

    from frapnet.net.protocol import MAX_CHAT
    from frapnet.tui.app import ClientApp

    sent = []
    ui = ClientApp(Screen(), chat=sent.append, output=DummyOutput())

    class Buffer:
        text = "  " + "é" * 700 + "  "
    ui._send_chat(Buffer())
    assert sent == ["é" * MAX_CHAT] and MAX_CHAT == 500


# --- issue #10: no English line in the Russian client ------------------------------------------------

CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def russian() -> Screen:
    from frapnet.tui import i18n
    return Screen(i18n.translation("ru").gettext, "ru")


def host_closing_reasons() -> set[str]:
    """Every literal reason the host closes a connection or a table with (``peer.close("…")``,
    ``table.finish("…")``, ``close(...)`` of any object) in frapnet/net and frapnet/hosting.py, and
    every reason named by a frapnet.net module's constant (``finish(amounts.PAST)``)."""
    import ast
    import importlib
    from pathlib import Path

    pkg = Path(__file__).resolve().parent.parent / "frapnet"
    out = set()
    for path in [*sorted((pkg / "net").glob("*.py")), pkg / "hosting.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("close", "finish") and node.args:
                arg = node.args[0]  # "reason", or  "a" if … else "b"
                for x in (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,):
                    if isinstance(x, ast.Constant) and isinstance(x.value, str):
                        out.add(x.value)
                    elif isinstance(x, ast.Attribute) and isinstance(x.value, ast.Name) and \
                            (pkg / "net" / f"{x.value.id}.py").exists():  # amounts.NEAR
                        value = getattr(importlib.import_module(f"frapnet.net.{x.value.id}"), x.attr)
                        assert isinstance(value, str), (x.value.id, x.attr)
                        out.add(value)
    return out


def test_issue10_every_host_error_and_closing_reason_reads_russian_in_the_russian_client():
    from frapnet.net.protocol import ERROR_CODES
    from frapnet.tui import i18n
    from frapnet.tui.text import ERROR_TEXTS

    ru = i18n.translation("ru").gettext
    assert set(ERROR_TEXTS) == set(ERROR_CODES) | {"closed"}
    po = i18n.parse_po((i18n.LOCALE_DIR / "ru/LC_MESSAGES/frapnet.po").read_text(encoding="utf-8"))
    untranslated = sorted(s for s in ERROR_TEXTS.values() if not CYRILLIC.search(po.get(s, "")))
    assert not untranslated, f"not translated in ru/LC_MESSAGES/frapnet.po: {untranslated}"
    assert ru(ERROR_TEXTS["stale"]) == "Поздно: за столом уже всё изменилось; выберите снова."
    reasons = host_closing_reasons()
    assert {"match over", "host stopping", "you left the table",
            "replaced by a new connection with this seat's token"} <= reasons, reasons
    s = russian()
    english = sorted(r for r in reasons if not CYRILLIC.search(s.closing_reason(r)))
    assert not english, f"closing reasons shown in English by the Russian client: {english}"
    assert s.closing_reason("replaced by a new connection with this seat's token") == \
        "это место заняло другое подключение с его жетоном"
    from frapnet.net.protocol import CLOSING_CODES, LEFT, REPLACED
    assert {REPLACED, LEFT} <= reasons and set(CLOSING_CODES) == {REPLACED, LEFT}  # the host's words, and their codes


def test_issue10_a_host_error_is_shown_in_the_clients_language():
    s = russian()
    s.add_error({"type": "error", "code": "stale", "message": "the action was made against state version 3; …",
                 "rule": None})
    s.add_error({"type": "error", "code": "illegal", "message": "you must follow suit", "rule": "F20"})
    assert [t for _, t in list(s.log)[-2:]] == ["Поздно: за столом уже всё изменилось; выберите снова.",
                                                "Хост отклонил ход: он нарушает правило. (F20)"]
    assert s.message == "Хост отклонил ход: он нарушает правило. (F20)"
    en = Screen()
    en.add_error({"type": "error", "code": "illegal", "message": "you must follow suit", "rule": "F20"})
    assert list(en.log)[-1] == ("error", "you must follow suit (F20)")  # English: the host's own words


def test_issue10_why_a_join_failed_in_russian():
    from twisted.internet import error
    from twisted.python.failure import Failure

    from frapnet.net.client import JoinError
    from frapnet.tui import i18n
    from frapnet.tui.text import join_problem

    ru = i18n.translation("ru").gettext
    refused = Failure(error.ConnectionRefusedError("Connection refused"))
    assert join_problem(refused, ru, "ru") == "по этому адресу и порту никто не отвечает"
    assert join_problem(Failure(JoinError("password", "wrong or missing password for table 'x'")), ru, "ru") == \
        "Неверный пароль или пароль не указан."
    assert join_problem(Failure(error.DNSLookupError("nowhere")), ru, "ru") == "компьютер с таким именем не найден"
    assert join_problem(Failure(JoinError("password", "wrong or missing password for table 'x'")), str, "en") == \
        "password: wrong or missing password for table 'x'"


def page_words() -> dict[str, str]:
    """The web page's Russian words (frapnet/net/web_assets/words.js, ``WORDS.ru``): English → Russian."""
    from pathlib import Path

    js = (Path(__file__).resolve().parent.parent / "frapnet/net/web_assets/words.js").read_text(encoding="utf-8")
    block = js[js.index("ru: {"):js.index("const ERRORS_RU")]
    return dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"', block))


def test_issue10_the_web_page_has_russian_words_for_the_hosts_closing_reasons():
    from pathlib import Path

    js = (Path(__file__).resolve().parent.parent / "frapnet/net/web_assets/app.js").read_text(encoding="utf-8")
    words = page_words()
    replaced = "replaced by a new connection with this seat's token"  # the page says its own sentence
    # closing's code, or from an older host the code of its exact reason (frapnet.net.protocol.CLOSING_CODES)
    assert 'if (closingCode(msg) === "replaced") {' in js
    assert '{ "replaced by a new connection with this seat\'s token": "replaced", "you left the table": "left" }' in js
    missing = sorted(r for r in host_closing_reasons() - {replaced} if not CYRILLIC.search(words.get(r, "")))
    assert not missing, f"closing reasons without a Russian word in app.js: {missing}"
    assert words["you left the table"] == "вы вышли из-за стола"
    from frapnet.net import amounts
    assert words[amounts.PAST] == ("следующий ход сделал бы счёт или кон длиннее 1000 цифр, которые передаёт "
                                   "протокол: партия кончается перед ним (F6)")


def test_issue10_every_english_table_of_host_words_has_a_russian_entry():
    """The host's own words tables (seat events, the engine's default ui words) and the web page's
    words: every English key has Russian text, and every t("…") of the page has a Russian entry."""
    from pathlib import Path

    from frapnet.engine import present
    from frapnet.net.seats import SEAT_EVENT_TEXT

    for table in (SEAT_EVENT_TEXT, present._WORDS):
        assert set(table["ru"]) == set(table["en"])
        assert all(CYRILLIC.search(v) for v in table["ru"].values()), table["ru"]
    root = Path(__file__).resolve().parent.parent / "frapnet/net/web_assets"
    js = "".join((root / name).read_text(encoding="utf-8") for name in ("app.js", "tableview.js"))
    words = page_words()
    shown = set(re.findall(r'\bt\("((?:[^"\\]|\\.)+)"', js))
    shown |= set(re.findall(r'data-tp?="([^"]+)"', (root / "index.html").read_text(encoding="utf-8")))
    assert {"Join the table", "{k} of {n} seats free", "A name has at most {n} characters."} <= shown
    assert sorted(s for s in shown if not CYRILLIC.search(words.get(s, ""))) == []


def test_issue10_the_web_page_says_each_host_error_in_the_same_russian_words_as_the_terminal():
    from pathlib import Path

    from frapnet.net.protocol import ERROR_CODES
    from frapnet.tui import i18n
    from frapnet.tui.text import ERROR_TEXTS

    js = (Path(__file__).resolve().parent.parent / "frapnet/net/web_assets/words.js").read_text(encoding="utf-8")
    block = js[js.index("const ERRORS_RU = {"):js.index("window.FrapnetWords = {")]
    page = dict(re.findall(r'(\w+): "([^"]*)"', block))
    ru = i18n.translation("ru").gettext
    assert set(page) == set(ERROR_CODES)
    assert {code: page[code] for code in page} == {code: ru(ERROR_TEXTS[code]) for code in page}


def test_the_amounts_limit_closing_reasons_read_russian_in_both_clients():
    """The two closing reasons of frapnet.net.amounts (the protocol's digit limit, F6): the Russian
    terminal's log line and the web page's words say them in Russian, the English as the host sent
    them, uncut (longer than the 80 cells an unknown reason is cut to)."""
    from pathlib import Path

    from frapnet.net import amounts

    assert {amounts.NEAR, amounts.PAST} <= host_closing_reasons()
    s = russian()
    s.set_closing({"type": "closing", "reason": amounts.NEAR, "result": {"balances": [5, -5], "pot": 0}})
    assert s.closed == ("в счёте или коне больше 990 цифр — почти 1000 цифр, которые передаёт протокол: "
                        "партия кончается после этой сдачи (F6)")
    assert any(t.startswith(f"Стол закрыт ({s.closed}).") for _k, t in s.log), list(s.log)  # the log line
    assert russian().closing_reason(amounts.PAST) == ("следующий ход сделал бы счёт или кон длиннее 1000 цифр, "
                                                      "которые передаёт протокол: партия кончается перед ним (F6)")
    en = Screen()
    en.set_closing({"type": "closing", "reason": amounts.PAST, "result": {}})
    assert en.closed == amounts.PAST and len(amounts.PAST) > 80
    assert Screen().closing_reason("x" * 100) == "x" * 79 + "…"  # an unknown reason: cut as before
    words = page_words()
    assert words[amounts.NEAR] == s.closed
    assert words[amounts.PAST] == russian().closing_reason(amounts.PAST)


def test_the_final_standings_printed_after_the_screen_fit_the_terminal_between_words():
    """A newcomer saw the note under the final standings broken by the terminal in the middle of
    a phrase, and the Russian one start a line with a comma: the lines are broken between words,
    indented under their line, and no wider than the terminal."""
    from frapnet.tui.text import fit_lines
    note = (" Deal 2 was not finished: 800 stays in the pot, unplayed; what the players paid into the pot is "
            "already counted in the balances above.")
    text = "Final standings — Frap, 1 deal played to the end (balance):\n   1. Olga   +300\n" + note
    for cols in (50, 80, 100):
        lines = fit_lines(text, cols).splitlines()
        assert all(width(ln) <= cols - 1 for ln in lines), (cols, lines)
        assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # every word, in order, none cut
        assert "   1. Olga   +300" in lines
    assert fit_lines(text, 80).splitlines()[3] == "  into the pot is already counted in the balances above."
