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

A fan-out builds the spectator's map once per change and language and only each seat's own
fields per seat (:func:`seat_ui`, the game's :func:`frapnet.hookspecs.frapnet_seat_view_ui`:
refusals, cursor, hints, card marks…; issue #9 "Fan-out once").

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


def _report_default(state, lang: str):
    """The last deal's tricks, if its report has them (every built-in game's does); else None."""
    report = state.reports[-1] if state.reports else None
    tricks = report.get("tricks") if isinstance(report, dict) else None
    if not isinstance(tricks, list):
        return None
    return {"columns": [{"title": words(lang)["tricks"], "cells": [str(x) for x in tricks]}], "notes": []}


_NONE: list = []
_NO_MAP: dict = {}
_SHARED: dict = {}
"""Defaults that are the same for every state of a kind, made once: the very same objects from
change to change, so that a host's fan-out reuses their bytes (issue #9). Never changed in place
(a ui map is read, never written to: its fields are replaced, not mutated)."""


def _shared(key, make):
    """The object ``make()`` gave the first time for ``key`` (see :data:`_SHARED`)."""
    out = _SHARED.get(key)
    if out is None:
        out = _SHARED[key] = make()
    return out


_DEFAULTS = {  # field -> its default, from (state, lang); in the order of FIELDS
    "title": lambda state, lang: state.spec.title,
    "goal": lambda state, lang: state.spec.summary or state.spec.title,
    "special_cards": lambda state, lang: _NONE, "keys": lambda state, lang: _NO_MAP,
    "hints": lambda state, lang: _NO_MAP,
    "ledger": lambda state, lang: _shared(("ledger", lang, state.spec.ledger), lambda: defaults_ledger(state, lang)),
    "pot": lambda state, lang: words(lang)["pot"] if state.spec.ledger == "chips" else None,
    "columns": lambda state, lang: _NONE,
    "cells": lambda state, lang: _shared(("cells", state.players), lambda: [[] for _ in range(state.players)]),
    "marks": lambda state, lang: _shared(("marks", state.players), lambda: [""] * state.players),
    "refusals": lambda state, lang: _NO_MAP,
    "cursor": lambda state, lang: None, "card_marks": lambda state, lang: _NO_MAP,
    "trick_marks": lambda state, lang: _NONE, "last_trick_marks": lambda state, lang: _NONE,
    "legend": lambda state, lang: _NONE, "report": _report_default, "options": option_pairs,
}
assert tuple(_DEFAULTS) == FIELDS


def defaults(state, seat, lang: str) -> dict:
    """Every ui field with its default (see the module docstring)."""
    return {k: f(state, lang) for k, f in _DEFAULTS.items()}


_PER_STATE = ("report", "options")
"""The fields whose default depends on the state itself (the last report, the options in words);
every other default is the same for every state of a game, seat count and language."""
_LATER = object()
_BASES: dict = {}
"""Per (game spec, seats, language): the ui map of defaults, :data:`_PER_STATE` fields left to fill."""


def _base(state, lang: str) -> dict:
    """Every field's default that does not depend on the state (see :data:`_BASES`), in the
    order of :data:`FIELDS`; the :data:`_PER_STATE` ones are :data:`_LATER`."""
    key = (id(state.spec), state.players, lang)
    hit = _BASES.get(key)
    if hit is None or hit[0] is not state.spec:
        if len(_BASES) > 256:
            _BASES.clear()
        base = {k: _LATER if k in _PER_STATE else f(state, lang) for k, f in _DEFAULTS.items()}
        hit = _BASES[key] = (state.spec, base)
    return hit[1]


def ui(state, seat, lang: str) -> dict:
    """The view's ``ui`` map for ``seat`` (None: a spectator): the game plugin's fields
    (``state.rules.view_ui``), each missing or None one replaced by its default (only those are
    computed: a game that gives its own options and report costs no default ones)."""
    given: Any = state.rules.view_ui(state, seat, lang)
    if not isinstance(given, dict):
        return defaults(state, seat, lang)
    out = dict(_base(state, lang))
    for k, v in given.items():
        if v is not None and k in out:
            out[k] = {**defaults_ledger(state, lang), **v} if k == "ledger" and isinstance(v, dict) else v
    for k in _PER_STATE:
        if out[k] is _LATER:
            out[k] = _DEFAULTS[k](state, lang)
    return out


def _merge(out: dict, given: dict, ledger: dict) -> None:
    """Put the plugin's ``given`` fields into ``out`` (every field of :data:`FIELDS` already
    there): unknown and None ones are ignored, ``ledger`` completes the default ``ledger``."""
    for k, v in given.items():
        if k in out and v is not None:
            out[k] = {**ledger, **v} if k == "ledger" and isinstance(v, dict) else v


def seat_ui(state, seat: int, public: dict, lang: str, part: Any = None) -> dict:
    """``ui(state, seat, lang)`` — equal to it, fields in the same order — given ``public``, the
    ``ui`` map of this state and language for a spectator (``ui(state, None, lang)``, built once
    per change): ``public`` itself when nothing of the screen is the seat's own, else a copy
    with the seat's own fields (issue #9 "Fan-out once"; ``public`` is not changed).

    The seat's fields come from :func:`frapnet.hookspecs.frapnet_seat_view_ui` (its refusals,
    cursor, card marks, hints…) when every plugin of the table that implements
    ``frapnet_view_ui`` also implements it (see :func:`splits_ui`; a table without either takes
    every default, the same for every seat). Otherwise — or when the hook returns None — the
    seat's whole map is built with :func:`ui`, as before: the same map, slower. ``part``: what
    that hook returned for this seat, if the caller has called it already (else None)."""
    split = splits_ui(state.rules)
    if split is None:
        return public
    if part is None and split:
        part = state.rules.seat_view_ui(state, seat, lang)
    if not isinstance(part, dict):
        mine = ui(state, seat, lang)
        return public if mine == public else mine
    if not part or not any(k in public and v is not None for k, v in part.items()):
        return public
    out = dict(public)
    _merge(out, part, defaults_ledger(state, lang) if "ledger" in part else {})
    return out


def defaults_ledger(state, lang: str) -> dict:
    """The default ``ledger`` field (the balance column's heading; signed in a chips game)."""
    w = words(lang)
    chips = state.spec.ledger == "chips"
    return {"title": w["balance"] if chips else w["points"], "signed": chips}


_UNKNOWN = object()


def splits_ui(rules) -> bool | None:
    """True if every plugin of the table (``rules``, :class:`frapnet.engine.rules.Rules`) that
    implements ``frapnet_view_ui`` also implements ``frapnet_seat_view_ui`` — so a house rule
    that changes the screen is never bypassed; None if none implements ``frapnet_view_ui`` (every
    field its default: the same map for every seat); False otherwise. Cached on ``rules``."""
    ok = getattr(rules, "_splits_ui", _UNKNOWN)
    if ok is _UNKNOWN:
        hook = rules.pm.hook
        painters = {i.plugin for i in hook.frapnet_view_ui.get_hookimpls()}
        splitters = {i.plugin for i in hook.frapnet_seat_view_ui.get_hookimpls()}
        ok = None if not painters else painters <= splitters
        rules._splits_ui = ok
    return ok
