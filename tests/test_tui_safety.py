"""Names, chat and texts from other players are shown safely in the terminal client.

Control characters and terminal escape sequences (CSI, OSC, DCS, 8-bit C1, bidi overrides,
zero-width characters) are neutralised before anything reaches the screen, and long names are
cut. Checked on the sanitiser, on the screen model's fragments, and on the bytes the real
prompt_toolkit renderer writes to a terminal (a Vt100 output into a buffer).
"""
from __future__ import annotations

import asyncio
import io
import unicodedata

import pytest

from frapnet import engine
from frapnet.tui import render
from frapnet.tui.model import Screen
from frapnet.tui.text import NAME_CELLS, cut, safe_name, safe_text, width

HOSTILE = [
    ("\x1b]0;PWNED-TITLE\x07Olga", "Olga"),                 # OSC: set the window title
    ("\x1b]52;c;cGF5bG9hZA==\x1b\\Ivan", "Ivan"),            # OSC 52: write the clipboard
    ("\x1b[2J\x1b[1;1HAnna", "Anna"),                        # CSI: clear screen, move cursor
    ("\x1b[31mRed\x1b[0m", "Red"),                            # CSI: colours
    ("\x9b2JC1", "C1"),                                       # 8-bit CSI
    ("\x1bPqdcs\x1b\\Dcs", "Dcs"),                           # DCS
    ("Bob\x08\x08\x08Eve", "BobEve"),                         # backspaces overwriting
    ("a\rb\nc\td", "a b c d"),                               # line breaks and tabs become spaces
    ("\u202eevil\u202c", "evil"),                             # bidi override
    ("zero\u200bwidth\u2060", "zerowidth"),                   # zero-width characters
    ("nul\x00del\x7f", "nuldel"),
    ("\x1b", ""),                                             # a lone ESC
]


@pytest.mark.parametrize("raw,shown", HOSTILE, ids=[repr(r)[:24] for r, _ in HOSTILE])
def test_escape_sequences_and_controls_are_removed(raw, shown):
    assert safe_text(raw) == shown
    out = safe_text(raw)
    assert all(unicodedata.category(ch)[0] != "C" for ch in out), repr(out)


def test_long_names_are_cut_to_sixteen_cells_with_an_ellipsis():
    assert safe_name("A" * 40) == "A" * (NAME_CELLS - 1) + "…"
    assert width(safe_name("漢" * 20)) <= NAME_CELLS  # wide characters count two cells
    assert safe_name("  Olga   Ivanova  ") == "Olga Ivanova"
    assert safe_name("\x1b[2J") == "?"
    assert cut("Ольга", 3) == "Ол…" and cut("Ольга", 5) == "Ольга"
    assert safe_text("x" * 600, 500).endswith("…") and width(safe_text("x" * 600, 500)) == 500


def _hostile_screen():
    st = engine.new_match("frap", 4, {})
    st, _ = engine.start_deal(st, engine.pack(st), dealer=3)
    v = engine.view(st, 0)
    v["names"] = [raw for raw, _ in HOSTILE[:3]] + ["Z" * 40 + "\x1b]0;LONG\x07"]
    v["connection"] = ["connected", "reconnecting", "bot", "\x1b[5mblink"]
    v["table"] = "\x1b]0;TABLE-TITLE\x07Cosy table"
    s = Screen()
    s.set_view(v)
    for raw, _ in HOSTILE:
        s.add_chat({"seat": 1, "name": raw, "text": "hi " + raw})
        s.add_event({"type": "bid", "text": "event " + raw})
        s.add_error({"code": "illegal", "message": raw, "rule": "F20\x1b[2J"})
    return s


def test_screen_fragments_hold_no_control_characters_and_names_are_cut():
    s = _hostile_screen()
    frags = (render.header(s, 100) + render.seats(s, 100) + render.hand(s, 100) + render.actions(s, 100)
             + render.log_lines(s) + render.status_bar(s, 100))
    text = "".join(f[1] for f in frags)
    bad = [ch for ch in text if unicodedata.category(ch)[0] == "C" and ch != "\n"]
    assert not bad, bad
    assert "Z" * NAME_CELLS not in text and "Z" * (NAME_CELLS - 1) + "…" in text
    assert "Cosy table" in text and "<Olga> hi Olga" in text


def test_the_real_renderer_writes_no_injected_sequence():
    """The whole application drawn by prompt_toolkit into a VT100 byte stream: none of the
    injected OSC/DCS/CSI payloads survive (prompt_toolkit's own CSI codes are expected)."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from frapnet.tui.app import ClientApp

    s = _hostile_screen()
    class Term(io.StringIO):
        encoding = "utf-8"

        def fileno(self):  # not a real terminal
            raise io.UnsupportedOperation

    buf = Term()
    out = Vt100_Output(buf, lambda: Size(rows=30, columns=100), term="xterm-256color")

    async def drive():
        with create_pipe_input() as inp:
            ui = ClientApp(s, input=inp, output=out, mouse=False)
            task = asyncio.ensure_future(ui.app.run_async(set_exception_handler=False))
            await asyncio.sleep(0.2)
            ui.app.exit(result=0)
            return await asyncio.wait_for(task, 5)

    assert asyncio.run(drive()) == 0
    data = buf.getvalue()
    assert "Cosy table" in data and "Olga" in data
    for payload in ("\x1b]", "\x07", "\x1bP", "\x9b", "\x9d", "\u202e", "\x08", "\x00", "\x1b[5m", "\x1b[31mRed"):
        assert payload not in data, repr(payload)
    assert "PWNED" not in data and "TABLE-TITLE" not in data and "LONG" not in data


def test_odd_views_from_a_host_never_crash_the_screen():
    """Whatever shapes a (buggy or hostile) host sends in a view, event or chat, the screen model
    and the drawing code neither raise nor emit control characters."""
    from hypothesis import given, settings, strategies as st_

    scalars = st_.one_of(st_.none(), st_.booleans(), st_.integers(-2 ** 80, 2 ** 80), st_.text(max_size=12),
                         st_.sampled_from(["AS", "10H", "RJ", "QD", "7C", "\x1b[2J", "H", "S"]))
    values = st_.recursive(scalars, lambda inner: st_.one_of(st_.lists(inner, max_size=5),
                                                             st_.dictionaries(st_.text(max_size=6), inner, max_size=4)),
                           max_leaves=12)
    keys = ["players", "seat", "names", "connection", "seats", "hand", "hand_count", "actions", "to_act", "trump",
            "turn_up", "talon", "trick", "last_trick", "last_winner", "balances", "pot", "deal_no", "dealer",
            "last_report", "phase", "phase_label", "round", "dead_turn_ups", "ledger", "match_over", "table"]
    action = st_.fixed_dictionaries({"action": st_.one_of(values, st_.lists(st_.sampled_from(
        ["play", "buy", "look", "AS", "10H"]), min_size=1, max_size=2)), "label": values})

    @settings(max_examples=150, deadline=None)
    @given(st_.dictionaries(st_.sampled_from(keys), values, max_size=len(keys)), st_.lists(action, max_size=4),
           st_.lists(st_.sampled_from(["1", "2", "enter", "space", "right", "l", "p", "u", "card:0", "."]),
                     max_size=6), values)
    def check(view, actions, presses, junk):
        view = dict(view, actions=actions)
        s = Screen()
        s.set_view(view)
        s.add_event(junk if isinstance(junk, dict) else {"type": "deal_end", "report": junk, "text": junk})
        s.add_chat({"name": junk, "text": junk})
        s.add_error({"message": junk, "rule": junk})
        for k in presses:
            s.press(k)
        s.overlay = "settlement" if s.settlement else None
        frags = (render.header(s, 80) + render.seats(s, 80) + render.seats(s, 80, compact=True)
                 + render.hand(s, 80) + render.actions(s, 80) + render.log_lines(s) + render.status_bar(s, 80)
                 + render.settlement(s) + render.help_screen(s) + render.quit_dialog(s))
        text = "".join(f[1] for f in frags)
        assert not [ch for ch in text if unicodedata.category(ch)[0] == "C" and ch != "\n"]

    check()


def _drive(size, keys: list[str], mouse: bool = True):
    """Run the real ClientApp on a pipe input and a VT100 output of ``size`` (columns, rows),
    type ``keys`` one by one; return (actions sent, exceptions the event loop saw, quit called)."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from frapnet.tui.app import ClientApp

    st = engine.new_match("frap", 4, {})
    st, _ = engine.start_deal(st, engine.pack(st), dealer=3)
    s = Screen()
    s.set_view(engine.view(st, 0))  # seat 0 to bid: f, b, p, l are live keys

    class Term(io.StringIO):
        encoding = "utf-8"

        def fileno(self):
            raise io.UnsupportedOperation

    out = Vt100_Output(Term(), lambda: Size(columns=size[0], rows=size[1]), term="xterm-256color")
    sent, errors, left = [], [], []

    async def drive():
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: errors.append(ctx))
        with create_pipe_input() as inp:
            ui = ClientApp(s, input=inp, output=out, mouse=mouse, send=sent.append, leave=lambda: left.append(1))
            task = asyncio.ensure_future(ui.app.run_async(set_exception_handler=False))
            await asyncio.sleep(0.2)
            for k in keys:
                inp.send_text(k)
                await asyncio.sleep(0.15)
            if not task.done():
                ui.app.exit(result=0)
            return await asyncio.wait_for(task, 5)

    asyncio.run(drive())
    return sent, errors, left


def test_a_pasted_colour_code_is_not_a_mouse_click_and_draws_no_traceback():
    """prompt_toolkit reads ``ESC [ 31 m`` as a mouse report and its handler raised ValueError (a
    traceback drawn over the table, found by a newcomer pasting a colour code): now dropped; the
    keys after it still work, and a real mouse report still reaches prompt_toolkit."""
    sent, errors, _ = _drive((100, 30), ["\x1b[31m", "\x1b[<0;5;5M", "\x1b[96;14;13M", "p"])
    assert errors == []
    assert sent == [["pass"]]


def test_a_terminal_smaller_than_80x24_takes_no_move_only_q():
    """The too-small screen says only q works: f (frap) and p (pass) send nothing there, q leaves."""
    sent, errors, left = _drive((60, 15), ["f", "p", "l"])
    assert sent == [] and left == [] and errors == []
    sent, errors, left = _drive((60, 15), ["q"])
    assert sent == [] and left == [1]
