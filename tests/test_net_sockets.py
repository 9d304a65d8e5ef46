"""The host's write path (issue #9, docs/performance.md "The write path"): frapnet.net.sockets.write_now
sends a change's bytes on a plain TCP transport at once — no writer registered with the reactor
(on the asyncio reactor that was two epoll_ctl calls per connection and change) — and leaves to
Twisted's own buffer whatever the kernel does not take, so a slow reader gets every byte, in
order. Real sockets (a connected pair), a Twisted ``tcp.Server`` on a recording fake reactor: no
event loop runs."""
from __future__ import annotations

import socket

from twisted.internet import tcp
from twisted.internet.protocol import Protocol
from twisted.internet.testing import StringTransport

from frapnet.net import wire
from frapnet.net.sockets import write_now


class FakeReactor:
    """Records addWriter/removeWriter: the calls the write path exists to avoid."""

    def __init__(self):
        self.writers = []

    def addReader(self, fd):
        pass

    def removeReader(self, fd):
        pass

    def addWriter(self, fd):
        self.writers.append(fd)

    def removeWriter(self, fd):
        self.writers.remove(fd)


def _server_transport(sndbuf: int | None = None):
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    a.setblocking(False)
    if sndbuf is not None:
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    reactor = FakeReactor()
    t = tcp.Server(a, Protocol(), ("127.0.0.1", 1), None, 1, reactor)
    return t, b, reactor


def _recv_all(sock, n: int) -> bytes:
    got = b""
    sock.settimeout(2)
    while len(got) < n:
        got += sock.recv(1 << 16)
    return got


def test_write_now_sends_at_once_without_a_reactor_writer():
    t, peer, reactor = _server_transport()
    frames = [wire.frame({"type": "event", "event": {"n": 1}}), wire.frame({"type": "view", "view": {"version": 7}})]
    sent = write_now(t, frames)
    assert sent == sum(map(len, frames)) == 56
    assert reactor.writers == []  # nothing left for the reactor: no epoll_ctl, no extra loop turn
    assert t.dataBuffer == b"" and t._tempDataBuffer == []
    assert _recv_all(peer, sent) == b"".join(frames)


def test_write_now_leaves_what_the_kernel_refuses_to_twisted_in_order():
    """A reader that stops reading: the kernel takes part, Twisted buffers the rest (and
    registers its writer); a later write queues behind it, never ahead; once the reader reads,
    doWrite delivers every byte in order."""
    t, peer, reactor = _server_transport(sndbuf=4096)
    chunks = [bytes([i]) * 50_000 for i in range(1, 6)]
    first = write_now(t, [chunks[0]])
    assert 0 < first < 50_000  # the kernel's buffer took only part of it
    assert reactor.writers == [t]
    assert write_now(t, chunks[1:]) == 0  # something is buffered: all of it goes behind
    got = b""
    peer.setblocking(False)
    while len(got) < 250_000:
        try:
            got += peer.recv(1 << 16)
        except BlockingIOError:
            t.doWrite()
    assert got == b"".join(chunks)


def test_write_now_other_transports_get_write_sequence():
    tr = StringTransport()
    assert write_now(tr, [b"ab", b"cd"]) == 0
    assert tr.value() == b"abcd"
