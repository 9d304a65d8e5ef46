"""Placing hidden cards for computer players' samplers (issue #8, ``frapnet_sample_deal``).

A sampler knows which cards it has not seen (the *pool*) and the hidden places they must fill:
each other seat's unseen hand cards, which must avoid the suits the seat has shown it lacks
(a void, revealed by failing to follow suit or to trump — OpenSpiel's Oh Hell bug #314 was
ignoring them) and sometimes particular cards. :func:`place` deals the pool into those places
at random, respecting every constraint, or says that it cannot. Pure; no I/O.
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

Allowed = Callable[[str], bool]


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
