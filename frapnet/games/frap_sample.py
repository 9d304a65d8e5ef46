"""Frap's sampler (issue #8): one deal consistent with everything a seat has seen.

The ``frapnet_sample_deal`` hook of the built-in Frap plugin (:mod:`frapnet.games.frap` imports it;
its policy is in :mod:`frapnet.games.frap_bots`). It rebuilds the deal's actions from consecutive
views of the seat, deals every card the seat has not seen into the places it cannot see —
keeping every earlier play legal (F20 voids) and preferring hands with which ``basic`` would have
bid, whisted and bought as the other seats did — and lays the deck out by F8 and the talon order
of the draws (F12, F15–F17). The worked example of docs/plugins.md for variant authors.

No I/O; a pure function of its arguments (randomness only from ``rng``).
"""
from __future__ import annotations

from frapnet.cards import card_key
from frapnet.games.frap_bots import FRAP_AT, _val, frap_estimate
from frapnet.hookspecs import hookimpl

# --- the sampler (F8, F9, F12, F15–F17, F20) -----------------------------------------------------

class _Unexplained(Exception):
    """The observations cannot be explained by this sampler (a gap, a view it does not know)."""


def _signature(v: dict) -> tuple:
    """Everything of a view an action other than ``look`` changes."""
    return (v.get("phase"), v.get("round"), v.get("turn"), v.get("talon"), v.get("turn_up"),
            tuple(s.get("declaration") for s in v["seats"]), tuple(s.get("cards") for s in v["seats"]),
            tuple(tuple(t) for t in v.get("trick") or ()), v.get("tricks_played"),
            tuple(v.get("dead_turn_ups") or ()), v.get("deal_no"))


def _actions_from_views(views: list[dict]) -> list[tuple]:
    """The deal's actions, rebuilt from consecutive views of one seat (one action between two).

    Each item is ``(seat, verb, info)``: ``info`` holds what the views tell (``k`` for a buy, the
    card for a play, the next view for the observer's own actions)."""
    out = []
    for prev, nxt in zip(views, views[1:]):
        if _signature(prev) == _signature(nxt):
            flips = [s["seat"] for s, t in zip(prev["seats"], nxt["seats"]) if t["looked"] and not s["looked"]]
            if len(flips) != 1:
                raise _Unexplained("a view changed nothing an action changes")
            out.append((flips[0], "look", None))
            continue
        actor, ph = prev.get("turn"), prev.get("phase")
        if actor is None:
            raise _Unexplained("an action with nobody to act")
        decl = nxt["seats"][actor]["declaration"]
        if ph == "bid":
            if nxt.get("round") != prev.get("round") or nxt.get("phase") == "done":
                verb = "pass"
            else:
                verb = decl if decl in ("frap", "blind_frap") else "pass"
            out.append((actor, verb, None))
        elif ph == "whist":
            out.append((actor, "whist" if decl == "whist" else "pass", None))
        elif ph == "buy":
            if prev.get("turn_up") is not None and nxt.get("turn_up") is None:
                out.append((actor, "take_trump", {"turn_up": prev["turn_up"], "view": nxt, "prev": prev}))
            else:
                out.append((actor, "buy", {"k": prev["talon"] - nxt["talon"], "view": nxt, "prev": prev}))
        elif ph == "cut":
            if decl == "cut_in":
                trump = prev.get("turn_up") is not None and nxt.get("turn_up") is None
                out.append((actor, "cut_in_trump" if trump else "cut_in",
                            {"turn_up": prev.get("turn_up") if trump else None, "view": nxt}))
            else:
                out.append((actor, "decline", None))
        elif ph == "cut_discard":
            out.append((actor, "discard", {"view": nxt, "prev": prev}))
        elif ph == "play":
            trick = nxt.get("trick") or []
            if len(trick) > len(prev.get("trick") or []):
                s, card = trick[-1]
            else:
                s, card = (nxt.get("last_trick") or [[None, None]])[-1]
            if s != actor or card is None:
                raise _Unexplained("a play by another seat than the one to act")
            out.append((actor, "play", {"card": card, "led": (prev.get("trick") or [[None, None]])[0][1]}))
        else:
            raise _Unexplained(f"an action in phase {ph!r}")
    return out


def _tail_added(before: list, after: list) -> list:
    """Cards in ``after`` beyond those of ``before`` (a discards list only grows at its end)."""
    return list(after[len(before):])


_ACTS_CACHE: dict = {}  # the rebuilt actions of the observations last sampled (a search asks many times)


_TRIES = 40
"""Placements the sampler tries for a deal in which every other seat's bid, whist and number of
cards bought is what :func:`frapnet_policy` would have chosen (the first such is taken; else the
one with the fewest disagreements). ``expert``'s opponent model then judges the plays."""


def _bid_checks(acts, views, seat, init, pack) -> list:
    """Checks ``(seat, f)`` with ``f(binding, trial) -> bool`` — one per public bid, whist or buy of another seat,
    true when :func:`frapnet_policy` would have made that choice with the seat's hand as placed
    (``init``: each seat's dealt tokens; ``binding``/``trial`` map tokens to cards). Only choices
    made from the dealt hand are checked (bids, whists, the first buy of a seat that has not taken
    the turn-up); the rest is left to the search's opponent model."""
    out = []
    took = set()
    for idx, (s, verb, info) in enumerate(acts):
        if verb == "take_trump":
            took.add(s)
        if s == seat or verb not in ("frap", "blind_frap", "pass", "whist", "buy"):
            continue
        if verb == "buy" and s in took:
            continue
        prev = views[idx]
        if not any(t["seat"] == s and t["looked"] for t in prev["seats"]) and verb in ("pass", "blind_frap"):
            continue  # chosen without looking: the hand tells nothing
        trump = prev["trump"]
        toks = init[s]
        ph = prev.get("phase")
        if ph == "bid":
            want_frap = verb in ("frap", "blind_frap")

            def f(b, tr, toks=toks, trump=trump, want=want_frap):
                hand = [b[t] if t in b else tr[t] for t in toks]
                return (frap_estimate(hand, trump) >= FRAP_AT) == want
        elif ph == "whist":
            bound = sum(1 for t in prev["seats"] if t.get("declaration") in ("frap", "blind_frap", "whist"))
            want_whist = verb == "whist"

            def f(b, tr, toks=toks, trump=trump, want=want_whist, bound=bound):
                hand = [b[t] if t in b else tr[t] for t in toks]
                if bound >= 3:
                    has = frap_estimate(hand, trump) >= 1.0
                else:
                    has = any(_val(c) >= 14 or c[-1] == trump for c in hand)
                return has == want
        elif ph == "buy":
            k, talon = info["k"], prev["talon"]

            def f(b, tr, toks=toks, trump=trump, k=k, talon=talon):
                hand = [b[t] if t in b else tr[t] for t in toks]
                return min(talon, sum(1 for c in hand if c[-1] != trump and _val(c) < 14)) == k
        else:
            continue
        out.append((s, f))
    return out


def _sample(state, seat: int, observations: list[dict], rng, tries: int = _TRIES) -> dict:
    views = []
    for v in observations:
        if views and v.get("version") == views[-1].get("version"):
            views[-1] = v  # the same state again (a seat event): keep the newest
        else:
            views.append(v)
    first, now = views[0], views[-1]
    for a, b in zip(views, views[1:]):
        if b.get("version") != a.get("version") + 1 or b.get("deal_no") != a.get("deal_no"):
            raise _Unexplained("a gap in the observations")
    n = state.players
    pack = list(state.rules.pack(state))
    hs = now.get("tricks_total") or 4
    dealer = now["dealer"]
    if (first.get("phase") != "bid" or first.get("round") != 1 or any(s["declaration"] for s in first["seats"])
            or any(s["looked"] for s in first["seats"]) or first.get("talon") != len(pack) - hs * n - 1):
        raise _Unexplained("the observations do not start at the deal's start")
    key = (id(observations), len(observations), now.get("version"), seat)
    cached = _ACTS_CACHE.get(key)
    if cached is not None and cached[0] is observations[-1]:
        acts = cached[1]
    else:
        acts = _actions_from_views(views)
        _ACTS_CACHE.clear()  # one decision at a time: keep only the latest
        _ACTS_CACHE[key] = (observations[-1], acts)
    trump = now["trump"]
    refuse = state.options.get("revoke", "refuse") != "penalize"

    # Tokens: a known card is a str, an unknown one an int (a variable).
    nvar = 0

    def var():
        nonlocal nvar
        nvar += 1
        return nvar - 1

    init = {s: [var() for _ in range(hs)] for s in range(n)}
    hands = {s: list(init[s]) for s in range(n)}
    turn_up = first["turn_up"]
    talon = []          # tokens drawn from the talon, in draw order (after the first turn-up)
    choices = []        # per action: the hidden argument as a token (or None)
    plays: dict[int, list[str]] = {s: [] for s in range(n)}
    for (s, verb, info) in acts:
        if verb == "play":
            plays[s].append(info["card"])
    voids = {s: set() for s in range(n)}

    def take_token(s, card=None, avoid=(), cap=None, reserve=0):
        """Remove a token from seat s's hand: the known ``card``, else a variable bound to it.
        Without ``card``: a token not among the cards ``avoid`` (s plays them later), uniformly,
        except that at most ``cap`` known cards s never plays may stay in hand (else its later
        plays would have no place to come from). With ``card`` (a play) by another seat that
        bought, as ``basic`` buys (F15): a side card below the ace binds one of its draws, a trump or
        an ace one of its dealt cards while ``reserve`` (its later such side cards) needs the draws."""
        h = hands[s]
        if card is not None:
            for t in h:
                if t == card or (isinstance(t, int) and binding.get(t) == card):
                    h.remove(t)
                    return t
            vs = [t for t in h if isinstance(t, int) and t not in binding]
            if not vs:
                raise _Unexplained(f"seat {s} cannot hold {card}")
            if s != seat and bought[s]:
                # basic buys away every card but trumps and aces (F15): a side card below the ace that
                # s plays came from its draws; a trump or an ace leaves them to the side cards it plays later
                drawn = [t for t in vs if t in bought[s]]
                if card[-1] != trump and _val(card) < 14:
                    vs = drawn or vs
                elif len(drawn) <= reserve:
                    vs = [t for t in vs if t not in bought[s]] or vs
            t = rng.choice(vs)
            h.remove(t)
            binding[t] = card
            return t
        idle = [t for t in h if (isinstance(t, str) and t not in avoid)
                or (isinstance(t, int) and t in binding and binding[t] not in avoid)]
        doomed = [t for t in idle if (t if isinstance(t, str) else binding[t])[-1] in void_later[s]]
        if doomed:  # a known card s never plays, of a suit s later shows void in: it went here
            pool = doomed
        elif cap is not None and len(idle) > cap:
            pool = idle
        else:
            pool = [t for t in h if isinstance(t, int) and t not in binding] + idle
        if not pool:
            raise _Unexplained(f"seat {s} has nothing it may have discarded")
        t = rng.choice(pool)
        h.remove(t)
        return t

    binding: dict[int, str] = {}
    bought = {s: set() for s in range(n)}  # the tokens each other seat drew when it bought (F15)
    void_later = {s: set() for s in range(n)}  # suits each seat shows void in (F20), over the whole deal
    if refuse:
        for (s, verb, info) in acts:
            if verb == "play" and info["led"] is not None and info["card"][-1] != info["led"][-1]:
                void_later[s].add(info["led"][-1])
                if info["card"][-1] != trump:
                    void_later[s].add(trump)

    def sync_own(v):
        """Bind the observer's unbound tokens to its hand as the view shows it (same order)."""
        hand = v.get("hand")
        if hand is None:
            return
        h = hands[seat]
        if len(h) != len(hand):
            raise _Unexplained("own hand size differs from the rebuilt one")
        for t, c in zip(h, hand):
            if isinstance(t, int) and t not in binding:
                binding[t] = c
            elif (binding[t] if isinstance(t, int) else t) != c:
                raise _Unexplained("own hand differs from the rebuilt one")

    sync_own(views[0])
    for idx, (s, verb, info) in enumerate(acts):
        later = {i2["card"] for (s2, v2, i2) in acts[idx + 1:] if s2 == s and v2 == "play"}
        cap = hs - len(later)
        if verb in ("look", "frap", "blind_frap", "whist", "decline"):
            choices.append(None)
        elif verb == "pass":
            choices.append(None)
            nv = views[idx + 1]
            if nv.get("round") != views[idx].get("round") and nv.get("phase") != "done":  # F12: passed out
                talon.append(nv["turn_up"])
                turn_up = nv["turn_up"]
        elif verb == "buy":
            k = info["k"]
            if s == seat:
                disc = _tail_added(info["prev"].get("discards") or [], info["view"].get("discards") or [])
                if len(disc) != k:
                    raise _Unexplained("own discards do not match the buy")
                for c in disc:
                    take_token(s, c)
                new = (info["view"].get("hand") or [])[len(hands[s]):]
                if len(new) != k:
                    raise _Unexplained("own bought cards not seen")
                drawn = list(new)
                choices.append(tuple(disc))
            else:
                disc = [take_token(s, avoid=later, cap=cap) for _ in range(k)]
                drawn = [var() for _ in range(k)]
                bought[s].update(drawn)
                choices.append(tuple(disc))
            talon.extend(drawn)
            hands[s].extend(drawn)
        elif verb == "take_trump":
            tu = info["turn_up"]
            if s == seat:
                disc = _tail_added(info["prev"].get("discards") or [], info["view"].get("discards") or [])
                if len(disc) != 1:
                    raise _Unexplained("own take_trump discard not seen")
                c = disc[0]
                if c != tu:
                    take_token(s, c)
                    hands[s].append(tu)
                choices.append(c)
            else:
                hands[s].append(tu)  # F16: the turn-up joins the hand, then one card goes
                t = take_token(s, avoid=later, cap=cap)
                choices.append(t)
            turn_up = None
        elif verb in ("cut_in", "cut_in_trump"):
            hands[s] = []
            if s == seat:
                new = list(info["view"].get("hand") or [])
                if len(new) != 5:
                    raise _Unexplained("own cut-in cards not seen")
                if verb == "cut_in_trump":
                    talon.extend(new[1:])
                else:
                    talon.extend(new)
                hands[s] = new
            else:
                new = ([info["turn_up"]] if verb == "cut_in_trump" else []) + \
                      [var() for _ in range(4 if verb == "cut_in_trump" else 5)]
                talon.extend(new[1:] if verb == "cut_in_trump" else new)
                hands[s] = new
            if verb == "cut_in_trump":
                turn_up = None
            choices.append(None)
        elif verb == "discard":
            if s == seat:
                disc = _tail_added(info["prev"].get("discards") or [], info["view"].get("discards") or [])
                if len(disc) != 1:
                    raise _Unexplained("own cut-in discard not seen")
                take_token(s, disc[0])
                choices.append(disc[0])
            else:
                choices.append(take_token(s, avoid=later, cap=cap))
        elif verb == "play":
            card = info["card"]
            led = info["led"]
            take_token(s, card, reserve=sum(1 for c in later if c[-1] != trump and _val(c) < 14))
            if led is not None and refuse and card[-1] != led[-1]:  # F20: a void shown
                voids[s].add(led[-1])
                if card[-1] != trump:
                    voids[s].add(trump)
            choices.append(card)
        else:
            raise _Unexplained(f"unknown verb {verb}")
        sync_own(views[idx + 1])

    rest_talon = len(pack) - hs * n - 1 - len(talon)
    tail = [var() for _ in range(rest_talon)]
    tokens = [t for k in range(hs * n) for t in [init[(dealer + 1 + k) % n][k // n]]] + [first["turn_up"]] + talon + tail
    placed = [t if isinstance(t, str) else binding[t] for t in tokens if isinstance(t, str) or t in binding]
    if len(set(placed)) != len(placed):
        raise _Unexplained("a card placed twice")
    known = set(placed)
    unknown = [c for c in pack if c not in known]
    free = [t for t in tokens if isinstance(t, int) and t not in binding]
    if len(free) != len(unknown):
        raise _Unexplained(f"{len(free)} hidden places for {len(unknown)} unseen cards")
    # Others' current hands first, avoiding the suits they have shown void (F20).
    constrained = sorted(((t, voids[s]) for s in range(n) if s != seat and voids[s]
                          for t in hands[s] if isinstance(t, int) and t not in binding), key=lambda x: -len(x[1]))
    checks: dict = {}
    for s2, f in _bid_checks(acts, views, seat, init, pack):
        checks.setdefault(s2, []).append(f)
    cons = dict(constrained)
    for _attempt in range(30):
        pool = unknown[:]
        rng.shuffle(pool)
        trial: dict = {}
        # Each other seat's dealt cards first: the first of _TRIES draws with which the policy would
        # have bid, whisted and bought as the seat did (else the draw that agrees most).
        for s2, fs in checks.items():
            toks = [t for t in init[s2] if isinstance(t, int) and t not in binding]
            if not toks:
                continue
            best, best_k = None, -1
            for _try in range(tries):
                pick, used = {}, set()
                for t in toks:
                    bad = cons.get(t, "")
                    ok_i = [i for i, c in enumerate(pool) if i not in used and c[-1] not in bad]
                    if not ok_i:
                        break
                    i = rng.choice(ok_i)
                    used.add(i)
                    pick[t] = pool[i]
                else:
                    merged = {**binding, **pick}
                    k = sum(1 for f in fs if f(merged, merged))
                    if k > best_k:
                        best, best_k = (pick, used), k
                    if k == len(fs):
                        break
            if best is None:
                break
            trial.update(best[0])
            pool = [c for i, c in enumerate(pool) if i not in best[1]]
        ok = True
        for t, bad in constrained:
            if t in trial:
                continue
            for i, c in enumerate(pool):
                if c[-1] not in bad:
                    trial[t] = c
                    pool.pop(i)
                    break
            else:
                ok = False
                break
        if ok:
            break
    else:
        raise _Unexplained("no placement respects the voids")
    for t in free:
        if t not in trial:
            trial[t] = pool.pop()
    binding.update(trial)

    def card(t):
        return t if isinstance(t, str) else binding[t]

    deck = [card(init[(dealer + 1 + k) % n][k // n]) for k in range(hs * n)]
    deck.append(first["turn_up"])
    deck.extend(card(t) for t in talon)
    deck.extend(card(t) for t in tail)
    actions = []
    for (s, verb, info), c in zip(acts, choices):
        if verb == "buy":
            actions.append([s, "buy", sorted((card(t) for t in c), key=card_key)])
        elif verb in ("take_trump", "discard", "play"):
            actions.append([s, verb, card(c)])
        else:
            actions.append([s, verb])
    ante = state.options.get("ante", 100)
    bal, pot = list(first["balances"]), first["pot"]
    if pot == ante * n:  # F5: antes were paid (or a carried pot of the same size: the same deal follows)
        bal = [b + ante for b in bal]
        pot = 0
    return {"dealer": dealer, "deck": deck, "actions": actions, "before": {"balances": bal, "pot": pot, "match": {}}}


@hookimpl
def frapnet_sample_deal(state, seat, observations, rng, effort):
    """Frap: one deal consistent with ``seat``'s views (see the module docstring); None when the
    observations have a gap or do not start at the deal's start. ``effort`` ``"any"`` (``basic``,
    whose policy reads only its own cards and public facts): the first draw of the others' dealt
    cards that keeps every play legal, without the up to ``_TRIES`` draws that fit their bids."""
    if not observations or observations[-1].get("game") != "frap" or "seats" not in observations[-1]:
        return None
    try:
        return _sample(state, seat, observations, rng, 1 if effort == "any" else _TRIES)
    except _Unexplained:
        return None
