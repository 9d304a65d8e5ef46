"""Computer players: strategies on engine views with fixed decks (rule IDs named), and bots as
network clients against a real host over loopback."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from collections import Counter

import pytest
from twisted.internet.task import Clock

from frapnet import engine
from frapnet.bots.client import Bot, start_bots
from frapnet.bots.strategy import LEVELS, NoAction, Strategy, choose, frap_estimate, legal, trick_best


def fixed_deck(state, hands: dict[int, list[str]], turn_up: str, dealer: int = 0, talon_top=()) -> list[str]:
    """A deck that deals ``hands`` (seat -> 4 cards) under F8, with ``turn_up`` and the talon
    starting ``talon_top``; the other cards fill the remaining places in pack order."""
    n = state.players
    pack = engine.pack(state)
    used = [c for h in hands.values() for c in h] + [turn_up] + list(talon_top)
    assert len(set(used)) == len(used)
    rest = [c for c in pack if c not in used]
    full = {s: list(hands.get(s, ())) for s in range(n)}
    for s in range(n):
        while len(full[s]) < 4:
            full[s].append(rest.pop(0))
    deck = []
    for k in range(4 * n):  # F8: one at a time, clockwise from the dealer's left
        deck.append(full[(dealer + 1 + k) % n][k // n])
    return deck + [turn_up] + list(talon_top) + rest


def start(hands, turn_up, players=4, talon_top=(), **options):
    st = engine.new_match("frap", players, options or None)
    st, _ = engine.start_deal(st, fixed_deck(st, hands, turn_up, talon_top=talon_top), dealer=0)
    return st


def act(st, seat, action):
    st, _ = engine.apply(st, seat, tuple(action) if not isinstance(action, tuple) else action)
    return st


def looked_view(st, seat):
    """Seat looks (F9) and gets its view."""
    st = act(st, seat, ("look",))
    return st, engine.view(st, seat)


# --- random ----------------------------------------------------------------------------------

def test_random_picks_uniformly_among_legal_actions_F10():
    """F10: in the first bidding round an unlooked seat may look, frap, blind frap or pass;
    random picks each about equally often and nothing else."""
    st = start({1: ["AH", "KH", "7C", "8D"]}, "9H")
    v = engine.view(st, 1)
    acts = legal(v)
    assert sorted(a[0] for a in acts) == ["blind_frap", "frap", "look", "pass"]
    rng = random.Random(5)
    counts = Counter(tuple(choose(v, "random", rng)) for _ in range(4000))
    assert set(counts) == {tuple(a) for a in acts}
    assert all(800 < c < 1200 for c in counts.values()), counts


def test_same_seed_same_choices():
    st = start({1: ["AH", "KH", "7C", "8D"]}, "9H")
    v = engine.view(st, 1)
    a = [Strategy("random", seed=11).choose(v), Strategy("random", seed=11).choose(v)]
    s1, s2 = Strategy("random", seed=3), Strategy("random", seed=3)
    assert [s1.choose(v) for _ in range(50)] == [s2.choose(v) for _ in range(50)]
    assert a[0] == a[1]


def test_no_action_and_unknown_level_are_clear_errors():
    st = start({1: ["AH", "KH", "7C", "8D"]}, "9H")
    v = engine.view(st, 2)  # not seat 2's turn: only "look"
    assert legal(v) == [["look"]]
    v_spect = engine.view(st, None)
    with pytest.raises(NoAction):
        choose(v_spect, "basic")
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        Strategy("genius")


# --- basic: Frap ---------------------------------------------------------------------------------

def test_basic_looks_before_deciding_F9():
    """F9: an unlooked seat's view lists no card actions and no hand; basic looks first."""
    st = start({1: ["AH", "KH", "QH", "8D"]}, "9H")
    v = engine.view(st, 1)
    assert v["hand"] is None
    assert choose(v, "basic", random.Random(0)) == ["look"]


def test_basic_fraps_with_strong_trumps_F10():
    """F10: A♥ K♥ with trump ♥ promises two tricks: basic fraps; a hand of low plain cards passes."""
    st = start({1: ["AH", "KH", "7C", "8D"], 2: ["7S", "8S", "9C", "10D"]}, "9H")
    assert frap_estimate(["AH", "KH", "7C", "8D"], "H") == 2.0
    st, v = looked_view(st, 1)
    assert choose(v, "basic") == ["frap"]
    weak = start({1: ["7S", "8S", "9C", "10D"]}, "9H")
    weak, v = looked_view(weak, 1)
    assert choose(v, "basic") == ["pass"]


def test_basic_whists_with_an_ace_or_a_trump_F11():
    """F11: after seat 1's frap, seat 2 (a side ace) whists, seat 3 (7♥, a trump) whists, seat 0
    (no ace, no trump) passes."""
    st = start({1: ["AH", "KH", "7C", "8D"], 2: ["AS", "8S", "9C", "10D"], 3: ["7H", "9S", "10C", "JD"],
                0: ["7S", "8C", "9D", "QC"]}, "9H")
    st = act(st, 1, ("frap",))
    assert st.to_act == (2,)
    st, v = looked_view(st, 2)
    assert choose(v, "basic") == ["whist"]
    st = act(st, 2, ("whist",))
    st, v = looked_view(st, 3)
    assert choose(v, "basic") == ["whist"]
    st = act(st, 3, ("whist",))
    st, v = looked_view(st, 0)
    assert [a[0] for a in legal(v)] == ["whist", "pass"]
    assert choose(v, "basic") == ["pass"]


def test_basic_buys_keeping_trumps_and_aces_F15():
    """F15: the frapper holding A♥ K♥ 7♣ 8♦ (trump ♥) discards exactly 7♣ 8♦."""
    st = start({1: ["AH", "KH", "7C", "8D"], 2: ["AS", "8S", "9C", "10D"], 3: ["7S", "9S", "10C", "JD"],
                0: ["QS", "8C", "9D", "QC"]}, "9H")
    st = act(st, 1, ("frap",))
    st = act(st, 2, ("whist",))
    st = act(st, 3, ("pass",))
    st = act(st, 0, ("pass",))
    assert st.deal.phase == "buy" and st.to_act == (1,)  # F15: clockwise from the dealer's left
    v = engine.view(st, 1)
    pick = choose(v, "basic")
    assert pick[0] == "buy" and sorted(pick[1]) == ["7C", "8D"]
    st = act(st, 1, ("buy", tuple(pick[1])))
    # seat 2 keeps its ace, discards the three others
    v = engine.view(st, 2)
    pick = choose(v, "basic")
    assert pick[0] == "buy" and sorted(pick[1]) == ["10D", "8S", "9C"]


def _to_play(hands, turn_up):
    """Seat 1 fraps, everyone whists, everyone stands pat: play starts with seat 1 leading (F19)."""
    st = start(hands, turn_up, cut_in=False)
    st = act(st, 1, ("frap",))
    for s in (2, 3, 0):
        st = act(st, s, ("whist",))
    for s in (1, 2, 3, 0):
        st = act(st, s, ("buy", ()))
    assert st.deal.phase == "play" and st.to_act == (1,)
    return st


def test_basic_follows_suit_with_the_lowest_winning_card_F20_F21():
    """F20/F21: ♠9 led; seat 2 holds ♠7 ♠10 ♠K — it must follow suit and plays ♠10, the lowest
    card that wins; seat 3 cannot beat ♠10 in spades (♠8) and has no choice; seat 0, void in ♠,
    must trump (F20) and plays its lowest trump ♥7 rather than ♥A."""
    hands = {1: ["9S", "AD", "KD", "QD"], 2: ["7S", "10S", "KS", "8C"], 3: ["8S", "9C", "10C", "JC"],
             0: ["7H", "AH", "7D", "8D"]}
    st = _to_play(hands, "9H")
    st = act(st, 1, ("play", "9S"))
    v = engine.view(st, 2)
    assert sorted(a[1] for a in legal(v)) == ["10S", "7S", "KS"]  # F20: only spades
    assert choose(v, "basic") == ["play", "10S"]
    st = act(st, 2, ("play", "10S"))
    v = engine.view(st, 3)
    assert choose(v, "basic") == ["play", "8S"]
    st = act(st, 3, ("play", "8S"))
    v = engine.view(st, 0)
    assert sorted(a[1] for a in legal(v)) == ["7H", "AH"]  # F20: void, must trump
    assert choose(v, "basic") == ["play", "7H"]
    st = act(st, 0, ("play", "7H"))
    assert st.deal.last_winner == 0  # F21: the trump wins


def test_basic_plays_lowest_card_when_it_cannot_win_F20():
    """F20: ♦A led; seat 2 holds ♦7 ♦10 and cannot beat the ace: it plays ♦7, its lowest."""
    hands = {1: ["AD", "9S", "KD", "QD"], 2: ["7D", "10D", "KS", "8C"], 3: ["8S", "9C", "10C", "JC"],
             0: ["7H", "AH", "8D", "9D"]}
    st = _to_play(hands, "9H")
    st = act(st, 1, ("play", "AD"))
    v = engine.view(st, 2)
    assert trick_best(v["trick"], v["trump"]) == "AD"
    assert choose(v, "basic") == ["play", "7D"]


def test_basic_leads_its_strongest_card_F19():
    """F19: the frapper leads; basic leads its strongest card (a trump beats any ace)."""
    hands = {1: ["AD", "KH", "KD", "QD"], 2: ["7D", "10D", "KS", "8C"], 3: ["8S", "9C", "10C", "JC"],
             0: ["7H", "AH", "8D", "9D"]}
    st = _to_play(hands, "9H")
    assert choose(engine.view(st, 1), "basic") == ["play", "KH"]


def test_trick_best_follows_F21():
    """F21: the highest trump wins; if no trump, the highest card of the suit led."""
    assert trick_best([[0, "9S"], [1, "AS"], [2, "KD"]], "H") == "AS"
    assert trick_best([[0, "9S"], [1, "AS"], [2, "7H"]], "H") == "7H"
    assert trick_best([[0, "9S"], [1, "AD"]], "H") == "9S"
    assert trick_best([], "H") is None


# --- whole matches: every choice legal, every game -------------------------------------------

def _play_match(game, players, level, seed, deals):
    st = engine.new_match(game, players)
    bots = [Strategy(level, seed=seed * 100 + s) for s in range(players)]
    rng = random.Random(seed)
    pack = engine.pack(st)
    actions = 0
    for _ in range(deals):
        if st.phase == engine.OVER:
            break
        deck = pack[:]
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, 0 if st.dealer is None else None)
        while st.phase == engine.DEAL:
            seat = st.to_act[0]
            v = engine.view(st, seat)
            a = bots[seat].choose(v)
            assert a in legal(v)
            st, _ = engine.apply(st, seat, a)  # raises RuleError if the bot broke a rule
            actions += 1
            assert actions < 100_000
    return st


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4, 7, 12])
def test_bots_play_frap_matches_to_the_end_F1_F6(level, players):
    """F1/F6: 2–12 players, ten deals; every choice is accepted by the engine and the balances
    plus the pot sum to 0."""
    st = _play_match("frap", players, level, seed=players, deals=10)
    assert st.deal_no == 10 and st.phase == engine.BETWEEN
    assert sum(st.balances) + st.pot == 0


def test_bots_play_every_registered_game(registry):
    """Issue #5 item 4: random and basic play every installed game (variants included) from the
    view alone, only ever choosing listed actions the engine accepts."""
    for name, (spec, _info) in sorted(registry.games.items()):
        for level in LEVELS:
            for players in sorted({spec.min_players, spec.max_players}):
                st = _play_match(name, players, level, seed=players, deals=3)
                assert st.deal_no >= 1, (name, level, players)


def test_basic_generic_play_without_the_plugin():
    """A game the bot does not know: the generic path plays the lowest winning card (highest
    trump, else highest of the suit led) and picks an unknown verb at random among the legal ones."""
    view = {"game": "mystery", "hand": ["7S", "QS", "KS", "2H"], "trump": "H", "phase": "play",
            "trick": [[0, "10S"], [1, "JS"]],
            "actions": [{"action": ["play", c], "label": c} for c in ("7S", "QS", "KS")]}
    assert choose(view, "basic") == ["play", "QS"]
    view["trick"] = [[0, "10S"], [1, "3H"]]
    assert choose(view, "basic") == ["play", "7S"]
    odd = {"game": "mystery", "hand": ["7S"], "actions": [{"action": ["wobble"], "label": "Wobble"},
                                                          {"action": ["jiggle", 2], "label": "Jiggle"}]}
    picks = {tuple(Strategy("basic", seed=s).choose(odd)) for s in range(20)}
    assert picks == {("wobble",), ("jiggle", 2)}
    bid = {"game": "mystery", "hand": ["AS", "AH", "KH", "QH", "7C"],
           "actions": [{"action": ["bid", n], "label": str(n)} for n in (2, 3, 4)] + [{"action": ["pass"], "label": "Pass"}]}
    # two aces, a guarded king (0.5) and a long heart suit (+1): 3 tricks
    assert choose(bid, "basic") == ["bid", 3]
    bid["hand"] = ["7S", "8H", "9C", "10D", "JS"]
    assert choose(bid, "basic") == ["pass"]


# --- the bot as a network client: decisions through the real TableClient dispatch ----------------

class Wire:
    """Feeds host messages to a Bot's TableClient as its protocol would, and records what it sends."""

    def __init__(self, bot):
        self.bot = bot
        self.sent: list[dict] = []
        bot.client._send = self.sent.append
        self.proto = object()

    def host(self, msg):
        self.bot.client._message(self.proto, msg)

    def acts(self):
        return [m for m in self.sent if m["type"] == "act"]


def _bot_at_bidding(**kw):
    st = start({1: ["AH", "KH", "7C", "8D"]}, "9H")
    clock = Clock()
    bot = Bot("127.0.0.1", 9, "Olga", reactor=clock, **kw)
    w = Wire(bot)
    w.host({"type": "welcome", "seat": 1, "token": "t", "table": "T"})
    return st, clock, bot, w


def test_bot_answers_its_view_once_per_version_F9_F10():
    """F9/F10: seat 1 is to bid; the bot looks (once), then on the next view fraps; repeated views
    of the same version (another seat reconnecting) send nothing more."""
    st, clock, bot, w = _bot_at_bidding(seed=1)
    w.host({"type": "view", "view": engine.view(st, 1)})
    w.host({"type": "view", "view": engine.view(st, 1)})
    assert w.acts() == [{"type": "act", "action": ["look"], "version": st.version}]
    st = act(st, 1, ("look",))
    w.host({"type": "view", "view": engine.view(st, 1)})
    assert w.acts()[-1] == {"type": "act", "action": ["frap"], "version": st.version}
    other = engine.view(act(st, 1, ("frap",)), 1)  # now seat 2's turn: nothing to do
    w.host({"type": "view", "view": other})
    assert len(w.acts()) == 2 and bot.moves == 2


def test_bot_redecides_after_a_rejected_action_and_never_loops_F10():
    """A refused action (an ``illegal`` error naming F10) is re-decided among the others, at most
    max_retries times per state version; then the bot waits for the next view."""
    st, clock, bot, w = _bot_at_bidding(seed=2, max_retries=2, level="random")
    v = engine.view(st, 1)  # unlooked: look, frap, blind frap, pass
    w.host({"type": "view", "view": v})
    tried = [w.acts()[-1]["action"]]
    for _ in range(5):
        w.host({"type": "error", "code": "illegal", "message": "no", "rule": "F10"})
        if w.acts()[-1]["action"] != tried[-1]:
            tried.append(w.acts()[-1]["action"])
    assert len(w.acts()) == 3 == len(tried)  # the first choice and two re-decisions, all different
    assert len({tuple(a) for a in tried}) == 3 and all(a in legal(v) for a in tried)
    assert bot.rejected == 3
    w.host({"type": "error", "code": "stale", "message": "old", "rule": None})
    assert len(w.acts()) == 3
    st = act(st, 1, ("look",))
    st = act(st, 1, ("pass",))
    st = act(st, 2, ("pass",))
    st = act(st, 3, ("pass",))
    st = act(st, 0, ("pass",))  # F12: passed out, a new bidding round starts left of the dealer
    assert st.to_act == (1,)
    w.host({"type": "view", "view": engine.view(st, 1)})
    assert len(w.acts()) == 4 and w.acts()[-1]["version"] == st.version


def test_bot_delay_and_closing():
    """--delay: the move waits on the clock; the host's closing message stops the bot with the result."""
    st, clock, bot, w = _bot_at_bidding(seed=3, delay=0.5)
    w.host({"type": "view", "view": engine.view(st, 1)})
    assert w.acts() == []
    clock.advance(0.5)
    assert [a["action"] for a in w.acts()] == [["look"]]
    result = {"balances": [0, 0, 0, 0], "pot": 400}
    w.host({"type": "closing", "reason": "match over", "result": result})
    assert bot.done.called and bot.result == result
    assert bot.client._done  # no reconnecting after the table closed


def test_start_bots_checks_its_arguments():
    with pytest.raises(ValueError, match="3 bots but 2 seats"):
        start_bots(Clock(), "127.0.0.1", 9, 3, seats=[0, 1])
    with pytest.raises(ValueError, match="unknown bot level 'smart'"):
        Bot("127.0.0.1", 9, level="smart", reactor=Clock())


# --- end to end over loopback: real host and bot processes -------------------------------------

FRAPNET = os.path.join(os.path.dirname(sys.executable), "frapnet")


def _start_host(tmp_path, *args):
    out = open(tmp_path / "host.out", "w+")
    err = open(tmp_path / "host.err", "w")
    p = subprocess.Popen([FRAPNET, "host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--pause", "0",
                          *args], stdout=out, stderr=err, text=True)
    import time
    for _ in range(200):
        out.seek(0)
        first = out.readline()
        if "hosting table" in first:
            return p, out, int(first.rsplit(":", 1)[1])
        if p.poll() is not None:
            break
        time.sleep(0.05)
    p.kill()
    raise AssertionError(f"host did not start: {(tmp_path / 'host.err').read_text()}")


def test_bot_processes_play_a_match_and_the_record_replays_F6(tmp_path):
    """Four `frapnet bot` processes (basic and random) play a 3-deal Frap match against a
    `frapnet host` process over loopback; every bot prints the host's result, F6 holds
    (balances + pot = 0) and the record replays to the same balances."""
    rec = tmp_path / "match.json"
    host, out, port = _start_host(tmp_path, "--players", "4", "--deals", "3", "--seed", "11", "--record", str(rec))
    try:
        bots = [subprocess.Popen([FRAPNET, "bot", f"127.0.0.1:{port}", "--name", f"B{i}", "--seed", str(i),
                                  "--level", "basic" if i % 2 else "random"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(4)]
        outs = [b.communicate(timeout=60) for b in bots]
        assert host.wait(timeout=30) == 0
    finally:
        host.kill()
    out.seek(0)
    result = json.loads(out.read().splitlines()[-1])
    assert result["deals"] == 3
    assert sum(result["balances"]) + result["pot"] == 0  # F6
    seats = set()
    for b, (so, se) in zip(bots, outs):
        assert b.returncode == 0, se
        lines = so.splitlines()
        assert lines[0].startswith("frapnet bot: B") and " at seat " in lines[0]
        seats.add(int(lines[0].split(" at seat ")[1].split()[0]))
        assert json.loads(lines[-1]) == result
    assert seats == {0, 1, 2, 3}
    replay = subprocess.run([FRAPNET, "replay", "--json", str(rec)], capture_output=True, text=True)
    rep = json.loads(replay.stdout)
    assert rep["ok"] and rep["balances"] == result["balances"] and rep["pot"] == result["pot"]


def test_frapnet_bot_reports_an_unreachable_host_and_a_refusal(tmp_path):
    """A bot that cannot connect exits 1 with the reason; a full table refuses it (table_full)."""
    r = subprocess.run([FRAPNET, "bot", "127.0.0.1:1"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and "cannot reach 127.0.0.1:1" in r.stderr
    host, out, port = _start_host(tmp_path, "--players", "2", "--bots", "2", "--deals", "50", "--seed", "1",
                                  "--bot-delay", "0.05")  # a fast host ends 50 deals before the bot arrives
    try:
        r = subprocess.run([FRAPNET, "bot", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=30)
    finally:
        host.terminate()
        host.wait(timeout=10)
    assert r.returncode == 1 and "(table_full)" in r.stderr


INPROC = textwrap.dedent("""
    import json, sys
    from twisted.internet import defer, task
    from frapnet.hosting import HostConfig, TableConfig, start_host
    from frapnet.bots.client import start_bots

    async def main(reactor):
        game, players, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        h = start_host(reactor, HostConfig(TableConfig(game=game, players=players, deals=2, pause=0, seed=seed)))
        bots = start_bots(reactor, "127.0.0.1", h.port, players, "basic", seed=seed, seats=list(range(players)))
        result = await h.finished
        await h.stop()
        done = [await b.done for b in bots]
        print(json.dumps({"result": result, "bots": done, "moves": sum(b.moves for b in bots),
                          "names": h.table.names, "rejected": h.table.rejected}))

    task.react(lambda r: defer.ensureDeferred(main(r)))
""")


@pytest.mark.parametrize("game,players", [("frap", 4), ("napoleon", 4), ("frak_you", 4), ("la_krap", 4)])
def test_start_bots_play_any_game_in_process(registry, game, players):
    """start_bots (a host's --bots K) plays two deals of every installed game over loopback from
    the views alone (issue #5 item 4); the same seed gives the same match."""
    if game not in registry.games:
        pytest.skip(f"{game} is not installed")
    runs = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", INPROC, game, str(players), "7"], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr[-2000:]
        runs.append(json.loads(r.stdout.splitlines()[-1]))
    a, b = runs
    assert a == b
    assert a["result"]["deals"] == 2 and a["moves"] > 0
    if game != "frak_you":  # K3: simultaneous passing; a pass made against a version another seat
        assert a["rejected"] == 0  # moved on is refused as stale and decided again
    assert all(d == a["result"] for d in a["bots"])
    assert a["names"] == [f"Bot {i}" for i in range(players)]  # named after their seats, from 0
    if "balances" in a["result"]:
        assert sum(a["result"]["balances"]) + a["result"].get("pot", 0) == 0


def test_lan_timeouts_are_consistent_across_join_tables_bot():
    """docs/hosting.md: `join`, `tables` and `bot` look for LAN announcements 3 s by default."""
    import argparse

    from frapnet.commands import bot, join, tables
    defaults = []
    for mod in (join, tables, bot):
        p = argparse.ArgumentParser()
        mod.add_arguments(p)
        defaults.append(p.get_default("timeout"))
    assert defaults == [3.0, 3.0, 3.0]
