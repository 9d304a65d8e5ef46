"""La Krap's fast policy (``basic``; issue #8) and ``expert``'s shortlist of exchanges: the hooks
``frapnet_policy`` and ``frapnet_candidates`` of the game, registered through
:mod:`frapnet_la_krap.bots` (which imports them, beside the sampler that uses :func:`keep_value`).

:func:`frapnet_policy`: exchanges its weak face-down cards (L7; keeps trumps, jokers, aces and
tens, K+Q pairs, the 2s and the 5♣), declares K+Q whenever it may (L10: +5 for its side — the
declaration is offered before any lead), and plays by La Krap's own order (L3) through the
table's trick-winning hook, so neutralising (L11: a twin card, a 2, the 5♣) is judged exactly:
it makes its side (L5) win the trick as cheaply as it can, leaves a partner's winning card alone,
and throws its least useful card when the trick is lost. It reads only the seat's own hand and
public facts (team cards, tricks, declarations, the cards played).

Seats 0…n−1 clockwise. Pure; no I/O.
"""
from __future__ import annotations

from collections import Counter

from frapnet.cards import card_key
from frapnet.hookspecs import hookimpl

from frapnet_la_krap import base as P  # the pack, ranks and phases (P.PACK, P._RANK, P.EXCHANGE…), as in bots.py

MAX_EXCHANGE = 6
_PACK_COUNT = Counter(P.PACK)


def _led(trick, eff):
    first = trick[0][1]
    if first == P.FIVE:
        return eff[trick[1][1]] if len(trick) > 1 else None
    return eff[first]


# --- policy -------------------------------------------------------------------------------------

_RANK = P._RANK


def keep_value(card, trump, eff, hand):
    """How much a face-down card is worth keeping (L7): jokers and the 5♣ most (L6, L11c), then
    trumps, aces and tens (L3), a K or Q with its partner (L10), the 2s (L11b); plain 7–J least."""
    if card in P.JOKERS:
        return 10
    if card == P.FIVE:
        return 9
    r = card[:-1]
    if trump is not None and eff[card] == trump:
        return 6 + _RANK[card] / 2
    if r == "A":
        return 8
    if r == "10":
        return 7
    if r in ("K", "Q"):
        other = ("Q" if r == "K" else "K") + card[-1]
        return 7 if other in hand else 4
    if r == "2":
        return 5
    return {"J": 3, "9": 2, "8": 1, "7": 0}[r]


KEEP_AT = 5
"""Face-down cards worth less than this (:func:`keep_value`) are exchanged (L7): plain 7–J and
a K or Q without its partner (tuned like LAMBDA: 5 beat 4 and 6)."""


def _exchange(d, seat, actions):
    hand = d.hand(seat)
    trump = d.trump
    weak = sorted((c for c in d.down[seat] if keep_value(c, trump, d.eff, hand) < KEEP_AT),
                  key=lambda c: keep_value(c, trump, d.eff, hand))
    weak = weak[:min(MAX_EXCHANGE, d.talon_count)]
    want = ("exchange", tuple(sorted(weak, key=card_key)))
    return want if want in actions else None


@hookimpl
def frapnet_candidates(state, seat, actions, rng):
    """L7: a few exchanges (at most 6) worth comparing — ``basic``'s (its weak face-down cards, those below
    ``KEEP_AT``), the same keeping its strongest one or two of them, adding the next one or two
    weakest cards, and keeping everything. Reads only the seat's own cards. None outside the
    exchange."""
    d = state.deal
    if d.phase != P.EXCHANGE:
        return None
    hand = d.hand(seat)
    trump = d.trump
    order = sorted(d.down[seat], key=lambda c: (keep_value(c, trump, d.eff, hand), card_key(c)))
    k = sum(1 for c in order if keep_value(c, trump, d.eff, hand) < KEEP_AT)
    most = min(MAX_EXCHANGE, d.talon_count)
    legal = set(actions)
    own = _exchange(d, seat, actions)
    out = [own] if own is not None else []
    for m in (k, k - 1, k + 1, k - 2, k + 2, 0):
        if 0 <= m <= most:
            a = ("exchange", tuple(sorted(order[:m], key=card_key)))
            if a in legal and a not in out:
                out.append(a)
    return out


def strength(card, trump, eff, led):
    """A card's power in a trick (L3, L9): trumps above the suit led, above everything else."""
    s = eff[card]
    r = _RANK[card]
    if trump is not None and s == trump:
        return 100 + r
    if s == led:
        return 50 + r
    return r


def spend_cost(card, trump, eff):
    """What playing ``card`` gives up: its value for later tricks."""
    if card == P.FIVE:
        return 8.0
    s = eff[card]
    r = _RANK[card]
    if trump is not None and s == trump:
        return 4.0 + r * 0.4
    return r * 0.35 + (0.8 if r == 0 else 0.0)  # a 2 is a tool (L11b)


def _side(d, seat):
    for side in d.sides:
        if seat in side:
            return side
    return (seat,)


def _unseen(d, seat):
    """Cards ``seat`` has not seen (L2 pack minus its hand, the cards played, the turn-up, the
    team cards on show and its own discards), as a list of ``(card, copies, suit, rank)``."""
    c = dict(_PACK_COUNT)
    for x in d.played_cards:
        c[x] -= 1
    for x in d.hand(seat):
        c[x] -= 1
    c[d.turn_up] -= 1
    for s in range(d.n):
        if s != seat and d.team[s] is not None:
            c[d.team[s]] -= 1
    for x in d.discards[seat]:
        c[x] -= 1
    eff = d.eff
    return [(x, m, eff[x], _RANK[x]) for x, m in c.items() if m > 0]


def _beaters(card, trump, eff, led, unseen):
    """How many unseen cards could take a trick that ``card`` is winning: a stronger card (L3, L9),
    its twin or a 2 of its suit (L11a, L11b), the 5♣ (L11c). ``unseen`` as :func:`_unseen`."""
    s = eff[card]
    r = _RANK[card]
    two = "2" + s
    n = 0
    if trump is not None and s == trump:  # only a higher trump beats a trump
        for x, m, xs, xr in unseen:
            if x == card or x == P.FIVE or x == two or (xs == trump and xr > r):
                n += m
        return n
    own = s == led  # else a card winning off its suit (after a led 5♣): anything of its suit
    for x, m, xs, xr in unseen:
        if x == card or x == P.FIVE or x == two or xs == trump:
            n += m
        elif xs == s:
            if xr > r or not own:
                n += m
        elif not own and xr > r:
            n += m
    return n


def _play(state, d, seat, actions):
    trick = d.trick
    trump, eff = d.trump, d.eff
    side = _side(d, seat)
    plays = [a[1] for a in actions if a[0] == "play"]
    winner = state.rules.trick_winner
    t_side = sum(d.tricks[s] for s in side)
    value = 2 * t_side + 1  # L12: a side's t-th trick is worth t² − (t−1)² = 2t − 1 points
    if not trick:
        unseen = _unseen(d, seat)

        def lead_key(c):
            if c == P.FIVE:
                return (2, 0, 0)
            b = _beaters(c, trump, eff, eff[c], unseen)
            return (0 if b == 0 else 1, b, -strength(c, trump, eff, eff[c]) if b == 0 else 0)
        return ("play", min(plays, key=lambda c: (lead_key(c), card_key(c))))
    seats_in = {x for x, _ in trick}
    to_come = [s for s in range(d.n) if s not in seats_in and s != seat]
    opps = [s for s in to_come if s not in side]
    locked = any(c == P.FIVE for _, c in trick[1:])
    unseen = None
    total = 0
    best, best_score = None, None
    beat_cache = {}
    for c in dict.fromkeys(plays):
        t = trick + [(seat, c)]
        w = winner(state, t)
        p = 0.0
        if w in side:
            if locked or c == P.FIVE or not opps:
                p = 1.0
            else:
                wc = [x for s, x in t if s == w][-1]
                if wc not in beat_cache:
                    if unseen is None:
                        unseen = _unseen(d, seat)
                        total = max(1, sum(x[1] for x in unseen))
                    beat_cache[wc] = _beaters(wc, trump, eff, _led(t, eff), unseen)
                h = beat_cache[wc]
                p = 1.0
                for o in opps:
                    m = len(d.down[o]) + (d.team[o] is not None)
                    p *= (1.0 - min(1.0, m / total)) ** h  # o holds none of the h beaters
        score = value * p - LAMBDA * spend_cost(c, trump, eff)
        if best_score is None or score > best_score:
            best, best_score = c, score
    return ("play", best)


LAMBDA = 0.15
"""Weight of a card's later use against the trick it may win now (tuned in duplicate deals
against the old view-only player: 0.1–0.2 best, 0.5 and above worse)."""


@hookimpl
def frapnet_policy(state, seat, actions, rng):
    """La Krap's ``basic`` (see the module docstring): exchange (L7), declare (L10), play (L8–L11)."""
    d = state.deal
    if d.phase == P.EXCHANGE:
        return _exchange(d, seat, actions)
    if d.phase == P.PLAY:
        for a in actions:  # L10: +5 for the side; offered only before a lead, after winning a trick
            if a[0] == "declare":
                return a
        return _play(state, d, seat, actions)
    return None
