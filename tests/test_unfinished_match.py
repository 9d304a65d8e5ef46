"""A match that ends in the middle of a deal (docs/rules/frap.md "What frapnet decided" 7, F28;
F5, F6): the host stopped, or the player quit their own table (`frapnet play`, `host --play`).

The newcomer's report: deal 1 settled, deal 2 dealt (its antes paid into the pot), then q, y —
the final standings said a balance with deal 2's ante taken off and nothing of the pot that held
it, while docs/hosting.md said "nobody pays for it". Decided: the deal stays unfinished (no trick
money, no remise, nothing given back); the result is the ledger as it stands — the balances and
the pot, adding up to 0 (F6), which is what `frapnet replay` of the record gives — and every
place that shows the result shows the pot with it and names the unfinished deal: the host's
result (``unfinished``), the terminal client's final standings and closing line, the web page.

In-process here (the host's Table over StringTransports, the terminal client's Screen fed what
seat 0 was sent); tests/test_match_end_tmux.py drives `frapnet play` and `host --play` in tmux.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from frapnet import engine, record
from frapnet.tui import i18n
from frapnet.tui.model import Screen

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_journal import play_random  # noqa: E402 - random legal play until a condition
from test_net_host import make, seat_all  # noqa: E402 - the StringTransport client of the host units


def _stopped_in_deal_2(seed: int, lang: str = "en"):
    """Four seats P0…P3 (ante 100) play deal 1 at random to its end; deal 2 is dealt (its antes
    paid when deal 1 left the pot empty, F5) and the host stops there, as `frapnet play` does when
    its player quits (frapnet.tui.app.run_local). Returns ``(table, conns, balances after deal 1,
    pot after deal 1)``; ``lang``: the players' language."""
    table, factory, clock = make(4)
    conns = seat_all(factory, 4, lang=lang)
    play_random(table, conns, clock, random.Random(seed), 2000,
                until=lambda: table.state.deal_no == 2 and table.state.phase == engine.DEAL)
    assert table.state.deal_no == 2 and table.state.phase == engine.DEAL
    rep = table.state.reports[0]
    table.finish("host stopping")
    for c in conns:
        c.read()
    return table, conns, rep["balances"], rep["pot_after"]


def _screen(conn, lang="en") -> Screen:
    """The terminal client's screen model after everything ``conn`` was sent."""
    s = Screen(i18n.translation(lang).gettext, lang)
    for m in conn.log:
        if m["type"] == "welcome":
            s.set_welcome(m)
        elif m["type"] == "view":
            s.set_view(m["view"])
        elif m["type"] == "event":
            s.add_event(m["event"])
        elif m["type"] == "closing":
            s.set_closing(m)
    return s


@pytest.mark.parametrize("seed, after_1, pot_1, balances, pot", [
    # deal 1 left the pot empty: deal 2's antes (F5) are in the pot, taken from every balance
    (2, [100, 100, -100, -100], 0, [0, 0, -200, -200], 400),
    # deal 1's remises made deal 2's pot (F24): no antes; the unplayed pot holds the remises
    (4, [0, -900, 0, 100], 800, [0, -900, 0, 100], 800),
], ids=["antes", "remises"])
def test_a_match_stopped_in_deal_2_reports_the_ledger_as_it_stands_F28_F6(seed, after_1, pot_1, balances, pot):
    table, conns, got_after_1, got_pot_1 = _stopped_in_deal_2(seed)
    assert (got_after_1, got_pot_1) == (after_1, pot_1)
    res = table.result
    assert res["deals"] == 2 and res["unfinished"] is True and res["match_over"] is False
    assert (res["balances"], res["pot"]) == (balances, pot) and sum(balances) + pot == 0  # F6
    # the record keeps the unfinished deal and replays to exactly that result
    rep = record.replay_json(engine.record(table.state))
    assert rep["ok"] and (rep["balances"], rep["pot"]) == (balances, pot)
    assert [d["outcome"] for d in rep["deals"]] == [table.state.reports[0]["outcome"], "unfinished"]
    assert rep["deals"][1]["pot_after"] == pot
    closing = [m for m in conns[0].log if m["type"] == "closing"]
    assert [c["result"] for c in closing] == [res]


def test_the_terminal_standings_show_the_unplayed_pot_and_the_unfinished_deal_F28():
    """The newcomer's report, seed 2: P0 settled deal 1 at +100; deal 2's ante makes the ledger
    0, and the 400 of antes is in the pot. The standings (printed on the restored terminal) and
    the closing line in the log say so, with the host's figures."""
    table, conns, _, _ = _stopped_in_deal_2(2)
    s = _screen(conns[0])
    assert s.standings_text().splitlines() == [
        "Final standings — Frap, 1 deal played to the end (balance):",
        "   1. P0  0",
        "   1. P1  0",
        "   3. P2  −200",
        "   3. P3  −200",
        " Deal 2 was not finished: 400 stays in the pot, unplayed; what the players paid into the pot is "
        "already counted in the balances above.",
    ]
    closed = [t for k, t in s.log if t.startswith("The table has closed")]
    assert closed == ["The table has closed (the host is stopping). Final balances: P0 0, P1 0, P2 −200, P3 −200. "
                      "Deal 2 was not finished: 400 stays in the pot, unplayed; what the players paid into the "
                      "pot is already counted in the balances above."]
    _, ru_conns, _, _ = _stopped_in_deal_2(2, "ru")
    ru = _screen(ru_conns[0], "ru").standings_text().splitlines()
    assert ru[0] == "Итог партии — Фрап, доиграно сдач: 1 (счёт):"
    assert ru[-1] == " Сдача 2 не доиграна, неразыгранным осталось: кон 400; то, что игроки внесли в кон, уже " \
                     "учтено в счёте выше."


def test_standings_of_a_match_that_ended_with_chips_in_the_pot_say_what_is_left_F24():
    """A match over between deals (the deals asked for) with remises in the pot for a deal never
    dealt: the standings say what is left in it — before, only the balances (F6: they and the
    pot add up to 0)."""
    s = Screen()
    st = engine.new_match("frap", 2, {})
    v = engine.view(st, 0)
    v.update(names=["Olga", "Ivan"], balances=[-300, -500], deal_no=1)
    s.set_view(v)
    s.scores = {1: {"net": [-300, -500], "after": [-300, -500]}}
    s.set_closing({"type": "closing", "reason": "match over",
                   "result": {"deals": 1, "match_over": False, "unfinished": False, "balances": [-300, -500],
                              "pot": 800}})
    assert s.standings_text().splitlines() == ["Final standings — Frap, 1 deal (balance):", "   1. Olga  −300",
                                               "   2. Ivan  −500", " 800 is left in the pot, unplayed."]


def test_standings_from_an_older_host_without_unfinished_or_pot_are_as_before():
    s = Screen()
    st = engine.new_match("frap", 2, {})
    v = engine.view(st, 0)
    v.update(names=["Olga", "Ivan"], balances=[100, -100], deal_no=1)
    s.set_view(v)
    s.scores = {1: {"net": [100, -100], "after": [100, -100]}}
    s.set_closing({"type": "closing", "reason": "match over", "result": {"balances": [100, -100]}})
    assert s.standings_text().splitlines() == ["Final standings — Frap, 1 deal (balance):", "   1. Olga  +100",
                                               "   2. Ivan  −100"]


NODE = shutil.which("node") or shutil.which("nodejs")
WEB = Path(__file__).resolve().parent.parent / "frapnet" / "net" / "web_assets"
_PAGE = r"""
const fs = require("fs");
global.window = {};
for (const f of ["words.js", "tableview.js"]) eval(fs.readFileSync(process.argv[1] + "/" + f, "utf8"));
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const lang = input.lang, WORDS = window.FrapnetWords.WORDS;
// app.js's own helpers, as it hands them to window.FrapnetDraw
const isInt = (x) => typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));
function amount(x, signed) {
  if (!isInt(x)) return "";
  const s = BigInt(x).toString();
  if (!signed) return s.replace("-", "−");
  return s.startsWith("-") ? "−" + s.slice(1) : (s === "0" ? "0" : "+" + s);
}
function t(s, args) {
  let out = (WORDS[lang] && WORDS[lang][s]) || s;
  for (const k in args || {}) out = out.split("{" + k + "}").join(String(args[k]));
  return out;
}
const D = window.FrapnetDraw({ S: { view: input.view }, t: t, lang: () => lang, plain: (x) => String(x),
  cleanName: (x) => String(x), isInt: isInt, amount: amount });
process.stdout.write(JSON.stringify(D.unplayed(input.result)));
"""


def page_says(view: dict, result: dict, lang: str = "en") -> str:
    """What the web page (tableview.js's ``unplayed``, under node) says under its result line."""
    p = subprocess.run([NODE, "-e", _PAGE, str(WEB)], input=json.dumps({"lang": lang, "view": view, "result": result}),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")
def test_the_web_page_says_the_same_under_its_result_line_F28():
    """The web page's closed table: under "Result: P0 0, …" the same sentence as the terminal's
    standings, from the same closing result (the page's own words; Russian from words.js)."""
    for lang in ("en", "ru"):
        _, conns, _, _ = _stopped_in_deal_2(2, lang)
        closing = next(m for m in conns[0].log if m["type"] == "closing")
        s = _screen(conns[0], lang)
        assert page_says(conns[0].view, closing["result"], lang) == s.unplayed_sentence() != ""
    assert s.unplayed_sentence() == ("Сдача 2 не доиграна, неразыгранным осталось: кон 400; то, что игроки внесли в кон, "
                                     "уже учтено в счёте выше.")
    view = conns[0].view
    over = {"deals": 1, "unfinished": False, "match_over": False, "balances": [-300, -500, 0, 0], "pot": 800}
    assert page_says(view, over, "ru") == "Осталось неразыгранным: кон 800."
    assert page_says(view, dict(over, pot=0)) == ""
    assert page_says(view, {"balances": [1, -1]}) == ""  # an older host: the result line alone, as before
