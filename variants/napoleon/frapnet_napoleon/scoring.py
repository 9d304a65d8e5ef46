"""Napoleon's settlement (N8), its deal and match reports and its statistics: the hooks
``frapnet_settle``, ``frapnet_deal_report``, ``frapnet_match_report`` and ``frapnet_deal_stats``
of the game (:mod:`frapnet_napoleon.plugin`, which registers them). Amounts are whole chips; the
ledger stays closed (``sum(balances) + pot == 0``, N2)."""
from __future__ import annotations

from frapnet.hookspecs import hookimpl

from frapnet_napoleon.base import NAPOLEON, bid_value, tricks_needed

# --- settlement (N8) ----------------------------------------------------------------------------

@hookimpl
def frapnet_settle(state):
    """N8: made — every other player pays the declarer stake × bid; failed — the declarer pays
    every other player stake × bid and stake × bid more into the treasure. Napoleon made: also
    the whole treasure; napoleon failed: instead of stake × 5 into the treasure, as much as it
    holds (doubling it). The treasure meant is the one at settlement, this deal's stakes included.
    A thrown-in deal moves nothing (the treasure stays). Returns the deal report."""
    d = state.deal
    n = d.n
    pay = [0] * n
    to_treasure = 0
    if d.outcome == "played":
        decl = d.declarer
        amount = state.options["stake"] * tricks_needed(d.bid)
        sign = 1 if d.made else -1
        for s in range(n):
            if s != decl:
                pay[s] -= sign * amount
                pay[decl] += sign * amount
        if d.bid == NAPOLEON:
            to_treasure = -state.pot if d.made else state.pot
        elif not d.made:
            to_treasure = amount
        pay[decl] -= to_treasure
        b = state.balances
        for s in range(n):
            b[s] += pay[s]
        state.pot += to_treasure
    d.payments = pay
    d.to_treasure = to_treasure
    return _report(state, d)


def _report(state, d):
    """The per-deal report of ``frapnet replay --json`` (rules-napoleon.md): dealer, outcome,
    declarer, bid (1–5 or "napoleon"), trump (suit letter) and tricks per seat; plus extras."""
    thrown = d.outcome == "thrown_in"
    return {
        "dealer": d.dealer,
        "outcome": d.outcome or "unfinished",
        "declarer": None if thrown else d.declarer,
        "bid": None if thrown else bid_value(d.bid),
        "trump": None if thrown else d.trump,
        "tricks": [0] * d.n if thrown else d.tricks[:],
        "made": d.made,
        "payments": d.payments[:] if d.payments else [0] * d.n,
        "to_treasure": d.to_treasure,
        "pot_after": state.pot,
        "balances": state.balances[:],
    }


@hookimpl
def frapnet_deal_report(state):
    """An unfinished deal: ``outcome: "unfinished"``, the declarer and bid once the auction has
    ended (else null), the trump once led (else null), the tricks so far, no payments."""
    return _report(state, state.deal)


@hookimpl
def frapnet_match_report(state):
    """N2: the balances and the treasure (``pot``)."""
    return {"balances": state.balances[:], "pot": state.pot}


# --- statistics (`frapnet stats`) ---------------------------------------------------------------

@hookimpl
def frapnet_deal_stats(state, report):
    """Per seat of a settled deal: ``contracts_made`` / ``contracts_failed`` (the declarer's
    bid made or not), ``napoleons`` (a bid of all five tricks). A thrown-in deal counts nothing."""
    n = state.players
    out = {k: [0] * n for k in ("contracts_made", "contracts_failed", "napoleons")}
    declarer = report.get("declarer")
    if declarer is not None and report.get("made") is not None:
        out["contracts_made" if report["made"] else "contracts_failed"][declarer] = 1
        if report.get("bid") == "napoleon":
            out["napoleons"][declarer] = 1
    return out
