"""The `frapnet` subcommands, one module each.

Every module defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``
(the exit status). Modules must stay cheap to import (``frapnet --help`` imports them all):
import Twisted, prompt_toolkit and the engine inside ``run``.
"""
COMMANDS = ("play", "host", "join", "tables", "bot", "replay", "verify", "export", "stats", "games", "plugins",
            "arena")
