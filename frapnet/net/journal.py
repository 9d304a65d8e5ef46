"""The journal: everything a table stores so that a restarted host can go on (design.md
principle 5; docs/hosting.md "If the host machine crashes").

:class:`RecordJournal` keeps the match as a deal record (spec/record-format.md) in one JSON
file, rewritten atomically after every accepted action and deal start — before anyone is told —
and, past :data:`RECORD_EVERY_ACTION_LIMIT` bytes, at deal boundaries only; the seats' names
and tokens go beside it in ``RECORD.seats`` (readable by the owner only). A table calls it at
each change: :meth:`~RecordJournal.deal_started`, :meth:`~RecordJournal.action_applied`,
:meth:`~RecordJournal.seats_changed`, :meth:`~RecordJournal.finished`; and
:meth:`~RecordJournal.saved_seats` when it resumes. A failure to write is logged; the table
goes on.
"""
from __future__ import annotations

import json
import os

from twisted.logger import Logger

from frapnet import engine, record
from frapnet.net.protocol import MAX_NAME, MAX_TOKEN, clean_text

log = Logger(namespace="frapnet.host")

RECORD_EVERY_ACTION_LIMIT = 1024 * 1024
"""Up to this size (bytes) the record is rewritten after every accepted action; beyond it, at
every deal start and end only."""


class RecordJournal:
    """The record file ``path`` (None: nothing is stored) and its ``path.seats`` beside it."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.record_size = 0  # bytes of the record last written
        self.proofs: list[dict | None] = []  # per deal index, its shuffle proof (records.md ``shuffle``)

    @property
    def seats_path(self) -> str | None:
        """Where the seats' names and tokens are kept beside the record (``RECORD.seats``)."""
        return f"{self.path}.seats" if self.path else None

    # --- what a table calls -------------------------------------------------------------------
    def deal_started(self, state: engine.State, proof: dict | None = None) -> None:
        """A deal was dealt (its deck is in ``state``; ``proof``: its shuffle proof, with the
        host's seed — docs/fairness.md): store it."""
        if proof is not None:
            self.proofs += [None] * (state.deal_no - len(self.proofs))
            self.proofs[state.deal_no - 1] = proof
        self.write_record(state)

    def action_applied(self, state: engine.State) -> None:
        """An action was accepted (``state`` is the state after it): store it, before its
        effects are sent. A record past :data:`RECORD_EVERY_ACTION_LIMIT` bytes is rewritten at
        deal ends only, so a move never waits on megabytes of I/O."""
        if self.record_size <= RECORD_EVERY_ACTION_LIMIT or state.phase != engine.DEAL:
            self.write_record(state)

    def finished(self, state: engine.State) -> None:
        """The table ends: store the match as it stands."""
        self.write_record(state)

    def seats_changed(self, table: str, seats) -> None:
        """Save every seat's name, token and kind (``seats``: :class:`frapnet.net.seats.Seat`
        0…n−1) beside the record, atomically, readable by the owner only."""
        path = self.seats_path
        if not path:
            return
        data = [{"name": s.name, "token": s.token, "bot": s.is_bot} for s in seats]
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"table": table, "seats": data}, f)
            os.replace(tmp, path)
        except OSError as exc:
            log.error("cannot write {path}: {err}", path=path, err=exc)

    def saved_seats(self, n: int) -> list[tuple[str, str | None, bool]]:
        """Per seat (at most ``n``), ``(name, token, is_bot)`` from ``RECORD.seats`` (token None:
        nothing usable saved). The file is checked like client input — a damaged or hostile file
        gives empty seats (logged), never a crash: names are cleaned (no control characters, at
        most 32 characters), tokens must be 16…128-character strings."""
        path = self.seats_path
        if not path or not os.path.exists(path):
            return []
        try:
            with open(path, encoding="utf-8") as f:
                data = json.loads(f.read(1024 * 1024))
            saved = data.get("seats") if isinstance(data, dict) else None
            if not isinstance(saved, list):
                raise ValueError("no list of seats")
        except (OSError, ValueError, RecursionError) as exc:
            log.error("cannot read {path}: {err}; seats start empty", path=path, err=str(exc)[:200])
            return []
        out = []
        for info in saved[:n]:
            info = info if isinstance(info, dict) else {}
            token, name = info.get("token"), info.get("name")
            ok = isinstance(token, str) and 16 <= len(token) <= MAX_TOKEN
            out.append((clean_text(name, MAX_NAME) if isinstance(name, str) else "", token if ok else None,
                        info.get("bot") is True))
        return out

    def write_record(self, state: engine.State) -> None:
        """Rewrite the record file (record-format.md) atomically, if one was asked for.
        A failure to write is logged; the table goes on."""
        if not self.path:
            return
        tmp = f"{self.path}.tmp{os.getpid()}"
        try:
            rec = engine.record(state)
            for deal, proof in zip(rec["deals"], self.proofs):
                if proof is not None:
                    deal["shuffle"] = proof
            text = record.dumps(rec)
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path)
            self.record_size = len(text)
        except OSError as exc:
            log.error("cannot write the record {path}: {err}", path=self.path, err=exc)
