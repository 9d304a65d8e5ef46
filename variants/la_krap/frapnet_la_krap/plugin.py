"""La Krap (Ла крап) as a frapnet game plugin: rules L1–L12 of ../shared/spec/rules-la-krap.md.

A team trick game for 3–6 players with a 72-card double pack (L2): six cards face down and a
face-up **team card** each (L4) decide the teams (L5); the turn-up decides trumps (L6); an
exchange with the talon (L7); seven tricks (L8) in which identical cards, 2s and the 5♣
neutralise cards (L11) before the trick is won (L9); K+Q declarations (L10); each side scores
the square of its tricks plus 5 per declaration (L12). Every check names its rule ID.

Cards are canonical strings (:mod:`frapnet.cards`); the double pack simply repeats a string, so
hands are lists that may hold two equal strings. Seats are 0…n−1 clockwise; points are whole
numbers kept in ``state.balances`` (the ledger is ``"points"``).

Record verbs: ``exchange [cards]`` (``[]`` keeps all), ``declare suit``, ``play card``.

This module is the entry point (``frapnet_la_krap.plugin``) and the rules: the spec, dealing,
the exchange, declarations, legal actions, applying an action and trick-winning (L4–L11). It
registers every hook of the game; the others live by concern: :mod:`frapnet_la_krap.base` (the
pack, ranks, suits, neutralisation, teams, the sides' scores), :mod:`frapnet_la_krap.scoring`
(L12, reports, statistics), :mod:`frapnet_la_krap.view` (views, labels, log lines, the screen)
and :mod:`frapnet_la_krap.bots` (sampler, policy, candidates).
"""
from __future__ import annotations

from itertools import combinations

from frapnet.cards import card_key, format_card, SUIT_SYMBOLS, SUITS
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, ARG_SUIT, GameSpec, OptionSpec
from frapnet.errors import RuleError
from frapnet.hookspecs import hookimpl

from frapnet_la_krap import __version__
from frapnet.engine.state import DealBase
from frapnet_la_krap.base import (  # noqa: F401 (re-exported: frapnet_la_krap.plugin's names)
    DECLARATION_POINTS, DECLARING, DONE, EXCHANGE, FIVE, HAND_DOWN, JOKERS, MAX_EXCHANGE, PACK, PLAY, RANK_ORDER,
    TRICKS, TRUMP_RANKS, _EFF_CACHE, _PHASE_EN, _RANK, _phase_key, build_deck, effective_suits, led_suit,
    neutralised, side_scores, teams_for)
from frapnet_la_krap.scoring import (frapnet_deal_report, frapnet_deal_stats, frapnet_match_report,  # noqa: F401 (L12)
                                     frapnet_settle, winners)
from frapnet_la_krap.view import (NEUTRAL_MARK, TEAM_CARD_MARK, TEAM_MARKS, frapnet_action_label,  # noqa: F401 (views)
                                  frapnet_describe_event, frapnet_seat_view_ui, frapnet_view, frapnet_view_ui,
                                  team_colour)

PLUGIN_NAME = "la_krap"
FRAPNET_API = 1

__all__ = ["SPEC", "PACK", "LaKrapDeal", "build_deck", "neutralised", "teams_for", "side_scores",
           "PLUGIN_NAME", "FRAPNET_API", "__version__"]

VERBS = {"exchange": ARG_CARDS, "declare": ARG_SUIT, "play": ARG_CARD}

OPTIONS = (
    OptionSpec("target", 100, "int", "L12", "points that end the match after the deal in which a player reaches them",
               check=lambda v: v > 0, check_doc="a positive whole number of points"),
)

SPEC = GameSpec(
    name="la_krap", title="La Krap", min_players=3, max_players=6, players_rule="L1", options=OPTIONS,
    verbs=VERBS, dealer_rule="L4", match_rule="L12", ledger="points",
    summary="Teams by a face-up card; seven tricks in which identical cards, 2s and the 5♣ cancel cards; "
            "each side scores its tricks squared, +5 per K+Q declaration.",
)


class LaKrapDeal(DealBase):
    """The state of one La Krap deal (mutable; the engine clones it before each action).

    - ``down[s]``: seat s's face-down cards (list, may repeat a card); ``team[s]``: its team
      card, face up, or None once played; ``team_cards``: the team cards as dealt (tuple).
    - ``talon``: the talon after the turn-up (tuple, top first, pushed-back jokers/5♣ inside),
      ``talon_pos``: cards drawn from it so far; ``turn_up``: the card that decided the game
      (L6); ``pushed``: jokers/5♣ turned up and put back into the talon, in order.
    - ``trump``: the trump suit or None (no-trump game); ``eff``: card → its suit (L8).
    - ``sides``: the sides (L5) as tuples of seats; ``phase``: exchange / play / done;
      ``turn``: the seat to act; ``window``: True while the trick winner may declare (L10);
      ``must_lead``: the two declared cards the next lead must come from, or None.
    - ``declared[s]``: suits seat s declared, in order; ``kq_held[s]``: declared K/Q cards still
      in its hand (a tuple; no card serves in two declarations).
    - ``trick``: ``[(seat, card), …]``; ``tricks[s]``: tricks taken; ``played``: tricks done;
      ``played_cards``: every card played, in order (public memory for computer players).
    """

    __slots__ = ("n", "dealer", "talon", "talon_pos", "turn_up", "pushed", "trump", "eff", "team_cards",
                 "sides", "down", "team", "discards", "exchanged", "phase", "turn", "window", "must_lead",
                 "declared", "kq_held", "trick", "leader", "tricks", "played", "last_trick", "last_winner",
                 "last_neutralised", "deal_points", "played_cards")

    def clone(self) -> "LaKrapDeal":
        """A copy sharing nothing mutable (tuples and the ``eff`` map are shared, never mutated)."""
        new = LaKrapDeal.__new__(LaKrapDeal)
        new.n = self.n
        new.dealer = self.dealer
        new.talon = self.talon
        new.talon_pos = self.talon_pos
        new.turn_up = self.turn_up
        new.pushed = self.pushed
        new.trump = self.trump
        new.eff = self.eff
        new.team_cards = self.team_cards
        new.sides = self.sides
        new.down = [x[:] for x in self.down]
        new.team = self.team[:]
        new.discards = [x[:] for x in self.discards]
        new.exchanged = self.exchanged[:]
        new.phase = self.phase
        new.turn = self.turn
        new.window = self.window
        new.must_lead = self.must_lead
        new.declared = [x[:] for x in self.declared]
        new.kq_held = self.kq_held[:]
        new.trick = self.trick[:]
        new.leader = self.leader
        new.tricks = self.tricks[:]
        new.played = self.played
        new.last_trick = self.last_trick
        new.last_winner = self.last_winner
        new.last_neutralised = self.last_neutralised
        new.deal_points = self.deal_points
        new.played_cards = self.played_cards[:]
        return new


    @property
    def talon_count(self) -> int:
        """Cards left in the talon."""
        return len(self.talon) - self.talon_pos

    def hand(self, seat: int) -> list[str]:
        """Seat's whole hand: face-down cards, then the team card if not yet played."""
        t = self.team[seat]
        return self.down[seat] + [t] if t is not None else self.down[seat][:]

    @property
    def hands(self) -> list[list[str]]:
        """Every seat's whole hand (face-down cards, then the team card), seat 0…n−1."""
        return [self.hand(s) for s in range(self.n)]

    @property
    def game_type(self) -> str:
        return "no_trump" if self.trump is None else "trump"


# --- registration -----------------------------------------------------------------------------

@hookimpl
def frapnet_register_games(register):
    register(SPEC)


@hookimpl
def frapnet_validate_options(spec, players, options):
    return options  # L12's target is checked by its OptionSpec


@hookimpl
def frapnet_pack(state):
    """L2: the 72-card pack."""
    return list(PACK)


# --- dealing (L4, L5, L6) ---------------------------------------------------------------------

@hookimpl
def frapnet_deal(state, deck, dealer):
    """L4: six face down, two at a time, then a team card each; L6: the turn-up decides trumps."""
    n = state.players
    d = LaKrapDeal.__new__(LaKrapDeal)
    d.n = n
    d.dealer = dealer
    down = [[] for _ in range(n)]
    for r in range(3):  # L4: two at a time, clockwise from the dealer's left, three rounds
        for i in range(n):
            k = 2 * (r * n + i)
            down[(dealer + 1 + i) % n] += deck[k:k + 2]
    team = [None] * n
    for i in range(n):
        team[(dealer + 1 + i) % n] = deck[6 * n + i]
    # L6: a joker or the 5♣ goes back into the middle of the talon and the next card is turned
    turn_up = deck[7 * n]
    talon = list(deck[7 * n + 1:])
    pushed = []
    while turn_up in JOKERS or turn_up == FIVE:
        pushed.append(turn_up)
        talon.insert(len(talon) // 2, turn_up)
        turn_up = talon.pop(0)
    d.turn_up = turn_up
    d.pushed = tuple(pushed)
    d.talon = tuple(talon)
    d.talon_pos = 0
    d.trump = turn_up[-1] if turn_up[:-1] in TRUMP_RANKS else None  # L6: "above nine"
    d.eff = _EFF_CACHE[turn_up[-1]]
    d.team_cards = tuple(team)
    d.sides = tuple(tuple(s) for s in teams_for(team))  # L5
    d.down = down
    d.team = team
    d.discards = [[] for _ in range(n)]
    d.exchanged = [False] * n
    d.phase = EXCHANGE
    d.turn = (dealer + 1) % n  # L7: starting left of the dealer
    d.window = False
    d.must_lead = None
    d.declared = [[] for _ in range(n)]
    d.kq_held = [()] * n
    d.trick = []
    d.leader = None
    d.tricks = [0] * n
    d.played = 0
    d.last_trick = None
    d.last_winner = None
    d.last_neutralised = None
    d.deal_points = None
    d.played_cards = []  # public memory for computer players: every card played, in order
    state.deal = d
    state.to_act = (d.turn,)
    return [{"type": "deal", "dealer": dealer, "deal_no": state.deal_no, "turn_up": turn_up,
             "pushed": list(pushed), "game_type": d.game_type, "trump": d.trump,
             "team_cards": list(team), "teams": [list(s) for s in d.sides]}]


# --- legal actions ----------------------------------------------------------------------------

def _exchange_actions(d, seat):
    """L7: every sub-multiset of the face-down cards of at most six cards and at most the talon."""
    down = sorted(d.down[seat], key=card_key)
    out = []
    for k in range(min(len(down), MAX_EXCHANGE, d.talon_count) + 1):
        out.extend(dict.fromkeys(combinations(down, k)))
    return [("exchange", c) for c in out]


def _declarable(d, seat):
    """L10: suits in which ``seat`` holds a K and a Q not used in an earlier declaration."""
    hand = d.hand(seat)
    used = d.kq_held[seat]
    out = []
    for s in SUITS:
        k, q = "K" + s, "Q" + s
        if hand.count(k) > used.count(k) and hand.count(q) > used.count(q):
            out.append(s)
    return out


def _playable(d, seat):
    """L8 (and L10's lead): the cards ``seat`` may play now, without repeats."""
    hand = d.hand(seat)
    trick = d.trick
    if not trick:
        if d.must_lead is not None:  # L10: the next lead comes from the declared K and Q
            return [c for c in dict.fromkeys(hand) if c in d.must_lead]
        return list(dict.fromkeys(hand))
    led = led_suit(trick, d.eff)
    if led is None:  # L8: after a led 5♣ the next card sets the suit to follow
        return list(dict.fromkeys(hand))
    eff = d.eff
    same = [c for c in dict.fromkeys(hand) if eff[c] == led]
    return same or list(dict.fromkeys(hand))


@hookimpl
def frapnet_legal_actions(state, seat):
    d = state.deal
    if seat != d.turn or d.phase == DONE:
        return []
    if d.phase == EXCHANGE:
        return _exchange_actions(d, seat)
    out = []
    if d.window:
        out.extend(("declare", s) for s in _declarable(d, seat))
    out.extend(("play", c) for c in sorted(_playable(d, seat), key=card_key))
    return out


# --- applying actions -------------------------------------------------------------------------

def _sym(card):
    return format_card(card, symbols=True)


def _phase_rule(d):
    """The rule an out-of-turn action or a verb the moment does not allow names
    (record-format.md): L7 exchange, L10 declaring (trick won, next lead not yet made), L8 play."""
    if d.phase == EXCHANGE:
        return "L7"
    if d.phase == PLAY:
        return "L10" if d.window else "L8"
    return "record"


@hookimpl
def frapnet_apply_action(state, seat, action):
    d = state.deal
    verb = action[0]
    if d.phase == DONE:
        raise RuleError("record", "the deal has ended")
    if seat != d.turn:
        raise RuleError(_phase_rule(d), f"it is seat {d.turn}'s turn ({_PHASE_EN[_phase_key(d)]}), not seat {seat}'s")
    if verb == "declare":
        events = _declare(d, seat, action[1])
    elif d.phase == EXCHANGE:
        if verb != "exchange":
            raise RuleError("L7", f"{verb!r} is not allowed now: seat {seat} is to exchange (or keep all, [])")
        events = _exchange(d, seat, action[1])
    elif verb == "play":
        events = _play(state, d, seat, action[1])
    else:
        raise RuleError(_phase_rule(d), f"{verb!r} is not allowed now ({_PHASE_EN[_phase_key(d)]})")
    state.to_act = (d.turn,) if d.turn is not None else ()
    return events


def _exchange(d, seat, discards):
    """L7: discard face-down cards (never the team card) and draw as many from the talon."""
    down = d.down[seat]
    left = down[:]
    for c in discards:
        if c in left:
            left.remove(c)  # L7: the face-down copy first
        elif d.team[seat] == c:
            raise RuleError("L7", f"the team card {_sym(c)} cannot be exchanged (only face-down cards)")
        else:
            raise RuleError("L7", f"seat {seat} holds no face-down {_sym(c)} to exchange")
    k = len(discards)
    if k > MAX_EXCHANGE:
        raise RuleError("L7", f"at most {MAX_EXCHANGE} cards may be exchanged, not {k}")
    if k > d.talon_count:
        raise RuleError("L7", f"cannot exchange {k} cards: the talon holds only {d.talon_count}")
    left.extend(d.talon[d.talon_pos:d.talon_pos + k])
    d.talon_pos += k
    d.down[seat] = left
    d.discards[seat].extend(discards)
    d.exchanged[seat] = True
    events = [{"type": "exchange", "seat": seat, "count": k, "talon": d.talon_count}]
    nxt = (seat + 1) % d.n
    if nxt == (d.dealer + 1) % d.n:  # everyone has exchanged: L8, left of the dealer leads
        d.phase = PLAY
        d.leader = nxt
        events.append({"type": "play_starts", "leader": nxt})
    d.turn = nxt
    return events


def _declare(d, seat, suit):
    """L10: after winning a trick, before leading: a K and a Q of one suit, +5 for the side."""
    if d.phase != PLAY or not d.window:
        if d.phase == EXCHANGE:
            why = "no declaration before the first trick"
        elif d.must_lead is not None:
            why = "at most one declaration before each lead"
        elif d.trick:
            why = "a declaration is made only before leading, after winning a trick"
        else:
            why = "no declaration before the first trick"
        raise RuleError("L10", why)
    if suit not in _declarable(d, seat):
        raise RuleError("L10", f"seat {seat} holds no K and Q of {SUIT_SYMBOLS[suit]} not yet declared")
    k, q = "K" + suit, "Q" + suit
    d.kq_held[seat] = d.kq_held[seat] + (k, q)
    d.declared[seat].append(suit)
    d.window = False
    d.must_lead = (k, q)
    return [{"type": "declare", "seat": seat, "suit": suit, "cards": [k, q], "points": DECLARATION_POINTS}]


def _remove_from_hand(d, seat, card):
    """Take ``card`` from the hand: a face-down copy first, else the team card (L7)."""
    down = d.down[seat]
    if card in down:
        down.remove(card)
    elif d.team[seat] == card:
        d.team[seat] = None
    else:
        raise RuleError("L8", f"seat {seat} does not hold {_sym(card)}")
    held = d.kq_held[seat]
    if card in held:  # a declared copy leaves the hand first (L10)
        i = held.index(card)
        d.kq_held[seat] = held[:i] + held[i + 1:]


def _play(state, d, seat, card):
    hand = d.hand(seat)
    if card not in hand:
        raise RuleError("L8", f"seat {seat} does not hold {_sym(card)}")
    trick = d.trick
    if not trick:
        if d.must_lead is not None and card not in d.must_lead:
            a, b = d.must_lead
            raise RuleError("L10", f"after declaring, seat {seat} must lead {_sym(a)} or {_sym(b)}")
    else:
        led = led_suit(trick, d.eff)
        if led is not None and d.eff[card] != led and any(d.eff[c] == led for c in hand):
            raise RuleError("L8", f"must follow suit {SUIT_SYMBOLS[led]}")
    _remove_from_hand(d, seat, card)
    d.window = False
    d.must_lead = None
    trick.append((seat, card))
    d.played_cards.append(card)
    events = [{"type": "play", "seat": seat, "card": card}]
    if len(trick) < d.n:
        d.turn = (seat + 1) % d.n
        return events
    winner = state.rules.trick_winner(state, trick)  # L9 (a hook, so house rules may change it)
    dead = neutralised(trick, d.eff)
    d.tricks[winner] += 1
    d.played += 1
    d.last_trick = [list(t) for t in trick]
    d.last_winner = winner
    d.last_neutralised = [trick[i][0] for i in range(len(trick)) if dead[i]]
    d.trick = []
    events.append({"type": "trick", "winner": winner, "cards": [list(t) for t in trick],
                   "neutralised": d.last_neutralised[:], "number": d.played})
    if d.played >= TRICKS:
        d.phase = DONE
        d.turn = None
        state.deal_over = True
    else:
        d.leader = winner
        d.turn = winner
        d.window = True  # L10: the winner may declare before leading
    return events


# --- trick-winning (L9, L11) ------------------------------------------------------------------

@hookimpl
def frapnet_trick_winner(state, trick):
    """L9: among the cards still live after L11, the highest trump wins; else the highest card of
    the suit led; if neither is live, the leader takes the trick."""
    d = state.deal
    eff = d.eff
    dead = neutralised(trick, eff)
    trump = d.trump
    led = led_suit(trick, eff)
    best = None
    best_key = -1
    for i, (seat, card) in enumerate(trick):
        if dead[i]:
            continue
        s = eff[card]
        if s == trump:
            key = 100 + _RANK[card]
        elif s == led:
            key = _RANK[card]
        else:
            continue
        if key > best_key:
            best, best_key = seat, key
    return trick[0][0] if best is None else best


# computer players (issue #8): imported last, as they use this module's names
from frapnet_la_krap.bots import frapnet_candidates, frapnet_policy, frapnet_sample_deal  # noqa: E402,F401
