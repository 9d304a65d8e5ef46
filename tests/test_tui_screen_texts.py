"""What the terminal screen says, line by line, in six places a newcomer found misleading (the
screen model fed real engine views, drawn by frapnet.tui.render as the application draws it):

1. once the connection is over (another connection took the seat with its token; the host
   stopped; the connection closed for good) the screen offers no action, counts no turn clock
   down, marks nobody's turn, and a key that would act says why nothing happens;
2. the help explains ● ○ ⚙ · only when the seat table shows them (two columns);
3. `.` at a deal's start says there is no last trick yet, instead of an empty "last trick" column;
4. the two-column seat table says which figure of a row is which;
5. the score sheet's total is what its rows add up to, and a row under it says what the balances
   are now, during the next deal; the standings printed after leaving say how many deals were
   played to the end (the host's result says which one was unfinished, or the client does);
6. the Russian log and labels call the turn-up «вскрышка», as the rule books do.
End to end in tmux: tests/test_tui_tmux_closed.py.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from frapnet import engine
from frapnet.net.protocol import REPLACED
from frapnet.testing import random_deals
from frapnet.tui import i18n, render
from frapnet.tui.model import Screen

sys.path.insert(0, str(Path(__file__).parent))
from test_tui_model import NAMES, act, table, text_of, view  # noqa: E402


def screen_text(s: Screen, w: int = 100, rows: int = 30) -> str:
    """The table part of the screen and the status bar, as the application stacks them."""
    top = (render.header(s, w) + render.seats(s, w, compact=s.two_column_seats(rows)) + render.hand(s, w)
           + render.actions(s, w))
    return text_of(top) + text_of(render.status_bar(s, w))


def lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines()]


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def my_turn_with_a_clock(lang="en") -> Screen:
    """Olga (seat 0) to bid first, 20 s on her turn clock, her cards face down."""
    s = Screen(i18n.translation(lang).gettext, lang)
    s.clock = Clock()
    v = view(table(), 0, lang)
    v["deadlines"] = [20.0, None, None, None]
    s.set_status("connected")
    s.set_view(v)
    return s


# --- 1. the connection is over ---------------------------------------------------------------------

def test_before_closing_the_screen_shows_the_turn_the_clock_and_the_actions():
    """The live screen the closed one is compared with."""
    s = my_turn_with_a_clock()
    shown = lines(screen_text(s))
    assert shown[3].startswith("▶ Olga (you)") and "connected" in shown[3]
    assert " Your turn · turn clock 20 s" in shown
    assert " [l] Look at your cards  [f] Frap  [b] Blind frap  [p] Pass" in shown
    s.clock.t += 7
    assert " Your turn · turn clock 13 s" in lines(screen_text(s))


def test_a_seat_taken_over_by_another_connection_offers_no_action_and_counts_no_turn_clock():
    s = my_turn_with_a_clock()
    s.set_closing({"reason": REPLACED, "code": "replaced"})
    s.set_status("closed")
    shown = lines(screen_text(s))
    assert shown[3].startswith("  Olga (you)") and "taken over" in shown[3] and "connected" not in shown[3]
    assert not any(ln.startswith("▶") for ln in shown)  # nobody's turn on a closed screen
    assert shown[7:9] == [" This seat was taken over by another connection with its token; it plays on there.",
                           " Nothing can be played here any more; the table is shown as it was. q quits."]
    text = "\n".join(shown)
    assert "Your turn" not in text and "turn clock" not in text and "[l]" not in text and "[f]" not in text
    assert "face down — [l] to look" not in text
    assert shown[-1].startswith(" ? help · . last trick · = scores · q quit") and shown[-1].endswith("seat taken over")
    s.clock.t += 30
    assert lines(screen_text(s)) == shown  # nothing counts down
    for key in ("l", "f", "1", "enter", "space", "button:p", "card:0", "tab"):
        assert s.press(key) == [], key
        assert lines(screen_text(s))[-2] == " Nothing happens: another connection plays this seat now. Press q to quit."
    assert s.press("q") == [("quit",)]  # no "leave the table?" question: there is no deal to leave


def test_after_the_host_stopped_mid_deal_the_screen_offers_no_action_and_says_so():
    s = my_turn_with_a_clock()
    s.set_closing({"reason": "host stopping", "resumable": True,
                   "result": {"balances": [-100, -100, -100, -100], "pot": 400}})
    s.set_status("closed")
    shown = lines(screen_text(s))
    assert shown[3].startswith("  Olga (you)") and "disconnected" in shown[3]
    assert shown[7:9] == [" The table has closed (the host is stopping).",
                           " Nothing can be played here any more; the table is shown as it was. q quits."]
    assert "turn clock" not in "\n".join(shown) and "[l]" not in "\n".join(shown)
    s.press("f")
    assert lines(screen_text(s))[-2] == " Nothing happens: the table has closed. Press q to quit."
    assert shown[-1].endswith("table closed")


def test_a_connection_closed_for_good_without_a_closing_offers_no_action():
    """The client gave up reconnecting (the host is gone): the same, "The connection is closed."
    A new connection to the table (the saved seat refused, a new seat taken) brings actions back."""
    s = my_turn_with_a_clock()
    s.set_status("reconnecting")
    # still the player's turn meanwhile, but no clock runs for a seat without a connection (its
    # grace period does: takeover.turn_clock), and a key that would act says why nothing happens
    assert " Your turn" in lines(screen_text(s)) and "turn clock" not in screen_text(s)
    assert s.press("l") == [] and lines(screen_text(s))[-2] == \
        " The connection is lost — reconnecting…; you can play again once the table is back."
    s.set_status("closed")
    shown = lines(screen_text(s))
    assert shown[7] == " The connection is closed." and "turn clock" not in "\n".join(shown)
    assert shown[-1].endswith("disconnected")
    assert s.press("l") == [] and lines(screen_text(s))[-2] == \
        " Nothing happens: the connection is closed. Press q to quit."
    s.set_status("connecting")
    s.set_status("connected")
    s.set_view(view(table(), 0))
    assert s.press("l") == [("act", ["look"])]


def test_the_closed_screen_in_russian_has_no_english_words():
    s = my_turn_with_a_clock("ru")
    s.set_closing({"reason": REPLACED, "code": "replaced"})
    shown = lines(screen_text(s))
    assert "занято другим" in shown[3]
    assert shown[7:9] == [" Это место заняло другое подключение с его жетоном; игра идёт там.",
                           " Здесь больше нельзя играть; стол показан таким, каким был. q — выход."]
    s.press("l")
    assert lines(screen_text(s))[-2] == \
        " Ничего не происходит: теперь за это место играет другое подключение. Нажмите q, чтобы выйти."


# --- 2 and 4: the two-column seat table and the help -------------------------------------------------

def eight_seats(lang="en") -> Screen:
    st = engine.new_match("frap", 8, {})
    st, _ = engine.start_deal(st, list(engine.pack(st)), dealer=7)
    s = Screen(i18n.translation(lang).gettext, lang)
    v = engine.view(st, 0, lang)
    v["names"] = ["Olga"] + [f"Bot {i}" for i in range(1, 8)]
    v["connection"] = ["connected", "reconnecting"] + ["bot"] * 6
    s.set_view(v)
    return s


def test_the_help_explains_the_two_column_symbols_only_when_the_seat_table_shows_them():
    four = my_turn_with_a_clock()
    assert not four.two_column_seats(24)
    assert "● ○ ⚙ ·" not in text_of(render.help_screen(four, 40, 100))  # the table says "connected", "computer"
    eight = eight_seats()
    assert eight.two_column_seats(24) and not eight.two_column_seats(40)
    assert "● ○ ⚙ ·" not in text_of(render.help_screen(eight, 40, 100))
    help24 = text_of(render.help_screen(eight, 24, 80))
    assert "● ○ ⚙ ·" in help24 and "connected, reconnecting, computer, empty seat" in help24
    # at 80×24 the keys the status bar shows make room for the game's lines, and the help names them (it covers that bar)
    assert "the score sheet" not in help24 and "More keys: ? help · . last trick · = scores · Tab chat · q quit" in help24
    assert len(help24.splitlines()) + 2 <= 24
    assert "More keys" not in text_of(render.help_screen(eight, 60, 100))
    assert "● connected" in screen_text(eight, 80, 24)  # the same symbols on the screen with it


def test_the_two_column_seat_table_says_which_figure_of_a_row_is_which():
    s = eight_seats()
    shown = lines(screen_text(s, 80, 24))
    assert shown[2] == " ● connected  ○ reconnecting  ⚙ computer  · empty seat  D dealer"
    assert shown[3] == " In each row: player, state, bid, tricks, balance, trick"
    assert shown[4].startswith("▶Olga (you)    ●") and shown[4].split()[3:5] == ["0", "−100"]
    assert all(render.width(ln) <= 80 for ln in shown)
    ru = lines(screen_text(eight_seats("ru"), 80, 24))
    assert ru[3] == " В каждой строке: игрок, связь, заявка, взятки, счёт, взятка"


# --- 3 and 5: a new deal: the last trick and the score sheet -----------------------------------------

def at_deal_two(seeds=range(1, 60), antes=True):
    """The screen of seat 0 at the start of deal 2 (every view of deal 1 fed as the host sends
    them), for the first seed whose deal 2 began with antes (balances moved since deal 1's
    settlement) or without (``antes`` False)."""
    for seed in seeds:
        st = engine.new_match("frap", 4, {})
        s = Screen()
        for before, seat, action, after in random_deals(st, random.Random(seed), 2):
            v = view(after, 0)
            s.set_view(v)
            if seat is None and after.deal_no == 2:
                moved = after.balances != after.reports[0]["balances"]
                if moved == antes:
                    return s, after
                break
    raise AssertionError("no seed gives such a deal 2")


def test_last_trick_at_a_new_deal_says_there_is_none_yet_instead_of_an_empty_column():
    s, st = at_deal_two()
    s.overlay = None  # deal 1's settlement closed
    assert s.press(".") == []
    shown = lines(screen_text(s))
    assert shown[2].split()[-1] == "trick" and "last trick" not in shown[2]
    assert " No trick has been taken yet in this deal, so there is no last trick to show." in shown
    # once a trick is taken, "." shows it, headed "last trick", with its cards
    while not st.deal.last_trick:  # everybody bids and plays on: a trick is taken
        seat = st.to_act[0]
        acts = engine.legal_actions(st, seat)
        st, _ = engine.apply(st, seat, next((a for v in ("look", "frap", "whist", "decline") for a in acts
                                             if a[0] == v), acts[0]))
        s.set_view(view(st, 0))
    s.press(".")
    shown = lines(screen_text(s))
    assert shown[2].endswith("last trick") and "★" in "\n".join(shown[3:7])


def test_score_sheet_total_is_what_its_rows_add_up_to_and_now_says_deal_twos_antes_are_paid():
    """After deal 1 the next deal's antes move every balance: the total row is still the balance
    after deal 1 (what the sheet lists); a row "now" shows the balances during deal 2, and a line
    says what it is."""
    s, st = at_deal_two()
    b1, now = st.reports[0]["balances"], st.balances
    sheet = text_of(render.score_sheet(s, 100))
    rows = {ln.split()[0]: ln.split()[1:] for ln in sheet.splitlines() if ln.split()}
    amount = render.fmt_amount
    assert rows["1"] == [x for b in b1 for x in (amount(b), f"({amount(b)})")]
    assert rows["total"] == [amount(b) for b in b1]
    assert rows["now"] == [amount(b) for b in now]
    assert ("“now” is the balance during deal 2, which is not settled yet: it counts what has been paid into "
            "that deal so far; “total” is the balance after deal 1.") in " ".join(sheet.split())


def test_score_sheet_without_antes_in_the_next_deal_has_no_now_row():
    s, st = at_deal_two(antes=False)
    sheet = text_of(render.score_sheet(s, 100))
    assert "now" not in sheet and "total" in sheet


UNPLAYED = ("Deal {n} was not finished: 400 stays in the pot, unplayed; what the players paid into the pot is "
            "already counted in the balances above.")


def test_final_standings_after_the_host_stopped_mid_deal_say_how_many_deals_were_played_to_the_end():
    """The host's result as it reports a table that ended in deal 2 (``deals`` 2, ``unfinished``;
    the antes stay in the pot, counted in the balances): one deal played to the end, and the
    host's sentence for the unfinished deal; the score sheet's "final" row shows those balances."""
    s, st = at_deal_two()
    s.set_closing({"reason": "host stopping", "result": {"deals": 2, "unfinished": True, "match_over": False,
                                                          "balances": st.balances, "pot": st.pot}})
    out = s.standings_text().splitlines()
    assert out[0] == "Final standings — Frap, 1 deal played to the end (balance):"
    assert out[-1] == " " + UNPLAYED.format(n=2)
    sheet = " ".join(text_of(render.score_sheet(s, 100)).split())
    assert "final " + " ".join(render.fmt_amount(b) for b in st.balances) in sheet
    assert "“final” is the balance the host reported when the table closed, with deal 2 unfinished: it counts " \
           "what was paid into that deal." in sheet


def test_final_standings_when_leaving_a_table_that_goes_on_say_which_deal_was_not_finished():
    """No word from the host about an unfinished deal (you left; the table plays on; or an older
    host): the standings still say one deal was played to the end, and which one was not — with
    what it took, when the figures count it."""
    s, st = at_deal_two()
    s.set_closing({"reason": "you left the table", "result": {"balances": st.balances, "pot": st.pot}})
    out = s.standings_text().splitlines()
    assert out[0] == "Final standings — Frap, 1 deal played to the end (balance):"
    assert out[-1] == " Deal 2 was not finished: these figures count what was already paid into it."
    s2, st2 = at_deal_two()
    s2.set_closing({"reason": "you left the table", "result": {"balances": st2.reports[0]["balances"]}})
    assert s2.standings_text().splitlines()[-1] == " Deal 2 was not finished."


def test_final_standings_before_any_deal_was_played_to_the_end():
    """Was "Final standings — Frap, 1 deal" after quitting in deal 1."""
    for lang, heading in (("en", "Final standings — Frap, no deal played to the end (balance):"),
                          ("ru", "Итог партии — Фрап, ни одной доигранной сдачи (счёт):")):
        s = my_turn_with_a_clock(lang)
        s.set_closing({"reason": "host stopping", "result": {"deals": 1, "unfinished": True, "balances": [-100] * 4,
                                                              "pot": 400}})
        out = s.standings_text().splitlines()
        assert out[0] == heading
        if lang == "en":
            assert out[-1] == " " + UNPLAYED.format(n=1)


# --- 6. the turn-up in Russian ------------------------------------------------------------------

def test_russian_log_and_labels_call_the_turn_up_vskryshka_as_the_rule_books_do():
    """docs/rules/frap.md: turn-up — вскрышка (козырь is the trump suit): the header, the deal's
    log line, the blind frapper's label and log line say «вскрышка», where English says turn-up."""
    st = table(turn_up="7S")  # Anna (seat 3) deals; trump ♠
    deal = {"type": "deal", "dealer": 3, "deal_no": 1, "turn_up": "7S", "ante": 100, "pot": 400}
    assert engine.describe_event(st, deal, NAMES, "en") == "Anna deals; turn-up 7♠; pot 400 (antes 100 each)"
    assert engine.describe_event(st, deal, NAMES, "ru") == "Сдаёт Anna; вскрышка 7♠; кон 400 (взнос по 100)"
    s = Screen(i18n.translation("ru").gettext, "ru")
    s.set_view(view(st, 0, "ru"))
    assert lines(text_of(render.header(s, 100)))[1].startswith(" Козырь ♠  вскрышка 7♠")
    st = act(st, 0, "blind_frap")
    for seat in (1, 2, 3):
        st = act(st, seat, "whist")
    st = act(st, 0, "look")
    labels = [a["label"] for a in engine.view(st, 0, "ru")["actions"]]
    assert "Взять вскрышку, снести 7♥" in labels and not any("козыр" in lab for lab in labels), labels
    after, events = engine.apply(st, 0, ("take_trump", "7H"))
    said = [engine.describe_event(after, e, NAMES, "ru") for e in events]
    assert "Olga берёт вскрышку 7♠" in said, said


def test_a_box_that_nearly_fills_the_terminal_fills_it_edge_to_edge():
    """A newcomer saw slivers of the table beside the help at 80 columns ("0", "и" past its right
    border): a box within two columns a side of the terminal's width takes the whole width; a
    smaller one keeps its own, centred (None)."""
    assert render.box_width([("", "x" * 75 + "\n"), ("", "short")], 80) == 80
    assert render.box_width([("", "x" * 73)], 80) is None
    assert render.box_width([("", "ж" * 40)], 80) is None
    assert render.box_width(render.help_screen(my_turn_with_a_clock(), 24, 80), 80) == 80


def test_the_way_back_after_host_play_stopped_names_the_same_command_not_join():
    """`frapnet host --play` runs the host in the client's process: when it stops with the match
    unfinished (closing's ``resumable``), the way back is the same command, not "the same join
    command" (a newcomer had run no join); a joined client's stays as it was."""
    for local, want in ((True, "The table stopped; the match is not over. Run the same command again to go on with it."),
                        (False, "The host stopped; the match is not over. Once the host is back, run the same join "
                                "command again to take your seat back.")):
        s = my_turn_with_a_clock()
        s.local = local
        s.set_closing({"reason": "host stopping", "resumable": True,
                       "result": {"balances": [-100, -100, -100, -100], "pot": 400}})
        assert s.exit_standings()[-1] == want
