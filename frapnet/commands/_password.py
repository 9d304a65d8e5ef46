"""A table's password without putting it on the command line (issue #10).

A command line is visible to every user of the machine (``ps``) and lands in shell history, so
`frapnet host`, `join` and `bot` also take the password from:

- ``--password -``: asked for, without echo, on the terminal; when standard input is not a
  terminal, its first line is read instead (``pass show friday | frapnet bot … --password -``);
- the environment variable ``FRAPNET_PASSWORD``, when ``--password`` is not given.

``--password TEXT`` still works as before.
"""
from __future__ import annotations

import os
import sys

ENV = "FRAPNET_PASSWORD"
ASK = "-"


def table_password(value: str | None, prompt: str = "Table password: ", *, stdin=None,
                   environ=None) -> str | None:
    """The password to use: ``value`` as given (``--password TEXT``); asked for when ``value`` is
    ``"-"``; else ``$FRAPNET_PASSWORD`` if set and not empty; else None (no password).

    An empty answer to the prompt means no password (None). Raises ValueError if standard
    input is closed before a line is read."""
    env = os.environ if environ is None else environ
    if value is None:
        return env.get(ENV) or None
    if value != ASK:
        return value
    stream = sys.stdin if stdin is None else stdin
    if stream.isatty():
        import getpass

        answer = getpass.getpass(prompt)
    else:
        line = stream.readline()
        if not line:
            raise ValueError("--password -: standard input ended before a password line")
        answer = line.rstrip("\r\n")
    return answer or None
