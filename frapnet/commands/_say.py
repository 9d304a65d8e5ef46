"""What `frapnet join` and `frapnet play` print on a mistake, in the player's language.

The client's language is known before it opens the screen: ``--lang``, else the config file's
``language``, else the environment (:func:`frapnet.tui.i18n.default_lang`; the screen's own rule,
:func:`cli_lang`). :func:`fail` prints ``frapnet COMMAND: mistake`` on standard error in it: in
Russian the sentence's template (:data:`MISTAKES`, translated in frapnet/locale) with its fields,
a ``{why}`` field said again the same way; a sentence of no template (a game's own rule text, an
operating system's error) is printed as written. argparse's own messages are not translated.
"""
from __future__ import annotations

import sys

from frapnet.tui.phrases import Phrases

MISTAKES = Phrases((
    "{why} (settings from {path}: {keys})",  # frapnet/commands/play.py: a rule broken by the config file's value
    "needs a terminal (standard input and output must be a terminal, not a file or a pipe)",
    # frapnet/commands/_options.py name_error, frapnet/net/protocol.py name_problem
    "bad config file {path}: name: {why}",
    "--name {name}: {why}",
    "a player name is at most {most} characters (this one has {n})",
    "a player name must have a printable character (control characters are removed)",
    # frapnet/config.py (ConfigError: "PATH: KEY: problem")
    "bad config file {path}: {key}: unknown key (known here: {known})",
    "bad config file {why}",
    # frapnet/commands/_password.py
    "--password -: standard input ended before a password line",
    "no password given",
    # frapnet/net/discovery.py (resolve, find_table)
    "no table called {name} on the LAN (tables seen: none)",
    "no table called {name} on the LAN (tables seen: {seen})",
    "several tables match {name}: {where}; join one by HOST:PORT",
    "port must be 1…65535, not {port} (in {target})",
    "--interface wants a local IPv4 address, not {address}",
    "--timeout must be more than 0 and at most 60 seconds, not {value}",
    "--interface {address}: no interface of this machine has that address",
    # frapnet/commands/play.py, frapnet/commands/_options.py parse_options
    "--deals must be at least 1, not {n}",
    "{flag} must be a finite number of seconds ≥ 0, not {value}",
    "--web must be an HTTP port 0…65535 (0: any free port), not {port}",
    "cannot listen on 127.0.0.1:{port} for --web: {why}",
    "--option {item}: expected KEY=VALUE",
    "--option {item}: given twice; give each option once",
    # frapnet/commands/_options.py record_error
    "--record {record}: is a directory, not a file",
    "--record {record}: no folder {folder}",
    "--record {record}: cannot write into {folder}: {why}",
))
"""The templates of the mistakes the two commands print (the gettext msgids)."""


def needs_terminal(command: str, lang: str) -> int | None:
    """Unless standard input and output are both a terminal (the screen client needs one):
    print ``frapnet COMMAND: needs a terminal (…)`` in ``lang`` and return 2; else None
    (`frapnet play`, `join`, `host --play`)."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return None
    return fail(command, "needs a terminal (standard input and output must be a terminal, not a file or a pipe)",
                lang)


def cli_lang(args) -> str:
    """The language the client runs in: ``args.lang`` (``--lang``, or the config file's once
    applied), else the environment's."""
    from frapnet.tui.i18n import default_lang

    return getattr(args, "lang", None) or default_lang()


def say(text: str, lang: str) -> str:
    """``text`` (a mistake, English) in ``lang``; as written if it is made from no template."""
    if lang == "en":
        return text
    from frapnet.tui.i18n import translation

    gettext = translation(lang).gettext
    return MISTAKES.say(text, gettext, lang, lambda name, value: say(value, lang) if name == "why" else value) \
        or text


def fail(command: str, text: str, lang: str) -> int:
    """Print ``frapnet COMMAND: text`` on standard error, ``text`` in ``lang`` (:func:`say`);
    return 2 (the exit status of a mistake)."""
    print(f"frapnet {command}: {say(text, lang)}", file=sys.stderr)
    return 2
