"""Napoleon's deal phases, their rule IDs and names, the hand and pack sizes and the bid ranks:
shared by the rules (:mod:`frapnet_napoleon.plugin`), the settlement
(:mod:`frapnet_napoleon.scoring`) and the views (:mod:`frapnet_napoleon.view`)."""
from __future__ import annotations

# Deal phases
AUCTION, BUY, PLAY, DONE = "auction", "buy", "play", "done"
PHASE_RULE = {AUCTION: "N4", BUY: "N5", PLAY: "N6", DONE: "record"}  # record-format.md, "Which rule an error names"

HAND = 5             # N3: five cards each, so five tricks at most
PACK_SIZE = 36       # N1: 6–A
NAPOLEON = 6         # N4: the rank of a bid "for Napoleon", above a plain five (bids 1…5 rank as themselves)

_PHASE_EN = {AUCTION: "auction", BUY: "buying", PLAY: "play", DONE: "deal over"}
"""Each phase's name in English, for error messages (and the English view)."""


def bid_value(rank: int | None):
    """A bid rank as the record and reports write it: 1…5, or ``"napoleon"`` (rank 6); None stays None."""
    if rank is None or rank == 0:
        return None
    return "napoleon" if rank == NAPOLEON else rank


def tricks_needed(rank: int) -> int:
    """N7/N8: the tricks a bid of this rank must take (a bid for Napoleon: all five)."""
    return HAND if rank == NAPOLEON else rank
