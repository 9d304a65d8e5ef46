"""What the screen says to someone who has never seen the game (a newcomer's first `./run play`):
plain words instead of rule IDs, the cut-in explained, changes of a balance signed beside stocks
shown as the seat table shows them, the score sheet's brackets explained, one term for the turn
clock — in English and Russian, on the terminal and (where it shows the same) the web page.

Rule IDs (F20, N6, K7, L11…) stay in the rule books, the docs and the errors for developers
(RuleError, the host's ``error`` messages, the CLI); nothing a player reads on the table names one.
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from frapnet import engine
from frapnet.plugins import default_registry

sys.path.insert(0, str(Path(__file__).parent))

RULE_ID = re.compile(r"\b[FNKL]\d{1,2}\b")
GAMES = ("frap", "napoleon", "frak_you", "la_krap")


def _strings(x):
    """Every string inside a view's ``ui`` map or an action list (keys and values)."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)


def _player_texts(game: str, lang: str, seed: int, deals: int, options=None):
    """Every text a player of ``game`` reads over ``deals`` random deals: each seat's ``ui`` map
    and action labels at every step, and every event's log line."""
    reg = default_registry()
    if game not in reg.games:
        pytest.skip(f"{game} is not installed")
    st = engine.new_match(game, 4, options or {}, registry=reg)
    rng = random.Random(seed)
    names = ["Olga", "Ivan", "Pyotr", "Anna"]
    out = []
    pack = engine.pack(st)
    for _ in range(deals):
        if st.phase == engine.OVER:
            break
        deck = pack[:]
        rng.shuffle(deck)
        st, events = engine.start_deal(st, deck, rng.randrange(4) if st.dealer is None else None)
        while True:
            out += [engine.describe_event(st, ev, names, lang) or "" for ev in events]
            for seat in range(4):
                v = engine.view(st, seat, lang)
                out += list(_strings(v["ui"])) + [a["label"] for a in v["actions"]]
            if st.phase != engine.DEAL:
                break
            seat = st.to_act[0]
            st, events = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_rule_id_in_any_text_a_player_reads(game, lang):
    """The goal, special cards, legend, refusals, hints, settlement columns, action labels and log
    lines of every game say the rule in words, never by its ID ("follow suit ♥", not "(F20)")."""
    options = {"revoke": "penalize"} if game == "frap" else {}
    texts = _player_texts(game, lang, seed=5, deals=6, options=options)
    if game == "frap":
        texts += _player_texts(game, lang, seed=6, deals=6)  # revoke refused: the follow-suit refusals
    found = sorted({t for t in texts if RULE_ID.search(t)})
    assert not found, found


def test_a_card_refused_says_the_rule_in_words_in_both_languages():
    """Following suit: why Q♠ cannot be played, said as the rule itself (no "(F20)")."""
    from test_tui_model import act, screen_at, table
    st = table()
    st = act(st, 0, "frap")
    for seat in (1, 2, 3):
        st = act(st, seat, "whist")
    for seat in (0, 1, 2, 3):
        st = act(st, seat, "buy", ())
    st = act(st, 0, "play", "7H")  # Olga leads ♥; Ivan holds Q♠ 9♥ 10♦ 7♣
    en, ru = screen_at(st, 1), screen_at(st, 1, "ru")
    en.press("2")
    ru.press("2")
    assert en.message == "Q♠ cannot be played now: you must follow suit ♥"
    assert ru.message == "Д♠ сейчас нельзя: нужно ходить в масть ♥"


# --- the cut-in explained ---------------------------------------------------------------------------

CUT_IN = {"en": "Cut-in: after buying, a player who passed may come back in: swap the four cards for five from the "
                "talon (or the turn-up and four), discard one; then, like a whister, take a trick or pay a remise.",
          "ru": "Подрезка: после прикупки спасовавший может вернуться в игру — сменить четыре карты на пять из "
                "талона (или вскрышку и четыре) и снести одну; затем, как вистующий, взять взятку или заплатить "
                "ремиз."}


def _flat(text: str) -> str:
    """A box's lines joined back into one line of words (its wrapping and margins undone)."""
    return " ".join(ln.strip() for ln in text.splitlines() if ln.strip())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_help_and_the_logs_first_lines_say_what_a_cut_in_is_even_at_80x24(lang):
    from frapnet.tui import render
    from test_tui_model import screen_at, table, text_of
    assert len(CUT_IN[lang]) <= 200  # a client cuts a special-cards line at 200 cells (frapnet/tui/viewdata.py)
    s = screen_at(table(), 0, lang)
    for rows, w in ((24, 80), (40, 110)):
        helptext = text_of(render.help_screen(s, rows, w))
        assert CUT_IN[lang] in _flat(helptext), helptext
        assert len(helptext.splitlines()) <= rows - 2  # inside the box's borders
    assert ("rules", CUT_IN[lang]) in list(s.log)  # the log's top: goal, special cards, the cut-in, table rules


@pytest.mark.parametrize("lang,turn_up", [
    ("en", "The turn-up sets trumps; a blind frapper may take it when buying."),
    ("ru", "Вскрышка задаёт козырь; её может взять фрапующий втёмную при прикупке.")])
def test_a_table_without_the_cut_in_does_not_explain_it_F17(lang, turn_up):
    """F17: with ``cut_in=false`` nobody cuts in, so neither the help nor the log's first lines
    explain a cut-in, and the turn-up line names only the blind frapper; at a table with it (the
    default) both lines are there."""
    from frapnet.tui import render
    from test_tui_model import screen_at, table, text_of
    off = screen_at(table(options={"cut_in": False}), 0, lang)
    helptext = _flat(text_of(render.help_screen(off, 40, 110)))
    assert CUT_IN[lang] not in helptext and turn_up in helptext
    assert ("rules", CUT_IN[lang]) not in list(off.log) and ("rules", turn_up) in list(off.log)
    on = screen_at(table(), 0, lang)
    assert ("rules", CUT_IN[lang]) in list(on.log) and ("rules", turn_up) not in list(on.log)


@pytest.mark.parametrize("lang,labels", [
    ("en", ["Cut in: five new cards from the talon", "Cut in with the turn-up 7♦ and four from the talon",
            "Decline the cut-in"]),
    ("ru", ["Подрезка: пять новых карт из талона", "Подрезка со вскрышкой 7♦ и четырьмя из талона", "Не подрезать"])])
def test_the_cut_in_actions_say_what_the_player_gets(lang, labels):
    """Anna passed the whist round; after the buying she is offered the cut-in: each button says
    what she gets for her four cards (five from the talon, or the turn-up 7♦ and four)."""
    from frapnet.tui import render
    from test_tui_model import cut_in_offered, screen_at, text_of
    st = cut_in_offered(looked=True)
    s = screen_at(st, 3, lang)
    assert [lab for _a, lab in (x for g in s.groups for x in g.actions)] == labels
    row = _flat(text_of(render.actions(s, 80)))
    assert all(f"[{k}] {lab}" in row for k, lab in zip("ctd", labels)), row


# --- the deal-end box: changes signed, stocks as the seat table shows them ----------------------------

SIGNED_CELL = re.compile(r"(—|[+−][1-9]\d*)( \(.+\))?")


@pytest.mark.parametrize("lang,legend", [
    ("en", "“this deal” is the change over the deal, “balance” the total after it."),
    ("ru", "«за сдачу» — изменение за сдачу, «счёт» — итог после неё.")])
def test_the_settlement_signs_every_change_and_says_which_column_is_the_total(lang, legend):
    """Frap's deal-end box: trick money taken (+200) and a remise paid (−1600) are changes of a
    balance, signed with the seat table's minus sign, as is "this deal"; the balance is shown as
    the seat table shows it; the pot is a plain figure; a line says which column is which. The
    log's deal-end line signs the remise the same way."""
    from frapnet.tui import render
    from frapnet.tui.text import fmt_amount
    from test_tui_screen import _frap_deals
    from test_tui_model import text_of
    s, st = _frap_deals(2, seed=4, lang=lang)  # deal 2: Ivan pays a remise of 1600, the pot carries 1600
    rep = st.reports[-1]
    assert rep["remises"][1] == 1600 and rep["pot_after"] == 1600
    heads = s.settlement["heads"]
    money, remise = heads.index("trick money" if lang == "en" else "за взятки"), heads.index(
        "remise" if lang == "en" else "ремиз")
    for r in s.settlement["rows"]:
        seat = r["seat"]
        assert r["cells"][money] == (f"+{rep['trick_money'][seat]}" if rep["trick_money"][seat] else "—")
        assert r["cells"][remise] == (f"−{rep['remises'][seat]}" if rep["remises"][seat] else "—")
        assert SIGNED_CELL.fullmatch(r["cells"][money]) and SIGNED_CELL.fullmatch(r["cells"][remise])
    box = text_of(render.settlement(s))
    ivan = next(ln for ln in box.splitlines() if ln.startswith(" Ivan"))
    assert ivan.split() == ["Ivan", "0", "—", "−1600", "−1600", fmt_amount(st.balances[1])]
    assert legend in box
    # the table's lines keep two cells before the box's right border (a newcomer saw "−33710900│")
    table = [ln for ln in box.splitlines() if ln.startswith(" ") and ln.strip() and ln.split()[0] in
             (["player" if lang == "en" else "игрок"] + [r["name"] for r in s.settlement["rows"]])]
    assert len(table) == 5 and all(ln.endswith("  ") and not ln.endswith("   ") for ln in table), table
    assert all(not ln.endswith(" ") for ln in text_of(render.settlement(s, 40)).splitlines()[2:7])  # no room: none
    assert ("Pot 1600 carried to the next deal." if lang == "en" else "Кон 1600 переходит в следующую сдачу.") in box
    logged = [t for _k, t in s.log]
    assert ("Deal over: remises Ivan −1600; pot 1600" if lang == "en"
            else "Сдача окончена: ремизы Ivan −1600; кон 1600") in logged


def test_a_penalised_revoke_shows_as_a_signed_remise():
    """The remise column of a revoke (revoke: penalize) is a payment like any remise: −P (revoke)."""
    from frapnet.games.frap_view import report_columns
    cols = report_columns({"tricks": [2, 2, 0, 0], "trick_money": [200, 200, 0, 0], "remises": [0, 0, 400, 800],
                           "revokes": [3]}, "en")["columns"]
    assert [c["title"] for c in cols] == ["tricks", "trick money", "remise"]
    assert cols[1]["cells"] == ["+200", "+200", "—", "—"]
    assert cols[2]["cells"] == ["—", "—", "−400", "−800 (revoke)"]


@pytest.mark.parametrize("lang,note", [
    ("en", "Nobody whisted: the frapper took the whole pot, with no trick played."),
    ("ru", "Никто не вистовал: фрапующий забрал весь кон без розыгрыша.")])
def test_F14_a_frap_nobody_whisted_says_where_the_frappers_chips_came_from(lang, note):
    """The settlement showed the frapper "0 — — +500" with nothing on the box to say why (a
    newcomer asked): F14's deal has a note; a played deal has none."""
    from frapnet.games.frap_view import report_columns
    zero = {"tricks": [0] * 4, "trick_money": [0] * 4, "remises": [0] * 4}
    assert report_columns({**zero, "outcome": "no_whist", "frapper": 1}, lang)["notes"] == [note]
    assert report_columns({**zero, "outcome": "played"}, lang)["notes"] == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_settlement_whose_amounts_pass_the_box_lists_each_player_as_a_block_uncut_F6(lang):
    """A newcomer's table reached amounts of 33 digits (F6: remises compound; amounts are never
    cut): the deal-end box's columns ran past 80 columns and wrapped into a mess. Now, where the
    columns do not fit, each player is a block: the name, then each heading with its whole
    amount, a heading never apart from its figure, every line inside the box."""
    from frapnet.tui import render
    from frapnet.tui.text import fmt_amount
    from test_tui_screen import _frap_deals
    from test_tui_model import text_of
    s, st = _frap_deals(2, seed=4, lang=lang)
    big = 10 ** 32
    for r in s.settlement["rows"]:
        r["net"], r["balance"] = r["net"] * big, r["balance"] * big + 7
    box = text_of(render.settlement(s, 80))
    lines = box.splitlines()
    assert max(len(ln) for ln in lines) <= 76, max(lines, key=len)
    _ = s._
    for r in s.settlement["rows"]:
        at = lines.index(" " + r["name"])
        block = []
        for ln in lines[at + 1:]:
            if not ln.startswith("    "):
                break
            block.append(ln.strip().split(" · "))
        pairs = [p for ln in block for p in ln]  # a heading and its figure on one line, figures whole
        assert pairs[-2:] == [f"{_('this deal')} {fmt_amount(r['net'])}", f"{_('balance')} {fmt_amount(r['balance'])}"]
        assert pairs[0] == f"{s.settlement['heads'][0]} {r['cells'][0]}"  # tricks (F23)
    assert f"−{1600 * big}" in box and f"−{2500 * big - 7}" in box  # Ivan: the remise's deal, his balance


# --- the score sheet's brackets -------------------------------------------------------------------

@pytest.mark.parametrize("lang,legend", [
    ("en", "Each cell: the change over the deal, then in brackets the balance after it."),
    ("ru", "В каждой клетке: изменение за сдачу, в скобках — счёт после неё.")])
def test_the_score_sheet_says_what_the_bracketed_figure_is(lang, legend):
    """`=`: "−1600 (−2500)" is the change over the deal and, in brackets, the balance after it —
    a line under the table says so; a wide table showing the running totals alone says that."""
    from frapnet.tui import render
    from test_tui_screen import _frap_deals
    from test_tui_model import text_of
    s, st = _frap_deals(2, seed=4, lang=lang)
    sheet = text_of(render.score_sheet(s, 80))
    assert "−1600 (−2500)" in sheet and legend in sheet
    assert sheet.index(legend) > sheet.index("−1600 (−2500)")  # under the table
    from frapnet.testing import random_deals
    from test_tui_model import screen_at
    st = engine.new_match("frap", 12, {})
    for _b, _seat, _a, st in random_deals(st, random.Random(5), 3):
        pass
    wide = screen_at(st, 0, lang)  # at 80 columns twelve players' cells show the running totals alone
    lines = text_of(render.score_sheet(wide, 80)).splitlines()
    table = lines[lines.index(next(ln for ln in lines if ln.startswith(" deal" if lang == "en" else " сдача"))):]
    assert not any("(" in ln for ln in table[:4]) and legend not in "\n".join(lines)
    assert (" Each cell is the running total after the deal." if lang == "en"
            else " В каждой клетке — итог после сдачи.") in lines


# --- the turn clock: one term ---------------------------------------------------------------------

@pytest.mark.parametrize("lang,term,mine,log", [
    ("en", "turn clock", "Your turn · turn clock 42 s",
     "Olga's turn clock ran out (120 s) — a computer player makes this move"),
    ("ru", "время на ход", "Ваш ход · время на ход 42 с",
     "Olga: время на ход вышло (120 с) — этот ход делает компьютер")])
def test_the_turn_clock_is_one_term_in_the_heading_the_help_the_log_and_the_web_page(lang, term, mine, log):
    """The turn clock (frapnet host --turn-time) is named the same wherever a player meets it:
    the heading of the seat to act, the others' "Waiting for …" and a spectator's line, the help
    (which says what happens at 0), the log line when it runs out, and the web page's words."""
    from frapnet.net.seats import seat_event_text
    from frapnet.tui import i18n, render
    from frapnet.tui.model import Screen
    from test_tui_model import NAMES, table, text_of, view
    st = table()
    seat = st.to_act[0]
    for who, want in ((seat, mine), ((seat + 1) % 4, f"{NAMES[seat]} · {term} 42"), (None, f"{NAMES[seat]} · {term} 42")):
        s = Screen(i18n.translation(lang).gettext, lang)
        s.clock = lambda: 100.0
        v = view(st, who, lang)
        v["deadlines"] = [None] * 4
        v["deadlines"][seat] = 42.0
        s.set_view(v)
        assert want in text_of(render.hand(s, 100)), text_of(render.hand(s, 100))
    helptext = text_of(render.help_screen(s, 24, 80))
    assert f" {term} " in helptext and ("computer" in helptext if lang == "en" else "компьютер" in helptext)
    assert seat_event_text({"type": "seat_timeout", "seat": 0, "name": "Olga", "seconds": 120}, lang) == log
    web = Path(__file__).resolve().parent.parent / "frapnet" / "net" / "web_assets"
    assert 't("turn clock {n} s", { n: left })' in (web / "tableview.js").read_text(encoding="utf-8")
    assert '"turn clock {n} s": "время на ход {n} с"' in (web / "words.js").read_text(encoding="utf-8")
    assert not re.search(r"\d+ s left|осталось \d+|time ran out", helptext + text_of(render.hand(s, 100)) + log)
