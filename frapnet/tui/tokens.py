"""Seat tokens kept between runs, so `frapnet join` gets its seat back after a closed terminal.

The host gives each seated player a secret seat token (docs/hosting.md, docs/protocol.md); the
TableClient resends it on reconnect within one run. This module keeps it on disk too, in one
small JSON file readable only by you (mode 0600, its directory 0700)::

    $XDG_STATE_HOME/frapnet/tokens.json      (default ~/.local/state/frapnet/tokens.json; frapnet.paths)
    {"127.0.0.1:7777/": {"token": "…", "table": "Olga's table", "seat": 0, "saved": 1764441600}}

keyed by ``HOST:PORT/TABLE`` (TABLE empty unless a table was named in the hello). A token is
forgotten when the player leaves on purpose (the seat is given up) or the host no longer knows
it (``bad_token``). At most :data:`MAX_ENTRIES` tables are kept (the oldest go first).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from frapnet import paths

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


def load_token(host: str, port: int, table: str | None = None, path: Path | None = None) -> str | None:
    """The saved seat token for this table, or None (no file, no entry, unreadable file)."""
    entry = _load(path or tokens_path()).get(table_key(host, port, table))
    tok = entry.get("token") if isinstance(entry, dict) else None
    return tok if isinstance(tok, str) and tok else None


def save_token(host: str, port: int, token: str, table: str | None = None, *, name: str = "",
               seat: int | None = None, path: Path | None = None) -> None:
    """Remember ``token`` for this table (``name``: the table's name, for a reader of the file)."""
    p = path or tokens_path()
    data = _load(p)
    data[table_key(host, port, table)] = {"token": token, "table": name, "seat": seat, "saved": int(time.time())}
    if len(data) > MAX_ENTRIES:
        old = sorted(data, key=lambda k: data[k].get("saved", 0) if isinstance(data[k], dict) else 0)
        for k in old[:len(data) - MAX_ENTRIES]:
            del data[k]
    _store(p, data)


def forget_token(host: str, port: int, table: str | None = None, path: Path | None = None) -> None:
    """Drop the saved token for this table (the seat was given up, or the host refused it)."""
    p = path or tokens_path()
    data = _load(p)
    if data.pop(table_key(host, port, table), None) is not None:
        _store(p, data)


def keeps_seat(closing: dict) -> bool:
    """Does the host's ``closing`` message leave the seat token worth keeping? Yes when it says
    ``resumable`` (the host stopped; its journal resumes the match with the same command, and
    the same join command takes the seat back — issue #9); a match over, or a host without a
    journal, makes the token useless."""
    return isinstance(closing, dict) and closing.get("resumable") is True
