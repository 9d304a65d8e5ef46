"""Frap (Храп), the built-in game, written as a plugin through the same hooks as every variant.

Implements rules F1–F25 of the rule book (docs/rules/frap.md; ../shared/spec/rules-frap.md).
Each check names its rule ID. Hand size and trick count are fields of the deal so that house
rules such as five-card Frap (F26, frapnet/house_rules/five_card_frap.py) can change them.

This module is the plugin (the spec, dealing, legal actions, dispatching each action, the play
and trick-winning); the rest lives by concern and is registered from here:
:mod:`frapnet.games.frap_base` (phases, shared helpers), :mod:`frapnet.games.frap_bidding` (the
phases before the play, F9–F17), :mod:`frapnet.games.frap_score` (settlement, reports,
statistics), :mod:`frapnet.games.frap_view` (views, labels, the screen) and the computer
players' :mod:`frapnet.games.frap_bots`, :mod:`frapnet.games.frap_sample`,
:mod:`frapnet.games.frap_solve`.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from frapnet.cards import ALL_CARDS, card_key, pack as make_pack, SUIT_SYMBOLS
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, GameSpec, OptionSpec
from frapnet.errors import RuleError
from frapnet.hookspecs import hookimpl
from frapnet.engine.state import DealBase
from frapnet.games.frap_base import (BID, BUY, CUT, CUT_DISCARD, DONE, PHASE_RULE, PLAY, WHIST,  # noqa: F401 (re-exported)
                                     _PHASE_EN, _collect, _follow_cards, _sym, deck_size)
from frapnet.games.frap_bidding import _bid, _buy, _cut, _cut_discard, _take_trump, _whist
from frapnet.games.frap_score import (contract_remise, frapnet_deal_report, frapnet_deal_stats,  # noqa: F401 (re-exported)
                                      frapnet_match_report, frapnet_settle, revoke_remise, trick_money)

PLUGIN_NAME = "frap"
FRAPNET_API = 1


VERBS = {
    "look": None, "pass": None, "frap": None, "blind_frap": None, "whist": None,
    "buy": ARG_CARDS, "take_trump": ARG_CARD, "cut_in": None, "cut_in_trump": None,
    "decline": None, "discard": ARG_CARD, "play": ARG_CARD,
}
_NOT_LOOKING = frozenset(("pass", "blind_frap", "look"))  # F9: every other action counts as looking


def _deck_value(v):
    """F2: ``deck`` may be a number or a string (``32``, ``"32"``, ``"auto"``; record-format.md)."""
    if isinstance(v, str) and v.strip().isdigit():
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


OPTIONS = (
    OptionSpec("deck", "auto", "choice", "F2", "pack size: auto (32 for 2–4 players, 36 for 5–6, 52 for 7–12), 32, 36 or 52",
               choices=("auto", 32, 36, 52), coerce=_deck_value),
    OptionSpec("ante", 100, "int", "F5", "chips each player pays into an empty pot",
               check=lambda v: v > 0 and v % 4 == 0, check_doc="a positive whole number of chips divisible by 4"),
    OptionSpec("cut_in", True, "bool", "F17", "passed players may cut in after buying"),
    OptionSpec("graded_remise", False, "bool", "F25", "graded remises (frapper pays P with one trick…)"),
    OptionSpec("revoke", "refuse", "choice", "F22", "refuse: an illegal card is refused; penalize: accepted and penalised",
               choices=("refuse", "penalize")),
)

SPEC = GameSpec(
    name="frap", title="Frap", min_players=2, max_players=12, players_rule="F1", options=OPTIONS,
    verbs=VERBS, dealer_rule="F7", match_rule=None, ledger="chips",
    summary="Four tricks; frap promises two, whist one; each trick takes a quarter of the pot.",
)


class FrapDeal(DealBase):
    """The state of one Frap deal (mutable; the engine clones it before each action).

    Seats are 0…n−1; ``hands[s]`` is seat s's cards (canonical strings). The talon is
    ``deck[talon_pos:]``, top first; ``turn_up`` is the turn-up while it is still to be had
    (None once taken or discarded), ``trump`` its suit.
    """

    __slots__ = ("n", "dealer", "hand_size", "tricks_total", "max_rounds", "must_whist", "deck", "talon_pos",
                 "hands", "looked", "turn_up", "trump", "dead_turn_ups", "phase", "round", "turn", "queue",
                 "declared", "frapper", "blind", "blind_turn_up", "frap_round", "whisters", "passers",
                 "took_trump", "bought", "cut_ins", "discards", "thrown", "in_play", "trick", "leader",
                 "tricks", "last_trick", "last_winner", "played", "P", "revoked", "outcome", "remises", "pays_tricks",
                 "played_cards", "voids")

    # the generated clone() (DealBase) copies these lists; every other field is immutable
    COPY_LISTS = ("looked", "dead_turn_ups", "queue", "declared", "whisters", "passers", "bought", "cut_ins",
                  "trick", "tricks", "revoked", "played_cards", "voids")
    COPY_NESTED = ("hands", "discards", "thrown")

    @property
    def talon(self) -> int:
        """Cards left in the talon."""
        return len(self.deck) - self.talon_pos


# --- registration -----------------------------------------------------------------------------

@hookimpl
def frapnet_register_games(register):
    register(SPEC)


@hookimpl
def frapnet_validate_options(spec, players, options):
    size = deck_size(players, options["deck"])
    need = players * 4 + 3
    if size < need:  # F2
        raise RuleError("F2", f"a {size}-card deck is too small for {players} players (needs at least {need})")
    return options


@hookimpl
def frapnet_pack(state):
    return make_pack(deck_size(state.players, state.options["deck"]))


# --- dealing (F5, F8) -------------------------------------------------------------------------

def new_deal(state, deck, dealer, hand_size=4):
    """Deal ``deck`` (F8) and collect antes into an empty pot (F5). Returns the FrapDeal."""
    n = state.players
    d = FrapDeal.__new__(FrapDeal)
    d.n = n
    d.dealer = dealer
    d.hand_size = hand_size
    d.tricks_total = hand_size
    d.max_rounds = 3
    d.must_whist = False  # F26 sets these three: five tricks, two rounds, no pass after a frap
    d.pays_tricks = True  # F23 trick money (F26: none)
    d.deck = tuple(deck)
    d.hands = [[] for _ in range(n)]
    for k in range(hand_size * n):  # F8: one at a time, clockwise from the dealer's left
        d.hands[(dealer + 1 + k) % n].append(deck[k])
    d.turn_up = deck[hand_size * n]
    d.trump = d.turn_up[-1]
    d.talon_pos = hand_size * n + 1
    d.dead_turn_ups = []
    d.looked = [False] * n
    d.phase = BID
    d.round = 1
    d.queue = [(dealer + 1 + i) % n for i in range(n)]
    d.turn = d.queue[0]
    d.declared = [None] * n
    d.frapper = None
    d.blind = False
    d.blind_turn_up = None
    d.frap_round = None
    d.whisters = []
    d.passers = []
    d.took_trump = False
    d.bought = [False] * n
    d.cut_ins = []
    d.discards = [[] for _ in range(n)]
    d.thrown = [[] for _ in range(n)]
    d.in_play = ()
    d.trick = []
    d.leader = None
    d.tricks = [0] * n
    d.last_trick = None
    d.last_winner = None
    d.played = 0
    d.P = 0
    d.revoked = [False] * n
    d.played_cards = []  # public memory for computer players: every card played, in order
    d.voids = [""] * n   # public: suits each seat has shown it lacks (F20), e.g. "HS"
    d.outcome = None
    d.remises = None
    state.deal = d
    state.to_act = (d.turn,)
    return d


@hookimpl
def frapnet_deal(state, deck, dealer):
    ante = 0
    if state.pot == 0:  # F5: a deal that starts with an empty pot
        ante = state.options["ante"]
        _collect(state, ante)
    d = new_deal(state, deck, dealer)
    return [{"type": "deal", "dealer": dealer, "deal_no": state.deal_no, "turn_up": d.turn_up,
             "ante": ante, "pot": state.pot}]


# --- legal actions ----------------------------------------------------------------------------

_PLAY = {c: ("play", c) for c in ALL_CARDS}  # shared action tuples (legal_actions is the hot path)
_CARD_KEY = {c: card_key(c) for c in ALL_CARDS}.__getitem__


def _buy_actions(hand, talon):
    """F15: every ``buy`` of 0…min(hand, talon) cards (tuples sorted by card_key)."""
    return _buy_table(tuple(sorted(hand, key=_CARD_KEY)), min(len(hand), talon))


@lru_cache(maxsize=8192)
def _buy_table(hand, k):
    out = []
    for j in range(k + 1):
        out += [("buy", c) for c in combinations(hand, j)]
    return tuple(out)


def play_options(state, d, seat):
    hand = d.hands[seat]
    if state.options["revoke"] == "penalize":  # F22: an illegal card is accepted as at a real table
        return hand
    return _follow_cards(d, hand)


@hookimpl
def frapnet_legal_actions(state, seat):
    d = state.deal
    ph = d.phase
    if ph == PLAY and seat == d.turn and d.looked[seat]:  # the hot path of every playout (F20 inlined)
        cards = d.hands[seat]
        trick = d.trick
        if trick and state.options["revoke"] != "penalize":
            led = trick[0][1][-1]
            cards = [c for c in cards if c[-1] == led] or [c for c in cards if c[-1] == d.trump] or cards
        if len(cards) == 1:
            return [_PLAY[cards[0]]]
        return [_PLAY[c] for c in sorted(cards, key=_CARD_KEY)]
    if ph == DONE:
        return []
    out = [] if d.looked[seat] else [("look",)]
    if seat != d.turn:
        return out
    if ph == BID:
        out.append(("frap",))
        if not d.looked[seat]:
            out.append(("blind_frap",))
        out.append(("pass",))
    elif ph == WHIST:
        out.append(("whist",))
        if not d.must_whist:
            out.append(("pass",))
    elif ph == BUY:
        hand = d.hands[seat]
        if seat == d.frapper and d.blind and not d.took_trump and d.turn_up is not None:
            out += [("take_trump", c) for c in sorted(hand + [d.turn_up], key=card_key)]
        out += _buy_actions(hand, d.talon)
    elif ph == CUT:
        if d.talon >= 5:
            out.append(("cut_in",))
        if d.turn_up is not None and d.talon >= 4:
            out.append(("cut_in_trump",))
        out.append(("decline",))
    elif ph == CUT_DISCARD:
        out += [("discard", c) for c in sorted(d.hands[seat], key=card_key)]
    elif ph == PLAY:
        out += [_PLAY[c] for c in sorted(play_options(state, d, seat), key=_CARD_KEY)]
    return out


# --- applying actions -------------------------------------------------------------------------


@hookimpl
def frapnet_apply_action(state, seat, action):
    d = state.deal
    verb = action[0]
    if verb == "play" and d.phase == PLAY and seat == d.turn and d.looked[seat]:  # the hot path
        events = _play(state, d, seat, action)
        state.to_act = (d.turn,) if d.turn is not None else ()
        return events
    if verb == "look":  # F9: any time; a second look changes nothing
        if d.looked[seat]:
            return []
        d.looked[seat] = True
        return [{"type": "look", "seat": seat}]
    ph = d.phase
    if seat != d.turn:
        who = f"seat {d.turn}" if d.turn is not None else "nobody"
        raise RuleError(PHASE_RULE[ph], f"it is {who}'s turn ({ph}), not seat {seat}'s")
    handler = _HANDLERS.get((ph, verb))
    if handler is None:
        raise _wrong_verb(d, seat, verb)
    if verb not in _NOT_LOOKING and not d.looked[seat]:
        d.looked[seat] = True  # F9: declaring, buying, playing… counts as looking first
        events = [{"type": "look", "seat": seat}]
        events.extend(handler(state, d, seat, action))
    else:
        events = handler(state, d, seat, action)
    state.to_act = (d.turn,) if d.turn is not None else ()
    return events


def _wrong_verb(d, seat, verb):
    """The error for a verb the phase does not allow, from the seat to act.

    record-format.md: where a rule forbids exactly what was tried, that rule wins over the
    phase's rule, checked in the order the format lists them: whist before any frap F10,
    blind frap after looking F9 (in any phase), frap in the whist round F11, ``take_trump``
    by anyone but the blind frapper F16 (in any phase; the blind frapper's ``take_trump``
    outside the first action of their buying turn is F16 too).
    """
    ph = d.phase
    if ph == BID and verb == "whist":
        return RuleError("F10", "nobody may whist before someone has declared frap")
    if verb == "blind_frap" and d.looked[seat]:
        return RuleError("F9", "a player who has looked at their cards can no longer declare blind frap")
    if ph == WHIST and verb in ("frap", "blind_frap"):
        return RuleError("F11", f"seat {d.frapper} has already declared frap; only one frapper per deal: whist or pass")
    if verb == "take_trump":
        if ph != BUY and seat == d.frapper and d.blind:
            return RuleError("F16", "take_trump is allowed only as the first action of the blind frapper's buying turn")
        if seat != d.frapper or not d.blind:
            return RuleError("F16", "only the blind frapper (or a cut-in player) may take the turn-up")
        if d.took_trump or d.turn_up is None:
            return RuleError("F16", "the turn-up is no longer to be had")
        return RuleError("F16", "take_trump is allowed only as the first action of the buying turn")
    return RuleError(PHASE_RULE[ph], f"{verb!r} is not allowed now ({_PHASE_EN[ph]})")


def _next_in_play(d, seat):
    n = d.n
    s = (seat + 1) % n
    while s not in d.in_play:
        s = (s + 1) % n
    return s


def _play(state, d, seat, action):
    card = action[1]
    hand = d.hands[seat]
    if card not in hand:
        raise RuleError("F20", f"seat {seat} does not hold {_sym(card)}")
    trick = d.trick
    revoke = False
    if trick:
        led = trick[0][1][-1]
        suit = card[-1]
        if suit != led:  # F20: only a seat void in the led suit (and in trumps, unless it trumps) may
            trump = d.trump
            revoke = any(c[-1] == led for c in hand) or (suit != trump and any(c[-1] == trump for c in hand))
            if revoke:
                if state.options["revoke"] != "penalize":
                    if any(c[-1] == led for c in hand):
                        raise RuleError("F20", f"must follow suit {SUIT_SYMBOLS[led]}")
                    raise RuleError("F20", f"void in {SUIT_SYMBOLS[led]}: must play a trump {SUIT_SYMBOLS[trump]}")
                d.revoked[seat] = True  # F22 (penalize): accepted, detected, penalised at settlement
            elif state.options["revoke"] != "penalize":  # a void shown (public; not under F22 penalize)
                v = d.voids[seat]
                if led not in v:
                    v += led
                if suit != trump and trump not in v:
                    v += trump
                d.voids[seat] = v
    hand.remove(card)
    trick.append((seat, card))
    d.played_cards.append(card)
    event = {"type": "play", "seat": seat, "card": card}
    if revoke:
        event["revoke"] = True  # F22: said on screen when it happens
    in_play = d.in_play
    if len(trick) < len(in_play):
        i = in_play.index(seat) + 1  # F19: clockwise among the players
        d.turn = in_play[i] if i < len(in_play) else in_play[0]
        return [event]
    winner = state.rules.trick_winner(state, trick)  # F21 (a hook, so house rules may change it)
    d.tricks[winner] += 1
    d.played = played = d.played + 1
    amount = d.P // 4 if d.pays_tricks else 0  # F23 (trick_money)
    if amount:
        state.balances[winner] += amount
        state.pot -= amount
    d.last_trick = [[s, c] for s, c in trick]
    d.last_winner = winner
    d.trick = []
    if played >= d.tricks_total:
        d.phase = DONE
        d.turn = None
        d.outcome = "played"
        state.deal_over = True
    else:
        d.leader = winner
        d.turn = winner
    return [event, {"type": "trick", "winner": winner, "cards": [[s, c] for s, c in trick], "amount": amount,
                    "number": played}]


_HANDLERS = {
    (BID, "frap"): _bid, (BID, "blind_frap"): _bid, (BID, "pass"): _bid,
    (WHIST, "whist"): _whist, (WHIST, "pass"): _whist,
    (BUY, "buy"): _buy, (BUY, "take_trump"): _take_trump,
    (CUT, "cut_in"): _cut, (CUT, "cut_in_trump"): _cut, (CUT, "decline"): _cut,
    (CUT_DISCARD, "discard"): _cut_discard,
    (PLAY, "play"): _play,
}


# --- trick-winning (F21) ----------------------------------------------------------------------

_VAL = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}


@hookimpl
def frapnet_trick_winner(state, trick):
    """F21: the highest trump wins; if no trump was played, the highest card of the suit led."""
    trump = state.deal.trump
    led = trick[0][1][-1]
    best_seat, best = trick[0]
    best_trump = best[-1] == trump
    for seat, card in trick[1:]:
        s = card[-1]
        if s == trump:
            if not best_trump or _VAL[card[:-1]] > _VAL[best[:-1]]:
                best_seat, best, best_trump = seat, card, True
        elif not best_trump and s == led and _VAL[card[:-1]] > _VAL[best[:-1]]:
            best_seat, best = seat, card
    return best_seat


# --- computer players (issue #8): the policy and the sampler live in modules of their own ------
from frapnet.games.frap_bots import frapnet_policy, frapnet_search_rival  # noqa: E402,F401
from frapnet.games.frap_sample import frapnet_sample_deal  # noqa: E402,F401
from frapnet.games.frap_solve import frapnet_solve_play  # noqa: E402,F401

# --- views, labels and the screen (frapnet_view … frapnet_seat_view_ui) live in frap_view.py ------
from frapnet.games.frap_view import (frapnet_action_label, frapnet_describe_event, frapnet_seat_view,  # noqa: E402,F401
                                     frapnet_seat_view_ui, frapnet_view, frapnet_view_ui, report_columns, UI_KEYS)
