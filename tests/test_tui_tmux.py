"""End to end in a real terminal: `frapnet play --seed 7` inside tmux (100×30), one whole deal
played with send-keys, asserting on what the screen shows.

The expected figures are computed independently of the client: the host writes the match's
record (``--record``), and ``frapnet replay --json`` (the engine, not the client) gives the
tricks, remises and balances; the hand and the trump come from the record's deck by F8. After
quitting, the terminal must have left the alternate screen (``#{alternate_on}`` is 0).
Also: a connection cut and resumed, SIGTERM, a refused join, and two "machines" (network
namespaces) playing the same deal, one at its own `frapnet host --play` table.
Skips (saying why) where tmux is not installed, or namespaces cannot be made; .ci/run installs
tmux and iproute2 and runs as root.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import pytest

from frapnet.testing import netns_unavailable

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")

FACE = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD_RE = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")


def face(card: str) -> str:
    return card[:-1] + FACE[card[-1]]


class Tmux:
    """A private tmux server (its own socket) running one command in a detached session."""

    def __init__(self, cmd: str, x: int = 100, y: int = 30):
        self.sock = f"frapnet-test-{os.getpid()}-{time.monotonic_ns()}"
        self.run("new-session", "-d", "-s", "t", "-x", str(x), "-y", str(y), cmd)

    def run(self, *args) -> str:
        return subprocess.run([TMUX, "-L", self.sock, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-J", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def wait(self, pred, timeout: float = 15.0, what: str = "") -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.capture()
            if pred(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what or pred}; the screen:\n{screen}")
            time.sleep(0.05)

    def kill(self) -> None:
        subprocess.run([TMUX, "-L", self.sock, "kill-server"], capture_output=True, timeout=10)


def seat_lines(screen: str) -> list[str]:
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if line.split()[:2] == ["player", "state"]:
            out = []
            for row in lines[i + 1:]:
                if row.startswith("─") or not row.strip():
                    break
                out.append(row)
            return out
    return []


def hand_faces(screen: str) -> list[str]:
    """The faces of the cards drawn on the hand row (the lines of card boxes)."""
    return sorted(m.group(0) for m in CARD_RE.finditer("\n".join(
        x for x in screen.splitlines() if x.lstrip().startswith("│"))))


def trick_shown(screen: str, names: list[str]) -> dict[int, str]:
    """The trick column: {seat: card face} read from the seat table."""
    out = {}
    for row in seat_lines(screen):
        m = re.search(r"((?:10|[2-9JQKA])[♠♥♦♣])★?\s*$", row)
        if not m:
            continue
        for s, n in enumerate(names):
            if row[2:].startswith(n):
                out[s] = m.group(1)
    return out


def test_play_a_whole_deal_in_tmux_and_settle_F8_F21_F23_F24(tmp_path):
    rec = tmp_path / "match.json"
    cmd = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8 {sys.executable} -m frapnet play "
           f"--seed 7 --name Olga --lang en --bot-delay 0 --pause 0.3 --deals 1 --record {rec}; "
           f"echo FRAPNET-EXIT=$?; sleep 60")
    t = Tmux(cmd)
    try:
        first = t.wait(lambda s: "Your turn" in s and "[l] Look" in s, 20, "the first full screen")
        names = ["Olga", "Bot 1", "Bot 2", "Bot 3"]
        assert "░░░" in first and "Olga (you)" in first and "pot 400" in first
        seen_hand = seen_trick = None
        trick_views = []
        deadline = time.monotonic() + 60
        screen = first
        while "Deal 1 settled" not in screen:
            assert time.monotonic() < deadline, screen
            if "Your turn" in screen:
                if "[l] Look" in screen:
                    key = "l"
                elif "[f] Frap" in screen:
                    seen_hand = seen_hand or screen
                    key = "f"
                elif "[w] Whist" in screen:
                    seen_hand = seen_hand or screen
                    key = "w"
                elif "[d] Decline" in screen:
                    key = "d"
                else:
                    if "Play" in screen:
                        trick_views.append(trick_shown(screen, names))
                        seen_trick = seen_trick or (screen if trick_views[-1] else None)
                    key = "Enter"
                before = screen
                t.keys(key)
                screen = t.wait(lambda s: s != before, 10, f"the screen to change after {key}")
            else:
                time.sleep(0.05)
                screen = t.capture()
        settled = t.wait(lambda s: "Enter: continue" in s, 5, "the settlement")
        # --- the expected figures, from the host's record through the engine ---------------------
        t.wait(lambda s: rec.exists(), 5, "the record")
        record = json.loads(rec.read_text())
        deal = record["deals"][0]
        out = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(rec), "--json"], capture_output=True,
                             text=True, timeout=30)
        result = json.loads(out.stdout)
        assert result["ok"], result
        rep = result["deals"][0]
        n, dealer, deck = record["players"], deal["dealer"], deal["deck"]
        # F8: the hand seat 0 was dealt, and the turn-up
        mine = [deck[k] for k in range(4 * n) if (dealer + 1 + k) % n == 0]
        assert seen_hand is not None, "never saw the hand face up"
        faces = set(m.group(0) for m in CARD_RE.finditer("\n".join(
            line for line in seen_hand.splitlines() if line.lstrip().startswith("│"))))
        assert faces == {face(c) for c in mine}, (faces, mine)
        turn_up = deck[4 * n]
        assert f"Trump {FACE[turn_up[-1]]}" in first and f"turn-up {face(turn_up)}" in first
        # F19–F21: each trick shown on the seat table is (part of) a trick of the record
        plays = [(a[0], a[2]) for a in deal["actions"] if a[1] == "play"]
        k = len({s for s, _ in plays})
        tricks = [plays[i:i + k] for i in range(0, len(plays), k)]
        assert seen_trick is not None, "never saw a card on the table"
        for shown in filter(None, trick_views):
            assert any(all((s, c) in [(x, face(y)) for x, y in tr] for s, c in shown.items()) for tr in tricks), shown
        # F23/F24: the settlement's tricks, remises and balances are the engine's
        assert len(record["deals"]) == 1
        rows = {}
        for line in settled.splitlines():
            inner = line.split("│")[1] if line.count("│") >= 2 else ""
            m = re.match(r"\s*(Olga|Bot \d)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", inner)
            if m:
                rows[m.group(1)] = m.groups()[1:]
        assert set(rows) == set(names), settled

        def amount(x):
            return 0 if x in ("0", "—") else int(x.replace("−", "-").replace("+", ""))
        for s, nm in enumerate(names):
            tricks_txt, money, remise, net, balance = rows[nm]
            assert int(tricks_txt) == rep["tricks"][s]
            assert amount(remise) == -rep["remises"][s]  # paid: signed as a change of the balance
            assert amount(balance) == result["balances"][s]
            assert amount(net) == result["balances"][s]  # the first deal starts from 0
        # --deals 1: the last deal, so no "next deal" nor fresh antes are promised
        box = "\n".join(ln for ln in settled.splitlines() if ln.count("│") >= 2)
        assert "next deal" not in box and "antes" not in box, box
        assert "“this deal” is the change over the deal, “balance” the total after it." in box, box
        assert (f"The match is over; {result['pot']} is left in the pot." if result["pot"]
                else "The match is over.") in settled
        line = next(x for x in settled.splitlines() if "Deal 1 settled:" in x)
        for s, nm in enumerate(names):
            b = result["balances"][s]
            assert f"{nm} {'+' if b > 0 else '−' if b < 0 else ''}{abs(b) if b else 0}" in line
        # --- quitting leaves the terminal clean --------------------------------------------------
        t.keys("Enter")
        t.keys("q")
        done = t.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet to exit")
        assert "FRAPNET-EXIT=0" in done
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
    finally:
        t.kill()


def test_quitting_mid_deal_asks_and_restores_the_terminal_in_russian(tmp_path):
    cmd = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=ru_RU.UTF-8 {sys.executable} -m frapnet play "
           f"--seed 3 --name Ольга --bot-delay 0; echo FRAPNET-EXIT=$?; sleep 60")
    t = Tmux(cmd, 80, 24)
    try:
        t.wait(lambda s: "Ваш ход" in s and "[l] Посмотреть карты" in s, 20, "the Russian screen")
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "1"
        t.keys("C-c")
        t.wait(lambda s: "Уйти из-за стола?" in s, 5, "the confirmation")
        t.keys("n")
        t.wait(lambda s: "Уйти из-за стола?" not in s, 5, "the dialog to close")
        t.keys("q")
        t.wait(lambda s: "Уйти из-за стола?" in s, 5, "the confirmation again")
        t.keys("y")
        done = t.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet to exit")
        assert "FRAPNET-EXIT=0" in done
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
    finally:
        t.kill()


def test_play_with_the_same_seed_deals_the_same_cards_your_own_nonce_included(tmp_path):
    """`frapnet play --seed S` is a reproducible match (docs/playing.md): the deck of deal 1 — made
    from the host's seed and every seat's nonce (fairness.md), the player's own terminal's too —
    is the same in two runs with the same seed, and another seed deals another deck."""
    decks = []
    for run, seed in enumerate((11, 11, 12)):
        rec = tmp_path / f"m{run}.json"
        t = Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8 {sys.executable} -m frapnet play "
                 f"--seed {seed} --name Olga --lang en --bot-delay 0 --record {rec}; echo FRAPNET-EXIT=$?; sleep 60")
        try:
            t.wait(lambda s: "Your turn" in s and "deal 1" in s, 20, "the first full screen")
            t.keys("q")
            t.wait(lambda s: "leaving ends this table" in s.lower() or "y/n" in s.lower(), 5, "the confirmation")
            t.keys("y")
            assert "FRAPNET-EXIT=0" in t.wait(lambda s: "FRAPNET-EXIT=" in s, 15, "frapnet to exit")
        finally:
            t.kill()
        decks.append(json.loads(rec.read_text())["deals"][0]["deck"])
    assert len(decks[0]) == 32 and decks[0] == decks[1]  # four seats: the 32-card pack (F2)
    assert decks[2] != decks[0]


class Proxy:
    """A loopback TCP relay to ``port`` that can cut its connections (a network failure) and
    refuse new ones for a while."""

    def __init__(self, port: int):
        import socket
        import threading

        self.target = port
        self.srv = socket.create_server(("127.0.0.1", 0))
        self.port = self.srv.getsockname()[1]
        self.pairs: list = []
        self.refuse = False
        self.accepted = 0
        self._threading = threading
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket

        while True:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            if self.refuse:
                c.close()
                continue
            self.accepted += 1
            u = socket.create_connection(("127.0.0.1", self.target))
            self.pairs.append((c, u))
            for a, b in ((c, u), (u, c)):
                self._threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        import socket

        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        import socket

        for pair in self.pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self.pairs = []

    def close(self):
        self.srv.close()
        self.cut()


def test_connection_lost_is_shown_and_the_seat_resumes_with_its_token(tmp_path):
    """Issue #4 item 3 (and #3 "Reconnect"): `frapnet join` through a relay that is cut and then
    refuses connections for a while: the screen says "connection lost — reconnecting…", then the
    client is back in the same seat with its hand, by itself."""
    host = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                             "--players", "2", "--bots", "1", "--no-announce", "--seed", "5", "--name", "Relay"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    t = proxy = None
    try:
        line = host.stdout.readline()
        m = re.search(r"on 127\.0\.0\.1:(\d+)", line)
        assert m, line
        proxy = Proxy(int(m.group(1)))
        t = Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 {sys.executable} -m frapnet join "
                 f"127.0.0.1:{proxy.port} --name Olga --lang en; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
        t.wait(lambda s: "[l] Look" in s and "Olga (you)" in s, 20, "the table")
        t.keys("l")
        hand = t.wait(lambda s: len(hand_faces(s)) == 4, 10, "the hand face up")
        faces = hand_faces(hand)
        proxy.refuse = True
        proxy.cut()
        t.wait(lambda s: "connection lost — reconnecting…" in s, 10, "the reconnecting status")
        assert "Connection lost — reconnecting…" in t.capture()
        proxy.refuse = False
        back = t.wait(lambda s: "Reconnected; the table is back." in s, 15, "the reconnection")
        back = t.wait(lambda s: "connection lost" not in s.splitlines()[-1], 5, "the status bar")
        assert "Olga (you)" in back and proxy.accepted == 2
        assert hand_faces(back) == faces  # the same seat and hand, resumed by the seat token
        t.keys("q")
        t.wait(lambda s: "Leave the table?" in s, 5, "the confirmation")
        t.keys("y")
        assert "FRAPNET-EXIT=0" in t.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet to exit")
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
    finally:
        if t is not None:
            t.kill()
        if proxy is not None:
            proxy.close()
        host.kill()
        host.wait(10)


def _ppid(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the process")
def test_sigterm_exits_the_application_and_restores_the_terminal(tmp_path):
    """The reactor's "before shutdown" trigger ends the full-screen application first, so a
    SIGTERM leaves the terminal out of the alternate screen."""
    t = Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 {sys.executable} -m frapnet play --seed 5 --name Olga "
             f"--lang en --bot-delay 0; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
    try:
        t.wait(lambda s: "Olga (you)" in s and "╭───╮" in s, 20, "the table")
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "1"
        shell = int(t.run("display-message", "-p", "-t", "t", "#{pane_pid}"))
        child = next(int(d) for d in os.listdir("/proc") if d.isdigit() and _ppid(int(d)) == shell)
        os.kill(child, 15)
        t.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet to exit")
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
    finally:
        t.kill()


def test_join_with_nobody_listening_says_why_and_exits_2(tmp_path):
    import socket

    hold = socket.socket()  # bound but not listening: nobody else can take the port, connections are refused
    hold.bind(("127.0.0.1", 0))
    port = hold.getsockname()[1]
    t = Tmux(f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 {sys.executable} -m frapnet join 127.0.0.1:{port} "
             f"--name Olga --lang en; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
    try:
        done = t.wait(lambda s: "FRAPNET-EXIT=" in s, 20, "frapnet to exit")
        assert "FRAPNET-EXIT=2" in done
        assert f"frapnet join: Could not join the table at 127.0.0.1:{port}: nobody is listening at that address and port" \
            in " ".join(done.split()), done  # in words, not Twisted's "Connection was refused by other side: 111"
        assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
    finally:
        t.kill()
        hold.close()


NETNS_REASON = netns_unavailable()


def _drive(t: Tmux, screen: str) -> bool:
    """One step of a plain player: look, frap or whist, decline a cut-in, stand pat, play the
    first legal card. Returns whether a key was sent."""
    if "Your turn" not in screen or "Enter: continue" in screen:
        return False
    for mark, key in (("[l] Look", "l"), ("[f] Frap", "f"), ("[w] Whist", "w"), ("[d] Decline", "d")):
        if mark in screen:
            t.keys(key)
            return True
    t.keys("Enter")
    return True


def _settlement_rows(screen: str, names) -> dict:
    rows = {}
    for line in screen.splitlines():
        inner = line.split("│")[1] if line.count("│") >= 2 else ""
        for nm in names:
            m = re.match(rf"\s*{re.escape(nm)}\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", inner)
            if m:
                rows[nm] = m.groups()
    return rows


@pytest.mark.skipif(NETNS_REASON is not None, reason=NETNS_REASON or "")
def test_two_machines_host_play_and_join_play_the_same_deal(tmp_path):
    """Issue #4 "done when": two network namespaces joined by a veth pair; in A `frapnet host
    --play` (Olga plays at her own LAN table, announced on A's veth address only), in B `frapnet
    join NAME` finds it by DNS-SD across the link (Ivan); a computer player takes the third seat.
    Both terminals play the same deal to its settlement, and both show the balances the host's
    record replays to (F23/F24). The namespaces are deleted afterwards."""
    tag = f"{os.getpid() % 100000}{random.randrange(1000):03d}"
    a, b, va, vb = f"fruiA{tag}", f"fruiB{tag}", f"fua{tag}"[:15], f"fub{tag}"[:15]
    n = random.randrange(16, 250)
    addr_a, addr_b = f"10.{n}.7.1", f"10.{n}.7.2"
    created = []

    def sh(*args):
        r = subprocess.run(list(args), capture_output=True, text=True)
        assert r.returncode == 0, f"{' '.join(args)}: {r.stderr}"

    ta = tb = None
    try:
        for ns in (a, b):
            sh("ip", "netns", "add", ns)
            created.append(ns)
        sh("ip", "link", "add", va, "type", "veth", "peer", "name", vb)
        sh("ip", "link", "set", va, "netns", a)
        sh("ip", "link", "set", vb, "netns", b)
        for ns, dev, addr in ((a, va, addr_a), (b, vb, addr_b)):
            sh("ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "-n", ns, "link", "set", dev, "up")
            sh("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", dev)
        rec = tmp_path / "match.json"
        env = "env PROMPT_TOOLKIT_NO_CPR=1 LANG=C.UTF-8"
        ta = Tmux(f"cd {tmp_path} && ip netns exec {a} {env} {sys.executable} -m frapnet host --play --player Olga "
                  f"--lang en --players 3 --bots 1 --port 7777 --name 'Kitchen table' --announce --interface {addr_a} "
                  f"--seed 9 --deals 1 --pause 0.3 --record {rec}; echo FRAPNET-EXIT=$?; sleep 60")
        ta.wait(lambda s: "Olga (you)" in s, 20, "the host's own client")
        tb = Tmux(f"cd {tmp_path} && ip netns exec {b} {env} {sys.executable} -m frapnet join 'kitchen table' "
                  f"--interface {addr_b} --timeout 4 --name Ivan --lang en; echo FRAPNET-EXIT=$?; sleep 60")
        tb.wait(lambda s: "Ivan (you)" in s and "Olga" in s, 30, "Ivan at the table, found by name")
        names = ["Olga", "Ivan", "Bot 2"]
        deadline = time.monotonic() + 60
        screens = {}
        while len(screens) < 2:
            assert time.monotonic() < deadline, (ta.capture(), tb.capture())
            for who, t in (("Olga", ta), ("Ivan", tb)):
                if who in screens:
                    continue
                s = t.capture()
                if "Deal 1 settled" in s and "Enter: continue" in s:
                    screens[who] = s
                elif _drive(t, s):
                    t.wait(lambda x, s=s: x != s, 10, f"{who}'s screen to change")
            time.sleep(0.05)
        out = subprocess.run([sys.executable, "-m", "frapnet", "replay", str(rec), "--json"], capture_output=True,
                             text=True, timeout=30)
        result = json.loads(out.stdout)
        assert result["ok"] and len(result["deals"]) == 1, result
        for who, s in screens.items():
            rows = _settlement_rows(s, names)
            assert set(rows) == set(names), (who, s)
            for seat, nm in enumerate(names):
                bal = rows[nm][4]
                want = result["balances"][seat]
                assert bal == ("0" if want == 0 else f"+{want}" if want > 0 else f"−{-want}"), (who, nm, s)
                assert int(rows[nm][0]) == result["deals"][0]["tricks"][seat]
        for t in (ta, tb):
            t.keys("Enter")
            t.keys("q")
            assert "FRAPNET-EXIT=0" in t.wait(lambda s: "FRAPNET-EXIT=" in s, 15, "frapnet to exit")
            assert t.run("display-message", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
    finally:
        for t in (ta, tb):
            if t is not None:
                t.kill()
        for ns in created:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_closed_terminal_then_join_again_takes_the_seat_back_with_the_saved_token(tmp_path):
    """docs/hosting.md "a closed terminal": `frapnet join` saves the seat token (0600, under
    $XDG_STATE_HOME/frapnet/tokens.json); the terminal is closed (tmux killed: SIGHUP), and a new
    `frapnet join` gets the same seat and hand back. Leaving on purpose forgets the token;
    `--new-seat` ignores a saved one."""
    host = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                             "--players", "2", "--bots", "1", "--no-announce", "--seed", "5", "--name", "Keep",
                             "--grace", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    state = tmp_path / "state"
    store = state / "frapnet" / "tokens.json"
    ts = []
    hosts = [host]
    try:
        m = re.search(r"on 127\.0\.0\.1:(\d+)", host.stdout.readline())
        assert m
        port = int(m.group(1))
        cmd = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 XDG_STATE_HOME={state} {sys.executable} -m frapnet "
               f"join 127.0.0.1:{port} --name Olga --lang en")
        t = Tmux(cmd + "; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
        ts.append(t)
        t.wait(lambda s: "[l] Look" in s and "Olga (you)" in s, 20, "the table")
        t.keys("l")
        faces = hand_faces(t.wait(lambda s: len(hand_faces(s)) == 4, 10, "the hand face up"))
        saved = json.loads(store.read_text())
        entry = saved[f"127.0.0.1:{port}/"]["Olga"]
        assert entry["seat"] == 0 and len(entry["token"]) >= 16 and entry["table"] == "Keep"
        assert store.stat().st_mode & 0o777 == 0o600
        # Ivan joins from the same account (another terminal): Olga's saved token is hers, not his —
        # he is told the seats are taken and Olga keeps her seat (it was taken over before)
        other = Tmux(cmd.replace("--name Olga", "--name Ivan") + "; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
        ts.append(other)
        refused = other.wait(lambda s: "FRAPNET-EXIT=" in s, 20, "Ivan refused a seat")
        assert "table_full: every seat at 'Keep' is taken" in refused and "FRAPNET-EXIT=2" in refused, refused
        assert "Taking back your seat" not in refused
        time.sleep(0.5)
        still = t.capture()
        assert "Olga (you)" in still and "taken over" not in still and "closed" not in still, still
        assert json.loads(store.read_text())[f"127.0.0.1:{port}/"] == {"Olga": entry}
        other.kill()
        t.kill()  # the terminal is closed
        t = Tmux(cmd + "; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
        ts.append(t)
        back = t.wait(lambda s: "Olga (you)" in s and len(hand_faces(s)) == 4, 20, "the seat back")
        assert hand_faces(back) == faces
        for _ in range(6):  # the game's goal and rules follow in the log: scroll back to the join
            if "Taking back your seat with its saved token" in back:
                break
            t.keys("PageUp")
            time.sleep(0.2)
            back = t.capture()
        assert "Taking back your seat with its saved token" in back
        t.keys("PageDown", "PageDown", "PageDown", "PageDown", "PageDown", "PageDown")
        t.keys("q")
        t.wait(lambda s: "Leave the table?" in s, 5, "the confirmation")
        t.keys("y")
        assert "FRAPNET-EXIT=0" in t.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "frapnet to exit")
        assert f"127.0.0.1:{port}/" not in json.loads(store.read_text())  # the seat was given up
        # a stale saved token (a new table on the same port): dropped, and a new seat is taken;
        # with --new-seat a saved token is not even tried
        host2 = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                                  "--players", "3", "--bots", "1", "--no-announce", "--name", "Fresh"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        hosts.append(host2)
        port2 = int(re.search(r"on 127\.0\.0\.1:(\d+)", host2.stdout.readline()).group(1))
        from frapnet.tui import tokens
        for flag in ("", " --new-seat"):
            tokens.save_token("127.0.0.1", port2, "stale-token-0123456789", path=store)
            t = Tmux(cmd.replace(f":{port} ", f":{port2} ") + flag + "; echo FRAPNET-EXIT=$?; sleep 60", 80, 24)
            ts.append(t)
            # the first Olga still sits at this table: one name per table, the second is "Olga 2" (issue #9)
            me = "Olga (you)" if flag == "" else "Olga 2 (you)"
            fresh = t.wait(lambda s: me in s, 20, "a new seat")
            assert ("The saved seat is no longer valid; taking a new seat." in fresh) == (flag == ""), fresh
            assert json.loads(store.read_text())[f"127.0.0.1:{port2}/"]["Olga"]["token"] != "stale-token-0123456789"
    finally:
        for t in ts:
            t.kill()
        for h in hosts:
            h.kill()
            h.wait(10)


def test_a_second_join_under_the_same_name_takes_the_seat_over_and_the_first_says_so_without_a_fairness_alarm(
        tmp_path):
    """A newcomer's report: two terminals of one account; the second `frapnet join` under the same
    --name takes the seat over mid-deal with the saved token (the reconnect path, as intended) —
    and the first said "DEAL 1 FAILED THE FAIRNESS CHECK: the host never revealed its seed". Now
    the first says plainly that the seat was taken over (closing's code "replaced"), with no
    alarm; quitting it keeps the saved token and says why on the restored terminal; the second
    plays deal 1 to its end and checks it (✓)."""
    host = subprocess.Popen([sys.executable, "-m", "frapnet", "host", "--port", "0", "--bind", "127.0.0.1",
                             "--players", "2", "--bots", "1", "--no-announce", "--seed", "5", "--name", "Twice",
                             "--grace", "60", "--pause", "30"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    state = tmp_path / "state"
    store = state / "frapnet" / "tokens.json"
    taken = ("This seat was taken over by another connection with its token (another terminal or window, perhaps); "
             "the game goes on there.")
    ts = []
    try:
        port = int(re.search(r"on 127\.0\.0\.1:(\d+)", host.stdout.readline()).group(1))
        cmd = (f"cd {tmp_path} && env PROMPT_TOOLKIT_NO_CPR=1 XDG_STATE_HOME={state} {sys.executable} -m frapnet "
               f"join 127.0.0.1:{port} --name Olga --lang en; echo FRAPNET-EXIT=$?; sleep 60")
        first = Tmux(cmd, 100, 30)
        ts.append(first)
        first.wait(lambda s: "[l] Look" in s and "Olga (you)" in s, 20, "the table")
        first.keys("l")  # deal 1 seen: its check is under way in this client
        faces = hand_faces(first.wait(lambda s: len(hand_faces(s)) == 4, 10, "the hand face up"))
        entry = json.loads(store.read_text())[f"127.0.0.1:{port}/"]["Olga"]
        second = Tmux(cmd, 100, 30)  # another terminal of the same account, the same name
        ts.append(second)
        back = second.wait(lambda s: "Olga (you)" in s and len(hand_faces(s)) == 4, 20, "the seat taken over")
        assert hand_faces(back) == faces
        said = first.wait(lambda s: taken in " ".join(s.split()), 10, "the first terminal to say why")
        assert "FAIRNESS" not in said and "NOT FAIR" not in said and "never revealed" not in said, said
        assert said.rstrip().splitlines()[-1].endswith("seat taken over"), said  # the status bar
        def saved():  # the second terminal saved the same token again (a newer "saved" time)
            return {k: v for k, v in json.loads(store.read_text())[f"127.0.0.1:{port}/"]["Olga"].items() if k != "saved"}
        kept = {k: v for k, v in entry.items() if k != "saved"}
        assert saved() == kept and set(json.loads(store.read_text())[f"127.0.0.1:{port}/"]) == {"Olga"}
        first.keys("q")  # closed: quits without asking
        out = first.wait(lambda s: "FRAPNET-EXIT=" in s, 10, "the first frapnet to exit")
        assert "FRAPNET-EXIT=0" in out and taken in " ".join(out.split()) and "FAIRNESS" not in out, out
        assert saved() == kept  # the other terminal's seat: its token stays saved
        # the deal goes on in the second terminal, which is shown its reveal and checks it
        deadline = time.monotonic() + 60
        screen = second.capture()
        while "✓ deal 1 fair" not in screen:
            assert time.monotonic() < deadline, screen
            if _drive(second, screen):
                second.wait(lambda x, s=screen: x != s, 10, "the screen to change")
            time.sleep(0.05)
            screen = second.capture()
        assert "FAIRNESS" not in screen and "NOT FAIR" not in screen and "Olga (you)" in screen, screen
    finally:
        for t in ts:
            t.kill()
        host.terminate()
        host.wait(timeout=10)
