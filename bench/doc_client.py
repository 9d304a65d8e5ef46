"""A frapnet client written only from docs/protocol.md (and docs/hosting.md to start a host).

It does not import frapnet: msgpack + sockets only. It plays a whole match at a host on
loopback, probes the documented error replies and prints every difference it finds between the
host's behaviour and the document ("MISMATCH ..."), with "ok ..." lines for what matched.

    frapnet host --bind 127.0.0.1 --no-announce --port P --players 4 --bots 2 --deals 3 \\
        --turn-time 0 --rematch 0 --pause 0.3 --level basic --db /tmp/x/j.sqlite3
    .venv/bin/python bench/doc_client.py --port P [--game frap] [--probes] [--rematch]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import select
import socket
import struct
import sys
import time

import msgpack

MAX_FRAME = 262_144
RESULTS: list[tuple[str, str]] = []


def note(kind: str, text: str) -> None:
    RESULTS.append((kind, text))
    print(f"{kind:8} {text}", flush=True)


def ok(text: str) -> None:
    note("ok", text)


def bad(text: str) -> None:
    note("MISMATCH", text)


def info(text: str) -> None:
    note("info", text)


def check(cond: bool, good: str, wrong: str) -> bool:
    (ok if cond else bad)(good if cond else wrong)
    return cond


# ---------------------------------------------------------------- encoding (protocol.md "Encoding")

def ext_hook(code: int, data: bytes):
    if code == 1:  # big integer: decimal ASCII digits, optional leading '-'
        if len(data) > 1000:
            raise ValueError("integer too large")
        return int(data.decode("ascii"))
    raise ValueError(f"unexpected extension type {code}")


def pack_default(obj):
    if isinstance(obj, int):
        return msgpack.ExtType(1, str(obj).encode("ascii"))
    raise TypeError(type(obj))


def encode(obj) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True, default=pack_default)
    return struct.pack(">I", len(body)) + body


def decode(body: bytes):
    return msgpack.unpackb(body, raw=False, strict_map_key=True, ext_hook=ext_hook)


class Closed(Exception):
    pass


class Conn:
    """One TCP stream: 4-byte big-endian length, then a msgpack body."""

    def __init__(self, port: int, host: str = "127.0.0.1"):
        self.sock = socket.create_connection((host, port), timeout=5)
        self.sock.setblocking(False)
        self.buf = b""
        self.eof = False
        self.inbox: list = []
        self.raw_frames: list[bytes] = []

    def send(self, obj) -> None:
        self.send_raw(encode(obj))

    def send_raw(self, data: bytes) -> None:
        self.sock.setblocking(True)
        try:
            self.sock.sendall(data)
        except OSError:
            pass
        finally:
            self.sock.setblocking(False)

    def fileno(self):
        return self.sock.fileno()

    def feed(self) -> None:
        """Read what is available and parse whole frames into inbox."""
        try:
            data = self.sock.recv(1 << 20)
        except BlockingIOError:
            return
        except ConnectionResetError:
            self.eof = "reset"
            return
        if not data:
            self.eof = True
            return
        self.buf += data
        while len(self.buf) >= 4:
            (n,) = struct.unpack(">I", self.buf[:4])
            if n > MAX_FRAME:
                raise ValueError(f"host sent a frame of {n} bytes")
            if len(self.buf) < 4 + n:
                break
            body, self.buf = self.buf[4 : 4 + n], self.buf[4 + n :]
            self.raw_frames.append(body)
            self.inbox.append(decode(body))

    def recv(self, timeout: float = 3.0):
        """The next message, or None on timeout; raises Closed at the end of the stream."""
        end = time.monotonic() + timeout
        while not self.inbox:
            if self.eof:
                raise Closed(self.eof)
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.sock], [], [], left)
            if r:
                self.feed()
        return self.inbox.pop(0)

    def read_all(self, timeout: float = 3.0) -> tuple[list, object]:
        """Every message until the end of the stream (or timeout): (messages, eof state)."""
        out = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                m = self.recv(end - time.monotonic())
            except Closed:
                break
            if m is None:
                break
            out.append(m)
        return out, self.eof

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


HELLO_DEFAULTS: dict = {}


def hello(name: str, **extra) -> dict:
    return {"type": "hello", "protocol": "1.0", "name": name, "lang": "en", **HELLO_DEFAULTS, **extra}


# ---------------------------------------------------------------- doc tables

WELCOME_KEYS = {"protocol": str, "table": str, "game": str, "title": str, "options": dict,
                "house_rules": list, "rules": dict, "plugins": list, "seat": (int, type(None)),
                "token": (str, type(None)), "players": list, "password": bool,
                "grace": (int, float), "deals": (int, type(None)),
                "turn_time": (int, float, type(None))}
VIEW_GENERIC = {"game": str, "title": str, "players": int, "seat": (int, type(None)),
                "version": int, "deal_no": int, "dealer": (int, type(None)), "balances": list,
                "pot": int, "ledger": str, "match_over": bool, "options": dict,
                "house_rules": list, "to_act": list, "actions": list,
                "last_report": (dict, type(None)), "sheet": list, "names": list,
                "connection": list, "table": str, "ui": dict, "deadlines": list}
FRAP_KEYS = {"phase", "phase_label", "round", "trump", "turn_up", "dead_turn_ups", "talon",
             "hand", "hand_count", "looked", "discards", "seats", "trick", "leader",
             "last_trick", "last_winner", "tricks_played", "tricks_total", "frapper", "blind",
             "pot_in_play", "turn"}
FRAP_SEAT_KEYS = {"seat", "declaration", "tricks", "cards", "looked", "in_play", "frapper",
                  "blind"}
UI_KEYS = {"title", "goal", "special_cards", "keys", "hints", "ledger", "pot", "columns",
           "cells", "marks", "refusals", "cursor", "card_marks", "trick_marks",
           "last_trick_marks", "legend", "report", "options"}
FRAP_EVENTS = {"deal": {"dealer", "deal_no", "turn_up", "ante", "pot"}, "look": {"seat"},
               "bid": {"seat", "bid", "round"}, "pass_out": {"round", "top_up", "pot", "dead",
                                                             "turn_up"},
               "thrown_in": {"top_up", "pot"}, "no_whist": {"seat", "amount"},
               "take_trump": {"seat", "turn_up"}, "buy": {"seat", "count", "talon"},
               "cut_in": {"seat", "turn_up", "talon"}, "decline": {"seat"},
               "discard": {"seat"}, "play_starts": {"leader", "players", "pot"},
               "play": {"seat", "card"}, "trick": {"winner", "cards", "amount", "number"},
               "deal_end": {"report"}}
SEAT_EVENTS = {"seat_joined": {"bot"}, "seat_lost": {"grace"}, "seat_back": set(),
               "seat_left": {"takeover"}, "seat_takeover": set(), "seat_timeout": {"seconds"},
               "shuffle_left_out": {"reason"}}
FRAP_REPORT = {"dealer", "outcome", "trump", "tricks", "remises", "pot_after", "balances",
               "frapper", "blind", "whisters", "cut_ins", "trick_money", "revokes"}
NAP_KEYS = {"phase", "phase_label", "trump", "turn_up", "talon", "hand", "hand_count", "looked",
            "discards", "seats", "trick", "leader", "last_trick", "last_winner", "turn",
            "top_bid", "holder", "declarer", "bid", "tricks_needed", "tricks_played",
            "tricks_total", "treasure", "stake", "bought"}
NAP_SEAT_KEYS = {"seat", "declaration", "bid", "tricks", "cards", "in_play", "in_auction",
                 "looked", "dealer", "declarer", "holder"}
NAP_EVENTS = {"deal": {"dealer", "deal_no", "stake", "pot", "talon"}, "bid": {"seat", "bid"},
              "declarer": {"seat", "bid", "talon"}, "thrown_in": {"pot"},
              "buy": {"seat", "count", "talon"}, "play": {"seat", "card"},
              "trump": {"seat", "suit"}, "trick": {"winner", "cards", "number"},
              "early_end": {"seat", "made", "tricks", "played"}, "deal_end": {"report"}}
NAP_REPORT = {"dealer", "outcome", "declarer", "bid", "trump", "tricks", "made", "payments",
              "to_treasure", "pot_after", "balances"}
GAME_KEYS = {"frap": (FRAP_KEYS, FRAP_SEAT_KEYS, FRAP_EVENTS, FRAP_REPORT),
             "napoleon": (NAP_KEYS, NAP_SEAT_KEYS, NAP_EVENTS, NAP_REPORT)}
CARD_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def is_card(c) -> bool:
    return isinstance(c, str) and (c in ("RJ", "BJ") or (c[-1:] in "SHDC" and c[:-1] in CARD_RANKS))


def cards_in(x) -> set:
    if isinstance(x, str):
        return {x} if is_card(x) and len(x) >= 2 else set()
    if isinstance(x, dict):
        return set().union(*(cards_in(v) for v in x.values())) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*(cards_in(v) for v in x)) if x else set()
    return set()


def check_types(where: str, m: dict, table: dict, seen: set) -> None:
    for key, typ in table.items():
        tag = f"{where}.{key}"
        if key not in m:
            if tag not in seen:
                seen.add(tag)
                bad(f"{where}: documented key {key!r} missing (keys: {sorted(m)})")
            continue
        if not isinstance(m[key], typ) or (typ is int and isinstance(m[key], bool)):
            if tag + ":type" not in seen:
                seen.add(tag + ":type")
                bad(f"{where}: {key!r} = {m[key]!r} is not of the documented type {typ}")


# ---------------------------------------------------------------- a seat (or a spectator)

class Player:
    def __init__(self, table: "Table", name: str, **extra):
        self.t = table
        self.name = name
        self.extra = extra
        self.conn: Conn | None = None
        self.welcome: dict | None = None
        self.view: dict | None = None
        self.views = 0
        self.errors: list[dict] = []
        self.events: list[dict] = []
        self.closing: dict | None = None
        self.other: list[dict] = []
        self.paused = False
        self.acted_version = None
        self.nonces: dict[int, bytes] = {}
        self.hashes_sent: dict[int, str] = {}
        self.commits: dict[int, dict] = {}
        self.hashes_msgs: dict[int, dict] = {}
        self.reveals = 0
        self.last_reveal_at = 0
        self.last_version = 0
        self.acts = 0

    @property
    def seat(self):
        return self.welcome and self.welcome.get("seat")

    def join(self, timeout=5.0, **override) -> dict:
        """Connect and hello; returns the welcome or the refusal error."""
        self.conn = Conn(self.t.port)
        msg = hello(self.name, **{**self.extra, **override})
        self.conn.send(msg)
        self.t.conns.append(self)
        first = None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                m = self.conn.recv(end - time.monotonic())
            except Closed:
                break
            if m is None:
                break
            if first is None:
                first = m
                if m.get("type") == "welcome":
                    self.welcome = m
                    return m
                if m.get("type") == "error":
                    self.errors.append(m)
                    return m
            self.handle(m)
        return first or {}

    # -- dispatch
    def handle(self, m: dict) -> None:
        t = self.t
        typ = m.get("type")
        if typ == "view":
            v = m.get("view")
            self.views += 1
            self.view = v
            t.check_view(v, self)
            if v.get("version", 0) < self.last_version and not t.rematch_started:
                t.once(f"version-backwards-{self.name}",
                       lambda: bad(f"{self.name}: view version went backwards "
                                   f"{self.last_version} -> {v.get('version')}"))
            self.last_version = v.get("version", 0)
        elif typ == "event":
            e = m.get("event", {})
            self.events.append(e)
            t.check_event(e)
        elif typ == "error":
            self.errors.append(m)
            t.check_error_shape(m)
            if m.get("code") == "illegal" and t.lower_done and t.lower_done[0] == self.name and len(self.errors) == t.lower_done[2] + 1:
                bad(f"lower-case card form {t.lower_done[1]} refused: {m}")
                self.acted_version = None
            elif m.get("code") == "illegal" and self.acted_version is not None:
                bad(f"{self.name}: an action the view offered was refused: {m}")
                self.acted_version = None
            elif m.get("code") == "stale":
                t.stale_seen += 1
        elif typ == "closing":
            self.closing = m
        elif typ == "shuffle_commit":
            self.on_commit(m)
        elif typ == "shuffle_hashes":
            self.on_hashes(m)
        elif typ == "shuffle_reveal":
            self.on_reveal(m)
        elif typ == "welcome":
            self.welcome = m
        elif typ == "rematch_offer":
            t.rematch_offers.append((self.name, m))
        elif typ == "rematch_start":
            t.rematch_started = True
            self.last_version = 0
            self.other.append(m)
        else:
            self.other.append(m)
            if typ not in ("pong", "chat"):
                t.once(f"unknown-type-{typ}", lambda: bad(f"host sent an undocumented message type {typ!r}: {m}"))

    # -- fair deals
    def on_commit(self, m: dict) -> None:
        t = self.t
        for k in ("deal", "scheme", "commitment", "seats", "time"):
            if k not in m:
                t.once("commit-" + k, lambda: bad(f"shuffle_commit lacks {k!r}: {m}"))
        if m.get("scheme") != "frapnet-shuffle/1":
            t.once("scheme", lambda: bad(f"shuffle_commit scheme {m.get('scheme')!r}"))
        deal = m.get("deal")
        self.commits[deal] = m
        if self.seat is None or m.get("dealt") or self.seat not in m.get("seats", []):
            return
        probe = t.fair_probe == self.name
        if probe and deal == 4:
            t.fair_log.append((deal, "no hash sent"))
            return
        nonce = os.urandom(32)
        self.nonces[deal] = nonce
        h = hashlib.sha256(nonce).hexdigest()
        self.hashes_sent[deal] = h
        if probe and deal == 2:
            h = h.upper()
            t.fair_log.append((deal, "hash sent in upper case"))
        self.conn.send({"type": "nonce_hash", "deal": deal, "hash": h})
        if probe and deal == 2:
            self.conn.send({"type": "nonce_hash", "deal": deal, "hash": h})
            t.fair_log.append((deal, "hash sent twice (doc: late)"))

    def on_hashes(self, m: dict) -> None:
        t = self.t
        deal = m.get("deal")
        self.hashes_msgs[deal] = m
        if deal not in self.nonces:
            return
        hs = m.get("hashes", [])
        if self.seat < len(hs) and (hs[self.seat] or "").lower() == self.hashes_sent[deal]:
            if hs[self.seat] != self.hashes_sent[deal]:
                info(f"shuffle_hashes echoes our upper-case hash as {hs[self.seat]!r}")
            if t.fair_probe == self.name and deal == 3:
                t.fair_log.append((deal, "wrong nonce sent (doc: bad_nonce)"))
                self.conn.send({"type": "nonce", "deal": deal, "nonce": os.urandom(32).hex()})
                del self.nonces[deal]
                return
            self.conn.send({"type": "nonce", "deal": deal, "nonce": self.nonces[deal].hex()})
        else:
            bad(f"{self.name}: own hash not at its seat in shuffle_hashes {m}")

    def on_reveal(self, m: dict) -> None:
        self.reveals += 1
        t = self.t
        ends = [i for i, e in enumerate(self.events) if e.get("type") == "deal_end"]
        if not ends or ends[-1] < self.last_reveal_at:
            t.once("reveal-order", lambda: bad(f"{self.name}: shuffle_reveal deal {m.get('deal')} before that deal's deal_end event"))
        self.last_reveal_at = len(self.events)
        deal, proof = m.get("deal"), m.get("proof") or {}
        for k in ("scheme", "commitment", "seed", "salt", "nonce_hashes", "nonces"):
            if k not in proof:
                t.once("proof-" + k, lambda: bad(f"shuffle_reveal proof lacks {k!r}: keys {sorted(proof)}"))
        commit = self.commits.get(deal)
        if commit and "seed" in proof and "salt" in proof:
            raw = hashlib.sha256(bytes.fromhex(proof["seed"]) + bytes.fromhex(proof["salt"])).hexdigest()
            txt = hashlib.sha256((proof["seed"] + proof["salt"]).encode()).hexdigest()
            if raw == commit["commitment"]:
                t.once("commit-raw", lambda: ok("commitment == SHA-256(seed bytes ‖ salt bytes) (raw bytes of the hex)"))
            elif txt == commit["commitment"]:
                t.once("commit-txt", lambda: info("commitment == SHA-256 of the hex TEXT seed‖salt (doc does not say which)"))
            else:
                t.once("commit-none", lambda: bad(f"commitment matches neither SHA-256(seed‖salt) as bytes nor as hex text: {proof} vs {commit}"))
        hm = self.hashes_msgs.get(deal)
        if hm and proof.get("nonce_hashes") is not None and not commit.get("dealt"):
            if [x.lower() if x else x for x in hm.get("hashes", [])] != [x.lower() if x else x for x in proof["nonce_hashes"]]:
                bad(f"deal {deal}: proof nonce_hashes {proof['nonce_hashes']} != shuffle_hashes {hm.get('hashes')}")
        if deal in self.nonces and self.seat is not None:
            mine = proof.get("nonces", [None] * 64)[self.seat]
            if mine is None and deal in self.nonces and t.fair_probe == self.name and deal == 2:
                bad(f"deal 2: our upper-case hash (doc: hosts accept either case) left us out of the shuffle")
            elif mine != self.nonces[deal].hex():
                bad(f"{self.name} deal {deal}: own nonce in proof {mine!r} != sent {self.nonces[deal].hex()}")
            else:
                t.once("own-nonce", lambda: ok("shuffle_reveal carries our own nonce unchanged"))
        for i, (nh, n) in enumerate(zip(proof.get("nonce_hashes", []), proof.get("nonces", []))):
            if n is not None and hashlib.sha256(bytes.fromhex(n)).hexdigest() != (nh or "").lower():
                bad(f"deal {deal}: seat {i} nonce does not hash to its nonce_hash")
        if m.get("deal") and self.view and self.view.get("deal_no") and self.view.get("deal_no") != deal:
            pass

    # -- acting
    def maybe_act(self) -> None:
        v = self.view
        if self.paused or v is None or self.seat is None or self.closing:
            return
        acts = v.get("actions") or []
        if not acts or self.acted_version == v.get("version"):
            return
        choice = self.t.rng.choice(acts)
        if not self.t.lower_done:
            for x in acts:
                a_ = x["action"]
                if len(a_) == 2 and isinstance(a_[1], str) and is_card(a_[1]) and a_[0] == "play":
                    c = a_[1]
                    alt = ("t" + c[-1] if c.startswith("10") else c).lower()
                    if alt == c:
                        continue
                    self.t.lower_done = (self.name, [a_[0], alt], len(self.errors), self.views)
                    self.acted_version = v.get("version")
                    self.conn.send({"type": "act", "action": [a_[0], alt], "version": v["version"]})
                    self.acts += 1
                    return
        # prefer not to throw the match away: look first when offered
        for a in acts:
            if a.get("action") == ["look"]:
                choice = a
        self.acted_version = v.get("version")
        self.conn.send({"type": "act", "action": choice["action"], "version": v["version"]})
        self.acts += 1


# ---------------------------------------------------------------- the table

class Table:
    def __init__(self, port: int, game: str, seed: int = 1):
        self.port = port
        self.game = game
        self.rng = random.Random(seed)
        self.conns: list[Player] = []
        self.seen: set = set()
        self.event_fields: dict[str, set] = {}
        self.view_keys: set = set()
        self.seat_entry_keys: set = set()
        self.ui_keys: set = set()
        self.report_keys: set = set()
        self.stale_seen = 0
        self.skip_nonce_for = None
        self.rematch_offers: list = []
        self.rematch_started = False
        self.phases: set = set()
        self.lower_done = None
        self.max_deadline = 0
        self.lang = None
        self.public_cards: set = set()
        self.fair_probe = None
        self.fair_log: list = []   # seat name that probes the nonce errors
        self.max_deal = 0

    def once(self, tag: str, fn) -> None:
        if tag not in self.seen:
            self.seen.add(tag)
            fn()

    def pump(self, seconds: float, until=None) -> bool:
        """Read and handle every connection's messages, acting for unpaused seats."""
        end = time.monotonic() + seconds
        while True:
            live = [p for p in self.conns if p.conn and not p.conn.eof]
            for p in live:
                while p.conn.inbox:
                    p.handle(p.conn.inbox.pop(0))
                p.maybe_act()
            if until and until():
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            if not live:
                time.sleep(min(left, 0.05))
                continue
            r, _, _ = select.select([p.conn for p in live], [], [], min(left, 0.05))
            for c in r:
                owner = next(p for p in live if p.conn is c)
                owner.conn.feed()

    # -- checks
    def check_view(self, v: dict, p: Player) -> None:
        where = "view(spectator)" if p.seat is None else "view"
        check_types(where, v, VIEW_GENERIC, self.seen)
        self.view_keys |= set(v)
        if v.get("phase"):
            self.phases.add(v["phase"])
        self.max_deal = max(self.max_deal, v.get("deal_no") or 0)
        n = v.get("players")
        for k in ("balances", "names", "connection", "deadlines"):
            if isinstance(v.get(k), list) and len(v[k]) != n:
                self.once(f"len-{k}", lambda: bad(f"view {k} has {len(v[k])} entries for {n} seats"))
        for c in v.get("connection") or []:
            if c not in ("connected", "reconnecting", "bot", "empty"):
                self.once(f"conn-{c}", lambda: bad(f"view connection value {c!r} undocumented"))
        if v.get("ledger") == "chips" and isinstance(v.get("pot"), int):
            if sum(v["balances"]) + v["pot"] != 0:
                self.once("chips-sum", lambda: bad(f"chips ledger: balances {v['balances']} + pot {v['pot']} != 0"))
        for a in v.get("actions") or []:
            if not (isinstance(a, dict) and isinstance(a.get("action"), list) and isinstance(a.get("label"), str)):
                self.once("action-shape", lambda: bad(f"action entry not {{action: list, label: str}}: {a}"))
        if p.seat is None and v.get("phase"):
            public = set(self.public_cards)
            for k in ("turn_up",):
                if v.get(k):
                    public.add(v[k])
            for k in ("trick", "last_trick"):
                for pair in v.get(k) or []:
                    public.add(pair[1])
            public |= set(v.get("dead_turn_ups") or [])
            rest = {k: x for k, x in v.items() if k not in ("ui", "actions", "options", "names", "table", "title")}
            leaked = cards_in(rest) - public
            if leaked:
                self.once(f"leak-{sorted(leaked)}", lambda: bad(f"spectator view names cards never shown publicly: {sorted(leaked)}"))
        if p.seat is None:
            if v.get("seat") is not None or v.get("hand") or v.get("actions"):
                self.once("spect-hand", lambda: bad(f"spectator view has seat/hand/actions: seat={v.get('seat')} hand={v.get('hand')} actions={v.get('actions')}"))
        elif v.get("seat") != p.seat:
            self.once("view-seat", lambda: bad(f"view seat {v.get('seat')} != welcome seat {p.seat}"))
        if self.game in GAME_KEYS and v.get("phase"):
            gkeys = GAME_KEYS[self.game][0]
            hand = v.get("hand")
            if hand is not None and not all(is_card(c) for c in hand):
                self.once("card-form", lambda: bad(f"non-canonical card in hand {hand}"))
            if v.get("looked") is False and hand is not None:
                self.once("hand-before-look", lambda: bad(f"hand sent before looking: {hand}"))
            for s in v.get("seats") or []:
                self.seat_entry_keys |= set(s)
            miss = gkeys - set(v)
            if miss:
                self.once("frap-miss-" + ",".join(sorted(miss)), lambda: bad(f"{self.game} view (phase {v.get('phase')}) lacks documented keys {sorted(miss)}"))
        ui = v.get("ui")
        if isinstance(ui, dict):
            self.ui_keys |= set(ui)
        if isinstance(v.get("last_report"), dict):
            self.report_keys |= set(v["last_report"])
        if isinstance(v.get("sheet"), list):
            for row in v["sheet"]:
                if set(row) < {"deal", "after", "pot"} or not {"deal", "after", "pot"} <= set(row):
                    self.once("sheet-row", lambda: bad(f"sheet row keys {sorted(row)} != deal/after/pot"))
        for d in v.get("deadlines") or []:
            if isinstance(d, (int, float)):
                self.max_deadline = max(self.max_deadline, d)
            if d is not None and not isinstance(d, (int, float)):
                self.once("deadline-type", lambda: bad(f"deadline {d!r}"))

    def check_event(self, e: dict) -> None:
        typ = e.get("type")
        if typ == "deal":
            self.public_cards = set()
        self.public_cards |= cards_in({k: x for k, x in e.items() if k != "text"})
        self.event_fields.setdefault(typ, set()).update(e)
        if "text" not in e:
            self.once(f"ev-text-{typ}", lambda: bad(f"event {typ} has no text: {e}"))
        want = SEAT_EVENTS.get(typ)
        if want is not None:
            want = want | {"seat", "name", "text"}
        elif self.game in GAME_KEYS:
            want = GAME_KEYS[self.game][2].get(typ)
            if want is None:
                self.once(f"ev-undoc-{typ}", lambda: bad(f"undocumented {self.game} event type {typ!r}: {e}"))
        if want:
            miss = want - set(e)
            if miss:
                self.once(f"ev-miss-{typ}-{sorted(miss)}", lambda: bad(f"event {typ} lacks documented fields {sorted(miss)}: {e}"))
        if typ == "deal_end" and isinstance(e.get("report"), dict):
            self.report_keys |= set(e["report"])

    def check_error_shape(self, m: dict) -> None:
        if not {"code", "message"} <= set(m) or "rule" not in m:
            self.once("err-shape-" + str(sorted(m)), lambda: info(f"error keys {sorted(m)} (doc: code, message, rule): {m}"))


# ---------------------------------------------------------------- probes on fresh connections

def expect_error(port: int, frames: list[bytes], code: str, closed: bool, label: str,
                 pre_hello: bool = True, name: str = "Probe", wait: float = 3.0) -> dict | None:
    c = Conn(port)
    if not pre_hello:
        c.send(hello(name, spectate=True))
        w = c.recv(3)
        while w is not None and w.get("type") != "welcome":
            w = c.recv(3)
    for f in frames:
        c.send_raw(f)
    msgs, eof = [], False
    end = time.monotonic() + wait
    err = None
    while time.monotonic() < end:
        try:
            m = c.recv(min(0.8, end - time.monotonic()) if err else end - time.monotonic())
        except Closed:
            eof = True
            break
        except ValueError as exc:
            bad(f"{label}: client could not decode host frame: {exc}")
            break
        if m is None:
            break
        msgs.append(m)
        if m.get("type") == "error" and err is None:
            err = m
    c.close()
    got = err.get("code") if err else None
    desc = f"{label}: got {err if err else [x.get('type') for x in msgs]}, connection {'closed' if eof else 'open'}"
    if code == "" and err is None and not eof and msgs:
        ok(desc)
    elif code and got == code and eof == closed:
        ok(desc)
    else:
        bad(f"{desc}; doc: " + (f"error {code!r}, {'closed' if closed else 'open'}" if code else "accepted"))
    return err


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def nested(depth: int):
    x = 1
    for _ in range(depth - 1):
        x = [x]
    return x


def fresh_probes(port: int, nseats: int, bot_seat: int) -> None:
    print("\n=== probes on fresh connections", flush=True)
    p = msgpack.packb
    # ping before hello
    c = Conn(port)
    c.send({"type": "ping", "id": 7})
    m = c.recv(3)
    check(m == {"type": "pong", "id": 7}, f"ping before hello -> {m}", f"ping before hello -> {m}")
    c.send({"type": "ping", "id": "abc"})
    m = c.recv(3)
    check(m == {"type": "pong", "id": "abc"}, f"ping str id -> {m}", f"ping str id -> {m}")
    c.send({"type": "ping"})
    m = c.recv(3)
    check(m is not None and m.get("type") == "pong" and m.get("id") is None,
          f"ping without id -> {m}", f"ping without id (doc: id int|str|nil) -> {m}")
    c.close()
    # the doc's own example bytes
    c = Conn(port)
    c.send_raw(bytes.fromhex("0000000f82a474797065a470696e67a2696401"))
    m = c.recv(3)
    check(m == {"type": "pong", "id": 1}, "doc's example ping frame answered with pong id 1",
          f"doc's example ping frame -> {m}")
    c.close()

    expect_error(port, [encode({"type": "act", "action": ["look"], "version": 1})],
                 "not_joined", False, "act before hello")
    expect_error(port, [encode({"type": "chat", "text": "hi"})], "not_joined", False, "chat before hello")
    expect_error(port, [encode(hello("V2", protocol="2.0"))], "version", True, "hello protocol 2.0")
    expect_error(port, [encode(hello("V1", protocol="1", spectate=True))], "version", True,
                 "hello protocol '1' (not MAJOR.MINOR; doc unclear: version or bad_message?)")
    expect_error(port, [encode(hello("V1", protocol="1.7", spectate=True))], "", False,
                 "hello protocol 1.7 (same major: doc says accepted) -- expect welcome")
    expect_error(port, [encode({"type": "hello", "name": "NoProto", "spectate": True})], "bad_message", False,
                 "hello without protocol (doc: bad_message; open or closed? undocumented)")
    expect_error(port, [frame(b"\xc1")], "malformed", True, "body 0xc1 (never-used msgpack byte)")
    expect_error(port, [frame(p({"type": "ping", "id": 1}) + b"\x00")], "malformed", True,
                 "trailing byte after the map")
    expect_error(port, [frame(p([1, 2]))], "malformed", True, "body is a list, not a map")
    expect_error(port, [frame(p({"id": 1}))], "malformed", True, "map without type")
    expect_error(port, [frame(p({"type": 5}))], "malformed", True, "type not a str")
    expect_error(port, [frame(b"\x81\xa4type\xa4p\xffng")], "malformed", True, "invalid UTF-8 in str")
    expect_error(port, [frame(b"\x82\xa4type\xa4ping\x01\x02")], "malformed", True, "int map key")
    expect_error(port, [frame(p({"type": "ping", "id": msgpack.ExtType(5, b"x")}))],
                 "malformed", True, "extension type 5")
    expect_error(port, [frame(p({"type": "ping", "id": msgpack.Timestamp(1)}))],
                 "malformed", True, "timestamp extension -1")
    expect_error(port, [struct.pack(">I", MAX_FRAME + 1)], "too_large", True,
                 "length 262145 without a body")
    # a body of exactly 262 144 bytes is allowed; 262 145 is not
    for size, code, closed in ((MAX_FRAME, "", False), (MAX_FRAME + 1, "too_large", True)):
        m = {"type": "ping", "id": 9, "a": "x" * 60000, "b": "x" * 60000, "c": "x" * 60000, "e": "x" * 60000, "d": ""}
        m["d"] = "x" * (size - len(p(m)) - 2)
        while len(p(m)) > size:
            m["d"] = m["d"][:-1]
        body = p(m)
        assert len(body) == size, len(body)
        expect_error(port, [frame(body)], code, closed, f"a body of exactly {size} bytes")
    expect_error(port, [encode({"type": "ping", "id": 10 ** 19})], "bad_message", False,
                 "ping id of 20 digits")
    expect_error(port, [encode({"type": "ping", "id": "x" * 65})], "bad_message", False,
                 "ping str id of 65 characters")
    expect_error(port, [encode({"type": "ping", "id": 2 ** 70})], "bad_message", False,
                 "ping id 2**70 sent as ext 1")
    expect_error(port, [frame(p({"type": "ping", "id": msgpack.ExtType(1, b"1" * 1001)}))],
                 "malformed", True, "ext 1 of 1001 digits")
    # nested(k) holds k-1 lists; inside the body's map (depth 1) that is depth k
    expect_error(port, [encode({"type": "ping", "id": 1, "x": nested(33)})], "bad_message", False,
                 "nesting depth 33 (body map = 1)")
    expect_error(port, [encode({"type": "ping", "id": 1, "x": nested(32)})], "", False,
                 "nesting depth 32 (allowed) -- expect pong")
    expect_error(port, [frame(b"\x82\xa4type\xa4ping\xa1x" + b"\x91" * 2000 + b"\x01")],
                 "malformed", True, "nest depth ~2000")
    # the doc states these limits but names no error code for them; the host's answer is recorded
    for label, val in (("a str of 65537 bytes", "y" * 65537), ("a bin of 65537 bytes", b"y" * 65537),
                       ("an array of 4097 elements", [0] * 4097),
                       ("a map of 1025 pairs", {str(i): 0 for i in range(1025)})):
        expect_error(port, [encode({"type": "ping", "id": 1, "x": val})], "malformed", True,
                     f"{label} (doc: limit, no code named)")
    expect_error(port, [encode({"type": "ping", "id": 1, "x": "y" * 65536, "z": [0] * 4096})], "", False,
                 "a str of 65536 bytes and an array of 4096 (at the limits) -- expect pong")
    c = Conn(port)
    c.send(hello("  \x1b[31mEve\u202e\u200b\t\n  the\u00a0 Great  " + "x" * 40, spectate=True, lang="ru_RU.UTF-8"))
    w = c.recv(3)
    m = None
    while True:
        x = c.recv(1)
        if x is None:
            break
        if x.get("type") == "view":
            m = x
            break
    c.send({"type": "chat", "text": "hi"})
    ch = None
    while True:
        x = c.recv(2)
        if x is None or x.get("type") == "chat":
            ch = x
            break
    c.close()
    want = ("[31mEve the Great " + "x" * 40)[:32]
    got = ch and ch.get("name")
    check(got == want, f"name cleaned as documented: {got!r}", f"name cleaned to {got!r}, doc rule gives {want!r}")
    if m:
        info(f"spectator view phase_label with lang ru_RU.UTF-8: {m['view'].get('phase_label')!r}, ui.title {m['view'].get('ui', {}).get('title')!r}")
    expect_error(port, [encode(hello(""))], "bad_name", True, "empty name")
    expect_error(port, [encode(hello("\x1b\u200b \t"))], "bad_name", True, "name only control/space")
    expect_error(port, [encode(hello("n" * 129, spectate=True))], "bad_message", False,
                 "name of 129 characters (doc: bad_message; hello refusals close? unclear)")
    expect_error(port, [encode(hello("T", token="nope-not-a-token"))], "bad_token", True, "bad token")
    expect_error(port, [encode(hello("S", seat=bot_seat))], "seat_taken", True, "seat kept for --bots")
    expect_error(port, [encode(hello("S", seat=nseats + 3))], "bad_message", True, "seat that does not exist")
    expect_error(port, [encode(hello("S", seat=64))], "bad_message", True, "seat 64 (doc limit 0…63)")
    expect_error(port, [encode(hello("S", seat=-1))], "bad_message", True, "seat -1")
    expect_error(port, [encode(hello("Tb", table="no such table", spectate=True))], "no_table", True,
                 "hello table='no such table' on a one-table host (doc: 'needed only' with several)")
    # spectator probes (after welcome)
    expect_error(port, [encode({"type": "frobnicate"})], "unknown_kind", False, "unknown type", pre_hello=False)
    expect_error(port, [encode(hello("again"))], "already_joined", False, "second hello", pre_hello=False)
    expect_error(port, [encode({"type": "act", "action": ["look"], "version": 1})], "not_seated", False,
                 "spectator act", pre_hello=False)
    expect_error(port, [encode({"type": "nonce_hash", "deal": 1, "hash": "0" * 64})], "not_seated", False,
                 "spectator nonce_hash", pre_hello=False)
    expect_error(port, [encode({"type": "nonce", "deal": 1, "nonce": "0" * 64})], "not_seated", False,
                 "spectator nonce", pre_hello=False)
    expect_error(port, [encode({"type": "rematch", "accept": True})], "no_rematch", False,
                 "rematch with no offer", pre_hello=False)
    expect_error(port, [encode({"type": "chat"})], "bad_message", False, "chat without text", pre_hello=False)
    expect_error(port, [encode({"type": "ping", "id": [1]})], "bad_message", False,
                 "ping id a list", pre_hello=False)
    # leave as spectator: closing then close
    c = Conn(port)
    c.send(hello("Leaver", spectate=True))
    c.recv(3)
    c.send({"type": "leave"})
    msgs, eof = c.read_all(3)
    c.close()
    last = msgs[-1] if msgs else None
    check(bool(last) and last.get("type") == "closing" and eof is True,
          f"spectator leave -> last {last}, FIN", f"spectator leave -> {[m.get('type') for m in msgs]} eof={eof}")
    def burst(name: str, n: int, wait: float):  # n pings at once from a fresh spectator: what comes back
        c = Conn(port)
        c.send(hello(name, spectate=True))
        c.recv(3)
        c.send_raw(b"".join(encode({"type": "ping", "id": i}) for i in range(n)))
        got = c.read_all(wait)
        c.close()
        return got

    # flood: 120 pings at once after welcome
    msgs, eof = burst("Flood", 120, 2)
    pongs = sum(1 for m in msgs if m.get("type") == "pong")
    floods = [m for m in msgs if m.get("type") == "error" and m.get("code") == "flood"]
    check(len(floods) == 1 and not eof and pongs <= 51,
          f"120 pings in a burst: {pongs} pongs, {len(floods)} flood error, open",
          f"120 pings in a burst: {pongs} pongs, floods={floods}, eof={eof} (doc: ≤50, one flood, open)")
    msgs, eof = burst("Flood2", 260, 3)
    check(eof is True and msgs and msgs[-1].get("code") == "flood",
          f"260 pings: closed after {msgs[-1] if msgs else None}",
          f"260 pings: last {msgs[-1] if msgs else None}, eof={eof} (doc: closed after error flood)")


def hello_timeout_probe(port: int):
    """A connection that never says hello, read in a thread for 13 s."""
    import threading

    def run():
        c = Conn(port)
        t0 = time.monotonic()
        msgs, eof = c.read_all(13)
        dt = time.monotonic() - t0
        c.close()
        last = msgs[-1] if msgs else None
        check(bool(last) and last.get("code") == "timeout" and eof is True and 9.5 < dt < 12,
              f"no hello: {last} after {dt:.1f} s, then FIN",
              f"no hello: messages {msgs}, eof={eof} after {dt:.1f} s (doc: error timeout at 10 s, close)")

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


# ---------------------------------------------------------------- WebSocket (protocol.md "Over a WebSocket")

def ws_open(port: int, origin: str | None):
    import base64
    key = base64.b64encode(os.urandom(16)).decode()
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    req = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if origin is not None:
        req += f"Origin: {origin}\r\n"
    s.sendall((req + "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        d = s.recv(4096)
        if not d:
            break
        head += d
    status = head.split(b"\r\n", 1)[0].decode(errors="replace")
    return s, status, head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""


def ws_send(s, payload: bytes, opcode: int = 2) -> None:
    mask = os.urandom(4)
    n = len(payload)
    hdr = bytes([0x80 | opcode])
    if n < 126:
        hdr += bytes([0x80 | n])
    elif n < 65536:
        hdr += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        hdr += bytes([0x80 | 127]) + struct.pack(">Q", n)
    s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def ws_recv_all(s, buf: bytes, timeout: float = 2.0) -> list:
    """(opcode, payload) of every frame until close or timeout."""
    s.settimeout(timeout)
    out = []
    try:
        while True:
            while True:
                if len(buf) >= 2:
                    n = buf[1] & 0x7F
                    off = 2
                    if n == 126 and len(buf) >= 4:
                        n, off = struct.unpack(">H", buf[2:4])[0], 4
                    elif n == 127 and len(buf) >= 10:
                        n, off = struct.unpack(">Q", buf[2:10])[0], 10
                    if len(buf) >= off + n and not (buf[1] & 0x7F in (126, 127) and off == 2):
                        out.append((buf[0] & 0x0F, buf[off:off + n]))
                        buf = buf[off + n:]
                        continue
                break
            d = s.recv(65536)
            if not d:
                break
            buf += d
    except (socket.timeout, ConnectionResetError):
        pass
    return out


def ws_probes(port: int) -> None:
    print("\n=== WebSocket probes", flush=True)
    origin = f"http://127.0.0.1:{port}"
    for org, want in ((None, "403"), ("http://evil.example", "403"), (origin, "101")):
        s, status, _ = ws_open(port, org)
        s.close()
        check(want in status, f"ws upgrade Origin={org!r}: {status}", f"ws upgrade Origin={org!r}: {status} (doc: {want})")
    s, status, rest = ws_open(port, origin)
    ws_send(s, msgpack.packb({"type": "ping", "id": 5}))
    fr = ws_recv_all(s, rest, 1.5)
    msgs = [decode(p) for op, p in fr if op == 2]
    check(msgs[:1] == [{"type": "pong", "id": 5}], f"ws binary ping -> {msgs[:1]}", f"ws binary ping -> {fr}")
    ws_send(s, b'{"type":"ping"}', opcode=1)
    fr = ws_recv_all(s, b"", 3)
    s.close()
    ops = [op for op, _ in fr]
    msgs = [decode(p) for op, p in fr if op == 2]
    close_code = [struct.unpack(">H", p[:2])[0] for op, p in fr if op == 8 and len(p) >= 2]
    check(bool(msgs) and msgs[-1].get("code") == "malformed" and 8 in ops,
          f"ws text message -> {msgs[-1] if msgs else None}, close frame code {close_code}",
          f"ws text message -> frames {fr}")
    if close_code and close_code[0] != 1000:
        bad(f"ws close code {close_code[0]} (doc: 1000)")


# ---------------------------------------------------------------- the match

def play_match(args) -> None:
    t = Table(args.port, args.game, seed=args.seed)

    t.fair_probe = "Alice"
    t.rematch_flag = args.rematch
    extra = {}
    t.extra = extra
    if args.password:
        extra["password"] = args.password
        expect_error(args.port, [encode(hello("P", password="wrong"))], "password", True, "wrong password")
        expect_error(args.port, [encode({"type": "hello", "protocol": "1.0", "name": "P"})], "password", True, "no password")
        HELLO_DEFAULTS["password"] = args.password
    if args.lang:
        extra["lang"] = args.lang
        t.lang = args.lang
    spec = Player(t, "Watcher", spectate=True, **extra)
    w = spec.join()
    check(w.get("type") == "welcome" and w.get("seat") is None and w.get("token") is None,
          f"spectator welcome: seat {w.get('seat')} token {w.get('token')}",
          f"spectator welcome {w}")

    a = Player(t, "Alice", rematch=args.rematch, **extra)
    a.paused = True
    w = a.join()
    if w.get("type") != "welcome":
        bad(f"Alice refused: {w}")
        return
    check_types("welcome", w, WELCOME_KEYS, t.seen)
    info(f"welcome keys: {sorted(w)}; seat {w.get('seat')}; token len {len(w.get('token') or '')}; "
         f"players {w.get('players')}; deals {w.get('deals')}; turn_time {w.get('turn_time')}; grace {w.get('grace')}")
    info(f"welcome.rules keys {sorted(w.get('rules', {}))}; verbs {w.get('rules', {}).get('verbs')}; "
         f"option map {w.get('options')}")
    for o in (w.get("rules") or {}).get("options", []):
        need = {"name", "default", "kind", "rule", "doc"}
        if not need <= set(o) or o.get("kind") not in ("int", "bool", "choice"):
            t.once("rules-opt", lambda: bad(f"welcome.rules.options entry {o}"))
    rp = (w.get("rules") or {}).get("players")
    check(isinstance(rp, list) and len(rp) == 2, f"rules.players {rp}", f"rules.players {rp} (doc: [min, max])")
    for pg in w.get("plugins") or []:
        if not {"name", "version", "provides"} <= set(pg):
            t.once("plugins", lambda: bad(f"welcome.plugins entry {pg}"))
    info(f"welcome.plugins {w.get('plugins')}")
    tok = w.get("token") or ""
    check(len(tok) >= 24 and all(ch.isalnum() or ch in "-_" for ch in tok),
          "token is 24+ URL-safe characters", f"token {tok!r}")
    for pl in w.get("players", []):
        if not {"seat", "name", "connection"} <= set(pl):
            t.once("wp", lambda: bad(f"welcome players entry {pl} lacks seat/name/connection"))
    # what follows the welcome: seat_joined, then view
    t.pump(1.0, until=lambda: a.view is not None)
    first_events = [e.get("type") for e in a.events]
    check(first_events[:1] == ["seat_joined"] and a.view is not None,
          f"after welcome: events {first_events} then a view",
          f"after welcome: events {first_events}, view {a.view is not None}")
    # same name again -> "Alice 2"
    b = Player(t, "alice", rematch=args.rematch, **extra)
    b.paused = True
    w2 = b.join()
    names_b = [pl.get("name") for pl in w2.get("players", [])]
    check(w2.get("type") == "welcome" and any(x.lower() == "alice 2" for x in names_b),
          f"second 'alice' (other case) sits numbered (players {names_b})",
          f"second 'alice': {w2.get('type')} players {names_b} (doc: 'Alice 2')")
    # ask a seat that is occupied by a person
    expect_error(args.port, [encode(hello("Z", seat=a.seat))], "seat_taken", True, "seat of a seated person")
    # name normalisation
    # (the table is full now once the bots are in: a third join gets table_full)
    expect_error(args.port, [encode(hello("Third"))], "table_full", True, "third player at a full table")

    b.paused = False
    # play until Alice has a decision in a deal, then probe the act errors
    got = t.pump(30, until=lambda: a.view and a.view.get("actions") and a.view.get("deal_no", 0) >= 1)
    if not got:
        bad("Alice never got an action in 30 s")
    else:
        v = a.view
        ver = v["version"]
        info(f"Alice to act at version {ver}, phase {v.get('phase')}, actions {[x['action'] for x in v['actions']]}")
        info(f"Alice's view keys: {list(v)}")
        b.paused = True
        probe_acts(t, a, b, ver)
        a.paused = False

    # drop Bob's connection mid-match and reconnect with his token
    reconnect_probe(t, a, b, spec)
    b = leave_probe(t, b, spec)

    if a.welcome.get("turn_time"):
        tt = a.welcome["turn_time"]
        a.paused = True
        t.pump(20, until=lambda: a.view and a.view.get("actions"))
        dl = a.view.get("deadlines")
        info(f"Alice to act; deadlines {dl} (turn_time {tt})")
        n = len(spec.events)
        t.pump(tt + 3, until=lambda: any(e.get("type") == "seat_timeout" for e in spec.events[n:]))
        to = [e for e in spec.events[n:] if e.get("type") == "seat_timeout"]
        check(bool(to) and to[0].get("seat") == a.seat and "seconds" in to[0],
              f"turn clock ran out: {to[:1]}", f"no seat_timeout after {tt + 3} s: {spec.events[n:]}")
        a.paused = False
    # chat
    a.conn.send({"type": "chat", "text": "hello \x1b[31mred\x1b[0m table"})
    t.pump(1, until=lambda: any(m.get("type") == "chat" for m in spec.other))
    chats = [m for m in spec.other if m.get("type") == "chat"]
    check(bool(chats) and chats[-1].get("seat") == a.seat and "\x1b" not in chats[-1].get("text", ""),
          f"chat relayed and cleaned: {chats[-1] if chats else None}", f"chat -> {chats}")

    # play to the end
    end = time.monotonic() + args.budget
    while time.monotonic() < end and not (a.closing or a.conn.eof):
        t.pump(1)
        if t.rematch_offers and args.rematch and not getattr(t, "answered", False):
            offer = t.rematch_offers[0][1]
            info(f"rematch_offer: {offer}")
            t.answered = True
            a.conn.send({"type": "rematch", "accept": False})
    t.pump(2)
    for pl in (a, b, spec):
        try:
            rest, eof = pl.conn.read_all(2.5)
        except Exception:
            rest, eof = [], pl.conn.eof
        for m in rest:
            pl.handle(m)
        info(f"{pl.name}: closing={pl.closing}, eof={pl.conn.eof}, views={pl.views}, acts={pl.acts}, reveals={pl.reveals}")
    if a.closing:
        res = a.closing.get("result") or {}
        need = {"table", "game", "deals", "match_over"} | ({"balances", "pot"} if t.game != "la_krap" else set())
        check(need <= set(res), f"closing result keys {sorted(res)}",
              f"closing result keys {sorted(res)} lack {sorted(need - set(res))}")
        info(f"closing: reason {a.closing.get('reason')!r}, resumable {a.closing.get('resumable')!r}, result {res}")
    else:
        bad("no closing at the match end")
    summary(t)


def probe_acts(t: Table, a: Player, b: Player, ver: int) -> None:
    def probe(msg: dict, code: str, label: str, rule=None):
        n = len(a.errors)
        a.conn.send(msg)
        t.pump(2, until=lambda: len(a.errors) > n)
        e = a.errors[n] if len(a.errors) > n else None
        cond = e is not None and e.get("code") == code and (rule is None or e.get("rule") == rule)
        desc = f"{label}: got {e}"
        (ok if cond else bad)(desc if cond else f"{desc}; doc: {code!r}" + (f" rule {rule!r}" if rule else ""))
        return e

    acts = a.view["actions"]
    probe({"type": "act", "action": ["frobnicate"], "version": ver}, "illegal", "unknown verb", rule="record")
    probe({"type": "act", "action": ["play", "ZZ"], "version": ver}, "illegal", "play of a non-card", rule="record")
    # a real card the seat does not hold (or a verb not offered now)
    probe({"type": "act", "action": ["play", "AS"] if ["play", "AS"] not in [x["action"] for x in acts] else ["play", "7C"],
           "version": ver}, "illegal", "verb not offered now")
    probe({"type": "act", "action": acts[0]["action"], "version": ver - 1 if ver > 1 else 0}, "stale",
          "right action, version - 1")
    probe({"type": "act", "action": acts[0]["action"], "version": ver + 1000}, "stale",
          "right action, version + 1000 (newer than the table)")
    probe({"type": "act", "action": acts[0]["action"], "version": ver, "seat": b.seat}, "wrong_seat",
          "act naming another seat")
    probe({"type": "act", "action": acts[0]["action"], "version": ver, "seat": 99}, "wrong_seat",
          "act naming seat 99")
    probe({"type": "act", "action": acts[0]["action"]}, "bad_message", "act without version")
    probe({"type": "act", "action": [], "version": ver}, "bad_message", "act with empty action")
    probe({"type": "act", "action": ["play", {"x": 1}], "version": ver}, "bad_message", "act argument a map")
    probe({"type": "act", "action": ["play", True], "version": ver}, "bad_message", "act argument a bool")
    probe({"type": "act", "action": ["play", [["x"]]], "version": ver}, "bad_message", "act argument a nested list")
    probe({"type": "act", "action": "look", "version": ver}, "bad_message", "act action a str")
    probe({"type": "act", "action": acts[0]["action"], "version": 10 ** 19}, "bad_message", "act version of 20 digits")
    probe({"type": "nonce", "deal": 99, "nonce": "0" * 64}, "late", "nonce for another deal")
    probe({"type": "nonce_hash", "deal": a.view.get("deal_no"), "hash": "0" * 64}, "late",
          "nonce_hash for the deal being played")
    probe({"type": "rematch", "accept": True}, "no_rematch", "rematch answer with no offer (seat)")
    # the right action with the right version, also sending seat explicitly
    n_views = a.views
    a.conn.send({"type": "act", "action": acts[0]["action"], "version": ver, "seat": a.seat})
    t.pump(2, until=lambda: a.views > n_views)
    check(a.view["version"] > ver, f"act with own seat accepted: version {ver} -> {a.view['version']}",
          f"own-seat act not accepted (errors {a.errors[-2:]})")
    # sending the same (now applied) action again -> stale
    probe({"type": "act", "action": acts[0]["action"], "version": ver}, "stale", "same action sent twice")
    # lower-case / T forms accepted?
    v = a.view
    if v.get("actions"):
        for x in v["actions"]:
            if len(x["action"]) == 2 and isinstance(x["action"][1], str) and is_card(x["action"][1]):
                c = x["action"][1]
                alt = ("T" + c[-1] if c.startswith("10") else c).lower()
                nv = a.views
                a.conn.send({"type": "act", "action": [x["action"][0], alt], "version": v["version"]})
                ne = len(a.errors)
                t.pump(2, until=lambda: a.views > nv or len(a.errors) > ne)
                if len(a.errors) > ne:
                    bad(f"action {x['action'][0]} {alt!r} (lower case/T form) refused: {a.errors[-1]}")
                else:
                    ok(f"action {x['action'][0]} {alt!r} (lower case/T form) accepted")
                break


def reconnect_probe(t: Table, a: Player, b: Player, spec: Player) -> None:
    print("\n=== reconnect", flush=True)
    tok = b.welcome["token"]
    seat = b.seat
    b.paused = True
    if not t.pump(20, until=lambda: b.view and b.view.get("actions")):
        bad("Bob never got an action to hold the table with")
    before = len(spec.events)
    b.conn.sock.shutdown(socket.SHUT_RDWR)
    b.conn.close()
    b.conn.eof = True
    t.pump(3, until=lambda: any(e.get("type") == "seat_lost" for e in spec.events[before:]))
    lost = [e for e in spec.events[before:] if e.get("type") == "seat_lost"]
    check(bool(lost) and lost[0].get("seat") == seat, f"seat_lost seen: {lost[:1]}", f"no seat_lost after a drop: {spec.events[before:]}")
    t.pump(2, until=lambda: spec.view["connection"][seat] != "connected")
    check(spec.view["connection"][seat] == "reconnecting", "spectator view shows 'reconnecting'",
          f"connection after a drop: {spec.view['connection']}")
    # the same name without the token cannot take it
    expect_error(t.port, [encode(hello("Intruder", seat=seat))], "seat_taken", True, "dropped seat asked without token")
    if HELLO_DEFAULTS.get("password"):
        c = Conn(t.port)
        c.send({"type": "hello", "protocol": "1.0", "name": "alice", "token": tok})
        msgs, eof = c.read_all(2)
        c.close()
        info(f"token reconnect WITHOUT the table password -> {msgs[:1]} eof={eof}")
    # back with the token
    c = Conn(t.port)
    c.send(hello("alice", token=tok))
    seq = []
    end = time.monotonic() + 4
    while time.monotonic() < end:
        m = c.recv(end - time.monotonic())
        if m is None:
            break
        seq.append(m)
        if m.get("type") == "view":
            break
    types = [m.get("type") + ("/" + m["event"]["type"] if m.get("type") == "event" else "") for m in seq]
    info(f"reconnect sequence: {types}; shuffle_commit dealt={[m.get('dealt') for m in seq if m.get('type') == 'shuffle_commit']}")
    w = seq[0] if seq else {}
    check(w.get("type") == "welcome" and w.get("seat") == seat, f"token reconnect: welcome seat {w.get('seat')}, token same: {w.get('token') == tok}",
          f"token reconnect: {w}")
    evs = [m["event"]["type"] for m in seq if m.get("type") == "event"]
    check("seat_back" in evs, "seat_back event before the view", f"events on reconnect: {evs}")
    v = seq[-1].get("view") if seq and seq[-1].get("type") == "view" else None
    check(v is not None and v.get("seat") == seat, "full view after reconnect", f"no view after reconnect: {types}")
    b.conn = c
    b.welcome = w
    b.paused = False
    for m in seq[1:]:
        b.handle(m)
    # token again while that connection is alive: the old one gets closing
    c2 = Conn(t.port)
    c2.send(hello("x", token=tok))
    w2 = c2.recv(3)
    t.pump(2, until=lambda: b.closing is not None or b.conn.eof)
    msgs, eof = c.read_all(2)
    for m in msgs:
        b.handle(m)
    check(w2 and w2.get("type") == "welcome" and b.closing is not None,
          f"second token connection takes over; old got closing {b.closing}",
          f"second token connection: new {w2}, old closing {b.closing} eof {c.eof}")
    b.closing = None
    b.conn = c2
    b.welcome = w2
    b.acted_version = None
    # the view's own name for the seat stays the cleaned original
    t.pump(1)


def leave_probe(t: Table, b: Player, spec: Player) -> Player:
    print("\n=== leave mid-match, a newcomer takes the seat", flush=True)
    seat, tok = b.seat, b.welcome["token"]
    alice = next(p for p in t.conns if p.name == "Alice")
    alice.paused = True
    t.pump(20, until=lambda: alice.view and alice.view.get("actions"))
    bal = list(spec.view["balances"]) if spec.view else None
    before = len(spec.events)
    b.conn.send({"type": "leave"})
    msgs, eof = b.conn.read_all(3)
    for m in msgs:
        b.handle(m)
    check(bool(msgs) and msgs[-1].get("type") == "closing" and eof is True,
          f"leave mid-match -> {msgs[-1] if msgs else None}, FIN",
          f"leave mid-match -> {[m.get('type') for m in msgs]} eof={eof}")
    t.pump(2, until=lambda: any(e.get("type") == "seat_left" for e in spec.events[before:]))
    left = [e for e in spec.events[before:] if e.get("type") == "seat_left"]
    check(bool(left) and left[0].get("takeover") is True and left[0].get("seat") == seat,
          f"seat_left: {left[:1]}", f"after leave: events {spec.events[before:]}")
    t.pump(0.5)
    conn_state = spec.view["connection"][seat]
    check(conn_state == "bot", f"left seat shows 'bot'", f"left seat shows {conn_state!r}")
    c = Player(t, "Carol", rematch=t.rematch_flag, **t.extra)
    c.paused = True
    w = c.join()
    check(w.get("type") == "welcome" and w.get("seat") == seat,
          f"newcomer without token takes the left seat {w.get('seat')}", f"newcomer: {w}")
    t.pump(1, until=lambda: c.view is not None)
    if c.view and bal is not None:
        info(f"newcomer's balances {c.view.get('balances')} (before leave {bal}); hand {c.view.get('hand')}, looked {c.view.get('looked')}")
    expect_error(t.port, [encode(hello("Bob again", token=tok))], "bad_token", True,
                 "the old token after a newcomer took the seat (doc: 'stops working'; code not named)")
    c.paused = False
    alice.paused = False
    return c


def summary(t: Table) -> None:
    print("\n=== summary of what the host sent", flush=True)
    if t.fair_probe:
        pl = next(p for p in t.conns if p.name == t.fair_probe)
        info(f"fair-deal probes by {pl.name}: {t.fair_log}")
        codes = [e.get("code") for e in pl.errors]
        info(f"{pl.name}'s error codes during the match: {codes}")
        for d in (2, 3, 4):
            hm = pl.hashes_msgs.get(d)
            if hm:
                info(f"deal {d} shuffle_hashes left_out={hm.get('left_out')} hashes[{pl.seat}]={(hm.get('hashes') or [None]*9)[pl.seat]}")
        lo = [e for e in pl.events if e.get("type") == "shuffle_left_out"]
        info(f"shuffle_left_out events: {lo}")
        check(any(e.get("reason") == "bad_nonce" for e in lo) and "bad_nonce" in codes,
              "wrong nonce -> error bad_nonce and event shuffle_left_out reason bad_nonce",
              f"wrong nonce: codes {codes}, left_out events {lo}")
        check(any(e.get("reason") == "no_hash" for e in lo),
              "no hash -> shuffle_left_out reason no_hash", f"no hash: events {lo}")
        check("late" in codes, "second nonce_hash -> late", f"second nonce_hash: codes {codes}")
    if t.lower_done:
        nm, act, ne, nv = t.lower_done
        pl = next(p for p in t.conns if p.name == nm)
        if not any(e.get("code") == "illegal" for e in pl.errors[ne:ne + 1]):
            ok(f"lower-case/T card form {act} accepted")
    info(f"phases seen: {sorted(t.phases)}; deals seen: {t.max_deal}; stale replies during play: {t.stale_seen}")
    gk, gs, ge, gr = GAME_KEYS.get(t.game, (set(), set(), {}, set()))
    extra = t.view_keys - set(VIEW_GENERIC) - gk
    (bad if extra and t.game in GAME_KEYS else info)(f"view keys not in the doc's tables: {sorted(extra)}")
    if t.game in GAME_KEYS:
        miss = (gk | set(VIEW_GENERIC)) - t.view_keys
        if miss:
            bad(f"documented view keys never seen: {sorted(miss)}")
        info(f"seats[] entry keys: {sorted(t.seat_entry_keys)}")
        if t.seat_entry_keys and t.seat_entry_keys != gs:
            bad(f"seats[] entry keys {sorted(t.seat_entry_keys)} vs doc {sorted(gs)}")
        info(f"deal report keys: {sorted(t.report_keys)}")
        if t.report_keys and t.report_keys != gr:
            bad(f"deal report keys {sorted(t.report_keys)} vs doc {sorted(gr)}")
    info(f"ui keys: {sorted(t.ui_keys)}; not in doc: {sorted(t.ui_keys - UI_KEYS)}")
    for typ, fields in sorted(t.event_fields.items(), key=lambda x: str(x[0])):
        doc = ge.get(typ)
        if typ in SEAT_EVENTS:
            doc = SEAT_EVENTS[typ] | {"seat", "name"}
        extra = sorted(fields - (doc or set()) - {"type", "text"}) if doc is not None else None
        info(f"event {typ}: fields {sorted(fields)}" + (f"; beyond doc: {extra}" if extra else ""))
    if t.lang:
        import re
        al = next(p for p in t.conns if p.name == "Alice")
        texts = [e.get("text", "") for e in al.events]
        cyr = sum(1 for x in texts if re.search("[а-яА-Я]", x))
        check(cyr > len(texts) // 2, f"lang {t.lang}: {cyr}/{len(texts)} event texts in Cyrillic, e.g. {texts[-1]!r}",
              f"lang {t.lang}: only {cyr}/{len(texts)} event texts in Cyrillic: {texts[:3]}")
    timeouts = [e for e in t.conns[0].events if e.get("type") == "seat_timeout"]
    if timeouts:
        info(f"seat_timeout events: {timeouts[:2]}")
    dl = [p.view.get("deadlines") for p in t.conns if p.view]
    info(f"last deadlines seen: {dl[:2]}; max deadline seen {t.max_deadline}")
    n_bad = sum(1 for k, _ in RESULTS if k == "MISMATCH")
    print(f"\n{n_bad} mismatches, {sum(1 for k, _ in RESULTS if k == 'ok')} ok", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--game", default="frap")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", type=int, default=2)
    ap.add_argument("--probes", action="store_true", help="also probe errors on fresh connections")
    ap.add_argument("--rematch", action="store_true", help="say rematch: true and decline the offer")
    ap.add_argument("--budget", type=float, default=240)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--password")
    ap.add_argument("--lang")
    ap.add_argument("--ws", type=int, help="the host's --web port: probe the WebSocket too")
    args = ap.parse_args()
    if args.probes:
        th = hello_timeout_probe(args.port)
        fresh_probes(args.port, args.players, args.players - 1)
        th.join(15)
    if args.ws:
        ws_probes(args.ws)
    play_match(args)


if __name__ == "__main__":
    main()
