"""Napoleon's views, labels, log lines and what the screen shows (design.md principles 3 and 10):
the hooks ``frapnet_view``, ``frapnet_action_label``, ``frapnet_describe_event``,
``frapnet_view_ui`` and ``frapnet_seat_view_ui`` of the game (:mod:`frapnet_napoleon.plugin`,
which registers them). A view shows a seat its own hand and discard only, every call, trick and
count in public, never another seat's cards or the declarer's discard (N5).
"""
from __future__ import annotations

from frapnet.cards import card_key, card_text, SUIT_SYMBOLS
from frapnet.hookspecs import hookimpl

from frapnet_napoleon.base import AUCTION, BUY, DONE, HAND, NAPOLEON, PLAY, _PHASE_EN, bid_value, tricks_needed

# --- views, labels, event texts -----------------------------------------------------------------

_PHASE_RU = {AUCTION: "торговля", BUY: "прикупка", PLAY: "розыгрыш", DONE: "сдача окончена"}


def _faces(lang):
    """``(_sym, _syms)`` naming cards in ``lang`` (Russian В Д К Т for J Q K A; jokers told apart)."""
    def one(card):
        return card_text(card, lang)
    return one, lambda cards: " ".join(one(c) for c in cards)


@hookimpl
def frapnet_view(state, seat, lang):
    """What ``seat`` may know (None: a spectator): its own hand and discard only; the talon as a
    count; every call, trick and count in public. Never another seat's cards or the discard."""
    d = state.deal
    seats = []
    for s in range(d.n):
        seats.append({
            "seat": s, "declaration": d.calls[s], "bid": bid_value(d.bid) if s == d.declarer else None,
            "tricks": d.tricks[s], "cards": len(d.hands[s]), "in_play": True, "in_auction": d.active[s],
            "looked": True, "dealer": s == d.dealer, "declarer": s == d.declarer, "holder": s == d.holder,
        })
    phases = _PHASE_RU if lang == "ru" else _PHASE_EN
    own = seat is not None
    return {
        "phase": d.phase, "phase_label": phases[d.phase], "trump": d.trump, "turn_up": None, "talon": d.talon,
        "hand": sorted(d.hands[seat], key=card_key) if own else None,
        "hand_count": len(d.hands[seat]) if own else None, "looked": own,
        "discards": [d.discard] if own and seat == d.declarer and d.discard else [],
        "seats": seats, "trick": [list(t) for t in d.trick], "leader": d.leader,
        "last_trick": d.last_trick, "last_winner": d.last_winner, "turn": d.turn,
        "top_bid": bid_value(d.top), "holder": d.holder, "declarer": d.declarer, "bid": bid_value(d.bid),
        "tricks_needed": tricks_needed(d.bid) if d.bid else None, "tricks_played": d.played,
        "tricks_total": HAND, "treasure": state.pot, "stake": state.options["stake"], "bought": d.bought,
    }


_LABELS = {
    "en": {"bid": "Bid {n}", "napoleon": "For Napoleon (all five, for the treasure)",
           "here": "Here (take the bid of {top})", "pass": "Pass", "stand": "Stand pat",
           "buy": "Buy: discard {card}", "play": "Play {card}", "lead": "Lead {card} (trump {suit})",
           "top_napoleon": "Napoleon"},
    "ru": {"bid": "Заявка: {n}", "napoleon": "За Наполеона (все пять, на клад)",
           "here": "Здесь (взять заявку {top})", "pass": "Пас", "stand": "Без прикупки",
           "buy": "Прикупка: снести {card}", "play": "Ход {card}", "lead": "Ход {card} (козырь {suit})",
           "top_napoleon": "за Наполеона"},
}


@hookimpl
def frapnet_action_label(state, seat, action, lang):
    """A short label in English or Russian, e.g. "Bid 3", "Здесь (взять заявку 4)", "Play 10♥"."""
    _sym, _syms = _faces(lang)
    t = _LABELS.get(lang, _LABELS["en"])
    verb = action[0]
    if verb == "bid":
        return t["bid"].format(n=action[1])
    if verb == "here":
        d = state.deal
        top = t["top_napoleon"] if d.top == NAPOLEON else str(d.top)
        return t["here"].format(top=top)
    if verb == "buy":
        return t["buy"].format(card=_sym(action[1][0])) if action[1] else t["stand"]
    if verb == "play":
        d = state.deal
        if d.trump is None and not d.trick:
            return t["lead"].format(card=_sym(action[1]), suit=SUIT_SYMBOLS[action[1][-1]])
        return t["play"].format(card=_sym(action[1]))
    return t.get(verb)


_EVENTS = {
    "en": {
        "deal": "{dealer} deals; stakes {stake} each; treasure {pot}",
        "pass": "{who} passes", "bid": "{who} bids {bid}", "napoleon": "{who} bids for Napoleon",
        "here": "{who} says here, taking the bid of {top}",
        "declarer": "{who} is the declarer, bidding {bid}", "napoleon_contract": "for Napoleon",
        "thrown_in": "Everybody passed: the cards are thrown in; the treasure of {pot} stays",
        "stand": "{who} stands pat", "buy": "{who} discards a card and buys one from the talon",
        "trump": "Trump: {suit}", "play": "{who} plays {card}",
        "trick": "{who} takes the trick with {card}",
        "early_end": "Play stops after {played} tricks",
        "made": "{who} made {bid}: each other player pays {amount}", "failed": "{who} failed {bid}: pays each other player {amount}",
        "took_treasure": "; takes the treasure of {treasure}", "into": "; pays {treasure} into the treasure",
        "after": "; treasure now {pot}",
        "thrown_end": "Deal thrown in; treasure {pot}",
    },
    "ru": {
        "deal": "Сдаёт {dealer}; взнос по {stake}; в кладе {pot}",
        "pass": "{who}: пас", "bid": "{who}: заявка {bid}", "napoleon": "{who}: за Наполеона",
        "here": "{who}: здесь (берёт заявку {top})",
        "declarer": "{who} играет: {bid}", "napoleon_contract": "за Наполеона",
        "thrown_in": "Все спасовали: карты сброшены; клад {pot} остаётся",
        "stand": "{who} без прикупки", "buy": "{who} сносит карту и прикупает одну из колоды",
        "trump": "Козырь: {suit}", "play": "{who} ходит {card}",
        "trick": "{who} берёт взятку картой {card}",
        "early_end": "Игра окончена после {played} взяток",
        "made": "{who} сыграл {bid}: каждый платит ему {amount}", "failed": "{who} не сыграл {bid}: платит каждому {amount}",
        "took_treasure": "; забирает клад {treasure}", "into": "; вносит в клад {treasure}",
        "after": "; в кладе {pot}",
        "thrown_end": "Сдача сброшена; в кладе {pot}",
    },
}


@hookimpl
def frapnet_describe_event(state, event, names, lang):
    """Napoleon's events in plain words, English or Russian (e.g. "Olga says here, taking the bid of 4")."""
    _sym, _syms = _faces(lang)
    t = _EVENTS.get(lang, _EVENTS["en"])
    kind = event.get("type")

    def name(s):
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    def contract(b):
        return t["napoleon_contract"] if b == "napoleon" else str(b)

    who = name(event.get("seat"))
    if kind == "deal":
        return t["deal"].format(dealer=name(event["dealer"]), stake=event["stake"], pot=event["pot"])
    if kind == "bid":
        b = event["bid"]
        if b in ("pass", "napoleon"):
            return t[b].format(who=who)
        if b == "here":
            return t["here"].format(who=who, top=contract(event.get("top")))
        return t["bid"].format(who=who, bid=b)
    if kind == "declarer":
        return t["declarer"].format(who=who, bid=contract(event["bid"]))
    if kind == "thrown_in":
        return t["thrown_in"].format(pot=event["pot"])
    if kind == "buy":
        return t["buy" if event["count"] else "stand"].format(who=who)
    if kind == "trump":
        return t["trump"].format(suit=SUIT_SYMBOLS[event["suit"]])
    if kind == "play":
        return t["play"].format(who=who, card=_sym(event["card"]))
    if kind == "trick":
        win = [c for s, c in event["cards"] if s == event["winner"]][0]
        return t["trick"].format(who=name(event["winner"]), card=_sym(win))
    if kind == "early_end":
        return t["early_end"].format(played=event["played"])
    if kind == "deal_end":
        r = event["report"]
        if r["outcome"] != "played":
            return t["thrown_end"].format(pot=r["pot_after"])
        decl = r["declarer"]
        amount = abs(r["payments"][(decl + 1) % len(r["payments"])])
        text = t["made" if r["made"] else "failed"].format(who=name(decl), bid=contract(r["bid"]), amount=amount)
        if r["to_treasure"] < 0:
            text += t["took_treasure"].format(treasure=-r["to_treasure"])
        elif r["to_treasure"] > 0:
            text += t["into"].format(treasure=r["to_treasure"])
        return text + t["after"].format(pot=r["pot_after"])
    return None


# --- what the screen shows (frapnet_view_ui; design.md principles 3 and 10) ----------------------

_UI = {
    "en": {"title": "Napoleon", "treasure": "treasure", "bid": "bid",
           "goal": "Bid the tricks of five you will take, then take them: every other player pays the "
                   "declarer stake × bid, or is paid it; a bid for Napoleon plays for the treasure.",
           "special": ["No turn-up: the declarer's first lead sets trumps."],
           "calls": {"pass": "pass", "here": "here", "napoleon": "Napoleon", "bid": "bid {n}"},
           "tricks": "tricks", "made": "The declarer made the bid.", "failed": "The declarer failed the bid."},
    "ru": {"title": "Наполеон", "treasure": "клад", "bid": "заявка",
           "goal": "Заявите, сколько взяток из пяти возьмёте, и возьмите их: каждый платит играющему "
                   "ставку × заявку или получает её; заявка «за Наполеона» играет на клад.",
           "special": ["Вскрышки нет: первый ход играющего задаёт козырь."],
           "calls": {"pass": "пас", "here": "здесь", "napoleon": "Наполеон", "bid": "заявка {n}"},
           "tricks": "взятки", "made": "Играющий выполнил заявку.", "failed": "Играющий не выполнил заявку."},
}


def _call_word(call, t):
    if call is None:
        return ""
    if isinstance(call, int) and not isinstance(call, bool):
        return t["calls"]["bid"].format(n=call)
    return t["calls"].get(call, str(call))


@hookimpl
def frapnet_view_ui(state, seat, lang):
    """Napoleon's words for the screen (en/ru): goal, the treasure, the call column, keys
    (``n`` for Napoleon, ``h`` here), the settlement's columns (tricks, the declarer's bid) and
    whether the bid was made."""
    t = _UI.get(lang, _UI["en"])
    d = state.deal
    out = {"title": t["title"], "goal": t["goal"], "special_cards": list(t["special"]), "pot": t["treasure"],
           "keys": {"napoleon": "n", "here": "h", "pass": "p", "buy": "u", "play": "y"}, "columns": [t["bid"]],
           # the table-rules line (F27) in the seat's language: N2's stake per deal
           "options": [[{"ru": "ставка"}.get(lang, "stake"), str(state.options["stake"])]]}
    if d is not None:
        out["cells"] = [[_call_word(d.calls[s], t)] for s in range(d.n)]
    if state.reports:
        r = state.reports[-1]
        n = state.players
        decl = r.get("declarer")
        bid = [_call_word(r.get("bid"), t) if s == decl else "" for s in range(n)]
        out["report"] = {"columns": [{"title": t["tricks"], "cells": [str(x) for x in r.get("tricks") or [0] * n]},
                                     {"title": t["bid"], "cells": bid}],
                         "notes": [t["made"] if r["made"] else t["failed"]] if isinstance(r.get("made"), bool) else []}
    return out



@hookimpl
def frapnet_seat_view_ui(state, seat, lang):
    """Nothing of Napoleon's screen (:func:`frapnet_view_ui`) is a seat's own: the same for every
    seat and a spectator, built once per change (issue #9 "Fan-out once")."""
    return {}
