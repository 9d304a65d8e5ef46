"""Frap's phases before the play, one handler a phase (``frapnet_apply_action`` in
:mod:`frapnet.games.frap` dispatches to them): bidding frap or blind frap (F9, F10) and passing
out (F12, F13), the whist round (F11, F14; F26's must-whist), buying (F15) and the blind
frapper's turn-up (F16), cutting in and its discard (F17), and the start of the play (F19, F23's
P). Each refusal names its rule ID."""
from __future__ import annotations

from frapnet.errors import RuleError
from frapnet.games.frap_base import BUY, CUT, CUT_DISCARD, DONE, PLAY, WHIST, _collect, _sym

def _bid(state, d, seat, action):
    verb = action[0]
    if verb == "blind_frap" and d.looked[seat]:
        raise RuleError("F9", "a player who has looked at their cards can no longer declare blind frap")
    n = d.n
    if verb == "pass":
        d.declared[seat] = "pass"
        d.queue.pop(0)
        events = [{"type": "bid", "seat": seat, "bid": "pass", "round": d.round}]
        if d.queue:
            d.turn = d.queue[0]
            return events
        return events + _passed_out(state, d)
    # F10/F11: frap or blind frap; the whist round starts from the frapper's left
    d.frapper = seat
    d.blind = verb == "blind_frap"
    d.frap_round = d.round
    if d.blind:
        d.blind_turn_up = d.turn_up
    d.declared[seat] = verb
    d.phase = WHIST
    d.queue = [(seat + i) % n for i in range(1, n)]
    d.turn = d.queue[0]
    return [{"type": "bid", "seat": seat, "bid": verb, "round": d.round}]


def _passed_out(state, d):
    """F12/F13: everybody passed in this bidding round."""
    ante = state.options["ante"]
    _collect(state, ante)  # a top-up: one ante per player, whatever the pot holds (F12 decision)
    if d.round >= d.max_rounds:  # F13: thrown in; the pot carries over whole
        d.phase = DONE
        d.turn = None
        d.outcome = "thrown_in"
        state.deal_over = True
        return [{"type": "thrown_in", "top_up": ante, "pot": state.pot}]
    dead = d.turn_up
    d.dead_turn_ups.append(dead)
    d.turn_up = d.deck[d.talon_pos]
    d.talon_pos += 1
    d.trump = d.turn_up[-1]
    d.round += 1
    d.declared = [None] * d.n
    d.queue = [(d.dealer + 1 + i) % d.n for i in range(d.n)]
    d.turn = d.queue[0]
    return [{"type": "pass_out", "round": d.round - 1, "top_up": ante, "pot": state.pot, "dead": dead,
             "turn_up": d.turn_up}]


def _whist(state, d, seat, action):
    verb = action[0]
    if verb == "pass" and d.must_whist:
        raise RuleError("F26", "five-card Frap: after a frap every other player must whist")
    d.queue.pop(0)
    if verb == "whist":
        d.whisters.append(seat)
        d.declared[seat] = "whist"
    else:
        d.passers.append(seat)
        d.declared[seat] = "pass"
    events = [{"type": "bid", "seat": seat, "bid": verb, "round": d.round}]
    if d.queue:
        d.turn = d.queue[0]
        return events
    if not d.whisters:  # F14: the frapper takes the whole pot without play
        amount = state.pot
        state.balances[d.frapper] += amount
        state.pot = 0
        d.phase = DONE
        d.turn = None
        d.outcome = "no_whist"
        state.deal_over = True
        return events + [{"type": "no_whist", "seat": d.frapper, "amount": amount}]
    # F15: participants buy clockwise from the dealer's left, the dealer last
    parts = set(d.whisters)
    parts.add(d.frapper)
    d.phase = BUY
    d.queue = [s for s in ((d.dealer + 1 + i) % d.n for i in range(d.n)) if s in parts]
    return events + _next_buyer(state, d)


def _has_buy_choice(d, seat):
    return d.talon > 0 or (seat == d.frapper and d.blind and not d.took_trump and d.turn_up is not None)


def _next_buyer(state, d):
    """F15: the next participant with a choice buys; then cut-in (F17) or play (F19)."""
    while d.queue and not _has_buy_choice(d, d.queue[0]):
        d.queue.pop(0)  # F15: nothing to choose, the turn is skipped
    if d.queue:
        d.turn = d.queue[0]
        return []
    return _start_cut(state, d)


def _buy(state, d, seat, action):
    discards = action[1]
    hand = d.hands[seat]
    for c in discards:
        if c not in hand:
            raise RuleError("F15", f"seat {seat} does not hold {_sym(c)}")
    if len(set(discards)) != len(discards):
        raise RuleError("F15", "the same card is named twice")
    if len(discards) > d.talon:
        raise RuleError("F15", f"cannot discard {len(discards)} cards: the talon holds only {d.talon}")
    for c in discards:
        hand.remove(c)
    d.discards[seat].extend(discards)
    k = len(discards)
    hand.extend(d.deck[d.talon_pos:d.talon_pos + k])
    d.talon_pos += k
    d.bought[seat] = True
    d.queue.pop(0)
    return [{"type": "buy", "seat": seat, "count": k, "talon": d.talon}] + _next_buyer(state, d)


def _take_trump(state, d, seat, action):
    if seat != d.frapper or not d.blind:
        raise RuleError("F16", "only the blind frapper may take the turn-up when buying")
    if d.took_trump or d.turn_up is None:
        raise RuleError("F16", "the turn-up is no longer to be had")
    card = action[1]
    hand = d.hands[seat]
    if card != d.turn_up and card not in hand:
        raise RuleError("F16", f"seat {seat} holds no {_sym(card)} to discard for the turn-up")
    turn_up = d.turn_up
    if card != turn_up:
        hand.remove(card)
        hand.append(turn_up)
    d.discards[seat].append(card)
    d.turn_up = None
    d.took_trump = True
    events = [{"type": "take_trump", "seat": seat, "turn_up": turn_up}]
    if d.talon == 0:  # nothing left to buy: the turn ends (F15)
        d.queue.pop(0)
        events.extend(_next_buyer(state, d))
    return events


def _cut_can_supply(d):
    return d.talon >= 5 or (d.turn_up is not None and d.talon >= 4)


def _start_cut(state, d):
    """F17: after buying, whist-round passers may cut in, clockwise from the dealer's left."""
    if state.options["cut_in"] and d.passers:
        passers = set(d.passers)
        d.queue = [s for s in ((d.dealer + 1 + i) % d.n for i in range(d.n)) if s in passers]
        d.phase = CUT
        return _next_cutter(state, d)
    return _start_play(state, d)


def _next_cutter(state, d):
    if d.queue and _cut_can_supply(d):
        d.turn = d.queue[0]
        return []
    d.queue = []  # F17: once the talon cannot supply a cut-in, nobody else is asked
    return _start_play(state, d)


def _cut(state, d, seat, action):
    verb = action[0]
    d.queue.pop(0)
    if verb == "decline":
        d.declared[seat] = "pass"
        return [{"type": "decline", "seat": seat}] + _next_cutter(state, d)
    if verb == "cut_in":
        if d.talon < 5:
            raise RuleError("F17", f"cut_in needs five talon cards; the talon holds {d.talon}")
        new = list(d.deck[d.talon_pos:d.talon_pos + 5])
        d.talon_pos += 5
        turn_up = None
    else:
        if d.turn_up is None:
            raise RuleError("F17", "the turn-up is no longer there to cut in with")
        if d.talon < 4:
            raise RuleError("F17", f"cut_in_trump needs four talon cards; the talon holds {d.talon}")
        turn_up = d.turn_up
        new = [turn_up] + list(d.deck[d.talon_pos:d.talon_pos + 4])
        d.talon_pos += 4
        d.turn_up = None
    d.thrown[seat] = d.hands[seat]
    d.hands[seat] = new
    d.cut_ins.append(seat)
    d.declared[seat] = "cut_in"
    d.phase = CUT_DISCARD
    d.turn = seat
    return [{"type": "cut_in", "seat": seat, "turn_up": turn_up, "talon": d.talon}]


def _cut_discard(state, d, seat, action):
    card = action[1]
    hand = d.hands[seat]
    if card not in hand:
        raise RuleError("F17", f"seat {seat} does not hold {_sym(card)}")
    hand.remove(card)
    d.discards[seat].append(card)
    d.phase = CUT
    return [{"type": "discard", "seat": seat}] + _next_cutter(state, d)


def _start_play(state, d):
    """F19: the last cut-in player leads, else the frapper; F23: P is the pot now."""
    players = set(d.whisters) | set(d.cut_ins)
    players.add(d.frapper)
    d.in_play = tuple(s for s in range(d.n) if s in players)
    d.leader = d.cut_ins[-1] if d.cut_ins else d.frapper
    d.turn = d.leader
    d.phase = PLAY
    d.P = state.pot
    d.queue = []
    return [{"type": "play_starts", "leader": d.leader, "players": list(d.in_play), "pot": d.P}]
