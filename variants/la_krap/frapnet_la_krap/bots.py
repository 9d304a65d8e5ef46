"""La Krap's computer-player knowledge (issue #8): the sampler here, the fast policy (``basic``) and
``expert``'s shortlist in :mod:`frapnet_la_krap.policy` (imported here, so this module registers all
three hooks and keeps their names).

- :func:`frapnet_sample_deal` rebuilds the deal from a seat's views — the turn-up and the jokers
  or 5♣ put back into the talon (L6), every exchange (L7: its own discards and draws, the others'
  counts), declarations (L10) and every card played (L8) — and places the cards it has not seen:
  other seats' face-down cards avoid the suits they have shown they lack (L8, jokers counting as
  the turn-up suit), hold the K and Q each declared (L10), and no face-down copy of a team card
  the seat played (L7: the face-down copy goes first); cards others drew come from the talon's
  known positions (a put-back joker stays where L6 put it).
- :func:`frapnet_policy` and :func:`frapnet_candidates`: the fast policy and expert's shortlist,
  in :mod:`frapnet_la_krap.policy` (imported here, so the plugin registers them with the sampler).

Seats 0…n−1 clockwise. Pure; no I/O.
"""
from __future__ import annotations

import random
from collections import Counter

from frapnet import engine
from frapnet.cards import card_key
from frapnet.engine import fast
from frapnet.errors import RuleError
from frapnet.games.hidden import Knowledge, before_deal, card_played, place, steps
from frapnet.hookspecs import SAMPLE_ANY, hookimpl

from frapnet_la_krap import plugin as P
from frapnet_la_krap.policy import (  # noqa: F401 (re-exported: the policy's names)
    KEEP_AT, LAMBDA, MAX_EXCHANGE, _PACK_COUNT, _RANK, _beaters, _exchange, _led, _play, _side, _unseen, frapnet_candidates,
    frapnet_policy, keep_value, spend_cost, strength)


def read_deal(observations, seat):
    """What ``seat`` knows of the current deal from its views, or None if they do not start at the
    deal's start or have a gap: ``actions`` (``None`` for another seat's hidden discards), the
    exchanges ``draws[s] = (first talon position, count)``, ``drawn`` (this seat's drawn cards),
    ``played_down[s]`` (cards s played from its face-down cards), ``voids[s]`` (L8),
    ``no_copy[s]`` (cards s has no face-down copy of, L7), ``need[s]`` (cards s must still hold
    after its declarations, L10)."""
    walk = steps(observations)
    if walk is None:
        return None
    views, pairs = walk
    v0 = views[0]
    if v0["phase"] != "exchange" or any(x["exchanged"] for x in v0["seats"]):
        return None
    n = v0["players"]
    eff = P._EFF_CACHE[v0["turn_up"][-1]]
    actions = []
    draws = {}
    pos = 0
    drawn = []
    discards = []
    played_down = [[] for _ in range(n)]
    voids = [""] * n
    no_copy = [set() for _ in range(n)]
    held = [[] for _ in range(n)]       # declared K/Q still in hand (as the engine's kq_held)
    need = [Counter() for _ in range(n)]  # lower bounds on the hand, from declarations (L10)
    played_since = [Counter() for _ in range(n)]
    reqs = [[] for _ in range(n)]         # (required Counter at the time, played-since snapshot)
    trick = []
    for a, b in pairs:
        s = a["turn"]
        if a["phase"] == "exchange":
            k = a["talon"] - b["talon"]
            draws[s] = (pos, k)
            pos += k
            if s == seat:
                discards = list(b["discards"])
                left = Counter(a["face_down"])
                left.subtract(discards)
                got = Counter(b["face_down"])
                got.subtract(left)
                drawn = sorted(got.elements(), key=card_key)
                actions.append([s, "exchange", discards])
            else:
                actions.append([s, "exchange", None])
            continue
        before = a["seats"][s]
        after = b["seats"][s]
        if len(after["declarations"]) > len(before["declarations"]):
            suit = after["declarations"][-1]
            k, q = "K" + suit, "Q" + suit
            req = Counter(held[s])
            req[k] += 1
            req[q] += 1
            reqs[s].append((req, Counter(played_since[s])))
            held[s] += [k, q]
            actions.append([s, "declare", suit])
            continue
        card = card_played(a, b)
        actions.append([s, "play", card])
        if s != seat:
            if before["team_card"] == card and after["team_card"] is None:
                no_copy[s].add(card)  # L7: it had no face-down copy, or that would have gone first
            else:
                played_down[s].append(card)
            if trick:
                led = _led(trick, eff)
                if led is not None and eff[card] != led and led not in voids[s]:
                    voids[s] += led
        if card in held[s]:
            held[s].remove(card)
        played_since[s][card] += 1
        trick.append((s, card))
        if len(b["trick"]) <= len(a["trick"]):
            trick = []
    for s in range(n):
        for req, snap in reqs[s]:
            since = played_since[s] - snap
            for c, m in req.items():
                left = m - since[c]
                if left > need[s][c]:
                    need[s][c] = left
    return {"n": n, "dealer": v0["dealer"], "actions": actions, "draws": draws, "drawn": drawn,
            "discards": discards, "played_down": played_down, "voids": voids, "no_copy": no_copy,
            "need": need, "eff": eff, "first": v0, "last": views[-1]}


def talon_tokens(n, pushed):
    """L6 inverted: for a deal whose turn-ups put ``pushed`` back into the talon, the deck index
    (top first) of each talon position, and the deck indices of the pushed cards."""
    k = len(pushed)
    talon = list(range(7 * n + 1, 72))
    turn = 7 * n
    for _ in range(k):
        talon.insert(len(talon) // 2, turn)
        turn = talon.pop(0)
    return talon


TRIES = 6
"""The sampler deals the unseen cards up to this many times, keeping the first deal in which every
seat that exchanged k cards holds at least 6 − k cards worth keeping (``keep_value``), else the
one that fits most: ``basic`` and most people exchange only weak cards (L7)."""

_KNOW = Knowledge(read_deal)


PLACINGS = 16
"""For a search's samples (``effort="search"``, ``expert``; ``basic`` asks for ``"any"`` and gets
one placing) the sampler deals the hidden cards up to this many times and keeps the deal in which the other
seats' public choices (their exchange counts, declarations and cards played) are most often what
``basic`` would have made with those hands: the first that explains every one, else the one that
explains most (:func:`misfits`). ``expert`` weighs its samples by the same agreement
(``frapnet.bots.players.LIKELY``); without this, a few samples late in a deal carried nearly all
the weight."""


@hookimpl
def frapnet_sample_deal(state, seat, observations, rng, effort):
    """La Krap's sampler (L4 layout, L6–L10; see the module docstring). Returns a deal sample
    (``dealer``, ``deck``, ``actions``, ``before``) or None. ``effort="any"`` (``basic``, whose
    policy reads only the seat's knowledge): the hidden cards are placed once, with no inference
    (no ``TRIES``, no ``PLACINGS``); else up to ``PLACINGS`` placings, the best kept."""
    know = _KNOW(seat, observations)
    if know is None:
        return None
    if effort == SAMPLE_ANY:
        return _sample_once(state, seat, know, rng, tries=1)
    best, fewest = None, None
    for _ in range(PLACINGS):
        sample = _sample_once(state, seat, know, rng)
        if sample is None:
            return None
        if PLACINGS == 1:
            return sample
        miss = misfits(state, seat, sample, fewest)
        if fewest is None or miss < fewest:
            best, fewest = sample, miss
        if miss == 0:
            break
    return best


def misfits(table, seat, sample, bound=None):
    """How many public choices of the seats other than ``seat`` in deal ``sample`` (a
    :func:`frapnet_sample_deal` result) ``basic`` would have made otherwise with the hands the
    sample gives them: an exchange of another number of cards (L7), a declaration skipped (L10),
    another card played (L8). A sample the engine refuses counts as explaining nothing (a large
    number). ``table``: the table State before any deal. Stops counting at ``bound`` (not None): the
    sampler only needs to know the deal explains less than the best one so far."""
    try:
        st, _ = engine.start_deal(table, sample["deck"], sample["dealer"])
    except RuleError:
        return 1 << 20
    d = st.deal
    rng = random.Random(0)
    miss = 0
    for s, verb, arg in sample["actions"]:
        if verb == "exchange":
            act = ("exchange", tuple(sorted(arg, key=card_key)))
            if s != seat:
                hand = d.hand(s)
                k = sum(1 for c in d.down[s] if keep_value(c, d.trump, d.eff, hand) < KEEP_AT)
                miss += min(k, MAX_EXCHANGE, d.talon_count) != len(arg)
        else:
            act = (verb, arg)
            if s != seat:
                legal = P.frapnet_legal_actions(st, s)
                if len(legal) > 1 and frapnet_policy(st, s, legal, rng) != act:
                    miss += 1
                    if bound is not None and miss >= bound:
                        return miss
        try:
            fast.apply_in_place(st, s, act)
        except RuleError:
            return 1 << 20
    return miss


def _sample_once(state, seat, know, rng, tries=None):
    """One deal of the unseen cards consistent with ``know`` (:func:`read_deal`), as a deal sample,
    placing them up to ``tries`` (default :data:`TRIES`) times for the fit with the exchanges."""
    n = know["n"]
    first, last = know["first"], know["last"]
    eff = know["eff"]
    me = seat
    team = [x["dealt_team_card"] for x in first["seats"]]
    pushed = list(first["pushed"])
    tokens = talon_tokens(n, pushed)
    push_at = {}  # talon position -> pushed card (L6)
    for i, c in enumerate(pushed):
        push_at[tokens.index(7 * n + i)] = c
    # every card whose place this seat knows
    seen = Counter(first["face_down"]) + Counter(team) + Counter(pushed) + Counter([first["turn_up"]])
    seen += Counter(know["drawn"])
    drawn_push = {}
    for s, (p0, cnt) in know["draws"].items():
        drawn_push[s] = [push_at[p] for p in range(p0, p0 + cnt) if p in push_at]
    for s in range(n):
        if s != me:
            seen += Counter(know["played_down"][s])
    # a pushed card this seat drew is in ``drawn`` and in ``pushed``: count it once; so is a pushed
    # card another seat drew and played (in ``pushed`` and in ``played_down``)
    if me in drawn_push:
        seen -= Counter(drawn_push[me])
    known_now = {}  # pushed cards another seat drew and still holds
    for s in range(n):
        if s == me:
            continue
        dp, pd = Counter(drawn_push.get(s, ())), Counter(know["played_down"][s])
        seen -= dp & pd
        known_now[s] = dp - pd
    pool = Counter(P.PACK)
    pool.subtract(seen)
    if any(v < 0 for v in pool.values()):
        return None
    # the required K/Q of declarations go to their declarer first (L10)
    hidden = {}
    slots = []
    others = [s for s in range(n) if s != me]
    for s in others:
        sl = last["seats"][s]
        down_now = sl["cards"] - (1 if sl["team_card"] is not None else 0)
        req = Counter(know["need"][s])
        if sl["team_card"] is not None and req[sl["team_card"]]:
            req[sl["team_card"]] -= 1
        req -= known_now[s]
        req = +req
        for c, m in req.items():
            if pool[c] < m:
                return None
            pool[c] -= m
        hidden[s] = list(req.elements())
        cnt = down_now - sum(known_now[s].values()) - len(hidden[s])
        if cnt < 0:
            return None
        void, banned = know["voids"][s], know["no_copy"][s]
        ok = None
        if void or banned:
            ok = (lambda c, void=void, banned=banned: eff[c] not in void and c not in banned)
        slots.append((cnt, ok))
    trump = None if first["turn_up"][:-1] not in P.TRUMP_RANKS else first["turn_up"][-1]
    cards_pool = list(pool.elements())
    got, best = None, -1
    for _ in range(TRIES if tries is None else tries):  # inference from the exchanges: a seat keeps only strong cards (L7)
        g = place(cards_pool, slots, rng)
        if g is None:
            return None
        fit = 0
        for s, cards in zip(others, g[0]):
            if s in know["draws"]:
                post = know["played_down"][s] + list(known_now[s].elements()) + hidden[s] + cards
                strong = sum(1 for c in post if keep_value(c, trump, eff, post) >= KEEP_AT)
                fit += strong >= 6 - know["draws"][s][1]
            else:
                fit += 1
        if fit > best:
            got, best = g, fit
        if fit == len(others):
            break
    filled, rest = got
    talon = [None] * len(tokens)
    for p, c in push_at.items():
        talon[p] = c
    down0 = {me: list(first["face_down"])}
    for s, cards in zip(others, filled):
        post = know["played_down"][s] + list(known_now[s].elements()) + hidden[s] + cards
        if s in know["draws"]:
            p0, cnt = know["draws"][s]
            post_c = Counter(post)
            post_c.subtract(drawn_push[s])
            free = list(post_c.elements())
            rng.shuffle(free)
            free.sort(key=lambda c: keep_value(c, trump, eff, post) >= KEEP_AT, reverse=True)
            for p in range(p0, p0 + cnt):  # weak cards were drawn, not kept (L7)
                if p not in push_at:
                    talon[p] = free.pop()
            kept = free
            rest.sort(key=lambda c: keep_value(c, trump, eff, post) < KEEP_AT)  # shuffled; weak last
            x = [rest.pop() for _ in range(cnt)]  # it discarded weak cards
            down0[s] = kept + x
            know_x = x
        else:
            down0[s] = post
            know_x = None
        hidden[s] = know_x
    if me in know["draws"]:
        p0, cnt = know["draws"][me]
        mine = Counter(know["drawn"])
        mine.subtract(drawn_push[me])
        mine = list(mine.elements())
        for p in range(p0, p0 + cnt):
            if p not in push_at:
                talon[p] = mine.pop()
    rng.shuffle(rest)  # the discards took the weak cards; what is left of the talon is in any order
    for p in range(len(talon)):
        if talon[p] is None:
            talon[p] = rest.pop()
    dealer = know["dealer"]
    deck = [None] * 72
    for s in range(n):
        i = (s - dealer - 1) % n
        d = down0[s]
        for r in range(3):
            k2 = 2 * (r * n + i)
            deck[k2], deck[k2 + 1] = d[2 * r], d[2 * r + 1]
        deck[6 * n + i] = team[s]
    deck[7 * n + len(pushed)] = first["turn_up"]
    for p, tok in enumerate(tokens):
        deck[tok] = talon[p]
    actions = [a if a[2] is not None else [a[0], "exchange", sorted(hidden[a[0]], key=card_key)]
               for a in know["actions"]]
    return {"dealer": dealer, "deck": deck, "actions": actions, "before": before_deal(first)}
