"""Every per-user path frapnet uses, in one place (platformdirs; issue #10).

=============================  ==========================================  =====================
what                           Linux (XDG) default                         function
=============================  ==========================================  =====================
the config file (TOML)         ``~/.config/frapnet/config.toml``           :func:`config_file`
one-file plugins               ``~/.local/share/frapnet/plugins/``         :func:`plugins_dir`
data (journals, saved tables)  ``~/.local/share/frapnet/``                 :func:`data_dir`
state (seat tokens)            ``~/.local/state/frapnet/``                 :func:`state_dir`
seat tokens                    ``~/.local/state/frapnet/tokens.json``      :func:`tokens_file`
=============================  ==========================================  =====================

On Linux ``XDG_CONFIG_HOME``, ``XDG_DATA_HOME`` and ``XDG_STATE_HOME`` move them (read on every
call, so a test can point them at a temporary folder); macOS uses ``~/Library/Application
Support/frapnet`` (config and data) and Windows ``%LOCALAPPDATA%\\frapnet`` — whatever
platformdirs says for the platform. ``FRAPNET_CONFIG`` names another config file.

These functions only compute paths; nothing is created until a caller asks
:func:`ensure_dir` (mode 0700: seat tokens and journals are nobody else's business).
No Twisted, prompt_toolkit or frapnet imports: every layer may use this module.
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "frapnet"
CONFIG_ENV = "FRAPNET_CONFIG"


def config_dir() -> Path:
    """The folder of the user's config file (``~/.config/frapnet`` on Linux)."""
    return platformdirs.user_config_path(APP, appauthor=False)


def config_file() -> Path:
    """The user's config file: ``$FRAPNET_CONFIG`` if set and not empty, else
    ``config_dir()/config.toml`` (docs/hosting.md, "Your config file")."""
    env = os.environ.get(CONFIG_ENV)
    return Path(env) if env else config_dir() / "config.toml"


def data_dir() -> Path:
    """The folder for frapnet's lasting data — host journals, saved tables
    (``~/.local/share/frapnet`` on Linux)."""
    return platformdirs.user_data_path(APP, appauthor=False)


def state_dir() -> Path:
    """The folder for state worth keeping between runs but not precious — seat tokens
    (``~/.local/state/frapnet`` on Linux)."""
    return platformdirs.user_state_path(APP, appauthor=False)


def plugins_dir() -> Path:
    """The user's own plugins dir, ``data_dir()/plugins``: its ``*.py`` files load like a
    ``--plugins-dir`` (docs/plugins.md), when the folder exists."""
    return data_dir() / "plugins"


def tokens_file() -> Path:
    """The seat-token file, ``state_dir()/tokens.json`` (frapnet/tui/tokens.py)."""
    return state_dir() / "tokens.json"


def ensure_dir(path: Path, mode: int = 0o700) -> Path:
    """Create ``path`` (and its parents) if missing, with ``mode`` for the folders created;
    return it. Raises OSError if it cannot be created."""
    path.mkdir(parents=True, exist_ok=True, mode=mode)
    return path
