"""The newcomer's findings about the terminal client's text (issue #10), end to end in tmux.

- a chat line with a long unbroken word (a 200-character URL, ``bbbb…``) is wrapped at the chat
  pane's width: the word starts its own row and is cut into full rows, each continuation row
  indented by two cells, nothing inserted into the word or lost from it;
- a Russian `frapnet join` that finds nobody listening says why in Russian.

Skips where tmux is not installed (.ci/run installs it).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_tui_tmux import TMUX, Tmux  # noqa: E402

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


def play_cmd(tmp_path, lang="en", name="Olga"):
    return (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8 {sys.executable} -m frapnet play "
            f"--name {name} --lang {lang} --seed 5 --bot-delay 0; echo FRAPNET-EXIT=$?; sleep 60")


def rows(t: Tmux) -> list[str]:
    """The screen's rows as the terminal shows them (not joined), trailing spaces dropped."""
    return [r.rstrip() for r in t.run("capture-pane", "-p", "-t", "t").splitlines()]


def focus_chat(t: Tmux) -> None:
    """Tab into the chat line, and wait until the terminal's cursor is on it."""
    for _ in range(3):
        t.keys("Tab")
        try:
            t.wait(lambda s: _cursor_on_chat(t), 3, "the cursor on the chat line")
            return
        except AssertionError:
            pass
    raise AssertionError("the chat line did not take the focus:\n" + t.capture())


def _cursor_on_chat(t: Tmux) -> bool:
    y = int(t.run("display-message", "-p", "-t", "t", "#{cursor_y}").strip())
    return rows(t)[y].startswith("say>")


def test_issue10_a_long_url_in_chat_wraps_at_the_pane_width_in_whole_rows(tmp_path):
    url = "https://example.com/" + "a" * 180  # 200 characters, no space
    word = "b" * 200
    t = Tmux(play_cmd(tmp_path), 100, 30)
    try:
        t.wait(lambda s: "Your turn" in s, 20, "the table")
        for line, last in ((f"see {url} ok", " ok"), (word, "b" * 40)):
            focus_chat(t)  # Enter sends the line and gives the focus back to the table
            t.keys("-l", line)
            t.keys("Enter")
            # rows as rows() gives them: a redraw may leave blanks after the text (the log's rows move)
            t.wait(lambda s: any(r.rstrip().endswith(last) and "say>" not in r for r in s.splitlines()), 10, "the line")
        screen = t.capture()
        got = rows(t)
        assert all(len(r) <= 100 for r in got), screen
        i = got.index("<Olga> see")
        # the pane is 100 cells wide; continuation rows are indented by 2: 98 cells of the word each
        assert got[i + 1:i + 4] == ["  " + url[:98], "  " + url[98:196], "  " + url[196:] + " ok"], screen
        j = got.index("<Olga>")
        assert got[j + 1:j + 4] == ["  " + "b" * 98, "  " + "b" * 98, "  " + "b" * 4], screen
        assert "".join(r[2:] for r in got[j + 1:j + 4]) == word
    finally:
        t.kill()


def test_issue10_a_russian_join_with_nobody_listening_says_why_in_russian(tmp_path):
    import socket

    hold = socket.socket()  # bound but not listening: connections are refused
    hold.bind(("127.0.0.1", 0))
    port = hold.getsockname()[1]
    t = Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 {sys.executable} -m frapnet join 127.0.0.1:{port} "
             f"--name Ольга --lang ru; echo FRAPNET-EXIT=$?; sleep 60", 100, 30)
    try:
        done = t.wait(lambda s: "FRAPNET-EXIT=" in s, 20, "frapnet to exit")
        assert (f"frapnet join: Не удалось сесть за стол 127.0.0.1:{port}: по этому адресу и порту никто не отвечает\n"
                "FRAPNET-EXIT=2") in done, done
    finally:
        t.kill()
        hold.close()
