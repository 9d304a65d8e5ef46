"""Computer players: one factory, three levels, the arena (issue #8; design.md principle 8).

- :func:`make_player` (:mod:`frapnet.bots.players`) — ``make_player(level, *, game, players, seat,
  seed=None, think=None, iterations=None)`` → an object with ``observe(view)`` and
  ``choose(view) -> action``; used by ``frapnet bot``, the host's seats and takeover, ``frapnet
  play`` and ``frapnet arena``. :data:`LEVELS` lists the levels, :data:`DEFAULT_LEVEL` the default.
- :mod:`frapnet.bots.sampling` — observations → sampled states (the game's ``frapnet_sample_deal``).
- :mod:`frapnet.bots.arena` — duplicate deals, confidence intervals, decision times.
- :mod:`frapnet.bots.strategy` — the generic view-only player (fallback for games without hooks).
- :mod:`frapnet.bots.client` — a bot as a network client (``frapnet bot``, ``host --bots``).
"""
from frapnet.bots.levels import DEFAULT_LEVEL, DEFAULT_THINK, LEVELS, level_help

__all__ = ["make_player", "Player", "LEVELS", "DEFAULT_LEVEL", "DEFAULT_THINK", "level_help"]


def __getattr__(name):  # make_player and Player load the engine only when first used
    if name in ("make_player", "Player"):
        from frapnet.bots import players
        return getattr(players, name)
    raise AttributeError(f"module 'frapnet.bots' has no attribute {name!r}")
