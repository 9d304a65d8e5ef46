"""The view's ``ui`` map: what a client shows, in the seat's language, from the game plugin.

A client holds no game words or rules (design.md principles 3 and 10, style.md item 11): the
game plugin describes its table through :func:`frapnet.hookspecs.frapnet_view_ui`, and this
module fills in a default for every field the plugin leaves out, so a plugin that gives none
still works. Every field is plain data (str, int, list, map with str keys) and safe to send.

Fields (docs/protocol.md, "The view's ui map"; docs/plugins.md for plugin authors):

- ``title`` (str): the game's name in the seat's language (default: the GameSpec's ``title``).
- ``goal`` (str): the game's goal in one line (default: the GameSpec's ``summary``).
- ``special_cards`` (list of str): one line per special card (Frak You's 3♣ and A♠…).
- ``keys`` (map verb → one lower-case letter): the key of each verb's button.
- ``hints`` (map letter → str): what a key that does nothing now says (Frap: ``t`` before looking, F16).
- ``ledger`` (map): ``title`` (the balance column's heading), ``signed`` (bool: show ``+``/``−``).
- ``pot`` (str or None): the pot's name in the header (``"pot"``, Napoleon's ``"treasure"``);
  None: no pot is shown.
- ``columns`` (list of str) and ``cells`` (per seat 0…n−1, a list of str, one per column): the
  game's own columns of the seat table (Frap: the bid).
- ``marks`` (per seat, str ≤ 3 cells): a mark after the name (La Krap: the team).
- ``refusals`` (map card → str): why a card of your hand cannot be chosen now (``"Q♠ cannot
  be played now: follow suit ♥ (F20)"``).
- ``cursor`` (card or None): where the hand's cursor starts when the hand or the choice changes
  (a card the player can give away without loss).
- ``card_marks`` (map card → one character): a mark on a card of your hand (La Krap: the team
  card).
- ``trick_marks``, ``last_trick_marks`` (lists of str, one per card of ``trick`` /
  ``last_trick``): a mark after the card (La Krap: ``×`` neutralised).
- ``legend`` (list of str): what the marks mean (the help screen).
- ``report`` (map or None): the last settled deal (``last_report``) for the settlement box:
  ``columns`` (list of ``{"title": str, "cells": [str per seat]}``) and ``notes`` (list of str).
- ``options`` (list of ``[label, value]`` str pairs): the table's options in words (F27).

Pure: no I/O. ``lang`` is ``"en"`` or ``"ru"`` (anything else reads as English).
"""
from __future__ import annotations

from typing import Any

FIELDS = ("title", "goal", "special_cards", "keys", "hints", "ledger", "pot", "columns", "cells", "marks", "refusals", "cursor",
          "card_marks", "trick_marks", "last_trick_marks", "legend", "report", "options")

_WORDS = {
    "en": {"balance": "balance", "points": "points", "pot": "pot", "on": "on", "off": "off",
           "tricks": "tricks"},
    "ru": {"balance": "счёт", "points": "очки", "pot": "кон", "on": "да", "off": "нет",
           "tricks": "взятки"},
}


def words(lang: str) -> dict:
    """The engine's few default words in ``lang`` (English for any other language)."""
    return _WORDS.get(lang, _WORDS["en"])


def option_pairs(state, lang: str) -> list[list[str]]:
    """The table's options as ``[name, value]`` in words: the option's name with spaces, a
    flag as on/off (F27). A game gives better words through ``options`` in its ui map."""
    w = words(lang)
    out = []
    for k, v in state.options.items():
        if isinstance(v, bool):
            v = w["on"] if v else w["off"]
        out.append([str(k).replace("_", " "), str(v)])
    return out


def defaults(state, seat, lang: str) -> dict:
    """Every ui field with its default (see the module docstring)."""
    w = words(lang)
    chips = state.spec.ledger == "chips"
    report = state.reports[-1] if state.reports else None
    tricks = report.get("tricks") if isinstance(report, dict) else None
    return {
        "title": state.spec.title, "goal": state.spec.summary or state.spec.title,
        "special_cards": [], "keys": {}, "hints": {},
        "ledger": {"title": w["balance"] if chips else w["points"], "signed": chips},
        "pot": w["pot"] if chips else None,
        "columns": [], "cells": [[] for _ in range(state.players)], "marks": [""] * state.players,
        "refusals": {}, "cursor": None, "card_marks": {}, "trick_marks": [], "last_trick_marks": [],
        "legend": [], "options": option_pairs(state, lang),
        # the last deal's tricks, if its report has them (every built-in game's does)
        "report": {"columns": [{"title": w["tricks"], "cells": [str(x) for x in tricks]}], "notes": []}
        if isinstance(tricks, list) else None,
    }


def ui(state, seat, lang: str) -> dict:
    """The view's ``ui`` map for ``seat`` (None: a spectator): the game plugin's fields
    (``state.rules.view_ui``), each missing or None one replaced by its default."""
    out = defaults(state, seat, lang)
    given: Any = state.rules.view_ui(state, seat, lang)
    if isinstance(given, dict):
        for k, v in given.items():
            if k in out and v is not None:
                if k == "ledger" and isinstance(v, dict):
                    out[k] = {**out[k], **v}
                else:
                    out[k] = v
    return out
