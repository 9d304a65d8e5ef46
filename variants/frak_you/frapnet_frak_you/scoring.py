"""Frak You's scoring in penalty points (K11, K12), its deal and match reports and its
statistics: the hooks ``frapnet_settle``, ``frapnet_deal_report``, ``frapnet_match_report`` and
``frapnet_deal_stats`` of the game (:mod:`frapnet_frak_you.plugin`, which registers them)."""
from __future__ import annotations

from frapnet.hookspecs import hookimpl

from frapnet_frak_you.base import _order

# --- scoring (K11, K12) -------------------------------------------------------------------------

def _report(state, d):
    return {
        "dealer": d.dealer, "outcome": d.outcome or "unfinished", "order": _order(d),
        "losers": list(d.losers) if d.losers is not None else [],
        "points": state.balances[:], "passing": d.direction,
        "tricks": [len(p) for p in d.piles],
    }


@hookimpl
def frapnet_settle(state):
    """K12: each loser scores one penalty point; the match ends after the deal in which some
    player reaches ``loss_limit`` (``state.match["over"]``; the fewest points win)."""
    d = state.deal
    for s in d.losers:
        state.balances[s] += 1
    if max(state.balances) >= state.options["loss_limit"]:
        low = min(state.balances)
        state.match = dict(state.match, over=True, winners=[s for s, p in enumerate(state.balances) if p == low])
    report = _report(state, d)
    if state.match.get("over"):
        report["match_over"] = True
        report["winners"] = list(state.match["winners"])
    return report


@hookimpl
def frapnet_deal_report(state):
    return _report(state, state.deal)


@hookimpl
def frapnet_match_report(state):
    """``{"points": [...]}``: penalty points per seat (K12)."""
    return {"points": state.balances[:]}


# --- statistics (`frapnet stats`) ---------------------------------------------------------------

@hookimpl
def frapnet_deal_stats(state, report):
    """Per seat of a settled deal: ``deals_lost`` (a loser of the deal, scoring a penalty point, K12)."""
    out = [0] * state.players
    for s in report.get("losers") or ():
        out[s] = 1
    return {"deals_lost": out}
