"""Determinization: from a seat's views to full states (issue #8, design.md principle 8).

A computer player never gets the host's state. It keeps the views its seat received
(:class:`Memory`), asks the game plugin for hypothetical deals consistent with them
(``frapnet_sample_deal``) and replays each into a :class:`~frapnet.engine.state.State`
(:func:`replay_sample`). A sample the engine refuses, or whose replay does not give the seat the
view it really has, is dropped and counted — a sampler bug costs strength, never legality.

No I/O, no clock; randomness only from the ``rng`` passed in.
"""
from __future__ import annotations

import random

from frapnet import engine
import frapnet.plugins  # noqa: F401 - the installed plugins become the engine's default registry
from frapnet.engine import fast
from frapnet.engine.state import BETWEEN, State
from frapnet.hookspecs import SAMPLE_ANY, SAMPLE_SEARCH  # noqa: F401 (re-exported)


class Memory:
    """The views one seat received during the current deal (the ``observations`` of
    ``frapnet_sample_deal``): :meth:`add` appends; a view of another deal starts a new list.

    ``views``: list of view dicts, oldest first; a view repeating the previous version replaces it.
    """

    def __init__(self) -> None:
        self.views: list[dict] = []

    def add(self, view: dict) -> None:
        """Remember ``view`` (a seat's view, as the host sends it)."""
        if not isinstance(view, dict):
            return
        if self.views and view.get("deal_no") != self.views[-1].get("deal_no"):
            self.views = []
        if self.views and view.get("version") == self.views[-1].get("version"):
            self.views[-1] = view
        else:
            self.views.append(view)

    def current(self, view: dict) -> list[dict]:
        """The observations to use with ``view`` (the view now): the memory, ending with it."""
        self.add(view)
        return self.views


_TABLES: dict = {}


def table_for(view: dict, registry=None) -> State:
    """A State of the view's table before any deal (game, players, options, house rules): the
    ``state`` argument of ``frapnet_sample_deal``. Raises PluginError if the game is not installed.

    Remembered per table and registry (up to 16): loading the plugins costs tens of milliseconds,
    which a player made for every deal (the arena) would pay at its first decision. Callers only
    read it (``replay_sample`` clones it)."""
    options = dict(view.get("options") or {})
    key = (view["game"], view["players"], repr(sorted(options.items())), tuple(view.get("house_rules") or ()),
           id(registry))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is registry:
        return hit[1]
    st = engine.new_match(view["game"], view["players"], options, tuple(view.get("house_rules") or ()), registry)
    if len(_TABLES) >= 16:
        _TABLES.clear()
    _TABLES[key] = (registry, st)
    return st


def replay_sample(table: State, sample: dict, deal_no: int, pure: bool = False, judge=None) -> State:
    """The State a deal sample leads to: ``table`` with the sample's ``before`` ledger, its deal
    started from ``deck`` by ``dealer``, then every action applied.

    ``pure``: apply with :func:`frapnet.engine.apply` (each step checked and recorded, for tests);
    else normalise each action and apply it in place (the search's fast path). ``judge``, if
    given, is called as ``judge(state, seat, action, legal)`` before each fast-path action (the
    search weighs samples by it); if it returns an action of ``legal``, that action is applied
    instead (the search's opponent model completes a hidden choice as the policy would make it).
    Raises RuleError
    if the engine refuses an action or the deck, KeyError/TypeError for a malformed sample.
    """
    before = sample["before"]
    base = table.clone()
    base.balances = list(before["balances"])
    base.pot = before["pot"]
    base.match = dict(before.get("match") or {})
    base.phase = BETWEEN
    base.dealer = None
    base.deal_no = deal_no - 1
    st, _ = engine.start_deal(base, sample["deck"], sample["dealer"])
    spec, n = st.spec, st.players
    for a in sample["actions"]:
        seat, act = a[0], a[1:]
        if pure:
            st, _ = engine.apply(st, seat, act)
        else:
            act = engine.normalize_action(spec, n, seat, act)
            legal = engine.legal_actions(st, seat)
            if act not in legal:
                raise engine.RuleError("record", f"sampled action {a} is not legal")
            if judge is not None:
                alt = judge(st, seat, act, legal)
                if alt is not None:
                    act = alt
            fast.apply_in_place(st, seat, act)
    return st


_SKIP = frozenset(("version", "names", "connection", "table", "actions"))


def same_view(a: dict, b: dict) -> bool:
    """True if two views of one seat agree on everything but ``version``, host-only keys and the
    action labels (the legal actions themselves are compared)."""
    keys = (set(a) | set(b)) - _SKIP
    if any(a.get(k) != b.get(k) for k in keys):
        return False
    return [x.get("action") for x in a.get("actions") or ()] == [x.get("action") for x in b.get("actions") or ()]


def matches_view(state: State, seat: int, view: dict) -> bool:
    """True if ``state`` gives ``seat`` the view ``view`` (as :func:`same_view` of
    ``engine.view(state, seat)`` and ``view``, labels and the screen's ``ui`` aside) — built from
    the game's ``frapnet_view`` and the legal actions only, several times cheaper than a whole view."""
    if state.balances != view.get("balances") or state.pot != view.get("pot") \
            or list(state.to_act) != view.get("to_act") or state.dealer != view.get("dealer"):
        return False
    game = state.rules.view(state, seat, "en") or {}
    for k, v in game.items():
        if not k.endswith("_label") and view.get(k) != v:
            return False
    want = [x.get("action") for x in view.get("actions") or ()]
    hidden = game.get("hand", ()) is None
    verbs = state.spec.verbs
    got = [engine.action_to_wire(a) for a in state.rules.legal_actions(state, seat)
           if not (hidden and len(a) > 1 and verbs.get(a[0]) in ("card", "cards") and a[1])]
    return got == want


def sample_states(table: State, seat: int, observations: list[dict], rng: random.Random, count: int,
                  stats: dict | None = None, judge=None, effort: str = SAMPLE_SEARCH) -> list[State]:
    """Up to ``count`` States consistent with ``observations`` (``observations[-1]`` the view now),
    from the game's ``frapnet_sample_deal``, replayed on the fast path and checked against the
    view now. ``effort`` is passed to the sampler: ``"search"`` (default, a search's samples) or
    ``"any"`` (any consistent deal, cheapest: ``basic``, whose policy does not look at the hidden
    cards). ``judge`` is passed to :func:`replay_sample`; if a replay fails and ``judge`` has a
    ``retry()`` method returning True, the sample is replayed once more (the judge then keeps every
    sampled action). ``stats`` (optional dict) counts ``"asked"``, ``"none"`` (the sampler declined) and
    ``"dropped"`` (the replay failed or disagreed). Returns [] when the game has no sampler or
    every attempt failed; gives up after ``2 * count + 2`` attempts.
    """
    rules = table.rules
    if not rules.implemented("sample_deal") or not observations:
        return []
    now = observations[-1]
    out: list[State] = []
    tries = 0
    while len(out) < count and tries < 2 * count + 2:
        tries += 1
        if stats is not None:
            stats["asked"] = stats.get("asked", 0) + 1
        sample = rules.sample_deal(table, seat, observations, rng, effort)
        if sample is None:
            if stats is not None:
                stats["none"] = stats.get("none", 0) + 1
            break  # the sampler cannot explain these observations; asking again will not help
        ok = False
        for _attempt in range(2):
            try:
                st = replay_sample(table, sample, now.get("deal_no", 1), judge=judge)
                ok = matches_view(st, seat, now)
            except Exception:  # noqa: BLE001 - a sampler bug must not stop the player
                ok = False
            # a judge that replaced hidden choices may ask for the sample as it came (judge.retry())
            if ok or judge is None or not getattr(judge, "retry", None) or not judge.retry():
                break
        if not ok:
            if stats is not None:
                stats["dropped"] = stats.get("dropped", 0) + 1
            continue
        out.append(st)
    return out


def deal_result(before: State, after: State, seat: int) -> float:
    """``seat``'s result from ``before`` to ``after`` in the game's unit (``frapnet_deal_result``,
    else the change of its balance divided by the ``ante`` or ``stake`` option)."""
    rules = after.rules
    if rules.implemented("deal_result"):
        r = rules.deal_result(before, after, seat)
        if r is not None:
            return r
    unit = after.options.get("ante") or after.options.get("stake") or 1
    return (after.balances[seat] - before.balances[seat]) / unit
