"""How far a table's amounts may grow on a host (F6 against the wire; docs/protocol.md "Framing").

F6: amounts are unbounded (Frap's remises compound the pot), and a record holds any of them. The
protocol carries an integer of at most :data:`frapnet.net.wire.MAX_BIGINT_DIGITS` (1,000) decimal
digits (ext 1): a view with a larger balance or pot could not be decoded by any client. So a
host ends the match cleanly before that (issue #9):

- between deals, once a balance or the pot has more than :data:`NEAR_DIGITS` (990) digits —
  ten digits of room are more than one deal of any built-in game adds (a Frap pot grows at most
  about 25-fold in a deal) — the match ends there instead of dealing on (:data:`NEAR`);
- and whatever a game does, an action (or a deal's antes) that would take one past 1,000 digits
  is not applied: the match ends just before it, that deal unfinished (:data:`PAST`).

Either way the match is over (not resumed: it would hit the same wall), every player gets
``closing`` with the last result the protocol carries, and the record, written as always, replays
to it. No sockets here: :class:`frapnet.net.table.Table` asks.
"""
from __future__ import annotations

from frapnet.errors import digits
from frapnet.net.wire import MAX_BIGINT_DIGITS

NEAR_DIGITS = MAX_BIGINT_DIGITS - 10
# the two closing reasons (docs/protocol.md "closing"): a template, the gettext msgid the clients
# say in the player's language (frapnet/tui/rematch.py, web_assets/app.js), and its English
NEAR_TEXT = ("the amounts passed {near} digits, near the {limit} digits the protocol carries: the match ends "
             "after this deal (F6)")
PAST_TEXT = ("the next move would take the amounts past the {limit} digits the protocol carries: the match ends "
             "before it (F6)")
NEAR = NEAR_TEXT.format(near=f"{NEAR_DIGITS:,}", limit=f"{MAX_BIGINT_DIGITS:,}")
PAST = PAST_TEXT.format(limit=f"{MAX_BIGINT_DIGITS:,}")
_SMALL = 1 << 3000  # fewer than 904 digits: the usual case, decided without counting


def most_digits(state) -> int:
    """The most decimal digits of any balance or the pot of the engine ``state`` (sign not counted)."""
    b, pot = state.balances, state.pot
    top = max(max(b), -min(b), pot, -pot) if b else abs(pot)  # no abs() per balance: no new big integers
    return 1 if top < _SMALL else digits(top)


def past_limit(state) -> bool:
    """True if a balance or the pot of ``state`` has more digits than the protocol carries."""
    return most_digits(state) > MAX_BIGINT_DIGITS


def near_limit(state) -> bool:
    """True if a balance or the pot of ``state`` has more than :data:`NEAR_DIGITS` digits: between
    deals, the match ends rather than deal on."""
    return most_digits(state) > NEAR_DIGITS
