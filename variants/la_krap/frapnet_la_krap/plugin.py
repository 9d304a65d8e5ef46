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
"""
from __future__ import annotations

from itertools import combinations

from frapnet.cards import card_text, card_key, format_card, SUIT_SYMBOLS, SUITS
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, ARG_SUIT, GameSpec, OptionSpec
from frapnet.errors import RuleError
from frapnet.hookspecs import hookimpl

from frapnet_la_krap import __version__
from frapnet.engine.state import DealBase

PLUGIN_NAME = "la_krap"
FRAPNET_API = 1

__all__ = ["SPEC", "PACK", "LaKrapDeal", "build_deck", "neutralised", "teams_for", "side_scores",
           "PLUGIN_NAME", "FRAPNET_API", "__version__"]

HAND_DOWN = 6      # L4: six cards face down
TRICKS = 7         # L8: seven tricks
MAX_EXCHANGE = 6   # L7: up to six face-down cards
DECLARATION_POINTS = 5  # L10

# Deal phases (the rule an out-of-turn action or a wrong verb names, record-format.md)
EXCHANGE, PLAY, DONE = "exchange", "play", "done"
DECLARING = "declaring"  # reported only: the moment between winning a trick and leading (L10)

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

# L2: two packs of 7–A, one red joker, two black jokers, a 2 of each suit, the 5♣ (72 cards).
PACK = tuple(sorted([r + s for s in SUITS for r in ("7", "8", "9", "10", "J", "Q", "K", "A")] * 2
                    + ["RJ", "BJ", "BJ"] + ["2" + s for s in SUITS] + ["5C"], key=card_key))
assert len(PACK) == 72

JOKERS = ("RJ", "BJ")
FIVE = "5C"
# L3: in each suit, low to high 2, 7, 8, 9, J, Q, K, 10, A; then BJ and RJ in the turn-up suit.
RANK_ORDER = {"2": 0, "7": 1, "8": 2, "9": 3, "J": 4, "Q": 5, "K": 6, "10": 7, "A": 8, "BJ": 9, "RJ": 10}
_RANK = {c: RANK_ORDER[c if c in JOKERS else c[:-1]] for c in set(PACK) if c != FIVE}
_RANK[FIVE] = -1  # L11c: the 5♣ has no rank and never wins
TRUMP_RANKS = frozenset(("J", "Q", "K", "10", "A"))  # L6: "above nine"


def effective_suits(turn_up_suit: str) -> dict:
    """Card → the suit it belongs to for following (L8), L11b and winning (L9).

    Jokers belong to the turn-up suit (L6); the 5♣ counts as a club (L8); every other card to its
    own suit. ``turn_up_suit`` is a suit letter.
    """
    eff = {c: c[-1] for c in PACK}
    eff["RJ"] = eff["BJ"] = turn_up_suit
    return eff


_EFF_CACHE = {s: effective_suits(s) for s in SUITS}


def neutralised(trick, eff) -> list[bool]:
    """L11: which cards of ``trick`` (``[(seat, card), …]`` in playing order) are neutralised.

    Applied card by card in playing order. A card once neutralised stays so. A card played after
    a 5♣ that was not led is neutralised as it is played (L11c) and has no effect of its own.
    Otherwise: a) a card identical to an earlier one (same string: suit and rank, or the two
    black jokers) neutralises both, even if the earlier one was already neutralised; b) a 2
    neutralises every earlier card of its suit (``eff``: jokers count as the turn-up suit) and
    stays live; c) the 5♣ neutralises itself and every earlier card but the one played just
    before it (led, only itself). Returns a list of bools, True = neutralised.
    """
    k = len(trick)
    dead = [False] * k
    five_at = None
    for i in range(k):
        card = trick[i][1]
        if five_at is not None and five_at > 0:  # L11c: after a 5♣ that was not led
            dead[i] = True
            continue
        if card == FIVE:  # L11c
            dead[i] = True
            five_at = i
            for j in range(i - 1):
                dead[j] = True
            continue
        for j in range(i):  # L11a
            if trick[j][1] == card:
                dead[j] = dead[i] = True
        if card[0] == "2":  # L11b
            suit = card[-1]
            for j in range(i):
                if eff[trick[j][1]] == suit:
                    dead[j] = True
    return dead


def led_suit(trick, eff) -> str | None:
    """L8/L9: the suit led — of the first card, or, if the 5♣ was led, of the next card (None
    while the 5♣ stands alone)."""
    first = trick[0][1]
    if first == FIVE:
        return eff[trick[1][1]] if len(trick) > 1 else None
    return eff[first]


def teams_for(team_cards) -> list[list[int]]:
    """L5: the sides for the team cards (``team_cards[seat]``), as lists of seats ordered by
    their lowest seat.

    Red (♥ ♦), black (♠ ♣, the 5♣ included) and joker teams; everyone plays alone if no team
    would have two players or all players would be on one team; otherwise each team plays
    together and a team of one plays alone.
    """
    groups: dict[str, list[int]] = {}
    for seat, c in enumerate(team_cards):
        colour = "joker" if c in JOKERS else "red" if c[-1] in "HD" else "black"
        groups.setdefault(colour, []).append(seat)
    n = len(team_cards)
    if len(groups) == 1 or all(len(g) < 2 for g in groups.values()):
        return [[s] for s in range(n)]
    return sorted(groups.values(), key=lambda g: g[0])


def side_scores(sides, tricks, declarations) -> list[int]:
    """L12: per seat, its side's score: t² for the side's t tricks plus 5 per declaration made
    by any member (every member is credited the side's score). ``tricks`` and ``declarations``
    are per seat (counts)."""
    out = [0] * len(tricks)
    for side in sides:
        t = sum(tricks[s] for s in side)
        score = t * t + DECLARATION_POINTS * sum(declarations[s] for s in side)
        for s in side:
            out[s] = score
    return out


def build_deck(players: int, dealer: int, down, team_cards, turn_up: str, talon_top=()) -> list[str]:
    """A deck (top first) that deals as given under L4, for fixed-deck tests and examples.

    ``down[seat]`` are the six face-down cards of each seat, ``team_cards[seat]`` its team card,
    ``turn_up`` the card at ``deck[7n]``, ``talon_top`` the next talon cards; the rest of the
    72-card pack follows in pack order. Raises ValueError if the cards are not part of the pack.
    """
    n = players
    deck = [None] * (7 * n)
    for r in range(3):
        for i in range(n):
            seat = (dealer + 1 + i) % n
            k = 2 * (r * n + i)
            deck[k], deck[k + 1] = down[seat][2 * r], down[seat][2 * r + 1]
    for i in range(n):
        deck[6 * n + i] = team_cards[(dealer + 1 + i) % n]
    deck.append(turn_up)
    deck.extend(talon_top)
    rest = list(PACK)
    for c in deck:
        try:
            rest.remove(c)
        except ValueError:
            raise ValueError(f"{c!r} is not (or no longer) in the 72-card pack") from None
    return deck + rest


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


def _faces(lang):
    """``(_sym, _syms)`` naming cards in ``lang`` (Russian В Д К Т for J Q K A; jokers told apart)."""
    def one(card):
        return card_text(card, lang)
    return one, lambda cards: " ".join(one(c) for c in cards)


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


# --- scoring (L12) ----------------------------------------------------------------------------

@hookimpl
def frapnet_settle(state):
    """L12: each side scores t² + 5 per declaration; every member is credited; the match ends
    after the deal in which some player reaches ``target``."""
    d = state.deal
    pts = side_scores(d.sides, d.tricks, [len(x) for x in d.declared])
    d.deal_points = pts
    b = state.balances
    for s in range(d.n):
        b[s] += pts[s]
    if max(b) >= state.options["target"]:
        state.match = {**state.match, "over": True}
    return _report(state, d)


def winners(state) -> list[int]:
    """L12: the seats with the highest score (equal scores share the win)."""
    top = max(state.balances)
    return [s for s, p in enumerate(state.balances) if p == top]


def _report(state, d):
    """The deal's ``replay --json`` entry: the rule book's keys (teams, game_type, trump, tricks,
    deal_points) plus dealer, outcome, declarations (suits per seat), points_after and, when the
    match has ended, match_over and winners. It names no card: it stays on show in the next
    deal's views (``last_report``), where old cards would only confuse."""
    finished = d.deal_points is not None
    r = {
        "dealer": d.dealer, "outcome": "played" if finished else "unfinished",
        "teams": [list(s) for s in d.sides], "game_type": d.game_type, "trump": d.trump,
        "tricks": d.tricks[:], "declarations": [x[:] for x in d.declared],
        "deal_points": d.deal_points[:] if finished else None,
        "points_after": state.balances[:],
    }
    if finished and state.match.get("over"):
        r["match_over"] = True
        r["winners"] = winners(state)
    return r


@hookimpl
def frapnet_deal_report(state):
    return _report(state, state.deal)


@hookimpl
def frapnet_match_report(state):
    out = {"points": state.balances[:]}
    if state.match.get("over"):
        out["winners"] = winners(state)
    return out


# --- views, labels, event texts ---------------------------------------------------------------

_PHASE_EN = {EXCHANGE: "exchange", PLAY: "play", DECLARING: "declaring or leading", DONE: "deal over"}
_PHASE_RU = {EXCHANGE: "обмен", PLAY: "розыгрыш", DECLARING: "объявление или ход", DONE: "сдача окончена"}


def _phase_key(d):
    return DECLARING if d.phase == PLAY and d.window else d.phase


def _side_of(d, seat):
    for side in d.sides:
        if seat in side:
            return list(side)
    return [seat]


@hookimpl
def frapnet_view(state, seat, lang):
    """Public: team cards, teams, turn-up, talon count, tricks, declarations; own hand only."""
    d = state.deal
    n = d.n
    seats = []
    for s in range(n):
        decl = d.declared[s]
        seats.append({
            "seat": s,
            "declaration": " ".join("K" + SUIT_SYMBOLS[x] + "Q" + SUIT_SYMBOLS[x] for x in decl) or None,
            "declarations": decl[:], "tricks": d.tricks[s], "cards": len(d.down[s]) + (d.team[s] is not None),
            "team_card": d.team[s], "dealt_team_card": d.team_cards[s], "side": _side_of(d, s),
            "exchanged": d.exchanged[s], "in_play": True, "looked": True,
        })
    phases = _PHASE_RU if lang == "ru" else _PHASE_EN
    key = _phase_key(d)
    mine = seat is not None
    return {
        "phase": key, "phase_label": phases[key], "game_type": d.game_type, "trump": d.trump,
        "turn_up": d.turn_up, "pushed": list(d.pushed), "talon": d.talon_count,
        "hand": sorted(d.hand(seat), key=card_key) if mine else None,
        "face_down": sorted(d.down[seat], key=card_key) if mine else None,
        "team_card": d.team[seat] if mine else None,
        "hand_count": len(d.down[seat]) + (d.team[seat] is not None) if mine else None,
        "discards": d.discards[seat][:] if mine else [],
        "looked": mine,
        "teams": [list(s) for s in d.sides], "seats": seats,
        "trick": [list(t) for t in d.trick], "neutralised": _neutral_seats(d),
        "leader": d.leader, "last_trick": d.last_trick, "last_winner": d.last_winner,
        "last_neutralised": d.last_neutralised, "tricks_played": d.played, "tricks_total": TRICKS,
        "must_lead": list(d.must_lead) if d.must_lead else None, "turn": d.turn,
        "deal_points": d.deal_points[:] if d.deal_points is not None else None,
    }


def _neutral_seats(d):
    if not d.trick:
        return []
    dead = neutralised(d.trick, d.eff)
    return [d.trick[i][0] for i in range(len(d.trick)) if dead[i]]


_SUIT_RU = {"S": "пики", "H": "червы", "D": "бубны", "C": "трефы"}
_LABELS = {
    "en": {"keep": "Keep all cards", "exchange": "Exchange {cards}", "declare": "Declare K+Q {suit} (+5)",
           "play": "Play {card}"},
    "ru": {"keep": "Оставить все карты", "exchange": "Обменять {cards}",
           "declare": "Объявить короля и даму {suit} (+5)", "play": "Ход {card}"},
}


@hookimpl
def frapnet_action_label(state, seat, action, lang):
    _sym, _syms = _faces(lang)
    labels = _LABELS.get(lang, _LABELS["en"])
    verb = action[0]
    if verb == "exchange":
        if not action[1]:
            return labels["keep"]
        return labels["exchange"].format(cards=" ".join(_sym(c) for c in action[1]))
    if verb == "declare":
        return labels["declare"].format(suit=SUIT_SYMBOLS[action[1]])
    return labels["play"].format(card=_sym(action[1]))


_EVENTS = {
    "en": {
        "deal": "{dealer} deals; turn-up {turn_up}: {kind}; teams {teams}",
        "trump": "trumps {suit}", "no_trump": "no trumps", "pushed": " ({cards} put back into the talon)",
        "alone": "everyone plays alone",
        "exchange": "{who} exchanges {count}", "keep": "{who} keeps all cards",
        "play_starts": "Play begins: {who} leads", "declare": "{who} declares K+Q {suit} (+5)",
        "play": "{who} plays {card}", "trick": "{who} takes trick {number} with {card}",
        "trick_leader": "{who} takes trick {number} as the leader: no live card could win it",
        "neutral": "; neutralised: {cards}",
        "deal_end": "Deal over: points {points}", "match_over": "; match over, won by {who}",
    },
    "ru": {
        "deal": "Сдаёт {dealer}; открыта {turn_up}: {kind}; команды {teams}",
        "trump": "козыри {suit}", "no_trump": "без козырей", "pushed": " ({cards} возвращены в колоду)",
        "alone": "каждый играет сам за себя",
        "exchange": "{who} меняет {count}", "keep": "{who} оставляет все карты",
        "play_starts": "Розыгрыш: ходит {who}", "declare": "{who} объявляет короля и даму {suit} (+5)",
        "play": "{who} ходит {card}", "trick": "{who} берёт взятку {number} картой {card}",
        "trick_leader": "{who} берёт взятку {number} как первый ходивший: живых карт, способных взять, нет",
        "neutral": "; нейтрализованы: {cards}",
        "deal_end": "Сдача окончена: очки {points}", "match_over": "; партия окончена, победа: {who}",
    },
}


@hookimpl
def frapnet_describe_event(state, event, names, lang):
    """La Krap's events in plain words (English or Russian), e.g. "Olga declares K+Q ♥ (+5)"."""
    _sym, _syms = _faces(lang)
    t = _EVENTS.get(lang, _EVENTS["en"])
    kind = event.get("type")

    def name(s):
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    who = name(event.get("seat"))
    if kind == "deal":
        kind_text = (t["trump"].format(suit=SUIT_SYMBOLS[event["trump"]]) if event.get("trump")
                     else t["no_trump"])
        teams = event["teams"]
        teams_text = (t["alone"] if all(len(x) == 1 for x in teams)
                      else " / ".join(", ".join(name(s) for s in side) for side in teams))
        text = t["deal"].format(dealer=name(event["dealer"]), turn_up=_sym(event["turn_up"]), kind=kind_text,
                                teams=teams_text)
        if event.get("pushed"):
            text += t["pushed"].format(cards=" ".join(_sym(c) for c in event["pushed"]))
        return text
    if kind == "exchange":
        return (t["exchange"] if event["count"] else t["keep"]).format(who=who, count=event["count"])
    if kind == "play_starts":
        return t["play_starts"].format(who=name(event["leader"]))
    if kind == "declare":
        return t["declare"].format(who=who, suit=SUIT_SYMBOLS[event["suit"]])
    if kind == "play":
        return t["play"].format(who=who, card=_sym(event["card"]))
    if kind == "trick":
        winner = event["winner"]
        neutral = set(event.get("neutralised") or ())
        live = [c for s, c in event["cards"] if s == winner and s not in neutral]
        if live:
            text = t["trick"].format(who=name(winner), number=event["number"], card=_sym(live[0]))
        else:
            text = t["trick_leader"].format(who=name(winner), number=event["number"])
        if neutral:
            text += t["neutral"].format(cards=" ".join(_sym(c) for s, c in event["cards"] if s in neutral))
        return text
    if kind == "deal_end":
        r = event["report"]
        pts = ", ".join(f"{name(s)} {p}" for s, p in enumerate(r.get("deal_points") or ()))
        text = t["deal_end"].format(points=pts)
        if r.get("match_over"):
            text += t["match_over"].format(who=", ".join(name(s) for s in r["winners"]))
        return text
    return None


# --- what the screen shows (frapnet_view_ui; design.md principles 3 and 10) ----------------------

TEAM_MARKS = {"red": "♥", "black": "♠", "joker": "★"}
NEUTRAL_MARK = "×"
TEAM_CARD_MARK = "◆"

_UI = {
    "en": {"title": "La Krap", "points": "points", "team": "team card", "declared": "declared",
           "goal": "Win tricks with your team: each side scores its tricks squared, +5 per K+Q declared; "
                   "the match ends when someone reaches {target} points (L5, L12).",
           "special": ["Jokers are the two top trumps of the turn-up suit, the red joker above the black (L3).",
                       "A card identical to an earlier one neutralises both; a two neutralises every earlier card of "
                       "its suit; the five of clubs neutralises itself and every earlier card but the one just "
                       "before it (L11)."],
           "legend": ["♥ red team, ♠ black team, ★ joker team (team cards, L5); no mark: playing alone.",
                      "× after a card in the trick: neutralised (L11). ◆ on a card of your hand: your team card."],
           "tricks": "tricks", "deal_points": "deal points"},
    "ru": {"title": "Ла крап", "points": "очки", "team": "карта команды", "declared": "объявлено",
           "goal": "Берите взятки командой: каждая сторона получает квадрат своих взяток и +5 за объявленных "
                   "короля и даму; партия кончается, когда кто-то наберёт {target} очков (L5, L12).",
           "special": ["Джокеры — два старших козыря масти вскрышки: красный выше чёрного (L3).",
                       "Одинаковая карта нейтрализует обе; двойка нейтрализует все прежние карты своей масти; "
                       "пятёрка треф нейтрализует себя и все прежние карты, кроме сыгранной прямо перед ней (L11)."],
           "legend": ["♥ красная команда, ♠ чёрная, ★ команда джокеров (карты команды, L5); без знака — играет один.",
                      "× после карты во взятке: нейтрализована (L11). ◆ на карте вашей руки: ваша карта команды."],
           "tricks": "взятки", "deal_points": "очки за сдачу"},
}


def team_colour(card) -> str:
    """L5: ``"red"``, ``"black"`` (the 5♣ included) or ``"joker"`` for a team card."""
    return "joker" if card in JOKERS else "red" if card[-1] in "HD" else "black"


@hookimpl
def frapnet_view_ui(state, seat, lang):
    """La Krap's words for the screen (en/ru): the goal and special cards (jokers L3, L11; named in
    words, so no text looks like a card a seat might not see), team
    markers next to names (L5; none for a lone player), your team card marked on your hand,
    neutralised cards marked in the trick (L11), the team card and declarations per seat, and the
    settlement's columns (tricks, deal points)."""
    t = _UI.get(lang, _UI["en"])
    d = state.deal
    out = {"title": t["title"], "goal": t["goal"].format(target=state.options["target"]),
           "special_cards": list(t["special"]), "legend": list(t["legend"]),
           "ledger": {"title": t["points"], "signed": False}, "pot": None,
           "keys": {"declare": "k", "exchange": "e", "play": "y"}, "columns": [t["team"], t["declared"]],
           # the table-rules line (F27) in the seat's language: L12's target
           "options": [{"ru": ["партия до", f"{state.options['target']} очков"]}.get(
               lang, ["match to", f"{state.options['target']} points"])]}
    if d is not None:
        _sym, _syms = _faces(lang)
        marks = [""] * d.n
        for side in d.sides:
            if len(side) > 1:
                for s in side:
                    marks[s] = TEAM_MARKS[team_colour(d.team_cards[s])]
        out["marks"] = marks
        out["cells"] = [[_sym(d.team_cards[s]),
                         " ".join(_sym("K" + x) + _sym("Q" + x) for x in d.declared[s])]  # ru: К♣Д♣
                        for s in range(d.n)]
        if d.trick:
            out["trick_marks"] = [NEUTRAL_MARK if x else "" for x in neutralised(d.trick, d.eff)]
        if d.last_trick:
            dead = set(d.last_neutralised or ())
            out["last_trick_marks"] = [NEUTRAL_MARK if s in dead else "" for s, _c in d.last_trick]
    if state.reports:
        r = state.reports[-1]
        n = state.players
        dp = r.get("deal_points") or [0] * n
        out["report"] = {"columns": [{"title": t["tricks"], "cells": [str(x) for x in r.get("tricks") or [0] * n]},
                                     {"title": t["deal_points"], "cells": [f"+{x}" for x in dp]}], "notes": []}
    if seat is not None:
        out.update(frapnet_seat_view_ui(state, seat, lang))
    return out


@hookimpl
def frapnet_seat_view_ui(state, seat, lang):
    """``seat``'s own field of :func:`frapnet_view_ui`: its team card marked on its hand (L5)."""
    d = state.deal
    if d is not None and d.team[seat] is not None:
        return {"card_marks": {d.team[seat]: TEAM_CARD_MARK}}
    return {}


# --- statistics (`frapnet stats`) ---------------------------------------------------------------

@hookimpl
def frapnet_deal_stats(state, report):
    """Per seat of a settled deal: ``deals_won`` (on the side that scored the most points, L12,
    if it scored any) and ``declarations`` (suits declared, L12's +5 each)."""
    n = state.players
    pts = report.get("deal_points") or [0] * n
    best = max(pts) if pts else 0
    return {"deals_won": [1 if best > 0 and pts[s] == best else 0 for s in range(n)],
            "declarations": [len(d) for d in (report.get("declarations") or [[]] * n)]}


# computer players (issue #8): imported last, as they use this module's names
from frapnet_la_krap.bots import frapnet_candidates, frapnet_policy, frapnet_sample_deal  # noqa: E402,F401
