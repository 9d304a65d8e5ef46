"""Framing the views of one state with their shared values encoded once (issue #9 "Fan-out once";
docs/performance.md): :class:`SharedEncoder` (views that share most values), :class:`PublicEncoder`
(one public view and each seat's own keys). Frames are :func:`frapnet.net.wire.frame`'s, exactly —
a seat's view from :meth:`PublicEncoder.frame_part` with its own keys last. Pure: no I/O.
"""
from __future__ import annotations

from itertools import compress
from operator import is_, is_not

from frapnet.net import wire


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
    """``wire.encode(key)``, remembered for a str key."""
    data = _KEY_BYTES.get(key) if type(key) is str else None
    if data is None:
        data = wire.encode(key)
        if type(key) is str and len(_KEY_BYTES) < _KEY_BYTES_MAX:
            _KEY_BYTES[key] = data
    return data


_REUSE_FROM = 128
"""A public value whose last bytes (key included) are shorter than this is packed again rather
than compared item by item with the last one (:func:`_reused`): one C call beats the Python
comparison for the small lists and maps that are new objects at every change (names, seats'
connections, options…); the score sheet and the last report — long, full of big integers past
2^64 whose packing calls back into Python — keep their bytes."""


def _reused(key, new, old, chunk: bytes) -> bytes:
    """``wire.encode(key) + wire.encode(new)``, given ``chunk``, the same for ``old``: ``chunk`` itself if ``new``
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
            return _key_bytes(key) + wire.encode(new)
        head = len(_key_bytes(key))
        return (chunk[:head] + _map_header(len(new), 0x90, 0xdc) + chunk[head + len(_map_header(n, 0x90, 0xdc)):]
                + b"".join(map(wire.encode, new[n:])))
    return _key_bytes(key) + wire.encode(new)


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
        pack = wire.encode
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
        except BaseException:  # (wire.encode has reset the packer)
            self._keys, self._last = (), []
            raise
        data = b"".join(parts)
        return len(data).to_bytes(4, "big") + data


class PublicEncoder:
    """Frames the views of one state built from one public view (issue #9 "Fan-out once";
    :func:`frapnet.engine.seat_view`): the public view's values are encoded once, here; a seat's
    view — the same keys in the same order, every value but the seat's own being the public
    view's object itself — costs only the encoding of its own values. Frames are byte-for-byte
    :func:`frapnet.net.wire.frame` of ``{"type": kind, field: body}``; a body of another shape is framed whole.
    Use one encoder per state and language; ``public`` must not change while it is in use.

    ``previous``: the encoder of the table's last public view (same language): a value unchanged
    since (the last report, the score sheet's rows, unchanged balances) keeps its bytes (:func:`_reused`:
    by identity, exact as long as nothing the views hold is changed in place; engine states never are).
    """

    __slots__ = ("_head", "_keys", "_values", "_chunks", "_index", "_kind", "_field", "_runs", "_masks")

    def __init__(self, kind: str, field: str, public: dict, previous: "PublicEncoder | None" = None) -> None:
        pack = wire.encode
        self._kind, self._field = kind, field
        self._head = b"\x82\xa4type" + _key_bytes(kind) + _key_bytes(field) + _map_header(len(public))
        keys = self._keys = tuple(public)
        values = self._values = tuple(public.values())
        self._runs: dict[tuple, bytes] = {}  # seats' own keys -> the public bytes without them
        if previous is not None and previous._keys == keys:  # the same shape: its index and masks
            self._index, self._masks = previous._index, previous._masks
        else:
            self._index, self._masks = {k: i for i, k in enumerate(keys)}, {}
        # self._masks: seats' own keys -> per public key, whether a seat's frame keeps it
        if previous is None or previous._kind != kind or previous._field != field:
            self._chunks = [_key_bytes(k) + pack(v) for k, v in public.items()]
            return
        old_values, old = previous._values, previous._chunks
        if previous._keys == keys:  # the same keys in the same order (every change within a deal)
            chunks = self._chunks = list(old)
            fast, keyed = wire.pack_fast, _KEY_BYTES.get
            # only the values that are not the very objects of the last change (found in C: most are)
            for i in compress(range(len(keys)), map(is_not, values, old_values)):
                k, v = keys[i], values[i]
                if len(old[i]) < _REUSE_FROM:  # short: packing it again costs less than comparing
                    try:
                        chunks[i] = (keyed(k) or _key_bytes(k)) + fast(v)
                    except BaseException:
                        wire.reset_packer()
                        raise
                else:
                    chunks[i] = _reused(k, v, old_values[i], old[i])
            return
        chunks = self._chunks = []
        append = chunks.append
        at, keyed = previous._index.get, _KEY_BYTES.get
        for k, v in public.items():
            i = at(k)
            if i is None:
                append(_key_bytes(k) + pack(v))
            elif v is old_values[i]:  # the very object of the last change: its bytes
                append(old[i])
            elif len(old[i]) < _REUSE_FROM:
                append((keyed(k) or _key_bytes(k)) + pack(v))
            else:
                append(_reused(k, v, old_values[i], old[i]))

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
            rest = self._rest(keys)
            if rest is None:
                return None
        tail = wire.encode(own)
        cut = 1 if len(keys) < 16 else 3  # own's map header: the frame's counts the public keys
        return b"".join(((len(rest) + len(tail) - cut).to_bytes(4, "big"), rest, tail[cut:]))

    def frame_parts(self, owns: list) -> list:
        """``[frame_part(own) for own in owns]``, each None also where ``own`` is None or cannot
        be encoded (a game plugin's value with no msgpack form, an integer past the protocol's
        limit: that seat's view is framed whole then, where the error is logged) — every seat's
        frame of a change in one call."""
        runs, pack, out = self._runs, wire.pack_fast, []
        append = out.append
        keys = rest = None
        base = cut = 0
        for own in owns:
            if own is None:
                append(None)
                continue
            k = tuple(own)
            if k != keys:
                keys, rest = k, runs.get(k)
                if rest is None:
                    rest = self._rest(k)
                cut = 1 if len(k) < 16 else 3  # own's map header: the frame's counts the public keys
                base = len(rest) - cut if rest is not None else 0
            if rest is None:
                append(None)
                continue
            try:
                tail = pack(own)
            except Exception:  # noqa: BLE001 - framed whole instead, and logged, by the caller
                wire.reset_packer()
                append(None)
                continue
            append(b"".join(((base + len(tail)).to_bytes(4, "big"), rest, tail[cut:])))
        return out

    def _rest(self, keys: tuple) -> bytes | None:
        """The frame's head and the public bytes without ``keys`` (remembered), or None if some
        key of ``keys`` is not in the public view."""
        mask = self._masks.get(keys)
        if mask is None:
            index = self._index
            if not all(k in index for k in keys):
                return None
            skip = {index[k] for k in keys}
            mask = self._masks[keys] = [i not in skip for i in range(len(self._chunks))]
        rest = self._runs[keys] = self._head + b"".join(compress(self._chunks, mask))
        return rest

    def frame(self, kind: str, field: str, body: dict) -> bytes:
        """``frame({"type": kind, field: body})`` (``kind`` and ``field`` as given to the encoder)."""
        if tuple(body) != self._keys:
            return wire.frame({"type": kind, field: body})
        parts = self._chunks
        own = None
        for i, (v, pv) in enumerate(zip(body.values(), self._values)):
            if v is not pv:
                if own is None:
                    own = parts[:]
                own[i] = wire.encode(self._keys[i]) + wire.encode(v)
        data = self._head + b"".join(own if own is not None else parts)
        return len(data).to_bytes(4, "big") + data
