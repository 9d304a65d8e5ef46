"""The boxes drawn over the table: the help, the quit question, the settlement of a deal and
the score sheet of the match (prompt_toolkit formatted text, like :mod:`frapnet.tui.render`)."""
from __future__ import annotations

from frapnet.tui.model import Screen, help_lines
from frapnet.tui.scores import amount_text
from frapnet.tui.text import cut, cut_apart, pad, width, wrap
from frapnet.tui.viewdata import in_deal


STATUS_BAR_KEYS = (".", "=  F2", "Tab  /", "q  Ctrl-C  Ctrl-D", "? F1")
"""Key lines the status bar also shows: left out of a help too short for the game's own lines."""


def box_width(fragments: list, columns: int) -> int | None:
    """How wide a box drawn around ``fragments`` (its text; the frame adds a border each side) is
    on a ``columns``-wide terminal: the whole width when its own would leave margins of two
    columns or less a side — the table behind would show through in slivers at its edges
    ("┐─", a stray letter) — else None (its own width, centred)."""
    text = "".join(f[1] for f in fragments)
    natural = max((width(line) for line in text.split("\n")), default=0) + 2
    return columns if natural >= columns - 4 else None


def help_screen(s: Screen, rows: int | None = None, w: int = 80) -> list:
    """The help: the game's own lines (``ui``: its goal, special cards, what its marks mean), then
    the keys. With ``rows`` (the terminal's height) it fits: first the keys the status bar also
    shows (and the mouse line) are left out, then the game's lines are cut, the goal last, so
    the goal, the special cards and the other keys show at 80×24."""
    _ = s._
    u = s.ui
    cells = max(20, min(74, w - 6))
    parts = [wrap(line, cells) for line in [u["goal"]] + list(u.get("special_cards") or ())
             + list(u.get("legend") or ())] if u.get("goal") else []
    # ● ○ ⚙ · only when the table shows them; the turn clock's line once a clock was seen running
    lines = help_lines(_, compact=s.two_column_seats(rows), clock=s.clock_seen)
    spare = [k for k, _w in lines if k in STATUS_BAR_KEYS or k == _("mouse")]
    every = len(lines)

    def keys_part():
        out = [("", "\n"), ("class:title", " " + _("Keys") + " "), ("", "\n")]
        for k, what in lines:
            out += [("class:key", " " + pad(k, 18)), ("", what + "  \n")]  # a margin before the border
        if len(lines) < every:  # left out for room: they are on the status bar
            more = _("More keys:") + " " + _("? help · . last trick · = scores · Tab chat · q quit")
            out += [("class:dim", " " + cut(more, cells) + "  \n")]  # (this box covers the bottom line)
        return out + [("", "\n"), ("class:dim", " " + _("Press any key to go back.") + "  ")]

    def room():  # rows left for the game's lines: the borders and the title line
        return (rows - 4 - sum(f[1].count("\n") for f in keys_part())) if rows else 99

    while parts and spare and sum(len(p) for p in parts) > room():
        drop = spare.pop()
        lines = [x for x in lines if x[0] != drop]
    keys = keys_part()
    if not parts:
        return keys[1:]
    left = room()
    while parts and sum(len(p) for p in parts) > left:
        if len(parts) > 1:
            parts.pop()
        else:
            parts = [[cut(" ".join(parts[0]), cells)]] if left > 0 else []
            break
    out = [("class:title", " " + (u.get("title") or "") + " "), ("", "\n")]  # the game explains itself
    for part in parts:
        out += [("", " " + ln + "  \n") for ln in part]
    return out + keys


def quit_dialog(s: Screen) -> list:
    _ = s._
    return [("class:title", " " + _("Leave the table?") + " "), ("", "\n\n"),
            ("", " " + (_("A deal is in progress; leaving ends this table.") if s.local else
                        _("A deal is in progress; a computer player will take your seat.")) + "\n\n"),
            ("class:key", " [y]"), ("", " " + _("leave") + "   "), ("class:key", "[n]"), ("", " " + _("stay") + " ")]


def settlement(s: Screen, w: int = 80) -> list:
    """The settlement of the last deal: per seat the game's columns (``ui.report``: Frap's tricks,
    trick money and remise, F23/F24; the declarer's bid; who lost; deal points), the change over
    the deal and the balance or points after it, and a line saying which of the two is which; the
    game's notes; what happens to the pot. The table's lines keep a margin before the box's right
    border while the box still fits ``w`` columns."""
    _ = s._
    st = s.settlement or {}
    out = [("class:title", " " + _("Deal {n} settled").format(n=st.get("deal_no", "?")) + " "), ("", "\n\n")]
    led = st.get("ledger") or {}
    signed = led.get("signed", True)
    total = led.get("title") or _("balance")
    head = [_("player")] + list(st.get("heads", ())) + [_("this deal"), total]
    mins = [18] + [10] * len(st.get("heads", ())) + [12, 12]
    rows = []
    for r in st.get("rows", ()):
        rows.append(([r["name"]] + list(r["cells"])
                     + ["" if r["net"] is None else amount_text(r["net"], signed),
                        "" if r["balance"] is None else amount_text(r["balance"], signed)],
                     r["seat"] == s.seat))
    table = _table(head, mins, rows)
    wide = max(width(t) for _st, t in table)
    if wide + 5 <= w:  # 2 cells of margin, the borders: the box still fits
        table = [(st, t[:-1] + "  \n") for st, t in table]
    elif wide + 3 > w:  # amounts too long for columns (F6: never cut): one block per player instead
        table = _blocks(head, rows, max(20, w - 6))
    out += table
    out += [("", "\n "), ("class:dim", _("“{change}” is the change over the deal, “{total}” the total after it.").format(
        change=_("this deal"), total=total) + " ")]  # a margin before the border
    for note in st.get("notes", ()):
        out += [("", "\n "), ("class:phase", note)]
    sentence = s.pot_sentence()
    if sentence:
        out += [("", "\n "), ("class:phase", sentence)]
    out += [("", "\n\n"), ("class:dim", " " + _("Enter: continue · = the score sheet"))]
    return out


def _blocks(head, rows, cells: int) -> list:
    """``rows`` as one block per player — the name, then each column's heading and value, wrapped
    at ``cells`` and indented — where their columns would not fit the box (amounts past 2^64 at a
    long table, F6: never cut)."""
    out = []
    for vals, me in rows:
        lines = [cut(vals[0], cells)]
        for h, v in zip(head[1:], vals[1:]):
            if v in ("", "—"):
                continue
            pair = f"{h} {v}"
            if len(lines) > 1 and width(lines[-1]) + 3 + width(pair) <= cells - 3:
                lines[-1] += " · " + pair  # a heading and its value are never split between lines
            else:
                lines += wrap(pair, cells - 3)
        out.append(("class:seat.me" if me else "", " " + lines[0] + "\n"
                    + "".join("    " + ln + "\n" for ln in lines[1:])))
    return out


def _table(head, mins, rows) -> list:
    """Columns as wide as their widest figure or heading: amounts are never cut (F6)."""
    cols = [max([mn, width(head[i]) + 1] + [width(vals[i]) + 1 for vals, _me in rows if i < len(vals)])
            for i, mn in enumerate(mins)]
    out = [("class:colhead", " " + "".join(pad(h, c) for h, c in zip(head, cols)).rstrip() + "\n")]
    for vals, me in rows:  # no trailing blanks: a row one cell too wide for the box would wrap
        out.append(("class:seat.me" if me else "", " " + "".join(pad(x, c) for x, c in zip(vals, cols)).rstrip() + "\n"))
    return out


def score_sheet(s: Screen, w: int = 80, h: int | None = None) -> list:
    """The score sheet: one row per deal settled (each player's change over the deal, then the
    running total in brackets — a line under the table says so), and the standings at the end of
    the match. It fits ``w`` columns: a wide table (up to 12 seats) shows the running totals
    alone, names cut, and if that is still too wide, as many players as fit — ← → scroll to the
    others. With ``h`` (the terminal's rows) it fits them too: the latest 15 deals at most, fewer
    on a short terminal, so that the lines under the table — the standings, the keys — show."""
    out = _score_sheet(s, w, 15)
    keep = 15
    while h is not None and keep > 1 and sum(t.count("\n") for _st, t in out) + 3 > h:  # + the box's borders
        keep -= 1
        out = _score_sheet(s, w, keep)
    return out


def _score_sheet(s: Screen, w: int, keep: int) -> list:
    """:func:`score_sheet` listing the latest ``keep`` deals."""
    _ = s._
    led = s.ui.get("ledger") or {}
    signed = led.get("signed", True)
    n = s.players
    out = [("class:title", " " + _("Score sheet") + " — " + (led.get("title") or _("balance")) + " ")]
    rows = s.score_rows()
    if not rows:
        return out + [("", "\n\n"), ("class:dim", " " + _("No deal has been settled yet.")), ("", "\n\n"),
                      ("class:dim", " " + _("Press any key to go back.") + " ")]
    shown = rows[-keep:]  # the latest deals; the totals row covers the rest
    if rows[-1][0] > len(shown):  # deals are numbered from 1: the last one listed is how many were settled
        out += [("class:dim", "  " + _("(the last {k} of {n} deals)").format(k=len(shown), n=rows[-1][0]))]
    out += [("", "\n\n")]
    tot = s.sheet_total() or s.totals() or []  # what the rows add up to (after the last deal listed)
    now = s.totals()  # the balances at this moment: during a deal, or as the host closed the table
    now = now if now and tot and list(now) != list(tot) else None
    room = max(30, w - 4)  # the box's borders and a margin each side

    def amt(x):
        return "" if x is None else amount_text(x, signed)

    def body_cells(both: bool) -> list[list[str]]:
        out_rows = []
        for _dn, net, after in shown:
            row = []
            for i in range(n):
                c, t = amt(net[i]) if i < len(net) else "", amt(after[i]) if i < len(after) else ""
                row.append((f"{c} ({t})" if c and t else (f"({t})" if t else c or "—")) if both else (t or c or "—"))
            out_rows.append(row)
        out_rows.append([amt(tot[i]) if i < len(tot) else "" for i in range(n)])
        if now:
            out_rows.append([amt(now[i]) if i < len(now) else "" for i in range(n)])
        return out_rows

    now_word = _("final") if s.ended else _("now")
    first = [str(dn) for dn, _n, _a in shown] + [_("total")] + ([now_word] if now else [])
    first_w = max(width(x) for x in first + [_("deal")]) + 1
    for both, name_cap in ((True, 16), (False, 0)):
        cells = body_cells(both)
        widths = [max(max(width(r[i]) for r in cells), min(width(s.name(i)), name_cap or 5)) + 1 for i in range(n)]
        if first_w + sum(widths) <= room:
            break
    seats = list(range(n))
    if first_w + sum(widths) > room:  # still too wide: the players that fit from s.sheet_from on
        s.sheet_from = max(0, min(s.sheet_from, n - 1))
        seats, used = [], first_w
        for i in range(s.sheet_from, n):
            if seats and used + widths[i] > room:
                break
            seats.append(i)
            used += widths[i]
        s.sheet_from = seats[0]
    spare = room - first_w - sum(widths[i] for i in seats)
    for i in seats:  # room left over goes to the names cut above, in seat order (up to 16 cells)
        grow = min(spare, min(width(s.name(i)), 16) + 1 - widths[i])
        if grow > 0:
            widths[i] += grow
            spare -= grow
    head = [_("deal")] + cut_apart([s.name(i) for i in seats], [widths[i] - 1 for i in seats])
    body = [([first[k]] + [r[i] for i in seats], k == len(shown)) for k, r in enumerate(cells)]
    out += _table(head, [first_w] + [widths[i] for i in seats], body)
    if both:  # what the bracketed figure is
        legend = _("Each cell: the change over the deal, then in brackets the {total} after it.").format(
            total=led.get("title") or _("balance"))
        out += [("", "\n "), ("class:dim", " \n ".join(wrap(legend, room - 1)) + " ")]  # a margin before the border
    else:
        out += [("", "\n "), ("class:dim", _("Each cell is the running total after the deal."))]
    if now:  # what the row under the total is, and why it differs from the total
        out += [("", "\n "), ("class:dim", " \n ".join(wrap(_now_note(s, now_word, led), room - 1)) + " ")]
    if len(seats) < n:
        out += [("", "\n "), ("class:dim", _("{k} of {n} players shown; ← → show the others.").format(
            k=len(seats), n=n))]
    if s.final_deal and not in_deal(s.view or {}):
        line = _("Final standings:") + " " + ", ".join(
            f"{place}. {name} {amount_text(total, signed)}" for place, name, total in s.standings())
        out += [("", "\n "), ("class:phase", "\n ".join(wrap(line, room - 1)))]
    if s.rematch_question:  # the match's end: the answer can be given from here
        ask = " " + _("Play again with the same seats?") + " "
        answers = [("class:key", "[r]"), ("", " " + _("Play again") + "  "),
                   ("class:key", "[n]"), ("", " " + _("No, leave the table") + " ")]
        wide = width(ask) + 1 + sum(width(t) for _st, t in answers) <= room
        out += [("", "\n\n "), ("class:yourturn", ask), ("", " " if wide else "\n ")] + answers
    back = _("Any other key goes back to the table.") if s.rematch_question else _("Press any key to go back.")
    out += [("", "\n\n"), ("class:dim", " " + back + " ")]
    return out


def _now_note(s: Screen, word: str, led: dict) -> str:
    """The line under the score sheet for its row after the total (``word``: "now" during a deal,
    "final" once the table has closed): the balances or points at that moment, counting what
    the deal not yet settled has taken (the total covers the settled deals only)."""
    _ = s._
    total = led.get("title") or _("balance")
    dn = s.unfinished_deal()
    if s.ended:
        if dn is None:
            return _("“{word}” is the {total} the host reported when the table closed.").format(word=word, total=total)
        return _("“{word}” is the {total} the host reported when the table closed, with deal {n} unfinished: "
                 "it counts what was paid into that deal.").format(word=word, total=total, n=dn)
    if dn is None:
        return _("“{word}” is the {total} at this moment.").format(word=word, total=total)
    rows = s.score_rows()
    return _("“{word}” is the {total} during deal {n}, which is not settled yet: it counts what has been paid "
             "into that deal so far; “{sum}” is the {total} after deal {last}.").format(
        word=word, total=total, n=dn, sum=_("total"), last=rows[-1][0] if rows else dn - 1)
