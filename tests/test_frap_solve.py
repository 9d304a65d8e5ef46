"""Frap's exact play solver (issue #8, frapnet.games.frap_solve; hook frapnet_solve_play): its F20
legal cards and F21/F23/F24 values against the engine's, on random deals and a hand-built ending."""
from __future__ import annotations

import random

from frapnet import engine
from frapnet.games import frap_solve


def _play_positions(deals: int, seed: int, players: int = 4, house_rules=(), **options):
    """Every play decision (F19) of ``deals`` deals played mostly by basic (sometimes at random)."""
    rng = random.Random(seed)
    base = engine.new_match("frap", players, options or None, house_rules)
    out = []
    for k in range(deals):
        deck = list(engine.pack(base))
        rng.shuffle(deck)
        st, _ = engine.start_deal(base, deck, k % players)
        while st.phase == engine.DEAL:
            s = st.to_act[0]
            legal = engine.legal_actions(st, s)
            if st.deal.phase == "play" and legal[0][0] == "play":
                out.append(st)
            a = st.rules.policy(st, s, legal, rng) if rng.random() < 0.7 else None
            st, _ = engine.apply(st, s, a if a is not None else rng.choice(legal))
    return out


def _results(before, after):
    """Every seat's change of balance in antes (frapnet_deal_result's default for Frap)."""
    ante = before.options["ante"]
    return [(after.balances[s] - before.balances[s]) / ante for s in range(before.players)]


def test_solver_legal_cards_are_the_engines_F20():
    """F20 (follow suit; void: trump; else any card): the solver's legal cards equal
    engine.legal_actions at every play decision of 60 random deals (4 and 5 players)."""
    checked = 0
    for players, seed in ((4, 1), (5, 2)):
        for st in _play_positions(30, seed, players):
            want = sorted(a[1] for a in engine.legal_actions(st, st.deal.turn))
            assert sorted(frap_solve.legal_cards(st)) == want
            checked += 1
    assert checked > 300


def test_solver_values_are_the_engines_settlement_on_the_solved_line_F21_F23_F24():
    """F21, F23, F24 (and F25 with graded_remise): from random play positions, following the
    solver's own line with engine.apply — at every step the mover's card is one whose solved value
    (the child's solve plus what the engine paid on the way) is the best for the mover and gives the
    solved vector — ends with every seat's change of balance equal to the solve at the start."""
    frap_solve._MEMO.clear()
    lines = 0
    for seed, options in ((3, {}), (4, {"graded_remise": True})):
        for st in _play_positions(12, seed, **options)[::3]:
            vals = frap_solve.solve(st)
            cur = st
            while cur.phase == engine.DEAL:
                s = cur.deal.turn
                here = frap_solve.solve(cur)
                kids = []
                for a in engine.legal_actions(cur, s):
                    nxt, _ = engine.apply(cur, s, a)
                    rest = frap_solve.solve(nxt) if nxt.phase == engine.DEAL else None
                    paid = _results(cur, nxt)
                    kids.append((nxt, [p + (rest[i] if rest else 0.0) for i, p in enumerate(paid)]))
                assert here[s] == max(v[s] for _, v in kids)  # the mover maximises its own result
                cur = next(n for n, v in kids if v == here)   # the solved line is one of them
            assert _results(st, cur) == vals
            lines += 1
    assert lines >= 20


def test_solver_finds_the_only_making_line_of_a_hand_built_ending_F20_F21_F24():
    """F20/F21/F24: seat 0 (frapper, one trick, needs two) leads K♥ 7♠ against the whister's A♥ 8♦
    (trump ♥). Leading K♥ loses both tricks (A♥ wins, then 8♦ beats 7♠: remise 2P = 8 antes);
    leading 7♠ makes the frap (the void whister must trump with A♥, F20, then leads 8♦ and K♥
    trumps it): one trick each, P/4 = 1 ante each. The solver plays 7♠ and says so."""
    st = engine.new_match("frap", 4)
    deck = list(engine.pack(st))
    random.Random(0).shuffle(deck)
    st, _ = engine.start_deal(st, deck, 3)
    st = st.clone()
    d = st.deal
    d.phase, d.trump, d.frapper, d.blind = "play", "H", 0, False
    d.whisters, d.in_play, d.cut_ins = [1], (0, 1), []
    d.looked = [True] * 4
    d.hands = [["KH", "7S"], ["AH", "8D"], [], []]
    d.trick, d.tricks, d.played, d.P = [], [1, 1, 0, 0], 2, 400
    d.turn = d.leader = 0
    st.to_act = (0,)
    assert frap_solve.solve(st) == [1.0, 1.0, 0.0, 0.0]
    lead7, _ = engine.apply(st, 0, ("play", "7S"))
    leadk, _ = engine.apply(st, 0, ("play", "KH"))
    assert frap_solve.solve(lead7) == [1.0, 1.0, 0.0, 0.0]
    assert frap_solve.solve(leadk) == [-8.0, 2.0, 0.0, 0.0]
    # the engine agrees on the line: 7♠, A♥ (forced: void in ♠, must trump), 8♦, K♥ (forced)
    assert [a[1] for a in engine.legal_actions(lead7, 1)] == ["AH"]
    end = lead7
    for s, c in ((1, "AH"), (1, "8D"), (0, "KH")):
        end, _ = engine.apply(end, s, ("play", c))
    assert end.phase != engine.DEAL and end.deal.tricks == [2, 2, 0, 0]
    assert _results(st, end) == [1.0, 1.0, 0.0, 0.0]


def test_solver_declines_what_it_does_not_cover_F22():
    """F22 ``revoke: penalize`` and a house rule (five-card Frap, F26): no solve (None), so the
    search plays on with the policy; outside the play phase too."""
    st = engine.new_match("frap", 4)
    st, _ = engine.start_deal(st, list(engine.pack(st)), 0)
    assert frap_solve.solve(st) is None  # bidding (F10)
    pen = _play_positions(6, 5, revoke="penalize")
    assert pen and all(frap_solve.solve(p) is None for p in pen)
    five = _play_positions(6, 6, house_rules=("five_card_frap",))
    assert five and all(p.rules.solve_play(p, p.deal.turn) is None for p in five)
    assert _play_positions(1, 5)[0].rules.implemented("solve_play")  # Frap implements frapnet_solve_play


def test_solver_declines_a_position_too_big_to_solve_in_good_time_then_solves_it_smaller_F19():
    """At a 12-seat table a first card with many seats in play took a seeded ``expert`` 3–5 s of
    solving: a position with more than ``MAX_SIZE`` (16) seats in play × tricks left is not solved
    (None: the search plays it out with the policy), the same deal later, smaller, is; four players
    (4 × 4) are always solved. Solved values stay those of the engine (tests above)."""
    assert frap_solve.MAX_SIZE == 16
    big = [p for p in _play_positions(40, 7, players=12) if len(p.deal.in_play) * (4 - p.deal.played) > 16]
    assert big, "no 12-seat play position with more than 16 seats × tricks"
    assert all(frap_solve.solve(p) is None for p in big)
    small = [p for p in _play_positions(40, 7, players=12) if len(p.deal.in_play) * (4 - p.deal.played) <= 16]
    assert small and all(len(frap_solve.solve(p)) == 12 for p in small)
    four = _play_positions(5, 8, players=4)
    assert four and all(frap_solve.solve(p) is not None for p in four)
