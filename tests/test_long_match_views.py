"""A view's size does not grow with the length of the match (issue #9: a host that stays fast
over a long evening; docs/protocol.md "view", ``sheet`` and ``sheet_base``).

Before: every view carried the whole score sheet, so at a 12-seat Frap table whose remises
compound (F6) a view passed the protocol's 256 KiB frame limit at about deal 290 — every client
then refused its views as ``too_large`` — and a 4,097th deal would have passed the 4,096-item
array limit at any table. Now a view lists the latest deals (``sheet``) and what the first of
them began from (``sheet_base``); the terminal client keeps the older rows it saw.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from frapnet import engine
from frapnet.engine.sheet import SHEET_BYTES, SHEET_ROWS
from frapnet.net import wire
from frapnet.testing import random_deals
from frapnet.tui import render

sys.path.insert(0, str(Path(__file__).parent))
from test_tui_model import screen_at, text_of, view  # noqa: E402


def played(players: int, deals: int, seed: int = 5) -> engine.State:
    st = engine.new_match("frap", players, {})
    for _b, _seat, _a, st in random_deals(st, random.Random(seed), deals):
        pass
    return st


def test_a_view_lists_the_latest_50_deals_and_what_the_first_began_from_F6():
    st = played(4, 57)
    assert st.phase == engine.BETWEEN and len(st.totals) == 57
    v = engine.view(st, 1)
    assert SHEET_ROWS == 50
    assert [r["deal"] for r in v["sheet"]] == list(range(8, 58))
    assert v["sheet"][-1]["after"] == st.balances and v["sheet"][-1]["pot"] == st.pot
    assert v["sheet_base"] == st.reports[6]["balances"] == st.totals[6]["after"]  # after deal 7
    # each listed deal's change, from sheet_base, adds up to the balances now (F6: with the pot, zero)
    changes = [[a - b for a, b in zip(r["after"], prev["after"] if prev else v["sheet_base"])]
               for prev, r in zip([None] + v["sheet"][:-1], v["sheet"])]
    assert [b + sum(c[s] for c in changes) for s, b in enumerate(v["sheet_base"])] == st.balances
    assert sum(st.balances) + st.pot == 0


def test_a_short_match_lists_every_deal_and_no_base_F6():
    st = played(4, 3)
    v = engine.view(st, None)
    assert [r["deal"] for r in v["sheet"]] == [1, 2, 3] and v["sheet_base"] is None
    fresh = engine.new_match("frap", 4, {})
    assert engine.view(fresh, 0)["sheet"] == [] and engine.view(fresh, 0)["sheet_base"] is None


def test_a_twelve_seat_view_stays_inside_the_frame_limit_however_long_the_match_F6():
    """12 seats (F1) at the protocol's largest amounts (near 1,000 digits: frapnet.net.amounts)
    after 5,000 settled deals: every seat's view frame is under the 256 KiB limit, decodes under
    the client's limits, and its sheet lists as many of the latest deals as fit (about 16 kB)."""
    st = played(12, 1, seed=2)
    huge = 10 ** 985
    st = st.clone()
    st.balances = [huge * (s + 1) * (1 if s % 2 else -1) for s in range(12)]
    st.pot = -sum(st.balances)
    rows = tuple({"deal": d, "after": [b + d for b in st.balances], "pot": st.pot - 12 * d} for d in range(1, 5001))
    st.totals = rows
    st.deal_no = 5000
    # one more deal, played at these amounts: its report and the screen's report carry them too
    for _b, _seat, _a, st in random_deals(st, random.Random(9), 1):
        pass
    assert st.deal_no == 5001 and len(st.totals) == 5001
    assert len(str(abs(st.balances[0]))) > 980
    for seat in (None, *range(12)):
        v = engine.view(st, seat)
        data = wire.frame({"type": "view", "view": v})
        assert len(data) - 4 <= wire.MAX_FRAME, f"seat {seat}: a view of {len(data) - 4} bytes"
        got = wire.decode(data[4:])["view"]
        assert got["sheet"][-1]["deal"] == 5001 and got["sheet"][-1]["after"] == st.balances
        listed = len(got["sheet"])
        assert listed == 1  # a row of twelve 990-digit amounts is about 12 kB: one fits, always the last
        assert len(wire.encode(v["sheet"])) <= SHEET_BYTES
        assert got["sheet_base"] == st.totals[-listed - 1]["after"]


def test_the_terminal_keeps_the_deals_it_saw_when_the_host_lists_only_the_latest_F6():
    """A player at the table all match long has every deal on the score sheet; one who joins at
    deal 58 sees the latest 50, each with its right change (the first from ``sheet_base``)."""
    st = played(4, 57)
    early = screen_at(played(4, 10), 2)  # the same seed: the first ten deals of this very match
    assert [r[0] for r in early.score_rows()] == list(range(1, 11))
    early.set_view(view(st, 2))
    assert [r[0] for r in early.score_rows()] == list(range(1, 58))
    late = screen_at(st, 2)
    rows = late.score_rows()
    assert [r[0] for r in rows] == list(range(8, 58))
    before = st.totals[6]["after"]
    assert rows[0] == (8, [a - b for a, b in zip(st.totals[7]["after"], before)], st.totals[7]["after"])
    assert rows[-1][2] == st.balances and late.sheet_total() == st.balances
    assert early.score_rows()[7:] == rows  # the same 50 deals, the same figures
    # a client that missed a rematch keeps none of the former match's deals (they do not lead to
    # the new match's sheet_base)
    former = screen_at(played(4, 10, seed=1), 2)
    new = played(4, 60, seed=2)
    former.set_view(view(new, 2))
    assert [r[0] for r in former.score_rows()] == list(range(11, 61))
    assert former.score_rows()[0][1] == [a - b for a, b in zip(new.totals[10]["after"], new.totals[9]["after"])]
    for s in (early, late):
        assert "(the last 15 of 57 deals)" in text_of(render.score_sheet(s, 80))
    # at the protocol's largest amounts the host lists fewer deals: the line says how many are shown
    few = screen_at(st, 2)
    few.scores = {d: x for d, x in few.scores.items() if d >= 52}
    assert "(the last 6 of 57 deals)" in text_of(render.score_sheet(few, 80))
    ru = screen_at(st, 2, "ru")
    assert "(последние 15 из 57 сдач)" in text_of(render.score_sheet(ru, 80))


def test_the_record_exported_at_each_deal_end_is_exactly_the_whole_record(tmp_path):
    """Issue #9: ``--record FILE`` is written at every deal end; each settled deal is turned into
    text once (frapnet.record.RecordText), and the file is exactly ``dumps`` of the whole record,
    shuffle proofs included — at every deal end, in the middle of a deal, and after a resume
    brings other proofs."""
    from frapnet import record
    from frapnet.net.journal import RecordFile

    path = tmp_path / "friday.json"
    rf = RecordFile(str(path))
    st = engine.new_match("frap", 5, {})
    rng = random.Random(11)
    checked = 0
    for _before, seat, action, st in random_deals(st, rng, 14):
        if seat is None:  # a deal was dealt: its proof, as the host's fair dealing gives it
            rf.deal_started(st, {"seed": f"{st.deal_no:064x}", "nonces": {"0": "ab" * 32}})
        elif st.phase != engine.DEAL or rng.random() < 0.02:
            rf.export(st)
            rec = engine.record(st)
            for deal, proof in zip(rec["deals"], rf.proofs):
                if proof is not None:
                    deal["shuffle"] = proof
            assert path.read_text() == record.dumps(rec) + "\n"
            assert record.replay(record.load(str(path)))[0].balances == st.balances
            checked += 1
    assert checked > 14 and len(rf._text._done) == 14
    rf.proofs = [dict(p) for p in rf.proofs]  # a resume: the same deals, proofs read back from the record
    rf.export(st)
    assert json.loads(path.read_text())["deals"][3]["shuffle"] == {"seed": f"{4:064x}", "nonces": {"0": "ab" * 32}}
    assert len(rf._text._done) == 14 and all(p is q for (p, _), q in zip(rf._text._done, rf.proofs))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_at_80x24_the_score_sheet_of_a_long_match_shows_its_notes_and_the_way_back(lang):
    """A newcomer at 80×24 (the smallest terminal the client supports) opened the score sheet in
    deal 58 and saw its rows but not the lines under them — what "now" is, how many deals are
    listed, "Press any key to go back" — nor, at the match's end, every player's standing. Now it
    lists fewer deals on a short terminal, says how many in its title, and the total's line says
    it is the balance after the last deal (every deal counted, not only those listed)."""
    st = played(4, 57)
    for _b, seat, _a, st in random_deals(st, random.Random(4), 10):
        if seat is None and st.balances != st.totals[-1]["after"]:
            break  # a deal dealt whose antes moved the balances: not settled yet
    n = st.deal_no
    s = screen_at(st, 2, lang)
    _ = s._
    lines = text_of(render.score_sheet(s, 80, 24)).splitlines()
    assert len(lines) + 2 <= 24, len(lines)
    text = " ".join(" ".join(lines).split())
    shown = [ln.split()[0] for ln in lines if ln.split() and ln.split()[0].isdigit()]
    assert shown == [str(d) for d in range(n - len(shown), n)] and len(shown) >= 5
    assert _("(the last {k} of {n} deals)").format(k=len(shown), n=n - 1) in lines[0]
    assert _("Press any key to go back.") in text
    assert _("“{word}” is the {total} during deal {n}, which is not settled yet: it counts what has been paid "
             "into that deal so far; “{sum}” is the {total} after deal {last}.").format(
        word=_("now"), total=_("balance"), n=n, sum=_("total"), last=n - 1) in text
    tall = text_of(render.score_sheet(s, 80, 60)).splitlines()
    assert _("(the last {k} of {n} deals)").format(k=15, n=n - 1) in tall[0]


def test_sheet_window_measures_each_row_once_and_lists_what_the_byte_budget_says():
    """Issue #9 (a deal's last act is a 12-seat table's slowest): each row's size is remembered,
    and the window is exactly what measuring every row each time gives — the latest rows within
    SHEET_ROWS and about SHEET_BYTES (balances past 2^64, F6, counted by their digits), always the
    last — twice over the same rows (the second time from what was remembered)."""
    import random

    from frapnet.engine import sheet

    def measured(totals):
        start, room = len(totals), sheet.SHEET_BYTES
        while start > 0 and len(totals) - start < sheet.SHEET_ROWS:
            row = totals[start - 1]
            size = 24 + sheet._int_bytes(row["deal"]) + sheet._int_bytes(row["pot"]) + \
                sum(sheet._int_bytes(x) for x in row["after"])
            if size > room and start < len(totals):
                break
            room -= size
            start -= 1
        return list(totals[start:]), (totals[start - 1]["after"] if start > 0 else None)

    rng = random.Random(7)
    for _ in range(200):
        n, digits = rng.randrange(2, 13), rng.choice([4, 19, 20, 100, 990])
        totals = tuple({"deal": d + 1, "pot": rng.randrange(0, 10 ** 4),
                        "after": [rng.randrange(-10 ** digits, 10 ** digits) for _ in range(n)]}
                       for d in range(rng.randrange(1, 90)))
        want = measured(totals)
        assert sheet.sheet_window(totals) == want and sheet.sheet_window(totals) == want
        assert want[0][-1] is totals[-1] and len(want[0]) <= sheet.SHEET_ROWS


def test_at_80x24_a_twelve_seat_score_sheet_tells_bot_10_from_bot_11_F1():
    """A newcomer at a 12-seat table (F1) scrolled the score sheet at 80×24 and saw two columns
    headed "Bot …" alike: names were cut to five cells whatever room was left. Now spare room
    goes to the names, and names that would still be cut alike keep their ends apart."""
    from frapnet.tui.text import cut_apart, width
    st = played(12, 1)
    s = screen_at(st, 0, "en")
    s.name = lambda i: "You" if i == 0 else f"Bot {i}"
    s.sheet_from = 4
    lines = text_of(render.score_sheet(s, 80, 24)).splitlines()
    head = next(ln for ln in lines if ln.split()[:1] == ["deal"])
    assert head.split() == ["deal"] + [w for i in range(4, 12) for w in ("Bot", str(i))]
    assert max(len(ln) for ln in lines) <= 78  # inside the box's borders
    # where the room is short, names cut alike keep as much of their ends as tells them apart
    got = cut_apart(["Bot 10", "Bot 11", "Bot 1", "Olga"], [4, 4, 4, 4])
    assert got == ["Bo…0", "B…11", "B… 1", "Olga"] and [width(x) for x in got] == [4, 4, 4, 4]
    assert cut_apart(["Player Alpha", "Player Beta"], [5, 5]) == ["Pl…ha", "Pl…ta"]
    assert cut_apart(["Ольга Петровна", "Ольга Павловна"], [6, 6]) == ["Ольга…", "Ольга…"]  # no end fits: cut
