"""La Krap's cards and the rules about them, shared by the rules (:mod:`frapnet_la_krap.plugin`),
the scoring (:mod:`frapnet_la_krap.scoring`), the views (:mod:`frapnet_la_krap.view`) and the
computer players: the deal's sizes and phases, the 72-card double pack (L2), the ranks (L3),
effective suits and trumps (L6), neutralisation (L11) and the suit led, the teams (L5), the
sides' scores (L10, L12) and a deck that deals given hands (L4, for tests and examples)."""
from __future__ import annotations

from frapnet.cards import card_key, SUITS

HAND_DOWN = 6      # L4: six cards face down
TRICKS = 7         # L8: seven tricks
MAX_EXCHANGE = 6   # L7: up to six face-down cards
DECLARATION_POINTS = 5  # L10

# Deal phases (the rule an out-of-turn action or a wrong verb names, record-format.md)
EXCHANGE, PLAY, DONE = "exchange", "play", "done"
DECLARING = "declaring"  # reported only: the moment between winning a trick and leading (L10)

# L2: two packs of 7–A, one red joker, two black jokers, a 2 of each suit, the 5♣ (72 cards).
PACK = tuple(sorted([r + s for s in SUITS for r in ("7", "8", "9", "10", "J", "Q", "K", "A")] * 2
                    + ["RJ", "BJ", "BJ"] + ["2" + s for s in SUITS] + ["5C"], key=card_key))
assert len(PACK) == 72

JOKERS = ("RJ", "BJ")
FIVE = "5C"
# L3: in each suit, low to high 2, 7, 8, 9, J, Q, K, 10, A; then BJ and RJ in the turn-up suit.
RANK_ORDER = {"2": 0, "7": 1, "8": 2, "9": 3, "J": 4, "Q": 5, "K": 6, "10": 7, "A": 8, "BJ": 9, "RJ": 10}
_RANK = {c: RANK_ORDER[c if c in JOKERS else c[:-1]] for c in set(PACK) if c != FIVE}
_RANK[FIVE] = -1  # L11c: the 5♣ has no rank and never wins
TRUMP_RANKS = frozenset(("J", "Q", "K", "10", "A"))  # L6: "above nine"


def effective_suits(turn_up_suit: str) -> dict:
    """Card → the suit it belongs to for following (L8), L11b and winning (L9).

    Jokers belong to the turn-up suit (L6); the 5♣ counts as a club (L8); every other card to its
    own suit. ``turn_up_suit`` is a suit letter.
    """
    eff = {c: c[-1] for c in PACK}
    eff["RJ"] = eff["BJ"] = turn_up_suit
    return eff


_EFF_CACHE = {s: effective_suits(s) for s in SUITS}


def neutralised(trick, eff) -> list[bool]:
    """L11: which cards of ``trick`` (``[(seat, card), …]`` in playing order) are neutralised.

    Applied card by card in playing order. A card once neutralised stays so. A card played after
    a 5♣ that was not led is neutralised as it is played (L11c) and has no effect of its own.
    Otherwise: a) a card identical to an earlier one (same string: suit and rank, or the two
    black jokers) neutralises both, even if the earlier one was already neutralised; b) a 2
    neutralises every earlier card of its suit (``eff``: jokers count as the turn-up suit) and
    stays live; c) the 5♣ neutralises itself and every earlier card but the one played just
    before it (led, only itself). Returns a list of bools, True = neutralised.
    """
    k = len(trick)
    dead = [False] * k
    five_at = None
    for i in range(k):
        card = trick[i][1]
        if five_at is not None and five_at > 0:  # L11c: after a 5♣ that was not led
            dead[i] = True
            continue
        if card == FIVE:  # L11c
            dead[i] = True
            five_at = i
            for j in range(i - 1):
                dead[j] = True
            continue
        for j in range(i):  # L11a
            if trick[j][1] == card:
                dead[j] = dead[i] = True
        if card[0] == "2":  # L11b
            suit = card[-1]
            for j in range(i):
                if eff[trick[j][1]] == suit:
                    dead[j] = True
    return dead


def led_suit(trick, eff) -> str | None:
    """L8/L9: the suit led — of the first card, or, if the 5♣ was led, of the next card (None
    while the 5♣ stands alone)."""
    first = trick[0][1]
    if first == FIVE:
        return eff[trick[1][1]] if len(trick) > 1 else None
    return eff[first]


def teams_for(team_cards) -> list[list[int]]:
    """L5: the sides for the team cards (``team_cards[seat]``), as lists of seats ordered by
    their lowest seat.

    Red (♥ ♦), black (♠ ♣, the 5♣ included) and joker teams; everyone plays alone if no team
    would have two players or all players would be on one team; otherwise each team plays
    together and a team of one plays alone.
    """
    groups: dict[str, list[int]] = {}
    for seat, c in enumerate(team_cards):
        colour = "joker" if c in JOKERS else "red" if c[-1] in "HD" else "black"
        groups.setdefault(colour, []).append(seat)
    n = len(team_cards)
    if len(groups) == 1 or all(len(g) < 2 for g in groups.values()):
        return [[s] for s in range(n)]
    return sorted(groups.values(), key=lambda g: g[0])


def side_scores(sides, tricks, declarations) -> list[int]:
    """L12: per seat, its side's score: t² for the side's t tricks plus 5 per declaration made
    by any member (every member is credited the side's score). ``tricks`` and ``declarations``
    are per seat (counts)."""
    out = [0] * len(tricks)
    for side in sides:
        t = sum(tricks[s] for s in side)
        score = t * t + DECLARATION_POINTS * sum(declarations[s] for s in side)
        for s in side:
            out[s] = score
    return out


def build_deck(players: int, dealer: int, down, team_cards, turn_up: str, talon_top=()) -> list[str]:
    """A deck (top first) that deals as given under L4, for fixed-deck tests and examples.

    ``down[seat]`` are the six face-down cards of each seat, ``team_cards[seat]`` its team card,
    ``turn_up`` the card at ``deck[7n]``, ``talon_top`` the next talon cards; the rest of the
    72-card pack follows in pack order. Raises ValueError if the cards are not part of the pack.
    """
    n = players
    deck = [None] * (7 * n)
    for r in range(3):
        for i in range(n):
            seat = (dealer + 1 + i) % n
            k = 2 * (r * n + i)
            deck[k], deck[k + 1] = down[seat][2 * r], down[seat][2 * r + 1]
    for i in range(n):
        deck[6 * n + i] = team_cards[(dealer + 1 + i) % n]
    deck.append(turn_up)
    deck.extend(talon_top)
    rest = list(PACK)
    for c in deck:
        try:
            rest.remove(c)
        except ValueError:
            raise ValueError(f"{c!r} is not (or no longer) in the 72-card pack") from None
    return deck + rest


_PHASE_EN = {EXCHANGE: "exchange", PLAY: "play", DECLARING: "declaring or leading", DONE: "deal over"}


def _phase_key(d):
    return DECLARING if d.phase == PLAY and d.window else d.phase
