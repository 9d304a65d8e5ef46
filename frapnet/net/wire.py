"""The wire format: length-prefixed msgpack frames (docs/protocol.md, "Framing").

Every frame is a 4-byte big-endian unsigned length followed by that many bytes: one msgpack
map with a ``"type"`` string. Frames longer than :data:`MAX_FRAME` (256 KiB) are refused
before they are buffered. Decoding is strict: UTF-8 strings (``raw=False``), string or bytes
map keys only (``strict_map_key``), bounded string/array/map/ext lengths, no trailing bytes.

Integers that do not fit msgpack's 64-bit range (F6: chip counts have no upper limit) travel
as extension type :data:`EXT_BIGINT` (1) whose payload is the decimal ASCII digits (with an
optional leading ``-``), at most :data:`MAX_BIGINT_DIGITS` characters; decoding calls
``int()`` on it, nothing else (no pickle, no other extension types).

:class:`SharedEncoder` frames many messages that share most of their values (the per-seat
views of one state) byte-for-byte as :func:`frame` would, encoding each shared value once.

:class:`FramedProtocol` is the Twisted base of both ends: framing, decode errors turned into
:meth:`FramedProtocol.frameError`, and a bounded outbound queue (stack-notes.md "Host
robustness"): while the transport's buffer is over its high-water mark, further messages wait
in our own queue (a newer ``view`` replaces an older queued one); when that queue exceeds
``max_queued`` bytes the connection is aborted.
"""
from __future__ import annotations

import re
from operator import is_
from typing import Any

import msgpack
from twisted.protocols.basic import Int32StringReceiver
from zope.interface import implementer
from twisted.internet.interfaces import IPushProducer

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


def _default(obj: Any) -> Any:
    if type(obj) is int:  # outside msgpack's 64-bit range (F6)
        ext = _BIG.get(obj)
        if ext is None:
            if len(_BIG) >= _BIG_MAX:
                _BIG.clear()
            ext = _BIG[obj] = msgpack.ExtType(EXT_BIGINT, str(obj).encode("ascii"))
        return ext
    if isinstance(obj, int) and not isinstance(obj, bool):  # an int subclass (IntEnum…)
        return msgpack.ExtType(EXT_BIGINT, str(obj).encode("ascii"))
    if isinstance(obj, (tuple, set, frozenset)):
        return list(obj)
    raise TypeError(f"cannot send a {type(obj).__name__} on the wire")


def _ext_hook(code: int, data: bytes) -> Any:
    if code == EXT_BIGINT:
        if not _BIGINT_RE.match(data):
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


def frame(msg: dict) -> bytes:
    """``msg`` as a whole frame: 4-byte big-endian length, then the msgpack body."""
    body = encode(msg)
    return len(body).to_bytes(4, "big") + body


def _map_header(n: int, fix: int = 0x80, big: int = 0xde) -> bytes:
    """msgpack's header of a map of ``n`` entries (an array's: ``fix=0x90, big=0xdc``), as the packer writes it."""
    if n < 16:
        return bytes((fix | n,))
    return bytes((big,)) + n.to_bytes(2, "big") if n < 0x10000 else bytes((big + 1,)) + n.to_bytes(4, "big")


_KEY_BYTES: dict = {}
"""The encoding of each map key met (views' keys are the engine's and the game plugins' own: a
few hundred at most; past :data:`_KEY_BYTES_MAX` new ones are encoded each time)."""
_KEY_BYTES_MAX = 4096


def _key_bytes(key) -> bytes:
    """``encode(key)``, remembered for a str key."""
    data = _KEY_BYTES.get(key) if type(key) is str else None
    if data is None:
        data = encode(key)
        if type(key) is str and len(_KEY_BYTES) < _KEY_BYTES_MAX:
            _KEY_BYTES[key] = data
    return data


def _reused(key, new, old, chunk: bytes) -> bytes:
    """``encode(key) + encode(new)``, given ``chunk``, the same for ``old``: ``chunk`` itself if ``new``
    is ``old`` or a list/dict of its very objects (keys, values) in order — identity, not ``==``: 1
    and True are equal, encode differently; a list grown at its end (the score sheet after a deal)
    encodes only its new items."""
    kind, n = type(new), len(old) if type(old) in (list, dict) else -1
    if new is old or (kind is type(old) and kind is dict and len(new) == n and all(map(is_, new, old))
                      and all(map(is_, new.values(), old.values()))):
        return chunk
    if kind is list and type(old) is list and len(new) >= n and all(map(is_, new, old)):
        if len(new) == n:  # (two empty lists too)
            return chunk
        if not n:
            return _key_bytes(key) + encode(new)
        head = len(_key_bytes(key))
        return (chunk[:head] + _map_header(len(new), 0x90, 0xdc) + chunk[head + len(_map_header(n, 0x90, 0xdc)):]
                + b"".join(map(encode, new[n:])))
    return _key_bytes(key) + encode(new)


def _same_types(a, b) -> bool:
    """True if ``a`` and ``b`` (already ``==``, of one type) also hold values of the same types
    all the way down, map keys in the same order: ``[1]`` and ``[True]``, ``{"a": 1, "b": 2}`` and
    ``{"b": 2, "a": 1}`` are equal but encode differently."""
    if isinstance(a, (list, tuple)):
        return all(type(x) is type(y) and _same_types(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return all(type(ka) is type(kb) and ka == kb and type(va) is type(vb) and _same_types(va, vb)
                   for (ka, va), (kb, vb) in zip(a.items(), b.items()))
    return True


class SharedEncoder:
    """Frames many messages ``{"type": kind, field: body}`` (``body`` a map) whose bodies share
    most of their values — the per-seat views of one state — encoding each shared value once.

    For every key of ``body`` the encoder keeps the last value it encoded and its bytes; when the
    next body has an equal value of the same type under that key, those bytes are reused. The
    frames are byte-for-byte what :func:`frame` gives for the same message (key order, map
    headers and big integers as ext 1 included); only the work is shared. Use one encoder per
    fan-out (one state): values are compared with ``==``, so an encoder must not outlive the
    objects it has seen being mutated.
    """

    __slots__ = ("_keys", "_last")

    def __init__(self) -> None:
        self._keys: tuple = ()   # the keys of the last body, in order
        self._last: list = []    # per key: [value, encoded key + encoded value]

    def frame(self, kind: str, field: str, body: dict) -> bytes:
        """``frame({"type": kind, field: body})``, sharing the encoding of repeated values."""
        pack = _packer.pack
        parts = [b"\x82\xa4type", pack(kind), pack(field), _map_header(len(body))]
        append = parts.append
        keys = tuple(body)
        try:
            if keys != self._keys:  # another shape: start over (views of one state share theirs)
                self._keys = keys
                self._last = [[v, pack(k) + pack(v)] for k, v in body.items()]
                parts.extend(c for _, c in self._last)
            else:
                for (k, v), slot in zip(body.items(), self._last):
                    old = slot[0]
                    if old is v or (type(old) is type(v) and old == v and _same_types(old, v)):
                        append(slot[1])
                    else:
                        chunk = pack(k) + pack(v)
                        slot[0], slot[1] = v, chunk
                        append(chunk)
        except BaseException:
            _packer.reset()
            self._keys, self._last = (), []
            raise
        data = b"".join(parts)
        return len(data).to_bytes(4, "big") + data


class PublicEncoder:
    """Frames the views of one state built from one public view (issue #9 "Fan-out once";
    :func:`frapnet.engine.seat_view`): the public view's values are encoded once, here; a seat's
    view — the same keys in the same order, every value but the seat's own being the public
    view's object itself — costs only the encoding of its own values. Frames are byte-for-byte
    :func:`frame` of ``{"type": kind, field: body}``; a body of another shape is framed whole.
    Use one encoder per state and language; ``public`` must not change while it is in use.

    ``previous``: the encoder of the table's last public view (same language): a value unchanged
    since (the last report, the score sheet's rows, unchanged balances) keeps its bytes (:func:`_reused`:
    by identity, exact as long as nothing the views hold is changed in place; engine states never are).
    """

    __slots__ = ("_head", "_keys", "_values", "_chunks", "_index", "_kind", "_field", "_runs")

    def __init__(self, kind: str, field: str, public: dict, previous: "PublicEncoder | None" = None) -> None:
        pack = encode
        self._kind, self._field = kind, field
        self._head = b"\x82\xa4type" + _key_bytes(kind) + _key_bytes(field) + _map_header(len(public))
        self._keys = tuple(public)
        self._values = tuple(public.values())
        self._index = {k: i for i, k in enumerate(public)}
        self._runs: dict[tuple, bytes] = {}  # seats' own keys -> the public bytes without them
        if previous is None or previous._kind != kind or previous._field != field:
            self._chunks = [_key_bytes(k) + pack(v) for k, v in public.items()]
            return
        chunks = self._chunks = []
        append = chunks.append
        at, values, old = previous._index.get, previous._values, previous._chunks
        for k, v in public.items():
            i = at(k)
            if i is None:
                append(_key_bytes(k) + pack(v))
            elif v is values[i]:  # the very object of the last change: its bytes
                append(old[i])
            else:
                append(_reused(k, v, values[i], old[i]))

    def public_frame(self) -> bytes:
        """The frame of the public view itself (a spectator's)."""
        data = self._head + b"".join(self._chunks)
        return len(data).to_bytes(4, "big") + data

    def frame_part(self, own: dict) -> bytes | None:
        """The frame of a seat's view: the public view with ``own`` (a seat's own keys,
        :func:`frapnet.engine.seat_part`) in place of the public values under those keys — the
        same map as ``{**public, **own}``, with ``own``'s keys last, in ``own``'s order (a map's
        order carries no meaning: docs/protocol.md "Framing"). Only ``own`` is encoded here, in
        one call; the public bytes without ``own``'s keys are joined once per set of keys (seats'
        own keys are the same from seat to seat). None if ``own`` has a key the public view lacks
        (frame the merged view whole then)."""
        keys = tuple(own)
        rest = self._runs.get(keys)
        if rest is None:
            index = self._index
            if not all(k in index for k in keys):
                return None
            skip = {index[k] for k in keys}
            rest = self._runs[keys] = self._head + b"".join([c for i, c in enumerate(self._chunks) if i not in skip])
        try:
            tail = _packer.pack(own)
        except BaseException:
            _packer.reset()
            raise
        cut = 1 if len(keys) < 16 else 3  # own's map header: the frame's counts the public keys
        return b"".join(((len(rest) + len(tail) - cut).to_bytes(4, "big"), rest, tail[cut:]))

    def frame(self, kind: str, field: str, body: dict) -> bytes:
        """``frame({"type": kind, field: body})`` (``kind`` and ``field`` as given to the encoder)."""
        if tuple(body) != self._keys:
            return frame({"type": kind, field: body})
        parts = self._chunks
        own = None
        for i, (v, pv) in enumerate(zip(body.values(), self._values)):
            if v is not pv:
                if own is None:
                    own = parts[:]
                own[i] = encode(self._keys[i]) + encode(v)
        data = self._head + b"".join(own if own is not None else parts)
        return len(data).to_bytes(4, "big") + data


def _has_timestamp(value: Any) -> bool:
    """True if a :class:`msgpack.Timestamp` is anywhere inside ``value``: msgpack decodes the
    timestamp extension (−1) itself, without calling ``ext_hook`` (iterative: no recursion)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, msgpack.Timestamp):
            return True
    return False


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if lists/maps inside ``value`` (a decoded message map: depth 1) nest deeper than
    ``limit``. Iterative (no recursion), and only containers are pushed: decoded msgpack holds
    exact ``list``/``dict`` types, so a scalar costs one ``type()`` test — about 4× cheaper on a
    view than pushing every value (a client decodes every view it is sent)."""
    stack = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        v, depth = pop()
        if depth > limit:
            return True
        deeper = depth + 1
        for x in (v.values() if type(v) is dict else v):
            t = type(x)
            if t is list or t is dict:
                push((x, deeper))
    return False


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
    if _too_deep(msg):  # decodable, so only this message is refused: the connection stays open
        raise WireError("bad_message", f"values nested more than {MAX_DEPTH} deep (lists and maps inside each "
                                       f"other); the message is ignored")
    if b"\xff" in body and _has_timestamp(msg):  # ext -1's type byte is 0xff (never in UTF-8)
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
    def stringReceived(self, body: bytes) -> None:
        if getattr(self, "_closing", False):
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
        if getattr(self, "_closing", False) or self.transport is None:
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
        if getattr(self, "_closing", False) or self.transport is None or not frames:
            return
        if not self._paused and not self._queue:
            datas = [data for _, data in frames]
            self.bytes_sent += sum(map(len, datas))
            write_now(self.transport, datas)
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
