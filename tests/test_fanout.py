"""Fan-out once (issue #9 part 5): the public part of a view is built once per change and only each
seat's own part per seat (``engine.public_view`` + ``engine.seat_view``, the game's
``frapnet_seat_view``); the views are exactly those ``engine.view`` gives — same keys, same order,
same bytes on the wire — for every installed game, and never show a seat another seat's hand (F9).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from frapnet import engine
from frapnet.engine import present
from frapnet.net import viewcodec, wire
from frapnet.plugins import load_registry
from frapnet.testing import random_deals, seat_map

sys.path.insert(0, str(Path(__file__).parent))  # the fixed decks of the model tests
PLUGINS = Path(__file__).parent / "plugins"
GAMES = [("frap", 4), ("frap", 12), ("napoleon", 5), ("frak_you", 4), ("la_krap", 4)]


@pytest.mark.parametrize("game, players", GAMES)
def test_seat_view_from_the_public_view_is_exactly_the_seats_view_F9(registry, game, players):
    """At every step of random deals (bidding, buying, play, every seat, both languages): the
    view built from the shared public view equals ``engine.view`` key for key, in order, and
    frames to the same bytes (also through one SharedEncoder for the whole fan-out)."""
    if game not in registry.games:
        pytest.skip(f"the {game} plugin is not installed")
    state = engine.new_match(game, players, {}, (), registry)
    rng = random.Random(f"{game}{players}")
    steps = 0
    for _, _, _, st in random_deals(state, rng, 3):
        if st.phase != engine.DEAL:
            continue
        for lang in ("en", "ru"):
            pub = engine.public_view(st, lang)
            assert pub == engine.view(st, None, lang)
            enc = viewcodec.SharedEncoder()
            enc.frame("view", "view", pub)
            penc = viewcodec.PublicEncoder("view", "view", pub)
            assert penc.public_frame() == wire.frame({"type": "view", "view": pub})
            for seat in range(players):
                want = engine.view(st, seat, lang)
                got = engine.seat_view(st, seat, pub, lang)
                assert list(got) == list(want) and got == want, (game, seat, st.version)
                data = wire.frame({"type": "view", "view": want})
                assert enc.frame("view", "view", got) == data
                assert penc.frame("view", "view", got) == data
                own = engine.seat_part(st, seat, pub, lang)
                assert {**pub, **own} == want
                assert penc.frame_part(own) == wire.frame({"type": "view", "view": seat_map(want, own)})
            # every seat's own part in one call (the host's fan-out): the same dicts, keys in order,
            # with and without the seats' legal actions given
            legal = [engine.legal_actions(st, s) for s in range(players)]
            for given in (legal, None):
                parts = engine.seat_parts(st, range(players), pub, lang, given)
                singles = [engine.seat_part(st, s, pub, lang) for s in range(players)]
                assert [list(p) for p in parts] == [list(p) for p in singles] and parts == singles, (game, st.version)
            assert pub == engine.view(st, None, lang)  # the public view was not changed
        steps += 1
    assert steps > 20


def test_frap_seat_view_shares_the_public_values_and_builds_only_the_seats_own_keys(registry):
    """Frap's ``frapnet_seat_view``: only ``hand``, ``hand_count``, ``looked``, ``discards`` (and
    the generic ``seat`` and ``actions``) are the seat's own; every other value is the public
    view's object itself — the encoder reuses its bytes without comparing it."""
    state = engine.new_match("frap", 12, {}, (), registry)
    deck = engine.pack(state)
    random.Random(5).shuffle(deck)
    st, _ = engine.start_deal(state, deck, 0)
    seat = st.to_act[0]
    st, _ = engine.apply(st, seat, ("look",))
    pub = engine.public_view(st)
    v = engine.seat_view(st, seat, pub)
    own = {k for k in v if v[k] is not pub[k]}
    assert own == {"seat", "hand", "hand_count", "looked", "discards", "actions"}
    assert v["hand"] == st.deal.hands[seat] and pub["hand"] is None and v["looked"] is True  # F9
    other = (seat + 1) % 12
    assert engine.seat_view(st, other, pub)["hand"] is None  # F9: not looked yet


HOUSE_VIEW = '''
from frapnet.engine.spec import HouseRuleSpec
from frapnet.hookspecs import hookimpl
FRAPNET_API = 1

@hookimpl
def frapnet_register_house_rules(register):
    register(HouseRuleSpec(name="view_note", games=("frap",), rule="F27", summary="adds a note to views"))

@hookimpl(hookwrapper=True)
def frapnet_view(state, seat, lang):
    outcome = yield
    if "view_note" in state.house_rules:
        v = outcome.get_result()
        if v is not None:
            v["note"] = f"seat {seat}"
'''


def test_a_house_rule_changing_the_view_without_a_seat_view_is_never_bypassed(tmp_path):
    """A house rule that wraps ``frapnet_view`` but has no ``frapnet_seat_view``: the seat's whole
    view is built by ``frapnet_view`` (the note per seat is there), as ``engine.view`` gives it."""
    (tmp_path / "view_note.py").write_text(HOUSE_VIEW)
    reg = load_registry([tmp_path], entry_points=False)
    assert "view_note" in reg.house_rules, reg.errors
    state = engine.new_match("frap", 4, {}, ("view_note",), reg)
    deck = engine.pack(state)
    random.Random(2).shuffle(deck)
    st, _ = engine.start_deal(state, deck, 1)
    pub = engine.public_view(st)
    assert pub["note"] == "seat None"
    for seat in range(4):
        v = engine.seat_view(st, seat, pub)
        assert v == engine.view(st, seat) and v["note"] == f"seat {seat}"
    parts = engine.seat_parts(st, range(4), pub)  # the fan-out's call: the same seat by seat
    assert [p["note"] for p in parts] == [f"seat {s}" for s in range(4)]
    assert parts == [engine.seat_part(st, s, pub) for s in range(4)]


def test_public_encoder_frames_a_body_of_another_shape_whole():
    """A body whose keys differ from the public view's (a game plugin's fallback view) is framed
    whole, and a part with a key the public view lacks gives None: never a wrong frame."""
    pub = {"a": 1, "big": 2 ** 70, "l": [1, True]}
    enc = viewcodec.PublicEncoder("view", "view", pub)
    assert enc.frame("view", "view", {"a": 1, "l": []}) == wire.frame({"type": "view", "view": {"a": 1, "l": []}})
    assert enc.frame_part({"big": -2 ** 80}) == wire.frame({"type": "view", "view": {"a": 1, "l": [1, True],
                                                                                  "big": -2 ** 80}})
    assert enc.frame_part({"zz": 1}) is None
    body = dict(pub, l=[1, 1])  # equal-looking but [1, True] and [1, 1] encode differently
    assert enc.frame("view", "view", body) == wire.frame({"type": "view", "view": body})


# --- the ui map split the same way: public once, the seat's own fields per seat (issue #9) ------

SEAT_UI_FIELDS = {"frap": {"hints", "refusals", "cursor"}, "la_krap": {"card_marks"}, "napoleon": set(),
                  "frak_you": set()}
"""Per built-in game, the ui fields its ``frapnet_seat_view_ui`` may give (all others are public)."""


@pytest.mark.parametrize("game, players", GAMES)
def test_seat_ui_from_the_public_ui_is_exactly_the_seats_ui_F9(registry, game, players):
    """Issue #9 "Fan-out once", the ui map: at every step of random deals (and between deals),
    every seat, both languages, ``present.seat_ui`` over the spectator's map equals the seat's
    whole map (``present.ui``) field for field, in order; where nothing is the seat's own it *is*
    the spectator's object (its bytes are reused), and only the game's seat fields ever differ."""
    if game not in registry.games:
        pytest.skip(f"the {game} plugin is not installed")
    state = engine.new_match(game, players, {}, (), registry)
    assert present.splits_ui(state.rules) is True  # every built-in game has frapnet_seat_view_ui
    rng = random.Random(f"ui{game}{players}")
    shared = own = 0
    fields = set()
    for _, _, _, st in random_deals(state, rng, 3):
        for lang in ("en", "ru"):
            pub = present.ui(st, None, lang)
            for seat in range(players):
                want = present.ui(st, seat, lang)
                got = present.seat_ui(st, seat, pub, lang)
                assert list(got) == list(want) and got == want, (game, seat, st.version, lang)
                if got is pub:
                    shared += 1
                else:
                    own += 1
                    diff = {k for k in got if got[k] != pub[k]}
                    assert diff and {k for k in got if got[k] is not pub[k]} == diff  # a copy only if it differs
                    fields |= diff
            assert pub == present.ui(st, None, lang)  # the spectator's map was not changed
    assert fields <= SEAT_UI_FIELDS[game]
    if game == "frap":  # F20 refusals in play, for the seat to act only: every other seat shares the map
        assert "refusals" in fields and 0 < own * (players - 1) <= shared
    elif game == "la_krap":  # L5: each seat holding a team card sees it marked on its hand
        assert fields == {"card_marks"} and own > 0
    else:  # nothing of Napoleon's or Frak You's screen is a seat's own
        assert own == 0 and shared > 0


def test_frap_seat_ui_hint_and_cursor_for_the_seat_to_act_only_F16_F17():
    """Frap's ``frapnet_seat_view_ui``: the F16 hint to a blind frapper who has not looked, the
    F16 cursor once she has, the F17 cursor after a cut-in with the turn-up — each only in the
    screen of the seat to act, built from the spectator's map exactly as the whole map gives it."""
    from test_tui_model import act, cut_in_offered, table
    st = table(turn_up="7S")  # trump ♠; Olga (seat 0) holds A♠ K♥ 7♥ 8♣
    st = act(st, 0, "blind_frap")
    for seat in (1, 2, 3):
        st = act(st, seat, "whist")
    pub = present.ui(st, None, "en")
    got = present.seat_ui(st, 0, pub, "en")
    assert got == present.ui(st, 0, "en") and got["hints"] == {"t": "Look at your cards first ([l]) — you discard one "
                                                                   "of them for the turn-up; then [t] takes it."}
    assert all(present.seat_ui(st, s, pub, "en") is pub for s in (1, 2, 3))
    st = act(st, 0, "look")
    pub = present.ui(st, None, "ru")
    got = present.seat_ui(st, 0, pub, "ru")
    assert got == present.ui(st, 0, "ru") and got["cursor"] == "7H" and got["hints"] == {}  # F16: not A♠
    st = cut_in_offered()
    st = act(st, 3, "cut_in_trump")
    pub = present.ui(st, None, "en")
    got = present.seat_ui(st, 3, pub, "en")
    assert got == present.ui(st, 3, "en") and got["cursor"] not in (None, "7D")  # F17: not the turn-up taken
    assert engine.seat_part(st, 3, engine.public_view(st))["ui"]["cursor"] == got["cursor"]
    assert "ui" not in engine.seat_part(st, 1, engine.public_view(st))  # the public map, its bytes reused


HOUSE_UI = '''
from frapnet.engine.spec import HouseRuleSpec
from frapnet.hookspecs import hookimpl
FRAPNET_API = 1

@hookimpl
def frapnet_register_house_rules(register):
    register(HouseRuleSpec(name="ui_note", games=("frap",), rule="F27", summary="a note per seat"))

@hookimpl(hookwrapper=True)
def frapnet_view_ui(state, seat, lang):
    outcome = yield
    if "ui_note" in state.house_rules:
        ui = outcome.get_result()
        if ui is not None:
            ui["legend"] = [f"seat {seat}"]
'''


def test_a_house_rule_changing_the_ui_without_a_seat_ui_is_never_bypassed(tmp_path):
    """Issue #9: a house rule that wraps ``frapnet_view_ui`` but has no
    ``frapnet_seat_view_ui``: each seat's whole map is built (its own legend line is there), as
    ``engine.view`` gives it, and frames to the same bytes."""
    (tmp_path / "ui_note.py").write_text(HOUSE_UI)
    reg = load_registry([tmp_path], entry_points=False)
    assert "ui_note" in reg.house_rules, reg.errors
    state = engine.new_match("frap", 4, {}, ("ui_note",), reg)
    assert present.splits_ui(state.rules) is False
    deck = engine.pack(state)
    random.Random(3).shuffle(deck)
    st, _ = engine.start_deal(state, deck, 1)
    pub = engine.public_view(st)
    assert pub["ui"]["legend"] == ["seat None"]
    enc = viewcodec.PublicEncoder("view", "view", pub)
    for seat in range(4):
        own = engine.seat_part(st, seat, pub)
        assert own["ui"]["legend"] == [f"seat {seat}"]
        assert enc.frame_part(own) == wire.frame({"type": "view", "view": seat_map(engine.view(st, seat), own)})
    parts = engine.seat_parts(st, range(4), pub)  # the fan-out's call: the same seat by seat
    assert [p["ui"]["legend"] for p in parts] == [[f"seat {s}"] for s in range(4)]
    assert parts == [engine.seat_part(st, s, pub) for s in range(4)]


def test_a_game_without_a_seat_ui_gets_each_seats_whole_map(registry):
    """Issue #9: Lanterns (tests/plugins/toy_lanterns.py) has ``frapnet_view_ui`` (with T4
    refusals for the seat to act) and no ``frapnet_seat_view_ui``: the old path, the same maps."""
    reg = load_registry([PLUGINS], entry_points=False)
    state = engine.new_match("lanterns", 3, {}, (), reg)
    assert present.splits_ui(state.rules) is False
    refused = 0
    for _, _, _, st in random_deals(state, random.Random(4), 3):
        pub = present.ui(st, None, "en")
        for seat in range(3):
            got = present.seat_ui(st, seat, pub, "en")
            assert got == present.ui(st, seat, "en")
            refused += bool(got["refusals"])
        public = engine.public_view(st)
        assert engine.seat_parts(st, range(3), public) == [engine.seat_part(st, s, public) for s in range(3)]
    assert refused > 0


def test_each_connection_gets_a_changes_events_and_view_in_one_write(registry):
    """Issue #9 (host speed): after an accepted action every seat's connection and a spectator's
    get that change's events, then its view, in one transport write — the same bytes, in the same
    order, as the events and the seat's whole view encoded alone, its own keys last (F9: its own
    hand only)."""
    from test_net_host import Conn, make, seat_all, to_act
    table, factory, _ = make(4)
    conns = seat_all(factory, 4)
    watcher = Conn(factory)
    watcher.hello("Zoya", spectate=True, lang="ru")
    writes = {id(c): [] for c in conns + [watcher]}
    for c in conns + [watcher]:
        real_write, real_seq = c.tr.write, c.tr.writeSequence
        c.tr.write = lambda data, c=c, w=real_write: (writes[id(c)].append([data]), w(data))
        c.tr.writeSequence = lambda seq, c=c, w=real_seq: (writes[id(c)].append(list(seq)), w(seq))
    mover = to_act(conns)[0]
    before = table.state
    mover.act(mover.view["actions"][0]["action"])
    st = table.state
    assert st.version == before.version + 1
    _, events = engine.apply(before, mover.welcome["seat"], tuple(mover.view["actions"][0]["action"]))
    assert events and events[0]["seat"] == mover.welcome["seat"]
    for c in conns + [watcher]:
        assert len(writes[id(c)]) == 1, c.welcome["seat"]  # one write for the whole change
        frames = writes[id(c)][0]
        lang = "ru" if c is watcher else "en"
        seat = None if c is watcher else c.welcome["seat"]
        want_events = [wire.frame({"type": "event", "event": dict(
            ev, text=engine.describe_event(st, ev, table.names, lang))}) for ev in events]
        view = table.fanout.view_for(seat, lang)
        if seat is not None:  # a seat's own keys come last (viewcodec.PublicEncoder.frame_part)
            view = seat_map(view, engine.seat_part(st, seat, engine.public_view(st, lang), lang))
        assert frames == want_events + [wire.frame({"type": "view", "view": view})]


def test_a_deals_last_action_sends_its_events_views_and_shuffle_reveal_in_one_write(registry):
    """Issue #9 (12-seat latency; docs/protocol.md "Fair deals": the reveal comes after the deal's
    ``deal_end`` event and views, never before): the action that ends a deal gives every seat's
    connection and a spectator's one transport write — the deal's last events, its view, then
    ``shuffle_reveal`` — instead of a second write per connection for the reveal."""
    from test_net_host import Conn, make, seat_all
    table, factory, clock = make(4)
    conns = seat_all(factory, 4)
    watcher = Conn(factory)
    watcher.hello("Zoya", spectate=True)
    rng = random.Random(7)
    while True:
        st = table.state
        if st.phase != engine.DEAL:
            clock.advance(0.01)
            continue
        seat = st.to_act[0]
        action = rng.choice(engine.legal_actions(st, seat))
        if engine.apply(st, seat, action)[0].phase == engine.DEAL:
            table.apply_action(seat, engine.action_to_wire(action), st.version)
            continue
        for c in conns + [watcher]:
            c.read()
        writes = {id(c): [] for c in conns + [watcher]}
        for c in conns + [watcher]:
            c.tr.write = lambda data, c=c: writes[id(c)].append([data])
            c.tr.writeSequence = lambda seq, c=c: writes[id(c)].append(list(seq))
        table.apply_action(seat, engine.action_to_wire(action), st.version)
        break
    for c in conns + [watcher]:
        assert len(writes[id(c)]) == 1, c.welcome["seat"]
        kinds = [wire.decode(f[4:])["type"] for f in writes[id(c)][0]]
        assert kinds[-2:] == ["view", "shuffle_reveal"] and kinds[0] == "event", kinds
        reveal = wire.decode(writes[id(c)][0][-1][4:])
        assert reveal["deal"] == table.state.deal_no and reveal["proof"]["seed"]


def test_spectators_in_31_made_up_languages_cost_one_public_view_issue_9(registry, monkeypatch):
    """Issue #9 hostile input (host speed): each spectator's hello chose its own language ("xa",
    "xb"…, none a game has), and the fan-out built and encoded the public view (and every event)
    once per language: 32 spectators made every change about 6.5 times dearer (2.3 → 15 ms an
    action here). A language the host has no texts in is English (docs/protocol.md, hello.lang;
    plugins are only ever asked for "en" or "ru", docs/plugins.md)."""
    from test_net_host import Conn, make, seat_all, to_act
    table, factory, _ = make(4)
    conns = seat_all(factory, 4)
    watchers = []
    for i in range(31):  # and one more in English: the table's 32 spectators
        w = Conn(factory)
        w.hello(f"W{i}", spectate=True, lang="x" + chr(97 + i % 26) + chr(97 + i // 26))
        watchers.append(w)
    english = Conn(factory)
    english.hello("Zoya", spectate=True)
    built = []
    real = engine.public_view
    monkeypatch.setattr(engine, "public_view", lambda st, lang: (built.append(lang), real(st, lang))[1])
    for c in conns + watchers + [english]:
        c.read()
    mover = to_act(conns)[0]
    mover.act(mover.view["actions"][0]["action"])
    assert built == ["en"]  # one public view for the whole change
    english.read()
    assert english.view["version"] == table.state.version
    for w in watchers:
        w.read()
        assert w.view == english.view and w.proto.lang == "en"


def test_one_peer_whose_send_fails_does_not_cost_the_others_the_change():
    """Issue #9 hostile input: a connection whose transport raises while the fan-out sends it a
    change is aborted (one log line), and every peer after it still gets its frames, in order."""
    from frapnet.net.fanout import Fanout

    class Transport:
        aborted = 0

        def abortConnection(self):
            self.aborted += 1

    class Broken:
        peer_desc = "10.0.0.9:4242"
        transport = Transport()

        def send_frames(self, frames):
            raise RuntimeError("the WebSocket is closing")

    class Good:
        def __init__(self):
            self.got = []

        def send_frames(self, frames):
            self.got.append(frames)

    class Plain:
        def __init__(self):
            self.got = []

        def send(self, msg):
            self.got.append(msg)

    bad, after, plain = Broken(), Good(), Plain()
    Fanout._deliver([(after, [("view", b"v0")], None), (bad, [("view", b"v1")], None), (Good(), [], None),
                     (plain, [("event", b"e"), ("view", b"v3")], [{"type": "event"}, {"type": "view"}])])
    Fanout._deliver([(bad, [("view", b"v1")], None), (after, [("event", b"e0"), ("view", b"v0b")], None)])
    assert after.got == [[("view", b"v0")], [("event", b"e0"), ("view", b"v0b")]]
    assert plain.got == [{"type": "event"}, {"type": "view"}]
    assert bad.transport.aborted == 2
