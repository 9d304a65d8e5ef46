"""Five-card Frap (F26), a house-rule plugin for Frap that ships with frapnet (a built-in).

Rule F26 of the rule book (docs/rules/five_card_frap.md; ../shared/spec/rules-frap.md; S0 §6):
five cards each, at most two bidding rounds, nobody may pass after a frap (so no cut-in and no
F14), the frapper must take three tricks and each whister one, no trick money; a frapper who
makes three takes the whole pot (frap in round 1) or ⌊P/2⌋ (round 2); remises as F24 with
"three" for "two"; the next pot is what stays plus the remises, fresh antes only when it is 0.

How it works: the table registers this plugin after Frap, so its ``firstresult`` hooks are
asked first. It answers five of them and defers (returns None) to Frap for everything else:

- ``frapnet_validate_options``: the deck must hold 5 × players + 2 cards (F26), then Frap's
  own checks run;
- ``frapnet_deal``: deals five cards (Frap's ``new_deal(…, hand_size=5)``) and sets the deal's
  F26 fields — two bidding rounds, must-whist after a frap, no trick money — which Frap's
  bidding, whist round and play already honour (they refuse a pass after a frap naming F26);
- ``frapnet_settle``: the F26 settlement of a played deal (a thrown-in deal is Frap's F13);
- ``frapnet_describe_event``: log lines without the "+0" trick money, and the F26 payout.

Use: it is loaded with frapnet itself (``pip install frapnet``; ``frapnet games`` lists it);
open a table with ``--house-rule five_card_frap``. It is written exactly as a one-file plugin
in a plugins dir would be (docs/plugins.md), and could be copied out as one.
"""
from __future__ import annotations

from frapnet.cards import format_card, rank_of
from frapnet.engine.spec import HouseRuleSpec
from frapnet.errors import RuleError
from frapnet.games import frap
from frapnet.hookspecs import hookimpl

PLUGIN_NAME = "five_card_frap"
FRAPNET_API = 1
__version__ = "1.0"

HAND_SIZE = 5      # F26: five cards each, five tricks
ROUNDS = 2         # F26: at most two bidding rounds, then thrown in (F13 with two top-ups)
FRAP_TRICKS = 3    # F26: the frapper's contract

SPEC = HouseRuleSpec(
    name="five_card_frap", games=("frap",), rule="F26",
    summary="Five cards each; two bidding rounds; no pass after a frap; frapper needs three tricks; "
            "no trick money: a made frap takes the pot (round 1) or half of it (round 2).",
)


@hookimpl
def frapnet_register_house_rules(register):
    register(SPEC)


def min_deck(players: int) -> int:
    """F26: the smallest pack for ``players`` (five cards each and up to two turn-ups)."""
    return HAND_SIZE * players + ROUNDS


@hookimpl
def frapnet_validate_options(spec, players, options):
    """F26: refuse a pack smaller than 5 × players + 2; then defer to Frap (F2)."""
    size = frap.deck_size(players, options["deck"])
    need = min_deck(players)
    if size < need:
        raise RuleError("F26", f"five-card Frap: a {size}-card deck is too small for {players} players "
                               f"(needs at least {need}: five cards each and two turn-ups)")
    return None


@hookimpl
def frapnet_deal(state, deck, dealer):
    """F26 dealing: five cards each (F8 order), fresh antes only into an empty pot (F5)."""
    ante = 0
    if state.pot == 0:  # F5 / F26: fresh antes only when what stays plus the remises is zero
        ante = state.options["ante"]
        for s in range(state.players):
            state.balances[s] -= ante
        state.pot += ante * state.players
    d = frap.new_deal(state, deck, dealer, hand_size=HAND_SIZE)
    d.max_rounds = ROUNDS      # F26: two bidding rounds, then thrown in
    d.must_whist = True        # F26: after a frap every other player must whist
    d.pays_tricks = False      # F26: no trick money (replaces F23)
    return [{"type": "deal", "dealer": dealer, "deal_no": state.deal_no, "turn_up": d.turn_up,
             "ante": ante, "pot": state.pot}]


def frapper_remise(state, d) -> int:
    """F26 (F24 with "three" for "two"): what the frapper pays for taking fewer than three tricks.

    2P, or 4P for a blind frap. With ``graded_remise`` (F25, decision): a frapper who took one
    or two tricks pays P (blind: 2P, or 3P when the turn-up in force at the blind frap is an
    ace); with no trick the full remise. 0 when the contract is made.
    """
    P = d.P
    t = d.tricks[d.frapper]
    if t >= FRAP_TRICKS:
        return 0
    if state.options["graded_remise"] and t >= 1:
        if d.blind:
            return 3 * P if d.blind_turn_up is not None and rank_of(d.blind_turn_up) == "A" else 2 * P
        return P
    return 4 * P if d.blind else 2 * P


def frapper_wins(d) -> int:
    """F26: what a frapper who made three tricks takes from the pot P: all of it after a
    first-round frap, ⌊P/2⌋ after a second-round frap; 0 when the contract failed."""
    if d.tricks[d.frapper] < FRAP_TRICKS:
        return 0
    return d.P if d.frap_round == 1 else d.P // 2


@hookimpl
def frapnet_settle(state):
    """F26 settlement of a played deal; a thrown-in deal is left to Frap (F13)."""
    d = state.deal
    if d.outcome != "played":
        return None
    won = frapper_wins(d)
    if won:
        state.balances[d.frapper] += won
        state.pot -= won
    remises = [0] * d.n
    for s in d.in_play:
        if s == d.frapper:
            contract = frapper_remise(state, d)
        else:
            contract = d.P if d.tricks[s] == 0 else 0  # F26: a whister needs one trick
        remises[s] = max(contract, frap.revoke_remise(d, s))  # F22 (penalize): the larger, once
    for s, r in enumerate(remises):
        if r:
            state.balances[s] -= r
            state.pot += r  # F26: the next pot is what stays plus the remises
    d.remises = remises
    report = frap.frapnet_deal_report(state)
    report["frap_round"] = d.frap_round
    report["won"] = won
    return report


_TEXT = {
    "en": {"trick": "{who} takes the trick with {card}",
           "won": "{who} made the frap (round {round}) and takes {won}",
           "lost": "{who} fell short of three tricks",
           "end": "remises {remises}; pot {pot} carried to the next deal",
           "fresh": "no remise; fresh antes next deal"},
    "ru": {"trick": "{who} берёт взятку картой {card}",
           "won": "{who} выполняет фрап (круг {round}) и забирает {won}",
           "lost": "{who} не взял трёх взяток",
           "end": "ремизы {remises}; кон {pot} переходит дальше",
           "fresh": "ремизов нет; новые взносы"},
}


@hookimpl
def frapnet_describe_event(state, event, names, lang):
    """Tricks without trick money, and the F26 payout at the end of a played deal."""
    t = _TEXT.get(lang, _TEXT["en"])

    def name(s):
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    kind = event.get("type")
    if kind == "trick":
        card = [c for s, c in event["cards"] if s == event["winner"]][0]
        return t["trick"].format(who=name(event["winner"]), card=format_card(card, symbols=True))
    if kind == "deal_end" and event["report"].get("outcome") == "played" and "won" in event["report"]:
        r = event["report"]
        parts = [t["won"].format(who=name(r["frapper"]), round=r["frap_round"], won=r["won"]) if r["won"]
                 else t["lost"].format(who=name(r["frapper"]))]
        rem = ", ".join(f"{name(s)} −{x}" for s, x in enumerate(r["remises"]) if x)  # paid: a change, signed
        parts.append(t["end"].format(remises=rem, pot=r["pot_after"]) if r["pot_after"] else t["fresh"])
        return "; ".join(parts)
    return None
