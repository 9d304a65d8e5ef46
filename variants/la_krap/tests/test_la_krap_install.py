"""Installation as a user would do it (issue #5): a fresh virtual environment, `pip install` the
project (not editable), then `pip install ./variants/la_krap`; `frapnet games` lists la_krap
(L1 players, L12 target); a host with computer players plays a La Krap match over loopback to
its end (L12) and `frapnet replay` of its record gives the host's points.

Slow (pip; about 30 s with a warm pip cache) and marked ``slow``: `-m "not slow"` skips it.
It needs the package index pip is configured with. Tracked files only are copied to tmp_path,
so the build leaves nothing in the checkout.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


def _tracked(*paths):
    out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True)
    return [f for f in out.stdout.decode().split("\0") if f]


def _run(cmd, env, cwd, timeout=300):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    assert p.returncode == 0, f"{cmd} exited {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    return p


def test_pip_install_la_krap_then_host_a_match_to_its_end(tmp_path):
    files = _tracked("pyproject.toml", "README.md", "frapnet", "variants/la_krap")
    if "variants/la_krap/pyproject.toml" not in files:
        pytest.fail("variants/la_krap is not committed")
    src = tmp_path / "src"
    for f in files:
        if "/tests/" in f:
            continue
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, src / f)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = str(venv / "bin") + os.pathsep + env.get("PATH", "")
    py = venv / "bin" / "python"
    home = tmp_path / "home"
    home.mkdir()
    quiet = ["-q", "--disable-pip-version-check"]

    _run([py, "-m", "pip", "install", *quiet, src], env, home)
    _run([py, "-m", "pip", "install", *quiet, src / "variants" / "la_krap"], env, home)
    loc = _run([py, "-c", "import frapnet_la_krap; print(frapnet_la_krap.__file__)"], env, home).stdout.strip()
    assert loc.startswith(str(venv)), loc  # installed into the venv, not read from the checkout
    games = {g["name"]: g for g in json.loads(_run(["frapnet", "games", "--json"], env, home).stdout)["games"]}
    assert games["la_krap"]["players"] == [3, 6]
    assert [(o["name"], o["default"], o["rule"]) for o in games["la_krap"]["options"]] == [("target", 100, "L12")]

    rec = home / "match.json"
    p = _run(["frapnet", "host", "--game", "la_krap", "--players", "4", "--bots", "4", "--deals", "30",
              "--port", "0", "--bind", "127.0.0.1", "--no-announce", "--record", rec, "--bot-delay", "0",
              "--pause", "0", "--seed", "11", "--option", "target=30"], env, home, timeout=120)
    res = json.loads(_run(["frapnet", "replay", rec, "--json"], env, home).stdout)
    assert res["ok"] is True and res["game"] == "la_krap" and max(res["points"]) >= 30
    assert res["winners"] == [s for s, x in enumerate(res["points"]) if x == max(res["points"])]
    summary = json.loads([line for line in p.stdout.splitlines() if line.startswith("{")][-1])
    assert summary["game"] == "la_krap" and summary["match_over"] is True
    assert summary["points"] == res["points"] and summary["deals"] == len(res["deals"])
