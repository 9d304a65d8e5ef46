"""A failed fairness check's detail in the Russian terminal client (frapnet/tui/fairtext.py):
every problem frapnet/net/dealcheck.py and frapnet/fairness.py write is one of its templates and
reads Russian; the Russian lines themselves; English unchanged."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from frapnet.net.dealcheck import MISMATCH, DealChecker, Verdict
from frapnet.tui import i18n
from frapnet.tui.fairtext import PROBLEMS, VALUES, problem_text
from frapnet.tui.model import Screen

PKG = Path(__file__).resolve().parent.parent / "frapnet"
CYRILLIC = re.compile("[а-яА-ЯёЁ]")
RU = i18n.translation("ru").gettext


def _sample(node) -> str | None:
    """A string constant, or an f-string with every {…} filled with "X"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    return None


def written_problems() -> tuple[set[str], set[str]]:
    """(the mismatch problems the two modules write, filled with "X"; the malformed-value names
    they pass to from_hex): DealChecker's ``_verdict(…, MISMATCH, text)`` and the first of the
    pairs ``_check_proof``/``_check_cards`` return; fairness's ``check_proof`` problems and
    FairnessError texts."""
    problems, values = set(), set()
    for node in ast.walk(ast.parse((PKG / "net/dealcheck.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name in ("_check_proof", "_check_cards"):
            for r in ast.walk(node):
                if isinstance(r, ast.Return) and isinstance(r.value, ast.Tuple):
                    problems.add(_sample(r.value.elts[0]))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "_verdict" and \
                getattr(node.args[1], "id", None) == "MISMATCH":
            problems.add(_sample(node.args[2]))
    for node in ast.walk(ast.parse((PKG / "fairness.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name == "check_proof":
            for r in ast.walk(node):
                if isinstance(r, ast.Return) and isinstance(r.value, ast.Tuple):
                    problems.add(_sample(r.value.elts[1]))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "FairnessError":
            problems.add(_sample(node.args[0]))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "from_hex" and len(node.args) == 3:
            values.add(_sample(node.args[2]))
    problems.discard(None)
    values.discard(None)
    return problems, values


def test_every_problem_the_checker_writes_reads_russian():
    problems, values = written_problems()
    assert len(problems) >= 17 and "X was shown as a turn-up, but the committed shuffle deals it to a hand" in problems
    assert {"commitment", "seed", "salt", "seat X's nonce", "seat X's nonce hash"} <= values
    unknown = sorted(p for p in problems if PROBLEMS.match(p) is None)
    assert not unknown, f"fairness problems without a template in frapnet/tui/fairtext.py: {unknown}"
    assert sorted(v for v in values if VALUES.match(v) is None) == []
    english = sorted(p for p in problems if not CYRILLIC.search(problem_text(p, RU, "ru")))
    assert not english, f"shown in English by the Russian client: {english}"
    po = i18n.parse_po((i18n.LOCALE_DIR / "ru/LC_MESSAGES/frapnet.po").read_text(encoding="utf-8"))
    assert sorted(t for t in PROBLEMS.templates + VALUES.templates + ("other cards",) if not po.get(t)) == []


@pytest.mark.parametrize("problem, russian", [
    ("the turn-up was 7S; the committed shuffle turns up KD", "вскрышкой была 7♠; обещанная тасовка даёт вскрышку К♦"),
    ("AH was shown as a turn-up, but the committed shuffle deals it to a hand",
     "Т♥ показана вскрышкой, но обещанная тасовка сдаёт её на руку"),
    ("you held QC, which the committed shuffle deals to another seat",
     "у вас была Д♣, а обещанная тасовка сдаёт её другому месту"),
    ("your hand held other cards, which the committed shuffle does not deal you (it deals you JS RJ)",
     "у вас на руке были другие карты, а обещанная тасовка их вам не сдаёт (она сдаёт вам В♠ КДж)"),
    ("the host never revealed its seed for this deal", "хост так и не раскрыл зерно тасовки этой сдачи"),
    ("seat 2's nonce does not match the hash it committed", "случайное число места 2 не совпадает с обещанным хешем"),
    ("seat 1's nonce hash must be 64 hex digits (32 bytes), not 'zz'",
     "хеш случайного числа места 1: нужна строка из 64 шестнадцатеричных цифр (32 Б), а не 'zz'"),
    ("salt must be 64 hex digits (32 bytes), not None", "соль: нужна строка из 64 шестнадцатеричных цифр (32 Б), а не None"),
])
def test_the_russian_detail_of_each_kind_of_problem(problem, russian):
    assert problem_text(problem, RU, "ru") == russian
    assert problem_text(problem, str, "en") == problem


def test_the_russian_screen_shows_a_forged_reveal_in_russian_and_an_unknown_problem_as_written():
    """A reveal whose commitment is not the one committed to (a real DealChecker): the Russian
    screen's log line and message; a problem of no template is shown as written, made safe."""
    c = DealChecker()
    c.welcome({"seat": 0, "game": "frap", "players": [{}, {}, {}, {}]})
    c.commit({"type": "shuffle_commit", "deal": 2, "commitment": "ab" * 32, "seats": []})
    c.view({"deal_no": 2, "dealer": 0})
    v = c.reveal({"type": "shuffle_reveal", "deal": 2, "proof": {"commitment": "cd" * 32}})
    assert v.bad and v.problem == "the reveal's commitment is not the one sent before the deal"
    s = Screen(RU, "ru")
    s.add_fairness(v)
    assert s.log[-1] == ("error", "⚠⚠ СДАЧА 2 НЕ ПРОШЛА ПРОВЕРКУ ЧЕСТНОСТИ: обязательство в раскрытии не то, что было "
                                  "прислано до сдачи")
    assert s.message == s.log[-1][1]
    s.add_fairness(Verdict(3, MISMATCH, "…", "something new\x1b[31m"))
    assert s.message == "⚠⚠ СДАЧА 3 НЕ ПРОШЛА ПРОВЕРКУ ЧЕСТНОСТИ: something new"


def test_the_web_page_says_why_a_deal_failed_in_russian():
    """The web page (web_assets): every problem fairness.js reports has Russian words in words.js's
    table, shown through app.js's t(); the one the terminal also says reads the same there."""
    root = PKG / "net/web_assets"
    app = (root / "app.js").read_text(encoding="utf-8")
    page_words = (root / "words.js").read_text(encoding="utf-8")
    problems = set(re.findall(r'problem: "([^"]+)"', (root / "fairness.js").read_text(encoding="utf-8")))
    assert problems == {"the reveal holds no seed and salt", "the seed or salt differs from the one committed",
                        "your own nonce is missing or changed in the reveal"}
    words = dict(re.findall(r'"((?:[^"\\]|\\.)+)":\s*"((?:[^"\\]|\\.)*)"',
                            page_words[page_words.index("ru: {"):page_words.index("const ERRORS_RU")]))
    assert {p: words.get(p) for p in problems} == {
        "the reveal holds no seed and salt": "в раскрытии нет зерна и соли",
        "the seed or salt differs from the one committed": "зерно или соль не те, что были обещаны",
        "your own nonce is missing or changed in the reveal": RU("your own nonce is missing or changed in the reveal")}
    assert '+ ": " + t(r.problem)' in app
