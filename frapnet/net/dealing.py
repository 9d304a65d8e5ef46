"""The host's side of a fair deal (docs/fairness.md, docs/protocol.md "Fair deals").

A :class:`ShuffleRound` runs one deal's exchange: it sends everyone ``shuffle_commit``, collects
``nonce_hash`` from the seats asked until all have answered or ``time_limit`` seconds have
passed, sends everyone ``shuffle_hashes``, collects the ``nonce`` of every seat that committed
(same limit), and then calls ``on_done(round)``: the deck is :meth:`ShuffleRound.deck`. After the
deal, :meth:`ShuffleRound.reveal_message` is the ``shuffle_reveal`` everyone gets. A seat that
does not answer in time, or whose nonce does not match its hash, is left out and
``on_left_out(seat, reason)`` is called (the table tells everyone). No sockets here: messages go
out through ``send_all``; time through ``clock`` (``callLater``).
"""
from __future__ import annotations

import secrets
from typing import Any, Callable, Sequence

from frapnet import fairness
from frapnet.net.protocol import ProtocolError
from frapnet.net.seats import EMPTY, RECONNECTING

HASHES, NONCES, DONE = "hashes", "nonces", "done"
LEFT_OUT_REASONS = ("no_hash", "no_nonce", "bad_nonce")
"""Why a seat is left out: no hash in time, no nonce in time, a nonce not matching its hash."""


def secrets_for(deal: int, seed: Any = None) -> tuple[bytes, bytes]:
    """The host's ``(seed, salt)`` for deal number ``deal`` (from 1): fresh random bytes, or with a
    table seed (``frapnet host --seed``) derived from it (:func:`frapnet.fairness.seeded_secret`)."""
    if seed is None:
        return secrets.token_bytes(fairness.SEED_BYTES), secrets.token_bytes(fairness.SALT_BYTES)
    return fairness.seeded_secret("seed", seed, deal), fairness.seeded_secret("salt", seed, deal)


class ShuffleRound:
    """One deal's commit–reveal exchange.

    ``deal``: the deal number being shuffled (1 for the first); ``players``: n seats;
    ``asked``: the seats (0…n−1) to ask for a nonce — those with a live connection;
    ``seed``/``salt``: the host's 32-byte secrets; ``clock``: ``callLater(seconds, f)``;
    ``time_limit``: seconds allowed for each of the two answers (hash, then nonce); callbacks
    ``send_all(msg)`` (every seat and spectator), ``on_left_out(seat, reason)`` and
    ``on_done(round)``. Attributes: ``stage`` (``"hashes"``, ``"nonces"``, ``"done"``),
    ``hashes`` and ``nonces`` (per seat, bytes or None), ``left_out`` (seat → reason).
    """

    def __init__(self, deal: int, players: int, asked: Sequence[int], seed: bytes, salt: bytes, *, clock,
                 time_limit: float, send_all: Callable[[dict], Any], on_done: Callable[["ShuffleRound"], Any],
                 on_left_out: Callable[[int, str], Any] = lambda seat, reason: None) -> None:
        self.deal, self.players, self.asked = deal, players, sorted(set(asked))
        self.seed, self.salt = seed, salt
        self.commitment = fairness.commitment(seed, salt)
        self.clock, self.time_limit = clock, time_limit
        self.send_all, self.on_done, self.on_left_out = send_all, on_done, on_left_out
        self.hashes: list[bytes | None] = [None] * players
        self.nonces: list[bytes | None] = [None] * players
        self.left_out: dict[int, str] = {}
        self.stage = HASHES
        self._timer = None
        self._proof: tuple | None = None  # (nonces, hashes, the proof they give) once the stage is done

    # --- messages ------------------------------------------------------------------------------
    def commit_message(self) -> dict:
        """``shuffle_commit``: the commitment, who is asked, and the time limit (seconds)."""
        return {"type": "shuffle_commit", "deal": self.deal, "scheme": fairness.SCHEME,
                "commitment": fairness.to_hex(self.commitment), "seats": list(self.asked),
                "time": self.time_limit}

    def hashes_message(self) -> dict:
        """``shuffle_hashes``: every seat's committed nonce hash (None: left out)."""
        return {"type": "shuffle_hashes", "deal": self.deal,
                "hashes": [None if h is None else fairness.to_hex(h) for h in self.hashes],
                "left_out": sorted(self.left_out)}

    def proof(self) -> dict:
        """The deal's proof as the record keeps it (docs/records.md ``shuffle``). Once the
        exchange is over (``stage`` ``"done"``: seed, salt, nonces and hashes are final) it is
        made once and the same map given again (to the journal at the deal's start and in
        ``shuffle_reveal`` at its end: never changed in place), so the deal's last act — whose
        views the players wait for — does not hash it again."""
        if self.stage != DONE:
            return fairness.make_proof(self.seed, self.salt, self.nonces, self.hashes)
        made = self._proof
        if made is None or made[0] is not self.nonces or made[1] is not self.hashes:
            made = self._proof = (self.nonces, self.hashes, fairness.make_proof(self.seed, self.salt, self.nonces,
                                                                                self.hashes))
        return made[2]

    def reveal_message(self) -> dict:
        """``shuffle_reveal``: sent to everyone once the deal is over — never before."""
        return {"type": "shuffle_reveal", "deal": self.deal, "proof": self.proof()}

    def deck(self, pack: Sequence[str]) -> list[str]:
        """The deck the seed and the nonces give (valid once ``stage`` is ``"done"``)."""
        return fairness.shuffle(pack, self.seed, self.nonces)

    def catch_up(self) -> list[dict]:
        """What a connection that arrives mid-round (or mid-deal) needs to follow the deal."""
        return [self.commit_message()] + ([self.hashes_message()] if self.stage != HASHES else [])

    # --- the exchange ---------------------------------------------------------------------------
    def start(self) -> None:
        """Send the commitment; with nobody to ask (or no time allowed), finish at once."""
        self.send_all(self.commit_message())
        if not self.asked or self.time_limit <= 0:
            for seat in self.asked:
                self._leave_out(seat, "no_hash")
            self._finish()
            return
        self._timer = self.clock.callLater(self.time_limit, self._hashes_over)

    def got_hash(self, seat: int, deal: Any, text: Any) -> None:
        """A seat's ``nonce_hash``. Raises ProtocolError ``late`` (not asked, already answered,
        another deal, or after the time limit) or ``bad_message`` (not 64 hex digits)."""
        self._expect(seat, deal, HASHES, self.hashes, "nonce_hash")
        try:
            self.hashes[seat] = fairness.from_hex(text, fairness.HASH_BYTES, "nonce_hash: hash")
        except fairness.FairnessError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        if all(self.hashes[s] is not None for s in self.asked):
            self._hashes_over()

    def got_nonce(self, seat: int, deal: Any, text: Any) -> None:
        """A seat's ``nonce``. Raises ProtocolError ``late`` or ``bad_message`` as
        :meth:`got_hash`, or ``bad_nonce`` (it does not match the seat's hash: the seat is left
        out and everyone is told)."""
        self._expect(seat, deal, NONCES, self.nonces, "nonce")
        if self.hashes[seat] is None:
            raise ProtocolError("late", f"nonce: seat {seat} sent no hash in time for deal {self.deal}; "
                                        f"it is left out of this shuffle")
        try:
            nonce = fairness.from_hex(text, fairness.NONCE_BYTES, "nonce: nonce")
        except fairness.FairnessError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        if fairness.nonce_hash(nonce) != self.hashes[seat]:
            self._leave_out(seat, "bad_nonce")
            self._maybe_nonces_over()
            raise ProtocolError("bad_nonce", f"nonce: SHA-256 of your nonce is not the hash you sent for deal "
                                             f"{self.deal}; your seat is left out of this shuffle")
        self.nonces[seat] = nonce
        self._maybe_nonces_over()

    def cancel(self) -> None:
        """Stop the timers (the table is closing)."""
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None

    def _expect(self, seat: int, deal: Any, stage: str, got: list, kind: str) -> None:
        if deal != self.deal or isinstance(deal, bool):
            raise ProtocolError("late", f"{kind}: deal {deal!r} is not being shuffled (deal {self.deal} is)")
        if seat not in self.asked:
            raise ProtocolError("late", f"{kind}: seat {seat} was not asked for deal {self.deal}")
        if self.stage != stage or got[seat] is not None or seat in self.left_out:
            raise ProtocolError("late", f"{kind}: not expected now for deal {self.deal} "
                                        f"(too late, or already sent)")

    def _leave_out(self, seat: int, reason: str) -> None:
        if seat not in self.left_out:
            self.left_out[seat] = reason
            self.on_left_out(seat, reason)

    def _hashes_over(self) -> None:
        if self.stage != HASHES:
            return
        self.cancel()
        for seat in self.asked:
            if self.hashes[seat] is None:
                self._leave_out(seat, "no_hash")
        self.stage = NONCES
        self.send_all(self.hashes_message())
        if not self._maybe_nonces_over():
            self._timer = self.clock.callLater(self.time_limit, self._nonces_over)

    def _maybe_nonces_over(self) -> bool:
        if self.stage == NONCES and all(self.nonces[s] is not None or s in self.left_out for s in self.asked):
            self._nonces_over()
            return True
        return False

    def _nonces_over(self) -> None:
        if self.stage != NONCES:
            return
        for seat in self.asked:
            if self.nonces[seat] is None:
                self._leave_out(seat, "no_nonce")
        self._finish()

    def _finish(self) -> None:
        self.cancel()
        self.stage = DONE
        self.on_done(self)


class FairDealing:
    """A table's fair deals (owned by :class:`frapnet.net.table.Table` as ``table.dealing``).

    :meth:`start` runs a :class:`ShuffleRound` for the next deal and calls ``deal(deck, dealer
    proof)`` back — ``table._deal_ready(deck, proof)`` — when the deck is known; :meth:`over`
    sends the reveal once the deal has ended; :meth:`answer` takes a seat's ``nonce_hash`` or
    ``nonce``; :meth:`catch_up` brings a connection that joins mid-round or mid-deal up to date.
    ``proofs``: per deal index, its proof (records.md ``shuffle``), shared with the journal.
    The host's seed and salt are :func:`secrets_for` the table's seed; without one they come from
    ``table.rng`` — :class:`random.SystemRandom` (the operating system's secure randomness)
    unless a test hands in another. After a restart (:meth:`resume`) the next shuffle waits until
    every seat is back (its player reconnected, its computer player rejoined, or its grace over) —
    at most the grace period — so the seats that would have been asked are asked.
    """

    def __init__(self, table, time_limit: float) -> None:
        self.table = table
        self.time_limit = time_limit
        self.round: ShuffleRound | None = None     # the round of the deal being shuffled or played
        self.revealed = True                       # the current round's reveal was sent
        self.proofs: list[dict | None] = []
        self._hold_until: float | None = None      # after a restart: shuffle once the seats are back
        self._held: Callable | None = None
        self._hold_call = None

    @property
    def busy(self) -> bool:
        """A shuffle is under way (the next deal waits for its nonces)."""
        return self.round is not None and self.round.stage != DONE

    def start(self, deal: Callable[[list, dict], Any]) -> None:
        """Shuffle deal number ``deal_no + 1`` with the seats that have a live connection."""
        t = self.table
        if self._hold_until is not None:
            wait = self._hold_until - t.clock.seconds()
            if wait > 0 and self._absent():
                self._held = deal
                if self._hold_call is None:
                    self._hold_call = t.clock.callLater(wait, self._release)
                return
            self._hold_until = None
        number = t.state.deal_no + 1
        if t.seed is not None:
            seed, salt = secrets_for(number, t.seed)
        else:
            seed, salt = t.rng.randbytes(fairness.SEED_BYTES), t.rng.randbytes(fairness.SALT_BYTES)
        # every seat with a live connection; with no time allowed (--nonce-time 0) nobody is asked
        asked = [s.index for s in t.seats if s.peer is not None] if self.time_limit > 0 else []

        def done(rnd: ShuffleRound) -> None:
            if t.finished or rnd is not self.round:
                return
            from frapnet import engine
            self.dealt(t.state.deal_no, rnd.proof())
            deal(rnd.deck(engine.pack(t.state)), rnd.proof())

        self.round = ShuffleRound(number, t.state.players, asked, seed, salt, clock=t.clock,
                                  time_limit=self.time_limit, send_all=t.fanout.send_all, on_done=done,
                                  on_left_out=self._left_out)
        self.revealed = False
        self.round.start()

    def dealt(self, deal_index: int, proof: dict) -> None:
        """The deal ``deal_index`` (0-based) was dealt with ``proof``: keep it for the journal."""
        while len(self.proofs) <= deal_index:
            self.proofs.append(None)
        self.proofs[deal_index] = proof

    def over(self) -> None:
        """The deal has ended (last card played, or thrown in): reveal seed, salt and nonces to
        everyone, unless :meth:`reveal` has given the message already."""
        msg = self.reveal()
        if msg is not None:
            self.table.fanout.send_all(msg)

    def reveal(self) -> dict | None:
        """The deal has ended: its ``shuffle_reveal`` message, for the caller to send to everyone
        after the deal's last events and views (the table sends it in the same write), or None if
        it has been given already or there is no finished shuffle to reveal."""
        if self.round is not None and self.round.stage == DONE and not self.revealed:
            self.revealed = True
            return self.round.reveal_message()
        return None

    def answer(self, peer, msg: dict) -> None:
        """A seat's ``nonce_hash`` or ``nonce`` (checked by protocol.check_client_message).
        Raises ProtocolError ``not_seated`` (a spectator), ``late``, ``bad_message``, ``bad_nonce``."""
        seat = getattr(peer, "seat", None)
        if seat is None:
            raise ProtocolError("not_seated", f"{msg['type']}: spectators do not take part in the shuffle")
        rnd = self.round
        if rnd is None or rnd.stage == DONE:
            raise ProtocolError("late", f"{msg['type']}: no shuffle is waiting for an answer now")
        if msg["type"] == "nonce_hash":
            rnd.got_hash(seat, msg["deal"], msg["hash"])
        else:
            rnd.got_nonce(seat, msg["deal"], msg["nonce"])

    def catch_up(self, peer) -> None:
        """Send a connection that joins now what it needs to follow the current shuffle or deal
        (``dealt`` true once the cards are out: it cannot answer or check that deal's start).
        A shuffle held after a restart starts once this was the last seat missing."""
        rnd = self.round
        if rnd is not None and not self.revealed:
            msgs = rnd.catch_up()
            if rnd.stage == DONE:
                msgs[0] = dict(msgs[0], dealt=True)
            for m in msgs:
                peer.send(m)
        self.seated()

    def seated(self) -> None:
        """A seat was taken or taken back: a shuffle held after a restart starts once none is
        missing."""
        if self._held is not None and not self._absent():
            self._release()

    def _absent(self) -> bool:
        return any(s.status in (EMPTY, RECONNECTING) for s in self.table.seats)

    def _release(self) -> None:
        if self._hold_call is not None and self._hold_call.active():
            self._hold_call.cancel()
        self._hold_call, self._hold_until = None, None
        deal, self._held = self._held, None
        if deal is not None and not self.table.finished and not self.busy:
            self.start(deal)

    def resume(self, rec: dict, state) -> None:
        """After a restart: take every deal's proof from the record; a deal in progress keeps
        its proof, to be revealed when it ends (a deal without one — a record from before
        fair deals — is never revealed)."""
        from frapnet import engine
        self.proofs = [d.get("shuffle") if isinstance(d, dict) else None for d in rec.get("deals", [])]
        self.table.journal.proofs = list(self.proofs)
        if state.deal_no > 0 and self.time_limit > 0:  # the next shuffle asks the seats once back
            self._hold_until = self.table.clock.seconds() + self.table.grace
        if state.deal_no > 0:  # a seeded table's rng: past the first dealer's draw (F7), as before the restart
            self.table.rng.randrange(state.players)
        proof = self.proofs[-1] if self.proofs else None
        if state.phase != engine.DEAL or not isinstance(proof, dict):
            return
        try:
            seed = fairness.from_hex(proof["seed"], fairness.SEED_BYTES, "seed")
            salt = fairness.from_hex(proof["salt"], fairness.SALT_BYTES, "salt")
            nonces = fairness.proof_nonces(proof, state.players)
            hashes = [None if h is None else fairness.from_hex(h, fairness.HASH_BYTES, "hash")
                      for h in proof.get("nonce_hashes") or [None] * state.players]
        except (fairness.FairnessError, KeyError, TypeError):
            return
        t = self.table
        rnd = ShuffleRound(state.deal_no, state.players, [], seed, salt, clock=t.clock, time_limit=0,
                           send_all=t.fanout.send_all, on_done=lambda r: None)
        rnd.nonces, rnd.hashes, rnd.stage = nonces, hashes, DONE
        self.round, self.revealed = rnd, False

    def cancel(self) -> None:
        """The table closes: stop waiting for answers."""
        if self.round is not None:
            self.round.cancel()
        self._held = None
        if self._hold_call is not None and self._hold_call.active():
            self._hold_call.cancel()

    def _left_out(self, seat: int, reason: str) -> None:
        t = self.table
        t.fanout.seat_event("shuffle_left_out", t.seats[seat], reason=reason, deal=self.round.deal
                            if self.round is not None else t.state.deal_no + 1)
