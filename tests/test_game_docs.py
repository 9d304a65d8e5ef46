"""The games' documentation held to their code, so that a client written from the docs alone
finds what the host sends (an independent client team's report: docs only, no behaviour).

- docs/fairness.md "Every game's pack order": the card lists there are exactly each game's
  ``frapnet_pack`` (the order the fair-deal shuffle permutes, fairness.md step 4), for every
  installed game and every pack size.
- docs/rules/{napoleon,frak_you,la_krap}.md "On the wire: view keys and events": the view keys
  the game's ``frapnet_view`` adds, the keys of its ``seats`` entries, its event types with their
  fields and its deal report's keys are exactly the ones the tables there list, every value has
  the type the table gives, a key marked "public" is the same in every seat's view and a
  spectator's, and one marked "own" is the seat's own (a spectator gets nil, [] or false; some
  seat sees something else). Checked over seeded random deals played in-process (a second or so).
- docs/protocol.md, Frap's keys in prose ("Keys added by the game…", "Frap's deal report",
  "Frap's event types"): the same key sets for Frap (names only: the prose gives no types).
"""
from __future__ import annotations

import functools
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

import frapnet.plugins  # noqa: F401 - the installed games
from frapnet import engine
from frapnet.cards import ALL_CARDS, SUITS
from frapnet.engine.rules import installed_registry

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _section(text: str, heading: str) -> list[str]:
    """The lines under the markdown heading ``heading`` (exact line), up to the next heading of
    the same or a higher level."""
    lines = text.splitlines()
    assert heading in lines, f"no heading {heading!r}"
    i = lines.index(heading)
    level = len(heading) - len(heading.lstrip("#"))
    out = []
    for line in lines[i + 1:]:
        m = re.match(r"^(#+) ", line)
        if m and len(m.group(1)) <= level:
            break
        out.append(line)
    return out


# --- pack order (docs/fairness.md) ----------------------------------------------------------------

PACK_LABELS = {  # the doc's label -> tables that deal that pack: (game, players, options, house rules)
    "Frap, 32 cards": [("frap", 2, {}, ()), ("frap", 4, {}, ()), ("frap", 6, {"deck": 32}, ()),
                       ("frap", 4, {}, ("five_card_frap",))],
    "Frap, 36 cards": [("frap", 5, {}, ()), ("frap", 6, {}, ()), ("frap", 3, {"deck": 36}, ()),
                       ("frap", 6, {}, ("five_card_frap",))],
    "Frap, 52 cards": [("frap", 7, {}, ()), ("frap", 12, {}, ()), ("frap", 2, {"deck": 52}, ())],
    "Napoleon, 36 cards": [("napoleon", n, {}, ()) for n in range(2, 7)],
    "Frak You, 52 cards": [("frak_you", n, {}, ()) for n in range(3, 6)],
    "La Krap, 72 cards": [("la_krap", n, {}, ()) for n in range(3, 7)],
}


def _documented_packs() -> dict[str, list[str]]:
    """fairness.md's pack lists: ``{"Frap, 32 cards": [cards…], …}`` (a bold label line, then an
    indented block of cards)."""
    lines = _section((DOCS / "fairness.md").read_text(encoding="utf-8"), "### Every game's pack order")
    packs: dict[str, list[str]] = {}
    label = None
    for line in lines:
        m = re.match(r"^\*\*(.+?)\*\*", line)
        if m:
            label = m.group(1)
            packs[label] = []
        elif line.startswith("    ") and label is not None:
            packs[label].extend(line.split())
        elif line.strip() and label is not None and packs[label]:
            label = None  # the block has ended
    return packs


def test_fairness_doc_lists_every_games_pack_in_the_codes_order():
    """fairness.md step 4 / "Every game's pack order": each listed pack is the game's pack, card
    for card in order, at every player count and option that deals it; the card count in the
    label is right; and every installed game has its pack listed."""
    packs = _documented_packs()
    assert sorted(packs) == sorted(PACK_LABELS), f"labels in fairness.md: {sorted(packs)}"
    for label, cards in packs.items():
        assert all(c in ALL_CARDS for c in cards), f"{label}: not a card in {cards}"
        count = int(re.search(r"(\d+) cards", label).group(1))
        assert len(cards) == count, f"{label}: {len(cards)} cards listed"
        for game, players, options, house_rules in PACK_LABELS[label]:
            state = engine.new_match(game, players, options, house_rules)
            assert engine.pack(state) == cards, f"{label} vs {game} {players} players {options} {house_rules}"
    documented_games = {t[0] for tables in PACK_LABELS.values() for t in tables}
    assert set(installed_registry().games) <= documented_games, "a game whose pack fairness.md does not list"
    # the La Krap order as the code has it, spelled out (a reported misreading: "2 3 4 … 10 J Q K A")
    lk = packs["La Krap, 72 cards"]
    assert lk[:5] == ["2S", "7S", "7S", "8S", "8S"] and lk[51:54] == ["2C", "5C", "7C"]
    assert lk[-3:] == ["RJ", "BJ", "BJ"]


def test_fairness_doc_test_vectors_for_the_other_games_decks():
    """fairness.md "Test vectors": the vector's seed and four nonces shuffle Napoleon's, Frak
    You's and La Krap's packs into the decks listed there (fairness.shuffle, the host's and the
    clients' code) — so a client can check its pack order and shuffle for every game."""
    from frapnet import fairness

    lines = _section((DOCS / "fairness.md").read_text(encoding="utf-8"), "## Test vectors")
    decks: dict[str, list[str]] = {}
    label = None
    for line in lines:
        m = re.match(r"^    ([A-Z][A-Za-z ]+), (\d+) cards:$", line)
        if m:
            label = (m.group(1), int(m.group(2)))
            decks[label] = []
        elif label is not None and line.startswith("      "):
            decks[label].extend(line.replace("deck =", "").split())
        else:
            label = None
    games = {"Napoleon": "napoleon", "Frak You": "frak_you", "La Krap": "la_krap"}
    assert sorted(t for t, _ in decks) == sorted(games), f"decks listed: {sorted(decks)}"
    seed = bytes(range(32))
    nonces = [bytes([0xA0 + s]) * 32 for s in range(4)]
    for (title, count), deck in decks.items():
        pack = engine.pack(engine.new_match(games[title], 4))
        assert len(deck) == count == len(pack), title
        assert fairness.shuffle(pack, seed, nonces) == deck, title


# --- view keys and events (docs/rules/*.md) -------------------------------------------------------

def _table(lines: list[str]) -> list[list[str]]:
    """The rows (cells, stripped; ``\\|`` unescaped) of the first markdown table in ``lines``,
    without its header and separator rows."""
    rows = []
    started = False
    for line in lines:
        if line.startswith("|"):
            started = True
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            rows.append(cells)
        elif started:
            break
    assert len(rows) > 2, "no table"
    return rows[2:]


def _name(cell: str) -> str:
    m = re.fullmatch(r"`([a-z_0-9]+)`", cell)
    assert m, f"{cell!r} is not one `key`"
    return m.group(1)


def _split_alternatives(t: str) -> list[str]:
    """``"list of card|nil"`` → ``["list of card", "nil"]``; ``|`` inside parentheses or
    brackets stays."""
    out, depth, cur = [], 0, ""
    for ch in t:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "|" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def _is(value, t: str, n: int) -> bool:
    """``value`` has the documented type ``t`` (protocol.md's words plus card, suit, seat)."""
    return _checker(t)(value, n)


@functools.lru_cache(maxsize=None)
def _checker(t: str):
    """``t`` compiled once into a check ``f(value, n)`` (``n`` the number of seats)."""
    alts = _split_alternatives(t.strip())
    if len(alts) > 1:
        fs = [_checker(a) for a in alts]
        return lambda v, n: any(f(v, n) for f in fs)
    t = alts[0].strip()
    if t.startswith("(") and t.endswith(")"):
        return _checker(t[1:-1])
    simple = {
        "nil": lambda v, n: v is None,
        "bool": lambda v, n: isinstance(v, bool),
        "int": lambda v, n: isinstance(v, int) and not isinstance(v, bool),
        "str": lambda v, n: isinstance(v, str),
        "card": lambda v, n: isinstance(v, str) and v in _CARDS,
        "suit": lambda v, n: isinstance(v, str) and v in SUITS,
        "seat": lambda v, n: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n,
        "map": lambda v, n: isinstance(v, dict),
        "list of maps": lambda v, n: isinstance(v, list) and all(isinstance(x, dict) for x in v),
        "[seat, card]": lambda v, n: (isinstance(v, list) and len(v) == 2 and simple["seat"](v[0], n)
                                      and simple["card"](v[1], n)),
    }
    if t in simple:
        return simple[t]
    if t.startswith("list of "):
        f = _checker(t[len("list of "):])
        return lambda v, n: isinstance(v, list) and all(f(x, n) for x in v)
    raise AssertionError(f"unknown type {t!r} in the doc")


_CARDS = frozenset(ALL_CARDS)


def _documented(game: str) -> dict:
    """The rule book's "On the wire" tables: ``view`` {key: (type, public|own)}, ``seats`` {key:
    type}, ``events`` {type: {field: type}}, ``report`` {key: type}."""
    text = (DOCS / "rules" / f"{game}.md").read_text(encoding="utf-8")
    wire = "\n".join(_section(text, "## On the wire: view keys and events"))
    view = {}
    for key, typ, who, _meaning in _table(_section(wire, "### View keys")):
        assert who in ("public", "own"), f"{game} view key {key}: seen by {who!r}"
        view[_name(key)] = (typ, who)
    seats = {_name(k): typ for k, typ, _m in _table(_section(wire, "### `seats` entries"))}
    events = {}
    for kind, _when, fields in _table(_section(wire, "### Events")):
        out = {}
        for part in fields.split(" · "):
            m = re.match(r"^`([a-z_0-9]+)` ([^:]+?)(?::|$)", part.strip())
            assert m, f"{game} event {kind}: cannot read the field {part!r}"
            out[m.group(1)] = m.group(2)
        events[_name(kind)] = out
    report = {_name(k): typ for k, typ, _m in _table(_section(wire, "### The deal report"))}
    return {"view": view, "seats": seats, "events": events, "report": report}


# Seeded random tables per game: (players, options, deals). Enough deals that every documented key,
# event and field turns up (a thrown-in Napoleon deal, an early end, a Frak You match end…).
TABLES = {
    "napoleon": [(2, {}, 40), (4, {"stake": 5}, 30), (6, {}, 15)],
    "frak_you": [(3, {"passing": "rotate", "first_lead": "two_of_clubs", "loss_limit": 3}, 12),
                 (4, {"pile": "any_win", "loss_limit": 2}, 6), (5, {"passing": "rotate"}, 8)],
    "la_krap": [(3, {"target": 60}, 8), (4, {"target": 80}, 8), (6, {}, 6)],
}


def _observe(game: str, doc: dict) -> dict:
    """Play the game's TABLES at random (each seat's verb, then its argument, uniformly) and
    collect what its views, events and reports hold, checking every value's type and who may see
    it against ``doc`` as it goes."""
    seen = {"view": set(), "seats": set(), "events": defaultdict(set), "report": set()}
    own_differs = set()  # own keys some seat saw with another value than a spectator
    for t, (players, options, deals) in enumerate(TABLES[game]):
        rng = random.Random(f"{game}-{t}")
        state = engine.new_match(game, players, options)
        pack = engine.pack(state)
        for _ in range(deals):
            if state.phase == engine.OVER:
                state = engine.new_match(game, players, options)
            deck = pack[:]
            rng.shuffle(deck)
            state, events = engine.start_deal(state, deck, rng.randrange(players) if state.dealer is None else None)
            while True:
                for ev in events:
                    kind = ev["type"]
                    assert kind in doc["events"], f"{game}: event {kind!r} is not documented"
                    fields = doc["events"][kind]
                    for k, v in ev.items():
                        if k == "type":
                            continue
                        seen["events"][kind].add(k)
                        assert k in fields, f"{game}: event {kind!r} has field {k!r}, not documented"
                        assert _is(v, fields[k], players), f"{game}: event {kind}.{k} = {v!r} is not {fields[k]}"
                    if kind == "deal_end":
                        for k, v in ev["report"].items():
                            seen["report"].add(k)
                            assert k in doc["report"], f"{game}: deal report key {k!r} is not documented"
                            assert _is(v, doc["report"][k], players), f"{game}: report {k} = {v!r} is not {doc['report'][k]}"
                        assert engine.view(state, None)["last_report"] == ev["report"]
                _check_views(game, state, doc, seen, own_differs)
                if state.phase != engine.DEAL:
                    break
                seat = state.to_act[rng.randrange(len(state.to_act))]
                acts = engine.legal_actions(state, seat)
                verb = rng.choice(sorted({a[0] for a in acts}))
                state, events = engine.apply(state, seat, rng.choice([a for a in acts if a[0] == verb]))
    seen["own_differs"] = own_differs
    return seen


def _check_views(game, state, doc, seen, own_differs):
    n = state.players
    spectator = state.rules.view(state, None, "en")
    views = [state.rules.view(state, s, "en") for s in range(n)]
    for i, v in enumerate([spectator] + views):
        assert set(v) <= set(doc["view"]), f"{game}: view keys not documented: {set(v) - set(doc['view'])}"
        seen["view"].update(v)
        for k, val in v.items():
            typ, who = doc["view"][k]
            if i == 0 or who == "own":  # a public value is the spectator's (checked below)
                assert _is(val, typ, n), f"{game}: view {k} = {val!r} is not {typ}"
    for entry in spectator["seats"]:  # public: the same in every view
        for k, val in entry.items():
            seen["seats"].add(k)
            assert k in doc["seats"], f"{game}: seats entry key {k!r} is not documented"
            assert _is(val, doc["seats"][k], n), f"{game}: seats[].{k} = {val!r} is not {doc['seats'][k]}"
    for k, (_typ, who) in doc["view"].items():
        if k not in spectator:
            continue
        if who == "public":
            assert all(v[k] == spectator[k] for v in views), f"{game}: {k!r} is documented public but differs by seat"
        else:
            assert spectator[k] in (None, [], False), f"{game}: own key {k!r} shows {spectator[k]!r} to a spectator"
            if any(v[k] != spectator[k] for v in views):
                own_differs.add(k)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_rule_book_lists_exactly_the_games_view_keys_events_and_report(game):
    """docs/rules/GAME.md "On the wire": every view key ``frapnet_view`` adds, every ``seats``
    entry key, every event type and field and every deal-report key is listed, with its type and
    (view keys) who sees it — and nothing is listed that the game never sends."""
    doc = _documented(game)
    seen = _observe(game, doc)
    assert seen["view"] == set(doc["view"]), f"{game}: documented view keys never seen: {set(doc['view']) - seen['view']}"
    assert seen["seats"] == set(doc["seats"]), f"{game}: documented seats keys never seen: {set(doc['seats']) - seen['seats']}"
    assert set(seen["events"]) == set(doc["events"]), \
        f"{game}: documented events never seen: {set(doc['events']) - set(seen['events'])}"
    for kind, fields in doc["events"].items():
        assert seen["events"][kind] == set(fields), \
            f"{game}: event {kind}: documented fields never seen: {set(fields) - seen['events'][kind]}"
    assert seen["report"] == set(doc["report"]), f"{game}: documented report keys never seen: {set(doc['report']) - seen['report']}"
    own = {k for k, (_t, who) in doc["view"].items() if who == "own"}
    assert seen["own_differs"] == own, f"{game}: keys documented own that no seat sees differently: {own - seen['own_differs']}"


# --- Frap's keys and events (docs/protocol.md, in prose) ------------------------------------------

def _prose(text: str) -> list[tuple[str, str | None]]:
    """The backticked names outside parentheses in ``text``, each with the text of the
    parentheses right after it (or None): ``"`a` (`x`, `y`), `b`"`` → ``[("a", "`x`, `y`"),
    ("b", None)]``."""
    out = []
    i, depth = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "`":
            j = text.index("`", i + 1)
            if depth == 0 and re.fullmatch(r"[a-z_]+", text[i + 1:j]):
                inner = None
                k = j + 1
                while k < len(text) and text[k] in " \n":
                    k += 1
                if k < len(text) and text[k] == "(":
                    d, m = 0, k
                    while True:
                        d += {"(": 1, ")": -1}.get(text[m], 0)
                        if d == 0:
                            break
                        m += 1
                    inner = text[k + 1:m]
                out.append((text[i + 1:j], inner))
            i = j
        i += 1
    return out


def _leading_names(inner: str) -> set[str]:
    """The field names an event's parentheses list: each ``,``/``;``-separated item that starts
    with a backticked name (``"`seat`, `turn_up` the card taken with `cut_in_trump`, F17"`` →
    {seat, turn_up})."""
    names = set()
    for item in re.split(r"[,;]\s*", inner):
        m = re.match(r"`([a-z_]+)`", item.strip())
        if m:
            names.add(m.group(1))
    return names


def _frap_documented() -> dict:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    view_par = text[text.index("Keys added by the game while a deal is on"):]
    view_par = view_par[:view_par.index("\n\n")]
    keys_part, report_part = view_par.split("Frap's deal report (`last_report`, `deal_end`) has", 1)
    keys = _prose(keys_part)
    seats_inner = dict(keys)["seats"]
    ev_par = text[text.index("Frap's event types:"):]
    ev_par = ev_par[:ev_par.index("A client may show `text`")]
    return {"view": {k for k, _ in keys}, "seats": set(re.findall(r"`([a-z_]+)`", seats_inner)),
            "events": {k: _leading_names(inner) if inner else set() for k, inner in _prose(ev_par)},
            "report": {k for k, _ in _prose(report_part)}}


def test_protocol_md_lists_exactly_fraps_view_keys_events_and_report():
    """protocol.md ("Keys added by the game…", "Frap's event types", "Frap's deal report"): every
    key Frap's ``frapnet_view`` adds, every ``seats`` key, every event type with its fields and
    every deal-report key is named there, and nothing it names is never sent (seeded random
    deals; a revoke=penalize table for `revoke`)."""
    doc = _frap_documented()
    seen = {"view": set(), "seats": set(), "events": defaultdict(set), "report": set()}
    # (players, options, deals, how often a seat passes when it may: all passing three rounds
    # throws a deal in, F13)
    tables = [(3, {}, 50, 0), (4, {"revoke": "penalize"}, 50, 0), (6, {}, 20, 0), (3, {}, 10, 0.9)]
    for t, (players, options, deals, passes) in enumerate(tables):
        rng = random.Random(f"frap-{t}")
        state = engine.new_match("frap", players, options)
        pack = engine.pack(state)
        for _ in range(deals):
            deck = pack[:]
            rng.shuffle(deck)
            state, events = engine.start_deal(state, deck, 0 if state.dealer is None else None)
            while True:
                for ev in events:
                    seen["events"][ev["type"]].update(set(ev) - {"type"})
                    if ev["type"] == "deal_end":
                        seen["report"].update(ev["report"])
                for seat in [None, *range(players)]:
                    v = state.rules.view(state, seat, "en")
                    seen["view"].update(v)
                    for entry in v["seats"]:
                        seen["seats"].update(entry)
                if state.phase != engine.DEAL:
                    break
                seat = state.to_act[0]
                acts = engine.legal_actions(state, seat)
                verb = "pass" if ("pass",) in acts and rng.random() < passes else rng.choice(sorted({a[0] for a in acts}))
                state, events = engine.apply(state, seat, rng.choice([a for a in acts if a[0] == verb]))
    assert seen["view"] == doc["view"], f"seen only: {seen['view'] - doc['view']}; documented only: {doc['view'] - seen['view']}"
    assert seen["seats"] == doc["seats"], f"seen only: {seen['seats'] - doc['seats']}; documented only: {doc['seats'] - seen['seats']}"
    assert set(seen["events"]) == set(doc["events"]), \
        f"seen only: {set(seen['events']) - set(doc['events'])}; documented only: {set(doc['events']) - set(seen['events'])}"
    for kind, fields in doc["events"].items():
        assert seen["events"][kind] == fields, f"event {kind}: seen {sorted(seen['events'][kind])}, documented {sorted(fields)}"
    assert seen["report"] == doc["report"], f"seen only: {seen['report'] - doc['report']}; documented only: {doc['report'] - seen['report']}"
