"""Where the shared rule books and cases are missing (a clone with no ../shared beside it), the
tests that read them skip with one reason naming what is missing and how to provide it; under CI
(CI=true) and for a FRAPNET_SHARED that names a missing folder they fail instead, and where the
folder is there they run (frapnet.testing.shared_problem / require_shared; conftest.py's
``shared`` mark). These tests need no ../shared themselves."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from frapnet import testing

ROOT = Path(__file__).resolve().parent.parent
HOW = ("put the shared folder (rule books in spec/, cases in cases/) beside the clone as ../shared, "
       "or set FRAPNET_SHARED=/path/to/shared")


@pytest.fixture
def no_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("FRAPNET_SHARED", raising=False)


def test_frapnet_shared_naming_a_folder_with_cases_is_used(no_ci, monkeypatch, tmp_path):
    (tmp_path / "shared" / "cases").mkdir(parents=True)
    monkeypatch.setenv("FRAPNET_SHARED", str(tmp_path / "shared"))
    assert testing.shared_problem() is None
    assert testing.require_shared() == tmp_path / "shared"


@pytest.mark.parametrize("ci", [None, "true"])
def test_frapnet_shared_naming_a_missing_folder_is_an_error_not_a_skip(no_ci, monkeypatch, tmp_path, ci):
    if ci:
        monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("FRAPNET_SHARED", str(tmp_path / "nope"))
    reason = (f"FRAPNET_SHARED={tmp_path / 'nope'} does not exist: set it to the shared folder (with cases/ "
              f"and spec/), or unset it to use ../shared beside the clone")
    assert testing.shared_problem() == (reason, True)
    with pytest.raises(pytest.fail.Exception) as e:
        testing.require_shared()
    assert str(e.value) == reason
    monkeypatch.setenv("FRAPNET_SHARED", str(tmp_path))  # there, but no cases/ in it
    assert testing.shared_problem() == (reason.replace(f"{tmp_path / 'nope'} does not exist",
                                                       f"{tmp_path} has no cases/ folder"), True)


def test_no_shared_beside_the_clone_skips_naming_it_and_how_to_provide_it(no_ci, monkeypatch, tmp_path):
    monkeypatch.setattr(testing, "shared_dir", lambda: tmp_path / "shared")
    reason = f"the shared rule cases are missing: there is no {tmp_path / 'shared'} beside the clone; {HOW}"
    assert testing.shared_problem() == (reason, False)
    with pytest.raises(pytest.skip.Exception) as e:
        testing.require_shared()
    assert str(e.value) == reason
    for off in ("", "0", "false", "False", "no"):  # CI not set in effect: still a skip
        monkeypatch.setenv("CI", off)
        assert testing.shared_problem() == (reason, False)


@pytest.mark.parametrize("ci", ["true", "1", "yes"])
def test_under_ci_no_shared_fails_rather_than_skips(no_ci, monkeypatch, tmp_path, ci):
    monkeypatch.setattr(testing, "shared_dir", lambda: tmp_path / "shared")
    monkeypatch.setenv("CI", ci)
    reason = (f"the shared rule cases are missing: there is no {tmp_path / 'shared'} beside the clone; {HOW} "
              f"(CI is set: the rule cases must run there, so this fails rather than skips)")
    assert testing.shared_problem() == (reason, True)
    with pytest.raises(pytest.fail.Exception) as e:
        testing.require_shared()
    assert str(e.value) == reason


def test_a_shared_folder_without_cases_fails_rather_than_skips(no_ci, monkeypatch, tmp_path):
    (tmp_path / "shared" / "spec").mkdir(parents=True)
    monkeypatch.setattr(testing, "shared_dir", lambda: tmp_path / "shared")
    assert testing.shared_problem() == (
        f"the shared rule cases are missing: {tmp_path / 'shared'} has no cases/ folder; {HOW}", True)


# --- end to end: a copy of the checkout with no ../shared beside it, run by pytest ----------------

def _clone_without_shared(tmp_path: Path) -> Path:
    """The checkout's frapnet package, test configuration and tests/test_cases.py (every test of
    which reads the cases) copied to tmp_path/clone/frapnet, where no ../shared is (nor in any
    folder above: tmp_path is under the system's temporary folder), and one test of our own
    marked ``shared`` that says which folder it was given."""
    top = tmp_path / "clone"
    clone = top / "frapnet"
    shutil.copytree(ROOT / "frapnet", clone / "frapnet", ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pyproject.toml", "conftest.py", "tests/conftest.py", "tests/suite-config.toml", "tests/test_cases.py"):
        (clone / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / f, clone / f)
    (clone / "tests" / "test_marked.py").write_text(
        "import pytest\nfrom frapnet.testing import shared_dir\n\n\n@pytest.mark.shared\n"
        "def test_reads_the_cases():\n    print('CASES', sorted(p.name for p in (shared_dir() / 'cases').iterdir()))\n")
    return clone


def _pytest(clone: Path, files=("tests/test_cases.py", "tests/test_marked.py"), **env) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k not in ("CI", "FRAPNET_SHARED", "PYTEST_XDIST_WORKER",
                                                          "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST")}
    e.update(env, PYTHONPATH=str(clone), COLUMNS="1000")  # this clone's frapnet; summary lines not cut
    return subprocess.run([sys.executable, "-m", "pytest", "-rsE", "-s", "-p", "no:xdist", *files], cwd=clone, env=e,
                          capture_output=True, text=True, timeout=240)


def test_a_clone_without_shared_skips_the_case_tests_with_one_reason_and_fails_them_under_ci(tmp_path):
    assert not any((p / "shared" / "cases").is_dir() for p in tmp_path.parents), "shared/cases above the temporary folder"
    clone = _clone_without_shared(tmp_path)
    missing = clone.parent / "shared"
    reason = f"the shared rule cases are missing: there is no {missing} beside the clone; {HOW}"

    p = _pytest(clone)
    out = p.stdout + p.stderr
    last = out.splitlines()[-1].strip("= ")
    assert p.returncode == 0 and re.fullmatch(r"5 skipped in [\d.]+s", last), out
    # -rs folds equal skips into one line: the four tests of test_cases.py (one of them
    # parametrized over the case files, so with none of them here), and ours — the same words
    skips = [ln for ln in out.splitlines() if ln.startswith("SKIPPED")]
    assert len(skips) == 1 and re.fullmatch(r"SKIPPED \[5\] frapnet/testing\.py:\d+: " + re.escape(reason), skips[0]), skips
    assert "empty parameter set" not in out and "FileNotFoundError" not in out

    p = _pytest(clone, CI="true")
    out = p.stdout + p.stderr
    last = out.splitlines()[-1].strip("= ")
    assert p.returncode == 1 and re.fullmatch(r"5 errors in [\d.]+s", last), out
    ci_reason = reason + " (CI is set: the rule cases must run there, so this fails rather than skips)"
    errors = [ln for ln in out.splitlines() if ln.startswith("ERROR tests/")]
    assert len(errors) == 5 and all(ln.endswith(" - Failed: " + ci_reason) for ln in errors), errors
    assert "empty parameter set" not in out

    p = _pytest(clone, FRAPNET_SHARED=str(missing))
    out = p.stdout + p.stderr
    assert p.returncode == 1 and "5 errors in " in out.splitlines()[-1], out
    assert f"FRAPNET_SHARED={missing} does not exist" in out

    # present (here given by FRAPNET_SHARED; ../shared beside the clone the same): never skipped
    (missing / "cases").mkdir(parents=True)
    (missing / "cases" / "one.json").write_text("{}")
    for env in ({"FRAPNET_SHARED": str(missing)}, {}, {"CI": "true"}):
        p = _pytest(clone, ["tests/test_marked.py"], **env)  # (test_cases.py replays the real cases)
        out = p.stdout + p.stderr
        assert p.returncode == 0 and "CASES ['one.json']" in out and "1 passed in " in out.splitlines()[-1], out
