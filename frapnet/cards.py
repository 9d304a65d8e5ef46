"""Cards, suits, ranks and packs (record-format.md, "Cards").

A card is represented everywhere (engine state, records, views, wire messages) by its
canonical string: rank then suit, ranks ``2``–``10``, ``J``, ``Q``, ``K``, ``A``, suits
``S`` ♠, ``H`` ♥, ``D`` ♦, ``C`` ♣ (``10H``, ``QS``, ``7C``); jokers are ``RJ`` (red) and
``BJ`` (black). Strings keep states cheap to copy and records and messages readable.

On input :func:`parse_card` also accepts ``T`` for ten, the suit symbols ♠♥♦♣, lower case,
and the Russian letters В Д К Т for J Q K A (Cyrillic Т is the ace, Latin T the ten).
Output always uses the canonical form.
"""
from __future__ import annotations

from typing import Iterable

from frapnet.errors import shown

__all__ = [
    "CardError", "SUITS", "RANKS", "JOKERS", "SUIT_SYMBOLS", "RANK_VALUE",
    "parse_card", "parse_cards", "format_card", "suit_of", "rank_of", "rank_value",
    "pack", "card_key", "sort_cards", "is_card", "ALL_CARDS", "card_text",
]


class CardError(ValueError):
    """A string that is not a card. ``text`` holds the offending input."""

    def __init__(self, text: object, why: str = "not a card") -> None:
        self.text = text
        super().__init__(f"{shown(text)} is {why} (expected rank then suit, e.g. '10H', 'QS', 'RJ')")


SUITS = ("S", "H", "D", "C")
"""Suit letters in display order: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Ranks low to high (F3: ace high)."""
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}
"""Rank → numeric value, 2…14 (ace 14)."""
JOKERS = ("RJ", "BJ")

ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
_SUIT_OF = {c: c[-1] for c in ALL_CARDS[:-2]}
_RANK_OF = {c: c[:-1] for c in ALL_CARDS[:-2]}
_VALUE_OF = {c: RANK_VALUE[c[:-1]] for c in ALL_CARDS[:-2]}
_SUIT_OF.update({"RJ": None, "BJ": None})
_RANK_OF.update({"RJ": "RJ", "BJ": "BJ"})
_VALUE_OF.update({"RJ": 16, "BJ": 15})
_KEY = {c: i for i, c in enumerate(ALL_CARDS)}

_SUIT_IN = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
_RANK_IN = {r: r for r in RANKS}
_RANK_IN.update({"T": "10", "В": "J", "Д": "Q", "К": "K", "Т": "A"})


def parse_card(text: object) -> str:
    """Parse one card from any accepted spelling; return its canonical string.

    Accepts ``"10H"``, ``"th"``, ``"10♥"``, ``"Тп"``-style Russian court letters (В Д К Т
    for J Q K A), and ``RJ``/``BJ``. Raises :class:`CardError` naming the input if it is not
    a card (wrong type, empty, unknown rank or suit).
    """
    if not isinstance(text, str):
        raise CardError(text, "not a card string")
    s = text.strip().upper()
    if s in _KEY:
        return s
    if len(s) < 2 or len(s) > 3:
        raise CardError(text)
    rank, suit = s[:-1], s[-1]
    r = _RANK_IN.get(rank)
    su = _SUIT_IN.get(suit)
    if r is None or su is None:
        raise CardError(text)
    return r + su


def parse_cards(items: Iterable[object]) -> list[str]:
    """Parse a list of card strings; raises :class:`CardError` at the first bad one."""
    return [parse_card(x) for x in items]


def is_card(text: object) -> bool:
    """True if ``text`` is already a canonical card string."""
    return isinstance(text, str) and text in _KEY


def format_card(card: str, symbols: bool = False) -> str:
    """Canonical text of ``card`` (``"10H"``), or with ``symbols=True`` ``"10♥"``/``"RJ"``."""
    if not symbols or card in JOKERS:
        return card
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


_FACE_RANKS = {"ru": {"J": "В", "Q": "Д", "K": "К", "A": "Т"}}
_JOKER_FACES = {"en": {"RJ": "RJk", "BJ": "BJk"}, "ru": {"RJ": "КДж", "BJ": "ЧДж"}}


def card_text(card: str, lang: str = "en") -> str:
    """A card as players read it in ``lang``: ``"10♥"``, ``"Q♠"``; in Russian the court ranks are
    В Д К Т (``"Д♠"``, ``"Т♥"``, as the rule books spell them). Jokers are told apart: ``"RJk"``
    (red) and ``"BJk"`` (black); Russian ``"КДж"``/``"ЧДж"``. At most 3 terminal cells. Any other
    string is returned unchanged."""
    if card in JOKERS:
        return _JOKER_FACES.get(lang, _JOKER_FACES["en"])[card]
    if card not in _KEY:
        return card
    rank = card[:-1]
    return _FACE_RANKS.get(lang, {}).get(rank, rank) + SUIT_SYMBOLS[card[-1]]


def suit_of(card: str) -> str | None:
    """Suit letter of a canonical card (``None`` for a joker)."""
    return _SUIT_OF[card]


def rank_of(card: str) -> str:
    """Rank of a canonical card (``"10"``, ``"A"``; ``"RJ"``/``"BJ"`` for jokers)."""
    return _RANK_OF[card]


def rank_value(card: str) -> int:
    """Numeric rank, 2…14 with ace 14 (F3); black joker 15, red joker 16."""
    return _VALUE_OF[card]


def card_key(card: str) -> int:
    """A total order on cards (suit ♠♥♦♣, then rank low to high, jokers last), for sorting."""
    return _KEY[card]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards sorted by :func:`card_key` (suit, then rank ascending)."""
    return sorted(cards, key=_KEY.__getitem__)


def hand_order(cards: Iterable[object], trump: str | None = None) -> list[str]:
    """``cards`` as a hand shows them: by suit (the ``trump`` suit first, then ♠♥♦♣), high rank
    first; jokers and strings that are no card after them, anything not a string left out (a view
    from an odd host). The terminal's hand, the web page's, and the labels that name several cards
    (Frap's buy, Frak You's pass) all use this order."""
    order = (trump,) + tuple(x for x in SUITS if x != trump) if trump in SUITS else SUITS

    def key(c: str):
        suit = _SUIT_OF.get(c)
        return (order.index(suit), -_VALUE_OF[c], c) if suit is not None else (9, 0, c)
    return sorted((c for c in cards if isinstance(c, str)), key=key)


def pack(size: int) -> list[str]:
    """A fresh ordered pack of ``size`` cards: 32 (7–A), 36 (6–A) or 52 (2–A).

    Raises ValueError for any other size.
    """
    low = {32: 7, 36: 6, 52: 2}.get(size)
    if low is None:
        raise ValueError(f"no {size}-card pack (32, 36 or 52)")
    return [c for c in ALL_CARDS[:-2] if _VALUE_OF[c] >= low]
