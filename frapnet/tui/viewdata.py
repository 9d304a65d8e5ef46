"""The host's view, checked: every key the client reads, with the wrong type replaced by its
empty value, so that a buggy or hostile host cannot crash the client (docs/protocol.md "view",
"The view's ui map"). Texts are made safe for the terminal where they are drawn."""
from __future__ import annotations

from typing import Callable

from frapnet.tui.actions import as_int
from frapnet.tui.text import safe_text


def _str(x):
    return x if isinstance(x, str) else None


def _strs(x, limit: int, cells: int = 200) -> list[str]:
    return [safe_text(s, cells) for s in x[:limit] if isinstance(s, str)] if isinstance(x, list) else []


def clean_ui(u, n: int) -> dict:
    """The view's ``ui`` map checked and filled (``n`` seats); see frapnet.engine.present."""
    u = u if isinstance(u, dict) else {}
    led = u.get("ledger") if isinstance(u.get("ledger"), dict) else {}
    cells = u.get("cells") if isinstance(u.get("cells"), list) else []
    cols = _strs(u.get("columns"), 4, 14)
    rep = u.get("report") if isinstance(u.get("report"), dict) else None
    report = None
    if rep is not None:
        rcols = []
        for c in rep.get("columns") if isinstance(rep.get("columns"), list) else []:
            if isinstance(c, dict):
                rcols.append({"title": safe_text(c.get("title"), 16), "cells": _strs(c.get("cells"), 64, 24)})
        report = {"columns": rcols[:6], "notes": _strs(rep.get("notes"), 6)}

    def str_map(x, keylimit=64, cells=120):
        if not isinstance(x, dict):
            return {}
        return {k: safe_text(v, cells) for k, v in list(x.items())[:keylimit] if isinstance(k, str) and isinstance(v, str)}

    opts = []
    for p in u.get("options") if isinstance(u.get("options"), list) else []:
        if isinstance(p, (list, tuple)) and len(p) == 2:
            opts.append((safe_text(p[0], 24), safe_text(p[1], 24)))
    return {
        "title": safe_text(u.get("title"), 20) if isinstance(u.get("title"), str) else "",
        "goal": safe_text(u.get("goal"), 300) if isinstance(u.get("goal"), str) else "",
        "special_cards": _strs(u.get("special_cards"), 8, 200),
        "keys": str_map(u.get("keys"), 64, 1),
        "hints": str_map(u.get("hints"), 26, 120),
        "ledger": {"title": safe_text(led.get("title"), 16) if isinstance(led.get("title"), str) else "",
                   "signed": led.get("signed") is not False, "best": "low" if led.get("best") == "low" else "high"},
        "pot": safe_text(u.get("pot"), 16) if isinstance(u.get("pot"), str) else None,
        "pot_given": "pot" in u,  # a host without ui: the chrome's own word, in a chips game
        "columns": cols,
        "cells": [[safe_text(x, 14) if isinstance(x, str) else "" for x in (row[:len(cols)] if isinstance(row, list)
                                                                          else [])] for row in cells[:n]],
        "marks": _strs(u.get("marks"), n, 3),
        "refusals": str_map(u.get("refusals"), 64, 120),
        "cursor": u.get("cursor") if isinstance(u.get("cursor"), str) else None,
        "card_marks": str_map(u.get("card_marks"), 64, 1),
        "trick_marks": _strs(u.get("trick_marks"), 64, 1),
        "last_trick_marks": _strs(u.get("last_trick_marks"), 64, 1),
        "legend": _strs(u.get("legend"), 8),
        "report": report,
        "options": opts[:24],
    }


def clean_view(v: dict) -> dict:
    """The view with every generic key of the wrong type replaced by its empty value (keys not
    listed here are kept as sent), and ``ui`` checked by :func:`clean_ui`."""
    out = dict(v)
    lists = {k: v.get(k) if isinstance(v.get(k), list) else [] for k in
             ("names", "connection", "seats", "actions", "to_act", "trick", "last_trick", "balances",
              "dead_turn_ups")}
    out.update(lists)
    out["names"] = [n if isinstance(n, str) else safe_text(n) for n in lists["names"]]
    out["connection"] = [c if isinstance(c, str) else "" for c in lists["connection"]]
    out["seats"] = [x if isinstance(x, dict) else {} for x in lists["seats"]]
    out["to_act"] = [x for x in lists["to_act"] if as_int(x) is not None]
    for k in ("trick", "last_trick"):
        out[k] = [list(t) for t in lists[k] if isinstance(t, (list, tuple)) and len(t) == 2
                  and as_int(t[0]) is not None and isinstance(t[1], str)]
    out["dead_turn_ups"] = [c for c in lists["dead_turn_ups"] if isinstance(c, str)]
    for k in ("players", "seat", "hand_count", "talon", "last_winner", "dealer", "deal_no", "round", "pot"):
        out[k] = as_int(v.get(k))
    if out["players"] is not None and not 0 < out["players"] <= 64:
        out["players"] = None
    for k in ("trump", "turn_up", "phase", "phase_label", "ledger", "table", "title", "game"):
        out[k] = _str(v.get(k))
    h = v.get("hand")
    out["hand"] = [c for c in h if isinstance(c, str)] if isinstance(h, list) else None
    out["last_report"] = v.get("last_report") if isinstance(v.get("last_report"), dict) else None
    out["match_over"] = v.get("match_over") is True
    n = out["players"] or len(out["names"])
    out["sheet"] = clean_sheet(v.get("sheet"), n) if "sheet" in v else None
    base = v.get("sheet_base")  # the balances before the sheet's first row, when it does not start at deal 1
    out["sheet_base"] = list(base) if isinstance(base, list) and len(base) == n and all(map(_int, base)) else None
    out["ui"] = clean_ui(v.get("ui"), n)
    return out


def _int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def clean_sheet(rows, n: int) -> list[dict]:
    """The view's ``sheet`` (the match's score sheet, docs/protocol.md) checked: rows
    ``{"deal": int, "after": [int per seat], "pot": int|None}`` with rising deal numbers; a row
    of another shape ends the list (an older or buggy host: the client keeps what it saw)."""
    out: list[dict] = []
    for r in rows[:10_000] if isinstance(rows, list) else []:
        after = r.get("after") if isinstance(r, dict) else None
        if not (isinstance(after, list) and len(after) == n and all(_int(x) for x in after) and _int(r.get("deal"))
                and (not out or r["deal"] > out[-1]["deal"])):
            break
        out.append({"deal": r["deal"], "after": list(after), "pot": r.get("pot") if _int(r.get("pot")) else None})
    return out


def in_deal(v: dict) -> bool:
    """The view is of a deal being played (someone to act, or a phase other than done)."""
    return bool(v.get("to_act")) or (v.get("phase") not in (None, "done"))


def report_balances(report: dict):
    """A deal report's balances or points after the deal (``balances``, ``points_after`` or
    ``points``), or None."""
    for k in ("balances", "points_after", "points"):
        b = report.get(k)
        if isinstance(b, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in b):
            return b
    return None


def table_rules_lines(view: dict, welcome: dict | None, _: Callable[[str], str]) -> list[str]:
    """The table's game, options and house rules in a few plain lines (F27), in the view's words
    (``ui.title``, ``ui.options``, from the game plugin in the seat's language)."""
    u = view.get("ui") or {}
    w = welcome if isinstance(welcome, dict) else {}
    title = u.get("title") or safe_text(view.get("title") or w.get("title") or view.get("game") or "", 30)
    parts = [f"{k} {val}" for k, val in u.get("options") or ()]
    lines = [_("Table rules — {game}: {options}").format(game=title, options=", ".join(parts) or "—")]
    hrs = view.get("house_rules") if isinstance(view.get("house_rules"), list) else []
    names = [safe_text(str(h), 30) for h in hrs[:12]]
    lines.append(_("House rules: {names}").format(names=", ".join(names) if names else _("none")))
    return lines
