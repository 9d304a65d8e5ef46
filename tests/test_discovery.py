"""LAN discovery (issue #3 item 5): DNS-SD announce / browse / resolve with zeroconf.

Pure helpers are tested directly. Everything that sends multicast runs in subprocesses inside a
network namespace created for the test (``unshare -n``, loopback up with multicast and a route
for 224.0.0.0/4) — never on this machine's real interfaces. Where namespaces cannot be created
(not root, no iproute2/unshare) those tests skip and say why.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap

import pytest

from frapnet.net import discovery
from frapnet.net.discovery import DiscoveryError, Table

PY = sys.executable
FRAPNET = os.path.join(os.path.dirname(PY), "frapnet")


def _netns_reason() -> str | None:
    if os.name != "posix" or not hasattr(os, "geteuid"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (unshare -n); run as root as .ci/run does"
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "unshare or ip (iproute2) missing; .ci/run installs iproute2"
    r = subprocess.run(["unshare", "-n", "ip", "link", "set", "lo", "up"], capture_output=True, text=True)
    if r.returncode != 0:
        return f"cannot create a network namespace: {r.stderr.strip() or r.returncode}"
    return None


NETNS_REASON = _netns_reason()
needs_netns = pytest.mark.skipif(NETNS_REASON is not None, reason=NETNS_REASON or "")

SETUP = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"


def in_private_netns(script: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the shell ``script`` inside a fresh network namespace (loopback only, multicast on)."""
    return subprocess.run(["unshare", "-n", "sh", "-ec", f"{SETUP}\n{script}"], capture_output=True,
                          text=True, timeout=timeout)


ANNOUNCER = textwrap.dedent("""
    import sys, time
    from frapnet.net import discovery as d
    name, port = sys.argv[1], int(sys.argv[2])
    a = d.announce(None, name, port, d.table_props("frap", 3, 4, "1.0", True), interfaces=["127.0.0.1"])
    print("ready", a.ready.result(10), flush=True)
    def wait_for(path, limit=30):  # the test says when (no sleeps that a busy machine outruns)
        import os
        end = time.monotonic() + limit
        while not os.path.exists(path) and time.monotonic() < end:
            time.sleep(0.05)
    wait_for("go.update")
    a.update(d.table_props("frap", 1, 4, "1.0", True)).result(10)
    print("updated", flush=True)
    wait_for("go.close")
    a.close().result(10)
    print("closed", flush=True)
""")

# in a test script: wait (bounded) until the announcer has printed WORD
WAIT = 'i=0; until grep -q "{word}" ann.out; do i=$((i+1)); [ $i -lt 300 ] || exit 9; sleep 0.1; done'


BROWSER = "import json, sys; from frapnet.net import discovery as d; " \
          "print(json.dumps([t.to_dict() for t in d.browse(float(sys.argv[1]), ['127.0.0.1'])]))"

RESOLVER = "import sys; from frapnet.net import discovery as d; print(d.resolve(sys.argv[1], 3, ['127.0.0.1']))"


# --- pure helpers ---------------------------------------------------------------------------

def test_table_props_carry_the_txt_keys():
    p = discovery.table_props("napoleon", 2, 5, "1.0", password=False, version="9.9")
    assert p == {"game": "napoleon", "seats_free": "2", "players": "5", "protocol": "1.0", "password": "no",
                 "version": "9.9"}
    assert tuple(p) == discovery.TXT_KEYS
    assert discovery.table_props("frap", 0, 4, "1.0", True)["password"] == "yes"


def test_service_type_fits_dns_sd():
    """RFC 6763: the service label is at most 15 bytes (_frapnet is 8)."""
    assert discovery.SERVICE_TYPE == "_frapnet._tcp.local."
    assert len(discovery.SERVICE_TYPE.split(".")[0]) <= 16


def test_parse_hostport():
    assert discovery.parse_hostport("127.0.0.1:4000") == ("127.0.0.1", 4000)
    assert discovery.parse_hostport("kitchen.local:80") == ("kitchen.local", 80)
    assert discovery.parse_hostport("[::1]:9") == ("::1", 9)
    assert discovery.parse_hostport("Olga's table") is None
    with pytest.raises(ValueError, match="port must be 1…65535, not 70000"):
        discovery.parse_hostport("host:70000")


def test_an_address_without_a_port_is_an_address_not_a_table_name(monkeypatch):
    """Issue #10 item 10: `frapnet join 127.0.0.1` (and bot) means that host on the default port
    7777 — no LAN browse for a table called "127.0.0.1"; a plain word is still a table name."""
    def no_browse(*a, **k):
        raise AssertionError("browsed the LAN for a table name")
    monkeypatch.setattr(discovery, "browse", no_browse)
    assert discovery.DEFAULT_PORT == 7777
    assert discovery.resolve("127.0.0.1", timeout=0.1) == ("127.0.0.1", 7777)
    assert discovery.resolve(" 192.168.1.20 ", timeout=0.1) == ("192.168.1.20", 7777)
    assert discovery.resolve("::1", timeout=0.1) == ("::1", 7777)
    assert discovery.resolve("[::1]", timeout=0.1) == ("::1", 7777)
    assert discovery.resolve("localhost", timeout=0.1) == ("localhost", 7777)
    assert discovery.resolve("127.0.0.1:4000", timeout=0.1) == ("127.0.0.1", 4000)
    assert discovery.parse_hostport("Friday") is None and discovery.parse_hostport("10.0.0") is None


def test_find_table_exact_case_prefix_and_clear_errors():
    ts = [Table("Kitchen", "10.0.0.2", 1, {}), Table("kitchen 2", "10.0.0.3", 2, {}), Table("Den", "10.0.0.4", 3, {})]
    assert discovery.find_table(ts, "Kitchen").port == 1
    assert discovery.find_table(ts, "KITCHEN").port == 1
    assert discovery.find_table(ts, "de").port == 3
    with pytest.raises(DiscoveryError, match="several tables match 'kit'"):
        discovery.find_table(ts, "kit")
    with pytest.raises(DiscoveryError, match=r"no table called 'attic' on the LAN \(tables seen: Den, Kitchen, kitchen 2\)"):
        discovery.find_table(ts, "attic")
    ts.append(Table("Den\x1b[2J\u202e", "10.0.0.5", 4, {}))  # issue #9: any machine may announce a name
    with pytest.raises(DiscoveryError) as exc:
        discovery.find_table(ts, "attic")
    assert str(exc.value) == r"no table called 'attic' on the LAN (tables seen: Den, Den\x1b[2J\u202e, Kitchen, kitchen 2)"
    with pytest.raises(DiscoveryError) as exc:
        discovery.find_table(ts, "de")
    assert str(exc.value) == (r"several tables match 'de': Den at 10.0.0.4:3, Den\x1b[2J\u202e at 10.0.0.5:4; "
                              "join one by HOST:PORT")


def test_bad_names_interfaces_and_ports_are_refused():
    with pytest.raises(ValueError, match="longer than 63 bytes"):
        discovery.announce(None, "x" * 64, 4000, {})
    with pytest.raises(ValueError, match="non-empty"):
        discovery.announce(None, " ", 4000, {})
    with pytest.raises(ValueError, match="port must be 1…65535, not 0"):
        discovery.announce(None, "t", 0, {})
    with pytest.raises(ValueError, match="local IPv4 address, not 'eth0'"):
        discovery.announce(None, "t", 4000, {}, interfaces=["eth0"])


# --- real multicast, inside a private namespace -----------------------------------------------

@needs_netns
def test_announce_browse_update_close_in_a_namespace():
    """A table announced in one process is found by another with its TXT (game, seats free,
    players, protocol, password); an update is seen; after close (goodbye) it is gone."""
    script = f"""
{PY} -c '{ANNOUNCER}' "Olga's table" 4567 > ann.out &
{WAIT.format(word="ready")}
{PY} -c "{BROWSER}" 3
touch go.update
{WAIT.format(word="updated")}
sleep 0.3
{PY} -c "{BROWSER}" 3
touch go.close
wait
sleep 0.5
{PY} -c "{BROWSER}" 1.2
cat ann.out
"""
    tmp = os.environ.get("TMPDIR", "/tmp")
    r = in_private_netns(f"cd $(mktemp -d -p {tmp})\n{script}")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    first, second, after = (json.loads(x) for x in lines[:3])
    assert lines[3:] == ["ready Olga's table", "updated", "closed"]
    assert [t["name"] for t in first] == ["Olga's table"]
    t = first[0]
    assert (t["address"], t["port"]) == ("127.0.0.1", 4567)
    assert t["props"] == {"game": "frap", "seats_free": "3", "players": "4", "protocol": "1.0", "password": "yes",
                          "version": t["props"]["version"]}
    assert second[0]["props"]["seats_free"] == "1"
    assert after == []


@needs_netns
def test_resolve_a_table_name_and_frapnet_tables_in_a_namespace():
    """`frapnet join NAME` resolves through browsing; `frapnet tables` prints the table."""
    script = f"""
{PY} -c '{ANNOUNCER}' "Den" 4999 > ann.out &
ann=$!
{WAIT.format(word="ready")}
{PY} -c "{RESOLVER}" den
{FRAPNET} tables --timeout 3 --interface 127.0.0.1
{PY} -c "{RESOLVER}" attic || echo "exit $?"
kill $ann
"""
    tmp = os.environ.get("TMPDIR", "/tmp")
    r = in_private_netns(f"cd $(mktemp -d -p {tmp})\n{script}")  # ann.out goes there, not into the checkout
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "('127.0.0.1', 4999)"
    assert out[1].split() == ["TABLE", "GAME", "FREE/SEATS", "PASSWORD", "ADDRESS"]
    assert out[2].split() == ["Den", "frap", "3/4", "yes", "127.0.0.1:4999"]
    assert "no table called 'attic' on the LAN (tables seen: Den)" in r.stderr
    assert out[-1] == "exit 1"


AVAHI_REASON = NETNS_REASON or (None if shutil.which("avahi-browse") and shutil.which("avahi-daemon")
                                and shutil.which("dbus-daemon")
                                else "avahi-utils/avahi-daemon not installed (apt-get install avahi-utils avahi-daemon)")


@pytest.mark.skipif(AVAHI_REASON is not None, reason=AVAHI_REASON or "")
def test_avahi_browse_sees_the_table(tmp_path):
    """Standard tools see a frapnet table (issue #3 item 5): namespace A announces over a veth link;
    in namespace B a private dbus-daemon and avahi-daemon (mount namespace, tmpfs /run/dbus) run
    and `avahi-browse -rtp _frapnet._tcp` resolves the table with its address, port and TXT,
    before and after a TXT update."""
    tag = f"{os.getpid() % 100000}{random.randrange(100):02d}"
    a, b, va, vb = f"avA{tag}", f"avB{tag}", f"fava{tag}"[:15], f"favb{tag}"[:15]
    conf = tmp_path / "avahi.conf"
    conf.write_text(f"[server]\nuse-ipv4=yes\nuse-ipv6=no\nallow-interfaces={vb}\nenable-dbus=yes\n"
                    "[publish]\ndisable-publishing=yes\n")
    # polls, not sleeps (a busy machine outruns any fixed wait): browse until the table is resolved,
    # tell the announcer to update (go.update), browse until the new TXT is seen, then go.close
    browse = "avahi-browse -rtp _frapnet._tcp > b.out; cat b.out"
    browse_b = textwrap.dedent(f"""
        mount --make-rprivate /
        mount -t tmpfs tmpfs /run/dbus 2>/dev/null || {{ mkdir -p /run/dbus; mount -t tmpfs tmpfs /run/dbus; }}
        mkdir -p /run/avahi-daemon; mount -t tmpfs tmpfs /run/avahi-daemon
        dbus-daemon --system --fork
        avahi-daemon -D --no-drop-root --no-chroot --no-rlimits -f {conf}
        i=0; until {{ {browse}; }} | grep -q '^='; do i=$((i+1)); [ $i -lt 60 ] || break; sleep 0.5; done
        cat b.out
        echo ---
        touch go.update
        {WAIT.format(word="updated")}
        i=0; until {{ {browse}; }} | grep -q 'seats_free=1'; do i=$((i+1)); [ $i -lt 60 ] || break; sleep 0.5; done
        cat b.out
        touch go.close
        avahi-daemon -k || true
        kill $(cat /run/dbus/pid) 2>/dev/null || true
    """)
    made = []
    ann = None
    try:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "add", ns], check=True)
            made.append(ns)
        subprocess.run(["ip", "link", "add", va, "type", "veth", "peer", "name", vb], check=True)
        for ns, dev, addr in ((a, va, "10.77.0.1"), (b, vb, "10.77.0.2")):
            subprocess.run(["ip", "link", "set", dev, "netns", ns], check=True)
            subprocess.run(["ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", dev], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", "lo", "up"], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", dev, "up"], check=True)
            subprocess.run(["ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", dev], check=True)
        script = ANNOUNCER.replace('interfaces=["127.0.0.1"]', 'interfaces=["10.77.0.1"]')
        with open(tmp_path / "ann.out", "w") as ann_out:
            ann = subprocess.Popen(["ip", "netns", "exec", a, PY, "-c", script, "Kitchen table", "4567"],
                                   stdout=ann_out, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        r = subprocess.run(["ip", "netns", "exec", b, "unshare", "-m", "sh", "-c", browse_b], capture_output=True,
                           text=True, timeout=120, cwd=tmp_path)
        ann.communicate(timeout=30)
    finally:
        if ann is not None and ann.poll() is None:
            ann.kill()
        for ns in made:
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
            for pid in pids:  # only processes inside the namespaces this test made
                subprocess.run(["kill", pid], capture_output=True)
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    first, _, second = r.stdout.partition("---")
    resolved = [ln.split(";") for ln in first.splitlines() if ln.startswith("=")]
    assert resolved, r.stdout + r.stderr
    f = resolved[0]
    assert (f[2], f[3], f[4], f[7], f[8]) == ("IPv4", "Kitchen\\032table", "_frapnet._tcp", "10.77.0.1", "4567")
    txt = dict(x.strip('"').split("=", 1) for x in f[9].split('" "'))
    assert (txt["game"], txt["seats_free"], txt["players"], txt["password"], txt["protocol"]) == \
        ("frap", "3", "4", "yes", "1.0")
    assert '"seats_free=1"' in second


def test_frapnet_tables_escapes_what_the_lan_announces_issue_9(monkeypatch, capsys):
    """Issue #9 hostile input (the LAN): any machine may announce a table; its name and TXT
    values reached the terminal raw (ESC, BEL, bidi), and a ``web`` port of "²" (a digit to
    str.isdigit, not to int) ended `frapnet tables` in a traceback. Now they are escaped as the
    host logs client text, and such a port is no web page; --json holds the real strings, every
    control and format character a \\u escape."""
    import json
    from argparse import Namespace

    from frapnet.commands import tables as tables_cmd

    evil = discovery.Table("Den\x1b]0;pwned\x07\u202e", "192.168.1.5", 7777,
                           {"game": "frap\x1b[2J", "seats_free": "3", "players": "4", "password": "no\x07",
                            "web": "²"}, ["192.168.1.5"])
    attic = discovery.Table("Attic", "192.168.1.6", 7777, {"game": "frap", "seats_free": "1", "players": "4",
                                                           "password": "yes", "web": "8080"}, ["192.168.1.6"])
    monkeypatch.setattr(discovery, "browse", lambda timeout, interfaces: [attic, evil])
    assert tables_cmd.run(Namespace(timeout=1.0, interface=None, json=False)) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].split() == ["Attic", "frap", "1/4", "yes", "192.168.1.6:7777", "http://192.168.1.6:8080/"]
    assert lines[2].split() == [r"Den\x1b]0;pwned\x07\u202e", r"frap\x1b[2J", "3/4", r"no\x07", "192.168.1.5:7777"]
    assert not any(c in out for c in "\x1b\x07\u202e")
    assert tables_cmd.run(Namespace(timeout=1.0, interface=None, json=True)) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\u202e")
    assert [t["name"] for t in json.loads(out)] == ["Attic", "Den\x1b]0;pwned\x07\u202e"]
