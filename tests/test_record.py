"""Deal records and `frapnet replay` (../shared/spec/record-format.md).

Malformed records name "record"; options and players name their rules (F1, F2, F5, F22); the
first error in the documented order is the one reported, with 0-based deal and action indices.
The command is run as a real process: exit 0 with the summary or JSON, exit 2 on an error.
"""
from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from frapnet import engine, record
from frapnet.testing import shared_dir

CASES = shared_dir() / "cases"
_WORKED_FILE = CASES / "frap-s0-worked-example.json"
# The S0 worked example; {} without ../shared, where the tests marked `shared` (all that read it) skip.
WORKED = json.loads(_WORKED_FILE.read_text())["record"] if _WORKED_FILE.is_file() else {}


def err(rec):
    """The error object of replaying ``rec`` (a dict, or JSON text)."""
    res = record.replay_json(rec)
    assert res["ok"] is False, res
    return res["error"]


def worked(**changes):
    rec = copy.deepcopy(WORKED)
    rec.update(changes)
    return rec


@pytest.mark.shared
def test_worked_example_result():
    res = record.replay_json(WORKED)
    assert res == {
        "ok": True, "game": "frap", "balances": [-500, -800, 100, 0], "pot": 1200,
        "deals": [{**res["deals"][0], "dealer": 0, "outcome": "played", "trump": "C", "tricks": [0, 1, 2, 1],
                   "remises": [400, 800, 0, 0], "pot_after": 1200}],
    }


@pytest.mark.parametrize("text", ["{", "[1, 2]", "null", '"frap"', "", b"\xff\xfe"])
def test_bad_json_is_record_error(text):
    e = err(text)
    assert e == {**e, "rule": "record", "deal": None, "action": None}


@pytest.mark.shared
@pytest.mark.parametrize("changes,rule", [
    ({"format": "frapnet-record/2"}, "record"),
    ({"game": "poker"}, "record"),
    ({"game": 7}, "record"),
    ({"house_rules": ["no_such_rule"]}, "record"),
    ({"house_rules": "five_card_frap"}, "record"),
    ({"deals": {}}, "record"),
    ({"players": 13}, "F1"),
    ({"players": 1}, "F1"),
    ({"players": "4"}, "F1"),
    ({"options": {"deck": 33}}, "F2"),
    ({"options": {"deck": "32"}}, None),
    ({"options": {"ante": 30}}, "F5"),
    ({"options": {"ante": "100"}}, "F5"),
    ({"options": {"revoke": "forgive"}}, "F22"),
    ({"options": {"cut_in": "yes"}}, "record"),
    ({"options": {"graded_remise": 1}}, "record"),
    ({"options": {"colour": "red"}}, "record"),
    ({"players": 13, "options": {"ante": 30}}, "F1"),  # players checked first
    ({"options": None}, None),  # null: as absent, every option its default
    ({"options": []}, "record"),  # a falsy non-map replayed silently with the defaults (issue #9 attack)
    ({"options": False}, "record"),
    ({"options": 0}, "record"),
    ({"options": "ante=200"}, "record"),
    ({"players": 13, "options": []}, "F1"),
])
def test_head_errors(changes, rule):
    rec = worked(**changes)
    if rule is None:
        assert record.replay_json(rec)["ok"] is True
        return
    e = err(rec)
    assert (e["rule"], e["deal"], e["action"]) == (rule, None, None)
    assert e["message"]


@pytest.mark.shared
def test_deck_errors_name_the_deal():
    rec = worked()
    rec["deals"][0]["deck"][3] = "ZZ"  # unknown card
    e = err(rec)
    assert (e["rule"], e["deal"], e["action"]) == ("record", 0, None) and "ZZ" in e["message"]
    rec = worked()
    rec["deals"][0]["deck"][3] = rec["deals"][0]["deck"][4]  # a duplicate: not a permutation
    assert (err(rec)["rule"], err(rec)["deal"]) == ("record", 0)
    rec = worked()
    rec["deals"][0]["deck"] = rec["deals"][0]["deck"][:-1]  # a card short
    assert (err(rec)["rule"], err(rec)["deal"]) == ("record", 0)
    rec = worked()
    rec["deals"][0]["deck"] = "AS KS"
    assert (err(rec)["rule"], err(rec)["deal"]) == ("record", 0)


@pytest.mark.shared
def test_deck_accepts_other_spellings():
    rec = worked()
    alt = {"10": "T", "J": "В", "Q": "Д", "K": "К", "A": "Т"}
    rec["deals"][0]["deck"] = [alt.get(c[:-1], c[:-1]) + c[-1].lower() for c in rec["deals"][0]["deck"]]
    assert record.replay_json(rec) == record.replay_json(WORKED)


@pytest.mark.shared
@pytest.mark.parametrize("action,rule", [
    ([1, "fold"], "record"),  # unknown verb
    ([1, "frap", "now"], "record"),  # argument where none is taken
    ([1, "play"], "record"),  # missing argument
    ([7, "frap"], "record"),  # seat out of range
    (["1", "frap"], "record"),
    ([1], "record"),
    ("frap", "record"),
    ([2, "frap"], "F10"),  # not seat 2's turn
    ([1, "whist"], "F10"),  # whist before any frap
])
def test_action_errors_name_deal_and_action(action, rule):
    rec = worked()
    rec["deals"][0]["actions"][0] = action
    e = err(rec)
    assert (e["rule"], e["deal"], e["action"]) == (rule, 0, 0)


@pytest.mark.shared
def test_bad_card_in_action_is_record_and_card_not_held_is_the_phase_rule():
    rec = worked()
    acts = rec["deals"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a[1] == "play")
    acts[i] = [acts[i][0], "play", "1X"]
    assert (err(rec)["rule"], err(rec)["action"]) == ("record", i)
    rec = worked()
    acts = rec["deals"][0]["actions"]
    held = set(rec["deals"][0]["deck"][:16])
    stranger = next(c for c in rec["deals"][0]["deck"] if c not in held)
    acts[i] = [acts[i][0], "play", stranger]
    assert (err(rec)["rule"], err(rec)["action"]) == ("F20", i)
    rec = worked()
    acts = rec["deals"][0]["actions"]
    j = next(k for k, a in enumerate(acts) if a[1] == "buy")
    acts[j] = [acts[j][0], "buy", "7C"]  # not a list
    assert (err(rec)["rule"], err(rec)["action"]) == ("record", j)
    acts[j] = [acts[j][0], "buy", [stranger]]
    assert (err(rec)["rule"], err(rec)["action"]) == ("F15", j)


@pytest.mark.shared
def test_action_after_deal_end_is_record():
    rec = worked()
    n = len(rec["deals"][0]["actions"])
    rec["deals"][0]["actions"].append([1, "look"])
    assert (err(rec)["rule"], err(rec)["deal"], err(rec)["action"]) == ("record", 0, n)


@pytest.mark.shared
def test_F7_wrong_dealer_in_later_deal():
    rec = worked()
    nxt = copy.deepcopy(rec["deals"][0])
    nxt["dealer"] = 2
    nxt["actions"] = []
    rec["deals"].append(nxt)
    assert (err(rec)["rule"], err(rec)["deal"], err(rec)["action"]) == ("F7", 1, None)
    nxt["dealer"] = 1
    res = record.replay_json(rec)
    assert res["ok"] and res["deals"][1]["outcome"] == "unfinished" and res["deals"][1]["pot_after"] == 1200


def test_engine_record_round_trip_and_exact_big_numbers():
    st = engine.new_match("frap", 3, {"ante": 4 * 10 ** 30, "cut_in": False})
    st, _ = engine.start_deal(st, engine.pack(st), 2)
    st, _ = engine.apply(st, 0, ("pass",))
    rec = engine.record(st)
    assert rec["format"] == "frapnet-record/1" and rec["players"] == 3
    assert rec["options"]["cut_in"] is False and rec["house_rules"] == []
    assert rec["deals"] == [{"dealer": 2, "deck": engine.pack(st), "actions": [[0, "pass"]]}]
    text = record.dumps(rec)
    assert "4000000000000000000000000000000" in text
    again, res = record.replay(json.loads(text))
    assert again == st
    assert res["balances"] == [-4 * 10 ** 30] * 3 and res["pot"] == 12 * 10 ** 30


def test_house_rule_in_record_is_replayed():
    st = engine.new_match("frap", 4, {}, ["five_card_frap"])
    st, _ = engine.start_deal(st, engine.pack(st), 0)
    rec = engine.record(st)
    assert rec["house_rules"] == ["five_card_frap"]
    again, _ = record.replay(rec)
    assert again == st and len(again.deal.hands[1]) == 5


# --- the command --------------------------------------------------------------------------------

def frapnet(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "frapnet", "replay", *args], capture_output=True, text=True,
                          input=stdin, timeout=60)


@pytest.mark.shared
def test_replay_command_human_summary(tmp_path):
    f = tmp_path / "worked.json"
    f.write_text(json.dumps(WORKED))
    p = frapnet(str(f))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "deal 1: dealer seat 0, played" in out
    assert "tricks 0 1 2 1" in out and "remises 400 800 0 0" in out and "pot after 1200" in out
    assert "balances after -500 -800 100 0" in out
    assert "balances: seat 0: -500, seat 1: -800, seat 2: 100, seat 3: 0" in out
    assert "pot: 1200" in out


def test_replay_summary_names_a_flag_and_a_missing_format_in_words():
    """`frapnet replay`'s summary is for people: a deal's true flag is its name alone ("blind",
    not "blind True"), and a record without ``format`` says so (not "not None")."""
    res = record.replay_json(WORKED)
    res["deals"][0]["blind"] = True
    line = record.summary(res).splitlines()[1]
    assert ("; blind;" in line or line.endswith("; blind")) and "True" not in line
    with pytest.raises(record.ReplayError) as exc:
        record.replay({})
    assert exc.value.message == "the record has no format (it must be 'frapnet-record/1')"


@pytest.mark.shared
def test_replay_command_json_and_stdin():
    p = frapnet("-", "--json", stdin=json.dumps(WORKED))
    assert p.returncode == 0
    res = json.loads(p.stdout)
    assert res["ok"] is True and res["balances"] == [-500, -800, 100, 0] and res["pot"] == 1200


@pytest.mark.parametrize("body,rule,deal,action", [
    ("{not json", "record", None, None),
    pytest.param(json.dumps(worked(players=13)), "F1", None, None, marks=pytest.mark.shared),
])
def test_replay_command_errors_exit_2(tmp_path, body, rule, deal, action):
    f = tmp_path / "bad.json"
    f.write_text(body)
    p = frapnet(str(f), "--json")
    assert p.returncode == 2
    res = json.loads(p.stdout)
    assert res["ok"] is False and (res["error"]["rule"], res["error"]["deal"], res["error"]["action"]) == (rule, deal, action)
    p = frapnet(str(f))
    assert p.returncode == 2
    if rule == "record":  # malformed names no rule (issue #10: never "rule record:")
        assert p.stdout.startswith("bad record: not valid JSON:") and "rule" not in p.stdout
    else:
        assert p.stdout.startswith(f"illegal record: rule {rule}:")


@pytest.mark.shared
def test_replay_command_illegal_action_summary(tmp_path):
    rec = worked()
    rec["deals"][0]["actions"][0] = [1, "whist"]
    f = tmp_path / "illegal.json"
    f.write_text(json.dumps(rec))
    p = frapnet(str(f))
    assert p.returncode == 2
    assert p.stdout.startswith("illegal record in deal 1, action 1: rule F10:")


@pytest.mark.parametrize("content, message", [
    (b"null\n", "a record is a JSON object, not null"),
    (b"[1, 2]\n", "a record is a JSON object, not a list"),
    (b"42\n", "a record is a JSON object, not a number"),
    (b'"a record"\n', "a record is a JSON object, not text"),
    (b"\xbe\xef\x00\x01", "not a JSON text file (it is not UTF-8 text)"),
    (b'{"format": "frapnet-record/1", "game": "frap", "players": 4, "options": [], "deals": []}',
     "options must be a map of option names to values, not a list"),
])
def test_replay_says_what_a_file_that_is_no_record_holds_in_words(tmp_path, content, message):
    """Not Python's names ("not NoneType", "not list") nor a codec error ("'utf-8' codec can't decode")."""
    path = tmp_path / "r.json"
    path.write_bytes(content)
    p = frapnet(str(path))
    assert p.returncode == 2 and p.stdout == f"bad record: {message}\n"


def test_verify_says_a_missing_file_does_not_exist_not_that_it_does_not_replay(tmp_path):
    missing = tmp_path / "nope.json"
    p = subprocess.run([sys.executable, "-m", "frapnet", "verify", str(missing)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and p.stdout == "" and p.stderr == f"frapnet verify: no such file: {missing}\n"
    p = subprocess.run([sys.executable, "-m", "frapnet", "verify", "--json", str(missing)], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and json.loads(p.stdout) == {"ok": False, "error": {"deal": None,
                                                                                 "message": f"no such file: {missing}"}}


def test_replay_command_missing_file(tmp_path):
    """Issue #10 item 10: a missing file is "no such file", not an "illegal record"."""
    missing = tmp_path / "nope.json"
    p = frapnet(str(missing), "--json")
    assert p.returncode == 2
    assert json.loads(p.stdout)["error"] == {"deal": None, "action": None, "rule": "record",
                                             "message": f"no such file: {missing}"}
    p = frapnet(str(missing))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == f"frapnet replay: no such file: {missing}\n"
    p = frapnet(str(tmp_path))  # a folder: cannot be read, says why
    assert p.returncode == 2 and p.stderr == f"frapnet replay: cannot read {tmp_path}: Is a directory\n"


@pytest.mark.shared
def test_malformed_record_errors_never_say_rule_record(tmp_path):
    """Issue #10 item 10: "record" names no rule, so people never read "rule record:" — a bad
    card in the first deal's fourth action reads "bad record in deal 1, action 4: …"; a rule keeps
    its ID (deals and actions counted from 1 in words, issue #9; from 0 in --json)."""
    rec = worked()
    rec["deals"][0]["actions"][3] = [rec["deals"][0]["actions"][3][0], "play", "ZZ"]
    f = tmp_path / "badcard.json"
    f.write_text(json.dumps(rec))
    p = frapnet(str(f))
    assert p.returncode == 2
    assert p.stdout.startswith("bad record in deal 1, action 4: ") and "rule record" not in p.stdout
    exc = record.ReplayError("record", "unknown card 'ZZ'", 0, 3)
    assert str(exc) == "unknown card 'ZZ' (deal 1, action 4)"
    assert str(record.ReplayError("F20", "must follow suit", 1, 2)) == "rule F20: must follow suit (deal 2, action 3)"


@pytest.mark.shared
def test_order_of_checking_players_before_house_rules():
    e = err(worked(players=13, house_rules=["no_such_rule"]))
    assert e["rule"] == "F1"
    e = err(worked(game="poker", players=13))
    assert e["rule"] == "record"  # the game comes before players
    e = err(worked(format="x", players=13))
    assert e["rule"] == "record"


@pytest.mark.shared
def test_F6_replay_command_exact_beyond_4300_digits(tmp_path):
    """Python limits int↔str conversion to 4300 digits by default; `frapnet replay` lifts it (F6)."""
    ante = 4 * 10 ** 5000
    rec = worked(options={"ante": ante})
    f = tmp_path / "big.json"
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        f.write_text(json.dumps(rec))
        p = frapnet(str(f), "--json")
        assert p.returncode == 0, p.stdout + p.stderr
        res = json.loads(p.stdout)
    finally:
        sys.set_int_max_str_digits(limit)
    assert res["pot"] == 12 * ante and res["balances"] == [-5 * ante, -8 * ante, ante, 0]


@pytest.mark.shared
def test_every_deal_and_action_number_people_read_counts_from_1_issue_9(tmp_path):
    """Issue #9: replay's error said "deal 0, action 7" while its summary and `frapnet verify`
    say "deal 1". In words every command counts deals and actions from 1 and keeps the rule's ID
    (replay, verify, the host's --resume); only --json keeps the 0-based indices (record-format.md)."""
    rec = worked()
    deal = rec["deals"][0]
    deal["actions"][7] = [0, "play", deal["actions"][8][2]]  # the 8th action: a play in the buying round
    second = worked()
    second["deals"].append({**copy.deepcopy(deal), "dealer": 3})  # F7: the next dealer is seat 1
    second["deals"][0] = WORKED["deals"][0]
    cases = [(rec, 0, 7, "F15", "in deal 1, action 8: rule F15: "), (second, 1, None, "F7", "in deal 2: rule F7: ")]
    for i, (r, d, a, rule, words) in enumerate(cases):
        f = tmp_path / f"bad{i}.json"
        f.write_text(json.dumps(r))
        p = frapnet(str(f))
        assert p.returncode == 2 and p.stdout.startswith(f"illegal record {words}"), p.stdout
        e = json.loads(frapnet(str(f), "--json").stdout)["error"]
        assert (e["deal"], e["action"], e["rule"]) == (d, a, rule)  # --json: indices from 0
        text = str(record.ReplayError(e["rule"], e["message"], d, a))
        assert text == f"rule {rule}: {e['message']} ({words[3:].split(':')[0]})"
        host = subprocess.run([sys.executable, "-m", "frapnet", "host", "--resume", "--record", str(f), "--db",
                               str(tmp_path / "j.sqlite3"), "--no-announce", "--bind", "127.0.0.1", "--port", "0"],
                              capture_output=True, text=True, timeout=60)
        assert host.returncode == 2 and host.stderr == f"frapnet host: --resume: {f} does not replay: {text}\n"
    v = subprocess.run([sys.executable, "-m", "frapnet", "verify", str(tmp_path / "bad1.json")],
                       capture_output=True, text=True, timeout=60)
    assert v.returncode == 2 and v.stdout.startswith("NOT VERIFIED: deal 1: "), v.stdout  # no proof in deal 1


def test_export_and_verify_print_nothing_a_terminal_acts_on():
    """Hostile text in a journal or a path (ESC, bidi overrides, C1 controls) reached the terminal
    raw from `frapnet export` (to standard output) and from `frapnet verify` of a missing file:
    escaped now — the JSON still reads back as the same record."""
    from frapnet.commands.export import _json_escaped
    rec = dict(WORKED, options={"note": "x\u202e\u2066\x9b\x1b[2Jy"})
    text = _json_escaped(record.dumps(rec))
    assert json.loads(text) == json.loads(record.dumps(rec)) and text.replace("\n", "").isprintable()
    assert _json_escaped(record.dumps(WORKED)) == record.dumps(WORKED)  # nothing to escape: as it was
    with pytest.raises(record.ReplayError) as exc:
        record.load("/nonexistent/r\x1b[2J\u202e.json")
    assert exc.value.message == "no such file: '/nonexistent/r\\x1b[2J\\u202e.json'"
