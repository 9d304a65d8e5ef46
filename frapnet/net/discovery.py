"""LAN discovery of frapnet tables with DNS-SD over multicast DNS (the zeroconf library).

A table announces itself as an instance of the service type ``_frapnet._tcp.local.``: instance
name = table name, SRV = the host's port, A = its IPv4 addresses, TXT (:func:`table_props`):

    game=frap  seats_free=2  players=4  protocol=1.0  password=no  version=0.1.0

and ``web=8080`` when the host also serves the table's web page on that HTTP port
(docs/web.md), so standard tools (``avahi-browse -rt _frapnet._tcp``) list the tables as well.

- :func:`announce` (host side) registers a table and returns an :class:`Announcement` with
  ``.update(props)`` and ``.close()``.
- :func:`browse` / :func:`browse_async` list the tables seen within a timeout.
- :func:`resolve` turns ``"HOST:PORT"`` or a table name into ``(host, port)`` (``frapnet join``).

Zeroconf runs as ``AsyncZeroconf`` inside coroutines on an asyncio loop: the Twisted asyncio
reactor's loop when the host runs on one (stack-notes.md), else a private loop in a daemon
thread. IPv4 only. ``interfaces`` (a list of local IPv4 addresses) limits where it sends and
listens; None means all interfaces (design principle 7: only tables meant for the LAN announce).
Tests announce and browse only inside network namespaces they create (tests/test_discovery.py).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import ipaddress
import re
import socket
import threading
from dataclasses import dataclass, field
from typing import Any, Iterable

from frapnet.net.protocol import for_log

SERVICE_TYPE = "_frapnet._tcp.local."
"""The DNS-SD service type of a frapnet table (label ≤ 15 bytes, RFC 6763)."""
MAX_INSTANCE = 63
"""Longest table name, in UTF-8 bytes (one DNS label)."""
TXT_KEYS = ("game", "seats_free", "players", "protocol", "password", "version")
"""The TXT keys every announced table carries."""


class DiscoveryError(Exception):
    """Discovery could not start or a name did not resolve (message says which and why)."""


@dataclass
class Table:
    """One table seen on the LAN: ``name`` (instance name = table name), ``address`` (IPv4 text,
    the first of ``addresses``), ``port`` (TCP), ``props`` (TXT as str → str; see TXT_KEYS)."""

    name: str
    address: str
    port: int
    props: dict = field(default_factory=dict)
    addresses: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"name": self.name, "address": self.address, "port": self.port, "props": dict(self.props),
                "addresses": list(self.addresses)}


def table_props(game: str, seats_free: int, players: int, protocol: str, password: bool,
                version: str | None = None, **extra: Any) -> dict[str, str]:
    """The TXT properties of a table: ``game`` (name), ``seats_free`` / ``players`` (counts),
    ``protocol`` (the wire protocol version, ``"1.0"``), ``password`` (``"yes"``/``"no"``),
    ``version`` (frapnet's version on the host), plus ``extra`` keys as text."""
    if version is None:
        from frapnet import __version__ as version
    props = {"game": str(game), "seats_free": str(int(seats_free)), "players": str(int(players)),
             "protocol": str(protocol), "password": "yes" if password else "no", "version": str(version)}
    props.update({str(k): str(v) for k, v in extra.items()})
    return props


def check_table_name(name: str) -> str:
    """Return ``name`` if it can be a DNS-SD instance name (1–63 UTF-8 bytes, no control
    characters, not ending in a dot); raise ValueError naming the problem otherwise."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("a table name must be a non-empty string")
    if len(name.encode("utf-8")) > MAX_INSTANCE:
        raise ValueError(f"table name {name!r} is longer than {MAX_INSTANCE} bytes (DNS-SD instance name)")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name) or name.endswith("."):
        raise ValueError(f"table name {name!r} has control characters or ends with a dot")
    return name


def timeout_problem(timeout: float) -> str | None:
    """What is wrong with a ``--timeout`` to listen for announcements (`frapnet tables`, `join`,
    `bot`): it is more than 0 and at most 60 seconds (not NaN, not infinite); None if nothing."""
    if not 0 < timeout <= 60:
        return f"--timeout must be more than 0 and at most 60 seconds, not {timeout}"
    return None


def _check_interfaces(interfaces: Iterable[str] | None) -> list[str] | None:
    if interfaces is None:
        return None
    if isinstance(interfaces, str):
        interfaces = [interfaces]
    out = []
    for a in interfaces:
        try:
            out.append(str(ipaddress.IPv4Address(a)))
        except (ipaddress.AddressValueError, ValueError):
            raise ValueError(f"--interface wants a local IPv4 address, not {a!r}") from None
    if not out:
        raise ValueError("interfaces is an empty list (give None for all interfaces)")
    return out


def _check_local(interfaces: list[str] | None) -> None:
    """Raise ValueError naming the first of ``interfaces`` that no interface of this machine has
    (zeroconf's own error for it is "[Errno 19] No such device")."""
    import ifaddr

    mine = {ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if ip.is_IPv4}
    for a in interfaces or ():
        if a not in mine:
            raise ValueError(f"--interface {a}: no interface of this machine has that address")


def _local_ipv4() -> list[str]:
    """Every non-loopback IPv4 address of this machine (ifaddr, zeroconf's own dependency)."""
    import ifaddr

    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and not ipaddress.IPv4Address(ip.ip).is_loopback:
                out.append(ip.ip)
    return out or ["127.0.0.1"]


def _zc_kwargs(interfaces: list[str] | None) -> dict:
    from zeroconf import InterfaceChoice, IPVersion

    return {"interfaces": interfaces if interfaces else InterfaceChoice.All, "ip_version": IPVersion.V4Only}


def _server_name() -> str:
    host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0]) or "frapnet"
    return f"{host[:50]}.local."


# --- the loop zeroconf runs on ----------------------------------------------------------------

class _ThreadLoop:
    """A private asyncio loop in a daemon thread, for callers without an asyncio loop."""

    _lock = threading.Lock()
    _loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def get(cls) -> asyncio.AbstractEventLoop:
        with cls._lock:
            if cls._loop is None or cls._loop.is_closed():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="frapnet-zeroconf", daemon=True).start()
                cls._loop = loop
            return cls._loop


def _loop_of(reactor_or_loop: Any) -> asyncio.AbstractEventLoop:
    """The asyncio loop behind ``reactor_or_loop``: the loop itself, a Twisted asyncio reactor's
    loop, else (another reactor, None) a private loop thread."""
    if isinstance(reactor_or_loop, asyncio.AbstractEventLoop):
        return reactor_or_loop
    loop = getattr(reactor_or_loop, "_asyncioEventloop", None)
    if isinstance(loop, asyncio.AbstractEventLoop):
        return loop
    return _ThreadLoop.get()


# --- announcing -----------------------------------------------------------------------------

class Announcement:
    """A table's DNS-SD registration (from :func:`announce`).

    ``name``: the instance name actually registered (zeroconf appends `` (2)`` on a clash);
    ``ready``: a ``concurrent.futures.Future`` done once the service is registered (its
    exception if registration failed). :meth:`update` re-announces new TXT properties
    (coalesced: only the latest pending one is sent); :meth:`close` unregisters (goodbye packets)
    and closes zeroconf. Methods may be called from the loop's thread or any other thread.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, name: str, port: int, props: dict,
                 interfaces: list[str] | None, addresses: list[str]) -> None:
        self.loop = loop
        self.name = name
        self.port = port
        self.props = dict(props)
        self.interfaces = interfaces
        self.addresses = addresses
        self._aiozc = None
        self._info = None
        self._pending: dict | None = None
        self._closed = False
        self.ready = asyncio.run_coroutine_threadsafe(self._register(), loop)

    def _make_info(self, props: dict):
        from zeroconf.asyncio import AsyncServiceInfo

        return AsyncServiceInfo(
            SERVICE_TYPE, f"{self.name}.{SERVICE_TYPE}", port=self.port, properties=props,
            server=_server_name(), addresses=[socket.inet_aton(a) for a in self.addresses])

    async def _register(self) -> str:
        from zeroconf.asyncio import AsyncZeroconf

        self._aiozc = AsyncZeroconf(**_zc_kwargs(self.interfaces))
        self._info = self._make_info(self.props)
        task = await self._aiozc.async_register_service(self._info, allow_name_change=True)
        await task
        self.name = self._info.name[: -len(SERVICE_TYPE) - 1]
        if self._closed:
            await self._shutdown()
        return self.name

    @property
    def closed(self) -> bool:
        return self._closed

    def update(self, props: dict) -> concurrent.futures.Future:
        """Announce new TXT ``props`` (e.g. fewer seats free). Returns a ``concurrent.futures.Future``."""
        self.props = dict(props)
        self._pending = self.props
        return asyncio.run_coroutine_threadsafe(self._update(), self.loop)

    async def _update(self) -> None:
        await asyncio.wrap_future(self.ready)
        props, self._pending = self._pending, None
        if props is None or self._closed:
            return
        self._info = self._make_info(props)
        task = await self._aiozc.async_update_service(self._info)
        await task

    def close(self) -> concurrent.futures.Future:
        """Unregister (goodbye packets) and close zeroconf. Idempotent. Returns a
        ``concurrent.futures.Future`` (done once the goodbyes are sent)."""
        if self._closed:
            fut: concurrent.futures.Future = concurrent.futures.Future()
            fut.set_result(None)
            return fut
        self._closed = True
        return asyncio.run_coroutine_threadsafe(self._close(), self.loop)

    async def _close(self) -> None:
        try:
            await asyncio.wrap_future(self.ready)
        except Exception:  # registration failed: still close the sockets
            pass
        await self._shutdown()

    async def _shutdown(self) -> None:
        zc, self._aiozc = self._aiozc, None
        if zc is None:
            return
        try:
            if self._info is not None:
                await zc.async_unregister_service(self._info)
        finally:
            await zc.async_close()


def announce(reactor_or_loop: Any, name: str, port: int, props: dict,
             interfaces: Iterable[str] | None = None) -> Announcement:
    """Announce a table on the LAN: service ``_frapnet._tcp.local.``, instance ``name``.

    ``reactor_or_loop``: the Twisted reactor (the asyncio reactor's loop is used), an asyncio
    loop, or None (a private loop thread). ``port``: the host's TCP port (1–65535). ``props``:
    TXT properties (:func:`table_props`). ``interfaces``: local IPv4 addresses to announce on and
    to put in the A record (None: all interfaces, all non-loopback IPv4 addresses).
    Returns an :class:`Announcement` at once; registration completes in the background
    (``.ready``); ``update()`` and ``close()`` return ``concurrent.futures.Future`` objects.
    Raises ValueError for a bad name, port or interface address.
    """
    check_table_name(name)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise ValueError(f"port must be 1…65535, not {port!r}")
    ifaces = _check_interfaces(interfaces)
    addresses = ifaces if ifaces else _local_ipv4()
    return Announcement(_loop_of(reactor_or_loop), name, port, dict(props), ifaces, addresses)


# --- browsing -------------------------------------------------------------------------------

def _decode_props(raw: dict) -> dict[str, str]:
    out = {}
    for k, v in (raw or {}).items():
        key = k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)
        val = v.decode("utf-8", "replace") if isinstance(v, bytes) else ("" if v is None else str(v))
        out[key] = val
    return out


async def browse_async(timeout: float = 2.0, interfaces: Iterable[str] | None = None) -> list[Table]:
    """The tables announced within ``timeout`` seconds (on the running asyncio loop), sorted by
    name. ``interfaces``: local IPv4 addresses to listen on (None: all)."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    ifaces = _check_interfaces(interfaces)
    try:
        aiozc = AsyncZeroconf(**_zc_kwargs(ifaces))
    except OSError:
        _check_local(ifaces)
        raise
    found: dict[str, asyncio.Task] = {}
    loop = asyncio.get_running_loop()

    async def fetch(name: str):
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        ok = await info.async_request(aiozc.zeroconf, max(200, int(timeout * 1000)))
        return info if ok else None

    def on_change(zeroconf, service_type, name, state_change):
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            found[name] = loop.create_task(fetch(name))  # the latest TXT wins
        elif state_change is ServiceStateChange.Removed:
            task = found.pop(name, None)
            if task:
                task.cancel()

    browser = AsyncServiceBrowser(aiozc.zeroconf, SERVICE_TYPE, handlers=[on_change])
    try:
        await asyncio.sleep(timeout)
        tables = []
        for name, task in list(found.items()):
            try:
                info = await asyncio.wait_for(task, timeout=max(1.0, timeout))
            except (asyncio.TimeoutError, asyncio.CancelledError):
                continue
            if info is None or not info.port:
                continue
            addrs = info.parsed_addresses(IPVersion.V4Only)
            if not addrs:
                continue
            if ifaces:  # prefer an address on the same /24 as an interface browsed on
                nets = [ipaddress.IPv4Network(f"{a}/24", strict=False) for a in ifaces]
                addrs.sort(key=lambda a: not any(ipaddress.IPv4Address(a) in n for n in nets))
            short = name[: -len(SERVICE_TYPE) - 1] if name.endswith("." + SERVICE_TYPE) else name
            tables.append(Table(short, addrs[0], info.port, _decode_props(info.properties), addrs))
        tables.sort(key=lambda t: (t.name.lower(), t.address, t.port))
        return tables
    finally:
        await browser.async_cancel()
        for task in found.values():
            task.cancel()
        await aiozc.async_close()


def browse(timeout: float = 2.0, interfaces: Iterable[str] | None = None) -> list[Table]:
    """Blocking :func:`browse_async` for callers without a running loop (``frapnet tables``)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(browse_async(timeout, interfaces))
    # inside a running loop (e.g. called from a coroutine by mistake): use the private loop thread
    fut = asyncio.run_coroutine_threadsafe(browse_async(timeout, interfaces), _ThreadLoop.get())
    return fut.result(timeout + 10)


# --- resolving ------------------------------------------------------------------------------

_HOSTPORT = re.compile(r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[^\s:\[\]]+)):(?P<port>\d{1,5})$")
# what looks like HOST:PORT with a port that is none: its PORT any text but a colon
_HOSTANY = re.compile(r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[^\s:\[\]]+)):(?P<port>[^:]*)$")


DEFAULT_PORT = 7777  # `frapnet host`'s default --port


def parse_hostport(target: str) -> tuple[str, int] | None:
    """``"HOST:PORT"`` (or ``"[v6]:PORT"``) → ``(host, port)``; an IP address or ``localhost``
    without a port (``"127.0.0.1"``, ``"::1"``, ``"[::1]"``) → ``(host, DEFAULT_PORT)``; None if
    ``target`` is neither (then it is a table name). Raises ValueError for a port outside
    1…65535, and for an address (IP or ``localhost``) or a HOST:NUMBER with a port that is none
    (``"127.0.0.1:-5"``, ``"127.0.0.1:abc"``, ``"h:+80"``)."""
    import ipaddress

    if not isinstance(target, str):
        return None
    t = target.strip()
    bare = t[1:-1] if t.startswith("[") and t.endswith("]") else t
    try:
        return (str(ipaddress.ip_address(bare)), DEFAULT_PORT)
    except ValueError:
        pass
    if bare.casefold() == "localhost":
        return ("localhost", DEFAULT_PORT)
    m = _HOSTPORT.match(t)
    if not m:
        m = _HOSTANY.match(t)  # "127.0.0.1:-5", "h:+80", "h:99999": an address with a port that is none
        if m and (_is_address(m.group("v6") or m.group("host")) or re.fullmatch(r"[+-]?\d+", m.group("port"))):
            raise _not_a_port(m, target)
        return None
    port = int(m.group("port"))
    if not 0 < port < 65536:
        raise ValueError(f"port must be 1…65535, not {port} (in {target!r})")
    return (m.group("v6") or m.group("host"), port)


def _not_a_port(m: re.Match, target: str) -> ValueError:
    """The mistake in ``target``, read as HOST:PORT by :data:`_HOSTANY` (``m``): its port."""
    return ValueError(f"port must be 1…65535, not {m.group('port') or repr('')} (in {target!r})")


def _is_address(host: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host.casefold() == "localhost"
    return True


def find_table(tables: list[Table], name: str) -> Table:
    """The table called ``name`` among ``tables`` (exact, then case-insensitive, then a unique
    prefix). Raises DiscoveryError naming the tables seen if none or several match."""
    for pred in (lambda t: t.name == name, lambda t: t.name.casefold() == name.casefold(),
                 lambda t: t.name.casefold().startswith(name.casefold())):
        hits = [t for t in tables if pred(t)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            where = ", ".join(f"{for_log(t.name, 64)} at {t.address}:{t.port}" for t in hits)
            raise DiscoveryError(f"several tables match {name!r}: {where}; join one by HOST:PORT")
    # names any machine on the LAN announced: escaped for the terminal (issue #9)
    seen = ", ".join(sorted(for_log(t.name, 64) for t in tables)) or "none"
    raise DiscoveryError(f"no table called {name!r} on the LAN (tables seen: {seen})")


def resolve(target: str, timeout: float = 2.0, interfaces: Iterable[str] | None = None) -> tuple[str, int]:
    """``target`` as ``(host, port)``: ``"HOST:PORT"`` as given, an IP address alone on the
    default port (:func:`parse_hostport`), else the table NAME found by browsing for ``timeout``
    seconds (blocking; see :func:`find_table`). Raises ValueError for a bad port (also for a
    name no table has that reads as HOST:PORT, ``"host:abc"``: a table name may have a colon),
    DiscoveryError if the name is not found."""
    hp = parse_hostport(target)
    if hp is not None:
        return hp
    try:
        t = find_table(browse(timeout, interfaces), target)
    except DiscoveryError:
        m = _HOSTANY.match(target.strip()) if isinstance(target, str) else None
        if m:  # no table of that name, and it reads as HOST:PORT ("notahost:abc"): the port is the mistake
            raise _not_a_port(m, target) from None
        raise
    return (t.address, t.port)
