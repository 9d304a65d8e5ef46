"""Fuzz a live `frapnet host` (issue #9 "Targets"): ≥ 1,000,000 hostile frames of every kind in
docs/protocol.md, sent over loopback while the host's computer players play a match.

    .venv/bin/python bench/fuzz.py                         # 1,000,000 frames (a few minutes)
    .venv/bin/python bench/fuzz.py --frames 50000 --deals 6   # a quick look
    .venv/bin/python bench/fuzz.py --host-arg=--record --host-arg=/tmp/fuzz.json

A `frapnet host --players 6 --bots 4` process (its own computer players in seats 2…5) is
started on 127.0.0.1; this script takes seats 0 and 1 itself as computer clients that play
their legal actions (so the match moves on) mixed with hostile `act` frames from a seat (out of
turn, stale, wrong seat, arguments of every wrong shape). Meanwhile ``--workers`` threads open
short sessions from source addresses spread over 127.0.0.0/8 (so that the per-address limits
are not what is measured): each sends up to 40 frames (under the 50-a-second flood limit, so
they are all checked), then half-closes and reads every reply to the end. Sessions: before
``hello``, as a spectator, hello probes (versions, names, seats, tokens, tables, passwords),
floods (closed by the host), fatal frames (malformed, too large, the timestamp extension…),
and truncated frames. Frames are drawn from a corpus built once (seeded): every client kind and
every host kind (which a client must not send), each with fields missing, of the wrong type or
size, nested deep, with control characters, invalid UTF-8, non-string keys, huge integers, ext 1
with bad digits, unknown extensions; plus framing faults (random bytes, lengths over the limit,
trailing bytes, a body that is not a map).

The fuzzing is bounded (``--frames``, ``--max-seconds``); seats 0 and 1 pace the match so that
it spans the whole fuzz (deal k may end once k/``--deals`` of the frames are sent; the last deal
waits for the end), so it is in play the whole time; then the two seats leave, the host plays
them, and the match must finish. Printed: frames sent, sessions,
the error codes received, ``internal`` answers, tracebacks and error/critical lines in the
host's log, whether the match finished (exit status, deals, F6 balance check), and the host's
RSS before and after (VmRSS, and the peak VmHWM). Exit status 0 only if tracebacks = 0,
internal = 0, critical = 0 and the match finished.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

import msgpack

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from frapnet.net import wire  # noqa: E402
from frapnet.net.protocol import CLIENT_KINDS, HOST_KINDS, PROTOCOL_VERSION  # noqa: E402

MAX = wire.MAX_FRAME


# --- the corpus ------------------------------------------------------------------------------------

def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def _pack(obj) -> bytes:
    return msgpack.packb(obj, use_bin_type=True, default=lambda o: msgpack.ExtType(1, str(o).encode()),
                         datetime=False)


def _str_header(n: int) -> bytes:
    if n < 32:
        return bytes((0xa0 | n,))
    if n < 256:
        return b"\xd9" + bytes((n,))
    if n < 65536:
        return b"\xda" + n.to_bytes(2, "big")
    return b"\xdb" + n.to_bytes(4, "big")


def _raw_str(data: bytes) -> bytes:
    """A msgpack str whose bytes are ``data`` as given (invalid UTF-8 allowed)."""
    return _str_header(len(data)) + data


NASTY_TEXT = ["", " ", "\x1b[2J\x1b[H", "\x07\x07\x07", "\u202eevil", "\x00", "é" * 40, "\ud800".encode(
    "utf-8", "surrogatepass").decode("utf-8", "replace"), "A" * 300, "Я" * 2000, "x" * 65_536, "\n" * 50,
    "1.0", "2.0", "1.0.1", "１.０", "play", "AS", "10H", "T♥", "RJ", "ZZ"]
NASTY_INT = [0, -1, 1, 63, 64, -(2 ** 63), 2 ** 64 - 1, 2 ** 64, 2 ** 70, -(2 ** 200), 10 ** 999]


def _values(rng: random.Random, depth: int = 0):
    kind = rng.randrange(12)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice(NASTY_INT)
    if kind == 3:
        return rng.choice([0.5, float("nan"), float("inf"), -0.0, 1e308])
    if kind in (4, 5):
        return rng.choice(NASTY_TEXT)
    if kind == 6:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(20)))
    if kind == 7 and depth < 3:
        return [_values(rng, depth + 1) for _ in range(rng.randrange(6))]
    if kind == 8 and depth < 3:
        return {rng.choice(["type", "action", "x", "name", ""]): _values(rng, depth + 1) for _ in range(rng.randrange(4))}
    if kind == 9:
        return ["play", rng.choice(["AS", "10H", "ZZ", 5, None, ["AS"]])]
    if kind == 10:
        v = "AS"
        for _ in range(rng.choice([2, 10, 100, 990])):
            v = [v]
        return v
    return rng.choice(["AS", "pass", "frap", "look", "buy", "KH"])


BASE = {
    "hello": {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Fuzz", "lang": "en", "spectate": True},
    "act": {"type": "act", "action": ["pass"], "version": 1, "seat": 0},
    "chat": {"type": "chat", "text": "hello"},
    "leave": {"type": "leave"},
    "ping": {"type": "ping", "id": 1},
    "welcome": {"type": "welcome", "protocol": "1.0", "seat": 0, "token": "x" * 24},
    "view": {"type": "view", "view": {"version": 1, "hand": ["AS"]}},
    "event": {"type": "event", "event": {"type": "play", "text": "x"}},
    "error": {"type": "error", "code": "internal", "message": "x", "rule": None},
    "pong": {"type": "pong", "id": 1},
    "closing": {"type": "closing", "reason": "x", "result": None},
    "rematch": {"type": "rematch", "accept": True},
    "lang": {"type": "lang", "lang": "ru"},
    "nonce_hash": {"type": "nonce_hash", "deal": 1, "hash": "0" * 64},
    "nonce": {"type": "nonce", "deal": 1, "nonce": "0" * 64},
    "rematch_offer": {"type": "rematch_offer", "result": {}, "seconds": 30, "waiting": [0], "match": 2},
    "rematch_start": {"type": "rematch_start", "match": 2},
    "shuffle_commit": {"type": "shuffle_commit", "deal": 1, "scheme": "frapnet-shuffle/1", "commitment": "0" * 64,
                       "seats": [0], "time": 3},
    "shuffle_hashes": {"type": "shuffle_hashes", "deal": 1, "hashes": ["0" * 64], "left_out": []},
    "shuffle_reveal": {"type": "shuffle_reveal", "deal": 1, "proof": {}},
}
_MISSING = set(CLIENT_KINDS + HOST_KINDS) - set(BASE)
assert not _MISSING, f"bench/fuzz.py has no base message for {sorted(_MISSING)} (docs/protocol.md kinds)"
FIELDS = ["protocol", "name", "lang", "password", "token", "seat", "spectate", "table", "bot", "action",
          "version", "text", "id", "view", "event", "code", "accept", "deal", "hash", "nonce", "rematch"]


def _message_frame(rng: random.Random, kind: str) -> bytes:
    """One hostile frame of message kind ``kind`` (a client or a host kind)."""
    msg = dict(BASE[kind])
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        if op == 0 and len(msg) > 1:
            msg.pop(rng.choice([k for k in msg if k != "type"]), None)
        elif op in (1, 2):
            msg[rng.choice(FIELDS)] = _values(rng)
        elif op == 3 and kind == "act":
            msg["action"] = [rng.choice(["play", "buy", "pass", "frap", "look", "discard", "fly", "", "x" * 40])] + \
                [_values(rng) for _ in range(rng.randrange(4))]
        elif op == 4:
            msg["version"] = rng.choice(NASTY_INT)
        else:
            msg[rng.choice(["junk", "x" * 100, ""])] = _values(rng)
    body = _pack(msg)
    if len(body) > MAX:
        body = _pack(BASE[kind])
    return _frame(body)


def _wire_fault(rng: random.Random) -> tuple[bytes, bool]:
    """A framing or encoding fault: (frame bytes, whether the host then closes the connection)."""
    k = rng.randrange(16)
    if k == 0:
        return _frame(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))), True
    if k == 1:
        return (MAX + 1 + rng.randrange(2 ** 20)).to_bytes(4, "big") + b"\x80" * 10, True
    if k == 2:
        return _frame(_pack([1, 2, 3])), True
    if k == 3:
        return _frame(_pack({"no_type": 1})), True
    if k == 4:
        return _frame(_pack({"type": 7})), True
    if k == 5:
        return _frame(_pack({"type": "ping"}) + b"\xc0"), True  # trailing bytes
    if k == 6:
        return _frame(b"\x81" + _raw_str(b"type") + _raw_str(b"\xff\xfe\xc3")), True  # invalid UTF-8
    if k == 7:
        return _frame(b"\x81\x07" + _raw_str(b"ping")), True  # an int key
    if k == 8:
        return _frame(b"\x82" + _raw_str(b"type") + _raw_str(b"ping") + _raw_str(b"id") + b"\xd6\xff" + b"\x00" * 4), True
    if k == 9:
        return _frame(b"\x82" + _raw_str(b"type") + _raw_str(b"ping") + _raw_str(b"id") + b"\xd4\x05\x01"), True
    if k == 10:  # ext 1 with a bad payload
        bad = rng.choice([b"12a", b"", b"-", b"9" * 1001, b"\x00"])
        return _frame(b"\x82" + _raw_str(b"type") + _raw_str(b"ping") + _raw_str(b"id") + b"\xc7" + bytes(
            (len(bad) % 256,)) + b"\x01" + bad[:255]), True
    if k == 11:  # nested beyond msgpack's own limit
        return _frame(b"\x91" * rng.choice([1100, 5000, 60000]) + b"\xc0"), True
    if k == 12:  # a string over the limit
        return _frame(b"\x81" + _raw_str(b"type") + _raw_str(b"x" * (wire.MAX_STR + 1))), True
    if k == 13:  # an array over the limit
        return _frame(b"\x81" + _raw_str(b"type") + b"\xdc" + (wire.MAX_ARRAY + 1).to_bytes(2, "big") + b"\xc0" *
                      (wire.MAX_ARRAY + 1)), True
    if k == 14:
        return _frame(b""), True
    return _frame(b"\x81" + _raw_str(b"type") + _raw_str(b"\x1b[2J" + b"A" * 60_000)), False  # unknown kind


class Corpus:
    """Frames drawn once (seeded), then reused: ``message`` frames (the connection stays open)
    per kind, and ``fatal`` ones (the host closes)."""

    def __init__(self, seed: int, size: int = 3000) -> None:
        rng = random.Random(seed)
        self.kinds = list(CLIENT_KINDS) + list(HOST_KINDS)
        self.message = {k: [_message_frame(rng, k) for _ in range(size // len(self.kinds) + 1)] for k in self.kinds}
        self.fatal, self.open_faults = [], []
        for _ in range(size // 4):
            data, closes = _wire_fault(rng)
            (self.fatal if closes else self.open_faults).append(data)

    def any_message(self, rng: random.Random, kinds=None) -> bytes:
        return rng.choice(self.message[rng.choice(kinds or self.kinds)])


# --- reading replies ------------------------------------------------------------------------------

class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.frames = 0
        self.sessions = 0
        self.codes: collections.Counter = collections.Counter()
        self.kinds: collections.Counter = collections.Counter()
        self.sent_kinds: collections.Counter = collections.Counter()
        self.bad_replies = 0

    def add(self, frames: int, replies: list[dict], sent: collections.Counter) -> None:
        with self.lock:
            self.frames += frames
            self.sessions += 1
            self.sent_kinds.update(sent)
            for m in replies:
                self.kinds[m.get("type")] += 1
                if m.get("type") == "error":
                    self.codes[m.get("code")] += 1


def _parse(buf: bytes) -> tuple[list[dict], int]:
    out, pos = [], 0
    while len(buf) - pos >= 4:
        n = int.from_bytes(buf[pos:pos + 4], "big")
        if len(buf) - pos - 4 < n:
            break
        out.append(wire.decode(buf[pos + 4:pos + 4 + n]))
        pos += 4 + n
    return out, pos


def _read_to_end(s: socket.socket, timeout: float = 5.0) -> bytes:
    s.settimeout(timeout)
    chunks = []
    try:
        while True:
            c = s.recv(1 << 16)
            if not c:
                break
            chunks.append(c)
    except (OSError, socket.timeout):
        pass
    return b"".join(chunks)


def _connect(port: int, rng: random.Random) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.bind((f"127.{rng.randrange(1, 255)}.{rng.randrange(256)}.{rng.randrange(1, 255)}", 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def _hello(**kw) -> bytes:
    return wire.frame({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Fuzz", **kw})


def session(port: int, corpus: Corpus, rng: random.Random, stats: Stats) -> None:
    """One short hostile connection (≤ 41 frames: under the host's 50-a-second flood limit,
    except in a flood session, which the host must close)."""
    kind = rng.choices(["prehello", "spectator", "probe", "flood", "fatal", "truncated"],
                       weights=[30, 40, 10, 1, 12, 5])[0]
    sent: collections.Counter = collections.Counter()
    out = []
    if kind == "prehello":
        for _ in range(rng.randrange(1, 41)):
            out.append(corpus.any_message(rng))
        sent["message"] += len(out)
    elif kind == "spectator":
        out.append(_hello(spectate=True, name=rng.choice(["Fuzz", "\x1b[2J", "Olga", "Bot 3"])))
        for _ in range(rng.randrange(1, 40)):
            out.append(rng.choice(corpus.open_faults) if rng.random() < 0.02 else corpus.any_message(rng))
        sent["message"] += len(out)
    elif kind == "probe":
        out.append(rng.choice([
            _hello(protocol=rng.choice(["2.0", "1", "", "1.0\x00", "x" * 16])),
            _hello(token=rng.choice(["x" * 24, "", "A" * 128])), _hello(seat=rng.randrange(-5, 70)),
            _hello(table=rng.choice(["nope", "\x1b]0;x\x07", ""])), _hello(password="guess"),
            _hello(name=rng.choice(["", "\x00\x01", " " * 100])), _hello(spectate=True, lang="x" * 16)]))
        sent["hello"] += 1
    elif kind == "flood":
        out.append(_hello(spectate=True))
        out.extend([wire.frame({"type": "ping", "id": i}) for i in range(250)])
        sent["flood"] += len(out)
    elif kind == "fatal":
        n = rng.randrange(0, 10)
        out.extend(corpus.any_message(rng) for _ in range(n))
        out.append(rng.choice(corpus.fatal))
        sent["message"] += n
        sent["fatal"] += 1
    else:
        good = corpus.any_message(rng)
        out.append(good[:rng.randrange(1, len(good))])
        sent["truncated"] += 1
    try:
        s = _connect(port, rng)
    except OSError:
        stats.add(0, [], collections.Counter(connect_failed=1))
        return
    try:
        s.sendall(b"".join(out))
        s.shutdown(socket.SHUT_WR)
        data = _read_to_end(s)
    except OSError:
        data = b""
    finally:
        s.close()
    replies, _ = _parse(data)
    stats.add(len(out), replies, sent)


class Seat(threading.Thread):
    """A seat the fuzzer holds: plays legal actions from its views (so the match goes on) and
    sends hostile actions from the seat between them; waits in the match's last deal until
    ``release`` is set, then leaves (the host plays the seat to the end)."""

    def __init__(self, port: int, seat: int, corpus: Corpus, rng: random.Random, stats: Stats, deals: int,
                 release: threading.Event, target: int) -> None:
        super().__init__(daemon=True)
        self.port, self.seat, self.corpus, self.rng, self.stats = port, seat, corpus, rng, stats
        self.deals, self.release, self.target = deals, release, target
        self.error = None
        self.moves = 0

    def run(self) -> None:
        try:
            self._run()
        except Exception as exc:  # noqa: BLE001 - reported
            self.error = repr(exc)

    def _run(self) -> None:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.sendall(_hello(name=f"Fuzz seat {self.seat}", seat=self.seat, bot=True))
        buf, view, replies = b"", None, []
        s.settimeout(0.05)
        window, count = time.monotonic(), 0
        while True:
            try:
                chunk = s.recv(1 << 16)
                if not chunk:
                    break
                buf += chunk
            except socket.timeout:
                pass
            msgs, used = _parse(buf)
            buf = buf[used:]
            for m in msgs:
                if m["type"] == "view":
                    view = m["view"]
                elif m["type"] == "closing":
                    return
            replies.extend(msgs)
            if view is None:
                continue
            if time.monotonic() - window >= 1.0:
                window, count = time.monotonic(), 0
            # deal k may end once k/deals of the frames are sent: the match spans the whole fuzz
            allowed = min(self.deals, 1 + self.stats.frames * self.deals // max(1, self.target))
            hold = view.get("deal_no", 0) >= allowed and not self.release.is_set()
            if self.release.is_set():
                s.sendall(wire.frame({"type": "leave"}))
                self.stats.add(1, replies, collections.Counter(seat=1))
                _read_to_end(s, 2.0)
                return
            if count < 40:  # hostile acts from a seat, under the flood limit
                n = min(5, 40 - count)
                frames = []
                for _ in range(n):
                    if self.rng.random() < 0.5:
                        frames.append(self.corpus.any_message(self.rng, ["act"]))
                    else:
                        frames.append(wire.frame({"type": "act", "version": view["version"] - self.rng.randrange(2),
                                                  "action": [self.rng.choice(["play", "buy", "frap", "discard",
                                                                              "take_trump", "pass", "look"]),
                                                             _values(self.rng)][:self.rng.randrange(1, 3)]}))
                s.sendall(b"".join(frames))
                count += n
                self.stats.add(n, [], collections.Counter(seat=n))
            if view.get("actions") and not hold:
                a = self.rng.choice(view["actions"])["action"]
                s.sendall(wire.frame({"type": "act", "action": a, "version": view["version"]}))
                self.moves += 1
                view = dict(view, actions=[])
        self.stats.add(0, replies, collections.Counter())


def rss(pid: int) -> dict:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS", "VmHWM")):
                    k, v = line.split(":")
                    out[k] = int(v.split()[0])  # kB
    except OSError:
        pass
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=1_000_000, help="hostile frames to send (default 1,000,000)")
    ap.add_argument("--workers", type=int, default=6, help="threads opening hostile sessions (default 6)")
    ap.add_argument("--deals", type=int, default=8, help="deals the match lasts (default 8)")
    ap.add_argument("--max-seconds", type=float, default=1800, help="stop fuzzing after this long (default 1800)")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--host-arg", action="append", default=[], help="one more argument for `frapnet host`")
    ap.add_argument("--keep-log", action="store_true", help="keep the host's log even if all went well")
    a = ap.parse_args(argv)

    log = tempfile.NamedTemporaryFile(prefix="frapnet-fuzz-", suffix=".log", delete=False)
    cmd = [sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1", "--no-announce",
           "--players", "6", "--bots", "4", "--deals", str(a.deals), "--seed", str(a.seed), "--pause", "0",
           "--bot-delay", "0", "--grace", "600", "--turn-time", "0", *a.host_arg]
    host = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        port = int(host.stdout.readline().rsplit(":", 1)[1])
        corpus = Corpus(a.seed)
        stats = Stats()
        release = threading.Event()
        seats = [Seat(port, i, corpus, random.Random(f"{a.seed}/seat{i}"), stats, a.deals, release, a.frames)
                 for i in (0, 1)]
        for t in seats:
            t.start()
        time.sleep(1.0)
        before = rss(host.pid)
        began = time.monotonic()
        stop = threading.Event()

        def worker(i: int) -> None:
            rng = random.Random(f"{a.seed}/{i}")
            while not stop.is_set() and stats.frames < a.frames and time.monotonic() - began < a.max_seconds:
                if host.poll() is not None:
                    return
                session(port, corpus, rng, stats)

        def progress() -> None:
            last = 0
            while not stop.wait(10):
                r = rss(host.pid)
                print(f"  {time.monotonic() - began:5.0f} s: {stats.frames:,} frames, {stats.sessions:,} sessions "
                      f"({(stats.frames - last) / 10:,.0f}/s), host RSS {r.get('VmRSS', 0) / 1024:.1f} MiB",
                      flush=True)
                last = stats.frames
        workers = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(a.workers)]
        reporter = threading.Thread(target=progress, daemon=True)
        reporter.start()
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        fuzz_s = time.monotonic() - began
        stop.set()
        after = rss(host.pid)
        release.set()
        for t in seats:
            t.join(30)
        try:
            out, _ = host.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            host.kill()
            out, _ = host.communicate()
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
        log.close()
    with open(log.name, encoding="utf-8", errors="replace") as f:
        text = f.read()
    tracebacks = text.count("Traceback")
    critical = sum(1 for line in text.splitlines() if "#critical]" in line)
    errors = sum(1 for line in text.splitlines() if "#error]" in line)
    result = None
    for line in reversed(out.strip().splitlines()):
        try:
            result = json.loads(line)
            break
        except ValueError:
            continue
    finished = host.returncode == 0 and result is not None and result.get("deals") == a.deals
    balanced = result is not None and sum(result["balances"]) + result["pot"] == 0  # F6
    report = {
        "frames": stats.frames, "sessions": stats.sessions, "seconds": round(fuzz_s, 1),
        "frames_per_s": round(stats.frames / fuzz_s) if fuzz_s else None, "sent": dict(stats.sent_kinds),
        "replies": dict(stats.kinds), "error_codes": dict(stats.codes.most_common()),
        "internal": stats.codes.get("internal", 0), "tracebacks": tracebacks, "critical_lines": critical,
        "error_lines": errors, "seat_moves": [t.moves for t in seats], "seat_errors": [t.error for t in seats],
        "match_finished": finished, "exit": host.returncode, "deals": result and result.get("deals"),
        "balances_plus_pot_zero_F6": balanced, "rss_kib_before": before.get("VmRSS"),
        "rss_kib_after": after.get("VmRSS"), "rss_kib_peak": after.get("VmHWM"),
        "host_log": log.name, "host_log_bytes": len(text.encode()), "command": " ".join(cmd[2:]),
    }
    ok = tracebacks == 0 and critical == 0 and report["internal"] == 0 and finished and balanced
    if ok and not a.keep_log:
        os.unlink(log.name)
        report["host_log"] = None
    print(json.dumps(report, indent=1))
    print("fuzz: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
