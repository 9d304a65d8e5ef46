"""Attack probes against a live `frapnet host` on loopback (robustness/security review).

    .venv/bin/python bench/attack_probe.py --port 17777 [--web 18080] [--log HOSTLOG] [probe …]

The host must already run, e.g.

    frapnet host --bind 127.0.0.1 --port 17777 --no-announce --players 4 --bots 2 --level random \
        --db /tmp/atk/j.sqlite3 --grace 30 --turn-time 0 --web 18080 > /tmp/atk/host.log 2>&1

Each probe prints what it sent and what came back; `--log` scans the host's log for tracebacks
afterwards. Probes take seats 0 and 1 (the two free seats) when they need to.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import os
import socket
import struct
import sys
import time

import msgpack

HOST = "127.0.0.1"
PORT = 17777
WEB = 18080


# --- a tiny client -----------------------------------------------------------------------------

def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def pack(msg) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)


def hello(name="probe", **kw):
    m = {"type": "hello", "protocol": "1.0", "name": name}
    m.update(kw)
    return m


class Conn:
    def __init__(self, src: str | None = None, port: int | None = None) -> None:
        self.s = socket.create_connection((HOST, port or PORT), timeout=5,
                                          source_address=(src, 0) if src else None)
        self.buf = b""
        self.eof = False

    def raw(self, data: bytes) -> None:
        self.s.sendall(data)

    def send(self, msg) -> None:
        self.raw(frame(pack(msg)))

    def recv(self, timeout: float = 1.0) -> list:
        """Every message that arrives within ``timeout`` (stops early at EOF)."""
        out = []
        end = time.time() + timeout
        while time.time() < end and not self.eof:
            self.s.settimeout(max(0.01, end - time.time()))
            try:
                chunk = self.s.recv(1 << 20)
            except socket.timeout:
                break
            except ConnectionResetError:
                self.eof = "reset"
                break
            if not chunk:
                self.eof = True
                break
            self.buf += chunk
            while len(self.buf) >= 4:
                n = int.from_bytes(self.buf[:4], "big")
                if len(self.buf) < 4 + n:
                    break
                body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                out.append(msgpack.unpackb(body, raw=False, strict_map_key=False,
                                           ext_hook=lambda c, d: ("ext", c, d)))
        return out

    def until(self, pred, timeout: float = 10.0) -> list:
        got = []
        end = time.time() + timeout
        while time.time() < end and not self.eof:
            new = self.recv(0.2)
            got += new
            if any(pred(m) for m in new):
                break
        return got

    def close(self) -> None:
        try:
            self.s.close()
        except OSError:
            pass


def errors(msgs) -> list:
    return [(m.get("code"), m.get("rule"), m.get("message")[:140]) for m in msgs if m.get("type") == "error"]


def kinds(msgs) -> list:
    return [m.get("type") for m in msgs]


def last_view(msgs):
    vs = [m["view"] for m in msgs if m.get("type") == "view"]
    return vs[-1] if vs else None


def show(title: str, msgs, conn: Conn | None = None) -> None:
    eof = f" eof={conn.eof}" if conn is not None else ""
    print(f"  {title}: kinds={kinds(msgs)} errors={errors(msgs)}{eof}")


# --- probes ---------------------------------------------------------------------------------------

def p_framing() -> None:
    """Malformed msgpack, wrong/huge length prefixes, trailing bytes, non-map bodies, extensions."""
    cases = {
        "garbage": frame(b"\xc1\xc1\xc1"),
        "truncated map": frame(b"\x82\xa4type"),
        "trailing": frame(pack({"type": "ping", "id": 1}) + b"\x00"),
        "not a map": frame(pack([1, 2, 3])),
        "no type": frame(pack({"id": 1})),
        "type int": frame(pack({"type": 5})),
        "int key": frame(b"\x81\x01\x01"),
        "bad utf8 str": frame(b"\x81\xa4type\xa2\xff\xfe"),
        "huge length": b"\xff\xff\xff\xff" + b"x" * 100,
        "over limit by 1": (262145).to_bytes(4, "big"),
        "zero length": b"\x00\x00\x00\x00",
        "ext -1 timestamp": frame(pack({"type": "ping", "id": msgpack.Timestamp(1, 0)})),
        "ext 5": frame(pack({"type": "ping", "id": msgpack.ExtType(5, b"x")})),
        "ext 1 bad digits": frame(pack({"type": "ping", "id": msgpack.ExtType(1, b"12a")})),
        "ext 1 1001 digits": frame(pack({"type": "ping", "id": msgpack.ExtType(1, b"9" * 1001)})),
        "ext 1 empty": frame(pack({"type": "ping", "id": msgpack.ExtType(1, b"")})),
        "ext 1 '-'": frame(pack({"type": "ping", "id": msgpack.ExtType(1, b"-")})),
        "ext 1 unicode digits": frame(pack({"type": "ping", "id": msgpack.ExtType(1, "١٢".encode())})),
        "deep 33": frame(pack({"type": "ping", "x": _nest(32)})),
        "deep 2000": frame(b"\x82\xa4type\xa4ping\xa1x" + b"\x91" * 2000 + b"\xc0"),
        "str 65537": frame(pack({"type": "ping", "x": "a" * 65537})),
        "array claims 4e9": frame(b"\x82\xa4type\xa4ping\xa1x\xdd\xff\xff\xff\xff"),
        "map claims 4e9": frame(b"\x82\xa4type\xa4ping\xa1x\xdf\xff\xff\xff\xff"),
        "bin claims 4e9": frame(b"\x82\xa4type\xa4ping\xa1x\xc6\xff\xff\xff\xff"),
        "map key bin": frame(b"\x81\xc4\x04type\xa4ping"),
        "map key nil": frame(b"\x82\xa4type\xa4ping\xc0\x01"),
        "dup type keys": frame(b"\x82\xa4type\xa4ping\xa4type\xa5hello"),
        "float nan key val": frame(pack({"type": "ping", "id": float("nan")})),
    }
    for name, data in cases.items():
        c = Conn()
        try:
            c.raw(data)
            msgs = c.recv(1.0)
            show(name, msgs, c)
        except OSError as exc:
            print(f"  {name}: {exc!r}")
        c.close()


def _nest(n):
    v = 0
    for _ in range(n):
        v = [v]
    return v


def p_hello_fields() -> None:
    """Wrong types/sizes in every hello field (before a seat is taken)."""
    cases = {
        "protocol int": {"protocol": 1},
        "protocol 17 chars": {"protocol": "1." + "0" * 15},
        "protocol '2.0'": {"protocol": "2.0"},
        "protocol '1.0\\n'": {"protocol": "1.0\n"},
        "protocol arabic digits": {"protocol": "\u0661.\u0660"},
        "protocol '1'": {"protocol": "1"},
        "name list": {"name": ["a"]},
        "name 129": {"name": "a" * 129},
        "name only controls": {"name": "\x1b\x07\u202e\u200b"},
        "name only spaces": {"name": " \t\u00a0\u3000 "},
        "name hangul filler": {"name": "\u3164", "spectate": True},
        "name braille blank": {"name": "\u2800", "spectate": True},
        "lang int": {"lang": 5},
        "lang 17": {"lang": "e" * 17},
        "password int": {"password": 1234},
        "token int": {"token": 5},
        "token empty str": {"token": "", "spectate": True},
        "token 129": {"token": "x" * 129},
        "token wrong": {"token": "A" * 24},
        "seat -1": {"seat": -1},
        "seat 64": {"seat": 64},
        "seat 5 (no such)": {"seat": 5},
        "seat 2 (bot kept)": {"seat": 2},
        "seat true": {"seat": True},
        "seat float": {"seat": 1.0},
        "seat ext1 2^70": {"seat": msgpack.ExtType(1, str(2 ** 70).encode())},
        "spectate str": {"spectate": "yes"},
        "table 65": {"table": "t" * 65},
        "table unknown ESC": {"table": "\x1b[2Jnope"},
        "bot str": {"bot": "yes"},
        "rematch int": {"rematch": 1},
    }
    for name, fields in cases.items():
        c = Conn()
        c.send(hello(**fields))
        msgs = c.recv(1.0)
        show(name, msgs, c)
        c.close()
    c = Conn()
    c.send({"type": "act", "action": ["look"], "version": 1})
    c.send({"type": "chat", "text": "hi"})
    c.send({"type": "bogus\x1b[31m" + "X" * 5000})
    c.send({"type": "ping", "id": "p"})
    show("before hello: act, chat, unknown, ping", c.recv(1.0), c)
    c.close()


def spectator(name: str, **kw) -> tuple[Conn, list]:
    c = Conn()
    c.send(hello(name, spectate=True, **kw))
    msgs = c.until(lambda m: m.get("type") == "view" or m.get("type") == "error", 5)
    return c, msgs


def chat_name(c: Conn) -> str | None:
    c.send({"type": "chat", "text": "who am I"})
    for m in c.until(lambda m: m.get("type") == "chat", 3):
        if m.get("type") == "chat" and m.get("text") == "who am I":
            return m.get("name")
    return None


def p_names() -> None:
    """Same-name seating and unicode tricks (spectators; the name shows in chat)."""
    tricks = ["Olga", "olga", "OLGA", "\uff2f\uff4c\uff47\uff41", " Olga ", "Ol\u200bga", "\u041elga",
              "Olg\u0430", "Olga\u0301", "\u24c4lga", "Olga\u3164", "O\u0336lga", "\u202eagl\u202cO",
              "Olga\x1b[31m", "Olga\nAdmin", "a" * 40, "\U0001d40elga", "Ol\u0261a"]
    conns = []
    for t in tricks:
        c, msgs = spectator(t)
        errs = errors(msgs)
        seen = None if errs else chat_name(c)
        print(f"  sent {t!r:34} -> {seen!r} {errs}")
        conns.append(c)
    for c in conns:
        c.close()


CARD_RE = None


def cards_in(value, out: set) -> set:
    """Every card named anywhere in ``value`` (canonical strings and suit-symbol text)."""
    import re
    global CARD_RE
    if CARD_RE is None:
        CARD_RE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([SHDC\u2660\u2665\u2666\u2663])(?![a-z])")
    sym = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, str):
            for r, su in CARD_RE.findall(v):
                out.add(r + sym.get(su, su))
    return out


SEATED: list = []
"""Every seated probe client made so far; each leaves its seat when its probe ends (:func:`main`)."""


def leave_all() -> None:
    """The probe's seated clients leave their seats (``leave``) and close: the next probe finds the
    seats free (a seat merely disconnected would be held for the grace period)."""
    while SEATED:
        p = SEATED.pop()
        try:
            p.c.send({"type": "leave"})
            p.c.recv(0.2)
        except OSError:
            pass
        p.c.close()


class Player:
    """A seated probe client: keeps its last view and every card it was ever sent."""

    def __init__(self, name: str, **kw) -> None:
        SEATED.append(self)
        self.c = Conn()
        self.c.send(hello(name, **kw))
        self.msgs = self.c.until(lambda m: m.get("type") in ("view", "error"), 5)
        self.welcome = next((m for m in self.msgs if m.get("type") == "welcome"), None)
        self.seat = self.welcome["seat"] if self.welcome else None
        self.token = self.welcome["token"] if self.welcome else None
        self.view = last_view(self.msgs)
        self.seen: set = set()
        self.own: set = set()  # cards that were ever in this seat's own hand/discards
        self._absorb(self.msgs)

    def _absorb(self, msgs) -> None:
        for m in msgs:
            cards_in(m, self.seen)
            if m.get("type") == "view":
                self.view = m["view"]
                self.own.update(self.view.get("hand") or [])
                self.own.update(self.view.get("discards") or [])

    def pump(self, t: float = 0.3) -> list:
        msgs = self.c.recv(t)
        self._absorb(msgs)
        self.msgs += msgs
        return msgs

    def act(self, action, version=None, **kw) -> list:
        m = {"type": "act", "action": action, "version": self.view["version"] if version is None else version}
        m.update(kw)
        self.c.send(m)
        return self.pump(0.4)


def hostile_acts(p: Player) -> dict:
    v = p.view["version"]
    return {
        "unknown verb": {"action": ["teleport"], "version": v},
        "verb 33 chars": {"action": ["x" * 33], "version": v},
        "verb int": {"action": [5], "version": v},
        "empty action": {"action": [], "version": v},
        "action str": {"action": "play", "version": v},
        "5 elements": {"action": ["play", 1, 2, 3, 4], "version": v},
        "arg map": {"action": ["play", {"a": 1}], "version": v},
        "arg bool": {"action": ["play", True], "version": v},
        "arg nested list": {"action": ["buy", [["AS"]]], "version": v},
        "arg 65 list": {"action": ["buy", ["AS"] * 65], "version": v},
        "arg str 65": {"action": ["play", "A" * 65], "version": v},
        "arg 20-digit int": {"action": ["play", 10 ** 19], "version": v},
        "arg bin": {"action": ["play", b"AS"], "version": v},
        "arg float": {"action": ["play", 1.5], "version": v},
        "play card not held": {"action": ["play", "RJ"], "version": v},
        "play garbage card": {"action": ["play", "\x1b[2J\u202e"], "version": v},
        "buy dup cards": {"action": ["buy", ["AS", "AS"]], "version": v},
        "version missing": {"action": ["pass"]},
        "version str": {"action": ["pass"], "version": "1"},
        "version float": {"action": ["pass"], "version": float(v)},
        "version bool": {"action": ["pass"], "version": True},
        "version -1": {"action": ["pass"], "version": -1},
        "version future": {"action": ["pass"], "version": v + 1000},
        "version 2^63-1": {"action": ["pass"], "version": 2 ** 63 - 1},
        "version 20 digits": {"action": ["pass"], "version": 10 ** 19},
        "version ext1 huge": {"action": ["pass"], "version": msgpack.ExtType(1, b"9" * 999)},
        "seat other": {"action": ["pass"], "version": v, "seat": (p.seat + 1) % 4},
        "seat 99": {"action": ["pass"], "version": v, "seat": 99},
        "seat str": {"action": ["pass"], "version": v, "seat": "0"},
    }


def p_play() -> None:
    """Take seats 0 and 1, throw hostile acts every turn, play on legally, compare views for leaks."""
    import random as _r
    a = Player("Alice", rematch=False)
    b = Player("Bob")
    spec = Player("Watcher", spectate=True)
    print(f"  seated: Alice seat {a.seat}, Bob seat {b.seat}, spectator {spec.seat}")
    players = [a, b]
    refused_total = {}
    leaks = []
    changed_on_refusal = []
    steps = 0
    deadline = time.time() + 90
    rnd = _r.Random(7)
    while time.time() < deadline and steps < 60:
        for p in players + [spec]:
            p.pump(0.2)
        mover = next((p for p in players if p.view and p.view.get("actions")), None)
        idle = next((p for p in players if p is not mover and p.view), None)
        if mover is None:
            if any(m.get("type") == "closing" for p in players for m in p.msgs):
                break
            continue
        v0 = mover.view["version"]
        # out of turn: the idle seat tries the mover's legal actions
        if idle is not None:
            for act in mover.view["actions"][:3]:
                r = idle.act(act["action"], mover.view["version"])
                for e in errors(r):
                    refused_total.setdefault(("out of turn", e[0], e[1]), 0)
                    refused_total[("out of turn", e[0], e[1])] += 1
        if steps % 3 == 0:
            for name, m in hostile_acts(mover).items():
                mover.c.send(dict(type="act", **m))
                r = mover.pump(0.05)
            r = mover.pump(0.6)
            for e in errors(mover.msgs[-60:]):
                refused_total.setdefault((e[0], e[1]), 0)
            if any(m.get("type") == "view" and m["view"]["version"] != v0 for m in r):
                # bots may have moved meanwhile; only a change of *our* actions with no accepted act matters
                pass
            if mover.view["version"] != v0 and mover.view.get("actions") == []:
                changed_on_refusal.append((steps, v0, mover.view["version"]))
        if not mover.view.get("actions"):
            continue
        choice = rnd.choice(mover.view["actions"])["action"]
        ver = mover.view["version"]
        r = mover.act(choice, ver)
        # replay the same act (sent twice): must be stale
        r2 = mover.act(choice, ver)
        for e in errors(r2):
            refused_total.setdefault(("replay", e[0]), 0)
            refused_total[("replay", e[0])] += 1
        steps += 1
        # leak check: cards the other seat or the spectator saw that are in my hand and never public
    for p in players + [spec]:
        p.pump(0.5)
    public = spec.seen
    for x, y in ((a, b), (b, a)):
        bad = (x.seen & y.own) - public - x.own
        if bad:
            leaks.append((x.seat, y.seat, sorted(bad)))
    spec_hand = [m["view"].get("hand") for m in spec.msgs if m.get("type") == "view" and m["view"].get("hand")]
    print(f"  steps played: {steps}; refusal kinds: {sorted(refused_total.items(), key=str)}")
    codes = {}
    for p in players:
        for m in p.msgs:
            if m.get("type") == "error":
                codes[(m["code"], m.get("rule"))] = codes.get((m["code"], m.get("rule")), 0) + 1
    print(f"  error codes received by the seats: {codes}")
    msgs_by_code = {}
    for p in players:
        for m in p.msgs:
            if m.get("type") == "error":
                msgs_by_code.setdefault(m["code"], set()).add(m["message"][:110])
    for k, v in msgs_by_code.items():
        print(f"    {k}: {sorted(v)[:6]}")
    print(f"  leaks (viewer seat, owner seat, cards): {leaks}")
    print(f"  spectator views holding a hand: {len(spec_hand)}")
    print(f"  version changed with no accepted act: {changed_on_refusal}")
    global PLAYERS
    PLAYERS = (a, b, spec)


def wait_mover(players, t=20):
    end = time.time() + t
    while time.time() < end:
        for p in players:
            p.pump(0.2)
            if p.view and p.view.get("actions"):
                return p
    return None


def p_acts() -> None:
    """Each hostile act alone, by the seat to move: its answer, and that nothing changed."""
    a = Player("Ann")
    b = Player("Ben")
    mover = wait_mover([a, b])
    other = b if mover is a else a
    for name, m in hostile_acts(mover).items():
        v0, acts0 = mover.view["version"], mover.view["actions"]
        r = mover.act(m.pop("action"), **{"version": m.pop("version")} if "version" in m else {}, **m) \
            if "version" in m else None
        if r is None:  # version missing: send by hand
            mover.c.send(dict(type="act", **hostile_acts(mover)[name]))
            r = mover.pump(0.4)
        print(f"  {name:20}: {errors(r)} view changed: {mover.view['version'] != v0}")
    # a spectator's act, nonce_hash, nonce; a seat's late/garbage nonces
    s = Player("Spec", spectate=True)
    s.c.send({"type": "act", "action": ["pass"], "version": 1})
    s.c.send({"type": "nonce_hash", "deal": 1, "hash": "0" * 64})
    s.c.send({"type": "rematch", "accept": True})
    show("spectator act/nonce_hash/rematch", s.pump(0.5))
    for m in ({"type": "nonce_hash", "deal": 999, "hash": "zz" * 32}, {"type": "nonce", "deal": -1, "nonce": "g" * 64},
              {"type": "nonce_hash", "deal": "1", "hash": "0" * 64}, {"type": "nonce_hash", "deal": 1, "hash": "0" * 65},
              {"type": "nonce", "deal": 10 ** 19, "nonce": "0" * 64}, {"type": "rematch", "accept": "no"},
              {"type": "rematch"}, {"type": "chat", "text": 5}, {"type": "chat"}, {"type": "chat", "text": "x" * 2001},
              {"type": "ping", "id": "x" * 65}, {"type": "ping", "id": [1]}, {"type": "hello", "protocol": "1.0", "name": "again"},
              {"type": "welcome"}, {"type": "view"}, {"type": "x" * 60000}):
        other.c.send(m)
        r = other.pump(0.3)
        print(f"  {str(m)[:70]:72}: {errors(r)}")
    global PLAYERS
    PLAYERS = (a, b, s)


def p_password() -> None:
    """Password guessing per address+name and per table; a seated player's token still gets in.
    Needs a host with --password secret."""
    ok = Player("Owner", password="secret")
    print(f"  owner seated at {ok.seat}")
    res = []
    for i in range(7):
        c = Conn()
        c.send(hello("Guesser", password=f"guess{i}"))
        res.append(errors(c.recv(0.5))[0][2][:60])
        c.close()
    print(f"  7 wrong from one name: {res}")
    c = Conn()
    c.send(hello("Guesser", password="secret"))
    print(f"  right password, same name, now: {errors(c.recv(0.5)) or 'accepted'}")
    c.close()
    # rotate names from one address (and from other loopback addresses)
    res = {}
    for i in range(30):
        c = Conn(src=f"127.0.0.{2 + i % 5}")
        c.send(hello(f"G{i}", password=f"x{i}"))
        e = errors(c.recv(0.5))
        res[e[0][2][:50] if e else "accepted"] = res.get(e[0][2][:50] if e else "accepted", 0) + 1
        c.close()
    print(f"  30 guesses, rotating names and addresses: {res}")
    c = Conn(src="127.0.0.9")
    c.send(hello("Newcomer", password="secret"))
    print(f"  right password from a fresh address during the table lockout: {errors(c.recv(0.5)) or 'accepted'}")
    c.close()
    tok = ok.token
    ok.c.close()
    time.sleep(0.5)
    c = Conn()
    c.send(hello("Owner", password="secret", token=tok))
    r = c.until(lambda m: m.get("type") == "view", 3)
    print(f"  owner back with token + password during lockout: {kinds(r)[:3]} {errors(r)}")
    c.close()
    c = Conn()
    c.send(hello("Owner", token=tok))
    r = c.recv(1)
    print(f"  owner back with token, no password: {kinds(r)[:3]} {errors(r)}")
    c.close()
    c = Conn()
    c.send(hello("Owner", token=tok, password="wrong"))
    r = c.recv(1)
    print(f"  owner back with token, wrong password: {kinds(r)[:3]} {errors(r)}")
    c.close()
    # password with a wrong-type token: must not bypass
    c = Conn()
    c.send(hello("Sneak", token="A" * 24, password="x", seat=0))
    print(f"  fake token + wrong password: {errors(c.recv(0.5))}")
    c.close()


def p_conns() -> None:
    """Pre-hello caps (16 per address, 64 in all), then a seated player reconnects through them."""
    seated = Player("Keeper")
    tok = seated.token
    print(f"  Keeper at seat {seated.seat}")
    mine = []
    for i in range(17):
        mine.append(Conn())
    time.sleep(0.5)
    r = mine[-1].recv(0.5)
    print(f"  17th silent from 127.0.0.1: {errors(r)} eof={mine[-1].eof}")
    others = []
    for i in range(70):
        try:
            others.append(Conn(src=f"127.0.1.{1 + i % 6}"))
        except OSError as exc:
            print("  connect failed", exc)
            break
    time.sleep(1.0)
    pushed = 0
    for c in mine[:16] + others:
        r = c.recv(0.02)
        if any(e[0] == "busy" for e in errors(r)):
            pushed += 1
    print(f"  {len(mine[:16]) + len(others)} silent from 7 addresses: {pushed} got busy (pushed out)")
    seated.c.close()
    time.sleep(0.3)
    back = Conn()
    back.send(hello("Keeper", token=tok))
    r = back.until(lambda m: m.get("type") == "view", 5)
    print(f"  Keeper back with token among them: {kinds(r)[:3]} {errors(r)}")
    newbie = Conn(src="127.0.2.1")
    newbie.send(hello("Late", spectate=True))
    r = newbie.until(lambda m: m.get("type") == "view", 5)
    print(f"  a spectator from a new address: {kinds(r)[:3]} {errors(r)}")
    for c in mine + others:
        c.close()
    newbie.close()
    # slowloris: a pre-hello connection trickling a frame byte by byte must still time out
    c = Conn(src="127.0.3.1")
    body = frame(pack(hello("Slow")))
    t0 = time.time()
    got = []
    for i in range(len(body) - 1):
        try:
            c.raw(body[i:i + 1])
        except OSError:
            break
        got += c.recv(0.7)
        if c.eof:
            break
    print(f"  slowloris pre-hello: closed after {time.time() - t0:.1f}s with {errors(got)} eof={c.eof}")
    c.close()
    # a joined spectator trickling a never-ending frame (held open: that is allowed, but it must not stall others)
    back.close()
    global KEEPER_TOKEN
    KEEPER_TOKEN = tok


def p_reconnect_loop() -> None:
    """A seat reconnecting with its token 200 times fast; the old connection is replaced each time."""
    p = Player("Loopy")
    tok = p.token
    seat = p.seat
    closings = 0
    t0 = time.time()
    prev = p.c
    last = None
    for i in range(200):
        c = Conn()
        c.send(hello("Loopy", token=tok))
        if i % 20 == 0:
            r = c.until(lambda m: m.get("type") == "view", 3)
            if not any(m.get("type") == "welcome" for m in r):
                print(f"  iteration {i}: {kinds(r)} {errors(r)}")
        rp = prev.recv(0.05)
        closings += sum(1 for m in rp if m.get("type") == "closing")
        prev.close()
        prev = c
        last = c
    r = last.until(lambda m: m.get("type") == "view", 5)
    print(f"  200 reconnects in {time.time() - t0:.1f}s; last: {kinds(r)[:3]} {errors(r)}; closings seen {closings}")
    # and a replayed token of a seat given up before the match
    w = next((m for m in r if m.get("type") == "welcome"), None)
    if w:
        print(f"  seat after the loop: {w['seat']} (was {seat}); names {[x['name'] for x in w['players']]}")
    last.send({"type": "leave"})
    r = last.recv(1)
    print(f"  leave: {kinds(r)}")
    c = Conn()
    c.send(hello("Loopy", token=tok))
    r = c.recv(1)
    print(f"  the token again after leave: {kinds(r)[:3]} {errors(r)}")
    c.close()


# --- the WebSocket (browser) path ------------------------------------------------------------------

def ws_frame(opcode: int, payload: bytes, fin: bool = True, mask: bool = True, rsv: int = 0,
             length: int | None = None) -> bytes:
    """One client WebSocket frame; ``length`` overrides the length field (a lie)."""
    n = len(payload) if length is None else length
    b0 = (0x80 if fin else 0) | (rsv << 4) | opcode
    if n < 126:
        head = bytes([b0, (0x80 if mask else 0) | n])
    elif n < 1 << 16:
        head = bytes([b0, (0x80 if mask else 0) | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([b0, (0x80 if mask else 0) | 127]) + n.to_bytes(8, "big")
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(c ^ key[i % 4] for i, c in enumerate(payload))


class WS:
    """A raw WebSocket client (no library: it can send anything)."""

    def __init__(self, origin: str | None = "default", host: str | None = "default", extra: bytes = b"",
                 key: bytes | None = None, src: str | None = None) -> None:
        self.s = socket.create_connection((HOST, WEB), timeout=5, source_address=(src, 0) if src else None)
        origin = f"http://{HOST}:{WEB}" if origin == "default" else origin
        host = f"{HOST}:{WEB}" if host == "default" else host
        key = key if key is not None else base64.b64encode(os.urandom(16))
        req = b"GET /ws HTTP/1.1\r\n"
        if host is not None:
            req += b"Host: " + host.encode("latin-1") + b"\r\n"
        if origin is not None:
            req += b"Origin: " + origin.encode("latin-1") + b"\r\n"
        req += (b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                b"Sec-WebSocket-Key: " + key + b"\r\n" + extra + b"\r\n")
        self.s.sendall(req)
        self.buf = b""
        self.status = None
        self.eof = False
        self.close_code = None
        self._read_head()

    def _read_head(self) -> None:
        end = time.time() + 3
        while b"\r\n\r\n" not in self.buf and time.time() < end:
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                break
            if not d:
                self.eof = True
                break
            self.buf += d
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        self.head = head.decode("latin-1")
        self.status = int(self.head.split(" ")[1]) if self.head.startswith("HTTP/") else None
        if self.status != 101:
            self.body = self.buf
            try:
                self.s.settimeout(0.5)
                self.body += self.s.recv(65536)
            except OSError:
                pass

    def send(self, msg) -> None:
        self.s.sendall(ws_frame(2, pack(msg)))

    def raw(self, data: bytes) -> None:
        self.s.sendall(data)

    def recv(self, timeout: float = 1.0) -> list:
        out = []
        end = time.time() + timeout
        first = True
        while time.time() < end and not self.eof:
            if not first:
                self.s.settimeout(max(0.01, end - time.time()))
                try:
                    d = self.s.recv(1 << 20)
                except socket.timeout:
                    break
                except ConnectionResetError:
                    self.eof = "reset"
                    break
                if not d:
                    self.eof = True
                    break
                self.buf += d
            first = False
            while len(self.buf) >= 2:
                op, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
                pos = 2
                if n == 126:
                    if len(self.buf) < 4:
                        break
                    n, pos = int.from_bytes(self.buf[2:4], "big"), 4
                elif n == 127:
                    if len(self.buf) < 10:
                        break
                    n, pos = int.from_bytes(self.buf[2:10], "big"), 10
                if len(self.buf) < pos + n:
                    break
                payload, self.buf = self.buf[pos:pos + n], self.buf[pos + n:]
                if op == 2:
                    out.append(msgpack.unpackb(payload, raw=False, strict_map_key=False,
                                               ext_hook=lambda c, d: ("ext", c, d)))
                elif op == 8:
                    self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                    out.append({"type": "<ws close>", "code": self.close_code, "reason": payload[2:].decode("utf-8", "replace")})
                elif op == 9:
                    out.append({"type": "<ws ping>"})
                elif op == 1:
                    out.append({"type": "<ws text>", "text": payload[:100]})
        return out

    def close(self) -> None:
        try:
            self.s.close()
        except OSError:
            pass


def wshow(title, msgs, w) -> None:
    print(f"  {title}: {[(m.get('type'), m.get('code')) for m in msgs][:6]} {errors(msgs)} eof={w.eof}")


def p_web_origin() -> None:
    """The upgrade's Origin/Host check and malformed upgrade headers."""
    me = f"{HOST}:{WEB}"
    cases = [
        ("no Origin", None, "default", b""),
        ("Origin null", "null", "default", b""),
        ("other site", "http://evil.example", "default", b""),
        ("other port", f"http://{HOST}:1", "default", b""),
        ("rebinding name", "http://evil.example:%d" % WEB, "evil.example:%d" % WEB, b""),
        ("no Host", f"http://{me}", None, b""),
        ("file origin", "file://", "default", b""),
        ("ws scheme", f"ws://{me}", "default", b""),
        ("https same", f"https://{me}", "default", b""),
        ("upper case", f"HTTP://{me.upper()}", "default", b""),
        ("localhost.", f"http://localhost.:{WEB}", f"localhost.:{WEB}", b""),
        ("127.1 short", f"http://127.1:{WEB}", f"127.1:{WEB}", b""),
        ("userinfo", f"http://a@{me}", f"a@{me}", b""),
        ("ok", f"http://{me}", "default", b""),
        ("bad key", f"http://{me}", "default", b"", b"not-base64!!"),
        ("empty key", f"http://{me}", "default", b"", b""),
        ("non-ascii protocol", f"http://{me}", "default", b"Sec-WebSocket-Protocol: \xff\xfe\r\n"),
        ("extension deflate", f"http://{me}", "default", b"Sec-WebSocket-Extensions: permessage-deflate\r\n"),
        ("bogus extension", f"http://{me}", "default", b"Sec-WebSocket-Extensions: x-evil; a=\"\r\n"),
        ("protocol list", f"http://{me}", "default", b"Sec-WebSocket-Protocol: a, b, \"c\r\n"),
        ("non-ascii origin", "http://\xe9vil", "default", b""),
        ("second Origin", f"http://{me}", "default", b"Origin: http://evil.example\r\n"),
        ("second Host", f"http://evil.example:{WEB}", "default", f"Host: evil.example:{WEB}\r\n".encode()),
    ]
    for case in cases:
        title, origin, host, extra = case[:4]
        key = case[4] if len(case) > 4 else None
        w = WS(origin, host, extra, key)
        first = w.head.splitlines()[0] if w.head else "(nothing)"
        body = getattr(w, "body", b"")[:120]
        print(f"  {title:20}: {first} {body!r}")
        w.close()


def p_web_frames() -> None:
    """Malformed WebSocket frames, over-limit messages, fragmentation, text, control-frame abuse."""
    def fresh(joined: bool = True):
        w = WS()
        if w.status != 101:
            print("  upgrade failed", w.head[:80])
            return w
        if joined:
            w.send(hello("Webby", spectate=True))
            w.recv(0.8)
        return w
    big = pack({"type": "chat", "text": "x"}) + b""
    cases = {
        "text message": lambda w: w.raw(ws_frame(1, b'{"type":"ping"}')),
        "text invalid utf8": lambda w: w.raw(ws_frame(1, b"\xff\xfe")),
        "unmasked binary": lambda w: w.raw(ws_frame(2, pack({"type": "ping", "id": 1}), mask=False)),
        "rsv bits": lambda w: w.raw(ws_frame(2, pack({"type": "ping", "id": 1}), rsv=7)),
        "opcode 3": lambda w: w.raw(ws_frame(3, b"x")),
        "opcode 0xB": lambda w: w.raw(ws_frame(0xB, b"x")),
        "continuation first": lambda w: w.raw(ws_frame(0, b"x")),
        "ping 126 bytes": lambda w: w.raw(ws_frame(9, b"x" * 126)),
        "fragmented ping": lambda w: w.raw(ws_frame(9, b"x", fin=False)),
        "close bad code": lambda w: w.raw(ws_frame(8, (999).to_bytes(2, "big"))),
        "close 1-byte": lambda w: w.raw(ws_frame(8, b"\x03")),
        "close bad utf8": lambda w: w.raw(ws_frame(8, (1000).to_bytes(2, "big") + b"\xff")),
        "length 2^63": lambda w: w.raw(ws_frame(2, b"", length=(1 << 63) - 1)),
        "length 2^64-1 (MSB)": lambda w: w.raw(bytes([0x82, 0xFF]) + b"\xff" * 8 + b"\0\0\0\0"),
        "binary 262145": lambda w: w.raw(ws_frame(2, b"\x81" + b"\0" * 262144)),
        "fragments to 400 KiB": lambda w: [w.raw(ws_frame(2 if i == 0 else 0, b"\0" * 65536, fin=False))
                                           for i in range(7)],
        "garbage msgpack": lambda w: w.raw(ws_frame(2, b"\xc1")),
        "trailing bytes": lambda w: w.raw(ws_frame(2, pack({"type": "ping"}) + b"\0")),
        "empty binary": lambda w: w.raw(ws_frame(2, b"")),
        "interleaved text in binary": lambda w: (w.raw(ws_frame(2, b"\x81", fin=False)),
                                                 w.raw(ws_frame(1, b"x"))),
        "ping in fragments ok": lambda w: (w.raw(ws_frame(2, pack({"type": "ping", "id": 7})[:3], fin=False)),
                                           w.raw(ws_frame(9, b"hi")),
                                           w.raw(ws_frame(0, pack({"type": "ping", "id": 7})[3:]))),
        "4-byte prefix inside": lambda w: w.raw(ws_frame(2, frame(pack({"type": "ping", "id": 1})))),
        "deep 2000": lambda w: w.raw(ws_frame(2, b"\x82\xa4type\xa4ping\xa1x" + b"\x91" * 2000 + b"\xc0")),
        "1000 tiny fragments": lambda w: [w.raw(ws_frame(2 if i == 0 else 0, b"\x81" if i == 0 else b"", fin=False))
                                          for i in range(1000)],
    }
    for name, fn in cases.items():
        w = fresh()
        try:
            fn(w)
        except OSError as exc:
            print(f"  {name}: send failed {exc!r}")
        r = w.recv(1.5)
        wshow(name, r, w)
        w.close()
    # before hello: the same caps as TCP
    w = fresh(False)
    w.send({"type": "act", "action": ["pass"], "version": 1})
    w.send({"type": "ping", "id": "x"})
    wshow("before hello act+ping", w.recv(1), w)
    w.close()
    # slow: an upgraded WebSocket that never says hello must be closed after 10 s
    w = fresh(False)
    t0 = time.time()
    r = []
    while time.time() - t0 < 14 and not w.eof:
        r += w.recv(1)
    print(f"  silent WebSocket: {[(m.get('type'), m.get('code')) for m in r]} after {time.time() - t0:.1f}s eof={w.eof}")
    w.close()


def http(req: bytes, src: str | None = None, wait: float = 1.5) -> str:
    s = socket.create_connection((HOST, WEB), timeout=wait, source_address=(src, 0) if src else None)
    out = b""
    try:
        s.sendall(req)
        while True:
            d = s.recv(65536)
            if not d:
                break
            out += d
    except OSError as exc:
        out += f"<{type(exc).__name__}>".encode()
    s.close()
    return out.decode("latin-1")


def p_web_http() -> None:
    """The web port's HTTP side: methods, paths, oversized and slow requests, connection caps."""
    h = f"Host: {HOST}:{WEB}\r\n".encode()
    for title, req in [
        ("POST /", b"POST / HTTP/1.1\r\n" + h + b"Content-Length: 3\r\n\r\nabc"),
        ("PUT /ws", b"PUT /ws HTTP/1.1\r\n" + h + b"\r\n"),
        ("GET /../etc/passwd", b"GET /../../etc/passwd HTTP/1.1\r\n" + h + b"\r\n"),
        ("GET //app.js", b"GET //app.js HTTP/1.1\r\n" + h + b"\r\n"),
        ("GET /%61pp.js", b"GET /%61pp.js HTTP/1.1\r\n" + h + b"\r\n"),
        ("GET /app.js?x=1", b"GET /app.js?x=1 HTTP/1.1\r\n" + h + b"\r\n"),
        ("table.json lang", b"GET /table.json?lang=%ff%00%1b HTTP/1.1\r\n" + h + b"\r\n"),
        ("table.json many args", b"GET /table.json?" + b"&".join(b"a%d=1" % i for i in range(3000)) +
         b" HTTP/1.1\r\n" + h + b"\r\n"),
        ("header 70 KiB", b"GET / HTTP/1.1\r\n" + h + b"X-Big: " + b"a" * 70000 + b"\r\n\r\n"),
        ("request line garbage", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\0" * 50 + b"\r\n\r\n"),
        ("HTTP/0.9", b"GET /\r\n\r\n"),
        ("chunked GET body 100k", b"GET / HTTP/1.1\r\n" + h + b"Transfer-Encoding: chunked\r\n\r\n" +
         b"".join(b"1000\r\n" + b"a" * 4096 + b"\r\n" for _ in range(25)) + b"0\r\n\r\n"),
        ("content-length huge", b"GET / HTTP/1.1\r\n" + h + b"Content-Length: 99999999999999\r\n\r\nabc"),
    ]:
        r = http(req)
        first = r.splitlines()[0] if r else "(closed, nothing)"
        print(f"  {title:24}: {first[:90]} ({len(r)} bytes)")
    # slow headers: one byte a second must be cut at 10 s
    s = socket.create_connection((HOST, WEB), timeout=2)
    t0 = time.time()
    req = b"GET / HTTP/1.1\r\n" + h + b"X-Slow: " + b"a" * 40
    closed = None
    for i in range(len(req)):
        try:
            s.sendall(req[i:i + 1])
            s.settimeout(0.8)
            d = s.recv(4096)
            if not d:
                closed = time.time() - t0
                break
        except socket.timeout:
            continue
        except OSError:
            closed = time.time() - t0
            break
        if time.time() - t0 > 16:
            break
    print(f"  slow headers: closed after {closed if closed is None else round(closed, 1)} s")
    s.close()
    # 40 idle HTTP connections from one address: the 33rd on should be refused
    conns = []
    for i in range(40):
        conns.append(socket.create_connection((HOST, WEB), timeout=2, source_address=("127.0.5.1", 0)))
    time.sleep(0.5)
    refused = 0
    for c in conns:
        c.settimeout(0.05)
        try:
            if c.recv(10) == b"":
                refused += 1
        except socket.timeout:
            pass
        except OSError:
            refused += 1
    print(f"  40 idle HTTP connections from one address: {refused} closed at once")
    r = http(b"GET /table.json HTTP/1.1\r\n" + h + b"\r\n", src="127.0.5.2")
    print(f"  page from another address meanwhile: {r.splitlines()[0] if r else '(nothing)'}")
    for c in conns:
        c.close()


def p_flood() -> None:
    """Message floods: 60 and 300 pings in a burst, 30 chats in a burst; the seated player is unaffected."""
    seat = Player("Steady")
    for n, kind in ((60, "ping"), (300, "ping"), (30, "chat")):
        c = Conn()
        c.send(hello(f"Flood{n}{kind}", spectate=True))
        c.until(lambda m: m.get("type") == "view", 3)
        msg = {"type": "ping", "id": 1} if kind == "ping" else {"type": "chat", "text": "spam"}
        c.raw(b"".join(frame(pack(msg)) for _ in range(n)))
        r = c.recv(2.5)
        got = [m.get("type") for m in r]
        print(f"  {n} {kind}s: pong {got.count('pong')}, chat {got.count('chat')}, errors {errors(r)}, eof={c.eof}")
        c.close()
    seat.c.send({"type": "ping", "id": "still"})
    r = seat.pump(1.0)
    print(f"  seated player after the floods: {[m.get('type') for m in r if m.get('type') == 'pong']}")
    # unknown types: only 20 refusals per connection are logged
    c = Conn()
    c.send(hello("Logspam", spectate=True))
    c.until(lambda m: m.get("type") == "view", 3)
    for i in range(45):
        c.send({"type": "\x1b[2J\x07\u202e" + "Z" * 200})
    r = c.recv(1.5)
    print(f"  45 unknown types: {len(errors(r))} errors back, eof={c.eof} (check the log: at most 20 lines)")
    c.close()


def p_tokens() -> None:
    """No seat's token ever reaches another connection (two seats and a spectator, a few deals)."""
    a, b = Player("Tia"), Player("Tom")
    s = Player("Tspec", spectate=True)
    end = time.time() + 25
    import random as _r
    rnd = _r.Random(3)
    while time.time() < end:
        for p in (a, b, s):
            p.pump(0.2)
        for p in (a, b):
            if p.view and p.view.get("actions"):
                p.act(rnd.choice(p.view["actions"])["action"])
    for p in (a, b, s):
        p.pump(1.0)
    found = []
    for viewer in (a, b, s):
        blob = repr(viewer.msgs)
        for owner in (a, b):
            if owner is not viewer and owner.token and owner.token in blob:
                found.append((viewer.seat, owner.seat))
    print(f"  messages: {len(a.msgs)}, {len(b.msgs)}, {len(s.msgs)}; a token in another's stream: {found}")
    public = s.seen
    leaks = []
    for x, y in ((a, b), (b, a)):
        bad = (x.seen & y.own) - public - x.own
        if bad:
            leaks.append((x.seat, y.seat, sorted(bad)))
    hands = [m["view"].get("hand") for m in s.msgs if m.get("type") == "view" and m["view"].get("hand")]
    print(f"  hidden cards of one seat in the other's stream: {leaks}; spectator views with a hand: {len(hands)}")
    for viewer_seat, owner_seat, cards in leaks:
        viewer = a if a.seat == viewer_seat else b
        for i, m in enumerate(viewer.msgs):
            hit = cards_in(m, set()) & set(cards)
            if hit:
                print(f"    seat {viewer_seat} msg {i} {m.get('type')}: {str(m)[:600]}")
                break
    global PLAYERS
    PLAYERS = (a, b, s)


def p_web_caps() -> None:
    """WebSocket connections share the TCP caps: 17 silent upgrades from one address; a WebSocket seat's bad acts."""
    ws = [WS(src="127.0.6.1") for _ in range(17)]
    r = ws[-1].recv(1.0)
    print(f"  17th silent WebSocket from one address: {[(m.get('type'), m.get('code')) for m in r]} eof={ws[-1].eof}")
    for w in ws:
        w.close()
    w = WS(src="127.0.6.2")
    w.send(hello("WebSeat"))
    r = w.recv(1.5)
    welcome = next((m for m in r if m.get("type") == "welcome"), None)
    print(f"  WebSocket hello: seat {welcome and welcome['seat']} {errors(r)}")
    for m in ({"type": "act", "action": ["teleport"], "version": 1}, {"type": "act", "action": ["play", {"a": 1}], "version": 1},
              {"type": "act", "action": ["pass"], "version": 1, "seat": 3}, {"type": "hello", "protocol": "1.0", "name": "x"}):
        w.send(m)
        print(f"    {str(m)[:60]:62}: {errors(w.recv(0.5))}")
    w.close()


# --- offline probes: records, journals, options (no live host needed) -------------------------------

def _run(cmd, timeout=60):
    import subprocess
    r = subprocess.run(cmd, capture_output=True, text=True, errors="backslashreplace", timeout=timeout)
    lines = (r.stdout + r.stderr).strip().splitlines()
    return r.returncode, "Traceback" in r.stderr, (lines[-1] if lines else "")


def _frapnet() -> str:
    return os.path.join(os.path.dirname(sys.executable), "frapnet")


def _sample_record(tmp: str) -> dict:
    """A one-deal record made by a short all-bot host (inside a private network namespace)."""
    import json
    rec = os.path.join(tmp, "base.json")
    if not os.path.exists(rec):
        _run(["unshare", "-rn", "sh", "-c", 'ip link set lo up; exec "$@"', "sh", _frapnet(), "host", "--bind",
              "127.0.0.1", "--port", "0", "--no-announce", "--db", os.path.join(tmp, "base.sqlite3"), "--record", rec,
              "--deals", "1", "--bots", "4", "--level", "random", "--pause", "0", "--nonce-time", "0",
              "--option", "ante=200"], timeout=120)
    return json.load(open(rec))


def p_records() -> None:
    """frapnet replay of records with falsy/odd 'options' (silently replayed with the defaults)."""
    import copy
    import json
    import tempfile
    tmp = os.environ.get("ATTACK_TMP") or tempfile.mkdtemp(prefix="attack-")
    base = _sample_record(tmp)
    rc, tb, last = _run([_frapnet(), "replay", os.path.join(tmp, "base.json")])
    print(f"  as written (ante 200): rc={rc} {last}")
    for val in (None, [], False, 0, "x", [1]):
        r = copy.deepcopy(base)
        r["options"] = val
        path = os.path.join(tmp, "m.json")
        json.dump(r, open(path, "w"))
        rc, tb, last = _run([_frapnet(), "replay", path])
        print(f"  options={val!r:6}: rc={rc} {'TRACEBACK ' if tb else ''}{last[:120]}")


def p_journal() -> None:
    """Hand-damaged journal rows: frapnet stats, and the same host command resuming."""
    import shutil
    import sqlite3
    import tempfile
    tmp = os.environ.get("ATTACK_TMP") or tempfile.mkdtemp(prefix="attack-")
    _sample_record(tmp)
    src = os.path.join(tmp, "base.sqlite3")
    for title, sql, cmd in [
        ("seat name stored as a BLOB", "update seats set name=x'ff00' where seat=0", "stats"),
        ("owner_pid stored as text", "update matches set owner_pid='me', finished_at=NULL", "host"),
        ("seat row 0 renumbered 99", "update seats set seat=99 where seat=0", "list"),
    ]:
        db = os.path.join(tmp, "jm.sqlite3")
        for ext in ("", "-wal", "-shm"):
            if os.path.exists(db + ext):
                os.remove(db + ext)
        shutil.copy(src, db)
        c = sqlite3.connect(db)
        c.execute(sql)
        c.commit()
        c.close()
        if cmd == "stats":
            out = _run([_frapnet(), "stats", "--db", db])
        elif cmd == "list":
            out = _run([_frapnet(), "export", "--db", db, "--list"])
        else:
            out = _run(["unshare", "-rn", "sh", "-c", 'ip link set lo up; exec "$@"', "sh", _frapnet(), "host",
                        "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--db", db, "--deals", "1", "--bots",
                        "4", "--level", "random", "--pause", "0", "--nonce-time", "0", "--option", "ante=200"])
        rc, tb, last = out
        print(f"  {title}: frapnet {cmd} rc={rc} {'TRACEBACK ' if tb else ''}{last[:150]}")


def main() -> int:
    global PORT, WEB
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=PORT)
    ap.add_argument("--web", type=int, default=WEB)
    ap.add_argument("probes", nargs="*")
    a = ap.parse_args()
    PORT, WEB = a.port, a.web
    offline = ("records", "journal")
    names = a.probes or [n[2:] for n in globals() if n.startswith("p_") and n[2:] not in offline]
    for n in names:
        print(f"== {n}: {globals()['p_' + n].__doc__.splitlines()[0]}")
        globals()["p_" + n]()
        leave_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
