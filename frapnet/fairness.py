"""Provably fair deals (docs/fairness.md, design.md principle 9): commit–reveal with nonces.

Pure functions only — no I/O, no clock, no randomness of its own, no Twisted — so the engine,
the host, every client and ``frapnet verify`` compute exactly the same thing. Every value is
bytes of a fixed length; on the wire and in records each is written as lowercase hex.

The scheme, per deal (scheme name :data:`SCHEME`):

1. The host picks a secret ``seed`` and ``salt`` (:data:`SEED_BYTES`, :data:`SALT_BYTES`) and
   sends everyone ``commitment = SHA-256(seed ‖ salt)`` (:func:`commitment`).
2. Every seat asked picks a secret ``nonce`` (:data:`NONCE_BYTES`) and sends
   ``SHA-256(nonce)`` (:func:`nonce_hash`); the host sends everyone the list of hashes it got;
   then each seat sends its nonce, which must match its hash.
3. ``deck = shuffle(pack, seed, nonces)`` (:func:`shuffle`): the game's pack in its pack order,
   permuted by Fisher–Yates with unbiased integers drawn from SHA-256 in counter mode, keyed by
   the seed and every seat's nonce in seat order (:func:`deck_key`).
4. After the deal the host reveals seed, salt and nonces; anyone can recompute 1–3
   (:func:`check_proof`).
"""
from __future__ import annotations

import hashlib
import string
from typing import Iterator, Sequence

__all__ = ["SCHEME", "SEED_BYTES", "SALT_BYTES", "NONCE_BYTES", "FairnessError", "commitment",
           "nonce_hash", "deck_key", "words", "uniform", "shuffle", "seeded_secret", "to_hex",
           "from_hex", "check_proof", "proof_nonces", "make_proof"]

SCHEME = "frapnet-shuffle/1"
"""The name of this exact algorithm; records and messages carry it."""
SEED_BYTES = 32
SALT_BYTES = 32
NONCE_BYTES = 32
HASH_BYTES = 32
MAX_SEATS = 255
_KEY_TAG = SCHEME.encode("ascii") + b"\x00"
_HEX = frozenset(string.hexdigits)


class FairnessError(ValueError):
    """A malformed fairness value (wrong length, not hex, wrong shape); the message names it."""


def to_hex(data: bytes) -> str:
    """``data`` as lowercase hex (two characters per byte)."""
    return data.hex()


def from_hex(text: object, length: int, what: str) -> bytes:
    """Parse ``text`` (hex, either case) into exactly ``length`` bytes.

    Raises FairnessError naming ``what`` if it is not a string of ``2·length`` hex digits.
    """
    if not isinstance(text, str) or len(text) != 2 * length or not _HEX.issuperset(text):
        shown = repr(text) if not isinstance(text, str) or len(text) <= 80 else repr(text[:80] + "…")
        raise FairnessError(f"{what} must be {2 * length} hex digits ({length} bytes), not {shown}")
    return bytes.fromhex(text)


def commitment(seed: bytes, salt: bytes) -> bytes:
    """``SHA-256(seed ‖ salt)``: the host's commitment (32 bytes). Raises FairnessError on bad lengths."""
    _need(seed, SEED_BYTES, "seed")
    _need(salt, SALT_BYTES, "salt")
    return hashlib.sha256(seed + salt).digest()


def nonce_hash(nonce: bytes) -> bytes:
    """``SHA-256(nonce)``: the hash a seat sends before its nonce (32 bytes)."""
    _need(nonce, NONCE_BYTES, "nonce")
    return hashlib.sha256(nonce).digest()


def deck_key(seed: bytes, nonces: Sequence[bytes | None]) -> bytes:
    """The shuffle key: ``SHA-256("frapnet-shuffle/1" 0x00 ‖ seed ‖ n ‖ entry₀ ‖ … ‖ entryₙ₋₁)``.

    ``nonces`` has one item per seat 0…n−1 (n ≤ 255, written as one byte); a seat's entry is
    ``0x01 ‖ nonce`` (32 bytes) if it gave a nonce, else the single byte ``0x00`` (left out).
    """
    _need(seed, SEED_BYTES, "seed")
    if not 1 <= len(nonces) <= MAX_SEATS:
        raise FairnessError(f"between 1 and {MAX_SEATS} seats, not {len(nonces)}")
    parts = [_KEY_TAG, seed, bytes([len(nonces)])]
    for seat, nonce in enumerate(nonces):
        if nonce is None:
            parts.append(b"\x00")
        else:
            _need(nonce, NONCE_BYTES, f"seat {seat}'s nonce")
            parts += [b"\x01", nonce]
    return hashlib.sha256(b"".join(parts)).digest()


def words(key: bytes) -> Iterator[int]:
    """SHA-256 in counter mode: blocks ``SHA-256(key ‖ uint64_be(i))``, i = 0, 1, 2, …, read as
    consecutive 32-bit big-endian unsigned integers (8 per block)."""
    i = 0
    while True:
        block = hashlib.sha256(key + i.to_bytes(8, "big")).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k:k + 4], "big")
        i += 1


def uniform(stream: Iterator[int], m: int) -> int:
    """An unbiased integer in 0…m−1 (1 ≤ m ≤ 2³²) from 32-bit words, by rejection sampling:
    a word w is used only if ``w < 2³² − (2³² mod m)``, and then gives ``w mod m``."""
    limit = (1 << 32) - ((1 << 32) % m)
    for w in stream:
        if w < limit:
            return w % m
    raise AssertionError("the word stream is endless")  # pragma: no cover


def shuffle(pack: Sequence[str], seed: bytes, nonces: Sequence[bytes | None]) -> list[str]:
    """The deck (top card first) that ``seed`` and ``nonces`` give for ``pack`` (the game's pack
    in its own order, :func:`frapnet.engine.pack`): Fisher–Yates — for i = len−1 down to 1,
    swap positions i and ``uniform(i + 1)`` — with the words of ``deck_key(seed, nonces)``."""
    deck = list(pack)
    stream = words(deck_key(seed, nonces))
    for i in range(len(deck) - 1, 0, -1):
        j = uniform(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seeded_secret(kind: str, seed: object, deal_no: int, seat: int | None = None) -> bytes:
    """A reproducible secret for ``frapnet host --seed`` runs (never for real play: anyone who
    knows the seed knows every deal): ``SHA-256("frapnet-seeded/1" 0x00 kind 0x00 str(seed) 0x00
    uint32_be(deal_no) [uint8(seat)])``, ``kind`` ``"seed"``, ``"salt"`` or ``"nonce"`` (with
    the seat), ``deal_no`` counted from 1."""
    data = b"\x00".join([b"frapnet-seeded/1", kind.encode(), str(seed).encode("utf-8"), deal_no.to_bytes(4, "big")])
    if seat is not None:
        data += bytes([seat])
    return hashlib.sha256(data).digest()


def make_proof(seed: bytes, salt: bytes, nonces: Sequence[bytes | None],
               hashes: Sequence[bytes | None] | None = None) -> dict:
    """A deal's whole proof as a record holds it (docs/records.md): ``scheme``, ``commitment``,
    ``seed``, ``salt``, ``nonce_hashes`` and ``nonces`` (per seat, hex or None). ``hashes``
    defaults to the nonces' own hashes (a seat that committed but never revealed has a hash and
    no nonce)."""
    if hashes is None:
        hashes = [None if x is None else nonce_hash(x) for x in nonces]
    return {"scheme": SCHEME, "commitment": to_hex(commitment(seed, salt)), "seed": to_hex(seed),
            "salt": to_hex(salt), "nonce_hashes": [None if h is None else to_hex(h) for h in hashes],
            "nonces": [None if x is None else to_hex(x) for x in nonces]}


def proof_nonces(proof: dict, players: int) -> list[bytes | None]:
    """The per-seat nonces of a proof (``nonces``: list of n hex strings or None).
    Raises FairnessError if the list is missing, of the wrong length or holds a bad value."""
    raw = proof.get("nonces")
    if not isinstance(raw, list) or len(raw) != players:
        raise FairnessError(f"nonces must be a list of {players} entries (hex or null), not {raw!r:.80}")
    return [None if x is None else from_hex(x, NONCE_BYTES, f"seat {s}'s nonce") for s, x in enumerate(raw)]


def check_proof(proof: object, pack: Sequence[str], players: int) -> tuple[list[str] | None, str | None]:
    """Check a deal's proof (a record's ``shuffle`` object, docs/records.md) on its own.

    Returns ``(deck, None)`` — the deck the proof gives for ``pack`` — if the scheme is known,
    ``SHA-256(seed ‖ salt)`` is the commitment and every nonce matches its seat's hash;
    otherwise ``(None, problem)`` with the first problem in words (what does not match,
    naming the seat). Comparing the deck with the cards dealt is the caller's job.
    """
    if not isinstance(proof, dict):
        return None, "no shuffle proof (commitment, seed, salt, nonces) in the record"
    if proof.get("scheme") != SCHEME:
        return None, f"unknown shuffle scheme {proof.get('scheme')!r} (this program checks {SCHEME})"
    try:
        want = from_hex(proof.get("commitment"), HASH_BYTES, "commitment")
        seed = from_hex(proof.get("seed"), SEED_BYTES, "seed")
        salt = from_hex(proof.get("salt"), SALT_BYTES, "salt")
        nonces = proof_nonces(proof, players)
        hashes = proof.get("nonce_hashes")
        if not isinstance(hashes, list) or len(hashes) != players:
            raise FairnessError(f"nonce_hashes must be a list of {players} entries (hex or null)")
        hashes = [None if h is None else from_hex(h, HASH_BYTES, f"seat {s}'s nonce hash") for s, h in enumerate(hashes)]
    except FairnessError as exc:
        return None, str(exc)
    if commitment(seed, salt) != want:
        return None, "the commitment is not SHA-256(seed ‖ salt): the seed or salt differs from the one committed"
    for seat, (nonce, h) in enumerate(zip(nonces, hashes)):
        if nonce is not None and h is None:
            return None, f"seat {seat}'s nonce was never committed (no hash for it)"
        if nonce is not None and nonce_hash(nonce) != h:
            return None, f"seat {seat}'s nonce does not match the hash it committed"
    return shuffle(pack, seed, nonces), None


def _need(value: object, length: int, what: str) -> None:
    if not isinstance(value, (bytes, bytearray)) or len(value) != length:
        raise FairnessError(f"{what} must be {length} bytes")
