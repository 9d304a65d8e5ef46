"""Drawing the screen model as prompt_toolkit formatted text (lists of ``(style, text[, handler])``).

Pure functions of a :class:`frapnet.tui.model.Screen` and a width in terminal cells; the
application puts them into windows. ``click(key)`` (optional) returns a mouse handler that
presses ``key`` on the model, so cards and actions can be clicked.
"""
from __future__ import annotations

from typing import Callable

from frapnet.tui.faces import SUIT_SYMBOLS, card_face, card_red
from frapnet.tui.model import Screen
from frapnet.tui.scores import amount_text
from frapnet.tui.text import cut, fmt_amount, pad, safe_name, safe_text, width, wrap
from frapnet.tui.boxes import box_width, help_screen, quit_dialog, score_sheet, settlement  # noqa: F401 - the app draws them

CARD_W = 5  # cells per card box, plus one space between cards


def _h(click, key):
    return click(key) if click is not None else None


def _frag(style, text, handler=None):
    return (style, text, handler) if handler is not None else (style, text)


def header(s: Screen, w: int) -> list:
    """Two lines: table, game, deal, pot; trump, turn-up, talon, phase."""
    _ = s._
    v = s.view or {}
    title = s.ui.get("title") or safe_text(v.get("title") or (s.welcome or {}).get("title") or v.get("game")
                                           or "frapnet", 20)
    table = safe_name(v.get("table") or (s.welcome or {}).get("table") or "", 24)
    left = f" frapnet · {title} · {table}"
    bits = []
    if isinstance(v.get("deal_no"), int) and v["deal_no"]:
        bits.append(_("deal {n}").format(n=v["deal_no"]))
    pot_word = s.pot_word() if s.view is not None else None
    if isinstance(v.get("pot"), int) and pot_word:  # the game names its pot (Napoleon: treasure); none: no pot
        bits.append(f"{pot_word} {v['pot']}")
    right = " · ".join(bits) + " "
    line1 = [("class:title", pad(left, max(0, w - width(right)))), ("class:title.right", right)]
    parts = []
    if s.trump:
        parts += [("", " " + _("Trump") + " "), ("class:suit.red" if s.trump in "HD" else "class:suit",
                                                 SUIT_SYMBOLS[s.trump])]
    tu = v.get("turn_up")
    if isinstance(tu, str) and tu:
        parts += [("", "  " + _("turn-up") + " "), _card_inline(tu, s.lang)]
    elif s.turn_up_taken:
        parts += [("", "  " + _("turn-up") + " "), ("class:dim", _("taken"))]
    dead = v.get("dead_turn_ups")
    if isinstance(dead, list) and dead:  # F12: turn-ups gone dead after a passed-out round
        parts += [("class:dim", "  " + _("dead") + " ")]
        for c in dead[:4]:
            parts += [_card_inline(c, s.lang), ("", " ")]
    if isinstance(v.get("talon"), int) and (v["talon"] > 0 or s.trump):
        parts += [("", "  " + _("talon {n}").format(n=v["talon"]))]
    if v.get("phase_label"):
        parts += [("", "  · "), ("class:phase", safe_text(v["phase_label"], 30))]
        r = v.get("round")
        if isinstance(r, int) and r > 1 and v.get("phase") == "bid":
            parts += [("class:phase", " " + _("(round {n})").format(n=r))]
    if v.get("match_over"):
        parts += [("class:phase", "  " + _("match over"))]
    if not parts:
        parts = [("class:dim", " " + (_("Waiting for the host…") if s.view is None else _("Waiting for players…")))]
    elif parts[0][1].lstrip(" ·") != parts[0][1]:  # a game without trump or talon: no separator first
        parts[0] = (parts[0][0], " " + parts[0][1].lstrip(" ·")) + tuple(parts[0][2:])
        if parts[0][1] == " " and len(parts) > 1:
            parts = [(parts[1][0], " " + parts[1][1].lstrip())] + parts[2:]
    return line1 + [("", "\n")] + parts + [("", "\n")]


def _card_inline(card, lang="en") -> tuple:
    return ("class:suit.red" if card_red(card) else "class:suit", card_face(card, lang))


def seats(s: Screen, w: int, compact: bool = False) -> list:
    """The seat table: turn mark, name, dealer, connection, declaration, tricks, balance, trick card.

    ``compact``: two seats per line (for many seats on a short screen)."""
    _ = s._
    v = s.view or {}
    n = s.players
    if not n:
        return []
    last = bool(v.get("last_trick")) and (s.show_last_trick or not v.get("trick"))
    trick = s.trick_cards(last=last)
    winner = v.get("last_winner") if last else None
    led = s.ui.get("ledger") or {}
    ledger = led.get("title") or (_("points") if v.get("ledger") == "points" else _("balance"))
    signed = led.get("signed", True)
    game_cols = list(s.ui.get("columns") or ())
    conn_words = {"connected": _("connected"), "reconnecting": _("reconnecting…"), "bot": _("computer"),
                  "empty": _("empty seat"), "taken over": _("taken over"), "closed": _("disconnected")}
    bal = v.get("balances") if isinstance(v.get("balances"), list) else []
    trick_head = _("last trick") if last else _("trick")
    # amounts are never cut (F6: exact at any size): the balance column grows to fit
    bw = max([width(fmt_amount(b)) + 1 for b in bal if isinstance(b, int)] + [0])
    if not compact:
        # the state column as wide as the words in it, so the trick column's heading fits 80 columns
        used = [conn_words.get(s.shown_connection(i), safe_text(s.shown_connection(i), 13)) for i in range(n)]
        sw = min(15, max(width(x) for x in used + [_("state")]) + 2)
        cols = (2, 20, 2, sw) + (14,) * len(game_cols) + (7, max(11, bw, width(ledger) + 1))
        head = ["", _("player"), "", _("state")] + game_cols + [_("tricks"), ledger]
        if sum(cols) + width(trick_head) > w:
            trick_head = _("trick")
        out = [("class:colhead", "".join(pad(h, c) for h, c in zip(head, cols)) + trick_head), ("", "\n")]
    else:
        cols = (1, 12, 2, 2) + (8,) * len(game_cols) + (3, max(7, bw))
        # no room for a heading over each column: the legend says what the symbols are and
        # which figure is which, in the order of the row (the same words as the wide table's)
        legend = _("● connected  ○ reconnecting  ⚙ computer  · empty seat  D dealer")
        if s.seat is not None and s.shown_connection(s.seat) in ("taken over", "closed"):
            legend += "  × " + conn_words[s.shown_connection(s.seat)]  # this screen's seat, connection over
        order = _("In each row: {columns}").format(columns=", ".join(
            [_("player"), _("state")] + game_cols + [_("tricks"), ledger, trick_head]))
        out = []
        for line in wrap(legend, max(10, w - 2)) + wrap(order, max(10, w - 2)):
            out += [("class:dim", " " + line), ("", "\n")]
    cells = []
    for seat in range(n):
        info = s.seat_info(seat)
        turn = seat in s.to_act
        me = seat == s.seat
        you = " " + _("(you)")
        mark = s.seat_mark(seat)
        tail = (you if me else "") + (" " + mark if mark else "")
        name = cut(s.name(seat), max(1, cols[1] - 1 - width(tail))) + tail
        conn = s.shown_connection(seat)
        if compact:
            conn_txt = {"connected": "●", "reconnecting": "○", "bot": "⚙", "empty": "·", "taken over": "×",
                        "closed": "×"}.get(conn, "")
        else:
            conn_txt = conn_words.get(conn, safe_text(conn, 13))
        b = bal[seat] if seat < len(bal) else None
        tricks = info.get("tricks")
        fields = (["▶" if turn else "", name, "D" if v.get("dealer") == seat else "", conn_txt]
                  + s.seat_cells(seat)
                  + [str(tricks) if isinstance(tricks, int) else "", amount_text(b, signed) if b is not None else ""])
        style = "class:seat.turn" if turn else ("class:seat.me" if me else "")
        cst = "class:conn.bad" if conn in ("reconnecting", "taken over", "closed") else ""
        frags = []
        for i, (f, c) in enumerate(zip(fields, cols)):
            txt = pad(cut(f, c - 1), c) if c > 2 else pad(f, c)  # columns never run together
            frags.append((cst if i == 3 and cst else style, txt))
        card, tmark = trick.get(seat) or (None, "")
        if card:
            frags.append(_card_inline(card, s.lang))
            if tmark:
                frags.append(("class:mark", tmark))
            if winner == seat:
                frags.append(("class:winner", "★"))
        cells.append(frags)
    if compact:
        half = (n + 1) // 2
        colw = sum(cols) + 5
        for i in range(half):
            line = list(cells[i])
            used = sum(width(t[1]) for t in line)
            if i + half < n:
                line.append(("", " " * max(1, colw - used)))
                line += cells[i + half]
            out += line + [("", "\n")]
    else:
        for c in cells:
            out += c + [("", "\n")]
    return out


def _face(card, lang="en") -> str:
    f = card_face(card, lang)
    return f.ljust(3) if width(f) <= 3 else cut(f, 3)


def hand(s: Screen, w: int, click: Callable | None = None) -> list:
    """A heading (whose turn, what to choose) and the hand as card boxes with their keys."""
    _ = s._
    v = s.view or {}
    out = []
    g = s.active_group
    # heading
    if s.ended:  # the connection is over: say so where "Your turn" was; nothing is offered below
        for line in wrap(s.ended_heading(), max(10, w - 2)):
            out += [("class:error", " " + line), ("", "\n")]
        out += [("class:dim", " " + cut(_("Nothing can be played here any more; the table is shown as it was. "
                                         "q quits."), max(1, w - 2))), ("", "\n")]
        if s.seat is None:
            return out
    elif s.seat is None:
        who = ", ".join(s.name(x) + s.clock_text(x) for x in s.to_act)
        out += [("class:dim", " " + (_("Watching. To act: {who}").format(who=who) if who else _("Watching.")))]
        return out + [("", "\n")]
    elif s.my_turn:
        out += [("class:yourturn", " " + _("Your turn") + " ")]
        if s.clock_text(s.seat):  # the turn clock (--turn-time): a computer player moves when it runs out
            out += [("class:yourturn", s.clock_text(s.seat).lstrip() + " ")]
    elif s.to_act:
        out += [("class:dim", " " + _("Waiting for {who}").format(
            who=", ".join(s.name(x) + s.clock_text(x) for x in s.to_act)))]
    elif s.rematch_heading():  # the rematch offer at the match's end: r plays again, n leaves
        out += [("class:yourturn" if s.rematch_question else "class:dim", " " + s.rematch_heading() + " ")]
    elif v.get("match_over") or s.final_deal:
        out += [("class:dim", " " + _("The match is over."))]
    elif not v.get("deal_no"):
        conn = v.get("connection") if isinstance(v.get("connection"), list) else []
        taken = sum(1 for c in conn if c not in ("empty", None))
        out += [("class:dim", " " + _("Waiting for players: {k} of {n} seats taken").format(k=taken, n=s.players))]
    else:
        out += [("class:dim", " " + _("The next deal starts in a moment."))]
    prompt = ""
    if g is not None and g.kind == "card":
        prompt = _("{what}: press the card's key, or ← → Enter").format(what=g.title)
    elif g is not None and g.kind == "cards":
        lo, hi = s.counts() or (0, 0)
        need = f"{lo}–{hi}" if lo != hi else str(lo)
        prompt = _("{what} — chosen {k} (allowed {need}); Space toggles").format(what=g.title, need=need,
                                                                               k=len(s.selected))
    if prompt:
        used = sum(width(f[1]) for f in out)
        if used + 1 + width(prompt) > w:  # too long for one line at this width: a line of its own
            out += [("", "\n")]
            used = 0
        out += [("", " " + cut(prompt, max(1, w - used - 2)))]
    if not s.ended:
        out += [("", "\n")]
    # the cards
    row = s.row()
    hidden = s.hand is None
    if hidden:
        k = s.hand_count
        if not k:
            return out + [("", "\n\n\n\n")]
        top = [("class:card.back", "╭───╮"), ("", " ")] * k
        mid = [("class:card.back", "│░░░│"), ("", " ")] * k
        bot = [("class:card.back", "╰───╯"), ("", " ")] * k
        lab = [("class:dim", " " + _("face down — [l] to look")) if "l" in s.keys else ("class:dim", " ")]
        return out + [("", " ")] + top + [("", "\n"), ("", " ")] + mid + [("", "\n"), ("", " ")] + bot + \
            [("", "\n")] + lab + [("", "\n")]
    hand_cards = s.hand or []
    marks = {k: cut(m, 1) for k, m in (s.ui.get("card_marks") or {}).items() if width(cut(m, 1)) == 1}
    active = g is not None
    if not row:
        return out + [("", "\n\n\n\n")]
    # as many cards a line as fit (6 cells each, 2 more before the extra cards): a long hand
    # (Frak You's, 20 cards and more) takes several lines instead of running off the screen
    lines_of_cards, cur_line, used = [], [], 1
    for i in range(len(row)):
        need = 6 + (2 if i == len(hand_cards) and i else 0)
        if cur_line and used + need > w:
            lines_of_cards.append(cur_line)
            cur_line, used = [], 1
        cur_line.append(i)
        used += need
    lines_of_cards.append(cur_line)
    for chunk in lines_of_cards:
        top, mid, bot, keys = [("", " ")], [("", " ")], [("", " ")], [("", " ")]
        for i in chunk:
            c = row[i]
            if i == len(hand_cards) and i:  # extra choosable cards (e.g. the turn-up, F16)
                for line in (top, mid, bot):
                    line.append(("", "  "))
                keys.append(("class:dim", "  "))
            ok = active and s.choosable(i)
            sel = i in s.selected
            cur = active and i == s.cursor
            base = "class:card" + (".sel" if sel else "") + (".dim" if active and not ok else "")
            fst = base + (" class:card.red" if card_red(c) else " class:card.black")
            h = _h(click, f"card:{i}")
            cmark = marks.get(c, "")
            top.append(_frag(base, "╭─✓─╮" if sel else (f"╭─{cmark}─╮" if cmark else "╭───╮"), h))
            mid.append(_frag(base, "│", h))
            mid.append(_frag(fst, _face(c, s.lang), h))
            mid.append(_frag(base, "│", h))
            bot.append(_frag(base, "╰───╯", h))
            digit = s.card_key(i) or " "
            if cur:
                keys.append(_frag("class:cursor", f"[ {digit} ]" if ok else "[   ]", h))
            elif ok:
                keys.append(_frag("class:key", f"  {digit}  ", h))
            else:
                keys.append(("", "     "))
            for line in (top, mid, bot, keys):
                line.append(("", " "))
        out += top + [("", "\n")] + mid + [("", "\n")] + bot + [("", "\n")] + keys + [("", "\n")]
    return out


def actions(s: Screen, w: int, click: Callable | None = None) -> list:
    """The legal actions as ``[key] label`` buttons (wrapped), the cards choice's confirm line, a hint."""
    _ = s._
    out = []
    line_w = 1
    items = []
    g = s.active_group
    if g is not None and g.kind == "cards":
        ch = s.chosen_action()
        if ch is not None:
            items.append(("Enter", ch[1], "enter", "class:button.go"))
        else:
            items.append(("Enter", _("(choose cards)"), "enter", "class:button.off"))
    elif g is not None and g.kind == "card":
        # what Enter does now, in the host's words (Napoleon's first lead names the trump it sets)
        row = s.row()
        if 0 <= s.cursor < len(row) and s.choosable(s.cursor):
            lab = next((lab for a, lab in g.actions if a[1] == row[s.cursor]), None)
            if lab:
                items.append(("Enter", lab, "enter", "class:button.go"))
    for k, label, _item in s.buttons():
        items.append((k, label, f"button:{k}", "class:button"))
    for k, label in s.rematch_buttons():
        items.append((k, label, f"button:{k}", "class:button.go" if k == "r" else "class:button"))
    out.append(("", " "))
    lim = max(20, w - 8)  # a label is cut only if it cannot fit on a line of its own
    for k, label, key, style in items:
        txt = f"[{k}] {safe_text(label, lim)}"
        tw = width(txt) + 2
        if line_w + tw > w and line_w > 1:
            out.append(("", "\n "))
            line_w = 1
        h = _h(click, key)
        out.append(_frag("class:key", f"[{k}]", h))
        out.append(_frag(style, " " + safe_text(label, lim), h))
        out.append(("", "  "))
        line_w += tw
    if s.message:
        out += [("", "\n "), ("class:error", cut(s.message, max(1, w - 2)))]
    return out + [("", "\n")]


def log_rows(s: Screen, w: int | None = None) -> list[tuple[str, str]]:
    """The log as screen rows ``(style, text)``, oldest first: events, chat, status, errors and
    settlements; with ``w`` each line is wrapped at word boundaries to ``w`` cells
    (continuation lines indented)."""
    styles = {"chat": "class:log.chat", "error": "class:log.error", "status": "class:log.status",
              "settle": "class:log.settle", "system": "class:dim", "rules": "class:log.rules"}
    out = []
    for kind, text in s.log:
        st = styles.get(kind, "")
        if w is None or width(text) <= w:
            out.append((st, text))
            continue
        first, *rest = wrap(text, w, w - 2)
        out.append((st, first))
        out += [(st, "  " + ln) for ln in rest]
    return out


def log_lines(s: Screen, w: int | None = None) -> list:
    """The whole log pane as formatted text (see :func:`log_rows`)."""
    out = []
    for st, text in log_rows(s, w):
        out += [(st, text), ("", "\n")]
    if out:
        out.pop()
    return out


def log_window(s: Screen, w: int, h: int) -> list:
    """The ``h`` rows of the log the pane shows: the newest, or — scrolled back with PageUp
    (``s.log_offset`` rows from the end, clamped here) — older ones, with a last row saying how
    many newer rows there are."""
    _ = s._
    rows = log_rows(s, w)
    h = max(1, h)
    s.log_page = h
    seen, s.log_rows_seen = s.log_rows_seen, len(rows)
    if s.log_offset and len(rows) > seen:  # scrolled back: new lines come in below, the view stays put
        s.log_offset += len(rows) - seen
    s.log_offset = max(0, min(s.log_offset, len(rows) - h + 1)) if len(rows) > h - 1 else 0
    if s.log_offset == 0:
        shown = rows[-h:]
        tail = []
    else:
        end = len(rows) - s.log_offset
        shown = rows[max(0, end - (h - 1)):end]
        tail = [("class:log.more", pad(" " + _("↓ newer lines below: {n} — PgDn").format(n=s.log_offset), w))]
    out = []
    for st, text in shown:
        out += [(st, text), ("", "\n")]
    out += tail
    if out and out[-1] == ("", "\n"):
        out.pop()
    return out


def too_small(s: Screen, w: int, h: int) -> list:
    """Shown instead of the table when the terminal is smaller than 80×24."""
    _ = s._
    return [("class:error", " " + _("The terminal is {w}×{h}: please enlarge it to at least 80×24.")
             .format(w=w, h=h)), ("", "\n "), ("class:dim", _("q leaves the table."))]


def status_bar(s: Screen, w: int) -> list:
    """The bottom line: key hints on the left, the connection on the right."""
    _ = s._
    bell = " · ♪" if s.bell else ""
    left = " " + (_("? help · . last trick · = scores · q quit") if s.ended  # no chat once the connection is over
                  else _("? help · . last trick · = scores · Tab chat · q quit")) + bell
    st = {"connecting": _("connecting…"), "connected": _("connected"),
          "reconnecting": _("connection lost — reconnecting…"), "closed": _("disconnected")}.get(s.status, s.status)
    if s.replaced:  # the table goes on, at another connection with this seat's token
        st = _("seat taken over")
    elif s.closed is not None:
        st = _("table closed")
    style = "class:status.bad" if s.status in ("reconnecting", "closed") or s.closed is not None else "class:status.ok"
    right = " " + st + " "
    fair = []  # the fairness check of the deals (docs/fairness.md): a failure stays on screen
    if s.unfair:
        fair = [("class:status.bad", " " + _("⚠ DEAL {n} NOT FAIR").format(n=s.unfair[-1]) + " ")]
    elif s.fair_deal is not None:
        fair = [("class:status.ok", " " + _("✓ deal {n} fair").format(n=s.fair_deal) + " ")]
    used = width(right) + sum(width(t) for _s, t in fair)
    if width(left) + used > w:  # the connection's state and the fairness need the room: the short hints
        left = " " + _("? help · q quit") + bell
    return [("class:status", pad(left, max(0, w - used)))] + fair + [(style, right)]


STYLE = {
    "title": "bold reverse",
    "title.right": "bold reverse",
    "colhead": "underline #888888",
    "dim": "#888888",
    "phase": "bold #5fafff",
    "suit": "bold",
    "suit.red": "bold #ff5f5f",
    "seat.turn": "bold #ffd75f",
    "seat.me": "bold",
    "winner": "bold #ffd75f",
    "mark": "bold #ff87ff",
    "conn.bad": "bold #ff5f5f",
    "yourturn": "bold reverse #ffd75f",
    "card": "bg:#eeeeee #000000",
    "card.black": "bold #000000",
    "card.red": "bold #d70000",
    "card.sel": "bg:#ffd75f",
    "card.dim": "bg:#808080",
    "card.back": "bg:#005f87 #87d7ff",
    "cursor": "reverse bold",
    "key": "bold #5fd7ff",
    "button": "",
    "button.go": "bold #87ff87",
    "button.off": "#888888",
    "error": "bold #ff5f5f",
    "log.chat": "#87ff87",
    "log.error": "#ff5f5f",
    "log.status": "bold #ffaf5f",
    "log.settle": "bold #ffd75f",
    "log.rules": "#87afff",
    "log.more": "reverse #888888",
    "status": "reverse",
    "status.ok": "reverse #5faf5f",
    "status.bad": "reverse bold #ff5f5f",
    "frame.border": "#888888",
    "dialog": "bg:#1c1c1c #eeeeee",
}
