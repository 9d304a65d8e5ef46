"""The two-machine test (issue #3): a host and its players on two "machines" — two network
namespaces joined by a veth pair (iproute2) — with LAN discovery across the link.

Namespace A runs `frapnet host --bots 2 --players 4 --announce --interface <A's address>`;
namespace B finds the table with `frapnet tables --json --interface <B's address>` (DNS-SD over
the veth link), then two `frapnet bot` processes join it — one by table NAME (resolved by
browsing, as `frapnet join NAME` does), one by HOST:PORT — and a deal is played to the end.
Nothing touches this machine's real interfaces; the namespaces (unique names per run) are
deleted in a finally block. Where namespaces cannot be created the test skips and says why.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time

import pytest

from frapnet.testing import netns_unavailable

BIN = os.path.dirname(sys.executable)
FRAPNET = os.path.join(BIN, "frapnet")


REASON = netns_unavailable()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def sh(*args: str) -> None:
    r = subprocess.run(list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")


class TwoMachines:
    """Namespaces ``a`` and ``b`` joined by a veth pair on 10.N.0.0/24 (A = .1, B = .2), lo up in
    both, a route for 224.0.0.0/4 on each veth (stack-notes.md). Also a second (veth) interface in A
    with 10.N.1.1, to check the announcement uses only the interface it was given."""

    def __init__(self) -> None:
        tag = f"{os.getpid() % 100000}{random.randrange(1000):03d}"
        self.a, self.b = f"frapA{tag}", f"frapB{tag}"
        self.va, self.vb = f"fva{tag}"[:15], f"fvb{tag}"[:15]
        n = random.randrange(16, 250)
        self.addr_a, self.addr_b, self.other_a = f"10.{n}.0.1", f"10.{n}.0.2", f"10.{n}.1.1"
        self.created: list[str] = []

    def up(self) -> None:
        for ns in (self.a, self.b):
            sh("ip", "netns", "add", ns)
            self.created.append(ns)
        sh("ip", "link", "add", self.va, "type", "veth", "peer", "name", self.vb)
        sh("ip", "link", "set", self.va, "netns", self.a)
        sh("ip", "link", "set", self.vb, "netns", self.b)
        for ns, dev, addr in ((self.a, self.va, self.addr_a), (self.b, self.vb, self.addr_b)):
            sh("ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "-n", ns, "link", "set", dev, "up")
            sh("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", dev)
        sh("ip", "-n", self.a, "link", "add", "fxa0", "type", "veth", "peer", "name", "fxa1")
        sh("ip", "-n", self.a, "addr", "add", f"{self.other_a}/24", "dev", "fxa0")
        sh("ip", "-n", self.a, "link", "set", "fxa0", "up")
        sh("ip", "-n", self.a, "link", "set", "fxa1", "up")

    def down(self) -> None:
        for ns in self.created:  # deleting a namespace deletes its interfaces (and the veth pair)
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.created = []

    def cmd(self, ns: str, *args: str) -> list[str]:
        return ["ip", "netns", "exec", ns, *args]


def test_two_machines_discover_and_play_a_deal_F6(tmp_path):
    """Across a veth link: the table announced in A is listed in B with the right TXT (game frap,
    2 seats free of 4, protocol, no password) and A's address only; two bots from B join (by
    name and by HOST:PORT) and the deal is played to the end; the host's balances plus the pot
    sum to 0 (F6); the record has the deal's actions and replays to the host's balances."""
    m = TwoMachines()
    procs: list[subprocess.Popen] = []
    try:
        m.up()
        rec = tmp_path / "deal.json"
        host_out = open(tmp_path / "host.out", "w+")
        host_err = open(tmp_path / "host.err", "w+")
        host = subprocess.Popen(m.cmd(m.a, FRAPNET, "host", "--port", "0", "--name", "Kitchen table", "--bots", "2",
                                      "--players", "4", "--seed", "6", "--deals", "1", "--pause", "0", "--rematch", "0",
                                      "--announce", "--interface", m.addr_a, "--record", str(rec)),
                                stdout=host_out, stderr=host_err, text=True)
        procs.append(host)
        port = None
        for _ in range(200):
            host_out.seek(0)
            line = host_out.readline()
            if "hosting table" in line:
                port = int(line.rsplit(":", 1)[1])
                break
            assert host.poll() is None, (tmp_path / "host.err").read_text()
            time.sleep(0.05)
        assert port, "the host did not start"

        found = subprocess.run(m.cmd(m.b, FRAPNET, "tables", "--json", "--timeout", "3", "--interface", m.addr_b),
                               capture_output=True, text=True, timeout=30)
        assert found.returncode == 0, found.stderr
        tables = json.loads(found.stdout)
        assert [t["name"] for t in tables] == ["Kitchen table"], found.stdout
        t = tables[0]
        assert (t["address"], t["port"]) == (m.addr_a, port)
        assert t["addresses"] == [m.addr_a]  # --interface: not A's other address 10.N.1.1
        p = t["props"]
        assert (p["game"], p["seats_free"], p["players"], p["password"]) == ("frap", "2", "4", "no")
        assert p["protocol"].split(".")[0] == "1" and p["version"]

        bots = [subprocess.Popen(m.cmd(m.b, FRAPNET, "bot", target, "--seed", str(i), "--name", f"B{i}",
                                       "--interface", m.addr_b, "--timeout", "3"),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for i, target in enumerate(("kitchen table", f"{m.addr_a}:{port}"))]
        procs.extend(bots)
        outs = [b.communicate(timeout=60) for b in bots]
        assert host.wait(timeout=30) == 0, (tmp_path / "host.err").read_text()
        log = (tmp_path / "host.err").read_text()
        assert "Traceback" not in log and "announcing table Kitchen table on the LAN" in log, log
        host_out.seek(0)
        result = json.loads(host_out.read().splitlines()[-1])
        assert result["deals"] == 1
        assert sum(result["balances"]) + result["pot"] == 0  # F6
        for b, (so, se) in zip(bots, outs):
            assert b.returncode == 0, se
            assert json.loads(so.splitlines()[-1]) == result
        seats = sorted(int(so.splitlines()[0].split(" at seat ")[1].split()[0]) for so, _ in outs)
        assert seats == [0, 1]  # the host's two bots hold seats 2 and 3
        deal = json.loads(rec.read_text())["deals"][0]
        assert any(a[1] == "play" for a in deal["actions"]), "seed 6 gives a played deal"
        assert {a[0] for a in deal["actions"]} >= {0, 1}  # both remote bots acted
        rep = json.loads(subprocess.run([FRAPNET, "replay", "--json", str(rec)], capture_output=True,
                                        text=True).stdout)
        assert rep["ok"] and rep["balances"] == result["balances"] and rep["pot"] == result["pot"]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        m.down()
    assert subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.count(m.a) == 0
