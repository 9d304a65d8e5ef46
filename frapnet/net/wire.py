"""The wire format: length-prefixed msgpack frames (docs/protocol.md, "Framing").

Every frame is a 4-byte big-endian unsigned length followed by that many bytes: one msgpack
map with a ``"type"`` string. Frames longer than :data:`MAX_FRAME` (256 KiB) are refused
before they are buffered. Decoding is strict: UTF-8 strings (``raw=False``), string or bytes
map keys only (``strict_map_key``), bounded string/array/map/ext lengths, no trailing bytes.

Integers that do not fit msgpack's 64-bit range (F6: chip counts have no upper limit) travel
as extension type :data:`EXT_BIGINT` (1) whose payload is the decimal ASCII digits (with an
optional leading ``-``), at most :data:`MAX_BIGINT_DIGITS` characters; decoding calls
``int()`` on it, nothing else (no pickle, no other extension types).

Framing many views of one state, sharing their encoding: :mod:`frapnet.net.viewcodec`.

:class:`FramedProtocol` is the Twisted base of both ends: framing, decode errors turned into
:meth:`FramedProtocol.frameError`, and a bounded outbound queue (stack-notes.md "Host
robustness"): while the transport's buffer is over its high-water mark, further messages wait
in our own queue (a newer ``view`` replaces an older queued one); when that queue exceeds
``max_queued`` bytes the connection is aborted.
"""
from __future__ import annotations

import re
from typing import Any

import msgpack
from twisted.protocols.basic import Int32StringReceiver
from zope.interface import implementer
from twisted.internet.interfaces import IPushProducer

from frapnet.errors import digits
from frapnet.net.sockets import tune_tcp, write_now

MAX_FRAME = 256 * 1024
"""Largest frame body either end accepts, in bytes."""
MAX_STR = 64 * 1024
MAX_BIN = 64 * 1024
MAX_ARRAY = 4096
MAX_MAP = 1024
MAX_EXT = 1024
MAX_DEPTH = 32
"""Lists and maps nested deeper than this (the body's own map is depth 1): ``bad_message``, ignored."""
EXT_BIGINT = 1
MAX_BIGINT_DIGITS = 1000
_BIGINT_RE = re.compile(rb"-?[0-9]{1,%d}\Z" % MAX_BIGINT_DIGITS)
_INT_MIN, _UINT_MAX = -(2 ** 63), 2 ** 64 - 1


class WireError(ValueError):
    """A frame that is not a valid message: ``code`` is ``"malformed"`` or ``"too_large"``."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


_BIG: dict = {}
"""Big integers lately encoded (value → its ext 1): a deal's settlement sends the same balances in
the views' ``balances``, the score sheet's new row, the report and its event (F6)."""
_BIG_MAX = 1024


def _carried(n: int) -> int:
    """``n`` if ext 1 carries it; else WireError ``too_large``: no end sends what the other must
    refuse (issue #9; the host ends a match before its amounts get there: frapnet.net.amounts)."""
    if n.bit_length() > 3300 and digits(n) > MAX_BIGINT_DIGITS:
        raise WireError("too_large", f"integer too large: {digits(n)} digits (limit {MAX_BIGINT_DIGITS})")
    return n


def _default(obj: Any) -> Any:
    if type(obj) is int:  # outside msgpack's 64-bit range (F6)
        ext = _BIG.get(obj)
        if ext is None:
            if len(_BIG) >= _BIG_MAX:
                _BIG.clear()
            ext = _BIG[obj] = msgpack.ExtType(EXT_BIGINT, str(_carried(obj)).encode("ascii"))
        return ext
    if isinstance(obj, int) and not isinstance(obj, bool):  # an int subclass (IntEnum…)
        return msgpack.ExtType(EXT_BIGINT, str(_carried(int(obj))).encode("ascii"))
    if isinstance(obj, (tuple, set, frozenset)):
        return list(obj)
    raise TypeError(f"cannot send a {type(obj).__name__} on the wire")


def _ext_hook(code: int, data: bytes) -> Any:
    if code == EXT_BIGINT:
        if not _BIGINT_RE.match(data):
            n = len(data) - data.startswith(b"-")
            if n > MAX_BIGINT_DIGITS and data.lstrip(b"-").isdigit():  # issue #9: name the limit
                raise ValueError(f"extension 1 (big integer): integer too large: {n} digits "
                                 f"(limit {MAX_BIGINT_DIGITS})")
            raise ValueError("extension 1 (big integer) must hold decimal digits")
        return int(data)
    raise ValueError(f"unknown msgpack extension type {code}")


_packer = msgpack.Packer(default=_default, use_bin_type=True)  # reused: cheaper than packb per call


def encode(msg: dict) -> bytes:
    """The msgpack body of ``msg`` (no length prefix). Tuples become arrays; big ints ext 1.
    Raises TypeError for a value that has no msgpack form (a bug in the caller)."""
    try:
        return _packer.pack(msg)
    except BaseException:
        _packer.reset()  # a failed pack may leave partial bytes in the packer's buffer
        raise


pack_fast = _packer.pack
""":func:`encode` without its clean-up: the shared packer's own ``pack``, for a loop that packs
many values (the fan-out's seat parts); after it raises, call :func:`reset_packer`."""
reset_packer = _packer.reset
"""Clear the shared packer's buffer after :data:`pack_fast` raised (a failed pack may leave
partial bytes in it)."""


def frame(msg: dict) -> bytes:
    """``msg`` as a whole frame: 4-byte big-endian length, then the msgpack body."""
    body = encode(msg)
    return len(body).to_bytes(4, "big") + body


_NOT_CONTAINER = bytes(b for b in range(256) if not (0x80 <= b <= 0x9f or 0xdc <= b <= 0xdf))
"""Every byte that cannot be the first byte of a msgpack array or map (fixmap 0x80–0x8f, fixarray
0x90–0x9f, array/map 16 and 32 0xdc–0xdf): deleted from a body, what is left bounds its nesting."""

_TIMESTAMP = msgpack.Timestamp


def _refused_inside(value: Any, limit: int = MAX_DEPTH, timestamps: bool = True) -> str | None:
    """``"deep"`` if lists/maps inside ``value`` (a decoded message map: depth 1) nest deeper
    than ``limit``, ``"timestamp"`` if a :class:`msgpack.Timestamp` is inside it (with
    ``timestamps``: msgpack decodes the timestamp extension −1 itself, without calling
    ``ext_hook``), else None — both found in one walk. Iterative (no recursion), and only
    containers are pushed: decoded msgpack holds exact ``list``/``dict``/``Timestamp`` types, so a
    scalar costs one ``type()`` test (a client decodes every view it is sent)."""
    stack = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        v, depth = pop()
        if depth > limit:
            return "deep"
        deeper = depth + 1
        for x in (v.values() if type(v) is dict else v):
            t = type(x)
            if t is list or t is dict:
                push((x, deeper))
            elif t is _TIMESTAMP and timestamps:
                return "timestamp"
    return None


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if lists/maps inside ``value`` (a decoded message map: depth 1) nest deeper than ``limit``."""
    return _refused_inside(value, limit, timestamps=False) == "deep"


def _why(exc: Exception) -> str:
    """A reader's sentence for msgpack's exception (its class names are not for players)."""
    text = str(exc).strip()
    if isinstance(exc, msgpack.ExtraData):
        return "bytes after the end of the message"
    if type(exc).__name__ == "StackError" or isinstance(exc, RecursionError):
        return "values nested far too deep to decode"
    if isinstance(exc, UnicodeDecodeError):
        return "a str that is not valid UTF-8"
    for what, limit in (("str", MAX_STR), ("bin", MAX_BIN), ("array", MAX_ARRAY), ("map", MAX_MAP),
                        ("ext", MAX_EXT)):
        if f"max_{what}_len" in text:
            return f"an {what} longer than the limit of {limit}" if what in ("array", "ext") \
                else f"a {what} longer than the limit of {limit}"
    if "incomplete input" in text:
        return "the message ends too early (truncated)"
    if "not allowed for map key" in text:  # msgpack: "int is not allowed for map key when strict_map_key=True"
        kind = text.split(" is not allowed", 1)[0].strip()
        return f"a map key that is not a str (or bin), but {kind[:20]}"
    if isinstance(exc, (msgpack.FormatError, msgpack.OutOfData)) or not text:
        return "not valid msgpack (a truncated or unknown encoding)"
    return text[:200]


def decode(body: bytes) -> dict:
    """Decode one frame body into a message map with a string ``"type"``.

    Raises :class:`WireError` (``"bad_message"``, the connection stays open) for lists/maps nested
    deeper than :data:`MAX_DEPTH`; (``"malformed"``) for bad msgpack, trailing bytes, limits
    exceeded (msgpack's own nesting limit, about 1 000 levels, included), an unknown extension type (the timestamp extension −1 included), a top-level value that is not a map, or a missing or
    non-string ``type``; (``"too_large"``) for a body over :data:`MAX_FRAME`.
    """
    if len(body) > MAX_FRAME:
        raise WireError("too_large", f"frame of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    try:
        msg = msgpack.unpackb(body, raw=False, strict_map_key=True, ext_hook=_ext_hook, use_list=True,
                              max_str_len=MAX_STR, max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY,
                              max_map_len=MAX_MAP, max_ext_len=MAX_EXT)
    except Exception as exc:  # msgpack raises many types (ExtraData, ValueError, UnicodeDecodeError…)
        raise WireError("malformed", f"not a valid msgpack message: {_why(exc)}"[:300]) from None
    if not isinstance(msg, dict):
        raise WireError("malformed", f"a message is a map, not {type(msg).__name__}")
    # Two refusals need a walk of the decoded values (one walk for both, :func:`_refused_inside`),
    # each skipped where the bytes rule it out: a body with no more bytes that could start a list
    # or map than MAX_DEPTH cannot nest deeper (counted in C: almost every message); ext -1's
    # type byte is 0xff (never in UTF-8; a view's negative balances have it, though).
    deep = len(body.translate(None, _NOT_CONTAINER)) > MAX_DEPTH
    found = _refused_inside(msg, MAX_DEPTH if deep else 1 << 62, b"\xff" in body) if deep or b"\xff" in body else None
    if found == "timestamp" and deep and _too_deep(msg):
        found = "deep"  # (a message both too deep and with a timestamp: the depth is named, as before)
    if found == "deep":  # decodable, so only this message is refused: the connection stays open
        raise WireError("bad_message", f"values nested more than {MAX_DEPTH} deep (lists and maps inside each "
                                       f"other); the message is ignored")
    if found == "timestamp":
        raise WireError("malformed", "msgpack extension type -1 (timestamp) is not used by this protocol "
                                     "(only extension 1, big integers)")
    if not isinstance(msg.get("type"), str):
        raise WireError("malformed", "a message needs a string \"type\"")
    return msg


@implementer(IPushProducer)
class _Backpressure:
    """Registered on the transport: tells the protocol when the kernel buffer is full."""

    def __init__(self, proto: "FramedProtocol") -> None:
        self.proto = proto

    def pauseProducing(self) -> None:
        self.proto._paused = True

    def resumeProducing(self) -> None:
        self.proto._paused = False
        self.proto._flush()

    def stopProducing(self) -> None:
        self.proto._paused = True
        self.proto._queue.clear()


class FramedProtocol(Int32StringReceiver):
    """Length-prefixed msgpack messages over a stream, with bounded outbound buffering.

    Subclasses implement :meth:`messageReceived` (a decoded map) and :meth:`frameError`
    (a :class:`WireError`; the default drops the connection). ``sendMessage(msg)`` encodes and
    writes, or queues while the peer is not reading; ``max_queued`` bytes of queue (default
    1 MiB) abort the connection (``overflowed`` is then True).
    """

    MAX_LENGTH = MAX_FRAME
    max_queued = 1024 * 1024

    _paused = False
    _closing = False
    overflowed = False
    bytes_sent = 0

    def connectionMade(self) -> None:
        self._queue: list[tuple[str, bytes]] = []
        self._queued = 0
        self._closing = False
        tune_tcp(self.transport)
        try:
            self.transport.registerProducer(_Backpressure(self), True)
        except Exception:  # noqa: BLE001 - some test transports refuse producers
            pass

    def connectionLost(self, reason=None) -> None:
        self._paused = True
        self._queue = []
        self._queued = 0
        try:
            self.transport.unregisterProducer()
        except Exception:  # noqa: BLE001
            pass

    # inbound -----------------------------------------------------------------------------
    def dataReceived(self, data: bytes) -> None:
        """One whole frame and nothing before it (a client's message, the usual read): handed to
        :meth:`stringReceived` at once; anything else — part of a frame, several, a length over
        the limit, paused — through Twisted's ``IntNStringReceiver.dataReceived``, as always."""
        if not self._unprocessed and not self.paused and len(data) > 4:
            n = int.from_bytes(data[:4], "big")
            if n + 4 == len(data) and n <= self.MAX_LENGTH:
                self.stringReceived(data[4:])
                return
        super().dataReceived(data)

    def stringReceived(self, body: bytes) -> None:
        if self._closing:
            return
        try:
            msg = decode(body)
        except WireError as exc:
            self.frameError(exc)
            return
        self.messageReceived(msg)

    def lengthLimitExceeded(self, length: int) -> None:
        self.frameError(WireError("too_large", f"frame of {length} bytes is over the {self.MAX_LENGTH}-byte limit"))

    def messageReceived(self, msg: dict) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def frameError(self, err: WireError) -> None:
        self.dropConnection(err.message)

    # outbound ----------------------------------------------------------------------------
    def sendMessage(self, msg: dict) -> None:
        """Encode and send ``msg`` (or queue it while the peer is not reading)."""
        if self._closing or self.transport is None:
            return
        self.sendFrame(msg.get("type"), frame(msg))

    def sendFrame(self, kind: str, data: bytes) -> None:
        """Send an already encoded frame (``data`` from :func:`frame` or
        :meth:`SharedEncoder.frame`) of message type ``kind`` — one encoding for many peers."""
        self.sendFrames([(kind, data)])

    def sendFrames(self, frames: list[tuple[str, bytes]]) -> None:
        """Send encoded frames ``[(kind, data), …]`` in order — a change's events and view — in one
        write, handed to the kernel at once when nothing is waiting (:func:`frapnet.net.sockets.write_now`:
        no reactor wake-up per connection); while the peer is not reading they are queued one by
        one, a queued view replaced by a newer one."""
        if self._closing or self.transport is None or not frames:
            return
        if not self._paused and not self._queue:
            self.bytes_sent += write_now(self.transport, [data for _, data in frames], True)
            return
        for kind, data in frames:
            self._enqueue(kind, data)

    def _enqueue(self, kind: str, data: bytes) -> None:
        """Queue a frame while the peer is not reading; past ``max_queued`` bytes, abort."""
        if kind == "view":  # coalesce: only the newest view matters
            for i, (k, old) in enumerate(self._queue):
                if k == "view":
                    self._queued -= len(old)
                    del self._queue[i]
                    break
        self._queue.append((kind, data))
        self._queued += len(data)
        if self._queued > self.max_queued:
            self.overflowed = True
            self.outboundOverflow()

    def outboundOverflow(self) -> None:
        """The peer stopped reading: abort (not a graceful close, which would wait to flush)."""
        self._queue = []
        self._queued = 0
        self._closing = True
        self.transport.abortConnection()

    def _flush(self) -> None:
        while self._queue and not self._paused:
            _, data = self._queue.pop(0)
            self._queued -= len(data)
            self.bytes_sent += len(data)
            self.transport.write(data)

    def dropConnection(self, reason: str = "") -> None:
        """Close after what is already written; ignore anything more the peer sends."""
        self._closing = True
        self._flush_all()
        self.transport.loseConnection()

    def _flush_all(self) -> None:
        for _, data in self._queue:
            self.transport.write(data)
        self._queue = []
        self._queued = 0
