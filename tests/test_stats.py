"""`frapnet stats` counts (issue #9 item 3): the games' ``frapnet_deal_stats`` hook and
:func:`frapnet.stats.match_stats` over a replayed record."""
from __future__ import annotations

import random

import pytest

from frapnet import engine, stats

GAMES = {"frap": (4, {"fraps_made", "fraps_failed", "blind_fraps", "whists", "remises"}),
         "napoleon": (4, {"contracts_made", "contracts_failed", "napoleons"}),
         "frak_you": (4, {"deals_lost"}), "la_krap": (4, {"deals_won", "declarations"})}


def random_match(game, players, registry, deals, seed):
    rng = random.Random(seed)
    st = engine.new_match(game, players, {}, (), registry)
    for _ in range(deals):
        if st.phase == engine.OVER:
            break
        deck = engine.pack(st)
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, 0 if st.dealer is None else None)
        while st.phase == engine.DEAL:
            seat = st.to_act[0]
            st, _ = engine.apply(st, seat, rng.choice(engine.legal_actions(st, seat)))
    return st


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_counts_its_own_things_per_seat(registry, game):
    """Every built-in and variant game answers frapnet_deal_stats with its named counts, one
    whole number ≥ 0 per seat; match_stats adds them up over a record and nets the ledger."""
    if game not in registry.games:
        pytest.skip(f"the {game} variant is not installed")
    players, names = GAMES[game]
    st = random_match(game, players, registry, 12, seed=len(game))
    rec = engine.record(st)
    got = stats.match_stats(rec, registry)
    assert set(got["counts"]) == names and got["deals"] == len(st.reports)
    assert all(len(v) == players and all(isinstance(k, int) and k >= 0 for k in v) for v in got["counts"].values())
    report = engine.match_report(st)
    assert got["net"] == report.get("balances", report.get("points"))


def test_frap_counts_match_the_reports_F24(registry):
    """Frap: a frap is made when its frapper pays no remise (F24), failed when it pays one."""
    st = random_match("frap", 4, registry, 30, seed=9)
    got = stats.match_stats(engine.record(st), registry)["counts"]
    frapped = [r for r in st.reports if r["frapper"] is not None and r["outcome"] in ("played", "no_whist")]
    assert frapped, "a 30-deal random match has fraps"
    for seat in range(4):
        assert got["fraps_made"][seat] == sum(1 for r in frapped if r["frapper"] == seat and not r["remises"][seat])
        assert got["fraps_failed"][seat] == sum(1 for r in frapped if r["frapper"] == seat and r["remises"][seat])
        assert got["remises"][seat] == sum(1 for r in st.reports if r["remises"][seat])
