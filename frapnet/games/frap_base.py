"""Frap's deal phases, their rule IDs and names, and F20's cards to follow with: shared by the
rules (:mod:`frapnet.games.frap`, :mod:`frapnet.games.frap_bidding`) and the views
(:mod:`frapnet.games.frap_view`); and what the rules share: collecting from every player
(F5, F12/F13) and a card's symbol in a refusal."""
from __future__ import annotations

from frapnet.cards import format_card

# Deal phases
BID, WHIST, BUY, CUT, CUT_DISCARD, PLAY, DONE = "bid", "whist", "buy", "cut", "cut_discard", "play", "done"
PHASE_RULE = {BID: "F10", WHIST: "F11", BUY: "F15", CUT: "F17", CUT_DISCARD: "F17", PLAY: "F19", DONE: "record"}
_PHASE_EN = {BID: "bidding", WHIST: "whist round", BUY: "buying", CUT: "cut-in", CUT_DISCARD: "cut-in discard",
             PLAY: "play", DONE: "deal over"}
"""Each phase's name in English, for error messages (and the English view)."""


def deck_size(players: int, option) -> int:
    """F2: the pack size for ``players`` under the ``deck`` option (``"auto"`` or 32/36/52)."""
    if option == "auto":
        return 32 if players <= 4 else 36 if players <= 6 else 52
    return option


def _follow_cards(d, hand):
    """F20: cards of the led suit; else trumps; else any card."""
    if not d.trick:
        return hand
    led = d.trick[0][1][-1]
    same = [c for c in hand if c[-1] == led]
    if same:
        return same
    trumps = [c for c in hand if c[-1] == d.trump]
    return trumps or hand


def _collect(state, amount):
    """Every player pays ``amount`` into the pot (ante F5, top-up F12/F13). F6 holds."""
    b = state.balances
    for i in range(state.players):
        b[i] -= amount
    state.pot += amount * state.players


def _sym(card):
    return format_card(card, symbols=True)
