"""Napoleon's computer-player knowledge (issue #8): the sampler, the fast policy (``basic``).

- :func:`frapnet_sample_deal` rebuilds the deal from a seat's views (calls N4, the buy N5, every
  card played N6), and places the cards the seat has not seen: other seats' hands avoid the suits
  they have shown they lack (N6: a seat that did not follow suit has none of it, and none of the
  trumps if it did not trump either); the declarer's bought card is the talon's top (N3, N5).
- :func:`frapnet_policy` bids by an estimate of the tricks the hand takes as declarer, choosing
  the bid — ``napoleon`` (N8: all five plus the treasure) and the dealer's ``here`` (N4) included —
  with the best expected payment; buys away the weakest side card (N5); leads trumps from the top
  (N6); defenders play as one side against the declarer. It reads only the seat's own hand and
  public facts (calls, tricks, ``played_cards``, ``voids``).
- :func:`frapnet_search_factor` gives ``expert`` more samples for its calls in the auction (N4).

Seats 0…n−1 clockwise; amounts in stakes. Pure; no I/O.
"""
from __future__ import annotations

import math

from frapnet.cards import pack as make_pack, rank_value
from frapnet.games.hidden import Knowledge, before_deal, card_played, deal_out, place, steps, suits_allowed
from frapnet.hookspecs import hookimpl

HAND = 5
NAPOLEON = 6
SUITS = "SHDC"
_PACK = make_pack(36)

# --- sampler ------------------------------------------------------------------------------------

_CALL = {"pass": ("pass",), "here": ("here",), "napoleon": ("napoleon",)}


def read_deal(observations, seat):
    """What ``seat`` knows of the current deal from its views: a dict with ``actions`` (the deal's
    actions, ``None`` for the declarer's hidden discard), ``start`` (the seat's dealt hand),
    ``played`` (cards each seat played), ``voids`` (suits each seat has shown it lacks, N6),
    ``bought`` (the card the declarer took from the talon, if the seat knows it), ``discard``.
    None if the views do not start at the deal's start or have a gap."""
    walk = steps(observations)
    if walk is None:
        return None
    views, pairs = walk
    v0 = views[0]
    if v0.get("phase") != "auction" or any(x.get("declaration") is not None for x in v0["seats"]):
        return None
    n = v0["players"]
    actions = []
    played = [[] for _ in range(n)]
    voids = [""] * n
    bought = discard = None
    trump = None
    for a, b in pairs:
        s = a["turn"]
        ph = a["phase"]
        if ph == "auction":
            call = b["seats"][s]["declaration"]
            act = _CALL.get(call) or ("bid", call)
            actions.append([s, *act])
        elif ph == "buy":
            if b["talon"] < a["talon"]:
                if s == seat:
                    discard = b["discards"][0]
                    bought = [c for c in b["hand"] if c not in a["hand"]][0]
                    actions.append([s, "buy", [discard]])
                else:
                    actions.append([s, "buy", None])  # a hidden discard
            else:
                actions.append([s, "buy", []])
        elif ph == "play":
            card = card_played(a, b)
            trick = a["trick"]
            if trick:
                led = trick[0][1][-1]
                if card[-1] != led:
                    v = voids[s]
                    if led not in v:
                        v += led
                    if card[-1] != trump and trump not in v:
                        v += trump
                    voids[s] = v
            elif trump is None:
                trump = card[-1]
            played[s].append(card)
            actions.append([s, "play", card])
        else:
            return None
    return {"n": n, "dealer": v0["dealer"], "actions": actions, "start": list(v0["hand"]), "played": played,
            "claims": _claims(actions, n),
            "voids": voids, "bought": bought, "discard": discard, "first": v0, "last": views[-1]}


TRIES = 8
"""The sampler deals the unseen cards up to this many times, keeping the first deal in which every
other seat's hand fits its calls (:func:`_fits`), else the one that fits most."""


def _claims(actions, n):
    """Per seat: the highest contract it called (rank 1…6; ``here`` takes the top bid), and
    whether it passed without ever bidding while the top bid was below 2 (N4)."""
    top = 0
    out = [[0, False] for _ in range(n)]
    for a in actions:
        s, verb = a[0], a[1]
        if verb == "bid":
            top = a[2]
        elif verb == "napoleon":
            top = NAPOLEON
        elif verb == "pass":
            if out[s][0] == 0 and top < 2:
                out[s][1] = True
            continue
        elif verb != "here":
            continue
        out[s][0] = max(out[s][0], top)
    return out


def _fits(hand, claim):
    """Does a hand fit what its seat called? A bid of b: the policy's estimate makes b likely
    enough to be bid (p ≥ 0.4); an early pass: a bid of 2 was not attractive (p < 0.8)."""
    rank, passed = claim
    if not rank and not passed:
        return True
    est = best_trump(hand)[1]
    if rank:
        return p_make(est, HAND if rank == NAPOLEON else rank) >= 0.4
    return p_make(est, 2) < 0.8


_KNOW = Knowledge(read_deal)


@hookimpl
def frapnet_sample_deal(state, seat, observations, rng):
    """Napoleon's sampler (N3 layout, N4–N6; see the module docstring). Returns a deal sample
    (``dealer``, ``deck``, ``actions``, ``before``) or None if the views have a gap."""
    know = _KNOW(seat, observations)
    if know is None:
        return None
    n = know["n"]
    last = know["last"]
    declarer = last["declarer"]
    seen = set(know["start"])
    if know["bought"]:
        seen.add(know["bought"])
    for cards in know["played"]:
        seen.update(cards)
    pool = [c for c in _PACK if c not in seen]
    others = [s for s in range(n) if s != seat]
    slots = [(last["seats"][s]["cards"], suits_allowed(know["voids"][s])) for s in others]
    hidden_buy = any(a[1] == "buy" and a[2] is None for a in know["actions"])
    claims = know["claims"]
    got = None
    best = -1
    for _ in range(TRIES):  # inference from the auction (GIB): prefer hands that fit the calls
        g = place(pool, slots, rng)
        if g is None:
            return None
        fit = sum(_fits(know["played"][s] + cards, claims[s]) for s, cards in zip(others, g[0]))
        if fit > best:
            got, best = g, fit
        if fit == len(others):
            break
    filled, rest = got
    hands = {seat: list(know["start"])}
    talon_top = know["bought"]
    discard = None
    for s, cards in zip(others, filled):
        after = know["played"][s] + cards  # the cards it held after the buy
        if s == declarer and hidden_buy:
            talon_top = after[rng.randrange(len(after))]
            discard = rest.pop()
            after = [c for c in after if c != talon_top] + [discard]
        hands[s] = after
    dealer = know["dealer"]
    deck = deal_out(hands, dealer, n) + ([talon_top] if talon_top else []) + rest
    actions = [a if not (a[1] == "buy" and a[2] is None) else [a[0], "buy", [discard]] for a in know["actions"]]
    first = know["first"]
    return {"dealer": dealer, "deck": deck, "actions": actions,
            "before": before_deal(first, first["options"]["stake"])}  # N2: the stakes paid in


# --- policy -------------------------------------------------------------------------------------

_RV = {c: rank_value(c) for c in _PACK}
_v = _RV.__getitem__
_ABOVE = {c: [x for x in _PACK if x[-1] == c[-1] and _RV[x] > _RV[c]] for c in _PACK}
"""Per card: the cards of its suit that rank above it (N1: ace high)."""
_SUIT = {s: [c for c in _PACK if c[-1] == s] for s in SUITS}


def trick_estimate(hand, trump):
    """Tricks ``hand`` (five cards) may take as declarer with ``trump`` (N6: the declarer leads,
    so trumps are drawn from the top): a trump in an unbroken run from the ace 1, else A 1, K 0.85,
    Q 0.7, J 0.55, lower 0.4, +0.35 for a third trump, +0.6 for each one more; side aces 0.7, a side king with
    its ace 0.6, alone 0.2."""
    est = 0.0
    trumps = sorted((_v(c) for c in hand if c[-1] == trump), reverse=True)
    top = 14
    for v in trumps:
        if v == top:  # an unbroken run from the ace: sure tricks
            est += 1.0
            top -= 1
            continue
        est += 0.85 if v == 13 else 0.7 if v == 12 else 0.55 if v == 11 else 0.4
    est += 0.35 * (len(trumps) >= 3) + 0.6 * max(0, len(trumps) - 3)
    for c in hand:
        if c[-1] == trump:
            continue
        v = _v(c)
        if v == 14:
            est += 0.7
        elif v == 13:
            est += 0.6 if ("A" + c[-1]) in hand else 0.2
    return est


def best_trump(hand):
    """The suit to lead first (it becomes trump, N6) and the trick estimate with it."""
    return max(((trick_estimate(hand, s), s) for s in SUITS if any(c[-1] == s for c in hand)),
               key=lambda x: (x[0], x[1]))[::-1]


SLOPE = 1.9    # logistic slope of P(make b tricks) in (estimate − b)
OFFSET = 1.05  # a bid of b tricks is made half of the time at an estimate of b − OFFSET
# (fitted on 3,000 random 4-player hands played out by this policy on every seat)


def p_make(est, tricks):
    """Estimated probability that a declarer with trick estimate ``est`` takes ``tricks``."""
    if tricks >= HAND:
        return 1.0 / (1.0 + math.exp(-SLOPE * (est - tricks + 0.95)))
    return 1.0 / (1.0 + math.exp(-SLOPE * (est - tricks + OFFSET)))


def bid_value(est, rank, n, stake, treasure):
    """Expected chips (N8) of declaring ``rank`` (1…5, 6 = napoleon) with trick estimate ``est``."""
    b = HAND if rank == NAPOLEON else rank
    p = p_make(est, b)
    win = stake * b * (n - 1)
    lose = stake * b * (n - 1)
    if rank == NAPOLEON:
        win += treasure
        lose += treasure
    else:
        lose += stake * b
    return p * win - (1 - p) * lose


def _auction(state, d, seat, actions):
    hand = d.hands[seat]
    _, est = best_trump(hand)
    n = d.n
    stake = state.options["stake"]
    best, best_ev = None, 0.0
    for a in actions:
        if a[0] == "pass":
            continue
        rank = a[1] if a[0] == "bid" else NAPOLEON if a[0] == "napoleon" else d.top
        ev = bid_value(est, rank, n, stake, state.pot)
        if a[0] == "here":
            ev += 1e-6  # at equal value the dealer takes the bid rather than outbid it
        if ev > best_ev:
            best, best_ev = a, ev
    if best is None:
        return ("pass",) if ("pass",) in actions else actions[0]
    return best


def _buy(d, seat, actions):
    hand = d.hands[seat]
    trump, _ = best_trump(hand)
    side = [c for c in hand if c[-1] != trump and _v(c) < 13]
    if not side:
        return ("buy", ())
    worst = min(side, key=lambda c: (_v(c), c))
    return ("buy", (worst,))


def _higher_unseen(card, hand, played):
    """Cards of ``card``'s suit above it that the seat has neither in hand nor seen played."""
    return [c for c in _ABOVE[card] if c not in hand and c not in played]


def _winner(state, trick):
    return state.rules.trick_winner(state, trick)


def _play(state, d, seat, actions):
    hand = d.hands[seat]
    cards = [a[1] for a in actions]
    trump = d.trump
    trick = d.trick
    played = set(d.played_cards)
    decl = d.declarer
    low = min(cards, key=lambda c: (c[-1] == trump, _v(c), c))
    if not trick:
        if trump is None:  # the first lead names trump (N6): the best suit, from the top
            t, _ = best_trump(hand)
            return ("play", max((c for c in cards if c[-1] == t), key=_v))
        if seat == decl:
            trumps = [c for c in cards if c[-1] == trump]
            out_trumps = [c for c in _SUIT[trump] if c not in hand and c not in played]
            if trumps and out_trumps:
                top = max(trumps, key=_v)
                if not _higher_unseen(top, hand, played) or len(trumps) >= 2:
                    return ("play", top)
            masters = [c for c in cards if not _higher_unseen(c, hand, played)]
            if masters:
                return ("play", max(masters, key=lambda c: (c[-1] == trump, _v(c))))
            return ("play", low)
        # a defender leads: a master of a side suit, else a suit the declarer lacks, else low
        masters = [c for c in cards if c[-1] != trump and not _higher_unseen(c, hand, played)]
        if masters:
            return ("play", max(masters, key=_v))
        void = d.voids[decl]
        if trump in void:
            return ("play", low)
        thin = [c for c in cards if c[-1] in void]
        return ("play", min(thin or [low], key=_v))
    # following
    winning = [c for c in cards if _winner(state, trick + [(seat, c)]) == seat]
    now = _winner(state, trick)
    in_trick = {s for s, _ in trick}
    if seat == decl:
        return ("play", min(winning, key=lambda c: (c[-1] == trump, _v(c))) if winning else low)
    decl_to_play = decl not in in_trick
    if not decl_to_play:
        if now != decl:
            return ("play", low)
        return ("play", min(winning, key=lambda c: (c[-1] == trump, _v(c))) if winning else low)
    # the declarer plays after this seat: a partner's master holds, else win as high as it helps
    if now != decl and not _higher_unseen(dict(trick)[now], hand, played) and dict(trick)[now][-1] == trump:
        return ("play", low)
    if winning:
        masters = [c for c in winning if not _higher_unseen(c, hand, played)]
        return ("play", min(masters, key=_v) if masters else max(winning, key=_v))
    return ("play", low)


AUCTION_FACTOR = 8
"""``expert`` examines this many times its fixed sample budget for a call in the auction (N4;
``frapnet_search_factor``): a bid decides most of a deal's result (±b × (n−1) stakes, N8) and is
cheap to simulate, and 24 samples of so wide a result cannot tell a bid from a pass (measured by
bench/expert_diag.py, 40 decks: the bids' gain over ``basic`` +0.04 stakes a deal at 24 samples,
+0.43 at 192)."""


@hookimpl
def frapnet_search_factor(state, seat, actions):
    """More samples for ``expert``'s calls in the auction (N4): :data:`AUCTION_FACTOR`; None in
    the buy and the play (the budget as it is)."""
    return AUCTION_FACTOR if state.deal.phase == "auction" else None


@hookimpl
def frapnet_policy(state, seat, actions, rng):
    """Napoleon's ``basic`` (see the module docstring): bid N4/N8 by expected payment, buy N5,
    play N6. Returns one of ``actions``."""
    d = state.deal
    ph = d.phase
    if ph == "auction":
        return _auction(state, d, seat, actions)
    if ph == "buy":
        a = _buy(d, seat, actions)
        return a if a in actions else actions[0]
    if ph == "play":
        return _play(state, d, seat, actions)
    return None
