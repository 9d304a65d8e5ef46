"""Frak You (Фрак Ю), a shedding game played with tricks, as a frapnet game plugin.

Implements rules K1–K12 of the rule book (../shared/spec/rules-frak-you.md; for players:
docs/rules/frak_you.md) through the same hooks as Frap (frapnet/games/frap.py): dealing
(K2), passing (K3), the first lead (K4), play (K5), trick-winning (K6–K8), the trick pile
(K9, K10), going out (K11) and scoring in penalty points (K12). Every refusal names its rule ID
as record-format.md ("Which rule an error names") prescribes.

Seats are 0…n−1 clockwise; the player on a seat's left is the next seat clockwise (s + 1), the
right-hand neighbour is s − 1. The ledger is ``"points"``: ``state.balances[s]`` is seat s's
penalty points (one per lost deal, K12). Pure: no I/O, no Twisted.

This module is the entry point (``frapnet_frak_you.plugin``) and the rules: the spec, dealing,
passing, legal actions, applying an action and trick-winning (K1–K11). It registers every hook
of the game; the others live by concern: :mod:`frapnet_frak_you.base` (phases, the order out),
:mod:`frapnet_frak_you.scoring` (penalty points K12, reports, statistics),
:mod:`frapnet_frak_you.view` (views, labels, log lines, the screen) and
:mod:`frapnet_frak_you.bots` (sampler, policy, deal result).
"""
from __future__ import annotations

from itertools import combinations

from frapnet.cards import card_key, format_card, pack as make_pack, rank_value, SUIT_SYMBOLS
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, GameSpec, OptionSpec
from frapnet.errors import RuleError
from frapnet.hookspecs import hookimpl
from frapnet.engine.state import DealBase
from frapnet_frak_you.base import DONE, PASS, PLAY, swaps  # noqa: F401 (re-exported)
from frapnet_frak_you.bots import frapnet_deal_result, frapnet_policy, frapnet_sample_deal  # noqa: F401  (issue #8)
from frapnet_frak_you.scoring import (frapnet_deal_report, frapnet_deal_stats, frapnet_match_report,  # noqa: F401 (K12)
                                      frapnet_settle)
from frapnet_frak_you.view import (frapnet_action_label, frapnet_describe_event, frapnet_seat_view_ui,  # noqa: F401 (views)
                                   frapnet_view, frapnet_view_ui)

PLUGIN_NAME = "frak_you"
FRAPNET_API = 1

PASS_COUNT = 3  # K3: each player passes three cards
TWO_OF_CLUBS, THREE_OF_CLUBS, ACE_OF_SPADES = "2C", "3C", "AS"

VERBS = {"pass_cards": ARG_CARDS, "play": ARG_CARD}

OPTIONS = (
    OptionSpec("passing", "right", "choice", "K3",
               "right: every deal, three cards to the right-hand neighbour (SK); rotate: left, right, "
               "across, no pass, then again (P; across becomes no pass with an odd number of players)",
               choices=("right", "rotate")),
    OptionSpec("first_lead", "left_of_dealer", "choice", "K4",
               "left_of_dealer: the player left of the dealer leads any card (SK); two_of_clubs: the "
               "holder of 2♣ leads it (P; if 2♣ was set aside, left of the dealer leads any card)",
               choices=("left_of_dealer", "two_of_clubs")),
    OptionSpec("pile", "second_in_row", "choice", "K9",
               "second_in_row: winning two tricks in a row swaps the previous trick into your hand (SK); "
               "any_win: any later win by a player with a trick in front of them swaps (P)",
               choices=("second_in_row", "any_win")),
    OptionSpec("loss_limit", 5, "int", "K12",
               "the match ends after the deal in which some player reaches this many penalty points",
               check=lambda v: v >= 1, check_doc="a whole number of penalty points, at least 1"),
)

SPEC = GameSpec(
    name="frak_you", title="Frak You", min_players=3, max_players=5, players_rule="K1", options=OPTIONS,
    verbs=VERBS, dealer_rule="K2", match_rule="K12", ledger="points",
    summary="Shed your cards; winning two tricks in a row hands you the old one back. "
            "The last two players left lose a point.",
)

_DIRECTION_OFFSET = {"left": 1, "right": -1, "across": 2}


def pass_direction(players: int, passing: str, deal_index: int) -> str | None:
    """K3: where this deal's three cards go: ``"left"`` (seat s → s + 1), ``"right"`` (s → s − 1),
    ``"across"`` (s → s + 2), or None for a deal without passing.

    ``deal_index`` counts deals from the match's first (0-based). ``passing`` is the option:
    ``"right"`` every deal (SK), or ``"rotate"`` — left, right, across, none, repeating (P);
    across becomes no pass with an odd number of players.
    """
    if passing == "right":
        return "right"
    k = deal_index % 4
    if k == 0:
        return "left"
    if k == 1:
        return "right"
    if k == 2:
        return "across" if players % 2 == 0 else None
    return None


class FrakDeal(DealBase):
    """The state of one Frak You deal (mutable; the engine clones it before each action).

    - ``hands[s]``: seat s's cards (canonical strings; during passing without the three chosen).
    - ``set_aside``: the 52 mod n cards left over by K2, face down, out of play (never shown).
    - ``direction``: ``"left"``/``"right"``/``"across"`` or None (K3); ``chosen[s]``: the three
      cards seat s has chosen to pass (tuple) or None; ``received[s]``: what s was passed.
    - ``active[s]``: still in the deal (False once gone out, K11); ``out_order``: groups of seats
      in the order they went out (each group a sorted list); ``losers``: set when the deal ends.
    - ``trick``: ``[(seat, card), …]`` of the trick in progress, lead first; ``piles[s]``: the
      tricks face down in front of s (each a tuple of cards, latest last; K9);
      ``last_winner``/``last_laid``: who won the previous trick and whether it went onto the pile
      (False when K10 put it into the hand).
    - ``led``: whether any card has been played in this deal (K4 governs the first lead);
      ``must_lead``: ``"2C"`` when the first lead must be the 2♣ (option two_of_clubs).
    - ``voids[s]``: suits seat s has shown it lacks by not following (K5), public memory for
      computer players (cards taken back into a hand, K9/K10, may refill a suit).
    """

    __slots__ = ("n", "dealer", "hand_size", "set_aside", "hands", "phase", "direction", "chosen", "received",
                 "active", "out_order", "losers", "trick", "leader", "turn", "piles", "last_winner", "last_laid",
                 "last_trick", "played", "led", "must_lead", "outcome", "voids")

    def clone(self) -> "FrakDeal":
        """A copy sharing nothing mutable (tuples are shared)."""
        new = FrakDeal.__new__(FrakDeal)
        new.n = self.n
        new.dealer = self.dealer
        new.hand_size = self.hand_size
        new.set_aside = self.set_aside
        new.hands = [h[:] for h in self.hands]
        new.phase = self.phase
        new.direction = self.direction
        new.chosen = self.chosen[:]
        new.received = self.received[:]
        new.active = self.active[:]
        new.out_order = self.out_order[:]
        new.losers = self.losers
        new.trick = self.trick[:]
        new.leader = self.leader
        new.turn = self.turn
        new.piles = [p[:] for p in self.piles]
        new.last_winner = self.last_winner
        new.last_laid = self.last_laid
        new.last_trick = self.last_trick
        new.played = self.played
        new.led = self.led
        new.must_lead = self.must_lead
        new.outcome = self.outcome
        new.voids = self.voids[:]
        return new


    def places(self) -> dict[str, list[str]]:
        """Where every card of the pack is, place name → cards (for card-conservation checks):
        ``hand s``, ``chosen s`` (passing, K3), ``pile s`` (K9), ``trick``, ``set_aside`` (K2).
        Played cards can come back into a hand (K9, K10), so "played" is not a place."""
        out = {"trick": [c for _, c in self.trick], "set_aside": list(self.set_aside)}
        for s in range(self.n):
            out[f"hand {s}"] = list(self.hands[s])
            out[f"chosen {s}"] = list(self.chosen[s] or ())
            out[f"pile {s}"] = [c for t in self.piles[s] for c in t]
        return out


# --- registration, options, pack (K1) -----------------------------------------------------------

@hookimpl
def frapnet_register_games(register):
    register(SPEC)


@hookimpl
def frapnet_validate_options(spec, players, options):
    """Every option is checked by its OptionSpec (K3, K4, K9, K12); nothing depends on two."""
    return options


@hookimpl
def frapnet_pack(state):
    """K1: one 52-card pack, ace high."""
    return make_pack(52)


# --- dealing (K2, K3, K4) -----------------------------------------------------------------------

@hookimpl
def frapnet_deal(state, deck, dealer):
    """K2: deck[k], k < n·⌊52/n⌋, goes to seat (dealer + 1 + k) mod n; the rest is set aside."""
    n = state.players
    size = 52 // n
    d = FrakDeal.__new__(FrakDeal)
    d.n = n
    d.dealer = dealer
    d.hand_size = size
    hands = [[] for _ in range(n)]
    for k in range(size * n):
        hands[(dealer + 1 + k) % n].append(deck[k])
    d.hands = hands
    d.set_aside = tuple(deck[size * n:])
    d.direction = pass_direction(n, state.options["passing"], state.deal_no - 1)
    d.chosen = [None] * n
    d.received = [None] * n
    d.active = [True] * n
    d.out_order = []
    d.losers = None
    d.trick = []
    d.leader = None
    d.turn = None
    d.piles = [[] for _ in range(n)]
    d.last_winner = None
    d.last_laid = False
    d.last_trick = None
    d.played = 0
    d.led = False
    d.must_lead = None
    d.outcome = None
    d.voids = [""] * n  # public: suits each seat has shown it lacks (K5), e.g. "HS"
    state.deal = d
    events = [{"type": "deal", "dealer": dealer, "deal_no": state.deal_no, "hand_size": size,
               "set_aside": len(d.set_aside), "passing": d.direction}]
    if d.direction is not None:
        d.phase = PASS
        state.to_act = tuple(range(n))  # K3: everybody chooses at once
        return events
    return events + _start_play(state, d)


def _start_play(state, d):
    """K4: the player left of the dealer leads any card; or (two_of_clubs) the holder of 2♣ leads it."""
    d.phase = PLAY
    leader = (d.dealer + 1) % d.n
    if state.options["first_lead"] == "two_of_clubs":
        for s, hand in enumerate(d.hands):
            if TWO_OF_CLUBS in hand:
                leader = s
                d.must_lead = TWO_OF_CLUBS
                break
    d.leader = d.turn = leader
    state.to_act = (leader,)
    # no card named: who must lead the 2♣ is public, but a generic leak check need not know that
    return [{"type": "play_starts", "leader": leader, "two_of_clubs": d.must_lead is not None}]


# --- legal actions ------------------------------------------------------------------------------

def _playable(d, hand):
    """K4/K5: the first lead (2♣ if it must be led), else follow the suit led if able."""
    if not d.led and d.must_lead:
        return [d.must_lead]
    if d.trick:
        led = d.trick[0][1][-1]
        same = [c for c in hand if c[-1] == led]
        if same:
            return same
    return hand


@hookimpl
def frapnet_legal_actions(state, seat):
    d = state.deal
    if d.phase == PASS:
        if d.chosen[seat] is not None:
            return []
        return [("pass_cards", c) for c in combinations(sorted(d.hands[seat], key=card_key), PASS_COUNT)]
    if d.phase == PLAY and seat == d.turn:
        return [("play", c) for c in sorted(_playable(d, d.hands[seat]), key=card_key)]
    return []


# --- applying actions ---------------------------------------------------------------------------

def _sym(card):
    return format_card(card, symbols=True)


def _syms(cards):
    return " ".join(_sym(c) for c in cards)


@hookimpl
def frapnet_apply_action(state, seat, action):
    d = state.deal
    verb = action[0]
    if d.phase == PASS:
        if d.chosen[seat] is not None:
            raise RuleError("K3", f"seat {seat} has already chosen the cards to pass; waiting for "
                                  f"seat(s) {', '.join(map(str, state.to_act))}")
        if verb != "pass_cards":
            raise RuleError("K3", "every player first chooses three cards to pass")
        return _pass_cards(state, d, seat, action[1])
    if not d.active[seat]:
        raise RuleError("K11", f"seat {seat} has gone out of this deal")
    phase_rule = "K5" if d.led else "K4"
    if seat != d.turn:
        what = "lead" if not d.trick else "play"
        raise RuleError(phase_rule, f"it is seat {d.turn}'s turn to {what}, not seat {seat}'s")
    if verb == "pass_cards":
        if d.direction is None:
            raise RuleError("K3", "no cards are passed on this deal")
        raise RuleError(phase_rule, "the cards have already been passed; play a card")
    if verb != "play":
        raise RuleError(phase_rule, f"{verb!r} is not allowed now")
    return _play(state, d, seat, action[1])


def _pass_cards(state, d, seat, cards):
    """K3: choose three cards face down; the exchange happens when the last player has chosen."""
    if len(cards) != PASS_COUNT:
        raise RuleError("K3", f"pass exactly three cards, not {len(cards)}")
    if len(set(cards)) != PASS_COUNT:
        raise RuleError("K3", "the same card is named twice")
    hand = d.hands[seat]
    for c in cards:
        if c not in hand:
            raise RuleError("K3", f"seat {seat} does not hold {_sym(c)}")
    for c in cards:
        hand.remove(c)
    d.chosen[seat] = tuple(cards)
    state.to_act = tuple(s for s in state.to_act if s != seat)
    events = [{"type": "pass_chosen", "seat": seat}]
    if state.to_act:
        return events
    off = _DIRECTION_OFFSET[d.direction]
    n = d.n
    for s in range(n):
        to = (s + off) % n
        d.hands[to].extend(d.chosen[s])
        d.received[to] = d.chosen[s]
    d.chosen = [None] * n
    events.append({"type": "exchange", "direction": d.direction})
    return events + _start_play(state, d)


def _next_active(d, seat):
    n = d.n
    s = (seat + 1) % n
    while not d.active[s]:
        s = (s + 1) % n
    return s


def _play(state, d, seat, card):
    hand = d.hands[seat]
    if card not in hand:
        raise RuleError("K5", f"seat {seat} does not hold {_sym(card)}")
    if not d.led and d.must_lead and card != d.must_lead:
        raise RuleError("K4", f"the holder of {_sym(d.must_lead)} must lead it")
    if d.trick:
        led = d.trick[0][1][-1]
        if card[-1] != led:
            if any(c[-1] == led for c in hand):
                raise RuleError("K5", f"must follow suit {SUIT_SYMBOLS[led]}")
            if led not in d.voids[seat]:  # a void shown (K5), public memory for computer players
                d.voids[seat] += led
    hand.remove(card)
    d.led = True
    d.trick.append((seat, card))
    events = [{"type": "play", "seat": seat, "card": card}]
    if len(d.trick) < sum(d.active):
        d.turn = _next_active(d, seat)
        state.to_act = (d.turn,)
        return events
    return events + _end_trick(state, d)


def _end_trick(state, d):
    """K6–K8 (who wins, through the trick-winning hook), K9/K10 (where it goes), K11 (going out)."""
    trick = d.trick
    winner = state.rules.trick_winner(state, trick)
    cards = tuple(c for _, c in trick)
    d.played += 1
    hand = d.hands[winner]
    pile = d.piles[winner]
    if not hand:  # K10: a winner with no cards takes the trick into hand; the pile stays
        hand.extend(cards)
        dest = "hand"
        laid = False
    else:
        if swaps(state.options["pile"], bool(pile), d.last_winner == winner, d.last_laid):  # K9, K10
            hand.extend(pile[-1])
            pile[-1] = cards
            dest = "swap"
        else:
            pile.append(cards)
            dest = "pile"
        laid = True
    d.last_winner = winner
    d.last_laid = laid
    d.last_trick = [list(t) for t in trick]
    d.trick = []
    events = [{"type": "trick", "winner": winner, "cards": [list(t) for t in trick], "number": d.played,
               "to": dest}]
    # K11: a player with no cards after a trick they did not win goes out
    gone = sorted(s for s, _ in trick if s != winner and not d.hands[s])
    if gone:
        for s in gone:
            d.active[s] = False
        d.out_order.append(gone)
        events.append({"type": "out", "seats": gone})
    left = [s for s in range(d.n) if d.active[s]]
    if len(left) <= 2:  # K11: the last two (or the last one) lose the deal
        d.losers = left
        d.phase = DONE
        d.turn = None
        d.outcome = "played"
        state.to_act = ()
        state.deal_over = True
        return events
    d.leader = d.turn = winner  # K10/K9: the winner leads the next trick
    state.to_act = (winner,)
    return events


# --- trick-winning (K6, K7, K8) -----------------------------------------------------------------

@hookimpl
def frapnet_trick_winner(state, trick):
    """Return the seat winning ``trick`` (``[(seat, card), …]``, the lead first).

    K7: the 3♣ wins any trick it is in, unless the A♠ is in the same trick. K8: the card played
    immediately after the A♠ counts as the lowest card and cannot win (an A♠ played last affects
    nothing; otherwise it is an ordinary ace). K6: else the highest card of the suit led wins.
    """
    ace = -1
    three = None
    for i, (seat, card) in enumerate(trick):
        if card == ACE_OF_SPADES:
            ace = i
        elif card == THREE_OF_CLUBS:
            three = seat
    if three is not None and ace < 0:
        return three
    muted = ace + 1 if ace >= 0 else -1
    led = trick[0][1][-1]
    best_seat, best = trick[0]
    for i in range(1, len(trick)):
        if i == muted:
            continue
        seat, card = trick[i]
        if card[-1] == led and rank_value(card) > rank_value(best):
            best_seat, best = seat, card
    return best_seat
