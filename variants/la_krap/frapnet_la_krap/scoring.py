"""La Krap's scoring (L12), its deal and match reports and its statistics: the hooks
``frapnet_settle``, ``frapnet_deal_report``, ``frapnet_match_report`` and ``frapnet_deal_stats``
of the game (:mod:`frapnet_la_krap.plugin`, which registers them), and :func:`winners`."""
from __future__ import annotations

from frapnet.hookspecs import hookimpl

from frapnet_la_krap.base import side_scores

# --- scoring (L12) ----------------------------------------------------------------------------

@hookimpl
def frapnet_settle(state):
    """L12: each side scores t² + 5 per declaration; every member is credited; the match ends
    after the deal in which some player reaches ``target``."""
    d = state.deal
    pts = side_scores(d.sides, d.tricks, [len(x) for x in d.declared])
    d.deal_points = pts
    b = state.balances
    for s in range(d.n):
        b[s] += pts[s]
    if max(b) >= state.options["target"]:
        state.match = {**state.match, "over": True}
    return _report(state, d)


def winners(state) -> list[int]:
    """L12: the seats with the highest score (equal scores share the win)."""
    top = max(state.balances)
    return [s for s, p in enumerate(state.balances) if p == top]


def _report(state, d):
    """The deal's ``replay --json`` entry: the rule book's keys (teams, game_type, trump, tricks,
    deal_points) plus dealer, outcome, declarations (suits per seat), points_after and, when the
    match has ended, match_over and winners. It names no card: it stays on show in the next
    deal's views (``last_report``), where old cards would only confuse."""
    finished = d.deal_points is not None
    r = {
        "dealer": d.dealer, "outcome": "played" if finished else "unfinished",
        "teams": [list(s) for s in d.sides], "game_type": d.game_type, "trump": d.trump,
        "tricks": d.tricks[:], "declarations": [x[:] for x in d.declared],
        "deal_points": d.deal_points[:] if finished else None,
        "points_after": state.balances[:],
    }
    if finished and state.match.get("over"):
        r["match_over"] = True
        r["winners"] = winners(state)
    return r


@hookimpl
def frapnet_deal_report(state):
    return _report(state, state.deal)


@hookimpl
def frapnet_match_report(state):
    out = {"points": state.balances[:]}
    if state.match.get("over"):
        out["winners"] = winners(state)
    return out


# --- statistics (`frapnet stats`) ---------------------------------------------------------------

@hookimpl
def frapnet_deal_stats(state, report):
    """Per seat of a settled deal: ``deals_won`` (on the side that scored the most points, L12,
    if it scored any) and ``declarations`` (suits declared, L12's +5 each)."""
    n = state.players
    pts = report.get("deal_points") or [0] * n
    best = max(pts) if pts else 0
    return {"deals_won": [1 if best > 0 and pts[s] == best else 0 for s in range(n)],
            "declarations": [len(d) for d in (report.get("declarations") or [[]] * n)]}
