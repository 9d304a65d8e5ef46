"""Deal records (../shared/spec/record-format.md): read, check, replay, write.

A record is a JSON object: ``format`` (``"frapnet-record/1"``), ``game``, ``players``,
``options``, ``house_rules`` and ``deals`` (each ``dealer``, ``deck``, ``actions``). Replaying
folds the actions through the same engine the host uses.
"""
from __future__ import annotations

import json
from typing import Any

from frapnet import engine
import frapnet.plugins  # noqa: F401 - the installed plugins become the engine's default registry
from frapnet.errors import PluginError, RuleError, counted, describe, shown

FORMAT = "frapnet-record/1"
MAX_RECORD_BYTES = 64 * 1024 * 1024
MAX_INT_DIGITS = 10_000
"""Longest integer literal a record may hold (F6 amounts have no upper limit, but parsing a
decimal integer costs time quadratic in its length: a million digits takes seconds)."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def where(deal: int | None, action: int | None = None) -> str:
    """``"deal 3, action 8"`` for the 0-based indices ``deal`` 2 and ``action`` 7: people count deals
    and actions from 1 (issue #9), as `frapnet replay`'s summary and `frapnet verify` do; only the
    ``--json`` objects keep the 0-based indices (record-format.md). ``""`` if ``deal`` is None."""
    if deal is None:
        return ""
    return f"deal {deal + 1}" + ("" if action is None else f", action {action + 1}")


class ReplayError(Exception):
    """A record rejected at ``deal``/``action`` (0-based indices, or None) for ``rule``; its text
    counts them from 1 (:func:`where`) and keeps the rule's ID (:func:`frapnet.errors.describe`)."""

    def __init__(self, rule: str, message: str, deal: int | None = None, action: int | None = None) -> None:
        self.rule, self.message, self.deal, self.action = rule, message, deal, action
        at = where(deal, action)
        super().__init__(describe(rule, message) + (f" ({at})" if at else ""))

    def to_dict(self) -> dict:
        return {"deal": self.deal, "action": self.action, "rule": self.rule, "message": self.message}


def loads(text: str | bytes) -> dict:
    """Parse a record's JSON text; raises ReplayError("record") if it is not a JSON object."""
    if len(text) > MAX_RECORD_BYTES:
        raise ReplayError("record", f"the record is larger than {MAX_RECORD_BYTES} bytes")
    try:
        obj = json.loads(text, parse_int=_parse_int)
    except UnicodeDecodeError:  # a binary file: its bytes are no text
        raise ReplayError("record", "not a JSON text file (it is not UTF-8 text)") from None
    except ValueError as exc:
        raise ReplayError("record", f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ReplayError("record", "not valid JSON: nested too deeply") from None
    if not isinstance(obj, dict):
        raise ReplayError("record", f"a record is a JSON object, not {json_kind(obj)}")
    return obj


def json_kind(value) -> str:
    """What a JSON value is, in words for a message: ``null``, ``true``, ``a list``, ``a number``,
    ``text``, ``an object`` (never a Python type name)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "text", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def stored_json(text, match_id: int, what: str):
    """The JSON value of one column of the host's journal (``what`` of match ``match_id``, for the
    message); raises ReplayError ``record`` if it is not JSON text (issue #9: a damaged row was a
    traceback in `frapnet export`, `frapnet stats` and the host's resume)."""
    try:
        if not isinstance(text, str):
            raise ValueError(f"a {type(text).__name__}, not text")
        return json.loads(text, parse_int=_parse_int)
    except RecursionError:
        why = "nested too deeply"
    except ValueError as exc:
        why = str(exc)[:120]
    raise ReplayError("record", f"match {match_id}: {what} in the journal is not valid JSON ({why})")


def stored_map(text) -> dict | None:
    """A stored JSON object (a match's result), or None if there is none or it is damaged."""
    try:
        value = json.loads(text, parse_int=_parse_int) if isinstance(text, str) and text else None
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _path_text(path) -> str:
    """A file name for a message: as it is, or quoted escaped if it holds a control or format
    character (a terminal escape, a bidi override) — it is printed on the user's terminal."""
    path = str(path)
    return path if path.isprintable() else shown(path)


def load(path: str) -> dict:
    """Read a record file; raises ReplayError("record") if it cannot be read or parsed."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise ReplayError("record", f"no such file: {_path_text(path)}") from None
    except OSError as exc:
        raise ReplayError("record", f"cannot read {_path_text(path)}: {exc.strerror}") from None
    return loads(data)


def open_table(rec: dict, registry=None) -> engine.State:
    """Check the record's head (format, game, players, options, house rules); return the table.

    Raises ReplayError naming F1/F2/F5… or "record" (deal and action None).
    """
    if not isinstance(rec, dict):
        raise ReplayError("record", "a record is a JSON object")
    if rec.get("format") != FORMAT:
        raise ReplayError("record", f"format must be {FORMAT!r}, not {shown(rec['format'])}" if "format" in rec
                          else f"the record has no format (it must be {FORMAT!r})")
    game = rec.get("game")
    if not isinstance(game, str):
        raise ReplayError("record", f"game must be a string, not {game!r}")
    house_rules = rec.get("house_rules", [])
    if house_rules is None:
        house_rules = []
    if not isinstance(house_rules, list) or not all(isinstance(h, str) for h in house_rules):
        raise ReplayError("record", "house_rules must be a list of names")
    if not isinstance(rec.get("deals", []), list):
        raise ReplayError("record", "deals must be a list")
    options = rec.get("options")
    if options is None:  # absent (or null): every option takes its default
        options = {}
    try:  # players first (F1), then the options (record-format.md's order)
        state = engine.new_match(game, rec.get("players"), options if isinstance(options, dict) else {},
                                 house_rules, registry)
    except PluginError as exc:
        raise ReplayError("record", str(exc)) from None
    except RuleError as exc:
        raise ReplayError(exc.rule, exc.message) from None
    if not isinstance(options, dict):  # [], false, 0 are no table options either (never the defaults)
        raise ReplayError("record", f"options must be a map of option names to values, not {json_kind(options)}")
    return state


def replay(rec: dict, registry=None, before_deal=None) -> tuple[engine.State, dict]:
    """Replay a whole record; return the final state and the ``--json`` result object.
    ``before_deal(index, deal, state)``, if given, is called before each deal (0-based) starts,
    with the state after the deals before it.

    Raises ReplayError at the first problem, in the order record-format.md gives.
    """
    return _replay(rec, registry, before_deal)


def _replay(rec: dict, registry, before_deal) -> tuple[engine.State, dict]:
    """:func:`replay`, calling ``before_deal(index, deal, state)`` before each deal starts."""
    state = open_table(rec, registry)
    for di, deal in enumerate(rec.get("deals", [])):
        if not isinstance(deal, dict):
            raise ReplayError("record", "a deal is an object with dealer, deck and actions", di)
        deck, actions = deal.get("deck"), deal.get("actions", [])
        if not isinstance(deck, list):
            raise ReplayError("record", "deck must be a list of cards", di)
        if not isinstance(actions, list):
            raise ReplayError("record", "actions must be a list", di)
        if before_deal is not None:
            before_deal(di, deal, state)
        dealer = deal.get("dealer")
        if dealer is None:
            raise ReplayError("record", "a deal needs its dealer", di)
        try:
            state, _ = engine.start_deal(state, deck, dealer)
        except RuleError as exc:
            raise ReplayError(exc.rule, exc.message, di) from None
        for ai, act in enumerate(actions):
            if not isinstance(act, list) or len(act) < 2 or len(act) > 3:
                raise ReplayError("record", f"an action is [seat, verb, argument?], not {act!r}", di, ai)
            if state.phase != engine.DEAL:
                raise ReplayError("record", "an action after the deal has ended", di, ai)
            try:
                state, _ = engine.apply(state, act[0], act[1:])
            except RuleError as exc:
                raise ReplayError(exc.rule, exc.message, di, ai) from None
    return state, result(state)


def result(state: engine.State) -> dict:
    """The ``frapnet replay --json`` object for ``state`` (every deal so far)."""
    out = {"ok": True, "game": state.game}
    out.update(engine.match_report(state))
    deals = list(state.reports)
    if state.phase == engine.DEAL:
        deals.append(engine.deal_report(state))
    out["deals"] = deals
    return out


def replay_json(rec: Any, registry=None) -> dict:
    """Replay and return the result object, or ``{"ok": false, "error": {...}}``."""
    try:
        if isinstance(rec, (str, bytes)):
            rec = loads(rec)
        return replay(rec, registry)[1]
    except ReplayError as exc:
        return {"ok": False, "error": exc.to_dict()}


def dumps(rec: dict) -> str:
    """A record as JSON text (integers stay exact, F6)."""
    return json.dumps(rec, ensure_ascii=False, indent=1)


class RecordText:
    """The text of a match's record as it grows (:func:`dumps` of it, exactly), each settled
    deal turned into text once: a host exporting the record at every deal end (``--record``)
    spends on the deals since the last export, not on the whole match again — at deal 1,000 of
    a four-seat match, 4 ms instead of 120 ms (issue #9, docs/performance.md)."""

    def __init__(self) -> None:
        self._done: list[tuple[Any, str]] = []  # per settled deal, oldest first: (its proof, its text)

    def text(self, state: engine.State, proofs: list) -> str:
        """:func:`dumps` of :func:`frapnet.engine.record` of ``state``, each deal with its shuffle
        proof from ``proofs`` (per 0-based deal index, the proof or None) as ``shuffle``."""
        done = self._done
        keep = 0  # the deals kept: each still settled with the very same proof
        while keep < len(done) and done[keep][0] is (proofs[keep] if keep < len(proofs) else None):
            keep += 1
        rec = engine.record(state, since=keep)
        settled = keep + len(rec["deals"]) - (1 if state.phase == engine.DEAL else 0)
        if settled < keep:  # not the match these texts were made for: all afresh
            done.clear()
            return self.text(state, proofs)
        del done[keep:]
        texts = [t for _, t in done]
        for i, deal in enumerate(rec["deals"], start=keep):
            proof = proofs[i] if i < len(proofs) else None
            if proof is not None:
                deal["shuffle"] = proof
            text = "  " + json.dumps(deal, ensure_ascii=False, indent=1).replace("\n", "\n  ")
            if i < settled:
                done.append((proof, text))
            texts.append(text)
        rec["deals"] = []
        head = dumps(rec)  # ends '"deals": []\n}' (deals is the record's last key)
        return head if not texts else head[:-len("[]\n}")] + "[\n" + ",\n".join(texts) + "\n ]\n}"


FILE_ERRORS = ("no such file: ", "cannot read ")  # how load() begins a message about the file itself


def summary(res: dict) -> str:
    """The human summary `frapnet replay` prints: each deal's outcome and figures, then totals."""
    if not res.get("ok"):
        e = res["error"]
        at = where(e.get("deal"), e.get("action"))  # counted from 1, as the deals below (issue #9)
        at = f" in {at}" if at else ""
        if e["rule"] != "record":
            return f"illegal record{at}: rule {e['rule']}: {e['message']}"
        if e.get("deal") is None and e["message"].startswith(FILE_ERRORS):
            return e["message"]  # the file is missing or unreadable: nothing was replayed
        return f"bad record{at}: {e['message']}"  # malformed, which names no rule
    lines = [f"{res['game']}: {counted(len(res['deals']), 'deal')}"]
    skip = {"dealer", "outcome"}
    for i, d in enumerate(res["deals"]):
        parts = [f"deal {i + 1}: dealer seat {d.get('dealer')}, {d.get('outcome')}"]
        for k, v in d.items():
            if k in skip or v is None or v == [] or v is False:
                continue
            if v is True:  # a flag (a blind frap): its name alone
                parts.append(k.replace("_", " "))
                continue
            if isinstance(v, list):
                v = " ".join(json.dumps(x) for x in v)
            parts.append(f"{'balances after' if k == 'balances' else k.replace('_', ' ')} {v}")
        lines.append("; ".join(parts))
    for k, v in res.items():
        if k in ("ok", "game", "deals"):
            continue
        if isinstance(v, list):
            v = ", ".join(f"seat {i}: {x}" for i, x in enumerate(v))
        lines.append(f"{k}: {v}")
    return "\n".join(lines)


# --- `frapnet verify` (docs/fairness.md) ---------------------------------------------------------

class VerifyError(Exception):
    """Deal ``deal`` (0-based index) of a record does not verify: ``message`` says what."""

    def __init__(self, deal: int | None, message: str) -> None:
        self.deal, self.message = deal, message
        super().__init__(message if deal is None else f"deal {deal + 1}: {message}")

    def to_dict(self) -> dict:
        return {"deal": self.deal, "message": self.message}


def _proof_problem(deal: dict, state: engine.State) -> tuple[list | None, str | None]:
    """``(deck, None)`` if ``deal``'s ``shuffle`` proof verifies (:func:`frapnet.fairness.check_proof`)
    and gives its recorded ``deck`` for the pack of ``state`` (the state before the deal), else
    ``(None, the first problem in words)``."""
    from frapnet import fairness
    from frapnet.cards import CardError, parse_card

    deck, problem = fairness.check_proof(deal.get("shuffle"), engine.pack(state), state.players)
    if problem:
        return None, problem
    for pos, (got, want) in enumerate(zip(deal["deck"], deck)):
        try:
            card = parse_card(got)
        except CardError:
            card = shown(got)  # a record's text, quoted and escaped (ESC, bidi controls) for a terminal
        if card != want:
            return None, (f"the recorded deck is not the one the seed and nonces give: card {pos + 1} "
                          f"(from the top) is {card}, the shuffle gives {want}")
    if len(deal["deck"]) != len(deck):
        return None, f"the recorded deck has {len(deal['deck'])} cards; the shuffle gives {len(deck)}"
    return deck, None


def check_shuffle(index: int, deal: dict, state: engine.State) -> None:
    """``before_deal`` for :func:`replay` when a host resumes a record (docs/fairness.md): a deal
    that has a ``shuffle`` proof must verify as `frapnet verify` checks it — a host that resumed a
    damaged proof would reveal it, and every client would report the deal as not the one the
    host committed to. A deal without one (a record from before fair deals) passes. Raises
    ReplayError (rule ``record``) naming the deal and the problem."""
    if deal.get("shuffle") is None:
        return
    _, problem = _proof_problem(deal, state)
    if problem:
        raise ReplayError("record", f"its shuffle proof does not verify (frapnet verify): {problem}", index)


def verify(rec: dict, registry=None) -> list[dict]:
    """Check every deal's shuffle proof (docs/fairness.md) and that the record replays.

    For each deal, before it starts: the ``shuffle`` object's commitment is SHA-256(seed ‖
    salt), every nonce matches the hash its seat committed, and the recorded ``deck`` is the
    one :func:`frapnet.fairness.shuffle` gives for the table's pack, seed and nonces. Returns
    one dict per deal (``deal`` index, ``commitment``, ``nonces`` — the seats whose nonces
    count — ``left_out``, ``cards``). Raises VerifyError naming the first deal (0-based) that
    does not verify, or whose actions do not replay (then the rule and action are named).
    """
    out: list[dict] = []

    def check(di: int, deal: dict, state: engine.State) -> None:
        deck, problem = _proof_problem(deal, state)
        if problem:
            raise VerifyError(di, problem)
        nonces = deal["shuffle"]["nonces"]
        out.append({"deal": di, "commitment": deal["shuffle"]["commitment"].lower(), "cards": len(deck),
                    "nonces": [s for s, x in enumerate(nonces) if x is not None],
                    "left_out": [s for s, x in enumerate(nonces) if x is None]})

    try:
        _replay(rec, registry, check)
    except ReplayError as exc:
        at = "" if exc.action is None else f", action {exc.action + 1}"
        raise VerifyError(exc.deal, f"the record does not replay{at}: {describe(exc.rule, exc.message)}") from None
    return out


def verify_summary(checked: list[dict]) -> str:
    """The lines `frapnet verify` prints for a record that verifies: one per deal, then a total."""
    lines = []
    for d in checked:
        seats = " ".join(str(s) for s in d["nonces"]) or "none"
        left = f"; left out: seat {' '.join(str(s) for s in d['left_out'])}" if d["left_out"] else ""
        lines.append(f"deal {d['deal'] + 1}: ✓ commitment {d['commitment'][:16]}… opened; the {d['cards']} cards are "
                     f"the shuffle of the seed and the nonces of seats {seats}{left}")
    lines.append(f"{counted(len(checked), 'deal')} verified")
    return "\n".join(lines)


def resume_summary(st: engine.State) -> str:
    """Where a resumed match (an engine State replayed from a record or journal) stands, in
    words: ``"in deal 3 after 7 actions (2 finished deals)"`` mid-deal, ``"after 2 finished
    deals"`` between deals, ``"before the first deal"``."""
    def n(k, word):
        return f"{k} {word}" + ("" if k == 1 else "s")
    if st.deal_no == 0:
        return "before the first deal"
    if st.phase == engine.DEAL:
        acts = len(list(st.deals())[-1][2])
        done = f" ({n(st.deal_no - 1, 'finished deal')})" if st.deal_no > 1 else ""
        return f"in deal {st.deal_no} after {n(acts, 'action')}{done}"
    return f"after {n(st.deal_no, 'finished deal')}"
