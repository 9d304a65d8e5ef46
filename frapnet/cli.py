"""The `frapnet` command: subcommands live in frapnet.commands (one module each)."""
from __future__ import annotations

import argparse
import importlib
import sys

from frapnet import __version__
from frapnet.commands import COMMANDS


class LinesHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, except that an option help holding newlines keeps one item a line
    (``--level``: every level on its own line), each wrapped to the width."""

    def _split_lines(self, text, width):
        if "\n" in text:
            import textwrap
            return [w for part in text.splitlines() for w in (textwrap.wrap(part, width, subsequent_indent="  ") or [""])]
        return super()._split_lines(text, width)


class Parser(argparse.ArgumentParser):
    """argparse's parser, except that a mistake on the command line is one line — ``frapnet
    host: argument --level: invalid choice: 'godlike' (…); frapnet host --help lists the
    options`` — and exit status 2, without the whole usage printed before it."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message}; {self.prog} --help lists the options\n")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="frapnet",
        description="frapnet — a LAN card table for Frap (Храп) and its variants.",
        epilog="Start here: `frapnet play` opens a local Frap table against computer players.")
    p.add_argument("--version", action="version", version=f"frapnet {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"frapnet.commands.{name}")
        except ImportError:
            continue  # a command not built yet
        sp = sub.add_parser(name, help=mod.HELP, description=mod.HELP, formatter_class=LinesHelpFormatter)
        mod.add_arguments(sp)
        sp.set_defaults(_run=mod.run)
    return p


def main(argv: list[str] | None = None) -> int:
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # F6: amounts are exact at any size, in records and on screen
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 0
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `frapnet games | head`: the reader left; not an error of ours
        import os
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0


if __name__ == "__main__":
    sys.exit(main())
