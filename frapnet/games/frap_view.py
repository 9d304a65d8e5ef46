"""Frap's views, labels, log lines and what the screen shows (F9, F16, F17, F20; design.md
principles 3 and 10): the hooks ``frapnet_view``, ``frapnet_seat_view``, ``frapnet_action_label``,
``frapnet_describe_event``, ``frapnet_view_ui`` and ``frapnet_seat_view_ui`` of the built-in game
(:mod:`frapnet.games.frap`, which registers them). A view shows a seat only what it may see:
its own hand once it has looked (F9), everyone's public facts, never another seat's cards.
"""
from __future__ import annotations

from frapnet.cards import card_key, card_text, hand_order, SUIT_SYMBOLS
from frapnet.games.frap_base import BID, BUY, CUT, CUT_DISCARD, DONE, PLAY, WHIST, _PHASE_EN, _follow_cards, deck_size
from frapnet.hookspecs import hookimpl

# --- views and labels -------------------------------------------------------------------------

_PHASE_RU = {BID: "торговля", WHIST: "вист", BUY: "прикупка", CUT: "подрезка", CUT_DISCARD: "снос после подрезки",
             PLAY: "розыгрыш", DONE: "сдача окончена"}


@hookimpl
def frapnet_view(state, seat, lang):
    d = state.deal
    mine = seat is not None and d.looked[seat]
    seats = []
    for s in range(d.n):
        seats.append({
            "seat": s, "declaration": d.declared[s], "tricks": d.tricks[s], "cards": len(d.hands[s]),
            "looked": d.looked[s], "in_play": s in d.in_play if d.phase == PLAY or d.phase == DONE
            else d.declared[s] not in ("pass",) or s == d.frapper,
            "frapper": s == d.frapper, "blind": s == d.frapper and d.blind,
        })
    phases = _PHASE_RU if lang == "ru" else _PHASE_EN
    v = {
        "phase": d.phase, "phase_label": phases[d.phase], "round": d.round, "trump": d.trump,
        "turn_up": d.turn_up, "dead_turn_ups": d.dead_turn_ups[:], "talon": d.talon,
        "hand": d.hands[seat][:] if mine else None,
        "hand_count": len(d.hands[seat]) if seat is not None else None,
        "looked": bool(mine),
        "discards": d.discards[seat][:] if seat is not None else [],
        "seats": seats, "trick": [list(t) for t in d.trick], "leader": d.leader,
        "last_trick": d.last_trick, "last_winner": d.last_winner, "tricks_played": d.played,
        "tricks_total": d.tricks_total, "frapper": d.frapper, "blind": d.blind,
        "pot_in_play": d.P, "turn": d.turn,
    }
    return v


@hookimpl
def frapnet_seat_view(state, seat, lang):
    """``seat``'s own keys of :func:`frapnet_view` (F9: its hand once looked; its discards)."""
    d = state.deal
    mine = d.looked[seat]
    return {"hand": d.hands[seat][:] if mine else None, "hand_count": len(d.hands[seat]), "looked": bool(mine),
            "discards": d.discards[seat][:]}


_LABELS = {
    "en": {"look": "Look at your cards", "pass": "Pass", "frap": "Frap", "blind_frap": "Blind frap",
           "whist": "Whist", "stand": "Stand pat", "buy": "Buy: discard {cards}",
           "take_trump": "Take the turn-up, discard {card}", "cut_in": "Cut in: five new cards from the talon",
           "cut_in_trump": "Cut in with the turn-up {card} and four from the talon", "decline": "Decline the cut-in",
           "discard": "Discard {card}", "play": "Play {card}"},
    "ru": {"look": "Посмотреть карты", "pass": "Пас", "frap": "Фрап", "blind_frap": "Фрап втёмную",
           "whist": "Вист", "stand": "Без прикупки", "buy": "Прикупка: снести {cards}",
           "take_trump": "Взять вскрышку, снести {card}", "cut_in": "Подрезка: пять новых карт из талона",
           "cut_in_trump": "Подрезка со вскрышкой {card} и четырьмя из талона", "decline": "Не подрезать",
           "discard": "Снести {card}", "play": "Ход {card}"},
}


@hookimpl
def frapnet_action_label(state, action, lang):
    """``action``'s label in ``lang``; the same for every seat (so it takes no ``seat``: one
    change's seats share it, :func:`frapnet.engine.core.labels_per_action`)."""
    labels = _LABELS.get(lang, _LABELS["en"])
    verb = action[0]
    if verb == "buy":
        if not action[1]:
            return labels["stand"]
        return labels["buy"].format(cards=" ".join(card_text(c, lang) for c in hand_order(action[1], state.deal.trump)))
    if verb == "cut_in_trump":
        return labels[verb].format(card=card_text(state.deal.turn_up, lang) if state.deal.turn_up else "")
    if len(action) > 1:
        return labels[verb].format(card=card_text(action[1], lang))
    return labels[verb]


_EVENTS = {
    "en": {
        "deal": "{dealer} deals; turn-up {turn_up}; pot {pot}", "ante": " (antes {ante} each)",
        "look": "{who} looks at their cards",
        "bid": {"frap": "{who} declares frap", "blind_frap": "{who} declares blind frap", "whist": "{who} whists",
                "pass": "{who} passes"},
        "pass_out": "Everybody passed: top-up {top_up} each, pot {pot}; new turn-up {turn_up}",
        "thrown_in": "Passed out three times: top-up {top_up} each; cards thrown in; the pot of {pot} stays",
        "no_whist": "Nobody whists: {who} takes the pot of {amount}",
        "take_trump": "{who} takes the turn-up {turn_up}", "buy": "{who} buys {count}",
        "cut_in": "{who} cuts in", "cut_in_trump": "{who} cuts in with the turn-up {turn_up}",
        "decline": "{who} does not cut in", "discard": "{who} discards one card",
        "play_starts": "Play begins: {who} leads; pot {pot}", "play": "{who} plays {card}",
        "revoke": "{who} plays {card} — a revoke (not following suit, or not trumping, when able); "
                  "{who} pays a remise at settlement",
        "trick": "{who} takes the trick with {card} (+{amount})",
        "deal_end": {"played": "Deal over: remises {remises}; pot {pot_after}",
                     "no_whist": "Deal over: the pot is empty", "thrown_in": "Deal thrown in; pot {pot_after}"},
        "no_remise": "Deal over: no remise; the pot is empty",
    },
    "ru": {
        "deal": "Сдаёт {dealer}; вскрышка {turn_up}; кон {pot}", "ante": " (взнос по {ante})",
        "look": "{who} смотрит карты",
        "bid": {"frap": "{who}: фрап", "blind_frap": "{who}: фрап втёмную", "whist": "{who}: вист", "pass": "{who}: пас"},
        "pass_out": "Все спасовали: доплата по {top_up}, кон {pot}; новая вскрышка {turn_up}",
        "thrown_in": "Трижды пас: доплата по {top_up}; карты сброшены; кон {pot} остаётся",
        "no_whist": "Никто не вистует: {who} забирает кон {amount}",
        "take_trump": "{who} берёт вскрышку {turn_up}", "buy": "{who} прикупает {count}",
        "cut_in": "{who} подрезает", "cut_in_trump": "{who} подрезает со вскрышкой {turn_up}",
        "decline": "{who} не подрезает", "discard": "{who} сносит карту",
        "play_starts": "Розыгрыш: ходит {who}; кон {pot}", "play": "{who} ходит {card}",
        "revoke": "{who} ходит {card} — ренонс (не в масть или не козырем, хотя мог); при расчёте {who} платит ремиз",
        "trick": "{who} берёт взятку картой {card} (+{amount})",
        "deal_end": {"played": "Сдача окончена: ремизы {remises}; кон {pot_after}",
                     "no_whist": "Сдача окончена: кон пуст", "thrown_in": "Сдача сброшена; кон {pot_after}"},
        "no_remise": "Сдача окончена: ремизов нет; кон пуст",
    },
}


@hookimpl
def frapnet_describe_event(state, event, names, lang):
    """Frap's events in plain words (English or Russian), e.g. "Olga declares frap"."""
    t = _EVENTS.get(lang, _EVENTS["en"])
    kind = event.get("type")

    def name(s):
        return names[s] if s is not None and 0 <= s < len(names) else "?"

    def _sym(card):
        return card_text(card, lang)

    who = name(event.get("seat"))
    if kind == "deal":
        text = t["deal"].format(dealer=name(event["dealer"]), turn_up=_sym(event["turn_up"]), pot=event["pot"])
        return text + (t["ante"].format(ante=event["ante"]) if event.get("ante") else "")
    if kind == "bid":
        return t["bid"][event["bid"]].format(who=who)
    if kind == "cut_in" and event.get("turn_up"):
        return t["cut_in_trump"].format(who=who, turn_up=_sym(event["turn_up"]))
    if kind == "trick":
        win = [c for s, c in event["cards"] if s == event["winner"]][0]
        return t["trick"].format(who=name(event["winner"]), card=_sym(win), amount=event["amount"])
    if kind == "play_starts":
        return t["play_starts"].format(who=name(event["leader"]), pot=event["pot"])
    if kind == "no_whist":
        return t["no_whist"].format(who=who, amount=event["amount"])
    if kind == "play" and event.get("revoke"):
        return t["revoke"].format(who=who, card=_sym(event["card"]))
    if kind == "deal_end":
        r = event["report"]
        if r["outcome"] == "played" and not any(r["remises"]):
            return t["no_remise"]
        rem = ", ".join(f"{name(s)} −{x}" for s, x in enumerate(r["remises"]) if x) or "—"  # paid: a change, signed
        return t["deal_end"].get(r["outcome"], "").format(remises=rem, pot_after=r["pot_after"])
    if kind in t and isinstance(t[kind], str):
        fields = {k: (_sym(v) if k in ("card", "turn_up", "dead") and isinstance(v, str) else v)
                  for k, v in event.items()}
        return t[kind].format(who=who, **{k: v for k, v in fields.items() if k != "who"})
    return None


# --- what the screen shows (frapnet_view_ui; design.md principles 3 and 10) ----------------------

_UI = {
    "en": {
        "title": "Frap",
        "goal": "Take tricks: frap promises two, whist one; each trick pays a quarter of the pot, "
                "a broken promise pays a remise into the next pot.",
        "special": ["The turn-up sets trumps; a blind frapper may take it when buying, and so may a player who cuts in.",
                    "Cut-in: after buying, a player who passed may come back in: swap the four cards for five from "
                    "the talon (or the turn-up and four), discard one; then, like a whister, take a trick or pay a "
                    "remise."],
        "special_no_cut": ["The turn-up sets trumps; a blind frapper may take it when buying."],
        "bid": "bid", "columns": ["bid"], "decl": {"frap": "frap", "blind_frap": "blind frap", "whist": "whist", "pass": "pass",
                               "cut_in": "cut-in"},
        "follow": "{card} cannot be played now: you must follow suit {suit}",
        "ruff": "{card} cannot be played now: you have no {led}, so you must play a trump {trump}",
        "tricks": "tricks", "trick_money": "trick money", "remise": "remise", "revoke": "revoke",
        "no_whist_note": "Nobody whisted: the frapper took the whole pot, with no trick played.",
        "look_first": "Look at your cards first ([l]) — you discard one of them for the turn-up; then [t] takes it.",
        "options": {"deck": "deck", "ante": "ante", "cut_in": "cut-in", "graded_remise": "graded remise",
                    "revoke": "revoke"},
        "values": {True: "on", False: "off", "auto": "auto", "refuse": "refused", "penalize": "penalised"},
        "deck_auto": "{n} cards (for {players} players)",
    },
    "ru": {
        "title": "Фрап",
        "goal": "Берите взятки: фрап обещает две, вист — одну; каждая взятка приносит четверть кона, "
                "невыполненное обещание — ремиз в следующий кон.",
        "special": ["Вскрышка задаёт козырь; её может взять фрапующий втёмную при прикупке, а также тот, кто подрезает.",
                    "Подрезка: после прикупки спасовавший может вернуться в игру — сменить четыре карты на пять из "
                    "талона (или вскрышку и четыре) и снести одну; затем, как вистующий, взять взятку или заплатить "
                    "ремиз."],
        "special_no_cut": ["Вскрышка задаёт козырь; её может взять фрапующий втёмную при прикупке."],
        "bid": "заявка", "columns": ["заявка"], "decl": {"frap": "фрап", "blind_frap": "фрап втёмную", "whist": "вист", "pass": "пас",
                                  "cut_in": "подрезка"},
        "follow": "{card} сейчас нельзя: нужно ходить в масть {suit}",
        "ruff": "{card} сейчас нельзя: масти {led} у вас нет, нужно бить козырем {trump}",
        "tricks": "взятки", "trick_money": "за взятки", "remise": "ремиз", "revoke": "ренонс",
        "no_whist_note": "Никто не вистовал: фрапующий забрал весь кон без розыгрыша.",
        "look_first": "Сначала посмотрите карты ([l]) — за вскрышку сносят одну из них; затем [t] берёт её.",
        "options": {"deck": "колода", "ante": "взнос", "cut_in": "подрезка", "graded_remise": "ремиз по ступеням",
                    "revoke": "ренонс"},
        "values": {True: "да", False: "нет", "auto": "авто", "refuse": "не принимается", "penalize": "штраф"},
        "deck_auto": "{n} (по числу игроков)",
    },
}
UI_KEYS = {"look": "l", "pass": "p", "frap": "f", "blind_frap": "b", "whist": "w", "cut_in": "c",
           "cut_in_trump": "t", "decline": "d", "take_trump": "t", "buy": "u", "discard": "x", "play": "y"}
_UI_RANK = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}


def _weakest(cards, trump):
    """The card a player gives away most readily: the lowest non-trump, else the lowest trump."""
    return min(cards, key=lambda c: (c[-1] == trump, _UI_RANK[c[:-1]], card_key(c))) if cards else None


def _refusals(state, d, seat, t, lang):
    """F20: why each card of the hand cannot be played now (revoke: refuse)."""
    if d.phase != PLAY or seat != d.turn or not d.trick or not d.looked[seat] \
            or state.options["revoke"] == "penalize":
        return {}
    hand = d.hands[seat]
    ok = set(_follow_cards(d, hand))
    led = d.trick[0][1][-1]
    out = {}
    for c in hand:
        if c not in ok:
            text = t["follow"] if any(x[-1] == led for x in hand) else t["ruff"]
            out[c] = text.format(card=card_text(c, lang), suit=SUIT_SYMBOLS[led], led=SUIT_SYMBOLS[led],
                                 trump=SUIT_SYMBOLS[d.trump])
    return out


def report_columns(report, lang):
    """The settlement's columns for a Frap deal report (F23 trick money, F24/F22 remises) and its
    notes: ``({"columns": [...], "notes": [...]})`` as frapnet_view_ui's ``report``. Both amounts
    are changes of a balance, so both are signed as the screen signs them: ``+300``, ``−400``."""
    t = _UI.get(lang, _UI["en"])
    n = len(report.get("tricks") or ())
    revokes = set(report.get("revokes") or ())
    money = report.get("trick_money") or [0] * n
    rem = report.get("remises") or [0] * n
    cols = [{"title": t["tricks"], "cells": [str(x) for x in report.get("tricks") or ()]},
            {"title": t["trick_money"], "cells": [f"+{x}" if x else "—" for x in money]},
            {"title": t["remise"], "cells": [(f"−{rem[s]}" if rem[s] else "—") + (f" ({t['revoke']})" if s in revokes
                                                                                   else "") for s in range(n)]}]
    # F14: no whister — no trick money, no remise: what the frapper's +pot in "this deal" comes from
    notes = [t["no_whist_note"]] if report.get("outcome") == "no_whist" else []
    return {"columns": cols, "notes": notes}


def _option_words(options, lang, players: int):
    """The table's options in words (F27), as frapnet_view_ui's ``options``; ``deck: auto`` as the
    pack it gives these ``players`` (F2: "32 cards (for 4 players)")."""
    t = _UI.get(lang, _UI["en"])
    out = []
    for k, v in options.items():
        if k == "deck" and v == "auto":
            out.append([t["options"]["deck"], t["deck_auto"].format(n=deck_size(players, v), players=players)])
            continue
        out.append([t["options"].get(k, k.replace("_", " ")), t["values"].get(v, str(v))
                    if isinstance(v, (bool, str)) else str(v)])
    return out


_REMEMBERED: dict = {}
"""Per (what, language): the last object it was made from and what it gave — see :func:`_remembered`."""


def _bid_cells(declared, lang):
    """The bid column's cells, per seat (frapnet_view_ui's ``cells``)."""
    t = _UI.get(lang, _UI["en"])
    return [[t["decl"].get(x, "") if x else ""] for x in declared]


def _remembered(what: str, source, lang: str, make, equal: bool = False):
    """``make(source, lang)``, the very same result as last time while ``source`` is the very same
    object (a match's options, the last deal's report: engine states share them and never change
    them) — or, with ``equal``, an equal tuple (the seats' bids) — so that the host's fan-out keeps
    their bytes from one change to the next (issue #9). Callers must not change what it returns."""
    last = _REMEMBERED.get((what, lang))
    if last is None or (last[0] != source if equal else last[0] is not source):
        last = _REMEMBERED[(what, lang)] = (source, make(source, lang))
    return last[1]


@hookimpl
def frapnet_view_ui(state, seat, lang):
    """Frap's words for the screen (en/ru): goal, keys, the bid column, F20 refusals, where the
    cursor starts (never on the top trump a blind frapper would give away, F16, nor on the turn-up
    just taken by a cut-in, F17), the settlement's columns and the options in words (F27)."""
    t = _UI.get(lang, _UI["en"])
    d = state.deal
    out = {  # the same objects from change to change where nothing changed (see _remembered)
        "title": t["title"], "goal": t["goal"], "keys": UI_KEYS,
        # the cut-in explained only where it is played (F17; option cut_in)
        "special_cards": t["special"] if state.options.get("cut_in", True) else t["special_no_cut"],
        "columns": t["columns"], "options": _remembered("options", state.options, lang,
                                  lambda options, lang: _option_words(options, lang, state.players)),
    }
    if d is not None:
        out["cells"] = _remembered("cells", tuple(d.declared), lang, _bid_cells, equal=True)
    if state.reports:
        out["report"] = _remembered("report", state.reports[-1], lang, report_columns)
    if seat is not None:
        out.update(_seat_ui(state, seat, t, lang))
    return out


@hookimpl
def frapnet_seat_view_ui(state, seat, lang):
    """``seat``'s own fields of :func:`frapnet_view_ui`: only for the seat to act — the F16 hint
    before a blind frapper looks, the F20 refusals, the F16/F17 cursor."""
    return _seat_ui(state, seat, _UI.get(lang, _UI["en"]), lang)


def _seat_ui(state, seat, t, lang) -> dict:
    """The ui fields that are ``seat``'s own, only those it has (see :func:`frapnet_view_ui`)."""
    d = state.deal
    if d is None or seat != d.turn:  # hints, refusals and the cursor are only ever the seat to act's
        return {}
    out = {}
    blind_buy = d.phase == BUY and d.blind and seat == d.frapper and d.turn_up is not None and not d.took_trump
    if not d.looked[seat]:
        if blind_buy:
            out["hints"] = {UI_KEYS["take_trump"]: t["look_first"]}  # F16: the discard is named, so look first
        return out
    refusals = _refusals(state, d, seat, t, lang)
    if refusals:
        out["refusals"] = refusals
    if blind_buy or d.phase == CUT_DISCARD:
        out["cursor"] = _weakest(d.hands[seat], d.trump)  # F16: not the top trump; F17: not the turn-up just taken
    return out
