"""Computer players' decisions: choose one action from a seat's view (pure; no I/O, no Twisted).

A strategy sees only what a network client sees — the view the host sends (engine.view plus
"names"/"connection"/"table") — never the engine state, and needs no game plugin (issue #5: a
client may not have the game installed). It always answers with one of the view's own legal
actions (``view["actions"][i]["action"]``, a list ``[verb]`` or ``[verb, arg]``), so it can never
break a rule such as F20; the host stays the referee.

Levels (:data:`LEVELS`):

- ``random``: uniformly among the view's legal actions (``look`` included).
- ``basic``: a simple sensible player.

  Frap (rules-frap.md): look before deciding (F9: a seat that has not looked is offered only
  ``look`` and actions that name no card); frap with strong trumps (F10); whist with an ace or a
  trump (F11; once three others are bound to take tricks, only with a likely trick); when buying
  keep trumps and aces and discard the rest (F15; a blind frapper takes a high turn-up, F16); cut
  in only with a high turn-up (F17); in play (F19–F21) lead the strongest card and follow with the
  lowest card that wins the trick so far, else the lowest card.

  Any other game, from the generic view keys (``hand``, ``trick``, ``trump``, ``phase``,
  ``actions``): look first; ``play`` the lowest winning card, else the lowest card (the trick is
  judged by the usual rule: highest trump, else highest card of the suit led); discard or
  exchange the weakest cards (keep trumps and aces); bid by a count of high cards, else pass;
  declare a suit where it holds most cards. Verbs it does not know are chosen at random.

Deterministic given the seed: :class:`Strategy` owns a ``random.Random(seed)``.
"""
from __future__ import annotations

import random
from typing import Any

from frapnet.cards import is_card, rank_value, suit_of

LEVELS = ("random", "basic")
"""The levels of this view-only strategy. :func:`choose` also accepts the levels of
:data:`frapnet.bots.LEVELS` it does not implement (``expert``) and plays them as ``basic``: a
caller holding only one view (no memory of the deal) gets the view-only player."""

_ALSO = ("expert",)

Action = list  # [verb] or [verb, arg], exactly as the view lists it


class NoAction(ValueError):
    """The view offers this seat no action (not its turn, or the deal is over)."""


def legal(view: dict) -> list[Action]:
    """The seat's legal actions in ``view`` (``view["actions"][i]["action"]``), in view order."""
    return [a["action"] for a in view.get("actions") or () if isinstance(a, dict) and a.get("action")]


def choose(view: dict, level: str = "basic", rng: random.Random | None = None) -> Action:
    """One legal action for the seat whose view this is, chosen by ``level``.

    ``view``: a seat's view (dict with ``"actions"``). ``rng``: the random source (default: a new
    unseeded one). Returns an element of the view's action list. Raises :class:`NoAction` if the
    view lists no action, ValueError for an unknown level.
    """
    if level not in LEVELS and level not in _ALSO:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS + _ALSO)})")
    acts = legal(view)
    if not acts:
        raise NoAction("the view lists no legal action for this seat")
    rng = rng or random.Random()
    if level == "random":
        return rng.choice(acts)
    picked = _basic(view, acts, rng)
    return picked if picked is not None else rng.choice(acts)


class Strategy:
    """A seeded decision maker: ``Strategy("basic", seed=7).choose(view) -> [verb, arg?]``.

    The same seed and the same sequence of views give the same choices.
    Raises ValueError for an unknown level (at construction).
    """

    def __init__(self, level: str = "basic", seed: Any = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        self.level = level
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> Action:
        """See :func:`choose`."""
        return choose(view, self.level, self.rng)


# --- card helpers (generic: ace high, F3; jokers above the ace) ---------------------------------

def _value(card: str) -> int:
    return rank_value(card) if is_card(card) else 0


def _suit(card: str) -> str | None:
    return suit_of(card) if is_card(card) else None


def _strength(card: str, trump: str | None) -> int:
    """Order for "weakest first": a trump ranks above every plain card (jokers above all)."""
    if not is_card(card):
        return 0
    if _suit(card) is None:  # joker
        return 100 + _value(card)
    return _value(card) + (50 if trump and _suit(card) == trump else 0)


def _beats(card: str, best: str, led: str | None, trump: str | None) -> bool:
    """Does ``card`` beat the trick's current ``best`` (F21: highest trump, else highest of the led suit)?"""
    cs, bs = _suit(card), _suit(best)
    if cs is None or bs is None:  # jokers: compare by strength
        return _strength(card, trump) > _strength(best, trump)
    if trump and cs == trump:
        return bs != trump or _value(card) > _value(best)
    if trump and bs == trump:
        return False
    return cs == led and (bs != led or _value(card) > _value(best))


def trick_best(trick: list, trump: str | None) -> str | None:
    """The card currently winning ``trick`` (``[[seat, card], …]``) by F21, or None if empty."""
    if not trick:
        return None
    cards = [t[1] for t in trick if isinstance(t, (list, tuple)) and len(t) == 2]
    if not cards:
        return None
    led = _suit(cards[0])
    best = cards[0]
    for c in cards[1:]:
        if _beats(c, best, led, trump):
            best = c
    return best


def _card_actions(acts: list[Action], verb: str) -> dict[str, Action]:
    return {a[1]: a for a in acts if a[0] == verb and len(a) == 2 and isinstance(a[1], str)}


def _play_card(view: dict, plays: dict[str, Action]) -> Action:
    """Lead the strongest card; follow with the lowest winning card, else the lowest card (F20/F21)."""
    trump = view.get("trump")
    trick = view.get("trick") or []
    cards = sorted(plays, key=lambda c: (_strength(c, trump), c))
    best = trick_best(trick, trump)
    if best is None:
        return plays[cards[-1]]
    led = _suit(trick[0][1])
    winners = [c for c in cards if _beats(c, best, led, trump)]
    return plays[winners[0] if winners else cards[0]]


def _keeper(card: str, trump: str | None) -> bool:
    """Cards worth keeping when buying: trumps and aces (and jokers)."""
    s = _suit(card)
    return s is None or (trump is not None and s == trump) or _value(card) >= 14


def _best_discard(acts: list[Action], verb: str, trump: str | None) -> Action | None:
    """Among ``verb [cards]`` actions: discard as many non-keepers as allowed, weakest first, never a keeper."""
    opts = [a for a in acts if a[0] == verb and len(a) == 2 and isinstance(a[1], list)]
    if not opts:
        return None
    clean = [a for a in opts if all(not _keeper(c, trump) for c in a[1])]
    if clean:  # the most non-keepers, then the weakest
        return min(clean, key=lambda a: (-len(a[1]), sum(_strength(c, trump) for c in a[1]), sorted(a[1])))
    return min(opts, key=lambda a: (sum(_strength(c, trump) for c in a[1]), len(a[1]), sorted(a[1])))


def _weakest(cards: list[str], trump: str | None) -> str:
    return min(cards, key=lambda c: (_keeper(c, trump), _strength(c, trump), c))


# --- Frap (rules-frap.md) -----------------------------------------------------------------------

FRAP_AT = 1.75
"""basic fraps (F10) when :func:`frap_estimate` reaches this many tricks (e.g. trump A and J,
or trump K, a low trump and a side ace)."""


def frap_estimate(hand: list[str], trump: str | None) -> float:
    """Expected tricks of a Frap hand (of four): trump A/K 1, Q/J 0.75, lower trumps 0.5, side aces 0.6."""
    est = 0.0
    for c in hand:
        v = _value(c)
        if trump and _suit(c) == trump:
            est += 1.0 if v >= 13 else 0.75 if v >= 11 else 0.5
        elif v >= 14:
            est += 0.6
    return est


def _frap(view: dict, acts: list[Action], rng: random.Random) -> Action | None:
    verbs = {a[0]: a for a in acts}
    hand = view.get("hand")
    trump = view.get("trump")
    if hand is None:  # F9: look before deciding; until then only look and non-card actions
        if "look" in verbs:
            return verbs["look"]
        return None
    if "frap" in verbs or "whist" in verbs:  # F10, F11
        if "frap" in verbs and frap_estimate(hand, trump) >= FRAP_AT:
            return verbs["frap"]
        has = any(_value(c) >= 14 or _suit(c) == trump for c in hand)
        rivals = sum(1 for x in view.get("seats") or () if isinstance(x, dict)
                     and x.get("declaration") in ("frap", "blind_frap", "whist"))
        if rivals >= 3:  # four tricks, already three bound to take some: whist only with a real trick
            has = frap_estimate(hand, trump) >= 1.0
        if "whist" in verbs and has:
            return verbs["whist"]
        if "pass" in verbs:
            return verbs["pass"]
        return verbs.get("whist") or verbs.get("frap")
    takes = _card_actions(acts, "take_trump")
    if takes:  # F16: a blind frapper takes a turn-up that is a trump worth having, discarding the weakest
        turn_up = view.get("turn_up")
        if turn_up and _value(turn_up) >= 11:
            return takes[_weakest([c for c in takes if c != turn_up] or list(takes), trump)]
    if any(a[0] == "buy" for a in acts):  # F15: keep trumps and aces
        return _best_discard(acts, "buy", trump)
    if "cut_in" in verbs or "cut_in_trump" in verbs or "decline" in verbs:  # F17
        turn_up = view.get("turn_up")
        if "cut_in_trump" in verbs and turn_up and _value(turn_up) >= 13:
            return verbs["cut_in_trump"]
        return verbs.get("decline")
    discards = _card_actions(acts, "discard")
    if discards:
        return discards[_weakest(list(discards), trump)]
    plays = _card_actions(acts, "play")
    if plays:
        return _play_card(view, plays)
    return None


# --- any other game (generic view keys) ---------------------------------------------------------

def _bid_estimate(hand: list[str]) -> int:
    """Tricks a hand may take with its longest suit as trump: aces, kings with a guard, long-suit length beyond 2."""
    by_suit: dict[str, list[int]] = {}
    for c in hand:
        s = _suit(c)
        if s:
            by_suit.setdefault(s, []).append(_value(c))
    est = 0.0
    for vals in by_suit.values():
        est += sum(1.0 for v in vals if v >= 14) + sum(0.5 for v in vals if v == 13)
    longest = max((len(v) for v in by_suit.values()), default=0)
    est += max(0, longest - 2)
    return int(est)


def _generic(view: dict, acts: list[Action], rng: random.Random) -> Action | None:
    verbs = {a[0]: a for a in acts}
    hand = view.get("hand")
    trump = view.get("trump") if isinstance(view.get("trump"), str) else None
    if hand is None and "look" in verbs:
        return verbs["look"]
    plays = _card_actions(acts, "play")
    if plays:
        return _play_card(view, plays)
    for verb in ("buy", "exchange", "discard"):
        if any(a[0] == verb and len(a) == 2 and isinstance(a[1], list) for a in acts):
            return _best_discard(acts, verb, trump)
    discards = _card_actions(acts, "discard")
    if discards:
        return discards[_weakest(list(discards), trump)]
    bids = [a for a in acts if a[0] == "bid" and len(a) == 2 and isinstance(a[1], int)]
    if bids and isinstance(hand, list):
        est = _bid_estimate(hand)
        ok = [a for a in bids if a[1] <= est]
        if ok:
            return max(ok, key=lambda a: a[1])
        if "pass" in verbs:
            return verbs["pass"]
        return min(bids, key=lambda a: a[1])
    suits = [a for a in acts if a[0] == "declare" and len(a) == 2 and isinstance(a[1], str)]
    if suits and isinstance(hand, list):
        return max(suits, key=lambda a: (sum(1 for c in hand if _suit(c) == a[1]), a[1]))
    return None  # a verb this level does not know: random among the legal actions


def _basic(view: dict, acts: list[Action], rng: random.Random) -> Action | None:
    if view.get("game") == "frap":
        return _frap(view, acts, rng)
    return _generic(view, acts, rng)
