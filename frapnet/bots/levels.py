"""The computer players' levels and defaults (no imports: cheap for every command's --help)."""

LEVELS = {
    "random": "any legal action, uniformly at random",
    "basic": "the game's quick rules of thumb, remembering the cards seen this deal (about 1 ms a move)",
    "expert": "searches sampled deals to the end for the best mean result",
}
"""Every level with its one-line description (``--level`` help lists them, with expert's time)."""

DEFAULT_LEVEL = "expert"
"""The strongest level that meets the time target (p99 ≤ 1 s a decision): the default of
``frapnet play``, ``host --bots`` and takeover."""

DEFAULT_THINK = 0.4
"""``expert``'s default budget: seconds of wall time per decision."""


def level_help(think_option: bool = False) -> str:
    """The ``--level`` help text: every level on a line of its own, the default marked, expert's
    time a move named — as ``--think`` seconds where the command has that option
    (``think_option``: `frapnet bot`), else as the default budget every other command uses."""
    budget = "--think seconds" if think_option else f"{DEFAULT_THINK:g} s"
    return "\n".join(f"{k}: {v}" + (f" ({budget} a move)" if k == "expert" else "")
                     + (" (default)" if k == DEFAULT_LEVEL else "") for k, v in LEVELS.items())
