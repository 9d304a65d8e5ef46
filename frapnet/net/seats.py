"""Seats at a table: their states, the :class:`Seat` record, the words of seat events, the
timing-safe comparison of passwords and seat tokens (issue #3, docs/protocol.md "Seat events"),
and :class:`SeatVersions`, which decides when an ``act`` is stale.

Seats are 0…n−1 clockwise. No Twisted, no I/O.
"""
from __future__ import annotations

import hashlib
import hmac

from frapnet.engine.state import DEAL

EMPTY, CONNECTED, RECONNECTING, BOT = "empty", "connected", "reconnecting", "bot"
"""A seat's ``status``: nobody sits there; a person plays it over a live connection; its
connection dropped and the seat waits (the grace period); a computer plays it (a computer client,
or the host itself after a takeover)."""


def same_secret(given: str, secret: str) -> bool:
    """Timing-safe comparison of a password or seat token: both are hashed first (SHA-256), so
    neither the content nor the length of ``secret`` shows in how long a wrong guess takes."""
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest(),
                               hashlib.sha256(secret.encode("utf-8", "surrogatepass")).digest())


def seat_with_token(seats, token: str | None):
    """The seat of ``seats`` whose token is ``token`` (compared with :func:`same_secret`), or None."""
    if token:
        for s in seats:
            if s.token is not None and same_secret(token, s.token):
                return s
    return None


class Seat:
    """One seat: ``name`` (str, "" while empty), ``token`` (the seat token, or None while
    empty), ``peer`` (the connection playing it, or None), ``status`` (``"empty"``,
    ``"connected"``, ``"reconnecting"``, ``"bot"``), ``is_bot`` (a computer client joined it),
    ``takeover`` (the host itself plays it: the player's grace period ran out or they left)."""

    __slots__ = ("index", "name", "token", "peer", "status", "is_bot", "takeover", "grace_call", "reserved")

    def __init__(self, index: int, reserved: bool = False) -> None:
        self.index = index
        self.name = ""
        self.token: str | None = None
        self.peer = None
        self.status = EMPTY
        self.is_bot = False
        self.takeover = False
        self.grace_call = None
        self.reserved = reserved


def restore_seats(seats, saved, started: bool) -> list:
    """Give ``seats`` (:class:`Seat`, 0…n−1) back what a resumed table's journal saved of them,
    ``(name, token, is_bot, taken_over)`` per seat: a seat saved without a token, or kept for the
    host's own computer player, stays as it is; one the host played for a person who left or did
    not come back in time (``taken_over``, the match ``started``) is the host's again, free for
    anyone to take (docs/protocol.md ``leave``); every other waits for its token, ``reconnecting``.
    Returns those that wait (their grace period starts now)."""
    waiting = []
    for s, (name, token, is_bot, taken_over) in zip(seats, saved):
        if s.reserved or token is None:
            continue
        s.name, s.token, s.is_bot = name, token, is_bot
        if taken_over and started:
            s.status, s.takeover = BOT, True
        else:
            s.status = RECONNECTING
            waiting.append(s)
    return waiting


SEAT_EVENT_TEXT = {
    "en": {
        "seat_joined": "{name} joined the table (seat {seat})",
        "seat_joined_bot": "{name} (computer) joined the table (seat {seat})",
        "seat_lost": "{name} lost connection; the seat waits {grace} s",
        "seat_back": "{name} is back",
        "seat_left": "{name} left the table",
        "seat_left_takeover": "{name} left — a computer player takes the seat",
        "seat_takeover": "{name} did not come back in time — a computer player takes the seat",
        "seat_timeout": "{name}'s turn clock ran out ({seconds} s) — a computer player makes this move",
        "shuffle_left_out_no_hash": "{name} did not answer the shuffle in time; deal {deal} is shuffled without "
                                    "their nonce",
        "shuffle_left_out_no_nonce": "{name} sent no nonce in time; deal {deal} is shuffled without it",
        "shuffle_left_out_bad_nonce": "{name} sent a nonce that does not match its hash; deal {deal} is shuffled "
                                      "without it",
    },
    "ru": {
        "seat_joined": "За стол садится {name} (место {seat})",
        "seat_joined_bot": "За стол садится {name} (компьютер, место {seat})",
        "seat_lost": "Связь с {name} потеряна; место ждёт {grace} с",
        "seat_back": "{name} снова за столом",
        "seat_left": "{name} уходит из-за стола",
        "seat_left_takeover": "{name} уходит из-за стола — место занимает компьютер",
        "seat_takeover": "{name} не вернулся вовремя — место занимает компьютер",
        "seat_timeout": "{name}: время на ход вышло ({seconds} с) — этот ход делает компьютер",
        "shuffle_left_out_no_hash": "{name} не ответил на тасовку вовремя; сдача {deal} тасуется без его числа",
        "shuffle_left_out_no_nonce": "{name} не прислал своё число вовремя; сдача {deal} тасуется без него",
        "shuffle_left_out_bad_nonce": "Число от {name} не совпало с его хешем; сдача {deal} тасуется без него",
    },
}
"""Per language, the words of the host's seat events (docs/protocol.md "Seat events"); the key
is the event type, with ``_bot`` (a computer player joined) or ``_takeover`` (the host plays
the seat from now on) appended."""


def seat_event_text(event: dict, lang: str) -> str:
    """A seat event (``{"type": "seat_joined"|"seat_lost"|"seat_back"|"seat_left"|
    "seat_takeover"|"seat_timeout", "seat": int 0…n−1, "name": str, ...}``) in plain words in ``lang``
    (``"en"``, ``"ru"``; any other language gets English). Seats are counted from 0, as everywhere."""
    words = SEAT_EVENT_TEXT.get(lang, SEAT_EVENT_TEXT["en"])
    key = event["type"]
    if event.get("bot"):
        key += "_bot"
    if event.get("takeover"):
        key += "_takeover"
    if key == "shuffle_left_out":  # fair deals (docs/fairness.md): why the seat was left out
        key += "_" + str(event.get("reason"))
    grace, seconds = (_whole(event.get(k, 0)) for k in ("grace", "seconds"))
    # seats counted from 0 everywhere (issue #10 item 8)
    return words[key].format(name=event.get("name") or "?", seat=event["seat"], grace=grace, seconds=seconds,
                             deal=event.get("deal"))


def _whole(x):
    return int(x) if float(x).is_integer() else x


class SeatVersions:
    """Per seat 0…n−1 of ``players``: ``since`` — the state version at which its legal actions
    last changed — and ``actions``, those actions (``engine.legal_actions``). An ``act`` made
    against any version since then is still current for that seat: another seat looking at its
    cards, or choosing its cards to pass at the same time (K3), does not make it stale; one made
    before it, or sent twice, is (docs/protocol.md ``act``)."""

    def __init__(self, players: int) -> None:
        self.since = [0] * players
        self.actions: list = [None] * players
        self._of = None  # the state ``actions`` are of

    def track(self, state, actor: int | None, legal_actions) -> None:
        """After a change to ``state``: note, per seat, whether its legal actions
        (``legal_actions(state, seat)``) changed. ``actor`` — the seat whose action was just
        applied; None at a deal's start or a resume: every seat — always counts as changed, so a
        duplicate of its action is stale."""
        if state.phase == DEAL:  # engine.legal_actions is the game's own then: called directly
            legal_actions = state.rules.legal_actions
        for seat in range(len(self.since)):
            acts = legal_actions(state, seat)
            if seat == actor or actor is None or acts != self.actions[seat]:
                self.since[seat] = state.version
            self.actions[seat] = acts
        self._of = state

    def current(self, seat: int, version, state) -> bool:
        """True if an action of ``seat`` made against ``version`` is current in ``state``."""
        return isinstance(version, int) and not isinstance(version, bool) and self.since[seat] <= version <= state.version

    def legal_now(self, state) -> list | None:
        """Per seat, its legal actions in ``state`` as :meth:`track` noted them, or None if
        ``state`` is not the state they were noted for."""
        return self.actions if self._of is state else None
