"""Cards: parsing and canonical formatting (record-format.md "Cards"), packs (F2), rank order (F3)."""
from __future__ import annotations

import pytest

from frapnet import cards
from frapnet.cards import CardError, format_card, pack, parse_card, parse_cards


@pytest.mark.parametrize("text,card", [
    ("10H", "10H"), ("QS", "QS"), ("7C", "7C"), ("AD", "AD"), ("2S", "2S"), ("RJ", "RJ"), ("BJ", "BJ"),
    ("TH", "10H"), ("th", "10H"), ("Tс", None), ("10♥", "10H"), ("q♠", "QS"), ("A♦", "AD"), ("K♣", "KC"),
    ("♤", None), ("10♡", "10H"), ("j♧", "JC"), ("  9d ", "9D"), ("rj", "RJ"),
    # Russian court letters: В (валет) J, Д (дама) Q, К (король) K, Т (туз) A — Cyrillic Т is the ace.
    ("ВS", "JS"), ("ДH", "QH"), ("КD", "KD"), ("ТC", "AC"), ("т♠", "AS"), ("в♥", "JH"), ("дc", "QC"), ("кs", "KS"),
])
def test_parse_card_accepted_spellings(text, card):
    if card is None:
        with pytest.raises(CardError):
            parse_card(text)
    else:
        assert parse_card(text) == card


def test_latin_T_is_ten_cyrillic_T_is_ace():
    assert parse_card("TS") == "10S"  # Latin T
    assert parse_card("\u0422S") == "AS"  # Cyrillic Т
    assert parse_card("\u0442s") == "AS"  # lower-case Cyrillic т


@pytest.mark.parametrize("text", ["", "X", "1H", "11H", "10X", "HH", "ZZ", "10", "H10", "AS ", "A S", "J", "AJ",
                                  "QQS", "100H", "1OH"])
def test_bad_card_string_error_names_it(text):
    if text == "AS ":  # surrounding blanks are forgiven
        assert parse_card(text) == "AS"
        return
    with pytest.raises(CardError) as exc:
        parse_card(text)
    assert repr(text) in str(exc.value) and exc.value.text == text


@pytest.mark.parametrize("value", [None, 10, ["AS"], b"AS"])
def test_non_string_is_not_a_card(value):
    with pytest.raises(CardError) as exc:
        parse_card(value)
    assert repr(value) in str(exc.value)


def test_parse_cards_stops_at_first_bad_one():
    assert parse_cards(["th", "q♠"]) == ["10H", "QS"]
    with pytest.raises(CardError) as exc:
        parse_cards(["AS", "ZZ", "XX"])
    assert exc.value.text == "ZZ"


def test_format_canonical_and_symbols():
    assert format_card("10H") == "10H"
    assert format_card("10H", symbols=True) == "10♥"
    assert format_card("QS", symbols=True) == "Q♠"
    assert format_card("AD", symbols=True) == "A♦"
    assert format_card("7C", symbols=True) == "7♣"
    assert format_card("RJ", symbols=True) == "RJ"
    # Output is always the canonical form, whatever the input spelling.
    assert [format_card(parse_card(t)) for t in ("t♦", "Д♣", "т♥")] == ["10D", "QC", "AH"]


@pytest.mark.parametrize("size,lowest", [(32, "7"), (36, "6"), (52, "2")])
def test_F2_packs(size, lowest):
    p = pack(size)
    assert len(p) == len(set(p)) == size
    assert {cards.rank_of(c) for c in p} == set(cards.RANKS[cards.RANKS.index(lowest):])
    assert {cards.suit_of(c) for c in p} == set("SHDC")
    assert all(cards.is_card(c) for c in p)


def test_F2_no_other_pack_size():
    with pytest.raises(ValueError):
        pack(40)


def test_F3_rank_values_ace_high():
    assert [cards.rank_value(c) for c in ("2S", "9S", "10S", "JS", "QS", "KS", "AS")] == [2, 9, 10, 11, 12, 13, 14]
    assert cards.sort_cards(["AS", "10S", "9S", "7H", "KC"]) == ["9S", "10S", "AS", "7H", "KC"]
    assert cards.rank_value("BJ") == 15 and cards.rank_value("RJ") == 16
    assert cards.suit_of("RJ") is None and cards.rank_of("10D") == "10"
