"""The socket under a connection (issue #9, docs/performance.md "The write path"): TCP options,
handing a change's bytes to the kernel at once, and closing so that the last of them arrive
(:func:`close_after_reading`).

:func:`write_now` is what :meth:`frapnet.net.wire.FramedProtocol.sendFrames` writes with. A
Twisted TCP transport never sends in ``write``: it appends to its buffer and asks the reactor to
watch the socket for writability (on the asyncio reactor, ``loop.add_writer``: an ``epoll_ctl``),
and on the next turn of the loop sends and stops watching (``remove_writer``: another
``epoll_ctl``) — per connection and change, two system calls and a few dozen Python calls more
than the ``send`` itself. When the transport's buffer is empty (the usual case: a table's
connections read what they are sent), :func:`write_now` sends right away, as asyncio's own
socket transports do; whatever the kernel does not take at once (its buffer is full: a slow
reader) goes to the transport's ``write``, so Twisted's buffering, producer pausing (the
host's backpressure) and error handling apply to it exactly as before. Transports other than
plain TCP (TLS, the web page's WebSocket, test transports) always get ``writeSequence``.
"""
from __future__ import annotations

import socket

from twisted.internet import tcp

KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 15, 5, 3
"""TCP keepalive: a peer that vanished without closing (a network cut) is noticed after about
15 + 3 × 5 = 30 seconds of silence, so its seat shows "reconnecting" and its grace period starts."""

_PLAIN_TCP = (tcp.Server, tcp.Client)
"""Transports :func:`write_now` sends on itself (exact types: a subclass may write otherwise)."""


def tune_tcp(transport) -> None:
    """No Nagle delay (small messages, latency matters) and short keepalives, where supported."""
    try:
        transport.setTcpNoDelay(True)
        transport.setTcpKeepAlive(True)
        sock = transport.getHandle()
    except Exception:  # noqa: BLE001 - not a TCP transport (tests, UNIX sockets)
        return
    for name, value in (("TCP_KEEPIDLE", KEEPALIVE_IDLE), ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL),
                        ("TCP_KEEPCNT", KEEPALIVE_COUNT)):
        opt = getattr(socket, name, None)
        if opt is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, opt, value)
            except (OSError, AttributeError):
                pass


def write_now(transport, datas: list[bytes], total: bool = False) -> int:
    """Write ``datas`` (byte strings, in order) to ``transport``; returns how many bytes the
    kernel took at once (0: all of it went through the transport's own buffer), or with
    ``total`` the number of bytes written in all.

    On a plain TCP transport (``twisted.internet.tcp.Server``/``Client``, no TLS) that is
    connected, not closing and has nothing buffered, the bytes are joined and ``send`` once;
    the rest, if any, is ``transport.write`` (buffered by Twisted, which also sees any error
    there). Anything else: ``transport.writeSequence(datas)``. Either way the peer receives the
    same bytes in the same order."""
    if type(transport) in _PLAIN_TCP and transport.connected and not transport.disconnecting \
            and not transport.TLS and not transport.dataBuffer and not transport._tempDataBuffer:
        data = datas[0] if len(datas) == 1 else b"".join(datas)
        try:
            sent = transport.socket.send(data)
        except OSError:  # EAGAIN/ENOBUFS, or a broken connection: Twisted's write path handles it
            sent = 0
        if sent < len(data):
            transport.write(memoryview(data)[sent:].tobytes() if sent else data)
        return len(data) if total else sent
    transport.writeSequence(datas)
    return sum(map(len, datas)) if total else 0


def close_after_reading(transport, clock, timeout: float):
    """Close ``transport`` so that what was written to it reaches the peer (issue #9): half-close
    it (FIN after the bytes still buffered) and keep reading — the protocol drops what still
    arrives — until the peer closes its end (the connection is then lost as usual), or abort it
    after ``timeout`` seconds (a peer that neither reads nor closes cannot hold it open).

    Why: a socket closed while unread bytes wait in it is answered with a reset (RFC 1122
    4.2.2.13, Linux), and the reset throws away whatever the peer's kernel has not taken yet —
    typically the ``error`` telling a flooding peer why it is closed, which is still on its way.

    ``transport``: a Twisted TCP transport (anything with ``loseWriteConnection``); anything
    else is simply ``loseConnection``-ed. ``clock``: the reactor (``callLater``). Returns the
    abort timer (cancel it when the connection is lost), or None if there is none."""
    half = getattr(transport, "loseWriteConnection", None)
    if half is None or getattr(transport, "disconnecting", False) or not getattr(transport, "connected", True):
        transport.loseConnection()
        return None
    try:
        # a registered producer (the host's back-pressure, the HTTP channel) would be resumed
        # instead of the write side closing once the buffer has drained (abstract.FileDescriptor.doWrite)
        transport.unregisterProducer()
    except Exception:  # noqa: BLE001 - none registered
        pass
    try:
        transport.resumeProducing()  # reading may have been paused (a flood, an oversized message)
    except Exception:  # noqa: BLE001
        pass
    half()
    return clock.callLater(timeout, _abort_if_connected, transport)


def _abort_if_connected(transport) -> None:
    if getattr(transport, "connected", False):
        transport.abortConnection()
