"""Where does ``expert`` gain or lose against ``basic``? A diagnostic (issue #8) — not in the suite.

    python bench/expert_diag.py [--decks 30] [--iterations 16] [--seed 1] [--game frap]

Plays arena deals (4 players, ``expert`` at one seat against three ``basic``s, every rotation) and,
at every decision of ``expert`` with more than one legal action, evaluates every candidate on the
**true** state (a cheating oracle the product never uses: each candidate is played to the end of the
deal with ``basic`` for every seat, which is exactly how the three opponents play). Per decision
type (bid, whist, buy, take_trump, cut-in, discard, play) it prints how often expert's choice differs
from basic's, the mean true value of expert's choice minus basic's, and the oracle's best minus basic's
(the room left), in the game's unit per decision. A diagnostic only: it prints figures, asserts
nothing, and it is the only place where a state's hidden cards are read for a bot decision.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from frapnet import engine  # noqa: E402
from frapnet.bots import make_player, sampling  # noqa: E402
from frapnet.bots.arena import deck_for  # noqa: E402
from frapnet.engine import fast  # noqa: E402

KINDS = {"frap": "bid", "blind_frap": "bid", "pass": "bid/whist", "whist": "whist", "buy": "buy",
         "take_trump": "take_trump", "cut_in": "cut", "cut_in_trump": "cut", "decline": "cut",
         "discard": "discard", "play": "play"}


def true_values(st, seat, cands, rng):
    """The true value of each candidate: played to the end with the policy for every seat."""
    policy = st.rules.policy

    def chooser(s, who, legal):
        a = policy(s, who, legal, rng)
        return a if a is not None else legal[0]
    out = []
    for c in cands:
        t = fast.copy_state(st)
        fast.apply_in_place(t, seat, c)
        if t.phase == engine.DEAL:
            fast.playout(t, chooser)
        out.append(sampling.deal_result(st, t, seat))
    return out


def kind_of(st, seat, cands, view=None):
    verbs = {c[0] for c in cands}
    if "declare" in verbs:
        return "declare"  # La Krap's L10: declare K+Q or lead instead
    if "exchange" in verbs:
        return "exchange"  # La Krap's L7
    if "play" in verbs:
        if view is not None and "trick" in view and view.get("game") == "la_krap":
            return "follow" if view["trick"] else "lead"
        return "play"
    if "frap" in verbs:
        return "bid"
    if "whist" in verbs:
        return "whist"
    if "buy" in verbs or "take_trump" in verbs:
        return "buy"
    if "decline" in verbs:
        return "cut"
    return "/".join(sorted(verbs))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="frap")
    p.add_argument("--decks", type=int, default=30)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--iterations", type=int, default=16)
    p.add_argument("--seed", default="1")
    p.add_argument("--think", type=float, default=None)
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override a frapnet.bots.players constant for this run (e.g. LIKELY=0.05)")
    args = p.parse_args(argv)
    from frapnet.bots import players
    for kv in args.set:
        k, v = kv.split("=", 1)
        setattr(players, k, type(getattr(players, k))(v))
    game, n = args.game, 4
    base = engine.new_match(game, n)
    stats = defaultdict(lambda: {"n": 0, "diff": 0, "gain": 0.0, "room": 0.0, "oracle_basic_same": 0})
    total = 0.0
    t0 = time.process_time()
    rng = random.Random(0)
    for i in range(args.first, args.first + args.decks):
        deck = deck_for(engine.pack(base), args.seed, i)
        for r in range(n):
            lv = ["expert" if s == r else "basic" for s in range(n)]
            bots = [make_player(lv[s], game=game, players=n, seat=s, seed=f"{args.seed}:{i}:{r}:{s}",
                                iterations=None if args.think else args.iterations, think=args.think)
                    for s in range(n)]
            st, _ = engine.start_deal(base, deck, 0)
            for s in range(n):
                bots[s].observe(engine.view(st, s))
            while st.phase == engine.DEAL:
                seat = st.to_act[0]
                v = engine.view(st, seat)
                a = bots[seat].choose(v)
                if lv[seat] == "expert" and len(v["actions"]) > 1:
                    legal = engine.legal_actions(st, seat)
                    cands = [engine.normalize_action(st.spec, n, seat, x["action"]) for x in v["actions"]]
                    mine = engine.normalize_action(st.spec, n, seat, a)
                    b = st.rules.policy(st, seat, legal, random.Random(1))
                    if b in cands and b[0] != "look" and mine[0] != "look":
                        q = true_values(st, seat, cands, rng)
                        k = kind_of(st, seat, cands, v)
                        e = stats[k]
                        e["n"] += 1
                        e["diff"] += mine != b
                        e["gain"] += q[cands.index(mine)] - q[cands.index(b)]
                        e["room"] += max(q) - q[cands.index(b)]
                st, _ = engine.apply(st, seat, a)
                for s in range(n):
                    bots[s].observe(engine.view(st, s))
            total += sampling.deal_result(base, st, r)
    deals = args.decks * n
    print(f"{game}: {args.decks} decks × {n} rotations, expert --iterations {args.iterations}; "
          f"CPU {time.process_time() - t0:.0f} s; expert mean {total / deals:+.3f} per deal")
    print(f"{'decision':<12} {'count':>6} {'≠basic':>7} {'gain/deal':>10} {'room/deal':>10} {'gain/dec':>9}")
    g = rm = 0.0
    for k, e in sorted(stats.items()):
        g += e["gain"]
        rm += e["room"]
        print(f"{k:<12} {e['n']:>6} {e['diff']:>7} {e['gain'] / deals:>+10.3f} {e['room'] / deals:>+10.3f} "
              f"{e['gain'] / max(1, e['n']):>+9.3f}")
    print(f"{'all':<12} {'':>6} {'':>7} {g / deals:>+10.3f} {rm / deals:>+10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
