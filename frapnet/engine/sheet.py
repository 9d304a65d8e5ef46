"""The score sheet a view lists (docs/protocol.md "view": ``sheet``, ``sheet_base``): the latest
settled deals, so that a view does not grow with the length of the match (issue #9). Pure: no I/O.
"""
from __future__ import annotations


SHEET_ROWS = 50
"""The most settled deals a view's ``sheet`` lists (the latest; docs/protocol.md "view")."""
SHEET_BYTES = 16 * 1024
"""About the most bytes a view's ``sheet`` takes on the wire: at 12 seats whose balances have
100 digits (a Frap table's remises compound them there within 200 deals, F6) a row is about
1.3 kB, at the protocol's 1,000 digits about 12 kB, so fewer rows are listed then (always the
last). Each view goes to every seat at every change: a 12-seat table's views stay about 25 kB
however long the match (57 kB with a 48 kB budget, and the host then spent three times the CPU
per move; docs/performance.md "Long matches"), and inside the 256 KiB frame limit (issue #9)."""


def _int_bytes(x: int) -> int:
    """About how many bytes msgpack takes for the whole number ``x`` (at most 9 within 64 bits; a
    bigger one is ext 1: its decimal digits and a 3-byte header; F6) — never fewer than it takes."""
    if -(1 << 63) <= x < (1 << 64):
        return 9
    return (x.bit_length() * 30103) // 100000 + 6


_SMALL_MIN, _SMALL_END = -(1 << 63), 1 << 64  # the whole numbers msgpack packs in at most 9 bytes
_SIZES: dict[int, tuple[dict, int]] = {}
"""Per score-sheet row (by identity, the row itself kept with it: rows are the states' own and
never change), its size for :func:`sheet_window` — each row is measured once, not at every deal
end of the match's 50 latest (issue #9: a deal's last act is the slowest of a 12-seat table)."""
_SIZES_MAX = 1024  # (rows of about 20 tables at once; more only measures some rows again)


def _row_size(row: dict) -> int:
    """About how many bytes ``row`` (``{"deal", "after", "pot"}``) takes in a view, remembered."""
    after = row["after"]
    size = 24 + _int_bytes(row.get("deal") or 0) + _int_bytes(row.get("pot") or 0)
    if after and _SMALL_MIN <= min(after) and max(after) < _SMALL_END:  # (found in C: the usual case)
        size += 9 * len(after)
    else:  # some balance past 64 bits (F6): each counted
        size += sum(_int_bytes(x) for x in after)
    if len(_SIZES) >= _SIZES_MAX:
        _SIZES.clear()
    _SIZES[id(row)] = (row, size)
    return size


def sheet_window(totals: tuple) -> tuple[list, list | None]:
    """The score sheet a view lists: the latest rows of ``totals`` (the state's, one map per
    settled deal, oldest first) — at most :data:`SHEET_ROWS`, and no more than fit in about
    :data:`SHEET_BYTES`, but always the last one — and ``sheet_base``: per seat, the balance (or
    points) after the deal just before the first row listed, or None when the rows start at the
    match's first deal (the change over a listed deal is its ``after`` minus the row before it,
    or minus ``sheet_base`` for the first; before the match's first deal everyone had 0).
    Returns ``(rows, base)``: a new list of the state's own row objects, and that row's own
    ``after`` list or None."""
    start, room = len(totals), SHEET_BYTES
    while start > 0 and len(totals) - start < SHEET_ROWS:
        row = totals[start - 1]
        known = _SIZES.get(id(row))
        size = known[1] if known is not None and known[0] is row else _row_size(row)
        if size > room and start < len(totals):
            break
        room -= size
        start -= 1
    return list(totals[start:]), (totals[start - 1]["after"] if start > 0 else None)
