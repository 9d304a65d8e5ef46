"""Frak You's computer-player knowledge (issue #8): the sampler, the fast policy (``basic``), and
the deal result (fewer penalty points is better, K12).

- :func:`frapnet_sample_deal` rebuilds the deal from a seat's views: the passes (K3; its own
  cards chosen and received, the others' passes sampled), every card played (K5), where each
  trick went (K9 pile or swap, K10 into the hand — so cards taken back into a hand are known),
  and places the unseen cards: other seats' hidden cards avoid the suits they have shown they
  lack (K5), the cards this seat passed are in its receiver's hand, the rest is set aside (K2).
- :func:`frapnet_policy` plays to shed, not to win (K11: the players who run out of cards first
  win the deal): it passes its most dangerous cards — the 3♣ (K7), then the highest (K3); follows
  with the highest card that still loses the trick (K6–K8, judged by the table's own trick-winning
  hook), throws its most dangerous card when void (never the 3♣ unless the A♠ is in the trick),
  leads low cards of suits in which higher cards are still out, and above all avoids a second
  trick in a row (K9: the old trick comes back into the hand) and winning with its last card
  (K10). It reads only the seat's hand and public facts (tricks, piles it watched, voids).
- :func:`frapnet_deal_result`: ``-(penalty points this deal)``.

Seats 0…n−1 clockwise. Pure; no I/O.
"""
from __future__ import annotations

from frapnet.cards import pack as make_pack, rank_value
from frapnet.games.hidden import Knowledge, before_deal, card_played, deal_out, place, steps, suits_allowed
from frapnet.hookspecs import hookimpl
from frapnet_frak_you.base import swaps

_PACK = make_pack(52)
_RV = {c: rank_value(c) for c in _PACK}
_OFF = {"left": 1, "right": -1, "across": 2}
THREE_OF_CLUBS, ACE_OF_SPADES, TWO_OF_CLUBS = "3C", "AS", "2C"


# --- deal result --------------------------------------------------------------------------------

@hookimpl
def frapnet_deal_result(before, after, seat):
    """K12: ``seat``'s result is minus the penalty points it scored between the two states (a
    lost deal is −1.0; higher is better)."""
    return float(before.balances[seat] - after.balances[seat])


# --- sampler ------------------------------------------------------------------------------------

def read_deal(observations, seat, pile_rule):
    """What ``seat`` knows of the current deal from its views, or None if they do not start at the
    deal's start or have a gap. Returns a dict: ``actions`` (``None`` as the argument of another
    seat's hidden pass), ``start`` (the seat's dealt hand), ``chosen``/``received`` (K3),
    ``from_deal[s]`` (cards s played that it held since the exchange), ``known[s]`` (cards known
    to be in s's hand now: taken back by K9/K10, or passed to it by this seat), ``voids``."""
    walk = steps(observations)
    if walk is None:
        return None
    views, pairs = walk
    v0 = views[0]
    n = v0["players"]
    if v0["tricks_played"] or v0["trick"] or any(x["cards"] != len(v0["hand"]) for x in v0["seats"]):
        return None
    if v0["phase"] == "pass" and v0.get("chosen"):
        return None
    direction = v0["passing"]
    actions = []
    chosen = received = None
    passed = set()
    known = [set() for _ in range(n)]
    from_deal = [[] for _ in range(n)]
    voids = [""] * n
    counts = [x["cards"] for x in v0["seats"]]
    piles = [[] for _ in range(n)]
    last_winner, last_laid = None, False
    trick = []
    for a, b in pairs:
        if a["phase"] == "pass":
            if b["phase"] == "pass":
                s = [i for i in range(n) if b["seats"][i]["chosen"] and not a["seats"][i]["chosen"]][0]
            else:
                s = [i for i in range(n) if not a["seats"][i]["chosen"]][0]
            if s == seat:
                chosen = b["chosen"] if b["phase"] == "pass" else sorted(set(a["hand"]) - set(b["hand"]))
                actions.append([s, "pass_cards", list(chosen)])
            else:
                actions.append([s, "pass_cards", None])
                passed.add(s)
            if b["phase"] != "pass":  # the exchange (K3)
                received = b["received"]
                if chosen is None:
                    chosen = a["chosen"]
                known[(seat + _OFF[direction]) % n].update(chosen)
            continue
        s = a["turn"]
        card = card_played(a, b)
        actions.append([s, "play", card])
        if s != seat:
            if card in known[s]:
                known[s].discard(card)
            else:
                from_deal[s].append(card)
            if trick and card[-1] != trick[0][1][-1] and trick[0][1][-1] not in voids[s]:
                voids[s] += trick[0][1][-1]
        counts[s] -= 1
        trick.append((s, card))
        if len(b["trick"]) > len(a["trick"]):
            continue
        # the trick is complete: where it went (K9, K10)
        w = b["last_winner"]
        cards = [c for _, c in trick]
        trick = []
        if counts[w] == 0:  # K10: into the hand
            back = cards
            laid = False
        else:
            swap = swaps(pile_rule, bool(piles[w]), last_winner == w, last_laid)
            back = piles[w][-1] if swap else []
            if swap:
                piles[w][-1] = cards
            else:
                piles[w].append(cards)
            laid = True
        counts[w] += len(back)
        if w != seat:
            known[w].update(back)
        last_winner, last_laid = w, laid
    two = None  # K4 (two_of_clubs): the seat that must lead the 2♣, or "set aside"
    for v in views:
        if v["phase"] == "play":
            if v.get("lead_two_of_clubs"):
                two = v["leader"]
            elif not v["tricks_played"] and not v["trick"]:
                two = "set aside"
            break
    return {"n": n, "dealer": v0["dealer"], "direction": direction, "actions": actions, "two": two,
            "start": list(v0["hand"]), "chosen": chosen, "received": received, "known": known,
            "from_deal": from_deal, "voids": voids, "first": v0, "last": views[-1]}


_KNOW = Knowledge(read_deal)


@hookimpl
def frapnet_sample_deal(state, seat, observations, rng):
    """Frak You's sampler (K2 layout, K3 passes, K5 voids, K9/K10; see the module docstring).
    Returns a deal sample (``dealer``, ``deck``, ``actions``, ``before``) or None."""
    know = _KNOW(seat, observations, state.options["pile"])
    if know is None:
        return None
    n = know["n"]
    last = know["last"]
    me = seat
    seen = set(know["start"])
    if know["received"]:
        seen.update(know["received"])
    for s in range(n):
        seen.update(know["known"][s])
        seen.update(know["from_deal"][s])
    for a in know["actions"]:
        if a[1] == "play":
            seen.add(a[2])
    pool = [c for c in _PACK if c not in seen]
    others = [s for s in range(n) if s != me]
    exchanged = know["received"] is not None or (know["direction"] is None)
    if not exchanged:  # still passing (K3): others hold their dealt hands, some of them chosen
        got = place(pool, [(len(know["start"]), None) for _ in others], rng)
        if got is None:
            return None
        filled, rest = got
        hands = {me: list(know["start"])}
        hidden_pass = {}
        for s, cards in zip(others, filled):
            hands[s] = cards
            hidden_pass[s] = rng.sample(cards, 3)
    else:
        counts = [x["cards"] for x in last["seats"]]
        slots = [(counts[s] - len(know["known"][s]), suits_allowed(know["voids"][s])) for s in others]
        two = know["two"] if state.options["first_lead"] == "two_of_clubs" else None
        fixed = TWO_OF_CLUBS if two is not None and TWO_OF_CLUBS in pool else None
        if fixed:  # K4: the 2♣ is in the leader's hand (not led yet) or was set aside
            pool.remove(fixed)
            if two != "set aside":
                i = others.index(two)
                slots[i] = (slots[i][0] - 1, slots[i][1])
        got = place(pool, slots, rng)
        if got is None:
            return None
        filled, rest = got
        if fixed:
            if two == "set aside":
                rest.append(fixed)
            else:
                filled[others.index(two)].append(fixed)
        after = {me: None}  # the hands just after the exchange (K3)
        for s, cards in zip(others, filled):
            after[s] = know["from_deal"][s] + cards
        direction = know["direction"]
        hands = {me: list(know["start"])}
        hidden_pass = {}
        if direction is None:
            for s in others:
                hands[s] = after[s]
        else:
            off = _OFF[direction]
            to_me = (me - off) % n
            chosen = {me: list(know["chosen"]), to_me: list(know["received"])}
            hidden_pass[to_me] = chosen[to_me]
            for r in others:  # what r received: its giver's chosen cards
                g = (r - off) % n
                if g == me:
                    after[r] = after[r] + chosen[me]
                else:
                    chosen[g] = rng.sample(after[r], 3)
                    hidden_pass[g] = chosen[g]
            for s in others:
                got_cards = set(chosen[(s - off) % n])
                hands[s] = [c for c in after[s] if c not in got_cards] + chosen[s]
    dealer = know["dealer"]
    deck = deal_out(hands, dealer, n) + rest
    actions = [a if a[2] is not None else [a[0], "pass_cards", sorted(hidden_pass[a[0]])] for a in know["actions"]]
    return {"dealer": dealer, "deck": deck, "actions": actions, "before": before_deal(know["first"])}


# --- policy -------------------------------------------------------------------------------------

def danger(card):
    """How much a card threatens to win tricks (K6–K8): its rank, the 3♣ above everything (K7
    wins any trick without the A♠), the A♠ a little above the other aces."""
    if card == THREE_OF_CLUBS:
        return 30
    return _RV[card] + (1 if card == ACE_OF_SPADES else 0)


def _pass(d, seat, actions):
    hand = d.hands[seat]
    by_suit = {}
    for c in hand:
        by_suit[c[-1]] = by_suit.get(c[-1], 0) + 1
    # the most dangerous cards; between equals, from the shorter suit (towards a void, K5)
    worst = sorted(hand, key=lambda c: (danger(c), -by_suit[c[-1]], c), reverse=True)[:3]
    want = tuple(sorted(worst, key=_PACK.index))
    for a in actions:
        if a[1] == want:
            return a
    return None


def _out_cards(d, seat):
    """Cards the seat knows are out of every hand: in some pile (K9) or the current trick."""
    out = {c for _, c in d.trick}
    for p in d.piles:
        for t in p:
            out.update(t)
    return out


def _play(state, d, seat, actions):
    hand = d.hands[seat]
    trick = d.trick
    cards = [a[1] for a in actions]
    winner = state.rules.trick_winner
    active = [s for s in range(d.n) if d.active[s]]
    to_come = len(active) - len(trick) - 1
    # what winning this trick costs (K9 swap, K10 into the hand) — the deal is lost by holding cards
    swap = swaps(state.options["pile"], bool(d.piles[seat]), d.last_winner == seat, d.last_laid)
    last_card = len(hand) == 1
    cost = d.n if (last_card or swap) else 1.0
    if not trick:
        out = _out_cards(d, seat)
        out.update(hand)
        rest = {"S": [], "H": [], "D": [], "C": []}  # ranks of the cards still in others' hands
        for x in _PACK:
            if x not in out:
                rest[x[-1]].append(_RV[x])

        def lead_score(c):
            if c == THREE_OF_CLUBS:
                return 100.0
            v = _RV[c]
            higher = sum(1 for r in rest[c[-1]] if r > v)
            void_all = all(c[-1] in d.voids[s] for s in active if s != seat)
            if higher == 0 or void_all:
                return 50.0 + v  # it would win: the less the better
            return v - 2.0 * higher
        return ("play", min(cards, key=lambda c: (lead_score(c), c)))
    best, best_score = None, None
    for c in cards:
        wins = winner(state, trick + [(seat, c)]) == seat
        if wins:
            p = 1.0 if to_come == 0 else 0.85
            if c == THREE_OF_CLUBS and to_come:
                p = 0.9
            score = -p * cost * 10 + (1 - p) * danger(c) * 0.1 + 0.05 * danger(c) * (to_come == 0)
        else:
            score = 0.1 * danger(c) if c != THREE_OF_CLUBS else 3.0
        if best_score is None or score > best_score or (score == best_score and c < best):
            best, best_score = c, score
    return ("play", best)


@hookimpl
def frapnet_policy(state, seat, actions, rng):
    """Frak You's ``basic`` (see the module docstring): pass (K3) and play (K4–K11) to shed."""
    d = state.deal
    if d.phase == "pass":
        return _pass(d, seat, actions)
    if d.phase == "play":
        return _play(state, d, seat, actions)
    return None
