"""Shared fixtures: the plugin registry (built-ins, installed variants, ./plugins)."""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

import frapnet.plugins  # noqa: F401 - the tests are library callers: the installed plugins are the engine's default

ROOT = Path(__file__).resolve().parent.parent

# The suite never reads the real user's config file (issue #10; frapnet.paths.config_file):
# commands run here, and the subprocesses they start, read tests/suite-config.toml instead — its one
# setting seats `basic` computer players wherever a test does not choose a level, so the host,
# client and web tests do not spend their minutes searching (`expert` has its own tests, which
# pass --level expert).
os.environ.setdefault("FRAPNET_CONFIG", str(ROOT / "tests" / "suite-config.toml"))


def _bytecode_cache() -> None:
    """Hundreds of tests start `python -m frapnet …` processes. Where PYTHONDONTWRITEBYTECODE is
    set (this machine and CI set it) each of them compiled frapnet's modules from source again,
    ≈0.3 s of CPU a process (a fifth of the CPU of the process-heavy test files). The suite's
    processes keep their bytecode in a cache folder of this user's outside the checkout instead
    (PYTHONPYCACHEPREFIX; a .pyc is checked against its source's size and time, and written by
    rename, so runs at the same time share it safely). A PYTHONPYCACHEPREFIX already set wins."""
    if os.environ.get("PYTHONPYCACHEPREFIX") or not hasattr(os, "getuid"):
        return
    d = Path(tempfile.gettempdir()) / f"frapnet-pycache-{os.getuid()}"
    try:
        d.mkdir(mode=0o700, exist_ok=True)
        st = d.lstat()
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
            return  # not ours alone: compile from source as before
    except OSError:
        return
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(d)


_bytecode_cache()


@pytest.fixture(autouse=True)
def _private_data_folder(tmp_path_factory, monkeypatch):
    """Each test, and every process it starts, has its own user data and state folders
    (XDG_DATA_HOME: frapnet.paths.data_dir, where `frapnet host` keeps its journal by default,
    issue #9; XDG_STATE_HOME: frapnet.paths.state_dir, the seat tokens) — so no test resumes
    another's unfinished match or takes another's seat token, tests running at the same time
    (./run test's worker processes, docs/performance.md) never share a file, and nothing is
    written into the real user's folders. A test that sets either itself still wins."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(scope="session")
def registry():
    from frapnet.plugins import default_registry
    return default_registry()


def pytest_sessionfinish(session, exitstatus):
    """The tmux servers of the terminal tests (``tmux -L frapnet-…-PID-…``: tests/test_tui_tmux.py,
    test_match_end_tmux.py, test_web_browser.py) are killed by each test; their socket files are
    removed here — this process's only — so that a machine running the suite often does not
    gather thousands of them."""
    folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
    for sock in folder.glob(f"frapnet-*-{os.getpid()}-*"):
        try:
            sock.unlink()
        except OSError:
            pass


def pytest_configure(config):
    # tests/test_install.py (pip into a fresh venv, ~30 s): CI runs it; `-m "not slow"` skips it
    config.addinivalue_line("markers", "slow: slow tests (pip installs); deselect with -m 'not slow'")


# The longest tests (10–55 s each on a quiet machine, `--durations`), longest first. With worker
# processes (./run test, pytest-xdist) they are handed out first, so that none of them starts near
# the end and leaves the other workers idle while it finishes; run in one process the order is the
# files' own. A name that no longer matches anything only stops being moved.
LONG_TESTS = (
    "tests/test_install.py::test_pip_install_frapnet_and_napoleon_then_host_a_match",
    "variants/frak_you/tests/test_frak_you_bots.py::test_sampler_frak_you_views_passes_and_voids",
    "tests/test_web_browser.py::test_a_browser_player_and_a_terminal_player_see_the_same_deal",
    "tests/test_web_browser.py::test_a_whole_deal_through_the_page_replays_to_what_it_showed",
    "variants/napoleon/tests/test_napoleon_random.py::test_random_play_many_actions_all_sizes",
    "tests/test_bots_search.py::test_variant_samplers_hold_the_sampling_property",
    "tests/test_bots_search.py::test_every_level_sends_only_legal_actions_in_every_game",
    "tests/test_properties.py::test_random_playouts_keep_every_invariant",
    "tests/test_setup.py::test_setup_without_the_registry_says_so_in_one_sentence",
    "tests/test_net_reconnect.py::test_host_killed_mid_deal_resumes_same_match",
    "variants/la_krap/tests/test_la_krap_bots.py::test_sampler_la_krap_views_exchanges_and_voids",
    "tests/test_crash.py::test_kill_9_at_random_moments_the_same_command_finishes_the_match",
)


def pytest_collection_modifyitems(config, items):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return

    def rank(item):
        name = item.nodeid.split("[", 1)[0]
        return LONG_TESTS.index(name) if name in LONG_TESTS else len(LONG_TESTS)
    items.sort(key=rank)  # stable: the same order in every worker, as xdist requires


class MemoryWebSocket:
    """A browser's WebSocket to the web endpoint (frapnet.net.web) over an in-memory transport:
    the real HTTP server, upgrade and WebSocket stack (Twisted + wsproto) on the server side, a
    wsproto client connection on ours. ``raw()`` is every byte the endpoint sent (the leak test
    scans them); ``read()`` decodes the messages received since the last call."""

    _n = 40000

    def __init__(self, web_factory, origin="auto", host="127.0.0.1:8080", path="/ws"):
        from twisted.internet.address import IPv4Address
        from twisted.internet.testing import StringTransportWithDisconnection
        from wsproto import ConnectionType, WSConnection
        from wsproto.events import Request

        MemoryWebSocket._n += 1
        addr = IPv4Address("TCP", "127.0.0.1", MemoryWebSocket._n)
        self.proto = web_factory.buildProtocol(addr)
        self.tr = StringTransportWithDisconnection(peerAddress=addr)
        self.tr.protocol = self.proto
        self.proto.makeConnection(self.tr)
        self.ws = WSConnection(ConnectionType.CLIENT)
        headers = [] if origin is None else [("Origin", f"http://{host}" if origin == "auto" else origin)]
        self.pos = 0
        self.accepted = None
        self.rejected_status = None
        self.closed_code = None
        self.messages: list = []
        self.view = None
        self.proto.dataReceived(self.ws.send(Request(host=host, target=path, extra_headers=headers)))
        self._pump()

    def raw(self) -> bytes:
        return self.tr.value()

    def _pump(self) -> None:
        from frapnet.net import wire
        from wsproto.events import (AcceptConnection, BytesMessage, CloseConnection, RejectConnection,
                                    TextMessage)

        data = self.tr.value()[self.pos:]
        self.pos += len(data)
        if not data:
            return
        self.ws.receive_data(data)
        buf = b""
        for ev in self.ws.events():
            if isinstance(ev, AcceptConnection):
                self.accepted = True
            elif isinstance(ev, RejectConnection):
                self.accepted = False
                self.rejected_status = ev.status_code
            elif isinstance(ev, BytesMessage):
                buf += ev.data
                if ev.message_finished:
                    msg = wire.decode(buf)
                    buf = b""
                    if msg["type"] == "view":
                        self.view = msg["view"]
                    self.messages.append(msg)
            elif isinstance(ev, TextMessage):
                raise AssertionError(f"the endpoint sent a text message: {ev.data!r}")
            elif isinstance(ev, CloseConnection):
                self.closed_code = ev.code

    def read(self) -> list:
        self._pump()
        out, self.messages = self.messages, []
        return out

    def send(self, msg: dict) -> None:
        from frapnet.net import wire
        self.send_bytes(wire.encode(msg))

    def send_bytes(self, body: bytes) -> None:
        from wsproto.events import Message
        self.proto.dataReceived(self.ws.send(Message(data=body)))

    @property
    def disconnected(self) -> bool:
        return self.tr.disconnecting or not self.tr.connected


@pytest.fixture
def memory_ws():
    """The :class:`MemoryWebSocket` class (a browser's WebSocket over an in-memory transport)."""
    return MemoryWebSocket
