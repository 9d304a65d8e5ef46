"""What the browser endpoint (:mod:`frapnet.net.web`) checks of an HTTP request before it
upgrades it to the table's WebSocket (issue #12; docs/web.md "Security"): the ``Origin`` and
``Host`` headers (:func:`origin_allowed`) and the upgrade's own headers (:func:`upgrade_problem`).
Pure functions of header values (and this machine's names); no Twisted reactor."""
from __future__ import annotations

import base64
import binascii
import ipaddress
import socket
from urllib.parse import urlsplit

def local_names() -> set[str]:
    """This machine's own names a browser may use to reach it (lower case): ``localhost``, the
    host name, its fully qualified name and ``NAME.local`` (mDNS)."""
    names = {"localhost"}
    try:
        h = socket.gethostname().lower()
        if h:
            short = h.split(".")[0]
            names |= {h, short, f"{short}.local"}
        fq = socket.getfqdn().lower()
        if fq:
            names.add(fq)
    except OSError:
        pass
    return names


def _host_of(netloc: str) -> str:
    """The host part of ``HOST[:PORT]`` / ``[V6]:PORT``, lower case, without brackets."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1:netloc.find("]")] if "]" in netloc else ""
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def origin_allowed(origin: str | None, host: str | None, names: set[str] | None = None) -> str | None:
    """None if a WebSocket handshake with this ``Origin`` and ``Host`` header may proceed, else the
    reason it may not (for the log and the 403 body).

    Allowed: an ``Origin`` of scheme ``http`` or ``https`` whose ``host:port`` is exactly the
    ``Host`` header (the page this endpoint served), where that host is an IP address or one of
    ``names`` (default :func:`local_names`): a name that resolves elsewhere (DNS rebinding) is
    refused. A missing Origin, ``null`` or another site is refused."""
    if not origin:
        return "no Origin header (only the table's own page may open the WebSocket)"
    if not host:
        return "no Host header"
    try:
        o = urlsplit(origin.strip())
    except ValueError:
        return f"unreadable Origin {origin[:80]!r}"
    if o.scheme not in ("http", "https") or not o.netloc:
        return f"Origin {origin[:80]!r} is not the table's page"
    if o.netloc.lower() != host.strip().lower():
        return f"Origin {origin[:80]!r} is another site than this table's page (http://{host[:80]})"
    h = _host_of(host)
    try:
        ipaddress.ip_address(h)
        return None
    except ValueError:
        pass
    if h in (names if names is not None else local_names()):
        return None
    return f"Host {host[:80]!r} is not an address or a name of this machine"


_UPGRADE_HEADERS = (b"connection", b"upgrade", b"sec-websocket-key", b"sec-websocket-version",
                    b"sec-websocket-extensions", b"sec-websocket-protocol")


def upgrade_problem(request) -> tuple[int, str] | None:
    """None if ``request`` (a GET of /ws) is a WebSocket upgrade the WebSocket library can take,
    else ``(HTTP status, reason)`` naming the header (issue #9: a non-ASCII byte in Connection,
    Sec-WebSocket-Extensions or -Protocol raised UnicodeDecodeError inside the library — a
    traceback and a 500 —, and its own refusals were error-level lines naming no client)."""
    headers = request.requestHeaders
    for name in _UPGRADE_HEADERS:
        for value in headers.getRawHeaders(name, ()):
            if not value.isascii():
                return 400, f"{_HEADER_TITLE[name]}: a value that is not ASCII text"
    tokens = b",".join(headers.getRawHeaders(b"connection", ())).lower().split(b",")
    if b"upgrade" not in (t.strip() for t in tokens):
        return 400, "no 'Connection: Upgrade' header (this address is the table's WebSocket)"
    if (headers.getRawHeaders(b"upgrade") or [b""])[-1].strip().lower() != b"websocket":
        return 400, "no 'Upgrade: websocket' header (this address is the table's WebSocket)"
    if (headers.getRawHeaders(b"sec-websocket-version") or [b""])[-1].strip() != b"13":
        return 426, "Sec-WebSocket-Version 13 only (RFC 6455)"
    keys = headers.getRawHeaders(b"sec-websocket-key") or []
    if not keys:
        return 400, "no Sec-WebSocket-Key header"
    if len(keys) > 1 or not _is_key(keys[0].strip()):
        return 400, "Sec-WebSocket-Key: not one base64 value of 16 bytes (RFC 6455 section 4.1)"
    return None


def _is_key(value: bytes) -> bool:
    """Is ``value`` 16 bytes in base64 (24 characters, RFC 6455's Sec-WebSocket-Key)?"""
    try:
        return len(value) == 24 and len(base64.b64decode(value, validate=True)) == 16
    except (binascii.Error, ValueError):
        return False


_HEADER_TITLE = {b"connection": "Connection", b"upgrade": "Upgrade", b"sec-websocket-key": "Sec-WebSocket-Key",
                 b"sec-websocket-version": "Sec-WebSocket-Version",
                 b"sec-websocket-extensions": "Sec-WebSocket-Extensions",
                 b"sec-websocket-protocol": "Sec-WebSocket-Protocol"}
