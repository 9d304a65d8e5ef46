"""What `frapnet host`, `frapnet play` and `frapnet join` read from their command lines the same
way: table options (``--option KEY=VALUE``) and the default player name. Cheap to import."""
from __future__ import annotations

import getpass
import json


def parse_options(items: list[str]) -> dict:
    """``["ante=200", "cut_in=false"]`` → ``{"ante": 200, "cut_in": False}`` (JSON if possible).
    Raises ValueError for an item without ``=`` or a key, or a JSON value nested too deeply
    for the parser."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {item!r}: expected KEY=VALUE")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
        except RecursionError:
            raise ValueError(f"--option {key.strip()}: the value is nested too deeply") from None
    return out


def default_name() -> str:
    """The login name, else "Player"."""
    try:
        return getpass.getuser() or "Player"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "Player"
