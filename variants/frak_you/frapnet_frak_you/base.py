"""Frak You's deal phases and the order in which seats went out (K11): shared by the rules
(:mod:`frapnet_frak_you.plugin`), the scoring (:mod:`frapnet_frak_you.scoring`) and the views
(:mod:`frapnet_frak_you.view`)."""
from __future__ import annotations

# Deal phases
PASS, PLAY, DONE = "pass", "play", "done"


def _order(d):
    """The report's ``order``: groups in the order they went out; a tie as a sorted list, one seat as a number."""
    return [g[0] if len(g) == 1 else list(g) for g in d.out_order]
