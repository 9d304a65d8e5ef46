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
    config.addinivalue_line("markers", "shared: reads the shared rule books and cases (../shared beside the "
                            "clone, or $FRAPNET_SHARED); skipped with the reason where they are missing, an error "
                            "under CI=true or when FRAPNET_SHARED names a missing folder (frapnet.testing.require_shared)")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "_frapnet_data", ""), ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """A test marked ``shared`` runs only where the shared rule cases are (../shared, or
    $FRAPNET_SHARED): elsewhere it skips — or fails, under CI — with one reason naming what is
    missing and how to provide it. Called before pytest's own skip marks (a conftest's tryfirst
    comes before the built-in plugins'): a test parametrized over the case files has no
    parameters without them, and would otherwise skip saying only "got empty parameter set"."""
    if item.get_closest_marker("shared") is not None:
        from frapnet.testing import require_shared
        require_shared()


@pytest.fixture(autouse=True)
def _private_journal(tmp_path_factory, monkeypatch, request):
    path = str(tmp_path_factory.mktemp("xdg-data"))
    monkeypatch.setenv("XDG_DATA_HOME", path)
    env = getattr(request.module, "ENV", None)  # a module's copy of the environment for its processes
    if isinstance(env, dict):
        monkeypatch.setitem(env, "XDG_DATA_HOME", path)
