"""Frak You's deal phases, where a won trick goes (K9, K10) and the order in which seats went
out (K11): shared by the rules (:mod:`frapnet_frak_you.plugin`), the computer players
(:mod:`frapnet_frak_you.bots`), the scoring (:mod:`frapnet_frak_you.scoring`) and the views
(:mod:`frapnet_frak_you.view`)."""
from __future__ import annotations

# Deal phases
PASS, PLAY, DONE = "pass", "play", "done"


def _order(d):
    """The report's ``order``: groups in the order they went out; a tie as a sorted list, one seat as a number."""
    return [g[0] if len(g) == 1 else list(g) for g in d.out_order]


def swaps(pile_rule: str, has_pile: bool, won_last: bool, last_laid: bool) -> bool:
    """K9/K10: whether a trick won by a seat that still holds cards swaps with the trick on top
    of its pile (True) or is laid on the pile (False).

    ``pile_rule``: the option ``pile`` (``second_in_row`` or ``any_win``); ``has_pile``: the
    winner has a trick in front of them; ``won_last``: the winner also won the trick just
    before; ``last_laid``: that trick was laid down (K9), not taken into the hand (K10).
    K10 first, under either option: a trick won right after one taken into the hand is simply
    laid on the pile. Then K9: under ``second_in_row`` (SK) a second trick in a row swaps;
    under ``any_win`` (P) any win by a player with a trick in front of them swaps."""
    if won_last and not last_laid:
        return False
    if pile_rule == "any_win":
        return has_pile
    return won_last and last_laid
