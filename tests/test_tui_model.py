"""The terminal client's screen model and keys, driven by real engine views on fixed decks.

No terminal and no network: views come from :func:`frapnet.engine.view` (plus the host's
``names``/``connection``/``table`` keys), keys go through :meth:`Screen.press`, and the
prompt_toolkit application is driven with ``create_pipe_input()`` + ``DummyOutput()``.
Rule IDs: F9 (face down until looked; blind frap), F10/F11 (bids offered), F15 (buying counts),
F16 (the blind frapper's turn-up), F20 (only cards that follow suit), F23/F24 (settlement).
"""
from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

from frapnet import engine
from frapnet.cards import pack as make_pack
from frapnet.testing import random_deals
from frapnet.tui import i18n
from frapnet.tui.model import Screen, card_face
from frapnet.tui import render

NAMES = ["Olga", "Ivan", "Pyotr", "Anna"]


def deck_for(hands, turn_up, dealer, n, size=32):
    """A deck giving seat s the cards ``hands[s]`` when ``dealer`` deals (F8), then the turn-up,
    then the rest of the pack in order."""
    deck = [None] * (4 * n)
    for s in range(n):
        for j, c in enumerate(hands[s]):
            # deck[k] goes to seat (dealer + 1 + k) mod n; seat s's j-th card is k = j*n + (s - dealer - 1) mod n
            deck[j * n + (s - dealer - 1) % n] = c
    used = set(deck) | {turn_up}
    return deck + [turn_up] + [c for c in make_pack(size) if c not in used]


HANDS = [["AS", "KH", "7H", "8C"], ["QS", "9H", "10D", "7C"], ["JS", "8H", "AD", "KC"], ["10S", "QH", "KD", "9C"]]


def table(n=4, hands=HANDS, turn_up="7D", dealer=3, options=None):
    st = engine.new_match("frap", n, options or {})
    st, _ = engine.start_deal(st, deck_for(hands, turn_up, dealer, n, engine.pack(st).__len__()), dealer=dealer)
    return st


def cut_in_offered(looked: bool = False):
    """The table at Anna's (seat 3) cut-in (F17): seat 0 frapped, 1 and 2 whisted, she passed
    (having looked first if ``looked``), and the three in play stood pat."""
    st = table(options={"cut_in": True})
    if looked:
        st = act(st, 3, "look")
    st = act(st, 0, "frap")
    for seat in (1, 2):
        st = act(st, seat, "whist")
    st = act(st, 3, "pass")
    for seat in (0, 1, 2):
        st = act(st, seat, "buy", ())
    return st


def view(st, seat, lang="en"):
    v = engine.view(st, seat, lang)
    v["names"] = (NAMES * 3)[:st.players]
    v["connection"] = ["connected"] + ["bot"] * (st.players - 1)
    v["table"] = "test table"
    return v


def screen_at(st, seat, lang="en"):
    s = Screen(i18n.translation(lang).gettext, lang)
    s.set_view(view(st, seat, lang))
    return s


def act(st, seat, *action):
    st, _ = engine.apply(st, seat, tuple(action))
    return st


def text_of(frags) -> str:
    return "".join(f[1] for f in frags)


def press_all(s: Screen, keys):
    out = []
    for k in keys:
        out += s.press(k)
    return out


def offered(s: Screen) -> set:
    """Every action the screen can produce from its current view, as hashable tuples."""
    out = set()
    for g in s.groups:
        for a, _lab in g.actions:
            out.add((a[0], tuple(a[1])) if len(a) > 1 and isinstance(a[1], list) else tuple(a))
    return out


def wire(a):
    w = engine.action_to_wire(a)
    return (w[0], tuple(w[1])) if len(w) > 1 and isinstance(w[1], list) else tuple(w)


# --- F9: face down until looked; blind frap keeps it hidden ------------------------------------

def test_F9_hand_face_down_until_look_then_sorted_faces():
    st = table()
    s = screen_at(st, 0)
    assert s.hand is None and s.hand_count == 4
    txt = text_of(render.hand(s, 80))
    assert txt.count("░░░") == 4
    for c in HANDS[0]:
        assert card_face(c) not in txt
    # bids offered with their letters (F10: no whist before a frap), and look (F9)
    assert {k: item[0] for k, item in s.keys.items()} == {"l": ["look"], "f": ["frap"], "b": ["blind_frap"],
                                                          "p": ["pass"]}
    assert s.press("l") == [("act", ["look"])]
    st = act(st, 0, "look")
    s.set_view(view(st, 0))
    # sorted: trumps (♦) first — none here — then ♠ ♥ ♣, high rank first
    assert s.hand == ["AS", "KH", "7H", "8C"]
    txt = text_of(render.hand(s, 80))
    assert "A♠" in txt and "K♥" in txt and "7♥" in txt and "8♣" in txt and "░" not in txt
    assert "l" not in s.keys and "b" not in s.keys  # F9: looked, so no blind frap and no look


def test_F9_blind_frap_hides_the_hand_and_buying_stands_pat_unseen():
    st = table()
    s = screen_at(st, 0)
    assert s.press("b") == [("act", ["blind_frap"])]
    st = act(st, 0, "blind_frap")
    for seat in (1, 2):
        st = act(st, seat, "whist")
    st = act(st, 3, "pass")
    s.set_view(view(st, 0))
    assert s.my_turn and s.hand is None
    txt = text_of(render.hand(s, 100)) + text_of(render.actions(s, 100))
    assert all(card_face(c) not in txt for c in HANDS[0]), txt
    # F9/F15: unseen, only standing pat (no cards named) and looking are offered
    assert offered(s) == {("look",), ("buy", ())}
    assert "[u] Stand pat" in txt and "[l] Look at your cards" in txt
    assert press_all(s, "123") == []  # digits do nothing while the hand is face down
    assert s.press("u") == [("act", ["buy", []])]


def test_F16_blind_frapper_takes_the_turn_up_by_choosing_it_on_the_hand_row():
    st = table()
    st = act(st, 0, "blind_frap")
    for seat in (1, 2):
        st = act(st, seat, "whist")
    st = act(st, 3, "pass")
    st = act(st, 0, "look")
    s = screen_at(st, 0)
    verbs = [g.verb for g in s.groups if g.kind != "simple"]
    assert verbs == ["take_trump", "buy"] and s.mode == "take_trump"
    # the turn-up is on the row after the hand, and may be chosen (discarding the turn-up itself)
    assert s.row() == ["AS", "KH", "7H", "8C", "7D"]
    # one key must not throw the turn-up away for a player who meant to take it (a newcomer did):
    # its key first moves the cursor there and says what a second press does
    assert s.press("5") == [] and s.cursor == 4
    assert s.message == "7♦ is not in your hand: press 5 again (or Enter) to choose it — Take the turn-up, discard 7♦."
    assert s.press("5") == [("act", ["take_trump", "7D"])]
    s.cursor = 0
    assert s.press("5") == [] and s.press("enter") == [("act", ["take_trump", "7D"])]
    assert s.press("2") == [("act", ["take_trump", "KH"])]  # a card of the hand: at once, as before
    # [u] switches the hand to buying
    assert s.press("u") == [] and s.mode == "buy" and s.row() == s.hand
    assert "[t] Take the turn-up, discard…" in text_of(render.actions(s, 100))


# --- F15: buying by toggling, with the counts the talon allows ----------------------------------

def _to_buy(n=4, options=None):
    hands = HANDS if n == 4 else None
    if n == 4:
        st = table(options=options)
    else:
        st = engine.new_match("frap", n, options or {})
        st, _ = engine.start_deal(st, make_pack(32), dealer=n - 1)
    st = act(st, 0, "frap")
    for seat in range(1, n):
        st = act(st, seat, "whist")
    return st, hands


def test_F15_a_buy_label_names_its_cards_in_the_hands_order():
    """F15: the labels of the buy actions list the cards to discard as the hand shows them —
    trumps first, then ♠ ♥ ♦ ♣, high rank first (a newcomer saw "Buy: discard J♠ 7♦ 8♦", an
    order neither the hand's nor the one clicked)."""
    from frapnet.tui.faces import card_face, hand_order
    st, _ = _to_buy()
    v = engine.view(st, 0)
    buys = [a for a in v["actions"] if a["action"][0] == "buy" and len(a["action"][1]) > 1]
    assert buys
    for a in buys:
        want = " ".join(card_face(c) for c in hand_order(a["action"][1], st.deal.trump))
        assert a["label"] == f"Buy: discard {want}", a


def test_F15_buying_toggles_cards_and_confirms_only_a_legal_set():
    st, _ = _to_buy()
    s = screen_at(st, 0)
    assert s.mode == "buy" and s.counts() == (0, 4)
    # nothing chosen: Enter stands pat
    assert "[Enter] Stand pat" in text_of(render.actions(s, 100))
    assert press_all(s, ["1", "3"]) == []
    assert set(s.selected_cards()) == {"AS", "7H"}
    assert "[Enter] Buy: discard A♠ 7♥" in text_of(render.actions(s, 100))
    assert "chosen 2 (allowed 0–4)" in text_of(render.hand(s, 100))
    assert s.press("1") == [] and s.selected_cards() == ["7H"]           # toggled off again
    assert s.press("right") == [] and s.cursor in range(4)
    s.cursor = 3
    assert s.press("space") == [] and s.selected_cards() == ["7H", "8C"]
    assert s.press("enter") == [("act", ["buy", ["7H", "8C"]])]
    st = act(st, 0, "buy", ("7H", "8C"))
    assert st.deal.hands[0][-2:] == list(st.deal.deck[17:19])


def test_F15_cannot_choose_more_cards_than_the_talon_holds():
    """Seven players with a 32-card pack: the talon holds 3 cards (F2, F8), so a buyer may
    discard at most 3 (F15); a fourth toggle is refused, not sent."""
    st, _ = _to_buy(7, {"deck": 32})
    assert st.deal.talon == 3
    s = screen_at(st, 0)
    assert s.counts() == (0, 3)
    assert press_all(s, ["1", "2", "3", "4"]) == []
    assert len(s.selected) == 3 and "cannot be chosen" in s.message
    got = s.press("enter")
    assert got[0][0] == "act" and got[0][1][0] == "buy" and len(got[0][1][1]) == 3
    assert wire(tuple([got[0][1][0], tuple(got[0][1][1])])) in {wire(a) for a in engine.legal_actions(st, 0)}


# --- F20: only cards that follow suit can be played -------------------------------------------

def test_F20_digits_play_only_cards_that_follow_suit():
    st, _ = _to_buy()
    for seat in (0, 1, 2, 3):
        st = act(st, seat, "buy", ())
    st = act(st, 0, "play", "7H")  # the frapper leads ♥ (F19)
    s = screen_at(st, 1, "ru")
    assert s.hand == ["10D", "QS", "9H", "7C"]  # trumps (♦) first, then ♠ ♥ ♣
    assert offered(s) == {("play", "9H")}
    for key in ("1", "2", "4"):
        assert s.press(key) == [], key           # 10♦, Q♠, 7♣ would not follow ♥ (F20)
    assert s.message  # said why, in Russian
    assert "нельзя" in s.message
    assert s.cursor == 2  # the cursor went to the only legal card
    assert s.press("enter") == [("act", ["play", "9H"])]
    assert s.press("card:2") == [("act", ["play", "9H"])]  # a mouse click on it
    keys_line = text_of(render.hand(s, 80)).splitlines()[-1]
    assert "3" in keys_line and "1" not in keys_line and "2" not in keys_line and "4" not in keys_line


@pytest.mark.parametrize("players,options,seed", [(4, {}, 1), (3, {"revoke": "penalize"}, 2),
                                                  (7, {"deck": 32}, 3), (5, {"cut_in": True}, 4)])
def test_only_legal_actions_are_offered_and_no_key_makes_another(players, options, seed):
    """F9–F22 as the engine decides them: at every step of random deals, for every seat, the
    screen offers exactly the view's actions, and no key or key sequence produces any other."""
    rng = random.Random(seed)
    st = engine.new_match("frap", players, options)
    keys = list("abcdefgilmnoprstuvwxy1234567890") + ["enter", "space", "left", "right", "home", "end"]
    steps = 0
    for before, seat, action, after in random_deals(st, rng, 3):
        for s_ in range(players):
            v = view(after, s_)
            legal = {wire(a) for a in engine.legal_actions(after, s_)}
            scr = Screen()
            scr.set_view(v)
            assert offered(scr) == {wire(tuple(a["action"][:1]) + ((tuple(a["action"][1]),) if len(a["action"]) > 1 and isinstance(a["action"][1], list) else tuple(a["action"][1:])))
                                    for a in v["actions"]}
            assert offered(scr) <= legal
            for _ in range(12):
                k = rng.choice(keys)
                for kind, *rest in scr.press(k):
                    if kind == "act":
                        a = rest[0]
                        assert wire(tuple([a[0]] + ([tuple(a[1])] if len(a) > 1 and isinstance(a[1], list) else a[1:]))) \
                            in legal, (a, legal)
                        scr.set_view(v)
                scr.overlay = None
            steps += 1
    assert steps > 20


# --- the seat table, the trick, settlement (F23, F24) ------------------------------------------

def _play_out(st, choose=lambda acts: acts[0]):
    events = []
    while st.phase == engine.DEAL:
        seat = st.to_act[0]
        st, ev = engine.apply(st, seat, choose(engine.legal_actions(st, seat)))
        events += ev
    return st, events


def test_seat_table_shows_bids_dealer_turn_and_the_trick_by_seat():
    st, _ = _to_buy()
    for seat in (0, 1, 2, 3):
        st = act(st, seat, "buy", ())
    st = act(st, 0, "play", "AS")
    s = screen_at(st, 2)
    lines = text_of(render.seats(s, 100)).splitlines()
    assert lines[0].split()[:5] == ["player", "state", "bid", "tricks", "balance"]
    olga, ivan, pyotr, anna = lines[1:5]
    assert "Olga" in olga and "frap" in olga and "A♠" in olga and "−100" in olga
    assert "▶" in ivan and "whist" in ivan
    assert "Pyotr (you)" in pyotr and "computer" in pyotr
    assert " D " in anna and "whist" in anna  # seat 3 deals (F7)
    head = text_of(render.header(s, 100))
    assert "Trump ♦" in head and "turn-up 7♦" in head and "talon 15" in head and "pot 400" in head


@pytest.mark.parametrize("gap", [False, True])
def test_F23_F24_settlement_shows_tricks_money_remises_and_balances(gap):
    st = engine.new_match("frap", 4, {})
    s = Screen()
    s.set_view(view(st, 0))

    def host_sends(state, events):  # as the host does: the events, then the seat's view
        for ev in events:
            s.add_event(dict(ev, text=engine.describe_event(state, ev, NAMES)))
        s.set_view(view(state, 0))

    st, events = engine.start_deal(st, deck_for(HANDS, "7D", 3, 4), dealer=3)
    host_sends(st, events)
    script = [(0, ("frap",)), (1, ("whist",)), (2, ("whist",)), (3, ("whist",))]
    while st.phase == engine.DEAL:
        seat, action = script.pop(0) if script else (st.to_act[0], engine.legal_actions(st, st.to_act[0])[0])
        st, events = engine.apply(st, seat, action)
        host_sends(st, events)
        if gap and st.deal.played == 2 and s.status != "connected":  # a drop mid-deal: trick money
            s.set_status("reconnecting")                              # is not guessed from a partial log
            s.set_status("connected")
    rep = st.reports[-1]
    assert s.overlay == "settlement"
    rows = s.settlement["rows"]
    heads = s.settlement["heads"]
    assert heads == ["tricks", "trick money", "remise"]

    def col(title):
        return [r["cells"][heads.index(title)] for r in rows]
    assert col("tricks") == [str(t) for t in rep["tricks"]]
    assert col("remise") == [f"−{x}" if x else "—" for x in rep["remises"]]  # paid: a change, signed
    assert [r["balance"] for r in rows] == st.balances
    assert [r["net"] for r in rows] == st.balances  # first deal: from 0 (antes included, F5)
    P = 400
    # F23 and issue #10 item 5: the trick money comes from the deal's result, so a connection
    # dropped mid-deal (gap) shows it as well as one that saw every trick
    assert col("trick money") == [f"+{t * P // 4}" if t else "—" for t in rep["tricks"]]
    assert rep["trick_money"] == [t * P // 4 for t in rep["tricks"]]
    assert sum(st.balances) + st.pot == 0  # F6
    line = s.settlement_line()
    for r in rows:
        assert f"{r['name']} " in line
    txt = text_of(render.settlement(s))
    for b in st.balances:
        assert (f"−{-b}" if b < 0 else f"+{b}" if b > 0 else "0") in txt
    assert s.press("f") == [] and s.overlay == "settlement"  # game keys wait until dismissed
    assert s.press("enter") == [] and s.overlay is None
    s.overlay = "settlement"  # the box says "= the score sheet": = and F2 open it from there
    assert s.press("=") == [] and s.overlay == "scores"
    s.overlay = "settlement"
    assert s.press("f2") == [] and s.overlay == "scores"


# --- quitting, help, the application with pipe input ------------------------------------------

def test_quit_asks_first_mid_deal_and_not_between_deals():
    st = table()
    s = screen_at(st, 0)
    assert s.press("q") == [] and s.overlay == "quit"
    assert s.press("n") == [] and s.overlay is None
    assert s.press("c-c") == [] and s.overlay == "quit"
    assert s.press("y") == [("quit",)]
    st, _ = _play_out(st)
    s2 = screen_at(st, 0)
    assert s2.press("q") == [("quit",)]
    assert s2.press("?") == [] and s2.overlay == "help"
    assert s2.press("x") == [] and s2.overlay is None  # any key closes the help


def test_application_keys_through_a_pipe_input():
    """prompt_toolkit with a pipe input and a dummy output: keys reach the model and actions are
    sent; arrows and Enter play the card under the cursor; q asks and y quits."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from frapnet.tui.app import ClientApp

    st, _ = _to_buy()
    for seat in (0, 1, 2, 3):
        st = act(st, seat, "buy", ())
    scr = screen_at(st, 0)
    sent, chats = [], []

    async def drive():
        with create_pipe_input() as inp:
            ui = ClientApp(scr, send=sent.append, chat=chats.append, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(ui.app.run_async(set_exception_handler=False))
            for keys in ("\x1b[C", "\x1b[C", "\r", "\t", "hello", "\r", "q", "y"):
                await asyncio.sleep(0.02)
                inp.send_text(keys)
            return await asyncio.wait_for(task, 5)

    assert asyncio.run(drive()) == 0
    assert sent == [["play", scr.hand[2]]]
    assert chats == ["hello"]


# --- languages ---------------------------------------------------------------------------------

def test_every_chrome_string_has_a_russian_translation_and_the_mo_is_current():
    root = Path(i18n.__file__).parent
    src = "".join(p.read_text(encoding="utf-8") for p in root.glob("*.py"))
    ids = set(re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', src))
    po = (i18n.LOCALE_DIR / "ru/LC_MESSAGES/frapnet.po").read_text(encoding="utf-8")
    cat = i18n.parse_po(po)
    missing = sorted(i for i in ids if not cat.get(i))
    assert not missing, f"not translated in ru/LC_MESSAGES/frapnet.po: {missing}"
    import gettext
    import io
    committed = gettext.GNUTranslations(io.BytesIO((i18n.LOCALE_DIR / "ru/LC_MESSAGES/frapnet.mo").read_bytes()))
    fresh = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(po)))
    assert committed._catalog == fresh._catalog, "run: python -m frapnet.tui.i18n"
    ru = i18n.translation("ru").gettext
    assert ru("blind frap") == "фрап втёмную" and ru("remise") == "ремиз" and ru("pot {n}") == "кон {n}"


def test_default_lang_from_the_locale():
    assert i18n.default_lang({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert i18n.default_lang({"LANGUAGE": "en_GB:ru", "LANG": "ru_RU.UTF-8"}) == "en"
    assert i18n.default_lang({"LC_ALL": "C.UTF-8", "LANG": "ru_RU.UTF-8"}) == "en"
    assert i18n.default_lang({}) == "en"


def test_russian_screen_uses_the_rule_book_terms():
    st = table()
    st = act(st, 0, "blind_frap")
    st = act(st, 1, "whist")
    s = screen_at(st, 0, "ru")
    txt = text_of(render.seats(s, 100)) + text_of(render.header(s, 100))
    assert "фрап втёмную" in txt and "вист" in txt and "Козырь ♦" in txt and "кон 400" in txt


@pytest.mark.parametrize("game", ["napoleon", "frak_you", "la_krap"])
def test_any_game_is_rendered_and_played_from_the_view_alone(game, registry):
    """Variants (N*, K*, L* rule books) through the same screen: every step of random deals
    offers exactly the view's actions, only legal ones can be produced, and the screen renders
    (no game plugin is consulted by the client)."""
    if game not in registry.games:
        pytest.skip(f"game {game!r} is not installed (pip install ./variants/...)")
    spec = registry.game(game)
    rng = random.Random(7)
    st = engine.new_match(game, spec.min_players + 1, {}, registry=registry)
    keys = list("abcdefgilmnoprstuvwxy1234567890") + ["enter", "space", "right", "end"]
    acted = 0
    for before, seat, action, after in random_deals(st, rng, 2):
        for s_ in range(after.players):
            v = view(after, s_)
            scr = Screen()
            scr.set_view(v)
            legal = {wire(a) for a in engine.legal_actions(after, s_)}
            assert offered(scr) <= legal
            assert len(offered(scr)) == len(v["actions"])
            frags = render.header(scr, 80) + render.seats(scr, 80) + render.hand(scr, 80) + render.actions(scr, 80)
            assert text_of(frags)
            for _ in range(8):
                for kind, *rest in scr.press(rng.choice(keys)):
                    if kind == "act":
                        a = rest[0]
                        assert wire(tuple([a[0]] + ([tuple(a[1])] if len(a) > 1 and isinstance(a[1], list) else a[1:]))) in legal
                        acted += 1
                scr.overlay = None
    assert acted > 0


def test_several_actions_of_one_verb_get_digits_when_no_card_is_chosen():
    """A generic game's auction (e.g. Napoleon's "Bid 1"…"Bid 5"): numbered keys."""
    s = Screen()
    s.set_view({"players": 2, "seat": 0, "to_act": [0], "names": ["A", "B"], "hand": ["AS", "KH"],
                "actions": [{"action": ["bid", n], "label": f"Bid {n}"} for n in (1, 2, 3)]
                + [{"action": ["pass"], "label": "Pass"}]})
    assert s.press("2") == [("act", ["bid", 2])]
    assert s.press("p") == [("act", ["pass"])]
    assert "[3] Bid 3" in text_of(render.actions(s, 80))


def test_a_double_pack_can_choose_one_of_two_equal_cards():
    """La Krap's double pack (L2) deals the same card twice: toggling works by position, and a
    choice naming the card twice is matched as a multiset."""
    s = Screen()
    s.set_view({"players": 3, "seat": 0, "to_act": [0], "names": ["A", "B", "C"], "hand": ["9C", "9C", "AS"],
                "actions": [{"action": ["exchange", cards], "label": "Exchange " + " ".join(cards)}
                            for cards in ([], ["9C"], ["9C", "9C"], ["AS"])]})
    assert s.counts() == (0, 2) and s.row() == ["AS", "9C", "9C"]
    assert s.press("3") == [] and s.selected_cards() == ["9C"]
    assert s.press("enter") == [("act", ["exchange", ["9C"]])]
    assert press_all(s, ["2", "3"]) == [] and s.selected_cards() == ["9C", "9C"]
    assert s.press("1") == [] and "cannot be chosen" in s.message  # 9♣ 9♣ A♠ is no legal choice
    assert s.press("enter") == [("act", ["exchange", ["9C", "9C"]])]


def test_before_the_first_deal_the_screen_counts_the_seats_taken():
    st = engine.new_match("frap", 4, {})
    v = view(st, 0)
    v["connection"] = ["connected", "bot", "empty", "empty"]
    s = Screen()
    s.set_view(v)
    assert "Waiting for players: 2 of 4 seats taken" in text_of(render.hand(s, 80))
    assert not s.mid_deal and s.press("q") == [("quit",)]


def test_mouse_clicks_play_only_a_legal_card_F20():
    """SGR mouse clicks through the pipe input: a click on a card that would not follow suit does
    nothing; a click on the legal one plays it (the card boxes are drawn from row 10, 6 cells
    apart, at 80 columns)."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from frapnet.tui.app import ClientApp

    st, _ = _to_buy()
    for seat in (0, 1, 2, 3):
        st = act(st, seat, "buy", ())
    st = act(st, 0, "play", "7H")
    scr = screen_at(st, 1)
    assert scr.hand == ["10D", "QS", "9H", "7C"]
    sent = []

    def click(x, y):  # 0-based cell → SGR press and release (1-based)
        return f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"

    async def drive():
        with create_pipe_input() as inp:
            ui = ClientApp(scr, send=sent.append, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(ui.app.run_async(set_exception_handler=False))
            await asyncio.sleep(0.1)
            for i in (0, 1, 3):  # 10♦ Q♠ 7♣: not ♥ (F20)
                inp.send_text(click(2 + 6 * i, 11))
                await asyncio.sleep(0.03)
            assert sent == []
            inp.send_text(click(2 + 6 * 2, 11))
            await asyncio.sleep(0.05)
            ui.app.exit(result=0)
            return await asyncio.wait_for(task, 5)

    assert asyncio.run(drive()) == 0
    assert sent == [["play", "9H"]]


def test_F6_amounts_beyond_64_bits_are_shown_exactly():
    """F6: remises compound past 2^64 chips; the seat table and the settlement show them whole."""
    big = 2 ** 70 + 12345
    s = Screen()
    report = {"outcome": "played", "tricks": [0, 4], "remises": [big, 0], "pot_after": big,
              "balances": [-big - 100, 0 - 100 + 400]}
    s.set_view({"players": 2, "seat": 0, "deal_no": 1, "to_act": [], "names": ["Olga", "Ivan"],
                "balances": report["balances"], "pot": big, "last_report": None, "phase": "play"})
    ui = {"pot": "pot", "report": {"columns": [{"title": "remise", "cells": [str(big), "—"]}], "notes": []}}
    s.set_view({"players": 2, "seat": 0, "deal_no": 1, "to_act": [], "names": ["Olga", "Ivan"],
                "balances": report["balances"], "pot": big, "last_report": report, "ui": ui})
    seats = text_of(render.seats(s, 80))
    assert f"−{big + 100}" in seats and "+300" in seats
    assert f"pot {big}" in text_of(render.header(s, 80))
    box = text_of(render.settlement(s))
    assert str(big) in box and f"−{big + 100}" in box
    assert f"Olga −{big + 100}" in s.settlement_line() and f"Pot {big} carried" in box


def test_F12_a_passed_out_round_shows_the_new_trump_and_the_dead_turn_up():
    st = table()
    for seat in range(4):
        st = act(st, seat, "pass")
    s = screen_at(st, 0)
    head = text_of(render.header(s, 100))
    new = st.deal.turn_up
    assert f"turn-up {card_face(new)}" in head and "dead 7♦" in head and f"Trump {card_face(new)[-1]}" in head
    assert "(round 2)" in head and "pot 800" in head  # F12: a top-up of one ante each


def test_F27_joining_player_is_shown_every_option_and_house_rule():
    """F27: the table shows every option and house rule to every joining player (once, not
    again on a reconnect), in the player's language (issue #10 item 9: no English left in
    Russian); hostile text in them is neutralised."""
    from frapnet.tui.model import Screen
    from frapnet.tui import i18n

    st = engine.new_match("frap", 4, {"ante": 200, "cut_in": False, "graded_remise": True})
    s = Screen()
    v = view(st, 0)
    v["house_rules"] = ["five_card_frap", "evil\x1b[2J"]
    s.set_view(v)
    text = [t for k, t in s.log if k == "rules"]
    assert text[0].startswith("Goal: Take tricks")
    assert text[-2] == ("Table rules — Frap: deck 32 cards (for 4 players), ante 200, cut-in off, graded remise on, "
                        "revoke refused")  # F2: "auto" said as the pack it gives (a newcomer read "deck: auto" as jargon)
    assert text[-1].startswith("House rules: five_card_frap, evil") and "\x1b" not in text[-1]
    s.set_view(v)
    assert len(s.log) == len(text)
    ru = Screen(i18n.translation("ru").gettext, "ru")
    ru.set_view(view(st, 0, "ru"))
    assert [t for _, t in ru.log][-2:] == [
        "Правила стола — Фрап: колода 32 (по числу игроков), взнос 200, подрезка нет, ремиз по ступеням да, ренонс не принимается",
        "Домашние правила: нет"]


def _deals_through_screen(game, registry, deals=1, seed=5, lang="en", welcome=None):
    """Random deals of ``game`` fed to seat 0's screen view by view (as the host sends them)."""
    if game not in registry.games:
        pytest.skip(f"game {game!r} is not installed")
    st = engine.new_match(game, 4, {}, registry=registry)
    scr = Screen(i18n.translation(lang).gettext, lang)
    if welcome is not None:
        scr.set_welcome(welcome)
    last = st
    for before, seat, action, after in random_deals(st, random.Random(seed), deals):
        scr.set_view(view(after, 0, lang))
        last = after
    return scr, last


@pytest.mark.parametrize("game", ["frak_you", "la_krap"])
def test_K_L_points_settlement_shows_points_not_frap_columns(game, registry):
    """Points games (Frak You K*, La Krap L*): the settlement shows the change of points and the
    points after the deal, no trick money, remise or antes."""
    scr, st = _deals_through_screen(game, registry, deals=2)
    rep = st.reports[-1]
    before = st.reports[-2]
    after = rep.get("points_after") or rep.get("points")
    prev = before.get("points_after") or before.get("points")
    txt = text_of(render.settlement(scr))
    assert "trick money" not in txt and "remise" not in txt and "antes" not in txt
    assert "points" in txt and "this deal" in txt
    rows = scr.settlement["rows"]
    assert [r["balance"] for r in rows] == after
    assert [r["net"] for r in rows] == [a - b for a, b in zip(after, prev)]
    line = scr.log[-1][1] if scr.log[-1][0] == "settle" else [t for k, t in scr.log if k == "settle"][-1]
    assert "antes" not in line and f"{NAMES[1]} {after[1] - prev[1]}," in line  # points: no sign
    if game == "frak_you":
        assert "+1 penalty" in txt and "penalty points" in txt  # K12: the deal's losers, as penalties
    else:
        assert "deal points" in txt  # L12


def test_N_napoleon_settlement_calls_the_pot_treasure_and_shows_the_bid(registry):
    """Napoleon (N*): the declarer's bid, the payments as this deal's change, and the treasure."""
    scr, st = _deals_through_screen("napoleon", registry, deals=2)
    rep, prev = st.reports[-1], st.reports[-2]
    rows = scr.settlement["rows"]
    assert [r["net"] for r in rows] == [a - b for a, b in zip(rep["balances"], prev["balances"])]
    heads = scr.settlement["heads"]
    assert rows[rep["declarer"]]["cells"][heads.index("bid")] == (
        "bid Napoleon" if rep["bid"] == "napoleon" else f"bid {rep['bid']}") or rep["bid"] == "napoleon"
    txt = text_of(render.settlement(scr))
    assert "antes" not in txt and "trick money" not in txt
    if rep["pot_after"]:
        assert f"Treasure {rep['pot_after']} carried to the next deal." in txt
    ru, _st = _deals_through_screen("napoleon", registry, deals=2, lang="ru")
    assert "клад" in text_of(render.settlement(ru)).lower() or not rep["pot_after"]


def test_last_deal_never_promises_a_next_deal(registry):
    """The host's deal limit (welcome ``deals``) or the match's end: no "next deal", no antes."""
    scr, st = _deals_through_screen("frap", registry, deals=1, welcome={"deals": 1})
    assert scr.final_deal
    txt = text_of(render.settlement(scr)) + scr.log[-1][1] + text_of(render.hand(scr, 100))
    assert "next deal" not in txt and "antes" not in txt and "in a moment" not in txt
    assert "The match is over" in txt
    ru = Screen(i18n.translation("ru").gettext, "ru")
    ru.set_closing({"reason": "match over", "result": {"balances": [1, -1]}})
    assert "(игра окончена)" in ru.log[-2][1] and "match" not in ru.log[-2][1]


def _napoleon_until(registry, pred, seed=1):
    """The first state of random Napoleon deals (N*) where ``pred(state)`` holds."""
    if "napoleon" not in registry.games:
        pytest.skip("napoleon is not installed")
    st = engine.new_match("napoleon", 4, {}, registry=registry)
    for before, seat, action, after in random_deals(st, random.Random(seed), 3):
        if pred(after):
            return after
    raise AssertionError("no such state")


def test_N4_napoleon_bid_keys_are_the_bid_numbers_and_bids_show_in_the_seat_table(registry):
    """N4 auction: after a bid of 2 the key 3 bids 3 (not the third button); the seat table's
    bid column shows number bids."""
    def after_bid(st):
        d = st.deal
        return st.phase == "deal" and "bid" in [a[0] for s in st.to_act for a in engine.legal_actions(st, s)] \
            and any(isinstance(c, int) for c in d.calls)
    st = _napoleon_until(registry, after_bid)
    seat = st.to_act[0]
    s = screen_at(st, seat)
    bids = [a[1] for a in engine.legal_actions(st, seat) if a[0] == "bid"]
    for b in bids:
        assert s.press(str(b)) == [("act", ["bid", b])]
    assert s.press(str(min(bids) - 1)) == [] if min(bids) > 1 else True
    bidder = next(i for i, c in enumerate(st.deal.calls) if isinstance(c, int))
    line = [ln for ln in text_of(render.seats(s, 100)).splitlines() if NAMES[bidder] in ln][0]
    assert f"bid {st.deal.calls[bidder]}" in line
    acts = text_of(render.actions(s, 100))
    assert "For Napoleon (all five, for the treasure)" in acts and "…" not in acts
    assert "[3] Bid 3" in acts or 3 not in bids
    assert "turn-up" not in text_of(render.header(s, 100))


def test_N_napoleon_lead_prompt_is_balanced_and_no_turn_up_is_claimed(registry):
    """N6: the first lead names the trump in each label; the prompt's title has no open bracket
    and the header never says a turn-up was taken (Napoleon has none)."""
    st = _napoleon_until(registry, lambda st: st.phase == "deal" and st.deal.phase == "play" and st.deal.trump)
    s = screen_at(st, 0)
    hdr = text_of(render.header(s, 100))
    assert "turn-up" not in hdr and "Trump" in hdr
    st = _napoleon_until(registry, lambda st: st.phase == "deal" and st.deal.phase == "play" and not st.deal.trump)
    s = screen_at(st, st.to_act[0])
    prompt = text_of(render.hand(s, 80)).splitlines()[0]
    assert "Lead:" in prompt and "(trump" not in prompt, prompt
    card = s.row()[s.cursor]
    acts = text_of(render.actions(s, 100))  # Enter's action in the host's words: the trump it sets
    assert f"[Enter] Lead {card_face(card)} (trump " in acts, acts
    assert "treasure " in text_of(render.header(s, 100)).splitlines()[0]


def test_F15_after_buying_the_cursor_starts_on_the_first_legal_card():
    """F15 then F19: the hand changed by the purchase, so the cursor does not stay where the
    toggling left it; Enter plays the first legal card, not the one at the old position."""
    st, _ = _to_buy()
    s = screen_at(st, 0)
    s.cursor = 3
    assert s.press("space") == [] and s.press("enter") == [("act", ["buy", ["8C"]])]
    st = act(st, 0, "buy", ("8C",))
    for seat in (1, 2, 3):
        st = act(st, seat, "buy", ())
    s.set_view(view(st, 0))
    assert s.mode == "play" and s.cursor == 0


def test_F17_cut_in_discard_cursor_is_not_on_the_turn_up_just_taken():
    """F17: a passed player cuts in with the turn-up (7♦) and then discards; the turn-up is
    trump and sorted first, but the discard cursor starts on a card they held before."""
    st = cut_in_offered()
    assert ("cut_in_trump",) in engine.legal_actions(st, 3)
    s = screen_at(st, 3)
    st = act(st, 3, "cut_in_trump")
    s.set_view(view(st, 3))
    assert s.mode == "discard" and s.row()[0] == "7D"
    assert s.cursor != 0 and s.row()[s.cursor] != "7D" and s.choosable(s.cursor)


def test_K_thirteen_card_hand_gives_every_card_a_key_shown_under_it(registry):
    """Frak You deals 13 cards (K*): cards 11–13 get letters no action uses, shown under them,
    and the key plays exactly that card."""
    if "frak_you" not in registry.games:
        pytest.skip("frak_you is not installed")
    st = engine.new_match("frak_you", 4, {}, registry=registry)
    for before, seat, action, after in random_deals(st, random.Random(2), 1):
        if after.phase == "deal" and after.to_act:
            s0 = after.to_act[0]
            v = view(after, s0)
            if v["hand"] and len(v["hand"]) > 10 and any(a["action"][0] == "play" for a in v["actions"]):
                break
    else:
        raise AssertionError("no 11+ card hand to play from")
    s = screen_at(after, s0)
    row = s.row()
    keys_line = text_of(render.hand(s, 100)).splitlines()[-1]
    for i in range(10, len(row)):
        k = s.card_key(i)
        assert k and k.isalpha() and k not in s.keys
        if s.choosable(i):
            assert s.press(k) == [("act", ["play", row[i]])]
            assert f" {k} " in keys_line
    assert len({s.card_key(i) for i in range(len(row))}) == len(row)


def test_prompts_fit_80_columns():
    """F16: the blind frapper's long "Take the turn-up, discard" prompt is not cut at 80 columns."""
    st = table()
    st = act(st, 0, "blind_frap")
    for seat in (1, 2):
        st = act(st, seat, "whist")
    st = act(st, 3, "pass")
    st = act(st, 0, "look")
    s = screen_at(st, 0)
    lines = text_of(render.hand(s, 80)).splitlines()
    assert any(ln.rstrip().endswith("← → Enter") for ln in lines[:2]), lines[:2]
    assert all(render.width(ln) <= 80 for ln in lines)


def test_F16_t_before_looking_says_to_look_first():
    """F16/F9: a blind frapper's take-the-turn-up names the card discarded, so it is offered
    once they look; [t] before that says so instead of doing nothing."""
    st = table()
    st = act(st, 0, "blind_frap")
    for seat in (1, 2):
        st = act(st, seat, "whist")
    st = act(st, 3, "pass")
    s = screen_at(st, 0)
    assert s.press("t") == [] and "[l]" in s.message and "[t]" in s.message
    st = act(st, 0, "look")
    s.set_view(view(st, 0))
    s.press("u")
    assert s.press("t") == [] and s.mode == "take_trump"


def test_log_lines_wrap_at_word_boundaries():
    """A long log line (F24's settlement line, say) breaks between words, never inside one."""
    s = Screen()
    text = "Deal 3 settled: Olga +100 (remise 400), Ivan −100, Pyotr −100, Anna +100; pot 1200 carried over"
    s.add_log("settle", text)
    lines = text_of(render.log_lines(s, 40)).split("\n")
    assert len(lines) > 2 and all(render.width(ln) <= 40 for ln in lines)
    assert " ".join(ln.strip() for ln in lines) == text  # every word whole, in order
    assert text_of(render.log_lines(s, 200)) == text


def test_seat_columns_never_run_together_and_compact_keeps_you_and_a_legend():
    """The seat table keeps a space between columns (a "reconnecting…" seat, a long bid), and
    the two-column layout (more than six seats) still says "(you)" and explains ● ⚙."""
    st = engine.new_match("frap", 8, {"deck": 52})
    st, _ = engine.start_deal(st, make_pack(52), dealer=7)
    st = act(st, 0, "blind_frap")
    v = view(st, 0)
    v["connection"] = ["connected", "reconnecting"] + ["bot"] * 6
    s = Screen()
    s.set_view(v)
    wide = text_of(render.seats(s, 100))
    assert "reconnecting… " in wide and "blind frap" in wide
    compact = text_of(render.seats(s, 80, compact=True))
    assert "(you)" in compact and "● connected" in compact and "⚙ computer" in compact
    assert all(render.width(ln) <= 80 for ln in compact.splitlines())
    row = [ln for ln in compact.splitlines() if "(you)" in ln][0]
    assert re.search(r"● blind … +0 +−100", row), row  # F9: the blind frap, then tricks and balance apart


def model_help(clock=False):
    from frapnet.tui.model import help_lines
    return help_lines(lambda x: x, clock=clock)


def test_help_box_lines_keep_a_margin_and_a_small_terminal_is_asked_to_grow():
    s = Screen()
    lines = text_of(render.help_screen(s)).splitlines()
    body = [ln for ln in lines if any(what in ln for _k, what in model_help())]
    assert len(body) == len(model_help()) and all(ln.endswith("  ") for ln in body)
    assert "turn clock" not in text_of(render.help_screen(s))  # no clock at this table (frapnet play)
    s.set_view({**(s.view or {}), "deadlines": [None, 87.5, None, None]})
    assert s.clock_seen and "turn clock" in text_of(render.help_screen(s))
    assert "please enlarge it to at least 80×24" in text_of(render.too_small(s, 70, 20))
    ru = Screen(i18n.translation("ru").gettext, "ru")
    assert "80×24" in text_of(render.too_small(ru, 70, 20)) and "please" not in text_of(render.too_small(ru, 70, 20))


@pytest.mark.parametrize("cmd", ["play", "join"])
def test_play_and_join_without_a_terminal_say_so_and_exit_2(cmd):
    import subprocess
    import sys
    args = [sys.executable, "-m", "frapnet", cmd] + (["127.0.0.1:9"] if cmd == "join" else [])
    p = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and f"frapnet {cmd}: needs a terminal" in p.stderr and "EOFError" not in p.stderr


def test_F20_refusal_says_follow_suit_only_when_certain():
    """F20: a card of another suit while the hand holds the led suit: the message says why;
    a card refused for another reason (nothing led yet) keeps the neutral line."""
    st, _ = _to_buy()
    for seat in (0, 1, 2, 3):
        st = act(st, seat, "buy", ())
    st = act(st, 0, "play", "7H")  # the frapper leads ♥
    s = screen_at(st, 1)
    assert s.press("2") == []  # Q♠
    assert s.message == "Q♠ cannot be played now: you must follow suit ♥"
    ru = screen_at(st, 1, "ru")
    ru.press("2")
    assert ru.message == "Д♠ сейчас нельзя: нужно ходить в масть ♥"  # issue #10 item 9: В Д К Т
    # seat 2 is not to act: nothing is offered, so nothing is certain
    s2 = screen_at(st, 2)
    s2.mode = None
    assert s2.refusal("JS") == "J♠ cannot be chosen now."


def test_turn_clock_counts_down_on_the_screen_from_the_views_deadlines():
    """Issue #9 item 4 (the turn clock; docs/protocol.md ``deadlines``, docs/hosting.md
    ``--turn-time``): the seat to act sees its seconds left beside "Your turn", the others see
    them beside its name; counted down from the view's arrival (a fake clock here), never below
    0, in Russian too; no clock (nil) shows nothing."""
    st = table()
    seat = st.to_act[0]
    now = [100.0]
    for lang, mine, other in (("en", "Your turn · turn clock 42 s", "· turn clock 42 s"),
                              ("ru", "Ваш ход · время на ход 42 с", "· время на ход 42 с")):
        me, watcher = Screen(i18n.translation(lang).gettext, lang), Screen(i18n.translation(lang).gettext, lang)
        for s, who in ((me, seat), (watcher, (seat + 1) % st.players)):
            s.clock = lambda: now[0]
            v = view(st, who, lang)
            v["deadlines"] = [None] * st.players
            v["deadlines"][seat] = 42.0
            s.set_view(v)
        assert mine in text_of(render.hand(me, 100))
        assert NAMES[seat] + " " + other in text_of(render.hand(watcher, 100))
        now[0] += 12.3
        assert me.time_left(seat) == 30 and watcher.time_left(seat) == 30
        now[0] += 100
        assert me.time_left(seat) == 0
        now[0] = 100.0
    plain = screen_at(st, seat)
    assert plain.time_left(seat) is None and "turn clock" not in text_of(render.hand(plain, 100))
