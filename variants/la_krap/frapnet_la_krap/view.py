"""La Krap's views, labels, log lines and what the screen shows (design.md principles 3 and 10):
the hooks ``frapnet_view``, ``frapnet_action_label``, ``frapnet_describe_event``,
``frapnet_view_ui`` and ``frapnet_seat_view_ui`` of the game (:mod:`frapnet_la_krap.plugin`,
which registers them), the team marks and :func:`team_colour`. A view shows a seat its own cards
only (its team card marked, L5), every team card, trick and declaration in public.
"""
from __future__ import annotations

from frapnet.cards import card_key, card_text, SUIT_SYMBOLS
from frapnet.hookspecs import hookimpl

from frapnet_la_krap.base import (DECLARING, DONE, EXCHANGE, JOKERS, PLAY, TRICKS, _PHASE_EN, _phase_key,
                                  neutralised)

# --- views, labels, event texts ---------------------------------------------------------------

_PHASE_RU = {EXCHANGE: "обмен", PLAY: "розыгрыш", DECLARING: "объявление или ход", DONE: "сдача окончена"}


def _faces(lang):
    """``(_sym, _syms)`` naming cards in ``lang`` (Russian В Д К Т for J Q K A; jokers told apart)."""
    def one(card):
        return card_text(card, lang)
    return one, lambda cards: " ".join(one(c) for c in cards)


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
                   "the match ends when someone reaches {target} points.",
           "special": ["Jokers are the two top trumps of the turn-up suit, the red joker above the black.",
                       "A card identical to an earlier one neutralises both; a two neutralises every earlier card of "
                       "its suit; the five of clubs neutralises itself and every earlier card but the one just "
                       "before it."],
           "legend": ["♥ red team, ♠ black team, ★ joker team (team cards); no mark: playing alone.",
                      "× after a card in the trick: neutralised. ◆ on a card of your hand: your team card."],
           "tricks": "tricks", "deal_points": "deal points"},
    "ru": {"title": "Ла крап", "points": "очки", "team": "карта команды", "declared": "объявлено",
           "goal": "Берите взятки командой: каждая сторона получает квадрат своих взяток и +5 за объявленных "
                   "короля и даму; партия кончается, когда кто-то наберёт {target} очков.",
           "special": ["Джокеры — два старших козыря масти вскрышки: красный выше чёрного.",
                       "Одинаковая карта нейтрализует обе; двойка нейтрализует все прежние карты своей масти; "
                       "пятёрка треф нейтрализует себя и все прежние карты, кроме сыгранной прямо перед ней."],
           "legend": ["♥ красная команда, ♠ чёрная, ★ команда джокеров (карты команды); без знака — играет один.",
                      "× после карты во взятке: нейтрализована. ◆ на карте вашей руки: ваша карта команды."],
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
