"""Shared by every test of the checkout (tests/ and variants/*/tests/).

Each test gets its own ``XDG_DATA_HOME`` — and so its own frapnet journal
(``journal.sqlite3`` in :func:`frapnet.paths.data_dir`) — inherited by every `frapnet host`
or `frapnet play` process it starts: no test reads or resumes another's match, and none
touches the user's own journal (issue #9).
"""
import os
import shutil
import tempfile

import pytest


def pytest_configure(config):
    """Before any test module is imported (some copy ``os.environ`` into a module-level ``ENV``):
    the whole run's data folder is a temporary one, never the user's."""
    config._frapnet_data = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="frapnet-test-data-")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "_frapnet_data", ""), ignore_errors=True)


@pytest.fixture(autouse=True)
def _private_journal(tmp_path_factory, monkeypatch, request):
    path = str(tmp_path_factory.mktemp("xdg-data"))
    monkeypatch.setenv("XDG_DATA_HOME", path)
    env = getattr(request.module, "ENV", None)  # a module's copy of the environment for its processes
    if isinstance(env, dict):
        monkeypatch.setitem(env, "XDG_DATA_HOME", path)
