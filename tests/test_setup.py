"""`./run setup` as a newcomer meets it (issue #10 item 1): one line of progress per step, no
pip or setuptools output on the terminal, and one sentence when the package registry cannot be
reached; every distribution carries the MIT licence and one version.

The offline run points pip at a closed port on loopback (nothing leaves the machine): a fresh
copy of the tracked files, a new .venv, then the install fails at the first download.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISTS = {".": "frapnet", "variants/napoleon": "frapnet_napoleon", "variants/frak_you": "frapnet_frak_you",
         "variants/la_krap": "frapnet_la_krap"}


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [f for f in out.stdout.decode().split("\0") if f and (ROOT / f).is_file()]


@pytest.mark.parametrize("where", sorted(DISTS))
def test_every_distribution_is_mit_licensed_with_one_version(where):
    """Issue #10 packaging: SPDX ``license = "MIT"``, the LICENSE file beside the pyproject (the
    same text as the top-level one), classifiers, and the version read from the package's
    ``__version__`` (declared dynamic, never written twice)."""
    d = ROOT / where
    cfg = tomllib.loads((d / "pyproject.toml").read_text(encoding="utf-8"))
    proj = cfg["project"]
    assert proj["license"] == "MIT" and proj["license-files"] == ["LICENSE"]
    assert (d / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert "version" not in proj and proj["dynamic"] == ["version"]
    assert cfg["tool"]["setuptools"]["dynamic"]["version"] == {"attr": f"{DISTS[where]}.__version__"}
    assert "Programming Language :: Python :: 3.11" in proj["classifiers"]
    assert not any(c.startswith("License ::") for c in proj["classifiers"])  # PEP 639: the SPDX field says it
    assert any(r.startswith("setuptools>=77") for r in cfg["build-system"]["requires"])


def test_installed_versions_come_from_the_packages():
    from importlib import metadata

    import frapnet
    import frapnet_napoleon
    assert metadata.version("frapnet") == frapnet.__version__
    assert metadata.version("frapnet-napoleon") == frapnet_napoleon.__version__
    assert metadata.metadata("frapnet")["License-Expression"] == "MIT"


@pytest.mark.slow
def test_setup_without_the_registry_says_so_in_one_sentence(tmp_path):
    """Issue #10 item 1: offline, `./run setup` prints its progress lines and then one sentence
    naming the registry — no pip WARNING/ERROR lines, no traceback — and exits 1."""
    src = tmp_path / "frapnet"
    for f in tracked_files():
        dest = src / f
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes((ROOT / f).read_bytes())
        os.chmod(dest, (ROOT / f).stat().st_mode)
    closed = socket.socket()  # bound, never listening: every connection to it is refused
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=f"http://127.0.0.1:{port}/simple/", PIP_RETRIES="0",
               PIP_TIMEOUT="5", PYTHON=sys.executable)
    try:
        p = subprocess.run(["bash", str(src / "run"), "setup"], cwd=src, env=env, capture_output=True, text=True,
                           timeout=240)
    finally:
        closed.close()
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 1, p.stderr
    assert p.stdout == ""
    assert lines[0].startswith("run: creating the virtual environment .venv… done ("), lines
    assert lines[-2].endswith("… failed"), lines
    assert lines[-1].startswith("run: cannot reach the package registry (PyPI) to download frapnet's dependencies;"), lines
    assert lines[-1].endswith("(pip's messages are in .venv/setup.log).") and lines[-1].count(". ") == 0
    assert len(lines) <= 4, lines  # venv, (build tool), the failed step, the sentence
    assert not any(w in p.stderr for w in ("WARNING", "ERROR", "Traceback", "No matching distribution"))
    log = (src / ".venv" / "setup.log").read_text()
    assert "No matching distribution found for setuptools>=77" in log  # pip's own words are kept for whoever looks
    assert not (src / ".venv" / ".frapnet-installed").exists()  # the next ./run tries again
