"""Napoleon (Клад Наполеона), a frapnet game plugin through the same hooks as Frap.

Implements rules N1–N9 of the rule book (docs/rules/napoleon.md; ../shared/spec/rules-napoleon.md):
2–6 players, 36 cards, five each; an auction where the dealer speaks first and alone may say
``here`` (здесь); the declarer buys one card (or stands pat), leads, and the suit of that first
lead is trump; play stops as soon as the contract is made or out of reach; payments of
stake × tricks bid, and the treasure (клад, ``state.pot``) won or doubled by a bid "for Napoleon".

Every check names its rule ID. Shapes: seats are 0…n−1 clockwise; amounts are whole chips;
cards are canonical strings (``"10H"``). The ledger is "chips": ``sum(balances) + pot == 0``
at every moment (N2, as F6). Pure: no I/O, no Twisted, no clock.

This module is the entry point (``frapnet_napoleon.plugin``) and the rules: the spec, dealing,
legal actions, applying an action and trick-winning (N1–N7). It registers every hook of the game;
the others live by concern: :mod:`frapnet_napoleon.base` (phases, sizes, bid ranks),
:mod:`frapnet_napoleon.scoring` (settlement N8, reports, statistics), :mod:`frapnet_napoleon.view`
(views, labels, log lines, the screen) and :mod:`frapnet_napoleon.bots` (sampler, policy).
"""
from __future__ import annotations

from frapnet.cards import SUIT_SYMBOLS, card_key, format_card, pack as make_pack, rank_value
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, ARG_INT, GameSpec, OptionSpec
from frapnet.errors import RuleError
from frapnet.hookspecs import hookimpl

from frapnet_napoleon import __version__  # noqa: F401  (shown by `frapnet plugins`)
from frapnet.engine.state import DealBase
from frapnet_napoleon.base import (AUCTION, BUY, DONE, HAND, NAPOLEON, PACK_SIZE, PHASE_RULE, PLAY,  # noqa: F401 (re-exported)
                                   _PHASE_EN, bid_value, tricks_needed)
from frapnet_napoleon.bots import frapnet_policy, frapnet_sample_deal, frapnet_search_factor  # noqa: F401  (computer players, issue #8)
from frapnet_napoleon.scoring import (frapnet_deal_report, frapnet_deal_stats, frapnet_match_report,  # noqa: F401 (settlement, N8)
                                      frapnet_settle)
from frapnet_napoleon.view import (frapnet_action_label, frapnet_describe_event, frapnet_seat_view_ui,  # noqa: F401 (views)
                                   frapnet_view, frapnet_view_ui)

PLUGIN_NAME = "napoleon"
FRAPNET_API = 1

VERBS = {"bid": ARG_INT, "napoleon": None, "here": None, "pass": None, "buy": ARG_CARDS, "play": ARG_CARD}

OPTIONS = (
    OptionSpec("stake", 10, "int", "N2", "chips each player pays into the treasure at the start of every deal; "
               "a contract of b tricks is worth stake × b from each other player",
               check=lambda v: v > 0, check_doc="a positive whole number of chips"),
)

SPEC = GameSpec(
    name="napoleon", title="Napoleon", min_players=2, max_players=6, players_rule="N1", options=OPTIONS,
    verbs=VERBS, dealer_rule="N9", match_rule=None, ledger="chips",
    summary="Five cards, bid the tricks you will take; the treasure grows until someone wins it "
            "by taking all five \"for Napoleon\".",
)


class NapoleonDeal(DealBase):
    """The state of one Napoleon deal (mutable; the engine clones it before each action).

    - ``n`` seats, ``dealer``; ``deck`` the whole pack as dealt (tuple, top first);
      ``hands[s]`` seat s's cards; the talon is ``deck[talon_pos:]``, top first (N3).
    - Auction (N4): ``active[s]`` (still in the auction), ``calls[s]`` (the seat's last call:
      None, 1…5, ``"napoleon"``, ``"here"`` or ``"pass"``), ``top`` (rank 0 = no bid yet, 1…5,
      6 = napoleon), ``holder`` (seat holding the top bid, or None).
    - ``declarer`` and ``bid`` (rank) once the auction has ended; ``discard`` the declarer's
      discarded card (N5; hidden from every other seat), ``bought`` True once ``buy`` is done.
    - Play (N6): ``trump`` (suit letter of the first lead, None before it), ``trick`` (list of
      ``(seat, card)``), ``leader``, ``tricks`` per seat, ``played`` (tricks complete),
      ``last_trick``/``last_winner``; ``played_cards`` (every card played, in order) and
      ``voids[s]`` (suit letters seat s has shown it lacks), public memory for computer players.
    - End: ``outcome`` (None while unfinished, ``"played"`` or ``"thrown_in"``), ``made``
      (bool or None), ``payments`` (per seat, chips moved at settlement), ``to_treasure``.
    """

    __slots__ = ("n", "dealer", "deck", "talon_pos", "hands", "phase", "turn", "active", "calls", "top",
                 "holder", "declarer", "bid", "discard", "bought", "trump", "trick", "leader", "tricks",
                 "played", "last_trick", "last_winner", "outcome", "made", "payments", "to_treasure",
                 "played_cards", "voids")

    def clone(self) -> "NapoleonDeal":
        """A copy sharing nothing mutable (tuples and strings are shared)."""
        new = NapoleonDeal.__new__(NapoleonDeal)
        new.n = self.n
        new.dealer = self.dealer
        new.deck = self.deck
        new.talon_pos = self.talon_pos
        new.hands = [h[:] for h in self.hands]
        new.phase = self.phase
        new.turn = self.turn
        new.active = self.active[:]
        new.calls = self.calls[:]
        new.top = self.top
        new.holder = self.holder
        new.declarer = self.declarer
        new.bid = self.bid
        new.discard = self.discard
        new.bought = self.bought
        new.trump = self.trump
        new.trick = self.trick[:]
        new.leader = self.leader
        new.tricks = self.tricks[:]
        new.played = self.played
        new.last_trick = self.last_trick
        new.last_winner = self.last_winner
        new.outcome = self.outcome
        new.made = self.made
        new.payments = self.payments
        new.to_treasure = self.to_treasure
        new.played_cards = self.played_cards[:]
        new.voids = self.voids[:]
        return new


    @property
    def talon(self) -> int:
        """Cards left in the talon."""
        return len(self.deck) - self.talon_pos


# --- registration, options, pack (N1, N2) -----------------------------------------------------

@hookimpl
def frapnet_register_games(register):
    register(SPEC)


@hookimpl
def frapnet_validate_options(spec, players, options):
    """N1/N2: the per-option checks (OptionSpec) are all there is; the options are used as given."""
    return options


@hookimpl
def frapnet_pack(state):
    """N1: 36 cards, 6 to ace in each suit."""
    return make_pack(PACK_SIZE)


# --- dealing (N2, N3) ---------------------------------------------------------------------------

@hookimpl
def frapnet_deal(state, deck, dealer):
    """N2: every player pays one stake into the treasure; N3: five cards each, one at a time,
    clockwise from the dealer's left (``deck[k]``, k < 5n, to seat (dealer + 1 + k) mod n); the
    rest is the talon. N4: the dealer speaks first."""
    n = state.players
    stake = state.options["stake"]
    b = state.balances
    for i in range(n):  # N2
        b[i] -= stake
    state.pot += stake * n
    d = NapoleonDeal.__new__(NapoleonDeal)
    d.n = n
    d.dealer = dealer
    d.deck = tuple(deck)
    hands = [[] for _ in range(n)]
    for k in range(HAND * n):  # N3
        hands[(dealer + 1 + k) % n].append(deck[k])
    d.hands = hands
    d.talon_pos = HAND * n
    d.phase = AUCTION
    d.turn = dealer  # N4: the dealer speaks first
    d.active = [True] * n
    d.calls = [None] * n
    d.top = 0
    d.holder = None
    d.declarer = None
    d.bid = None
    d.discard = None
    d.bought = False
    d.trump = None
    d.trick = []
    d.leader = None
    d.tricks = [0] * n
    d.played = 0
    d.last_trick = None
    d.last_winner = None
    d.outcome = None
    d.made = None
    d.payments = None
    d.to_treasure = 0
    d.played_cards = []  # public memory for computer players: every card played, in order
    d.voids = [""] * n   # public: suits each seat has shown it lacks (N6), e.g. "HS"
    state.deal = d
    state.to_act = (dealer,)
    return [{"type": "deal", "dealer": dealer, "deal_no": state.deal_no, "stake": stake, "pot": state.pot,
             "talon": d.talon}]


# --- legal actions ------------------------------------------------------------------------------

def _follow_cards(d, hand):
    """N6: cards of the suit led; if void, trumps; otherwise any card. The first lead is free."""
    trick = d.trick
    if not trick:
        return hand
    led = trick[0][1][-1]
    same = [c for c in hand if c[-1] == led]
    if same:
        return same
    trump = d.trump
    trumps = [c for c in hand if c[-1] == trump]
    return trumps or hand


@hookimpl
def frapnet_legal_actions(state, seat):
    """Every action ``seat`` may take now: auction calls (N4), the declarer's buy (N5) or the
    cards it may play (N6); ``[]`` when it is not the seat's turn."""
    d = state.deal
    if seat != d.turn:
        return []
    ph = d.phase
    if ph == PLAY:
        return [("play", c) for c in sorted(_follow_cards(d, d.hands[seat]), key=card_key)]
    if ph == AUCTION:
        top = d.top
        out = [("bid", k) for k in range(top + 1, HAND + 1)]
        if top < NAPOLEON:
            out.append(("napoleon",))
        if seat == d.dealer and d.holder is not None and d.holder != seat:
            out.append(("here",))
        out.append(("pass",))
        return out
    if ph == BUY:
        return [("buy", ())] + [("buy", (c,)) for c in sorted(d.hands[seat], key=card_key)]
    return []

# --- applying actions ---------------------------------------------------------------------------

def _sym(card):
    return format_card(card, symbols=True)


def _bid_text(rank):
    return "napoleon" if rank == NAPOLEON else str(rank)


@hookimpl
def frapnet_apply_action(state, seat, action):
    """Apply ``action`` by ``seat``; raises RuleError naming N4 (auction), N5 (buying) or N6
    (play) for a seat not to act, a verb the phase does not allow, or a call the rule forbids."""
    d = state.deal
    ph = d.phase
    verb = action[0]
    if ph == DONE:
        raise RuleError("record", "the deal has ended")
    if seat != d.turn:
        raise RuleError(PHASE_RULE[ph], f"it is seat {d.turn}'s turn ({_PHASE_EN[ph]}), not seat {seat}'s")
    if ph == AUCTION:
        if verb not in ("bid", "napoleon", "here", "pass"):
            raise RuleError("N4", f"{verb!r} is not allowed during the auction: bid, napoleon, here or pass")
        events = _auction(state, d, seat, action)
    elif ph == BUY:
        if verb != "buy":
            raise RuleError("N5", f"the declarer must buy (one card, or none to stand pat) before the first lead, "
                                  f"not {verb!r}")
        events = _buy(state, d, seat, action)
    else:
        if verb != "play":
            raise RuleError("N6", f"{verb!r} is not allowed during play")
        events = _play(state, d, seat, action)
    state.to_act = (d.turn,) if d.turn is not None else ()
    return events


def _auction(state, d, seat, action):
    """N4: bid higher, bid for Napoleon, ``here`` (the dealer alone), or pass."""
    verb = action[0]
    if verb == "pass":
        d.active[seat] = False
        d.calls[seat] = "pass"
        events = [{"type": "bid", "seat": seat, "bid": "pass"}]
    elif verb == "here":
        if seat != d.dealer:
            raise RuleError("N4", f"only the dealer (seat {d.dealer}) may say here; seat {seat} must bid higher or pass")
        if d.holder is None:
            raise RuleError("N4", "there is no bid to take: here takes the current top bid")
        if d.holder == seat:
            raise RuleError("N4", "the dealer already holds the top bid; here is not allowed")
        d.holder = seat
        d.calls[seat] = "here"
        events = [{"type": "bid", "seat": seat, "bid": "here", "top": bid_value(d.top)}]
    else:
        if verb == "napoleon":
            rank = NAPOLEON
        else:
            rank = action[1]
            if not 1 <= rank <= HAND:
                raise RuleError("N4", f"a bid is a number of tricks from 1 to 5, not {rank}")
        if rank <= d.top:
            raise RuleError("N4", f"a bid must be higher than the top bid ({_bid_text(d.top)}): "
                                  + ("nothing ranks above napoleon" if d.top == NAPOLEON
                                     else "bid more tricks, napoleon, or pass"))
        d.top = rank
        d.holder = seat
        d.calls[seat] = bid_value(rank)
        events = [{"type": "bid", "seat": seat, "bid": bid_value(rank)}]
    return events + _next_speaker(state, d, seat)


def _next_speaker(state, d, seat):
    """N4: clockwise among players still in; the auction ends when all but one have passed and
    that one holds the top bid (the declarer), or when everybody has passed without a bid."""
    n = d.n
    active = d.active
    left = [s for s in range(n) if active[s]]
    if not left:  # N4: nobody bid at all — thrown in; the treasure stays
        d.phase = DONE
        d.turn = None
        d.outcome = "thrown_in"
        state.deal_over = True
        return [{"type": "thrown_in", "pot": state.pot}]
    if len(left) == 1:
        last = left[0]
        if d.holder == last:  # N4: the declarer
            d.declarer = last
            d.bid = d.top
            d.phase = BUY
            d.turn = last
            return [{"type": "declarer", "seat": last, "bid": bid_value(d.top), "talon": d.talon}]
        d.turn = last  # N4: every player speaks at least once — the last may still bid
        return []
    s = (seat + 1) % n
    while not active[s]:
        s = (s + 1) % n
    d.turn = s
    return []


def _buy(state, d, seat, action):
    """N5: discard at most one card face down, then take the top card of the talon."""
    cards = action[1]
    hand = d.hands[seat]
    if len(cards) > 1:
        raise RuleError("N5", f"the declarer may exchange one card only, not {len(cards)}")
    for c in cards:
        if c not in hand:
            raise RuleError("N5", f"seat {seat} does not hold {_sym(c)}")
    if cards:
        hand.remove(cards[0])
        d.discard = cards[0]
        hand.append(d.deck[d.talon_pos])
        d.talon_pos += 1
    d.bought = True
    d.phase = PLAY
    d.leader = seat  # N6: the declarer leads
    d.turn = seat
    return [{"type": "buy", "seat": seat, "count": len(cards), "talon": d.talon}]


def _play(state, d, seat, action):
    """N6: follow suit, else trump, else any card; the first lead names trump. N7: early end."""
    card = action[1]
    hand = d.hands[seat]
    if card not in hand:
        raise RuleError("N6", f"seat {seat} does not hold {_sym(card)}")
    trick = d.trick
    events = []
    if trick:
        led = trick[0][1][-1]
        suit = card[-1]
        if suit != led:
            if any(c[-1] == led for c in hand):
                raise RuleError("N6", f"must follow suit {SUIT_SYMBOLS[led]}")
            if suit != d.trump and any(c[-1] == d.trump for c in hand):
                raise RuleError("N6", f"void in {SUIT_SYMBOLS[led]}: must play a trump {SUIT_SYMBOLS[d.trump]}")
            v = d.voids[seat]  # a void shown (N6): none of the suit led, nor of trumps unless it trumps
            if led not in v:
                v += led
            if suit != d.trump and d.trump not in v:
                v += d.trump
            d.voids[seat] = v
    elif d.trump is None:  # N6: the suit of the declarer's first lead is trump
        d.trump = card[-1]
        events.append({"type": "trump", "seat": seat, "suit": d.trump})
    hand.remove(card)
    trick.append((seat, card))
    d.played_cards.append(card)
    events.insert(0, {"type": "play", "seat": seat, "card": card})
    n = d.n
    if len(trick) < n:  # N6: everybody plays, passed players included
        d.turn = (seat + 1) % n
        return events
    winner = state.rules.trick_winner(state, trick)
    d.tricks[winner] += 1
    d.played += 1
    d.last_trick = [list(t) for t in trick]
    d.last_winner = winner
    d.trick = []
    events.append({"type": "trick", "winner": winner, "cards": [list(t) for t in trick], "number": d.played})
    need = tricks_needed(d.bid)
    took = d.tricks[d.declarer]
    if took >= need or took + (HAND - d.played) < need:  # N7: made, or out of reach
        d.phase = DONE
        d.turn = None
        d.leader = None
        d.outcome = "played"
        d.made = took >= need
        state.deal_over = True
        if d.played < HAND:
            events.append({"type": "early_end", "seat": d.declarer, "made": d.made, "tricks": took,
                           "played": d.played})
    else:
        d.leader = winner
        d.turn = winner
    return events


# --- trick-winning (N6) -------------------------------------------------------------------------

@hookimpl
def frapnet_trick_winner(state, trick):
    """N6 (ace high, N1): the highest trump wins; if no trump was played, the highest card of
    the suit led. ``trick`` is a list of ``(seat, card)``, the lead first; returns the seat."""
    trump = state.deal.trump
    led = trick[0][1][-1]
    best_seat, best = trick[0]
    best_trump = best[-1] == trump
    for seat, card in trick[1:]:
        s = card[-1]
        if s == trump:
            if not best_trump or rank_value(card) > rank_value(best):
                best_seat, best, best_trump = seat, card, True
        elif not best_trump and s == led and rank_value(card) > rank_value(best):
            best_seat, best = seat, card
    return best_seat
