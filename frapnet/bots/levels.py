"""The computer players' levels and defaults (no imports: cheap for every command's --help)."""

LEVELS = {
    "random": "any legal action, uniformly at random",
    "basic": "the game's quick rules of thumb, remembering the cards seen this deal (about 1 ms a move)",
    "expert": "searches sampled deals to the end for the best mean result (--think seconds a move)",
}
"""Every level with its one-line description (``--level`` help lists them)."""

DEFAULT_LEVEL = "expert"
"""The strongest level that meets the time target (p99 ≤ 1 s a decision): the default of
``frapnet play``, ``host --bots`` and takeover."""

DEFAULT_THINK = 0.4
"""``expert``'s default budget: seconds of wall time per decision."""


def level_help() -> str:
    """The ``--level`` help text: every level on a line of its own, the default marked."""
    return "\n".join(f"{k}: {v}" + (" (default)" if k == DEFAULT_LEVEL else "") for k, v in LEVELS.items())
