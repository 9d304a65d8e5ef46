"""The boxes drawn over the table: the help, the quit question, the settlement of a deal and
the score sheet of the match (prompt_toolkit formatted text, like :mod:`frapnet.tui.render`)."""
from __future__ import annotations

from frapnet.tui.model import Screen, help_lines
from frapnet.tui.scores import amount_text
from frapnet.tui.text import cut, pad, width, wrap
from frapnet.tui.viewdata import in_deal


def help_screen(s: Screen, rows: int | None = None, w: int = 80) -> list:
    """The help: the game's own lines (``ui``: its goal, special cards, what its marks mean), then
    the keys. With ``rows`` (the terminal's height) the game's lines are cut to what fits, the
    goal last, so the keys always show."""
    _ = s._
    keys = [("", "\n")]
    keys += [("class:title", " " + _("Keys") + " "), ("", "\n")]
    for k, what in help_lines(_):
        keys += [("class:key", " " + pad(k, 18)), ("", what + "  \n")]  # a margin before the border
    keys += [("", "\n"), ("class:dim", " " + _("Press any key to go back.") + "  ")]
    u = s.ui
    if not u.get("goal"):
        return keys[1:]
    room = (rows - 4 - sum(f[1].count("\n") for f in keys)) if rows else 99  # borders and the title line
    cells = max(20, min(74, w - 6))
    parts = [wrap(line, cells) for line in [u["goal"]] + list(u.get("special_cards") or ()) + list(u.get("legend") or ())]
    while parts and sum(len(p) for p in parts) > room:
        if len(parts) > 1:
            parts.pop()
        else:
            parts = [[cut(" ".join(parts[0]), cells)]] if room > 0 else []
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


def settlement(s: Screen) -> list:
    """The settlement of the last deal: per seat the game's columns (``ui.report``: Frap's tricks,
    trick money and remise, F23/F24; the declarer's bid; who lost; deal points), the change over
    the deal and the balance or points after it; the game's notes; what happens to the pot."""
    _ = s._
    st = s.settlement or {}
    out = [("class:title", " " + _("Deal {n} settled").format(n=st.get("deal_no", "?")) + " "), ("", "\n\n")]
    led = st.get("ledger") or {}
    signed = led.get("signed", True)
    head = [_("player")] + list(st.get("heads", ())) + [_("this deal"), led.get("title") or _("balance")]
    mins = [18] + [10] * len(st.get("heads", ())) + [12, 12]
    rows = []
    for r in st.get("rows", ()):
        rows.append(([r["name"]] + list(r["cells"])
                     + ["" if r["net"] is None else amount_text(r["net"], signed),
                        "" if r["balance"] is None else amount_text(r["balance"], signed)],
                     r["seat"] == s.seat))
    out += _table(head, mins, rows)
    for note in st.get("notes", ()):
        out += [("", "\n "), ("class:phase", note)]
    sentence = s.pot_sentence()
    if sentence:
        out += [("", "\n "), ("class:phase", sentence)]
    out += [("", "\n\n"), ("class:dim", " " + _("Enter: continue · = the score sheet"))]
    return out


def _table(head, mins, rows) -> list:
    """Columns as wide as their widest figure or heading: amounts are never cut (F6)."""
    cols = [max([mn, width(head[i]) + 1] + [width(vals[i]) + 1 for vals, _me in rows if i < len(vals)])
            for i, mn in enumerate(mins)]
    out = [("class:colhead", " " + "".join(pad(h, c) for h, c in zip(head, cols)).rstrip() + "\n")]
    for vals, me in rows:  # no trailing blanks: a row one cell too wide for the box would wrap
        out.append(("class:seat.me" if me else "", " " + "".join(pad(x, c) for x, c in zip(vals, cols)).rstrip() + "\n"))
    return out


def score_sheet(s: Screen) -> list:
    """The score sheet: one row per deal settled (each player's change over the deal, then the
    running total in brackets), and the standings at the end of the match."""
    _ = s._
    led = s.ui.get("ledger") or {}
    signed = led.get("signed", True)
    n = s.players
    out = [("class:title", " " + _("Score sheet") + " — " + (led.get("title") or _("balance")) + " "), ("", "\n\n")]
    rows = s.score_rows()
    if not rows:
        return out + [("class:dim", " " + _("No deal has been settled yet.")), ("", "\n\n"),
                      ("class:dim", " " + _("Press any key to go back.") + " ")]
    cell_w = max(10, min(18, (100 - 8) // max(1, n)))
    head = [_("deal")] + [cut(s.name(i), cell_w - 1) for i in range(n)]
    body = []
    for dn, net, after in rows[-15:]:  # the latest deals; the totals row covers the rest
        cells = []
        for i in range(n):
            c = "" if net[i] is None else amount_text(net[i], signed)
            t = "" if after[i] is None else amount_text(after[i], signed)
            cells.append(f"{c} ({t})" if c and t else (f"({t})" if t else c or "—"))
        body.append(([str(dn)] + cells, False))
    tot = s.totals() or []
    body.append(([_("total")] + [amount_text(tot[i], signed) if i < len(tot) else "" for i in range(n)], True))
    out += _table(head, [6] + [cell_w] * n, body)
    if s.final_deal and not in_deal(s.view or {}):
        out += [("", "\n "), ("class:phase", _("Final standings:") + " " + ", ".join(
            f"{place}. {name} {amount_text(total, signed)}" for place, name, total in s.standings()))]
    if len(rows) > 15:
        out += [("", "\n "), ("class:dim", _("(the last 15 of {n} deals)").format(n=len(rows)))]
    out += [("", "\n\n"), ("class:dim", " " + _("Press any key to go back.") + " ")]
    return out
