"""Shared fixtures: the plugin registry (built-ins, installed variants, ./plugins)."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def registry():
    from frapnet.plugins import default_registry
    return default_registry()
