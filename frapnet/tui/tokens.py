"""Seat tokens kept between runs, so `frapnet join` gets its seat back after a closed terminal.

The host gives each seated player a secret seat token (docs/hosting.md, docs/protocol.md); the
TableClient resends it on reconnect within one run. This module keeps it on disk too, in one
small JSON file readable only by you (mode 0600, its directory 0700)::

    $XDG_STATE_HOME/frapnet/tokens.json      (default ~/.local/state/frapnet/tokens.json; frapnet.paths)
    {"127.0.0.1:7777/": {"Olga": {"token": "…", "table": "Olga's table", "seat": 0, "saved": 1764441600},
                         "Ivan": {"token": "…", "table": "Olga's table", "seat": 2, "saved": 1764441610}}}

keyed by ``HOST:PORT/TABLE`` (TABLE empty unless a table was named in the hello), then by the
name the player joined under (``--name``): two people joining one table from one account (two
terminals) each keep their own seat, and a join under another name never takes someone else's
seat. An entry saved without a name (``""``; a file of an older frapnet, whose entries were the
token map itself) is used by whoever joins that table. A token is forgotten when the player
leaves on purpose (the seat is given up) or the host no longer knows it (``bad_token``). At most
:data:`MAX_ENTRIES` tokens are kept (the oldest go first).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from frapnet import paths
from frapnet.net.protocol import closing_code

MAX_ENTRIES = 64


def tokens_path() -> Path:
    """The file: :func:`frapnet.paths.tokens_file` (``$XDG_STATE_HOME/frapnet/tokens.json``,
    default ``~/.local/state/frapnet/tokens.json`` on Linux)."""
    return paths.tokens_file()


def table_key(host: str, port: int, table: str | None = None) -> str:
    """``HOST:PORT/TABLE`` (IPv6 hosts in brackets)."""
    h = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{h}:{int(port)}/{table or ''}"


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # missing, damaged, or nested too deep (issue #9)
        return {}
    return data if isinstance(data, dict) else {}


def _store(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _players(data: dict, key: str) -> dict:
    """The table's entries by player name (an older file's single entry: under ``""``)."""
    got = data.get(key)
    if not isinstance(got, dict):
        return {}
    if isinstance(got.get("token"), str):  # an older frapnet's file: the entry itself, no player name
        return {"": got}
    return {k: v for k, v in got.items() if isinstance(k, str) and isinstance(v, dict)}


def load_token(host: str, port: int, table: str | None = None, path: Path | None = None, *,
               player: str = "") -> str | None:
    """The seat token saved for ``player`` (the name joined under) at this table, else the one
    saved there without a name; None when there is none (no file, no entry, unreadable file)."""
    entries = _players(_load(path or tokens_path()), table_key(host, port, table))
    for who in dict.fromkeys((player, "")):
        tok = entries.get(who, {}).get("token")
        if isinstance(tok, str) and tok:
            return tok
    return None


def save_token(host: str, port: int, token: str, table: str | None = None, *, name: str = "",
               seat: int | None = None, path: Path | None = None, player: str = "") -> None:
    """Remember ``token`` for ``player`` (the name joined under) at this table (``name``: the
    table's name, for a reader of the file)."""
    p = path or tokens_path()
    data = _load(p)
    key = table_key(host, port, table)
    entries = _players(data, key)
    entries.pop("", None)  # a nameless (older) entry for this table is replaced by a named one
    entries[player] = {"token": token, "table": name, "seat": seat, "saved": int(time.time())}
    data[key] = entries
    every = [(e.get("saved", 0) if isinstance(e.get("saved", 0), (int, float)) else 0, k, who)
             for k in list(data) for who, e in _players(data, k).items()]
    for _, k, who in sorted(every)[:max(0, len(every) - MAX_ENTRIES)]:
        left = _players(data, k)
        left.pop(who, None)
        if left:
            data[k] = left
        else:
            del data[k]
    _store(p, data)


def forget_token(host: str, port: int, table: str | None = None, path: Path | None = None, *,
                 player: str = "") -> None:
    """Drop ``player``'s saved token for this table, and one saved there without a name (the seat
    was given up, or the host refused the token)."""
    p = path or tokens_path()
    data = _load(p)
    key = table_key(host, port, table)
    entries = _players(data, key)
    if not any(who in entries for who in (player, "")):
        return
    for who in (player, ""):
        entries.pop(who, None)
    if entries:
        data[key] = entries
    else:
        data.pop(key, None)
    _store(p, data)


def keeps_seat(closing: dict) -> bool:
    """Does the host's ``closing`` message leave the seat token worth keeping? Yes when it says
    ``resumable`` (the host stopped; its journal resumes the match with the same command, and
    the same join command takes the seat back — issue #9), and when another connection took the
    seat with this token (``code`` ``"replaced"``: this player's other terminal, which saved the
    same token and plays on with it); a match over, or a host without a journal, makes the token
    useless."""
    return isinstance(closing, dict) and (closing.get("resumable") is True or closing_code(closing) == "replaced")
