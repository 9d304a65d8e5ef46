"""Is Frap's sampler calibrated? A diagnostic for ``expert`` (issue #8) — not in the suite.

    python bench/frap_sampler_check.py [--phase play] [--deals 300] [--samples 12] [--seed 11] [--values]

Plays deals with ``basic`` at every seat (so the opponent model is exactly how the others play) and,
at every decision of the chosen phase (``bid``, ``whist``, ``buy``, ``cut``, ``play``), draws
``--samples`` states from the deciding seat's views as ``expert`` does (the sampler, replayed with
the opponent model as judge, weighted). It prints, per other seat (``s+1`` is the next seat
clockwise), the true and the sampled (weighted mean) number of trumps and aces in hand and basic's
trick estimate (``frap_estimate``), and the trumps left in the talon — a calibrated sampler gets the
same means. With ``--values`` it also plays every candidate to the end in each sample (the
search's estimate) and on the true state (an oracle), and prints the mean of estimate minus truth
of every alternative against basic's move, with its standard error: a bias there makes ``expert``
deviate where it should not. Prints figures, asserts nothing; the only place besides
``bench/expert_diag.py`` where hidden cards are read, and only to compare.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from frapnet import engine  # noqa: E402
from frapnet.bots import players, sampling  # noqa: E402
from frapnet.engine import fast  # noqa: E402
from frapnet.games.frap_bots import frap_estimate  # noqa: E402
from frapnet.testing import _deal_steps  # noqa: E402


def features(st, me: int) -> dict:
    """Hand figures of every seat but ``me`` (by position from ``me``) and the talon's trumps."""
    d = st.deal
    out = {}
    for s in range(st.players):
        if s == me:
            continue
        h, rel = d.hands[s], (s - me) % st.players
        out[f"s+{rel} trumps"] = sum(c[-1] == d.trump for c in h)
        out[f"s+{rel} aces"] = sum(c[:-1] == "A" for c in h)
        out[f"s+{rel} estimate"] = frap_estimate(h, d.trump)
    out["talon trumps"] = sum(c[-1] == d.trump for c in d.deck[d.talon_pos:])
    return out


def values(st, me, cands, rng) -> list[float]:
    """Every candidate played to the end with ``basic`` for every seat, from ``st``."""
    out = []
    for c in cands:
        t = fast.copy_state(st)
        fast.apply_in_place(t, me, c)
        if t.phase == engine.DEAL:
            fast.playout(t, lambda s_, w, legal: s_.rules.policy(s_, w, legal, rng))
        out.append(sampling.deal_result(st, t, me))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phase", default="play", choices=("bid", "whist", "buy", "cut", "play"))
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--samples", type=int, default=12)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--values", action="store_true")
    args = p.parse_args(argv)
    rng = random.Random(5)
    true, est = defaultdict(list), defaultdict(list)
    bias: list[tuple[float, float]] = []
    n = 0
    chooser = lambda st, s, acts: st.rules.policy(st, s, acts, rng)  # noqa: E731
    for st, views in _deal_steps("frap", 4, None, (), random.Random(args.seed), args.deals, chooser=chooser):
        d = st.deal
        if st.phase != engine.DEAL or d.phase != args.phase:
            continue
        me = st.to_act[0]
        obs = views[me]
        table = sampling.table_for(obs[-1])
        model = players._OpponentModel(me, st.rules.policy, table.spec.verbs, players._seen_cards(obs))
        cands = engine.legal_actions(st, me)
        if len(cands) > players.MAX_CANDIDATES:
            cands = []  # expert plays basic's move there
        got = []
        for _ in range(args.samples):
            model.reset()
            s = sampling.sample_states(table, me, obs, rng, 1, None, judge=model)
            if s:
                got.append((s[0], model.weight))
        if not got:
            continue
        n += 1
        tw = sum(w for _, w in got)
        for k, v in features(st, me).items():
            true[k].append(v)
            est[k].append(sum(features(x, me)[k] * w for x, w in got) / tw)
        if args.values and len(cands) > 1:
            b = cands.index(st.rules.policy(st, me, cands, random.Random(0)))
            q = values(st, me, cands, rng)
            rows = [(values(x, me, cands, rng), w) for x, w in got]
            e = [sum(r[i] * w for r, w in rows) / tw for i in range(len(cands))]
            bias.extend((q[i] - q[b], e[i] - e[b]) for i in range(len(cands)) if i != b)
    print(f"frap, 4 players, basic at every seat: {args.deals} deals, {n} {args.phase} decisions, "
          f"{args.samples} weighted samples each")
    print(f"{'':16} {'true':>7} {'sampled':>8} {'true−sampled':>13}")
    for k in sorted(true):
        diff = [a - b for a, b in zip(true[k], est[k])]
        se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
        print(f"{k:16} {statistics.mean(true[k]):7.3f} {statistics.mean(est[k]):8.3f} "
              f"{statistics.mean(diff):+8.3f} ± {se:.3f}")
    if bias:
        d = [e - t for t, e in bias]
        se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
        print(f"alternatives to basic's move ({len(bias)}): true {statistics.mean(t for t, _ in bias):+.3f}, "
              f"estimated {statistics.mean(e for _, e in bias):+.3f}, bias {statistics.mean(d):+.3f} ± {se:.3f} "
              f"(the game's unit per decision)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
