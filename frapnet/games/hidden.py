"""Placing hidden cards for computer players' samplers (issue #8, ``frapnet_sample_deal``).

The shared part of every game's sampler: walking a seat's views step by step (:func:`steps`,
:func:`card_played`), remembering what they tell between the many calls of one search
(:class:`Knowledge`), laying dealt hands out as a deck (:func:`deal_out`) and the ledger before
the deal (:func:`before_deal`) — and placing the cards the seat has not seen (:func:`place`).

A sampler knows which cards it has not seen (the *pool*) and the hidden places they must fill:
each other seat's unseen hand cards, which must avoid the suits the seat has shown it lacks
(a void, revealed by failing to follow suit or to trump — OpenSpiel's Oh Hell bug #314 was
ignoring them) and sometimes particular cards. :func:`place` deals the pool into those places
at random, respecting every constraint, or says that it cannot. Pure; no I/O.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

Allowed = Callable[[str], bool]


def distinct(observations: Sequence[dict]) -> list[dict]:
    """``observations`` (a seat's views of one deal, oldest first) without the repeats: a view
    with the same ``version`` as the one before is the same state again and is skipped."""
    out: list[dict] = []
    for v in observations:
        if out and v.get("version") == out[-1].get("version"):
            continue
        out.append(v)
    return out


def steps(observations: Sequence[dict]) -> tuple[list[dict], list[tuple[dict, dict]]] | None:
    """The views of :func:`distinct` and every consecutive pair ``(before, after)`` of them — one
    pair per accepted action of the deal, in order. None if the views have a gap (a ``version``
    rising by more than 1: a player that came in mid-deal cannot explain what it did not see)."""
    views = distinct(observations)
    pairs = list(zip(views, views[1:]))
    for a, b in pairs:
        if b["version"] != a["version"] + 1:
            return None
    return views, pairs


def card_played(before: dict, after: dict) -> str:
    """The card played between two consecutive views of a trick game: the last card of the
    trick, or of ``last_trick`` when that card completed the trick."""
    if len(after["trick"]) > len(before["trick"]):
        return after["trick"][-1][1]
    return after["last_trick"][-1][1]


class Knowledge:
    """What a seat knows of the deal in progress, rebuilt from its views by ``read(observations,
    seat, *args)`` (a game's own function; it returns anything, None meaning "cannot explain
    these views") and remembered: a search asks its sampler many times for one decision, and
    several players take turns. Call ``knowledge(seat, observations, *args)``; keeps up to
    ``size`` entries, keyed by the seat, the number of views and the identity of the view now.
    No views at all (empty ``observations``: no view now) is None without calling ``read``, so a
    sampler built on it returns None there, as the hook's contract asks, rather than IndexError."""

    def __init__(self, read: Callable[..., Any], size: int = 32) -> None:
        self.read = read
        self.size = size
        self._cache: dict = {}

    def __call__(self, seat: int, observations: Sequence[dict], *args: Any) -> Any:
        if not observations:
            return None
        now = observations[-1]
        key = (seat, len(observations), id(now), args)
        hit = self._cache.get(key)
        if hit is not None and hit[0] is now:
            return hit[1]
        know = self.read(observations, seat, *args)
        if len(self._cache) >= self.size:
            self._cache.clear()
        self._cache[key] = (now, know)  # holding ``now`` keeps its id from being reused
        return know


def deal_out(hands: dict | Sequence[Sequence[str]], dealer: int, players: int) -> list:
    """The top of a deck that deals ``hands[s]`` (equal lengths) one card at a time clockwise
    from the dealer's left (seat ``(dealer + 1) mod n`` gets the first card; F8, N3, K2):
    ``deck[j * n + (s - dealer - 1) mod n] = hands[s][j]``."""
    size = len(hands[0])
    deck: list = [None] * (size * players)
    for s in range(players):
        i = (s - dealer - 1) % players
        for j, c in enumerate(hands[s]):
            deck[i + j * players] = c
    return deck


def before_deal(view: dict, paid: int = 0) -> dict:
    """The ``before`` ledger of a deal sample from the seat's first view of the deal:
    ``balances`` and ``pot`` as that view shows them, undoing ``paid`` whole chips each seat paid
    into the pot when the deal started (an ante or stake: N2)."""
    n = len(view["balances"])
    return {"balances": [b + paid for b in view["balances"]], "pot": view["pot"] - paid * n, "match": {}}


def place(pool: Sequence[str], slots: Sequence[tuple[int, Allowed | None]], rng: random.Random
          ) -> tuple[list[list[str]], list[str]] | None:
    """Deal the cards of ``pool`` at random into ``slots`` and return ``(filled, rest)``.

    ``slots[i] = (count, allowed)``: slot i takes ``count`` cards, each one for which
    ``allowed(card)`` is true (``allowed`` None: any card). ``filled[i]`` is the list of cards
    slot i got; ``rest`` the cards left over, shuffled. Cards may repeat in ``pool`` (a double
    pack); each copy is placed once. Returns None if no placement satisfies every slot.

    Random: the pool is shuffled and the most constrained slots are filled first by drawing
    allowed cards at random; a slot left short is completed by augmenting paths (Kuhn's
    bipartite matching), so a placement is found whenever one exists.
    """
    cards = list(pool)
    rng.shuffle(cards)
    need = sum(c for c, _ in slots)
    if need > len(cards):
        return None
    # positions: one per card a slot takes; most constrained slots first
    order = sorted(range(len(slots)), key=lambda i: (slots[i][1] is None,
                                                     sum(1 for c in cards if slots[i][1] is None or slots[i][1](c))))
    pos_slot = [i for i in order for _ in range(slots[i][0])]
    ok = [[j for j, c in enumerate(cards) if slots[i][1] is None or slots[i][1](c)] for i in range(len(slots))]
    owner = [-1] * len(cards)      # card index -> position
    match = [-1] * len(pos_slot)   # position -> card index
    for p, i in enumerate(pos_slot):  # greedy: the first free allowed card of the shuffled pool
        for j in ok[i]:
            if owner[j] < 0:
                owner[j] = p
                match[p] = j
                break
    for p in range(len(pos_slot)):
        if match[p] < 0 and not _augment(p, pos_slot, ok, owner, match, set()):
            return None
    filled: list[list[str]] = [[] for _ in slots]
    for p, j in enumerate(match):
        filled[pos_slot[p]].append(cards[j])
    rest = [c for j, c in enumerate(cards) if owner[j] < 0]
    rng.shuffle(rest)
    return filled, rest


def _augment(p, pos_slot, ok, owner, match, seen) -> bool:
    for j in ok[pos_slot[p]]:
        if j in seen:
            continue
        seen.add(j)
        q = owner[j]
        if q < 0 or _augment(q, pos_slot, ok, owner, match, seen):
            owner[j] = p
            match[p] = j
            return True
    return False


def suits_allowed(void: str, suit_of: Callable[[str], str] | None = None) -> Allowed | None:
    """An ``allowed`` predicate for :func:`place`: cards whose suit is not in ``void`` (a string of
    suit letters, e.g. ``"HS"``). ``suit_of`` maps a card to its suit (default: the last letter).
    Returns None (any card) for an empty ``void``."""
    if not void:
        return None
    if suit_of is None:
        return lambda c: c[-1] not in void
    return lambda c: suit_of(c) not in void
