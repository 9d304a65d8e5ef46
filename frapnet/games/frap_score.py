"""Frap's settlement (F22–F25), its deal and match reports and its statistics: the hooks
``frapnet_settle``, ``frapnet_deal_report``, ``frapnet_match_report`` and ``frapnet_deal_stats``
of the built-in game (:mod:`frapnet.games.frap`, which registers them), and the amounts a deal
moves — :func:`trick_money` (F23), :func:`contract_remise` (F24, F25), :func:`revoke_remise` (F22)
— which five-card Frap (F26) and the play solver use too."""
from __future__ import annotations

from frapnet.cards import rank_of
from frapnet.hookspecs import hookimpl

def trick_money(state, d):
    """F23: each trick pays P/4 to its taker as soon as it is taken (F26: nothing)."""
    return d.P // 4 if d.pays_tricks else 0


# --- settlement (F23, F24, F25, F22) ----------------------------------------------------------

def contract_remise(state, d, seat):
    """F24/F25: the remise ``seat`` pays for falling short of its contract (0 if made)."""
    P = d.P
    t = d.tricks[seat]
    if seat == d.frapper:
        if t >= 2:
            return 0
        if state.options["graded_remise"] and t == 1:  # F25
            if d.blind:
                return 3 * P if d.blind_turn_up is not None and rank_of(d.blind_turn_up) == "A" else 2 * P
            return P
        return 4 * P if d.blind else 2 * P
    return P if t == 0 else 0


def revoke_remise(d, seat):
    """F22 (penalize): P for a whister or cut-in player, 2P for a frapper or blind frapper."""
    if not d.revoked[seat]:
        return 0
    return 2 * d.P if seat == d.frapper else d.P


@hookimpl
def frapnet_settle(state):
    d = state.deal
    n = d.n
    remises = [0] * n
    if d.outcome == "played":
        for s in d.in_play:
            remises[s] = max(contract_remise(state, d, s), revoke_remise(d, s))  # F22: the larger, once
        for s in range(n):
            if remises[s]:
                state.balances[s] -= remises[s]
                state.pot += remises[s]  # F24: the remises make the next pot
    d.remises = remises
    return _report(state, d)


def _report(state, d):
    played = d.outcome == "played"
    return {
        "dealer": d.dealer, "outcome": d.outcome or "unfinished", "trump": d.trump,
        "tricks": d.tricks[:] if played or d.outcome is None else [0] * d.n,
        "remises": d.remises[:] if d.remises else [0] * d.n, "pot_after": state.pot,
        "frapper": d.frapper, "blind": d.blind, "whisters": sorted(d.whisters), "cut_ins": d.cut_ins[:],
        "balances": state.balances[:],
        # F23: what each seat took in trick money this deal; F22: who revoked
        "trick_money": [t * trick_money(state, d) for t in d.tricks] if played or d.outcome is None else [0] * d.n,
        "revokes": [s for s in range(d.n) if d.revoked[s]],
    }


@hookimpl
def frapnet_deal_report(state):
    return _report(state, state.deal)


@hookimpl
def frapnet_match_report(state):
    return {"balances": state.balances[:], "pot": state.pot}


# --- statistics (`frapnet stats`) -------------------------------------------------------------

@hookimpl
def frapnet_deal_stats(state, report):
    """Per seat of a settled deal: ``fraps_made`` / ``fraps_failed`` (the frapper paid no remise
    / paid one, F24; a frap nobody whisted is made, F14), ``blind_fraps`` (F10, made or not),
    ``whists`` (whisted), ``remises`` (paid a remise, F24). A thrown-in deal (F13) counts nothing."""
    n = state.players
    out = {k: [0] * n for k in ("fraps_made", "fraps_failed", "blind_fraps", "whists", "remises")}
    remises = report.get("remises") or [0] * n
    frapper = report.get("frapper")
    if frapper is not None and report.get("outcome") in ("played", "no_whist"):
        out["fraps_failed" if remises[frapper] else "fraps_made"][frapper] = 1
        if report.get("blind"):
            out["blind_fraps"][frapper] = 1
    for s in report.get("whisters") or ():
        out["whists"][s] = 1
    for s, amount in enumerate(remises):
        if amount:
            out["remises"][s] = 1
    return out
