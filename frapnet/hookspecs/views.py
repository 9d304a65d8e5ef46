"""The view hooks of the plugin API: what a seat may know (``frapnet_view``), labels and log lines
(``frapnet_action_label``, ``frapnet_describe_event``), what the screen shows (``frapnet_view_ui``),
and the fan-out's per-seat parts (``frapnet_seat_view``, ``frapnet_seat_view_ui``).

The engine and the host call them (design.md principles 3 and 10: no client needs game words or
rules). Every spec here is exposed by :mod:`frapnet.hookspecs`.
"""
from __future__ import annotations

from frapnet.hookspecs.markers import hookspec


# --- views, labels and log lines (called by the engine; firstresult) -------------------------

@hookspec(firstresult=True)
def frapnet_view(state, seat, lang):
    """What ``seat`` may know of the deal (``seat`` None: a spectator), as a plain dict.

    Never another seat's hand, discards or the talon (F9: no cards until the seat has looked).
    Keys understood by every client: ``phase``, ``phase_label``, ``trump``, ``turn_up``,
    ``talon`` (count), ``hand`` (list or None), ``seats`` (list of dicts with ``declaration``,
    ``tricks``, ``cards``, ``looked``, ``in_play``), ``trick`` ([[seat, card], …]),
    ``leader``, ``last_trick``, ``piles``. ``lang`` is ``"en"`` or ``"ru"``.
    """


@hookspec(firstresult=True)
def frapnet_action_label(state, seat, action, lang):
    """A short human label for ``action`` in ``lang`` (``"Play 10♥"``, ``"Фрап"``), so that a
    client without this game's plugin can offer it. An implementation whose labels never depend
    on the seat may leave ``seat`` out of its arguments (pluggy passes only those it names): the
    host then labels an action once per change for every seat that has it."""


@hookspec(firstresult=True)
def frapnet_describe_event(state, event, names, lang):
    """One event in plain words for a log pane (``"Olga declared frap"``, ``"Ivan took the trick
    with Q♠"``), in ``lang``. ``names`` is the list of seat names, seat 0…n−1. Return None to
    let the client fall back to a generic line. Called by the host for each recipient."""


# --- fan-out (called by the host through frapnet.engine.seat_part; optional, firstresult) ------

@hookspec(firstresult=True)
def frapnet_seat_view(state, seat, lang):
    """Only ``seat``'s own keys of its view of the deal — for speed (issue #9 "Fan-out once").

    :param state: a State with a deal in progress (as for :func:`frapnet_view`).
    :param seat: the seat whose view it is, 0…n−1 (never None).
    :param lang: ``"en"`` or ``"ru"``, as for :func:`frapnet_view`.
    :returns: a dict of the keys of ``frapnet_view(state, seat, lang)`` whose values differ from
        the public view ``frapnet_view(state, None, lang)`` (Frap: ``hand``, ``hand_count``,
        ``looked``, ``discards``); every key returned must also be a key of the public view, and
        ``{**frapnet_view(state, None, lang), **frapnet_seat_view(state, seat, lang)}`` must
        equal ``frapnet_view(state, seat, lang)`` (tests/test_fanout.py checks it for every
        installed game). Never another seat's hand (F9). None: build this seat's whole view
        with ``frapnet_view`` this time.

    The host builds the public view once per change and only this part per seat
    (:func:`frapnet.engine.seat_part`; at 12 seats building and encoding every view is several
    times cheaper). Without it — or when a house rule implements ``frapnet_view`` but not this
    hook, so that its change is never bypassed — each seat's whole view is built with
    ``frapnet_view``: the same views, slower.
    """


@hookspec(firstresult=True)
def frapnet_view_ui(state, seat, lang):
    """What a client shows of this table for ``seat`` (None: a spectator), in ``lang``
    (``"en"``/``"ru"``), so that no client needs game words or rules (design.md principles 3, 10).

    Return a dict with any of these keys (the engine fills in a default for each one missing or
    None, :mod:`frapnet.engine.present`); called in and between deals (``state.deal`` may be
    None, or the last deal, already settled):

    - ``title`` str (the game's name in ``lang``); ``goal`` str, one line; ``special_cards`` list of str, one line per special card.
    - ``keys`` {verb: letter}: the key of each verb's button (``{"frap": "f"}``); ``hints``
      {letter: str}: what a key that does nothing now says (Frap: ``t`` before looking, F16).
    - ``ledger`` {``title``: str, ``signed``: bool}: the balance column (``"penalty points"``).
    - ``pot`` str|None: the pot's name in the header; None shows no pot.
    - ``columns`` [str] and ``cells`` [[str] per seat 0…n−1]: the game's own seat-table columns.
    - ``marks`` [str per seat, ≤ 3 cells]: shown after the name (La Krap's team).
    - ``refusals`` {card: str}: why a card of the seat's hand cannot be chosen now, the rule in
      words, not its ID (``"Q♠ cannot be played now: you must follow suit ♥"``).
    - ``cursor`` card|None: where the hand's cursor starts (a card the seat can give away).
    - ``card_marks`` {card: one character}; ``trick_marks``/``last_trick_marks`` [str per card of
      ``trick``/``last_trick``]; ``legend`` [str]: what the marks mean.
    - ``report`` {``columns``: [{``title``: str, ``cells``: [str per seat]}], ``notes``: [str]}
      for the last settled deal (``state.reports[-1]``), or None.
    - ``options`` [[label, value]]: the table options in words (F27).

    Never a card the seat may not see (F9). Return None to take every default.
    """


# --- fan-out: the seat's own part of the ui map (optional, firstresult) --------------------------

@hookspec(firstresult=True)
def frapnet_seat_view_ui(state, seat, lang):
    """Only ``seat``'s own fields of its ``ui`` map — for speed (issue #9 "Fan-out once"), as
    :func:`frapnet_seat_view` is for the view.

    :param state: a State, in or between deals (as for :func:`frapnet_view_ui`).
    :param seat: the seat whose screen it is, 0…n−1 (never None).
    :param lang: ``"en"`` or ``"ru"``, as for :func:`frapnet_view_ui`.
    :returns: a dict of the :func:`frapnet_view_ui` fields in which this seat's screen differs
        from a spectator's — Frap: ``hints`` (F16), ``refusals`` (F20) and ``cursor`` (F16, F17)
        for the seat to act; La Krap: ``card_marks`` (the seat's team card, L5) — with the values
        ``frapnet_view_ui(state, seat, lang)`` gives them; ``{}`` when nothing is the seat's own
        (Napoleon, Frak You). The engine puts these fields over the spectator's map, built once
        per change and language: the result must equal the seat's whole map from
        ``frapnet_view_ui`` with every default filled in (tests/test_fanout.py checks it for
        every installed game at every step of random deals). Never another seat's card (F9).
        None: build this seat's whole map with ``frapnet_view_ui`` this time.

    Without it — or when a house rule implements ``frapnet_view_ui`` but not this hook, so that
    its change is never bypassed — each seat's whole map is built with ``frapnet_view_ui``
    (:func:`frapnet.engine.present.seat_ui`): the same screens, slower (at 12 seats, about a
    tenth of a millisecond per seat per change).
    """
