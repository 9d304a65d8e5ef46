"""Frak You's views, labels, log lines and what the screen shows (design.md principles 3 and 10):
the hooks ``frapnet_view``, ``frapnet_action_label``, ``frapnet_describe_event``,
``frapnet_view_ui`` and ``frapnet_seat_view_ui`` of the game (:mod:`frapnet_frak_you.plugin`,
which registers them). A view shows a seat its own hand and the cards it chose or received;
counts, the trick, the last trick and who has gone out in public; never another hand, the cards
others chose, pile contents or the set-aside cards.
"""
from __future__ import annotations

from frapnet.cards import card_key, card_text, hand_order
from frapnet.hookspecs import hookimpl

from frapnet_frak_you.base import DONE, PASS, PLAY, _order

# --- views, labels, events ----------------------------------------------------------------------

def _faces(lang):
    """``(_sym, _syms)`` naming cards in ``lang`` (Russian В Д К Т for J Q K A; jokers told apart)."""
    def one(card):
        return card_text(card, lang)
    return one, lambda cards: " ".join(one(c) for c in cards)


_PHASE = {
    "en": {PASS: "passing three cards", PLAY: "play", DONE: "deal over"},
    "ru": {PASS: "передача трёх карт", PLAY: "розыгрыш", DONE: "сдача окончена"},
}


@hookimpl
def frapnet_view(state, seat, lang):
    """What ``seat`` may know: its own hand and the cards it chose or received; for everyone,
    counts of cards and of tricks in front of each seat, the trick, the last trick and who has
    gone out. Never another hand, the cards others chose, pile contents or the set-aside cards."""
    d = state.deal
    me = seat is not None
    seats = []
    for s in range(d.n):
        seats.append({
            "seat": s, "declaration": None, "tricks": len(d.piles[s]), "cards": len(d.hands[s]),
            "in_play": d.active[s], "out": not d.active[s],
            "chosen": d.chosen[s] is not None if d.phase == PASS else None,
            "loser": d.losers is not None and s in d.losers,
        })
    return {
        "phase": d.phase, "phase_label": _PHASE.get(lang, _PHASE["en"])[d.phase],
        "trump": None, "turn_up": None, "talon": 0, "set_aside": len(d.set_aside),
        "hand": sorted(d.hands[seat], key=card_key) if me else None,
        "hand_count": len(d.hands[seat]) if me else None,
        "passing": d.direction,
        "chosen": list(d.chosen[seat]) if me and d.chosen[seat] else None,
        "received": list(d.received[seat]) if me and d.received[seat] else None,
        "seats": seats, "trick": [list(t) for t in d.trick], "leader": d.leader,
        "last_trick": d.last_trick, "last_winner": d.last_winner, "turn": d.turn,
        "tricks_played": d.played, "lead_two_of_clubs": d.must_lead is not None and not d.led,
        "order": _order(d), "losers": list(d.losers) if d.losers is not None else None,
        "points": state.balances[:], "loss_limit": state.options["loss_limit"],
    }


_LABELS = {
    "en": {"pass_cards": "Pass {cards}", "play": "Play {card}"},
    "ru": {"pass_cards": "Передать {cards}", "play": "Ход {card}"},
}


@hookimpl
def frapnet_action_label(state, seat, action, lang):
    _sym, _syms = _faces(lang)
    labels = _LABELS.get(lang, _LABELS["en"])
    if action[0] == "pass_cards":  # in the order a hand shows them (♠♥♦♣, high rank first), as Frap's buy
        return labels["pass_cards"].format(cards=_syms(hand_order(action[1])))
    return labels["play"].format(card=_sym(action[1]))


_DIR = {
    "en": {"left": "to the left", "right": "to the right", "across": "across", None: "no passing"},
    "ru": {"left": "налево", "right": "направо", "across": "через одного", None: "без передачи"},
}
_EVENTS = {
    "en": {
        "deal": "{dealer} deals {hand_size} cards each ({set_aside} set aside); passing: {passing}",
        "pass_chosen": "{who} has chosen three cards to pass",
        "exchange": "Cards passed {passing}",
        "play_starts": "{who} leads", "play_starts_2c": "{who} leads the 2♣",
        "play": "{who} plays {card}",
        "trick": {"pile": "{who} wins the trick with {card} and lays it face down",
                  "swap": "{who} wins the trick with {card}: a second trick, so the previous one goes into their hand",
                  "swap_any": "{who} wins the trick with {card}: it takes the place of the trick in front of them, "
                              "which goes into their hand",
                  "hand": "{who} wins the trick with {card} with no cards left and takes it into their hand"},
        "out": "Out of cards, out of the deal: {who}",
        "deal_end": "Deal over: a penalty point for {losers} (penalty points: {points})",
        "match_over": " Match over; the winners: {winners}.",
    },
    "ru": {
        "deal": "Сдаёт {dealer}: по {hand_size} карт ({set_aside} в сторону); передача: {passing}",
        "pass_chosen": "{who} выбирает три карты для передачи",
        "exchange": "Карты переданы {passing}",
        "play_starts": "Ходит {who}", "play_starts_2c": "{who} ходит с 2♣",
        "play": "{who} ходит {card}",
        "trick": {"pile": "{who} берёт взятку картой {card} и кладёт перед собой",
                  "swap": "{who} берёт вторую взятку подряд картой {card}: прежняя взятка уходит в руку",
                  "swap_any": "{who} берёт взятку картой {card}: она ложится на место прежней, а прежняя уходит в руку",
                  "hand": "{who} берёт взятку картой {card} без карт на руках и забирает её в руку"},
        "out": "Без карт, выходят из сдачи: {who}",
        "deal_end": "Сдача окончена: проиграли {losers} (штрафные очки: {points})",
        "match_over": " Партия окончена: выиграли {winners}.",
    },
}


@hookimpl
def frapnet_describe_event(state, event, names, lang):
    """Frak You's events in plain words (English or Russian), e.g. "Olga wins the trick with Q♠ …"."""
    _sym, _syms = _faces(lang)
    t = _EVENTS.get(lang, _EVENTS["en"])
    dirs = _DIR.get(lang, _DIR["en"])
    kind = event.get("type")

    def name(s):
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    def many(seats):
        return ", ".join(name(s) for s in seats) or "—"

    if kind == "deal":
        return t["deal"].format(dealer=name(event["dealer"]), hand_size=event["hand_size"],
                                set_aside=event["set_aside"], passing=dirs.get(event["passing"], ""))
    if kind == "pass_chosen":
        return t["pass_chosen"].format(who=name(event["seat"]))
    if kind == "exchange":
        return t["exchange"].format(passing=dirs.get(event["direction"], ""))
    if kind == "play_starts":
        return t["play_starts_2c" if event.get("two_of_clubs") else "play_starts"].format(who=name(event["leader"]))
    if kind == "play":
        return t["play"].format(who=name(event["seat"]), card=_sym(event["card"]))
    if kind == "trick":
        win = [c for s, c in event["cards"] if s == event["winner"]][0]
        to = event["to"]
        if to == "swap" and state.options.get("pile") == "any_win":  # K9 (P): not necessarily in a row
            to = "swap_any"
        return t["trick"][to].format(who=name(event["winner"]), card=_sym(win))
    if kind == "out":
        return t["out"].format(who=many(event["seats"]))
    if kind == "deal_end":
        r = event["report"]
        text = t["deal_end"].format(losers=many(r["losers"]),
                                    points=", ".join(f"{name(s)} {p}" for s, p in enumerate(r["points"])))
        if r.get("match_over"):
            text += t["match_over"].format(winners=many(r["winners"]))
        return text
    return None


# --- what the screen shows (frapnet_view_ui; design.md principles 3 and 10) ----------------------

_UI = {
    "en": {"title": "Frak You", "ledger": "penalty points", "deal": "in the deal",
           "goal": "Get rid of your cards: the last two players still holding cards each take a penalty "
                   "point; the fewest penalty points win the match.",
           "special": ["The three of clubs wins any trick it is in, unless the ace of spades is in it too.",
                       "The ace of spades: the card played right after it counts lowest and cannot win."],
           "playing": "playing", "out": "out", "chosen": "passed 3", "loser": "penalty",
           "tricks": "tricks", "result": "result", "penalty": "+1 penalty"},
    "ru": {"title": "Фрак Ю", "ledger": "штрафные очки", "deal": "в сдаче",
           "goal": "Избавьтесь от карт: двое последних, у кого остались карты, получают по штрафному "
                   "очку; партию выигрывает тот, у кого штрафных очков меньше.",
           "special": ["Тройка треф берёт любую взятку, в которой лежит, если в ней нет туза пик.",
                       "Туз пик: карта, сыгранная сразу после него, считается младшей и не берёт."],
           "playing": "играет", "out": "вышел", "chosen": "отдал 3", "loser": "штраф",
           "tricks": "взятки", "result": "итог", "penalty": "+1 штраф"},
}


_OPTION_WORDS = {  # the table-rules line (F27) in words: option -> (name, {value: words})
    "en": {"passing": ("passing", {"right": "to the right", "rotate": "rotating"}),
           "first_lead": ("first lead", {"left_of_dealer": "left of the dealer", "two_of_clubs": "the two of clubs"}),
           "pile": ("trick into the hand", {"second_in_row": "on a second win in a row", "any_win": "on any win"}),
           "loss_limit": ("match ends at", {})},
    "ru": {"passing": ("передача", {"right": "направо", "rotate": "по кругу"}),
           "first_lead": ("первый ход", {"left_of_dealer": "слева от сдающего", "two_of_clubs": "двойка треф"}),
           "pile": ("взятка в руку", {"second_in_row": "за вторую подряд", "any_win": "за любую"}),
           "loss_limit": ("партия до", {})},
}


def _option_words(state, lang: str) -> list[list[str]]:
    """``ui.options``: each table option as ``[name, value]`` in ``lang`` (K3, K4, K9, K12)."""
    w = _OPTION_WORDS.get(lang, _OPTION_WORDS["en"])
    unit = {"en": "penalty points", "ru": "штрафных очков"}.get(lang, "penalty points")
    out = []
    for k, v in state.options.items():
        name, values = w.get(k, (k.replace("_", " "), {}))
        out.append([name, values.get(v, f"{v} {unit}" if k == "loss_limit" else str(v))])
    return out


@hookimpl
def frapnet_view_ui(state, seat, lang):
    """Frak You's words for the screen (en/ru): the goal, the 3♣ and A♠ (K7, K8; named in words, so
    no text looks like a card a seat might not see), penalty points
    shown as penalties (unsigned, fewest best, K12), each seat's place in the deal, and the
    settlement's columns (tricks, who takes a penalty point)."""
    t = _UI.get(lang, _UI["en"])
    d = state.deal
    out = {"title": t["title"], "goal": t["goal"], "special_cards": list(t["special"]),
           "ledger": {"title": t["ledger"], "signed": False, "best": "low"}, "pot": None,
           "keys": {"pass_cards": "u", "play": "y"}, "columns": [t["deal"]],
           "options": _option_words(state, lang)}
    if d is not None:
        cells = []
        for s in range(d.n):
            if d.losers is not None and s in d.losers:
                word = t["loser"]
            elif not d.active[s]:
                word = t["out"]
            elif d.phase == PASS and d.chosen[s] is not None:
                word = t["chosen"]
            else:
                word = t["playing"]
            cells.append([word])
        out["cells"] = cells
    if state.reports:
        r = state.reports[-1]
        losers = set(r.get("losers") or ())
        n = state.players
        out["report"] = {"columns": [{"title": t["tricks"], "cells": [str(x) for x in r.get("tricks") or [0] * n]},
                                     {"title": t["result"], "cells": [t["penalty"] if s in losers else "—"
                                                                      for s in range(n)]}], "notes": []}
    return out



@hookimpl
def frapnet_seat_view_ui(state, seat, lang):
    """Nothing of Frak You's screen (:func:`frapnet_view_ui`) is a seat's own: the same for every
    seat and a spectator, built once per change (issue #9 "Fan-out once")."""
    return {}
