"""Cards on the screen: how a card string from the view is drawn (the protocol's card codes,
docs/protocol.md "Encoding"), and the order a hand is shown in. No game rules: suits and ranks
only sort and colour the cards."""
from __future__ import annotations

from frapnet.cards import card_text, hand_order  # noqa: F401 - hand_order: the screen's order, from cards
from frapnet.tui.text import safe_text

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
RANK_VALUE = {r: i + 2 for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
JOKERS = ("RJ", "BJ")


def is_card(x) -> bool:
    """A string that looks like a card (rank then a suit letter, or a joker)."""
    return isinstance(x, str) and (x in JOKERS or (2 <= len(x) <= 3 and x[-1] in SUIT_SYMBOLS
                                                   and x[:-1] in RANK_VALUE))


def card_suit(card: str) -> str | None:
    """The suit letter of a card (None for a joker or a non-card)."""
    return card[-1] if is_card(card) and card not in JOKERS else None


def card_face(card, lang: str = "en") -> str:
    """The short face of a card in ``lang``: ``"10♥"``, ``"Q♠"`` (Russian ``"Д♠"``: В Д К Т for
    J Q K A); jokers told apart, ``"RJk"``/``"BJk"`` (``"КДж"``/``"ЧДж"``); anything else made safe."""
    if is_card(card):
        return card_text(card, lang)
    return safe_text(card, 4)


def card_red(card) -> bool:
    """Hearts, diamonds and the red joker are drawn in red."""
    return card == "RJ" or card_suit(card) in RED_SUITS
