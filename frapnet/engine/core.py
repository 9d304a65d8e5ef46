"""The engine's pure functions: new_match, start_deal, legal_actions, apply, view.

No I/O, no clock, no shuffling (the deck is passed in), no Twisted or prompt_toolkit. Each
function takes a :class:`~frapnet.engine.state.State` and returns a new one; the one it was
given is never changed, so a rejected action changes nothing.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from frapnet.cards import ALL_CARDS, CardError, card_key, parse_card, SUITS
from frapnet.engine.present import seat_ui as present_seat_ui, splits_ui as present_splits_ui, ui as present_ui
from frapnet.engine.rules import Rules, installed_registry
from frapnet.engine.sheet import sheet_window
from frapnet.engine.spec import ARG_CARD, ARG_CARDS, ARG_INT, ARG_NONE, ARG_SUIT, GameSpec
from frapnet.engine.state import BETWEEN, DEAL, OVER, State
from frapnet.errors import MAX_ARG_DIGITS, RuleError, shown, too_large

Action = tuple
_CANONICAL = frozenset(ALL_CARDS)


def _registry(registry):
    return installed_registry() if registry is None else registry


def check_options(spec: GameSpec, players: Any, options: dict | None) -> dict:
    """Parse a table's options against ``spec``; return every option with defaults filled in.

    Raises RuleError: the player-count rule (F1) first (``"record"`` only if ``players`` is
    missing); then ``"record"`` for an unknown key; then option by option in the game's order
    (``spec.options``), ``"record"`` for a non-boolean flag or the option's own rule (F2, F5,
    F22…).
    """
    if players is None:
        raise RuleError("record", "the record does not say how many players")
    if isinstance(players, bool) or not isinstance(players, int):  # F1: checked first
        raise RuleError(spec.players_rule, f"players must be a whole number {spec.min_players}–"
                                           f"{spec.max_players}, not {shown(players)}")
    if not spec.min_players <= players <= spec.max_players:
        raise RuleError(spec.players_rule, f"{spec.title} is for {spec.min_players}–{spec.max_players} "
                                           f"players, not {shown(players)}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("record", f"options must be an object, not {type(options).__name__}")
    out = spec.defaults()
    for key in options:
        if spec.option(key) is None:
            known = ", ".join(x.name for x in spec.options) or "none"
            raise RuleError("record", f"unknown option {shown(key)} for {spec.name} (options: {known})")
    for o in spec.options:  # in the game's order (Frap: deck F2, ante F5, …, revoke F22)
        if o.name in options:
            out[o.name] = o.parse(options[o.name])
    return out


def new_match(game: str, players: int, options: dict | None = None, house_rules: Iterable[str] = (),
              registry=None) -> State:
    """A new table of ``game`` for ``players`` seats, before its first deal.

    ``options`` maps option names to values (missing ones take their defaults);
    ``house_rules`` names active house-rule plugins (F26, F27). ``registry`` is a
    :class:`frapnet.plugins.Registry` (default: the installed plugins —
    :func:`frapnet.engine.rules.installed_registry`).
    Raises RuleError (F1, F2, F5…, or "record" for an unknown option) or PluginError
    (unknown game or house rule).
    """
    reg = _registry(registry)
    spec = reg.game(game)
    house_rules = tuple(house_rules)
    opts = check_options(spec, players, options)  # players (F1) and each option first, then house rules
    rules = Rules(reg.plugin_manager(game, house_rules))
    checked = rules.validate_options(spec, players, opts)
    if checked is not None:
        opts = checked
    s = State.__new__(State)
    s.game = game
    s.spec = spec
    s.players = players
    s.options = opts
    s.house_rules = house_rules
    s.rules = rules
    s.balances = [0] * players
    s.pot = 0
    s.phase = BETWEEN
    s.deal_no = 0
    s.dealer = None
    s.deal = None
    s.deal_over = False
    s.to_act = ()
    s.history = None
    s.reports = ()
    s.totals = ()
    s.version = 0
    s.match = {}
    return s


def next_dealer(state: State) -> int | None:
    """The seat that deals next: clockwise from the last dealer (F7); None before the first."""
    if state.dealer is None:
        return None
    return (state.dealer + 1) % state.players


def pack(state: State) -> list[str]:
    """The pack this table deals (F2)."""
    return list(state.rules.pack(state))


def start_deal(state: State, deck: Iterable[Any], dealer: int | None = None) -> tuple[State, list]:
    """Start the next deal with ``deck`` (every card of the pack, top first).

    ``dealer``: required for the first deal (chosen by lot, F7); for later deals it may be
    omitted, and if given must be the next seat clockwise (F7/N9/K2/L4).
    Raises RuleError: ``"record"`` if a deal is in progress or the deck is not a permutation of
    the pack; the game's dealer rule for a wrong dealer; the match rule (K12/L12) after the match.
    """
    spec = state.spec
    if state.phase == OVER:
        raise RuleError(spec.match_rule or "record", "the match has ended; no further deal")
    if state.phase == DEAL:
        raise RuleError("record", "a deal is still in progress")
    expected = next_dealer(state)
    if dealer is None:
        if expected is None:
            raise RuleError("record", "the first deal needs a dealer (F7: chosen by lot)")
        dealer = expected
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < state.players:
        raise RuleError("record", f"dealer must be a seat 0…{state.players - 1}, not {shown(dealer)}")
    if expected is not None and dealer != expected:
        raise RuleError(spec.dealer_rule, f"seat {dealer} may not deal: the deal passes clockwise to seat {expected}")
    try:
        cards = [c if isinstance(c, str) and c in _CANONICAL else parse_card(c) for c in deck]
    except CardError as exc:
        raise RuleError("record", f"deck: {exc}") from None
    want = state.rules.pack(state)
    if len(cards) != len(want) or not _same_cards(cards, want):
        missing = Counter(want) - Counter(cards)
        extra = Counter(cards) - Counter(want)
        raise RuleError("record", f"the deck is not a permutation of the {len(want)}-card pack "
                                  f"(missing {sorted(missing)}, unexpected {sorted(extra)})")
    new = state.clone()
    new.dealer = dealer
    new.deal_no += 1
    new.deal_over = False
    new.phase = DEAL
    new.history = (new.history, (dealer, tuple(cards), None))
    new.version += 1
    events = new.rules.deal(new, cards, dealer) or []
    if new.deal_over:  # a deal can end at once (e.g. nothing to play)
        events.extend(_finish_deal(new))
    return new, events


def _same_cards(cards: list, want: list) -> bool:
    """True if ``cards`` is a permutation of ``want`` (equal lengths given)."""
    s = set(want)
    if len(s) == len(want):  # a single pack: sets decide (the common, fast case)
        return set(cards) == s
    return Counter(cards) == Counter(want)


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (tuples, normalised), and no other."""
    if state.phase != DEAL:
        return []
    return state.rules.legal_actions(state, seat)


def normalize_action(spec: GameSpec, players: int, seat: Any, action: Any) -> Action:
    """Check an action's shape and return it normalised: ``(verb,)`` or ``(verb, arg)``.

    Accepts lists or tuples; cards in any accepted spelling. Raises RuleError("record") for a
    seat out of range, an unknown verb, or an argument of the wrong shape.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise RuleError("record", f"seat must be 0…{players - 1}, not {shown(seat)}")
    if not isinstance(action, (list, tuple)) or not action or not isinstance(action[0], str):
        raise RuleError("record", f"an action is [verb, argument?], not {shown(action)}")
    verb = action[0]
    if verb not in spec.verbs:
        raise RuleError("record", f"unknown verb {verb!r} for {spec.name} (verbs: {', '.join(sorted(spec.verbs))})")
    kind = spec.verbs[verb]
    if kind is ARG_NONE:
        if len(action) != 1:
            raise RuleError("record", f"{verb!r} takes no argument")
        return (verb,)
    if len(action) != 2:
        raise RuleError("record", f"{verb!r} takes exactly one argument")
    arg = action[1]
    try:
        if kind == ARG_CARD:
            return (verb, arg if isinstance(arg, str) and arg in _CANONICAL else parse_card(arg))
        if kind == ARG_CARDS:
            if not isinstance(arg, (list, tuple)):
                raise RuleError("record", f"{verb!r} takes a list of cards, not {shown(arg)}")
            return (verb, tuple(sorted((parse_card(c) for c in arg), key=card_key)))
    except CardError as exc:
        raise RuleError("record", f"{verb}: {exc}") from None
    if kind == ARG_INT:
        if isinstance(arg, bool) or not isinstance(arg, int):
            raise RuleError("record", f"{verb!r} takes a whole number, not {shown(arg)}")
        big = too_large(arg, MAX_ARG_DIGITS)
        if big:  # before the game's own check, which may quote it (issue #9)
            raise RuleError("record", f"{verb!r} takes a whole number: {big}")
        return (verb, arg)
    if kind == ARG_SUIT:
        s = parse_suit(arg)
        if s is None:
            raise RuleError("record", f"{verb!r} takes a suit (S, H, D, C), not {shown(arg)}")
        return (verb, s)
    raise RuleError("record", f"{verb!r}: unsupported argument kind {kind!r}")


def parse_suit(arg: Any) -> str | None:
    if not isinstance(arg, str):
        return None
    s = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(arg.strip(), arg.strip().upper())
    return s if s in SUITS else None


def apply(state: State, seat: int, action: Any) -> tuple[State, list]:
    """Apply ``action`` by ``seat``; return the new state and the public events.

    Raises RuleError naming the rule broken (``"F20"``…, ``"record"`` for a malformed action
    or one after the deal has ended); ``state`` is left unchanged.
    """
    act = normalize_action(state.spec, state.players, seat, action)
    if state.phase != DEAL:
        raise RuleError("record", "no deal is in progress" if state.phase == BETWEEN else "the match has ended")
    new = state.clone()
    events = new.rules.apply_action(new, seat, act)
    if events is None:
        raise RuleError("record", f"{state.game} does not handle {act[0]!r}")
    rest, (d, deck, acts) = new.history
    new.history = (rest, (d, deck, (acts, (seat,) + act)))
    new.version += 1
    if new.deal_over:
        events.extend(_finish_deal(new))
    return new, events


def _finish_deal(state: State) -> list:
    report = state.rules.settle(state)
    state.reports = state.reports + (report,)
    state.totals = state.totals + ({"deal": state.deal_no, "after": list(state.balances), "pot": state.pot},)
    state.phase = OVER if state.phase == OVER or state.match.get("over") else BETWEEN
    state.to_act = ()
    return [{"type": "deal_end", "report": report}]


def deal_report(state: State) -> dict | None:
    """The report of the deal in progress (``outcome: "unfinished"``), or None between deals."""
    if state.phase != DEAL:
        return None
    return state.rules.deal_report(state)


def deal_stats(state: State) -> dict | None:
    """The game's own counts of the deal just settled (``frapnet_deal_stats``): ``{name: [per
    seat 0…n−1]}``, or None (a deal in progress, no deal yet, or the game keeps none)."""
    if state.phase == DEAL or not state.reports:
        return None
    return state.rules.deal_stats(state, state.reports[-1])


def match_report(state: State) -> dict:
    """Match-level figures: ``balances`` and ``pot`` (chips) or ``points``."""
    return state.rules.match_report(state)


def view(state: State, seat: int | None, lang: str = "en") -> dict:
    """What ``seat`` may know (``None``: a spectator, public information only).

    Generic keys: ``game``, ``title``, ``players``, ``seat``, ``version``, ``deal_no``,
    ``dealer``, ``balances``, ``pot``, ``ledger``, ``match_over``, ``options``,
    ``house_rules``, ``to_act``, ``actions`` (this seat's legal actions as
    ``{"action": [verb, arg?], "label": str}``), ``last_report``, ``sheet`` (the match's score
    sheet: per settled deal, oldest first, ``{"deal": n, "after": [balance or points per seat],
    "pot": chips}``: the latest deals only, :func:`frapnet.engine.sheet.sheet_window` — a view
    must not grow with the length of the match), ``sheet_base`` (per seat, the balance or points
    before the first row of ``sheet``; None when it starts at the match's first deal), ``ui``
    (what a client shows, :mod:`frapnet.engine.present`); plus the game's keys (see
    :func:`frapnet.hookspecs.frapnet_view`). ``last_report``, the rows of ``sheet`` and
    ``sheet_base`` are the state's own objects, shared by every view of the match (so that a
    fan-out encodes them once): read them, never change them.
    """
    kept = state.rules.kept
    v = {
        "game": state.game, "title": state.spec.title, "players": state.players, "seat": seat,
        "version": state.version, "deal_no": state.deal_no, "dealer": state.dealer,
        "balances": _kept_equal(kept, "balances", state.balances), "pot": state.pot, "ledger": state.spec.ledger,
        "match_over": state.phase == OVER, "options": _kept_copy(kept, "options", state.options, dict),
        "house_rules": _kept_copy(kept, "house_rules", state.house_rules, list),
        "to_act": _kept_equal(kept, "to_act", state.to_act),
        "last_report": state.reports[-1] if state.reports else None,
    }
    v["sheet"], v["sheet_base"] = _kept_copy(kept, "sheet", state.totals, sheet_window)  # rows: the state's own
    if state.deal is not None:
        v.update(state.rules.view(state, seat, lang) or {})
    v["actions"] = _view_actions(state, seat, v.get("hand", ()), lang)
    v["ui"] = present_ui(state, seat, lang)
    return v


def _kept_copy(kept: dict, key: str, source, make):
    """``make(source)``, the very same object as last time while ``source`` is the very same object
    (the match's options and house rules, the score sheet's rows until a deal ends: states share
    them and never change them), so that a fan-out reuses its bytes (issue #9). Views are read,
    never changed."""
    last = kept.get(key)
    if last is None or last[0] is not source:
        last = kept[key] = (source, make(source))
    return last[1]


def _kept_equal(kept: dict, key: str, source) -> list:
    """``list(source)`` (whole numbers: the balances, the seats to act), the very same list as
    last time while its numbers are the same (every action copies a state's lists)."""
    new = list(source)
    last = kept.get(key)
    if last is None or last != new:
        last = kept[key] = new
    return last


def _view_actions(state: State, seat: int | None, hand: Any, lang: str, legal: list | None = None,
                  shared: dict | None = None) -> list:
    """The view's ``actions``: ``seat``'s legal actions (``legal``, if the caller has them:
    ``legal_actions(state, seat)``) with their labels (none for a spectator); F9: actions naming
    cards only once the seat has looked (``hand``, the view's, is not None). ``shared``: per
    action, its entry already made for another seat of this state and language — given only
    when labels do not depend on the seat (:func:`labels_per_action`); entries are read, never
    changed."""
    acts = []
    if seat is not None and state.phase == DEAL:
        hidden = hand is None
        for a in state.rules.legal_actions(state, seat) if legal is None else legal:
            if hidden and len(a) > 1 and state.spec.verbs.get(a[0]) in (ARG_CARD, ARG_CARDS) and a[1]:
                continue
            entry = shared.get(a) if shared is not None else None
            if entry is None:
                entry = {"action": action_to_wire(a),
                         "label": state.rules.action_label(state, seat, a, lang) or " ".join(map(str, a))}
                if shared is not None:
                    shared[a] = entry
            acts.append(entry)
    return acts


def labels_per_action(rules) -> bool:
    """True if no plugin of the table (``rules``) implementing ``frapnet_action_label`` takes
    its ``seat`` argument (pluggy passes an implementation only the arguments it names): an
    action's label is then the same for every seat of one state, and a fan-out makes it once per
    change (issue #9; the bidding's "look" is every seat's). Cached on ``rules``."""
    ok = getattr(rules, "_labels_per_action", None)
    if ok is None:
        impls = rules.pm.hook.frapnet_action_label.get_hookimpls()
        ok = rules._labels_per_action = bool(impls) and all("seat" not in i.argnames for i in impls)
    return ok


def public_view(state: State, lang: str = "en") -> dict:
    """The public view of ``state`` (``view(state, None, lang)``: what a spectator sees), built
    once per change and shared by every seat's :func:`seat_view` (issue #9 "Fan-out once")."""
    return view(state, None, lang)


def seat_view(state: State, seat: int, public: dict, lang: str = "en") -> dict:
    """``view(state, seat, lang)`` — equal to it, keys in the same order — built from ``public``
    (:func:`public_view` of this same state and language) and :func:`seat_part`: every value but
    the seat's own *is* the public view's object (an encoder that meets it again reuses its
    bytes). ``public`` is not changed."""
    own = seat_part(state, seat, public, lang)
    if not own.keys() <= public.keys():  # a game whose seat view has keys the public one lacks
        return view(state, seat, lang)
    v = dict(public)
    v.update(own)
    return v


def seat_part(state: State, seat: int, public: dict, lang: str = "en", legal: list | None = None) -> dict:
    """Only ``seat``'s own keys of ``view(state, seat, lang)``, given ``public`` (:func:`public_view`
    of this state and language): ``seat``, ``actions``, the game's
    :func:`frapnet.hookspecs.frapnet_seat_view` (F9: its hand once looked) and, if the seat's
    screen differs from a spectator's, ``ui`` (:func:`frapnet.engine.present.seat_ui`, the game's
    :func:`frapnet.hookspecs.frapnet_seat_view_ui`) — so that a fan-out builds the public part
    once per change and only this per seat (issue #9 "Fan-out once").
    ``{**public, **seat_part(...)}`` equals ``view(state, seat, lang)``. A game (or house rule)
    without those hooks gives the seat's whole game view from ``frapnet_view`` / its whole ui map
    from ``frapnet_view_ui`` here. ``legal``: ``legal_actions(state, seat)`` if the caller has
    them already (the host computes every seat's after each change), else None."""
    return seat_parts(state, (seat,), public, lang, None if legal is None else {seat: legal})[0]


def seat_parts(state: State, seats: Iterable[int], public: dict, lang: str = "en",
               legal: list | None = None) -> list[dict]:
    """Each of ``seats``' own part of the view (:func:`seat_part`, which is this for one seat),
    with what is the same for every seat looked up once (the game's hooks, whether its views and
    screen split per seat): the host's fan-out builds every seat's own part of a change with one
    call (issue #9 "Fan-out once"). ``legal``: per seat 0…n−1, ``legal_actions(state, seat)``
    if the caller has them (the host notes every seat's after each change), else None."""
    rules, deal = state.rules, state.deal
    split = deal is not None and _splits_views(rules)  # else the game's whole view (a house rule never bypassed)
    shown = public.get("ui")
    ui_split = present_splits_ui(rules) if shown is not None else None
    hand0 = public.get("hand", ())
    seat_view, seat_view_ui = rules.seat_view, rules.seat_view_ui
    shared: dict | None = {} if labels_per_action(rules) else None  # one entry per action for every seat
    out = []
    append = out.append
    for s in seats:
        if deal is not None:
            part = seat_view(state, s, lang) if split else None
            own = {"seat": s, **(part if part is not None else (rules.view(state, s, lang) or {}))}
        else:
            own = {"seat": s}
        mine = legal[s] if legal is not None else None
        if mine is not None and not mine:  # no choice now (most seats, most of the time): nothing to label
            own["actions"] = []
        else:
            own["actions"] = _view_actions(state, s, own["hand"] if "hand" in own else hand0, lang, mine, shared)
        if shown is None:
            own["ui"] = present_ui(state, s, lang)
        elif ui_split is not None:  # None: no game paints the screen — every seat sees the public map
            part_ui = seat_view_ui(state, s, lang) if ui_split else None
            if part_ui or type(part_ui) is not dict:  # {}: nothing of the screen is this seat's own
                ui = present_seat_ui(state, s, shown, lang, part_ui)
                if ui is not shown:  # the seat's refusals, cursor, card marks…; else the public map stays
                    own["ui"] = ui
        append(own)
    return out


def _splits_views(rules) -> bool:
    """True if every plugin with a ``frapnet_view`` also has ``frapnet_seat_view`` (so a house
    rule that changes the view is never bypassed); cached on ``rules``."""
    ok = getattr(rules, "_splits_views", None)
    if ok is None:
        hook = rules.pm.hook
        viewers = {i.plugin for i in hook.frapnet_view.get_hookimpls()}
        splitters = {i.plugin for i in hook.frapnet_seat_view.get_hookimpls()}
        ok = bool(viewers) and viewers <= splitters
        rules._splits_views = ok
    return ok


def describe_event(state: State, event: dict, names: list[str], lang: str = "en") -> str:
    """``event`` in plain words for a log pane (the game's text, else a generic line)."""
    text = state.rules.describe_event(state, event, names, lang)
    if text:
        return text
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    rest = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "seat", "report"))
    return " ".join(x for x in (who, event.get("type", "").replace("_", " "), rest) if x)


def record(state: State, since: int = 0) -> dict:
    """The deal record of everything played so far (record-format.md); with ``since``, its
    ``deals`` from the deal of that 0-based index on only."""
    return {
        "format": "frapnet-record/1", "game": state.game, "players": state.players,
        "options": dict(state.options),
        "house_rules": list(state.house_rules),
        "deals": [{"dealer": d, "deck": list(deck), "actions": [_action_json(a) for a in acts]}
                  for d, deck, acts in state.deals(since)],
    }


def _action_json(a: tuple) -> list:
    """``(seat, verb, arg?)`` → the record's ``[seat, verb, arg?]``."""
    return [a[0]] + action_to_wire(a[1:])


def action_to_wire(a: tuple) -> list:
    """An action tuple as plain lists (for JSON, msgpack): ``("buy", ("7C",))`` → ``["buy", ["7C"]]``."""
    if len(a) == 1:
        return [a[0]]
    return [a[0], list(a[1]) if isinstance(a[1], tuple) else a[1]]
