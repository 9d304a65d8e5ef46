"""Issue #11, design.md principle 9: the shuffle algorithm (docs/fairness.md) and `frapnet verify`.

The test vectors here are the ones docs/fairness.md prints, so another implementation can check
itself against both. The uniformity test uses fixed seeds: it gives the same figure every run.
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys

import pytest

from frapnet import engine, fairness, record
from frapnet.cards import pack as cards_pack

SEED = bytes(range(32))
SALT = bytes(range(32, 64))
NONCES = [bytes([0xA0 + s]) * 32 for s in range(4)]
FRAP32 = cards_pack(32)

VECTOR_COMMITMENT = "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"
VECTOR_NONCE0_HASH = "545e9f3eaf2ba2883101637f4db862733ecedb93ed30a402688873edf3c256f6"
VECTOR_KEY = "87fc07c15a43718ac24ef5e6a8e696b27c9b4d8da8d59b465212b032219262dd"
VECTOR_WORDS = [1846516239, 3860626431, 918874547, 3423942385]
VECTOR_DECK = ["7D", "QC", "10S", "JD", "KS", "JS", "KC", "9D", "10D", "9C", "KD", "QD", "7S", "QH", "7H", "KH",
               "10H", "8H", "9S", "8S", "9H", "JH", "8C", "QS", "7C", "10C", "JC", "AS", "AD", "8D", "AC", "AH"]
VECTOR_KEY_LEFT_OUT = "05d19ce89a812a1152e782106db52cd92bec6395db39937ac2e4f54acdf5d562"
VECTOR_DECK_LEFT_OUT = ["7S", "9S", "8S", "10S", "KD", "9C", "JC", "AS", "JS", "9H", "KC", "7C", "AD", "QD", "AC",
                        "7D", "10C", "8H", "AH", "KS", "QC", "KH", "8C", "JD", "8D", "10H", "9D", "QS", "JH", "7H",
                        "QH", "10D"]


def test_vectors():
    """docs/fairness.md "Test vectors": commitment, nonce hash, key, first words, deck."""
    assert FRAP32 == engine.pack(engine.new_match("frap", 4, {}))  # the pack order the vectors use
    assert fairness.commitment(SEED, SALT).hex() == VECTOR_COMMITMENT
    assert fairness.nonce_hash(NONCES[0]).hex() == VECTOR_NONCE0_HASH
    key = fairness.deck_key(SEED, NONCES)
    assert key.hex() == VECTOR_KEY
    stream = fairness.words(key)
    assert [next(stream) for _ in range(4)] == VECTOR_WORDS
    assert fairness.shuffle(FRAP32, SEED, NONCES) == VECTOR_DECK
    left_out = [NONCES[0], None, NONCES[2], NONCES[3]]
    assert fairness.deck_key(SEED, left_out).hex() == VECTOR_KEY_LEFT_OUT
    assert fairness.shuffle(FRAP32, SEED, left_out) == VECTOR_DECK_LEFT_OUT
    assert fairness.seeded_secret("seed", 42, 1).hex() == \
        "9e5cedc161daa754f4195e2b065321ba1fdaa81cd80dd674d15cc4cb242ff8ef"


def _from_the_doc(pack, seed, nonces):
    """docs/fairness.md's algorithm written out again, independently of frapnet.fairness."""
    entries = b"".join(b"\x00" if x is None else b"\x01" + x for x in nonces)
    key = hashlib.sha256(b"frapnet-shuffle/1\x00" + seed + bytes([len(nonces)]) + entries).digest()
    stream = b""
    counter = 0
    pos = 0

    def word():
        nonlocal stream, counter, pos
        if pos + 4 > len(stream):
            stream += hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
            counter += 1
        w = int.from_bytes(stream[pos:pos + 4], "big")
        pos += 4
        return w

    deck = list(pack)
    for i in range(len(deck) - 1, 0, -1):
        m = i + 1
        while True:
            w = word()
            if w < 2 ** 32 - 2 ** 32 % m:
                break
        j = w % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("size", [32, 36, 52])
def test_independent_implementation_agrees(size):
    rng = random.Random(size)
    for _ in range(20):
        seed = rng.randbytes(32)
        nonces = [rng.randbytes(32) if rng.random() < 0.8 else None for _ in range(rng.randint(2, 12))]
        assert fairness.shuffle(cards_pack(size), seed, nonces) == _from_the_doc(cards_pack(size), seed, nonces)


def test_rejection_sampling_skips_the_biased_top():
    """2³² mod 3 = 1: the top word 2³²−1 would favour 0, so it is skipped."""
    assert fairness.uniform(iter([2 ** 32 - 1, 7]), 3) == 1
    assert fairness.uniform(iter([2 ** 32 - 2]), 3) == (2 ** 32 - 2) % 3
    assert fairness.uniform(iter([2 ** 32 - 1]), 1) == 0


def test_every_nonce_and_the_seed_change_the_deck():
    base = fairness.shuffle(FRAP32, SEED, NONCES)
    for seat in range(4):
        changed = list(NONCES)
        changed[seat] = bytes([NONCES[seat][0] ^ 1]) + NONCES[seat][1:]
        assert fairness.shuffle(FRAP32, SEED, changed) != base
    assert fairness.shuffle(FRAP32, bytes(32), NONCES) != base
    assert fairness.shuffle(FRAP32, SEED, NONCES[:3] + [None]) != base
    assert sorted(base) == sorted(FRAP32)


def _chi_square(shuffle, n_deals, pack):
    """χ² of card × position counts over ``n_deals`` deals with fixed seeds (df = (k−1)²)."""
    index = {c: i for i, c in enumerate(pack)}
    k = len(pack)
    counts = [[0] * k for _ in range(k)]
    for d in range(n_deals):
        seed = hashlib.sha256(b"chi-square" + d.to_bytes(4, "big")).digest()
        for pos, card in enumerate(shuffle(pack, seed)):
            counts[index[card]][pos] += 1
    e = n_deals / k
    return sum((x - e) ** 2 / e for row in counts for x in row)


def _critical(df, z=3.090):
    """χ² value exceeded with probability 0.001 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3


def test_card_positions_are_uniform():
    """3 200 fixed-seed deals of the 32-card pack: every card in every position ~100 times."""
    stat = _chi_square(lambda p, seed: fairness.shuffle(p, seed, [None]), 3200, FRAP32)
    assert stat < _critical(31 * 31) == pytest.approx(1102.2, abs=0.1)
    assert stat == pytest.approx(1009.12, abs=0.01)  # fixed seeds: the same figure every run


def test_the_uniformity_test_catches_a_biased_shuffle():
    """Negative control: the classic wrong Fisher–Yates (swap with any position) fails it."""
    def naive(p, seed):
        deck, stream = list(p), fairness.words(fairness.deck_key(seed, [None]))
        for i in range(len(deck)):
            j = fairness.uniform(stream, len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        return deck
    assert _chi_square(naive, 3200, FRAP32) > 2 * _critical(31 * 31)


def test_bad_values_are_named():
    with pytest.raises(fairness.FairnessError, match="seed must be 64 hex digits"):
        fairness.from_hex("zz" * 32, 32, "seed")
    with pytest.raises(fairness.FairnessError, match="nonce must be 32 bytes"):
        fairness.nonce_hash(b"short")
    with pytest.raises(fairness.FairnessError, match="seat 2's nonce"):
        fairness.deck_key(SEED, [NONCES[0], None, b"x"])


# --- records and `frapnet verify` -------------------------------------------------------------

def fair_record(deals=3, players=4, seed=7):
    """A Frap match whose every deal is shuffled by the scheme, played by random legal moves."""
    rng = random.Random(seed)
    state = engine.new_match("frap", players, {})
    proofs = []
    for d in range(1, deals + 1):
        s, salt = fairness.seeded_secret("seed", seed, d), fairness.seeded_secret("salt", seed, d)
        nonces = [fairness.seeded_secret("nonce", seed, d, seat) for seat in range(players)]
        if d == 2:
            nonces[1] = None  # seat 1 left out (did not answer in time)
        proof = fairness.make_proof(s, salt, nonces)
        proofs.append(proof)
        state, _ = engine.start_deal(state, fairness.shuffle(engine.pack(state), s, nonces),
                                     0 if d == 1 else None)
        while state.phase == engine.DEAL:
            seat = state.to_act[0]
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    rec = engine.record(state)
    for deal, proof in zip(rec["deals"], proofs):
        deal["shuffle"] = proof
    return rec


def verify_error(rec):
    with pytest.raises(record.VerifyError) as info:
        record.verify(rec)
    return info.value


def test_untouched_record_verifies():
    rec = fair_record()
    checked = record.verify(rec)
    assert [(c["deal"], c["nonces"], c["left_out"], c["cards"]) for c in checked] == [
        (0, [0, 1, 2, 3], [], 32), (1, [0, 2, 3], [1], 32), (2, [0, 1, 2, 3], [], 32)]
    assert record.replay(rec)[1]["ok"] is True  # the extra key does not disturb replay


def test_one_changed_card_fails_naming_the_deal():
    rec = fair_record()
    deck = rec["deals"][1]["deck"]
    deck[30], deck[31] = deck[31], deck[30]  # still a permutation: replay alone would not notice
    e = verify_error(rec)
    assert e.deal == 1 and "card 31 (from the top)" in e.message and str(e).startswith("deal 2: ")


def test_one_changed_nonce_fails_naming_the_deal_and_seat():
    rec = fair_record()
    nonces = rec["deals"][2]["shuffle"]["nonces"]
    nonces[3] = ("0" if nonces[3][0] != "0" else "1") + nonces[3][1:]
    e = verify_error(rec)
    assert (e.deal, e.message) == (2, "seat 3's nonce does not match the hash it committed")


def test_changed_salt_fails_naming_the_commitment():
    rec = fair_record()
    rec["deals"][0]["shuffle"]["salt"] = "00" * 32
    e = verify_error(rec)
    assert e.deal == 0 and "commitment is not SHA-256(seed ‖ salt)" in e.message


def test_changed_seed_with_a_matching_commitment_fails_on_the_deck():
    """A host that swaps the seed and recomputes the commitment still cannot match the deck."""
    rec = fair_record()
    proof = rec["deals"][1]["shuffle"]
    seed = bytes(32)
    proof["seed"] = seed.hex()
    proof["commitment"] = fairness.commitment(seed, bytes.fromhex(proof["salt"])).hex()
    e = verify_error(rec)
    assert e.deal == 1 and "not the one the seed and nonces give" in e.message


def test_old_record_replays_but_does_not_verify():
    rec = fair_record()
    for deal in rec["deals"]:
        del deal["shuffle"]
    assert record.replay(rec)[1]["ok"] is True
    e = verify_error(rec)
    assert e.deal == 0 and "no shuffle proof" in e.message


def test_illegal_action_fails_verify_too():
    rec = fair_record(deals=1)
    rec["deals"][0]["actions"].append([0, "play", "AS"])
    e = verify_error(rec)
    assert e.deal == 0 and "does not replay" in e.message


def _verify_cli(tmp_path, rec, *args):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(rec))
    return subprocess.run([sys.executable, "-m", "frapnet", "verify", str(path), *args],
                          capture_output=True, text=True, timeout=60)


def test_verify_command(tmp_path):
    rec = fair_record()
    ok = _verify_cli(tmp_path, rec)
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.splitlines()
    assert len(lines) == 4 and lines[-1] == "3 deals verified"
    assert lines[1].startswith("deal 2: ✓ commitment ") and lines[1].endswith("seats 0 2 3; left out: seat 1")
    bad = copy.deepcopy(rec)
    bad["deals"][2]["deck"][0], bad["deals"][2]["deck"][5] = bad["deals"][2]["deck"][5], bad["deals"][2]["deck"][0]
    res = _verify_cli(tmp_path, bad)
    assert res.returncode == 2 and res.stdout.startswith("NOT VERIFIED: deal 3: the recorded deck")
    res = _verify_cli(tmp_path, bad, "--json")
    out = json.loads(res.stdout)
    assert res.returncode == 2 and out["ok"] is False and out["error"]["deal"] == 2
    res = _verify_cli(tmp_path, rec, "--json")
    assert res.returncode == 0 and [d["left_out"] for d in json.loads(res.stdout)["deals"]] == [[], [1], []]


def test_verify_names_a_rule_but_never_rule_record():
    """Issue #10 item 10 (errors said "rule record:"): an action after the deal has ended (rule
    ``record``, record-format.md) is described in words only, with the action counted from 1."""
    rec = fair_record(deals=1)
    rec["deals"][0]["actions"].append([0, "frobnicate"])
    e = verify_error(rec)
    assert e.deal == 0 and "rule record" not in e.message
    assert e.message == f"the record does not replay, action {len(rec['deals'][0]['actions'])}: " \
                        "an action after the deal has ended"
