"""Helpers for fixed-deck La Krap tests (pure; used by variants/la_krap/tests and usable by
anyone testing a La Krap house rule).

- :func:`start`: a table whose first deal deals the hands you name (L4).
- :func:`keep_all`: every seat exchanges nothing (L7), so play can begin.
- :func:`one_trick`: deal so that seat 0 leads and each seat can play the named card, play
  that trick, and return the trick event (winner, neutralised seats).
"""
from __future__ import annotations

from frapnet import engine

from frapnet_la_krap.plugin import PACK, build_deck, effective_suits

__all__ = ["start", "keep_all", "one_trick", "fillers", "play"]


def start(players, down, team, turn_up, dealer=None, talon_top=(), options=None, registry=None):
    """New match and its first deal; ``dealer`` defaults to seat n−1 so that seat 0 exchanges
    first and leads (L7, L8). Returns ``(state, events)``."""
    if dealer is None:
        dealer = players - 1
    st = engine.new_match("la_krap", players, options or {}, registry=registry)
    deck = build_deck(players, dealer, down, team, turn_up, talon_top)
    return engine.start_deal(st, deck, dealer)


def keep_all(st):
    """Every seat keeps its cards (``exchange []``, L7); returns the state in play."""
    while st.deal.phase == "exchange":
        st, _ = engine.apply(st, st.to_act[0], ("exchange", []))
    return st


def play(st, *cards):
    """Play ``cards`` in turn order (each by the seat to act); returns ``(state, events)``."""
    events = []
    for c in cards:
        st, ev = engine.apply(st, st.to_act[0], ("play", c))
        events.extend(ev)
    return st, events


def fillers(count, avoid_suits, used, turn_up):
    """``count`` plain cards (7–A, no 2s, jokers or 5♣) of suits not in ``avoid_suits``, taken
    from the pack minus ``used`` (a list, may repeat) and the turn-up."""
    rest = list(PACK)
    for c in list(used) + [turn_up]:
        rest.remove(c)
    out = [c for c in rest if c not in ("RJ", "BJ", "5C") and c[0] != "2" and c[-1] not in avoid_suits]
    if len(out) < count:
        raise ValueError(f"not enough filler cards outside {sorted(avoid_suits)}")
    return out[:count]


def one_trick(cards, turn_up="7D", team=None, registry=None):
    """Play one trick of ``cards`` (seat 0 leads, seat i plays ``cards[i]``; n = len(cards)).

    Every other card dealt avoids the suits of the trick (jokers: the turn-up suit; the 5♣:
    clubs), so any card may be played where L8 allows a void. Returns ``(trick_event, state)``.
    """
    n = len(cards)
    eff = effective_suits(turn_up[-1])
    avoid = {eff[c] for c in cards}
    used = list(cards) + list(team or [])
    fill = fillers(5 * n + (0 if team else n), avoid, used, turn_up)
    down = [[cards[s]] + fill[5 * s:5 * s + 5] for s in range(n)]
    team = list(team) if team else fill[5 * n:5 * n + n]
    st, _ = start(n, down, team, turn_up, registry=registry)
    st = keep_all(st)
    st, events = play(st, *cards)
    trick = [e for e in events if e["type"] == "trick"]
    return trick[0], st
