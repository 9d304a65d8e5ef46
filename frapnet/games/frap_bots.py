"""Frap's computer-player hooks (issue #8): the sampler and the fast policy.

Part of the built-in Frap plugin (:mod:`frapnet.games.frap` imports these hooks), and the worked
example of docs/plugins.md for variant authors.

- :func:`frapnet_sample_deal` (in :mod:`frapnet.games.frap_sample`) rebuilds the deal's actions
  from a seat's views and deals every card the seat has not seen into the places it cannot see,
  keeping every earlier play legal (F20 voids), then lays the deck out by F8 and the talon order of
  the draws (F12, F15–F17).
- :func:`frapnet_policy` is ``basic``: it reads only what its seat may know (own hand once looked,
  public facts, the cards played so far and the voids shown, both kept in the deal).

No I/O; pure functions of their arguments (randomness only from ``rng``).
"""
from __future__ import annotations

from frapnet.cards import card_key
from frapnet.hookspecs import hookimpl

_VAL = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), start=2)}


def _val(card: str) -> int:
    return _VAL[card[:-1]]


# --- the policy: basic (F9–F21) ----------------------------------------------------------------

FRAP_AT = 1.75
"""basic fraps (F10) when :func:`frap_estimate` reaches this many tricks."""


def frap_estimate(hand, trump) -> float:
    """Expected tricks of a Frap hand: trump A/K 1, Q/J 0.75, lower trumps 0.5, side aces 0.6."""
    est = 0.0
    for c in hand:
        v = _val(c)
        if c[-1] == trump:
            est += 1.0 if v >= 13 else 0.75 if v >= 11 else 0.5
        elif v >= 14:
            est += 0.6
    return est


def _strength(card, trump):
    return _val(card) + (50 if card[-1] == trump else 0)


def _beats(card, best, led, trump):
    """F21: does ``card`` beat the trick's current ``best``?"""
    cs, bs = card[-1], best[-1]
    if cs == trump:
        return bs != trump or _val(card) > _val(best)
    if bs == trump:
        return False
    return cs == led and _val(card) > _val(best)


_IN_PACK: dict = {}


def _pack_cards(size):
    got = _IN_PACK.get(size)
    if got is None:
        lo = {32: 7, 36: 6, 52: 2}.get(size, 2)
        got = _IN_PACK[size] = frozenset(r + s for r, v in _VAL.items() if v >= lo for s in "SHDC")
    return got


def _play(state, d, seat, actions):
    trump = d.trump
    hand = d.hands[seat]
    by = {a[1]: a for a in actions if a[0] == "play"}
    cards = sorted(by, key=lambda c: (_strength(c, trump), card_key(c)))
    trick = d.trick
    need = (2 if seat == d.frapper else 1) - d.tricks[seat]
    if not trick:
        # lead: a master card if we have one (highest first), else the strongest
        size = len(d.deck)
        pk = _pack_cards(size)
        gone = set(d.played_cards) | set(hand) | set(d.dead_turn_ups)
        if d.turn_up is not None:
            gone.add(d.turn_up)

        def master(c):
            s, v = c[-1], _val(c)
            return all((r + s) in gone or (r + s) not in pk for r, rv in _VAL.items() if rv > v)
        masters = [c for c in cards if master(c)]
        if masters:
            return by[masters[-1]]
        if need <= 0:
            return by[cards[0]]  # contract made: lead low
        return by[cards[-1]]
    led = trick[0][1][-1]
    best = trick[0][1]
    for _, c in trick[1:]:
        if _beats(c, best, led, trump):
            best = c
    winners = [c for c in cards if _beats(c, best, led, trump)]
    return by[winners[0] if winners else cards[0]]  # the lowest winning card, else the lowest


def _weakest(cards, trump):
    return min(cards, key=lambda c: (c[-1] == trump or _val(c) >= 14, _strength(c, trump), card_key(c)))


@hookimpl
def frapnet_policy(state, seat, actions, rng):
    """Frap's ``basic``: reads only ``seat``'s own hand (once it has looked), its discards and
    public facts (declarations, turn-up, trick, cards played, tricks taken)."""
    d = state.deal
    verbs = {a[0]: a for a in actions}
    if "look" in verbs and not d.looked[seat]:  # F9: look before deciding
        return verbs["look"]
    hand = d.hands[seat]
    trump = d.trump
    if "play" in verbs:
        return _play(state, d, seat, actions)
    if "frap" in verbs or "whist" in verbs:  # F10, F11
        est = frap_estimate(hand, trump)
        if "frap" in verbs and est >= FRAP_AT:
            return verbs["frap"]
        if "whist" in verbs:
            bound = sum(1 for x in d.declared if x in ("frap", "blind_frap", "whist"))
            has = any(_val(c) >= 14 or c[-1] == trump for c in hand)
            if bound >= 3:
                has = est >= 1.0
            if has:
                return verbs["whist"]
        return verbs.get("pass") or verbs.get("whist") or verbs.get("frap")
    takes = [a for a in actions if a[0] == "take_trump"]
    if takes and d.turn_up is not None and _val(d.turn_up) >= 11:  # F16
        pool = [a[1] for a in takes if a[1] != d.turn_up]
        w = _weakest(pool or [a[1] for a in takes], trump)
        return next(a for a in takes if a[1] == w)
    buys = [a for a in actions if a[0] == "buy"]
    if buys:  # F15: keep trumps and aces, discard the rest
        keep = {c for c in hand if c[-1] == trump or _val(c) >= 14}
        want = tuple(sorted((c for c in hand if c not in keep), key=card_key))
        best = None
        for a in buys:
            if set(a[1]) <= set(want) and (best is None or len(a[1]) > len(best[1])):
                best = a
        return best or buys[0]
    if "cut_in" in verbs or "cut_in_trump" in verbs or "decline" in verbs:  # F17
        if "cut_in_trump" in verbs and d.turn_up is not None and _val(d.turn_up) >= 13:
            return verbs["cut_in_trump"]
        return verbs.get("decline")
    discards = [a for a in actions if a[0] == "discard"]
    if discards:
        w = _weakest([a[1] for a in discards], trump)
        return next(a for a in discards if a[1] == w)
    return None


@hookimpl
def frapnet_search_rival(state, seat):
    """F24/F28: a chip paid into the pot is the next deal's, 1/n of it each seat's, so ``expert``
    values a deal as its balance plus pot / n, i.e. its own result minus the others' mean (F6)."""
    return 1.0
