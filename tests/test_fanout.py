"""Fan-out once (issue #9 part 5): the public part of a view is built once per change and only each
seat's own part per seat (``engine.public_view`` + ``engine.seat_view``, the game's
``frapnet_seat_view``); the views are exactly those ``engine.view`` gives — same keys, same order,
same bytes on the wire — for every installed game, and never show a seat another seat's hand (F9).
"""
from __future__ import annotations

import random

import pytest

from frapnet import engine
from frapnet.net import wire
from frapnet.plugins import load_registry
from frapnet.testing import random_deals

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
            enc = wire.SharedEncoder()
            enc.frame("view", "view", pub)
            penc = wire.PublicEncoder("view", "view", pub)
            assert penc.public_frame() == wire.frame({"type": "view", "view": pub})
            for seat in range(players):
                want = engine.view(st, seat, lang)
                got = engine.seat_view(st, seat, pub, lang)
                assert list(got) == list(want) and got == want, (game, seat, st.version)
                data = wire.frame({"type": "view", "view": want})
                assert enc.frame("view", "view", got) == data
                assert penc.frame("view", "view", got) == data
                own = engine.seat_part(st, seat, pub, lang)
                assert penc.frame_part(own) in (data, None) and {**pub, **own} == want
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


def test_public_encoder_frames_a_body_of_another_shape_whole():
    """A body whose keys differ from the public view's (a game plugin's fallback view) is framed
    whole, and a part with a key the public view lacks gives None: never a wrong frame."""
    pub = {"a": 1, "big": 2 ** 70, "l": [1, True]}
    enc = wire.PublicEncoder("view", "view", pub)
    assert enc.frame("view", "view", {"a": 1, "l": []}) == wire.frame({"type": "view", "view": {"a": 1, "l": []}})
    assert enc.frame_part({"big": -2 ** 80}) == wire.frame({"type": "view", "view": {"a": 1, "big": -2 ** 80,
                                                                                  "l": [1, True]}})
    assert enc.frame_part({"zz": 1}) is None
    body = dict(pub, l=[1, 1])  # equal-looking but [1, True] and [1, 1] encode differently
    assert enc.frame("view", "view", body) == wire.frame({"type": "view", "view": body})
