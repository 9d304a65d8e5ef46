"""The newcomer's screens end to end, in a real terminal (tmux) against real hosts; the screen
model's side is tests/test_tui_screen_texts.py.

- `frapnet join` twice as Alice with one token file: the first terminal, its seat taken over,
  offers no action and counts no turn clock down, and a key says why nothing happens;
- `frapnet play --players 8` at 80×24: the two-column seat table's legend says which figure is
  which, and the help explains ● ○ ⚙ · — which a four-seat table (words, not symbols) does not;
- deal 2 of a table of computer players, watched: `.` says there is no last trick yet; the score
  sheet's total is deal 1's and a row "now" shows the balances with deal 2's antes paid; leaving
  prints standings that say one deal was played to the end and deal 2 was not; leaving
  `frapnet play` in deal 1 says no deal was played to the end.
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
from test_tui_tmux_screen import boxed, play_cmd  # noqa: E402

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


def test_deal_two_last_trick_score_sheet_now_row_and_standings_after_leaving(tmp_path):
    """A table of four computer players (--seed 7: deal 1 empties the pot, so deal 2 begins with
    antes; no person's nonce in the shuffle, so the same deals every time), watched from
    `frapnet join --spectate`: at deal 2's start `.` says there is no last trick yet; the score
    sheet's total is deal 1's balances and "now" the seat table's, 100 less each, and says so;
    leaving prints standings that say deal 2 was unfinished."""
    port = _free_port()
    host = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--no-announce", "--bind", "127.0.0.1",
                             "--port", str(port), "--players", "4", "--bots", "4", "--seed", "7",
                             "--bot-delay", "0.6", "--pause", "1", "--db", str(tmp_path / "j.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert re.search(rf"on 127\.0\.0\.1:{port}", host.stdout.readline())
    t = Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8 XDG_STATE_HOME={tmp_path / 'state'} "
             f"{sys.executable} -m frapnet join 127.0.0.1:{port} --spectate --name Eve --lang en; "
             f"echo FRAPNET-EXIT=$?; sleep 60", 100, 30)
    try:
        t.wait(lambda s: "Deal 1 settled" in s and "Enter: continue" in s, 60, "deal 1's settlement")
        t.keys("Enter")  # the spectator closes it too
        deal2 = t.wait(lambda s: "deal 2 ·" in s and "Enter: continue" not in s, 20, "deal 2")
        assert "(antes 100 each)" in [ln for ln in deal2.splitlines() if "deals; turn-up" in ln][-1]
        t.keys(".")
        said = t.wait(lambda s: "No trick has been taken yet" in s, 5, "why there is no last trick")
        top = table_part(said)
        assert top[2].split()[-1] == "trick" and "last trick" not in top[2]
        assert " No trick has been taken yet in this deal, so there is no last trick to show." in top
        balances = [ln.split()[-1] for ln in top[3:7]]  # the seat table's balance column, deal 2's antes paid
        t.keys("=")
        # (the whole box: its last line — a capture can catch a frame half drawn)
        sheet = t.wait(lambda s: "Score sheet" in s and "Press any key to go back" in s, 5, "the score sheet")
        lines = boxed(sheet)
        row1 = next(ln for ln in lines if ln.startswith("1 "))
        total = next(ln for ln in lines if ln.startswith("total"))
        now = next(ln for ln in lines if ln.startswith("now"))
        after1 = re.findall(r"\((\S+)\)", row1)
        assert total.split()[1:] == after1  # the total is what the sheet lists
        assert now.split()[1:] == balances
        assert [int(n.replace("−", "-")) for n in balances] == [int(a.replace("−", "-")) - 100 for a in after1]
        assert "“now” is the balance during deal 2, which is not settled yet: it counts what has been paid " \
               "into that deal so far; “total” is the balance after deal 1." in " ".join(" ".join(lines).split())
        t.keys("Escape")
        t.keys("q")
        done = t.wait(lambda s: "FRAPNET-EXIT=" in s, 15, "frapnet join to exit")
        assert "Final standings — Frap, 1 deal played to the end (balance):" in done
        assert " Deal 2 was not finished: these figures count what was already paid into it." in done
    finally:
        t.kill()
        host.kill()
        host.communicate()


def test_leaving_before_any_deal_was_played_to_the_end_says_so_in_the_standings(tmp_path):
    t = Tmux(play_cmd(tmp_path, "--seed 3"), 100, 30)
    try:
        t.wait(lambda s: "[l] Look" in s, 20, "the table")
        t.keys("q")
        t.wait(lambda s: "Leave the table?" in s, 5, "the question")
        t.keys("y")
        done = t.wait(lambda s: "FRAPNET-EXIT=" in s, 15, "frapnet play to exit")
        assert "FRAPNET-EXIT=0" in done
        assert "Final standings — Frap, no deal played to the end (balance):" in done
        assert " Deal 1 was not finished: 400 stays in the pot, unplayed" in done  # the host's words
    finally:
        t.kill()
