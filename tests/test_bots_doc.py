"""docs/bots.md "Driving players yourself": the arena printed there runs as it stands — players
made by ``frapnet.bots.make_player`` asked only at their turn, their wire-form choices applied by
the engine — and plays three whole deals of Frap whose chips add up (F6)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "bots.md"


def test_the_arena_in_docs_bots_md_runs_and_its_chips_add_up_F6():
    text = DOC.read_text(encoding="utf-8")
    part = text[text.index("### Driving players yourself"):]
    code = re.search(r"```python\n(.*?)```", part, re.S).group(1)
    assert "make_player" in code and "engine.apply" in code
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    balances, pot = re.fullmatch(r"\[(.*)\] (-?\d+)\n", r.stdout).groups()
    chips = [int(x) for x in balances.split(",")]
    assert len(chips) == 4 and sum(chips) + int(pot) == 0  # F6: antes, remises and trick money only move chips
    assert any(chips)  # three deals were played
