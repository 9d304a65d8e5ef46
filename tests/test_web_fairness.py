"""Issue #11 for the web page (frapnet/net/web_assets/fairness.js): its SHA-256 agrees with
hashlib, it answers the shuffle like the other clients, and it flags a reveal whose seed does not
open the commitment. Run under Node.js (the page's own code, unchanged); skipped without node."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from frapnet import fairness

NODE = shutil.which("node") or shutil.which("nodejs")
JS = Path(__file__).resolve().parent.parent / "frapnet" / "net" / "web_assets" / "fairness.js"
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")

HARNESS = """
global.window = {}; global.crypto = require("crypto").webcrypto;
require(process.argv[1]);
const F = window.FrapnetFair, enc = (s) => new Uint8Array(Buffer.from(s, "hex"));
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = {hashes: input.data.map((d) => F.hex(F.sha256(enc(d))))};
const c = new F.Checker();
const h = c.commit({type: "shuffle_commit", deal: 1, commitment: input.commitment, seats: [0, 1]}, 1);
const n = c.hashes({type: "shuffle_hashes", deal: 1, hashes: [null, h.hash], left_out: [0]}, 1);
out.answers = [h, n];
out.ok = c.reveal({type: "shuffle_reveal", deal: 1, proof: {seed: input.seed, salt: input.salt,
  nonces: [null, n.nonce]}}, 1);
c.commit({type: "shuffle_commit", deal: 2, commitment: input.commitment, seats: [0, 1]}, 1);
out.bad = c.reveal({type: "shuffle_reveal", deal: 2, proof: {seed: input.seed, salt: "00".repeat(32)}}, 1);
console.log(JSON.stringify(out));
"""


def test_page_sha256_and_shuffle_answers():
    data = ["", "61", "00" * 55, "ff" * 56, "ab" * 64, bytes(range(256)).hex() * 3]
    seed, salt = bytes(range(32)), bytes(range(32, 64))
    inp = {"data": data, "seed": seed.hex(), "salt": salt.hex(),
           "commitment": fairness.commitment(seed, salt).hex()}
    r = subprocess.run([NODE, "-e", HARNESS, str(JS)], input=json.dumps(inp), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["hashes"] == [hashlib.sha256(bytes.fromhex(d)).hexdigest() for d in data]  # every padding case
    h, n = out["answers"]
    assert h["type"] == "nonce_hash" and n["type"] == "nonce" and n["deal"] == 1
    assert hashlib.sha256(bytes.fromhex(n["nonce"])).hexdigest() == h["hash"]  # a fresh 32-byte nonce
    assert len(bytes.fromhex(n["nonce"])) == 32
    assert out["ok"] == {"deal": 1, "ok": True, "problem": None}
    assert out["bad"] == {"deal": 2, "ok": False, "problem": "the seed or salt differs from the one committed"}
