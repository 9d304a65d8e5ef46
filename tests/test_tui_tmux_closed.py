"""The newcomer's screens end to end, in a real terminal (tmux) against real hosts; the screen
model's side is tests/test_tui_screen_texts.py.

- `frapnet join` twice as Alice with one token file: the first terminal, its seat taken over,
  offers no action and counts no turn clock down, and a key says why nothing happens;
- `frapnet play --players 8` at 80×24: the two-column seat table's legend says which figure is
  which, and the help explains ● ○ ⚙ · — which a four-seat table (words, not symbols) does not.
Skips where tmux is not installed."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_tui_tmux import TMUX, Tmux  # noqa: E402 - the private tmux server helper
from test_tui_tmux_screen import play_cmd  # noqa: E402

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def table_part(screen: str) -> list[str]:
    """The screen's lines above the log (header, seats, hand, actions), right blanks dropped."""
    out, rules = [], 0
    for ln in screen.splitlines():
        if ln.startswith("─"):
            rules += 1
            if rules == 3:
                break
            continue
        out.append(ln.rstrip())
    return out


def test_a_terminal_whose_seat_was_taken_over_offers_no_action_and_counts_no_turn_clock(tmp_path):
    port = _free_port()
    host = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--no-announce", "--bind", "127.0.0.1",
                             "--port", str(port), "--players", "2", "--bots", "1", "--turn-time", "20", "--seed", "3",
                             "--db", str(tmp_path / "j.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert re.search(rf"on 127\.0\.0\.1:{port}", host.stdout.readline())
    join = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8 XDG_STATE_HOME={tmp_path / 'state'} "
            f"{sys.executable} -m frapnet join 127.0.0.1:{port} --name Alice --lang en; echo FRAPNET-EXIT=$?; sleep 60")
    first = second = None
    try:
        first = Tmux(join, 100, 30)
        live = first.wait(lambda s: "Your turn · turn clock" in s and "[l] Look" in s, 20, "Alice's turn")
        assert any(ln.startswith("▶ Alice (you)") for ln in live.splitlines())
        second = Tmux(join, 100, 30)  # the same name and token file: this connection takes the seat
        second.wait(lambda s: "Alice (you)" in s and "[l] Look" in s, 20, "the second terminal at the seat")
        closed = first.wait(lambda s: "seat taken over" in s, 10, "the first terminal to lose the seat")
        top = table_part(closed)
        row = next(ln for ln in top if "Alice (you)" in ln)
        assert row.startswith("  Alice (you)") and "taken over" in row and "connected" not in row, top
        assert " This seat was taken over by another connection with its token; it plays on there." in top
        assert " Nothing can be played here any more; the table is shown as it was. q quits." in top
        assert not any(ln.startswith("▶") for ln in top), top
        assert "turn clock" not in closed and "Your turn" not in closed and "[l]" not in closed, top
        assert closed.splitlines()[-1].rstrip().endswith("seat taken over") and "Tab chat" not in closed
        time.sleep(2.2)
        assert table_part(first.capture()) == top  # nothing counts down
        first.keys("l")
        said = first.wait(lambda s: "Nothing happens" in s, 5, "why [l] does nothing")
        assert " Nothing happens: another connection plays this seat now. Press q to quit." in table_part(said)
        first.keys("q")  # no question: nothing to leave
        done = first.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet join to exit")
        assert "FRAPNET-EXIT=0" in done and "This seat was taken over by another connection" in done
        assert "Your turn · turn clock" in second.capture()  # the game goes on there
    finally:
        for t in (first, second):
            if t is not None:
                t.kill()
        host.kill()
        host.communicate()


def test_eight_seats_at_80x24_the_legend_says_which_figure_is_which_and_the_help_explains_the_symbols(tmp_path):
    t = Tmux(play_cmd(tmp_path, "--players 8 --seed 3"), 80, 24)
    try:
        screen = t.wait(lambda s: "[l] Look" in s, 20, "the table")
        top = table_part(screen)
        assert top[2:4] == [" ● connected  ○ reconnecting  ⚙ computer  · empty seat  D dealer",
                            " In each row: player, state, bid, tricks, balance, trick"], top
        assert re.match(r"▶Olga \(you\) +● +0 +−100", top[4]), top
        t.keys("?")
        shown = t.wait(lambda s: "Press any key to go back." in s, 5, "the help")
        assert "● ○ ⚙ ·           connected, reconnecting, computer, empty seat" in shown
    finally:
        t.kill()
    t = Tmux(play_cmd(tmp_path, "--seed 3"), 100, 30)  # four seats: words in the table, no symbols
    try:
        screen = t.wait(lambda s: "[l] Look" in s, 20, "the table")
        assert "Olga (you)" in screen and "connected" in screen and "●" not in screen
        t.keys("?")
        shown = t.wait(lambda s: "Press any key to go back." in s, 5, "the help")
        assert "▶ D ★" in shown and "● ○ ⚙ ·" not in shown and "empty seat" not in shown
    finally:
        t.kill()
