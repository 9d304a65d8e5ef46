"""Shared fixtures: the plugin registry (built-ins, installed variants, ./plugins)."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def registry():
    from frapnet.plugins import default_registry
    return default_registry()


def pytest_configure(config):
    # tests/test_install.py (pip into a fresh venv, ~30 s): CI runs it; `-m "not slow"` skips it
    config.addinivalue_line("markers", "slow: slow tests (pip installs); deselect with -m 'not slow'")
