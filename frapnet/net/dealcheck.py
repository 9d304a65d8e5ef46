"""A client's side of a fair deal (docs/fairness.md): answer the host, then check its reveal.

:class:`DealChecker` is fed every message a client receives (no sockets, no reactor here;
:class:`frapnet.net.client.TableClient` owns one). For ``shuffle_commit`` and
``shuffle_hashes`` it returns the answer to send (``nonce_hash``, then ``nonce``). It notes
every card the client is shown during a deal — its own hand, turn-ups, cards played — and on
``shuffle_reveal`` it checks the host: SHA-256(seed ‖ salt) is the commitment it was sent; the
nonce hashes are the ones it was sent; its own nonce is there unchanged; the deck follows from
seed and nonces; and, dealing that deck with the local rules engine, every card it saw is where
the shuffle put it. The result is a :class:`Verdict`.
"""
from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from frapnet import fairness

OK, PARTIAL, MISMATCH, UNCHECKED = "ok", "partial", "mismatch", "unchecked"
INTERRUPTED = "interrupted"  # the host stopped mid-deal and resumes the match (issue #9)
DEPARTED = "departed"  # this connection left the deal, which goes on without it (closing's code)


@dataclass
class Verdict:
    """The check of one deal: ``deal`` (number, from 1), ``status`` — ``"ok"`` (everything
    checked), ``"partial"`` (commitment and nonces checked; the cards could not be, e.g. the
    game is not installed here), ``"mismatch"`` (the host did not deal what it committed to:
    ``problem`` says what), ``"unchecked"`` (the deal was not followed from its start) or
    ``"interrupted"`` (the host stopped before revealing it and its journal resumes the match:
    not a failure; it is checked if its reveal comes to this checker after the resume, issue #9)
    or ``"departed"`` (this connection left the deal before its reveal — it left the table, or
    another connection took its seat with its token — and the deal goes on without it: not
    checked here, not a failure) — and ``text``, one line for people."""
    deal: int
    status: str
    text: str
    problem: str | None = None

    @property
    def bad(self) -> bool:
        return self.status == MISMATCH


@dataclass
class _Deal:
    commitment: str
    seats: list
    on_time: bool                     # the commitment came before the deal was dealt
    hashes: list | None = None
    left_out: list = field(default_factory=list)
    my_nonce: bytes | None = None
    dealer: int | None = None
    first_hand: list | None = None
    first_turn_up: str | None = None
    seen_view: bool = False
    held: set = field(default_factory=set)
    turn_ups: set = field(default_factory=set)
    played: set = field(default_factory=set)  # (seat, card)


class DealChecker:
    """Follows the deals of one table for one client (seat or spectator).

    ``nonce_source(deal) -> bytes`` gives this client's 32-byte nonce for a deal (default: fresh
    random bytes from :mod:`secrets`; a seeded computer player passes a reproducible one).
    ``registry``: the plugin registry used to deal the revealed deck (default:
    :func:`frapnet.plugins.default_registry`). ``on_verdict(verdict)``: called with every
    Verdict as it is reached — after a reveal, or when a dealt deal's reveal never came.
    Attributes: ``verdicts`` (every Verdict so far, oldest first), ``seat`` (set by
    :meth:`welcome`).
    """

    def __init__(self, nonce_source: Callable[[int], bytes] | None = None, registry=None,
                 on_verdict: Callable[[Verdict], Any] | None = None) -> None:
        self.nonce_source = nonce_source or (lambda deal: secrets.token_bytes(fairness.NONCE_BYTES))
        self.registry = registry
        self.on_verdict = on_verdict
        self.seat: int | None = None
        self.table: dict = {}
        self.deals: dict[int, _Deal] = {}
        self.verdicts: list[Verdict] = []
        self._current = 0

    # --- feeding ------------------------------------------------------------------------------
    def welcome(self, msg: dict) -> None:
        """The host's ``welcome``: our seat and the table's game, options and house rules."""
        self.seat = msg.get("seat")
        self.table = {"game": msg.get("game"), "options": msg.get("options") or {},
                      "house_rules": msg.get("house_rules") or [],
                      "players": len(msg.get("players") or []) or None,
                      "verbs": (msg.get("rules") or {}).get("verbs") or []}

    def commit(self, msg: dict) -> dict | None:
        """``shuffle_commit``: note the commitment; return our ``nonce_hash`` if we are asked."""
        deal = msg.get("deal")
        if not isinstance(deal, int) or not isinstance(msg.get("commitment"), str):
            return None
        for d in sorted(self.deals):
            if d < deal:
                self._unrevealed(d)
        known = self.deals.get(deal)
        if known is None or known.commitment != msg["commitment"]:
            if known is not None:  # the host changed its commitment for a deal: loud
                self._verdict(deal, MISMATCH, "the host sent two different commitments for this deal")
            known = _Deal(msg["commitment"], list(msg.get("seats") or []), on_time=not msg.get("dealt"))
            self.deals[deal] = known
        self._current = deal  # the deal events belong to (a rematch counts its deals from 1 again)
        if self.seat is None or self.seat not in known.seats or known.my_nonce is not None or msg.get("dealt"):
            return None
        known.my_nonce = self.nonce_source(deal)
        return {"type": "nonce_hash", "deal": deal, "hash": fairness.to_hex(fairness.nonce_hash(known.my_nonce))}

    def hashes(self, msg: dict) -> dict | None:
        """``shuffle_hashes``: note the list; return our ``nonce`` if our hash is in it as sent."""
        d = self.deals.get(msg.get("deal"))
        if d is None or not isinstance(msg.get("hashes"), list):
            return None
        d.hashes = list(msg["hashes"])
        d.left_out = list(msg.get("left_out") or [])
        if d.my_nonce is None or self.seat is None or self.seat >= len(d.hashes):
            return None
        if d.hashes[self.seat] != fairness.to_hex(fairness.nonce_hash(d.my_nonce)):
            return None  # our hash is not there (late, or the host changed it): do not reveal
        return {"type": "nonce", "deal": msg["deal"], "nonce": fairness.to_hex(d.my_nonce)}

    def view(self, view: dict) -> None:
        """A ``view``: note the cards it shows for its deal."""
        d = self.deals.get(view.get("deal_no"))
        if d is None:
            return
        first = not d.seen_view
        if first:
            d.seen_view = True
            d.dealer = view.get("dealer")
            if d.on_time and not view.get("dead_turn_ups"):
                d.first_turn_up = view.get("turn_up")
        hand = view.get("hand")
        if isinstance(hand, list):
            if d.first_hand is None and d.on_time and self._as_dealt(view, first):
                d.first_hand = list(hand)
            d.held.update(c for c in hand if isinstance(c, str))
        for c in view.get("discards") or ():
            if isinstance(c, str):
                d.held.add(c)
        if isinstance(view.get("turn_up"), str):
            d.turn_ups.add(view["turn_up"])
        for c in view.get("dead_turn_ups") or ():
            if isinstance(c, str):
                d.turn_ups.add(c)
        for key in ("trick", "last_trick"):
            for item in view.get(key) or ():
                if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[1], str):
                    d.played.add((item[0], item[1]))

    def _as_dealt(self, view: dict, first: bool) -> bool:
        """Does ``view`` show our hand as it was dealt? Yes in the deal's first view; in a game
        whose views list ``seats`` (Frap: the hand shows once looked at, F9), also while our
        seat has declared nothing and discarded nothing (a cut-in, F17, replaces the hand)."""
        mine = [x for x in view.get("seats") or () if isinstance(x, dict) and x.get("seat") == self.seat]
        if mine:
            return mine[0].get("declaration") is None and not view.get("discards")
        return first

    def event(self, event: dict) -> None:
        """An ``event``: note a card played (``{"type": "play", "seat", "card"}``)."""
        d = self.deals.get(self._current)
        if d is not None and event.get("type") == "play" and isinstance(event.get("card"), str):
            d.played.add((event.get("seat"), event["card"]))

    def closing(self, resumable: bool = False, code: str | None = None) -> list[Verdict]:
        """The host is closing: a dealt deal that was never revealed is flagged — unless the
        host says it is ``resumable`` (``closing``'s ``resumable``, issue #9): then the deal was
        interrupted, is kept, and is checked when its reveal comes after the resume; or unless
        this connection is leaving a deal that goes on without it (``closing``'s ``code``
        ``"replaced"``: another connection took the seat with its token, and is shown the reveal;
        ``"left"``: we left the table): then it is "departed", not checked here."""
        if resumable:
            return [self._verdict(d, INTERRUPTED, None) for d in sorted(self.deals) if self.deals[d].seen_view]
        if code in ("replaced", "left"):
            gone = [d for d in sorted(self.deals) if self.deals[d].seen_view]
            for d in gone:
                del self.deals[d]
            return [self._verdict(d, DEPARTED, None) for d in gone]
        return [v for d in sorted(self.deals) for v in self._unrevealed(d)]

    # --- the check ----------------------------------------------------------------------------
    def reveal(self, msg: dict) -> Verdict | None:
        """``shuffle_reveal``: check the deal; return its Verdict (None for a deal never committed
        to us and never seen)."""
        deal = msg.get("deal")
        d = self.deals.pop(deal, None)
        if d is None:
            return None
        proof = msg.get("proof")
        problem, deck = self._check_proof(d, proof)
        if problem:
            return self._verdict(deal, MISMATCH, problem)
        if not d.seen_view:
            return self._verdict(deal, UNCHECKED, "no cards of it were seen")
        cards, why = self._check_cards(d, deck)
        if cards:
            return self._verdict(deal, MISMATCH, cards)
        if why:
            return self._verdict(deal, PARTIAL, why)
        return self._verdict(deal, OK, None, d)

    def _check_proof(self, d: _Deal, proof: Any) -> tuple[str | None, list | None]:
        n = self.table.get("players")
        if not isinstance(proof, dict) or not n:
            return "the reveal holds no proof", None
        if str(proof.get("commitment", "")).lower() != d.commitment.lower():
            return "the reveal's commitment is not the one sent before the deal", None
        if d.hashes is not None and [None if h is None else str(h).lower() for h in proof.get("nonce_hashes") or []] \
                != [None if h is None else str(h).lower() for h in d.hashes]:
            return "the nonce hashes revealed are not the ones sent before the deal", None
        if d.my_nonce is not None and self.seat not in d.left_out:
            nonces = proof.get("nonces")
            mine = nonces[self.seat] if isinstance(nonces, list) and self.seat < len(nonces) else None
            if mine is None or str(mine).lower() != fairness.to_hex(d.my_nonce):
                return "your own nonce is missing or changed in the reveal", None
        pack = self._pack()
        deck, problem = fairness.check_proof(proof, pack or ["?"] * 1, n)
        if problem:
            return problem, None
        return None, deck if pack else None

    def _check_cards(self, d: _Deal, deck: list | None) -> tuple[str | None, str | None]:
        """(a mismatch, or None; why the cards were not checked, or None)."""
        if deck is None:
            return None, f"cards not checked: the game {self.table.get('game')!r} is not installed here"
        try:
            hands, public_turn_up = self._deal(deck, d.dealer)
        except Exception as exc:  # a game this client cannot deal: say so, do not crash
            return None, f"cards not checked: {exc}"
        me = self.seat
        in_hands = Counter(c for h in hands for c in h)
        rest = set((Counter(deck) - in_hands).elements())
        if me is not None and d.first_hand is not None and sorted(d.first_hand) != sorted(hands[me]):
            extra = sorted(set(d.first_hand) - set(hands[me]))
            return (f"your hand held {' '.join(extra) or 'other cards'}, which the committed shuffle does not "
                    f"deal you (it deals you {' '.join(hands[me])})"), None
        if d.first_turn_up is not None and public_turn_up is not None and d.first_turn_up != public_turn_up:
            return f"the turn-up was {d.first_turn_up}; the committed shuffle turns up {public_turn_up}", None
        for c in sorted(d.turn_ups):
            if c not in rest:
                return f"{c} was shown as a turn-up, but the committed shuffle deals it to a hand", None
        moves = "pass_cards" in self.table.get("verbs", ())  # Frak You: cards pass between hands (K3)
        if me is not None and not moves:
            for c in sorted(d.held - set(hands[me]) - rest):
                return f"you held {c}, which the committed shuffle deals to another seat", None
        for seat, c in sorted(d.played, key=str):
            if not isinstance(seat, int) or not 0 <= seat < len(hands):
                continue
            if c not in deck or (not moves and c not in hands[seat] and c not in rest):
                return f"seat {seat} played {c}, which the committed shuffle deals to another seat", None
        return None, None

    # --- helpers -------------------------------------------------------------------------------
    def _state(self):
        from frapnet import engine
        from frapnet.plugins import default_registry
        if self.registry is None:
            self.registry = default_registry()
        t = self.table
        return engine.new_match(t["game"], t["players"], t["options"], tuple(t["house_rules"]), self.registry)

    def _pack(self) -> list | None:
        from frapnet import engine
        try:
            return engine.pack(self._state())
        except Exception:  # the game or a house rule is not installed here
            return None

    def _deal(self, deck: list, dealer: int | None) -> tuple[list, str | None]:
        """Deal ``deck`` with the local engine: every seat's hand and the public turn-up."""
        from frapnet import engine
        state, _ = engine.start_deal(self._state(), deck, dealer if dealer is not None else 0)
        hands = []
        for seat in range(state.players):
            st = state
            if ("look",) in engine.legal_actions(st, seat):  # Frap F9: a hand is shown once looked at
                st, _ = engine.apply(st, seat, ("look",))
            hands.append(list(engine.view(st, seat).get("hand") or []))
        return hands, engine.view(state, None).get("turn_up")

    def _unrevealed(self, deal: int) -> list[Verdict]:
        d = self.deals.get(deal)
        if d is None or not d.seen_view:
            return []
        del self.deals[deal]
        return [self._verdict(deal, MISMATCH, "the host never revealed its seed for this deal")]

    def _verdict(self, deal: int, status: str, problem: str | None, d: _Deal | None = None) -> Verdict:
        if status == OK:
            n = len(d.played)
            text = (f"✓ deal {deal} checked: the commitment opened, the nonces match, and every card you saw "
                    f"({'your hand, ' if d.first_hand else ''}turn-ups, {n} played) is where the shuffle put it")
        elif status == PARTIAL:
            text = f"✓ deal {deal}: the commitment and nonces check; {problem}"
        elif status == UNCHECKED:
            text = f"deal {deal} not checked: {problem}"
        elif status == DEPARTED:
            text = (f"deal {deal} not checked here: this connection left it before the host revealed its "
                    f"shuffle (the deal goes on without it)")
        elif status == INTERRUPTED:
            text = (f"deal {deal} was interrupted: the host stopped before revealing its shuffle; it is "
                    f"checked when the host reveals it after resuming (if it cannot be checked then, "
                    f"it is not checked)")
        else:
            text = f"⚠⚠ DEAL {deal} FAILED THE FAIRNESS CHECK: {problem} — the host did not deal the deck it committed to"
        v = Verdict(deal, status, text, problem if status == MISMATCH else None)
        self.verdicts.append(v)
        if self.on_verdict is not None:
            self.on_verdict(v)
        return v
