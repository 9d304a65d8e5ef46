"""Lanterns — a throwaway game plugin for tests only (issue #10: "a truly thin client").

Nothing in frapnet/tui knows this game: its verbs (``hum``, ``wager N``, ``trade [cards]``,
``hang card``), its words and its screen fields all come from this plugin through the view
(``frapnet_view_ui``). tests/test_tui_tmux.py plays it in the terminal client.

Rules (numbered T1–T5 so errors can name them):
- T1: 2–4 players; a 16-card pack (J, Q, K, A of each suit); three cards each; the rest is the
  talon. The deal passes clockwise.
- T2: in turn, from the dealer's left, each player hums (``hum``) or wagers 1–3 (``wager N``).
- T3: in turn, each player trades ``trade [cards]`` at most one card with the talon (``[]`` keeps).
- T4: three tricks (``hang card``); the dealer's left leads; follow suit if able; the highest card of
  the suit led wins.
- T5: each trick scores a lantern; a player who wagered N and took at least N tricks scores N more.
"""
from __future__ import annotations

from frapnet.cards import card_key, card_text, rank_value
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, ARG_INT, GameSpec
from frapnet.engine.state import DealBase
from frapnet.errors import RuleError
from frapnet.hookspecs import hookimpl

PLUGIN_NAME = "toy_lanterns"
FRAPNET_API = 1

PACK = [r + s for s in "SHDC" for r in ("J", "Q", "K", "A")]
SPEC = GameSpec(name="lanterns", title="Lanterns", min_players=2, max_players=4, players_rule="T1",
                verbs={"hum": None, "wager": ARG_INT, "trade": ARG_CARDS, "hang": ARG_CARD},
                dealer_rule="T1", ledger="points", summary="(test game)")


class LanternDeal(DealBase):
    __slots__ = ("n", "hands", "talon", "phase", "turn", "wagers", "trick", "tricks", "left", "last_trick")

    def clone(self):
        new = LanternDeal.__new__(LanternDeal)
        new.n, new.talon, new.phase, new.turn, new.left = self.n, self.talon, self.phase, self.turn, self.left
        new.hands = [h[:] for h in self.hands]
        new.wagers, new.trick, new.tricks = self.wagers[:], self.trick[:], self.tricks[:]
        new.last_trick = self.last_trick
        return new


@hookimpl
def frapnet_register_games(register):
    register(SPEC)


@hookimpl
def frapnet_pack(state):
    return list(PACK)


@hookimpl
def frapnet_deal(state, deck, dealer):
    n = state.players
    d = LanternDeal.__new__(LanternDeal)
    d.n = n
    d.hands = [list(deck[3 * s:3 * s + 3]) for s in range(n)]
    d.talon = list(deck[3 * n:])
    d.phase, d.turn, d.left = "wager", (dealer + 1) % n, n
    d.wagers, d.trick, d.tricks, d.last_trick = [None] * n, [], [0] * n, None
    state.deal = d
    state.to_act = (d.turn,)
    return [{"type": "deal", "dealer": dealer}]


def _follow(d, seat):
    hand = d.hands[seat]
    if not d.trick:
        return hand
    same = [c for c in hand if c[-1] == d.trick[0][1][-1]]
    return same or hand


@hookimpl
def frapnet_legal_actions(state, seat):
    d = state.deal
    if seat != d.turn:
        return []
    if d.phase == "wager":
        return [("hum",)] + [("wager", k) for k in (1, 2, 3)]
    if d.phase == "trade":
        return [("trade", ())] + [("trade", (c,)) for c in sorted(d.hands[seat], key=card_key)]
    return [("hang", c) for c in sorted(_follow(d, seat), key=card_key)]


@hookimpl
def frapnet_apply_action(state, seat, action):
    d = state.deal
    if seat != d.turn:
        raise RuleError("T2", f"it is seat {d.turn}'s turn")
    if (d.phase, action[0]) not in (("wager", "hum"), ("wager", "wager"), ("trade", "trade"), ("play", "hang")):
        raise RuleError("T2", f"{action[0]!r} is not allowed now")
    n = d.n
    ev = [{"type": action[0], "seat": seat, "arg": list(action[1]) if len(action) > 1 and
           isinstance(action[1], tuple) else (action[1] if len(action) > 1 else None)}]
    if d.phase == "wager":
        d.wagers[seat] = action[1] if action[0] == "wager" else 0
        d.turn = (seat + 1) % n
        if all(w is not None for w in d.wagers):
            d.phase = "trade"
    elif d.phase == "trade":
        for c in action[1]:
            d.hands[seat].remove(c)
            d.hands[seat].append(d.talon.pop(0))
        d.turn = (seat + 1) % n
        d.left -= 1
        if d.left == 0:
            d.phase = "play"
    else:
        card = action[1]
        if card not in _follow(d, seat):
            raise RuleError("T4", "follow suit")
        d.hands[seat].remove(card)
        d.trick.append((seat, card))
        d.turn = (seat + 1) % n
        if len(d.trick) == n:
            led = d.trick[0][1][-1]
            win = max((x for x in d.trick if x[1][-1] == led), key=lambda x: rank_value(x[1]))[0]
            d.tricks[win] += 1
            d.last_trick, d.trick, d.turn = [list(t) for t in d.trick], [], win
            ev.append({"type": "trick", "winner": win})
            if not d.hands[win]:
                d.phase, d.turn = "done", None
                state.deal_over = True
    state.to_act = (d.turn,) if d.turn is not None else ()
    return ev


@hookimpl
def frapnet_trick_winner(state, trick):
    return None


@hookimpl
def frapnet_settle(state):
    d = state.deal
    pts = [d.tricks[s] + (d.wagers[s] if d.wagers[s] and d.tricks[s] >= d.wagers[s] else 0) for s in range(d.n)]
    for s in range(d.n):
        state.balances[s] += pts[s]
    return {"outcome": "played", "tricks": d.tricks[:], "lanterns": pts, "points_after": state.balances[:]}


@hookimpl
def frapnet_deal_report(state):
    return {"outcome": "unfinished", "tricks": state.deal.tricks[:]}


@hookimpl
def frapnet_match_report(state):
    return {"points": state.balances[:]}


@hookimpl
def frapnet_view(state, seat, lang):
    d = state.deal
    return {"phase": d.phase, "phase_label": {"wager": "wagering", "trade": "trading", "play": "hanging",
                                              "done": "dark"}[d.phase],
            "hand": sorted(d.hands[seat], key=card_key) if seat is not None else None,
            "hand_count": len(d.hands[seat]) if seat is not None else None,
            "seats": [{"seat": s, "tricks": d.tricks[s]} for s in range(d.n)],
            "trick": [list(t) for t in d.trick], "last_trick": d.last_trick, "talon": len(d.talon)}


@hookimpl
def frapnet_action_label(state, seat, action, lang):
    if action[0] == "hum":
        return "Hum a tune"
    if action[0] == "wager":
        return f"Wager {action[1]} lanterns"
    if action[0] == "trade":
        return "Trade " + " ".join(card_text(c, lang) for c in action[1]) if action[1] else "Keep the lanterns"
    return f"Hang {card_text(action[1], lang)}"


@hookimpl
def frapnet_describe_event(state, event, names, lang):
    who = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    if event["type"] == "trick":
        return f"{names[event['winner']]} lights a lantern"
    return f"{who} {event['type']}s" if who else None


@hookimpl
def frapnet_view_ui(state, seat, lang):
    d = state.deal
    out = {"title": "Lanterns", "goal": "Light the most lanterns: every trick is one, a wager kept adds its size.",
           "special_cards": ["The A♠ glows: nothing special, it is only a test (T4)."],
           "keys": {"hum": "m"}, "ledger": {"title": "lanterns", "signed": False}, "pot": "jar",
           "columns": ["mood"], "legend": ["☼ a lantern keeper"]}
    if d is not None:
        out["cells"] = [["hummed" if d.wagers[s] == 0 else (f"wagers {d.wagers[s]}" if d.wagers[s] else "")]
                        for s in range(d.n)]
        out["marks"] = ["☼" if s % 2 == 0 else "" for s in range(d.n)]
        if seat is not None and d.phase == "play" and seat == d.turn:
            ok = set(_follow(d, seat))
            out["refusals"] = {c: f"{card_text(c, lang)} stays dark: hang the suit led (T4)"
                               for c in d.hands[seat] if c not in ok}
        if seat is not None and d.hands[seat]:
            out["card_marks"] = {min(d.hands[seat], key=card_key): "☼"}
    if state.reports:
        r = state.reports[-1]
        out["report"] = {"columns": [{"title": "lit", "cells": [f"{x} lit" for x in r["lanterns"]]}],
                         "notes": ["The lanterns are counted."]}
    return out
