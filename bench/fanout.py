"""Fan-out benchmark (issue #9 part 5): building and encoding every seat's view of one state.

    .venv/bin/python bench/fanout.py [--seats 4,12] [--deals 30] [--seconds 1.0] [--seed 1]

For each table size, a Frap match is played at random for ``--deals`` deals (so that amounts pass
2^64 at 12 seats, F6) and stopped in the play phase of the last deal. On that state, interleaved
in one run (this machine is shared and noisy), best of 3 rounds of ``--seconds`` of CPU time each:

- **per seat**: ``engine.view(state, seat)`` for every seat, encoded with one
  ``viewcodec.SharedEncoder`` (the host's fan-out before issue #9);
- **public once**: ``engine.public_view(state)`` once, ``engine.seat_view(state, seat, public)``
  per seat (only the seat's own keys built; every other value the public view's object), encoded
  with one ``SharedEncoder`` (it reuses a shared value's bytes without comparing it);
- **public encoder** (the host's fan-out since issue #9): the public view built and encoded once
  (``viewcodec.PublicEncoder``), then per seat only its own keys built (``engine.seat_part``) and
  encoded (``PublicEncoder.frame_part``);

and, for scale, every seat's view built whole and encoded on its own (``wire.frame``, no sharing). Printed: µs per fan-out
(all seats' views built and encoded), and the speed-up. The frames of the ways are checked before
timing: byte-for-byte equal, but for the public encoder's, which hold the same maps with each
seat's own keys last.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from frapnet import engine  # noqa: E402
from frapnet.net import viewcodec, wire  # noqa: E402


def state_for(seats: int, deals: int, seed: int):
    st = engine.new_match("frap", seats, {}, ())
    rng = random.Random(seed)
    for d in range(deals):
        deck = engine.pack(st)
        rng.shuffle(deck)
        st, _ = engine.start_deal(st, deck, 0 if st.dealer is None else None)
        while st.phase == engine.DEAL:
            if d == deals - 1 and st.deal.phase == "play" and st.deal.trick:
                return st
            s = st.to_act[0]
            st, _ = engine.apply(st, s, rng.choice(engine.legal_actions(st, s)))
    return st


def per_seat(st, n):
    enc = viewcodec.SharedEncoder()
    return [enc.frame("view", "view", engine.view(st, s)) for s in range(n)]


def public_once(st, n):
    enc = viewcodec.SharedEncoder()
    pub = engine.public_view(st)
    return [enc.frame("view", "view", engine.seat_view(st, s, pub)) for s in range(n)]


def public_encoder(st, n):
    pub = engine.public_view(st)
    enc = viewcodec.PublicEncoder("view", "view", pub)
    return [enc.frame_part(engine.seat_part(st, s, pub)) for s in range(n)]


def whole(st, n):
    return [wire.frame({"type": "view", "view": engine.view(st, s)}) for s in range(n)]


def rate(fn, st, n, seconds):
    """CPU seconds (this process's, so other load on the machine counts less) per call of ``fn``."""
    k, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        fn(st, n)
        k += 1
    return (time.process_time() - t0) / k


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seats", default="4,12")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    print(f"fan-out of one state: every seat's view built and encoded; best of 3 × {a.seconds} s, interleaved")
    for n in (int(x) for x in a.seats.split(",")):
        st = state_for(n, a.deals, a.seed)
        assert per_seat(st, n) == public_once(st, n) == whole(st, n)
        # the public encoder puts a seat's own keys last: the same maps, in another key order
        assert [wire.decode(f[4:]) for f in public_encoder(st, n)] == [wire.decode(f[4:]) for f in whole(st, n)]
        best = {"per seat": float("inf"), "public once": float("inf"), "each alone": float("inf"),
                "public encoder": float("inf")}
        for _ in range(3):
            for name, fn in (("per seat", per_seat), ("public once", public_once), ("each alone", whole),
                             ("public encoder", public_encoder)):
                best[name] = min(best[name], rate(fn, st, n, a.seconds))
        big = max(abs(x) for x in st.balances) >= 2 ** 64
        print(f"  {n:2d} seats (deal {st.deal_no}, amounts {'past' if big else 'under'} 2^64, "
              f"{len(whole(st, n)[0])} bytes a view): per seat {best['per seat'] * 1e6:7.0f} µs, "
              f"public once {best['public once'] * 1e6:7.0f} µs, public encoder {best['public encoder'] * 1e6:7.0f} µs, "
              f"each alone {best['each alone'] * 1e6:7.0f} µs; public encoder is "
              f"{best['per seat'] / best['public encoder']:.1f}× faster than per seat")
    return 0


if __name__ == "__main__":
    sys.exit(main())
