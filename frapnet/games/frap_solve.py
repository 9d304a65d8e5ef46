"""An exact solver for the play of a Frap deal (F19–F21, F23–F25; issue #8): ``frapnet_solve_play``.

Given a full State in the play phase (a deal ``expert`` sampled, every card placed), it finds the
result of the rest of the deal when every seat in play plays to maximise its own result (max^n,
the others' hands known: how GIB and Kermit solve a sampled deal) and returns every seat's result
in antes (``frapnet_deal_result``'s unit): the trick money still to come (F23) minus the remise it
ends up paying (F24, F25 with ``graded_remise``).

Written on plain ints and tuples, not on engine States: a card is ``suit * 16 + value`` (value 2…14,
ace high, F3); hands are tuples sorted by strength; a position at the start of a trick is
remembered by (hands, leader, tricks taken so far). F20 (follow suit; void: trump; else any card)
and F21 (highest trump, else highest of the suit led) are the engine's (tests/test_frap_solve.py
compares the legal cards and the settled results with the engine's on random deals).

Ties (a seat that gets the same result with several cards) go to the lowest card (trumps count
above the other suits), so a solve is deterministic. Returns None where it does not apply:
another phase, ``revoke: penalize`` (F22), or a house rule (five-card Frap changes F23/F24) —
and where the position is too big to solve in good time: more than :data:`MAX_SIZE` seats in
play times tricks left (the search then plays those samples out with the policy; a later,
smaller position of the same deal is solved).

No I/O; a pure function of the state.
"""
from __future__ import annotations

from frapnet.hookspecs import hookimpl

_VAL = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), start=2)}
_SUIT = {s: i for i, s in enumerate("SHDC")}
_CODE = {r + s: _SUIT[s] * 16 + v for r, v in _VAL.items() for s in "SHDC"}


_MEMO: dict = {}
"""Solved positions, per (trump, utilities): the search solves many deals that share positions
(every candidate card of a play decision, the samples of one decision). Values are exact, so the
cache changes only the speed (never the answer); cleared above :data:`_MEMO_MAX` entries."""

_MEMO_MAX = 50_000

MAX_SIZE = 16
"""The largest position :func:`solve` takes: seats in play × tricks left. The search grows about
tenfold per seat at four tricks left (one solve, cold: p90 5 ms with 4 seats in play, 16 ms with
5, 36 ms with 6, 150 ms with 8, and up to 1.2 s), and a seeded ``expert`` solves every candidate of
24 samples: at a 12-seat table a first card cost 3–5 s. A static bound, so a seeded player stays
reproducible (a node budget would depend on what the shared memo already holds). Four players
(4 × 4 = 16) are solved as before."""


def _utilities(state, d, order):
    """Per player in ``order``: (value of taking t more tricks in P units, for t = 0…left)."""
    graded = state.options.get("graded_remise")
    left = d.tricks_total - d.played
    out = []
    for s in order:
        have = d.tricks[s]
        row = []
        for t in range(left + 1):
            total = have + t
            if s == d.frapper:
                if total >= 2:
                    rem = 0
                elif graded and total == 1:  # F25
                    rem = (3 if d.blind_turn_up is not None and d.blind_turn_up[:-1] == "A" else 2) if d.blind else 1
                else:
                    rem = 4 if d.blind else 2  # F24
            else:
                rem = 1 if total == 0 else 0  # F24: a whister or cut-in player
            row.append(t / 4 - rem)  # F23: a quarter of P per trick
        out.append(tuple(row))
    return out


def _legal(hand, trick, trump):
    """F20 on codes: the suit led if able, else a trump if able, else any card of ``hand``."""
    if not trick:
        return hand
    led = trick[0][1] >> 4
    same = tuple(c for c in hand if c >> 4 == led)
    if same:
        return same
    return tuple(c for c in hand if c >> 4 == trump) or hand


_NAME = {v: k for k, v in _CODE.items()}


def legal_cards(state) -> list[str]:
    """The cards the solver lets the seat to move play (F20), as card strings — for the tests,
    which compare them with ``engine.legal_actions``."""
    d = state.deal
    trump = _SUIT[d.trump]
    hand = tuple(_CODE[c] for c in d.hands[d.turn])
    trick = tuple((s, _CODE[c]) for s, c in d.trick)
    return [_NAME[c] for c in _legal(hand, trick, trump)]


def solve(state):
    """The rest of the deal under max^n: a list with one result per seat 0…n−1, in antes (0 for a
    seat not in play); None outside the play phase, under F22 ``penalize`` or a house rule."""
    d = state.deal
    if d is None or d.phase != "play" or state.house_rules or state.options.get("revoke") == "penalize" \
            or not d.pays_tricks or d.turn is None:
        return None
    order = tuple(d.in_play)
    m = len(order)
    if m * (d.tricks_total - d.played) > MAX_SIZE:
        return None
    idx = {s: i for i, s in enumerate(order)}
    trump = _SUIT[d.trump]

    def strength(c):
        return (c & 15) + (32 if c >> 4 == trump else 0)

    hands = tuple(tuple(sorted((_CODE[c] for c in d.hands[s]), key=strength)) for s in order)
    util = _utilities(state, d, order)
    left = d.tricks_total - d.played
    context = (trump, tuple(util))
    memo = _MEMO.get(context)
    if memo is None:
        if len(_MEMO) > 64 or sum(len(x) for x in _MEMO.values()) > _MEMO_MAX:
            _MEMO.clear()
        memo = _MEMO[context] = {}

    def winner(trick):
        """F21: the index (in ``order``) of the trick's winner; ``trick`` is ((i, card), …)."""
        led = trick[0][1] >> 4
        bi, bc = trick[0]
        bt = led == trump
        for i, c in trick[1:]:
            s = c >> 4
            if s == trump:
                if not bt or c > bc:
                    bi, bc, bt = i, c, True
            elif not bt and s == led and c > bc:
                bi, bc = i, c
        return bi

    def at_trick(hands, leader, taken, left):
        key = (hands, leader, taken)
        v = memo.get(key)
        if v is None:
            if left == 1:  # the last trick: every card is forced
                t = tuple(((leader + k) % m, hands[(leader + k) % m][0]) for k in range(m))
                w = winner(t)
                v = tuple(util[j][taken[j] + (j == w)] for j in range(m))
            else:
                live = 0
                for h in hands:
                    for c in h:
                        live |= 1 << c
                v = in_trick(hands, leader, taken, left, (), live)
            memo[key] = v
        return v

    def in_trick(hands, leader, taken, left, trick, live):
        i = (leader + len(trick)) % m
        hand = hands[i]
        others = live
        for c in hand:
            others &= ~(1 << c)
        best = None
        bv = None
        cap = util[i][taken[i] + left]
        prev = -1
        for c in _legal(hand, trick, trump):
            if prev >= 0 and prev >> 4 == c >> 4 and not others & ((1 << c) - (1 << (prev + 1))):
                prev = c
                continue  # the same as the lower card just tried: no live card of another lies between
            prev = c
            h = list(hands)
            h[i] = tuple(x for x in hand if x != c)
            h = tuple(h)
            t = trick + ((i, c),)
            if len(t) == m:
                w = winner(t)
                tk = taken[:w] + (taken[w] + 1,) + taken[w + 1:]
                if left == 1:
                    v = tuple(util[j][tk[j]] for j in range(m))
                else:
                    v = at_trick(h, w, tk, left - 1)
            else:
                v = in_trick(h, leader, taken, left, t, live)
            if best is None or v[i] > bv:
                best, bv = v, v[i]
                if bv >= cap:
                    break  # it cannot do better than taking every trick left
        return best

    trick = tuple((idx[s], _CODE[c]) for s, c in d.trick)
    leader = idx[d.trick[0][0]] if d.trick else idx[d.turn]
    taken = (0,) * m
    if trick:
        live = 0
        for h in hands:
            for c in h:
                live |= 1 << c
        for _, c in trick:
            live |= 1 << c
        vals = in_trick(hands, leader, taken, left, trick, live)
    else:
        vals = at_trick(hands, leader, taken, left)
    scale = d.P / state.options["ante"]
    out = [0.0] * d.n
    for j, s in enumerate(order):
        out[s] = vals[j] * scale
    return out


@hookimpl
def frapnet_solve_play(state, seat):
    """Frap's exact play solver (max^n over the remaining cards, F19–F21, F23–F25): see :func:`solve`."""
    return solve(state)
