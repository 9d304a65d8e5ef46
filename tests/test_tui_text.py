"""The newcomer's findings about the clients' text (issues #9 and #10), without a terminal:
long words in the log pane, names, the Russian client's lines."""
from __future__ import annotations

from frapnet.tui import render
from frapnet.tui.model import Screen
from frapnet.tui.text import wrap


# --- issue #10: long unbroken words in chat ------------------------------------------------------

def test_issue10_wrap_cuts_a_long_word_into_full_lines_with_room_for_the_indent():
    url = "https://example.com/" + "a" * 180
    assert wrap(f"<Olga> see {url} ok", 100, 98) == ["<Olga> see", url[:98], url[98:196], url[196:] + " ok"]
    assert wrap("b" * 45, 20) == ["b" * 20, "b" * 20, "b" * 5]
    assert wrap("ab cd ef", 5, 3) == ["ab cd", "ef"]
    assert wrap("漢字" * 6, 7) == ["漢字漢", "字漢字", "漢字漢", "字漢字"]  # wide characters: 2 cells each


def test_issue10_a_long_chat_word_in_the_log_pane_keeps_every_character_in_order():
    s = Screen()
    word = "x" * 250
    s.add_chat({"name": "Olga", "text": f"look {word}"})
    got = [text for _, text in render.log_rows(s, 80)]
    assert got == ["<Olga> look", "  " + "x" * 78, "  " + "x" * 78, "  " + "x" * 78, "  " + "x" * 16]
    assert "".join(r[2:] for r in got[1:]) == word
