"""Per-player statistics across the matches stored in a journal (issue #9 item 3;
`frapnet stats`, docs/hosting.md "Statistics").

Each stored match is rebuilt by replaying its deals (the journal stores no amounts); at every
settled deal the game plugin's ``frapnet_deal_stats(state, report)`` hook gives its own
counts per seat (Frap: fraps made and failed, blind fraps, remises…). Players are matched by
the name they sat under.
"""
from __future__ import annotations

import json
import unicodedata
from typing import Any

from frapnet import engine, record
from frapnet.errors import counted
from frapnet.net.journal import Journal
from frapnet.net.protocol import for_log

NAME_LIMIT = 120
"""Longest name or table name `frapnet stats` and `frapnet export --list` print, in characters
after escaping (the host's own log limit for client text)."""


def for_terminal(text: Any, limit: int = NAME_LIMIT) -> str:
    """A name read from a journal, safe to print: control, format and other non-printing
    characters escaped (``\\x1b``, ``\\u202e``, ``\\n``…) and cut as the host logs client text
    (:func:`frapnet.net.protocol.for_log`). Issue #9: a journal is a file anyone may edit, and
    its names reached the terminal raw."""
    return for_log(text, limit)


def dumps_for_terminal(obj: Any) -> str:
    """``obj`` as one line of JSON holding the real strings, with every character a terminal could
    act on — control and format characters (C1 controls, bidi overrides…), line and paragraph
    separators — written as a ``\\u`` escape; other characters as they are (names in any script
    stay readable). JSON's own escaping covers U+0000–U+001F only."""
    text = json.dumps(obj, ensure_ascii=False)
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat[0] == "C" or cat in ("Zl", "Zp"):
            n = ord(ch)
            if n > 0xFFFF:  # as a UTF-16 surrogate pair, as JSON writes it
                n -= 0x10000
                out.append(f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}")
            else:
                out.append(f"\\u{n:04x}")
        else:
            out.append(ch)
    return "".join(out)


def match_stats(rec: dict, registry=None) -> dict:
    """One match's figures per seat 0…n−1: ``{"game", "deals" (settled), "unit" ("chips" or
    "points"), "net": [per seat], "counts": {name: [per seat]}}``. ``net`` is each seat's
    balance (whole chips) or points at the end. Raises :class:`frapnet.record.ReplayError` if
    the record does not replay."""
    counts: dict[str, list[int]] = {}

    def add(state: engine.State) -> None:  # the deal just settled
        got = engine.deal_stats(state)
        for key, per_seat in (got or {}).items():
            tally = counts.setdefault(key, [0] * state.players)
            for seat, k in enumerate(list(per_seat)[:state.players]):
                tally[seat] += int(k)

    state, _ = record.replay(rec, registry, before_deal=lambda i, deal, st: add(st) if i else None)
    add(state)
    report = engine.match_report(state)
    unit = "points" if "points" in report and "balances" not in report else "chips"
    net = list(report.get("balances") if unit == "chips" else report.get("points")) or [0] * state.players
    return {"game": state.game, "deals": len(state.reports), "unit": unit, "net": net, "counts": counts}


def player_stats(journal: Journal, registry=None) -> dict:
    """Every named player of ``journal``'s matches: ``{"matches": total stored, "players":
    [{"name", "matches", "deals", "games": {game: {"matches", "deals", "unit", "net",
    "counts": {name: int}}}}]}`` sorted by name; ``skipped``: ids of matches that do not
    replay (reported, not counted). A match with no deal dealt is not counted."""
    players: dict[str, dict[str, Any]] = {}
    skipped = []
    stored = journal.matches()
    for m in stored:
        if not m["deals"]:  # nothing was dealt (a host stopped before its first deal): not played
            continue
        try:
            ms = match_stats(journal.record(m["id"]), registry)
        except record.ReplayError:
            skipped.append(m["id"])
            continue
        for seat, name in enumerate(m["names"]):
            if not name:
                continue
            p = players.setdefault(name, {"name": name, "matches": 0, "deals": 0, "games": {}})
            p["matches"] += 1
            p["deals"] += ms["deals"]
            g = p["games"].setdefault(ms["game"], {"matches": 0, "deals": 0, "unit": ms["unit"], "net": 0,
                                                   "counts": {}})
            g["matches"] += 1
            g["deals"] += ms["deals"]
            g["net"] += ms["net"][seat] if seat < len(ms["net"]) else 0
            for key, per_seat in ms["counts"].items():
                g["counts"][key] = g["counts"].get(key, 0) + per_seat[seat]
    return {"matches": len(stored), "players": [players[k] for k in sorted(players, key=str.casefold)],
            "skipped": skipped}


def summary(stats: dict) -> str:
    """The text `frapnet stats` prints: one block per player, one line per game; names (and
    games) escaped (:func:`for_terminal`)."""
    lines = [f"{counted(stats['matches'], 'match', 'matches')} in the journal"]
    for p in stats["players"]:
        lines.append(f"{for_terminal(p['name'])}: {counted(p['matches'], 'match', 'matches')}, {counted(p['deals'], 'deal')}")
        for game, g in sorted(p["games"].items()):
            game = for_terminal(game)
            net = f"{g['net']:+d}".replace("-", "\u2212") + f" {g['unit']}" if g["net"] else f"0 {g['unit']}"  # −, as on screen
            extra = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(g["counts"].items()))
            lines.append(f"  {game}: {counted(g['matches'], 'match', 'matches')}, {counted(g['deals'], 'deal')}, net {net}"
                         + (f"; {extra}" if extra else ""))
    if stats["skipped"]:
        lines.append("not counted (they do not replay): match " + ", ".join(map(str, stats["skipped"])))
    return "\n".join(lines)
