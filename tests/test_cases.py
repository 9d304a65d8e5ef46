"""Every deal record in ../shared/cases/ replays to its `expect` (record-format.md, cases/README.md).

A new case file is picked up with no code change. A case whose game is not installed is skipped
with the reason (CI installs every variant, so none is skipped there). Without ../shared (and no
FRAPNET_SHARED) every test here skips saying so; under CI=true they fail instead (conftest.py).
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from frapnet import record
from frapnet.testing import case_files, matches, shared_dir

CASES = shared_dir() / "cases"
CASE_FILES = case_files()

pytestmark = pytest.mark.shared


def test_cases_exist():
    assert len(CASE_FILES) >= 20, f"expected the shared cases under {CASES}"


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case(path, registry):
    case = json.loads(path.read_text())
    game = case["record"]["game"]
    if game not in registry.games:
        pytest.skip(f"game {game!r} is not installed (pip install ./variants/...)")
    got = record.replay_json(case["record"], registry)
    matches(case["expect"], got)


@pytest.mark.parametrize("name", ["frap-s0-worked-example", "frap-illegal-must-trump"])
def test_replay_command_exit_status(name, tmp_path):
    """`frapnet replay --json` prints the object and exits 0 / 2 (record-format.md)."""
    case = json.loads((CASES / f"{name}.json").read_text())
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(case["record"]))
    p = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(f), "--json"], capture_output=True, text=True)
    assert p.returncode == (0 if case["expect"]["ok"] else 2), p.stderr
    matches(case["expect"], json.loads(p.stdout))
