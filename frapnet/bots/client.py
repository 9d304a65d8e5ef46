"""A computer player as an ordinary network client (issue #3 item 6; GGZ's bots work this way).

:class:`Bot` wraps a :class:`frapnet.net.client.TableClient` (client-contract.md): whenever a
view says its seat is to act (``view["seat"] in view["to_act"]`` and ``view["actions"]``
non-empty) it chooses one of the listed actions and sends it, after an optional ``delay`` in seconds. The decision is made by a player from
:func:`frapnet.bots.make_player` (issue #8), which is shown every view of its seat (``observe``)
and asked ``choose(view)`` — so ``basic`` and ``expert`` remember the deal. It acts at most once per state version; an
action the host rejects (``illegal``: a rule ID) is re-decided among the remaining actions at most
``max_retries`` times for that version, after which the bot waits for the next view — it never
loops. A ``stale`` rejection needs nothing: the newer view is on its way. The bot stops when the
host sends ``closing`` (the match is over) or the connection closes for good.

Like every client it takes part in fair deals (docs/fairness.md): its TableClient sends a nonce
for every deal and checks the host's reveal; a deal that fails the check is logged as a warning
and counted in ``unfair``. With a ``seed`` its nonces are derived from it
(:func:`frapnet.fairness.seeded_secret`), so a seeded match replays identically.

:func:`start_bots` starts K bots in one process, for a host's ``--bots K``. `frapnet bot
HOST:PORT` runs one (frapnet/commands/bot.py). No module-level reactor import (stack-notes.md).
"""
from __future__ import annotations

import random
from typing import Any

from twisted.internet import defer, error
from twisted.logger import Logger

from frapnet import fairness
from frapnet.bots.players import DEFAULT_LEVEL, LEVELS, make_player
from frapnet.bots.strategy import NoAction
from frapnet.net.client import JoinError, TableClient

log = Logger(namespace="frapnet.bot")


class Bot:
    """One computer player at ``host``:``port``.

    Keyword arguments: ``name`` (shown at the table), ``level`` (:data:`frapnet.bots.LEVELS`:
    ``random``, ``basic``, ``expert``; default :data:`frapnet.bots.DEFAULT_LEVEL`), ``seed`` (the
    player's seed: the same views give the same choices; ``random`` keys each decision by the
    seat's own situation (see ``_rng``), so a match replays identically, reconnects and other
    seats' timing included; without a seed, unseeded), ``think`` / ``iterations`` (``expert``'s
    budget, see :func:`frapnet.bots.make_player`), ``delay`` (seconds before each move),
    ``password``, ``seat`` (ask for this seat), ``table`` (for a host with several tables),
    ``reconnect``, ``max_retries`` (re-decisions after rejected actions, per state version),
    ``reactor``.

    Attributes: ``client`` (the TableClient), ``moves`` (actions sent), ``rejected`` (actions the
    host refused), ``checked`` and ``unfair`` (deals whose shuffle checked, or failed; a deal interrupted by a host that resumes the match is neither, issue #9, as is one this connection departed from), ``result`` (the ``closing`` message's result dict, or None), ``done`` (a
    Deferred firing with ``result`` once the bot has stopped for good).
    Raises ValueError for an unknown level or a negative delay.
    """

    def __init__(self, host: str, port: int, name: str = "Bot", *, level: str = DEFAULT_LEVEL, seed: Any = None,
                 delay: float = 0.0, password: str | None = None, seat: int | None = None, table: str | None = None,
                 reconnect: bool = True, max_retries: int = 3, lang: str = "en", reactor=None,
                 think: float | None = None, iterations: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        if delay < 0:
            raise ValueError(f"delay must be 0 or more seconds, not {delay!r}")
        self.level = level
        self.seed = seed
        self.think = think
        self.iterations = iterations
        self.player = None  # made at the first view (it names the game, the seat count and the seat)
        self.delay = delay
        self.max_retries = max_retries
        self._sysrng = random.SystemRandom()
        nonces = None if seed is None else \
            (lambda deal: fairness.seeded_secret("nonce", seed, deal, self.client.seat or 0))
        self.client = TableClient(host, port, name, password=password, seat=seat, bot=True, table=table,
                                  reconnect=reconnect, lang=lang, reactor=reactor, nonce_source=nonces)
        self.reactor = self.client.reactor
        self.client.on_view = self._on_view
        self.client.on_error = self._on_error
        self.client.on_status = self._on_status
        self.client.on_closing = self._on_closing
        self.client.on_fairness = self._on_fairness
        self.client.on_rematch = self._on_rematch
        self.client.answers_rematch = False  # it follows a rematch; people answer the offer
        self.checked = 0
        self.unfair = 0
        self.moves = 0
        self.rejected = 0
        self.result: dict | None = None
        self.done: defer.Deferred = defer.Deferred()
        self._acted_version = -1
        self._sent: tuple[int, list] | None = None   # (version, action) of the last action sent
        self._refused: dict[int, list] = {}          # version -> actions refused at that version
        self._pending = None                          # the delayed move (IDelayedCall)

    # --- public ------------------------------------------------------------------------------
    def connect(self) -> defer.Deferred:
        """Join the table; the Deferred fires with the welcome (or fails with JoinError)."""
        return self.client.connect()

    def stop(self) -> None:
        """Stop playing and close the connection (the seat waits for its grace period)."""
        self._cancel_pending()
        self.client.close()
        self._finish()

    @property
    def seat(self) -> int | None:
        return self.client.seat

    # --- deciding ----------------------------------------------------------------------------
    def _rng(self, view: dict) -> random.Random:
        """The decision's random source: keyed by what this seat sees of its own situation
        (deal, phase, round, hand, legal actions, refusals so far), not by the state version,
        so simultaneous moves of other seats (Frak You's passing) arriving in another order do
        not change this seat's choices."""
        if self.seed is None:
            return self._sysrng
        key = (self.seed, view.get("seat"), view.get("deal_no"), view.get("phase"), view.get("round"),
               view.get("hand"), [a.get("action") for a in view.get("actions") or ()],
               len(self._refused.get(view.get("version"), ())))
        return random.Random(repr(key))

    @staticmethod
    def _my_turn(view: dict | None) -> bool:
        return bool(view) and view.get("seat") is not None and view.get("seat") in (view.get("to_act") or ()) \
            and bool(view.get("actions"))

    def _player_for(self, view: dict):
        seat, players = view.get("seat"), view.get("players")
        p = self.player
        if p is None or p.seat != seat or p.game != view.get("game") or p.players != players:
            if not isinstance(seat, int) or not isinstance(players, int):
                return None
            p = self.player = make_player(self.level, game=view.get("game"), players=players, seat=seat,
                                          seed=self.seed, think=self.think, iterations=self.iterations)
        return p

    def _on_view(self, view: dict) -> None:
        try:
            p = self._player_for(view)
            if p is not None:
                p.observe(view)
        except Exception:  # noqa: BLE001 - a bad view must not stop the bot
            log.failure("computer player could not take in a view")
        if not self._my_turn(view) or view.get("version", -1) <= self._acted_version:
            return
        self._schedule()

    def _schedule(self) -> None:
        if self._pending is not None:
            return
        if self.delay:
            self._pending = self.reactor.callLater(self.delay, self._move)
        else:
            self._move()

    def _move(self) -> None:
        self._pending = None
        view = self.client.view
        if self.done.called or not self._my_turn(view):
            return
        version = view["version"]
        if version <= self._acted_version and version not in self._refused:
            return
        refused = self._refused.get(version, [])
        if len(refused) > self.max_retries:
            return  # gave up on this version: wait for the next view
        if refused:
            view = dict(view, actions=[a for a in view["actions"] if a.get("action") not in refused])
        try:
            player = self._player_for(view)
            if self.level == "random" or player is None:
                action = self._rng(view).choice([a["action"] for a in view["actions"]])
            else:
                action = player.choose(view)
        except NoAction:
            return
        except Exception:  # noqa: BLE001 - a strategy bug must not stall the table
            log.failure("bot strategy failed; choosing at random")
            action = self._rng(view).choice(view["actions"])["action"]
        self._acted_version = version
        self._sent = (version, list(action))
        self.moves += 1
        self.client.act(action)

    def _on_error(self, err: dict) -> None:
        code = err.get("code")
        view = self.client.view
        if code in ("illegal", "bad_message") and self._sent is not None and view is not None \
                and view.get("version") == self._sent[0]:
            self.rejected += 1
            (version, action), self._sent = self._sent, None
            refused = self._refused.setdefault(version, [])
            refused.append(action)
            for old in [v for v in self._refused if v < version]:
                del self._refused[old]
            log.warn("seat {seat}: action {action} refused ({code} {rule}: {msg}); deciding again",
                     seat=self.client.seat, action=action, code=code, rule=err.get("rule"), msg=err.get("message"))
            self._schedule()
        elif code == "stale":
            self._sent = None  # another seat moved first; the newer view brings a new decision
        elif self.client.seat is not None:  # before a seat, a refusal is connect()'s JoinError (said once)
            log.info("seat {seat}: host says {code}: {msg}", seat=self.client.seat, code=code, msg=err.get("message"))

    def _on_fairness(self, verdict) -> None:
        if verdict.bad:
            self.unfair += 1
            log.warn("seat {seat}: {text}", seat=self.client.seat, text=verdict.text)
        elif verdict.status in ("interrupted", "departed"):  # the host stopped mid-deal and resumes (issue #9),
            # or the deal goes on without this connection (closing's code): neither checked nor failed
            log.info("seat {seat}: {text}", seat=self.client.seat, text=verdict.text)
        else:
            self.checked += 1

    def _on_rematch(self, msg: dict) -> None:
        """A rematch with the same seats begins (docs/protocol.md "Rematch"; a computer player
        never needs to answer the offer): the new match counts its state versions and deals
        from the start again, so the bot forgets what it acted on and what it remembered."""
        if msg.get("type") == "rematch_start":
            self._cancel_pending()
            self._acted_version, self._sent, self._refused, self.player = -1, None, {}, None

    def _on_closing(self, msg: dict) -> None:
        self.result = msg.get("result")
        log.info("seat {seat}: the host closed the table ({reason})", seat=self.client.seat, reason=msg.get("reason"))
        self._cancel_pending()
        self.client.close()

    def _on_status(self, status: str) -> None:
        if status == "reconnecting":
            self._cancel_pending()
        elif status == "connected" and self._acted_version >= 0:
            # back after a drop: the full sync's view may be the version we acted on if our action
            # was lost on the way; acting again is safe (the host refuses a duplicate as stale)
            self._acted_version = -1
        elif status == "closed":
            self._finish()

    def _cancel_pending(self) -> None:
        if self._pending is not None and self._pending.active():
            self._pending.cancel()
        self._pending = None

    def _finish(self) -> None:
        if not self.done.called:
            self._cancel_pending()
            self.done.callback(self.result)


def start_bots(reactor, host: str, port: int, k: int, level: str = DEFAULT_LEVEL, seed: Any = None, *,
               seats: list[int] | None = None, delay: float = 0.0, password: str | None = None,
               table: str | None = None, names: list[str] | None = None, think: float | None = None,
               iterations: int | None = None) -> list[Bot]:
    """Start ``k`` bots at ``host``:``port`` on ``reactor`` (a host's ``--bots K``); return them.

    ``seats``: the seats they ask for (default: any free seat each); ``names`` default to
    ``"Bot {seat}"`` (seats counted from 0; without ``seats``, ``"Bot {i + 1}"``). Each bot's ``seed`` is ``seed`` itself (decisions
    are keyed by seat and version, see :class:`Bot`). Connection failures are logged; each bot's
    ``done`` fires when it stops. Raises ValueError if ``seats`` or ``names`` is not ``k`` long.
    """
    if seats is not None and len(seats) != k:
        raise ValueError(f"start_bots: {k} bots but {len(seats)} seats given")
    if names is not None and len(names) != k:
        raise ValueError(f"start_bots: {k} bots but {len(names)} names given")
    bots = []
    for i in range(k):
        seat = seats[i] if seats is not None else None
        # a host's computer player is named after its seat, counted from 0 as everywhere (issue #10
        # item 8); one without a seat is numbered from 1
        name = names[i] if names is not None else (f"Bot {seat}" if seat is not None else f"Bot {i + 1}")
        bot = Bot(host, port, name, level=level, seed=seed, delay=delay, password=password, seat=seat,
                  table=table, reactor=reactor, think=think, iterations=iterations)
        bot.connect().addErrback(_not_joined, name)
        bots.append(bot)
    return bots


def _not_joined(f, name: str) -> None:
    """A host's computer player did not get its seat: said in one line when the connection failed
    or was refused (the host stopping meanwhile — a resumed match that had already reached
    ``--deals`` ends at once — or a refusal, JoinError); a traceback only for a bug."""
    if f.check(error.ConnectError, error.ConnectionDone, error.ConnectionLost, JoinError):
        log.info("computer player {name} did not join: {why}", name=name, why=f.getErrorMessage())
    else:
        log.failure("computer player {name} could not join", f, name=name)
