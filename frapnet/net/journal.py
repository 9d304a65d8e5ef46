"""The journal: everything a host stores so that it can go on after a crash (issue #9;
design.md principle 5; docs/reliability.md).

One SQLite file (stdlib :mod:`sqlite3`, ``journal_mode=WAL``, ``synchronous=FULL``) holds every
match a host has run: its table (name, game, seats, options, house rules, ``--record`` file,
number in a series of rematches), its seats' names and tokens, each deal's dealer, deck and
shuffle proof (docs/fairness.md: it holds the host's secret seed, so it is only ever written
here and into records), and every accepted action as **one appended row,
committed before its effects are sent** — a constant cost however long the match. Amounts are
never stored: they pass 2^63 (Frap remises compound), so the state is rebuilt by replaying the
deals and actions through the engine (:func:`frapnet.record.replay`); options and results are
JSON text.

- :class:`Journal` — one database file: find a command's unfinished match
  (:meth:`Journal.unfinished`), start or reopen one (:meth:`Journal.new_match`,
  :meth:`Journal.open_match`), export any match as a deal record (:meth:`Journal.record`), list
  them (:meth:`Journal.matches`).
- :class:`MatchJournal` — what a :class:`frapnet.net.table.Table` calls at each change
  (:meth:`~RecordFile.deal_started`, :meth:`~RecordFile.action_applied`,
  :meth:`~RecordFile.seats_changed`, :meth:`~RecordFile.finished`, and
  :meth:`~RecordFile.saved_seats` when it resumes).
- :class:`RecordFile` — the same calls for a table without a database: only ``--record FILE``,
  exported at every deal end and when the table ends (never per move); :class:`NullJournal`
  stores nothing.

A record file is written beside itself as ``FILE.tmpPID`` and renamed over ``FILE`` (after
an fsync; :mod:`frapnet.net.atomic`); a temporary file left by a process that died is removed
the next time that record is written.
"""
from __future__ import annotations

import datetime
import json
import os
import sqlite3
from typing import Iterable
from urllib.parse import quote

from twisted.logger import Logger

from frapnet import engine, paths, record
from frapnet.net.atomic import alive, writable, write_atomically
from frapnet.net.journal_schema import ADDED_COLUMNS, SCHEMA, SCHEMA_VERSION, UPGRADE_FROM_1, in_memory, stale
from frapnet.net.protocol import MAX_TOKEN, clean_name

log = Logger(namespace="frapnet.host")

JOURNAL_NAME = "journal.sqlite3"
BUSY_SECONDS = 3.0
"""How long a write waits for another process holding the journal's lock before failing."""


def default_path() -> str:
    """The journal `frapnet host`, `play`, `export` and `stats` use without ``--db``:
    ``journal.sqlite3`` in the user's data folder (:func:`frapnet.paths.data_dir`, created
    with mode 0700 if missing; ``XDG_DATA_HOME`` moves it on Linux)."""
    return str(paths.ensure_dir(paths.data_dir()) / JOURNAL_NAME)


class JournalError(Exception):
    """The journal file cannot be opened or is not a frapnet journal (the message says why)."""


def resume_key(name: str, game: str, players: int, options: dict, house_rules: Iterable[str]) -> str:
    """What "the same `frapnet host` command" means: the table's name, game, seats, options and
    house rules, as canonical JSON text."""
    return json.dumps([name, game, players, options, list(house_rules)], sort_keys=True, ensure_ascii=False)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class NullJournal:
    """Stores nothing (a table run without a database or record file). ``proofs``: per deal
    index, its shuffle proof (records.md ``shuffle``) or None — set by
    :meth:`frapnet.net.dealing.FairDealing.resume` when a table resumes."""

    def __init__(self) -> None:
        self.proofs: list[dict | None] = []

    def deal_started(self, state: engine.State, proof: dict | None = None) -> None:
        """A deal was dealt (its dealer and deck are the newest in ``state.history``; ``proof``:
        its shuffle proof, with the host's seed — docs/fairness.md)."""
        if proof is not None:
            self.proofs += [None] * (state.deal_no - len(self.proofs))
            self.proofs[state.deal_no - 1] = proof

    def action_applied(self, state: engine.State) -> None:
        """An action was accepted; ``state`` is the state after it (the action is the newest
        of its deal). Stored before its effects are sent."""

    def seats_changed(self, table: str, seats) -> None:
        """Seats (:class:`frapnet.net.seats.Seat`, 0…n−1) took or gave up names and tokens."""

    def finished(self, state: engine.State, result: dict, over: bool, reason: str) -> None:
        """The table ends: ``over`` (the match ended: not resumable) or the host stopped."""

    def saved_seats(self, n: int) -> list[tuple[str, str | None, bool, bool]]:
        """Per seat, ``(name, token, is_bot, taken_over)`` stored for this match (token None:
        none; ``taken_over``: the host played the seat for a person gone — free to take)."""
        return []

    def next_match(self, done: engine.State, result: dict, state: engine.State,
                   record_path: str | None) -> "NullJournal":
        """A rematch with the same seats: the match ``done`` ended with ``result``; return what
        stores the new one (``state``, before its first deal; its record file ``record_path``)."""
        return self


class RecordFile(NullJournal):
    """Exports the match as a deal record (record-format.md) to ``path`` at every deal end and
    when the table ends — never per move; readable by its owner only while it holds a deal in play (its
    deck and shuffle secrets: every hand). A failure to write is logged; the table goes on."""

    def __init__(self, path: str | None) -> None:
        super().__init__()
        self.record_path = path
        self.exports = 0
        self._text = record.RecordText()

    def export(self, state: engine.State) -> None:
        """Write the record of everything played so far (atomically), each deal with its
        shuffle proof (``deals[i]["shuffle"]``)."""
        if not self.record_path:
            return
        try:
            text = self._text.text(state, self.proofs)  # the deals settled before: their text kept
            write_atomically(self.record_path, text + "\n", private=state.phase == engine.DEAL)
            self.exports += 1
        except OSError as exc:
            log.error("cannot write the record {path}: {err}", path=self.record_path, err=exc)

    def action_applied(self, state: engine.State) -> None:
        if state.phase != engine.DEAL:  # the deal ended with this action
            self.export(state)

    def finished(self, state: engine.State, result: dict, over: bool, reason: str) -> None:
        self.export(state)

    def next_match(self, done, result, state, record_path):
        return RecordFile(record_path) if record_path else NullJournal()


class Journal:
    """The journal file ``path``: with ``create``, to write (made if missing or empty, mode 0600); else
    read-only, never changed. :class:`JournalError` if it cannot be opened, is missing or empty
    (``create`` false) or is not a frapnet journal."""

    def __init__(self, path: str, create: bool = True) -> None:
        self.path = str(path)
        self.db = None
        try:
            if not os.path.exists(self.path) or not os.path.getsize(self.path):
                if not create:
                    raise JournalError(f"{self.path}: no journal there (a host creates it: frapnet host --db FILE)")
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))
                os.chmod(self.path, 0o600)  # an empty file given as one: private too (shuffle secrets, tokens)
            self.db = sqlite3.connect(self.path if create else f"file:{quote(os.path.abspath(self.path))}?mode=ro",
                                      uri=not create, isolation_level=None, check_same_thread=False)
            self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            names = {n for (n,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not names and not create:
                raise JournalError(f"{self.path}: no journal there (an SQLite database with no tables)")
            if names and "meta" not in names:
                raise JournalError(f"{self.path}: an SQLite database of something else, not a frapnet journal "
                                   f"(tables {', '.join(sorted(names)[:5])})")
            upgrade = create or stale(self.db)  # the schema made or brought up to date
            if upgrade and not create:  # read-only, written by an older frapnet: upgraded in memory
                self.db = in_memory(self.db)
            mode = self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0] if create else "wal"
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("PRAGMA foreign_keys = ON")
            if upgrade:
                self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] == "1":
                with self.db:
                    for table, column, kind in UPGRADE_FROM_1:
                        if column not in {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}:
                            self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                    self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise JournalError(f"{self.path}: journal schema {row[0]}, this frapnet reads {SCHEMA_VERSION}")
            for table, column, kind in ADDED_COLUMNS:
                if column not in {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        except sqlite3.DatabaseError as exc:
            self.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise JournalError(f"{self.path}: the journal is locked by another process ({exc})") from None
            if "readonly" in str(exc) or "unable to open" in str(exc):
                if not writable(self.path):
                    raise JournalError(f"{self.path}: cannot be written — a read-only file, folder or file system (a "
                                       f"journal writes FILE-wal and FILE-shm beside itself; {exc})") from None
            raise JournalError(f"{self.path}: not a frapnet journal ({exc})") from None
        except JournalError:
            self.close()
            raise
        except OSError as exc:
            raise JournalError(f"{self.path}: {exc.strerror or exc}") from None
        if create:  # a host writes: take the write lock once now, so a journal held by another process
            try:    # is refused here, by name, and not at the first move
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("ROLLBACK")
            except sqlite3.DatabaseError as exc:
                self.close()
                raise JournalError(f"{self.path}: the journal is locked by another process ({exc})") from None
        if mode.lower() != "wal":
            log.warn("journal {path}: WAL mode unavailable ({mode})", path=self.path, mode=mode)

    def close(self) -> None:
        """Close the file (a later call does nothing)."""
        if self.db is not None:
            self.db.close()
            self.db = None

    # --- matches ----------------------------------------------------------------------------
    def unfinished(self, key: str) -> list[int]:
        """Ids (oldest first) of the unfinished matches of ``key`` (:func:`resume_key`) that no
        live host process is playing (its ``owner_pid`` is NULL or names a dead process)."""
        rows = self.db.execute("SELECT id, owner_pid FROM matches WHERE resume_key = ? AND finished_at IS NULL "
                               "ORDER BY id", (key,)).fetchall()
        return [mid for mid, pid in rows if not alive(pid)]

    def new_match(self, name: str, state: engine.State, record_path: str | None = None,
                  series: int = 1) -> "MatchJournal":
        """Store a new match of table ``name`` whose state (before its first deal) is ``state``;
        ``series``: 1, or 2, 3… for a rematch (frapnet.net.rematch)."""
        options = json.dumps(dict(state.options), ensure_ascii=False)
        rules = json.dumps(list(state.house_rules))
        key = resume_key(name, state.game, state.players, dict(state.options), state.house_rules)
        with self.db:
            cur = self.db.execute(
                "INSERT INTO matches (table_name, game, players, options, house_rules, resume_key, started_at, "
                "owner_pid, record_path, series) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, state.game, state.players, options, rules, key, _now(), os.getpid(),
                 os.path.abspath(record_path) if record_path else None, series))
        return MatchJournal(self, cur.lastrowid, name, record_path)

    def open_match(self, match_id: int, record_path: str | None = None, name: str | None = None) -> "MatchJournal":
        """Take over the stored match ``match_id`` (this process now plays it; it is unfinished
        again if it was not); ``name``: under this table name from now on (default: its own)."""
        with self.db:
            row = self.db.execute("SELECT table_name, game, players, options, house_rules FROM matches "
                                  "WHERE id = ?", (match_id,)).fetchone()
            name = name or row[0]
            key = resume_key(name, row[1], row[2], json.loads(row[3]), json.loads(row[4]))
            self.db.execute("UPDATE matches SET owner_pid = ?, finished_at = NULL, table_name = ?, resume_key = ?, "
                            "record_path = ? WHERE id = ?", (os.getpid(), name, key,
                                                             os.path.abspath(record_path) if record_path else None,
                                                             match_id))
        return MatchJournal(self, match_id, name, record_path)

    def series(self, match_id: int) -> int:
        """The match's number in its series of rematches (1 for the first)."""
        return self.db.execute("SELECT series FROM matches WHERE id = ?", (match_id,)).fetchone()[0]

    def record_file(self, match_id: int) -> str | None:
        """The (absolute) ``--record`` file match ``match_id`` is exported to, or None."""
        return self.db.execute("SELECT record_path FROM matches WHERE id = ?", (match_id,)).fetchone()[0]

    def with_record(self, path: str) -> tuple[int, str] | None:
        """The newest stored match whose ``--record`` file is ``path``: ``(id, table name)``, or
        None (how `frapnet host --resume` finds a record's table and match)."""
        row = self.db.execute("SELECT id, table_name FROM matches WHERE record_path = ? ORDER BY id DESC LIMIT 1",
                              (os.path.abspath(path),)).fetchone()
        return (row[0], row[1]) if row else None

    def release(self, match_id: int) -> None:
        """This process stops playing ``match_id`` before it began (the port was taken): a match
        with no deal is removed, another is left to resume."""
        with self.db:
            if self.db.execute("SELECT COUNT(*) FROM deals WHERE match = ?", (match_id,)).fetchone()[0]:
                self.db.execute("UPDATE matches SET owner_pid = NULL WHERE id = ?", (match_id,))
            else:
                self.db.execute("DELETE FROM seats WHERE match = ?", (match_id,))
                self.db.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def abandon(self, match_id: int, reason: str) -> None:
        """Mark stored match ``match_id`` finished without a result (it cannot be resumed:
        ``reason`` says why); it stays exportable."""
        with self.db:
            self.db.execute("UPDATE matches SET owner_pid = NULL, finished_at = ?, reason = ? WHERE id = ?",
                            (_now(), reason, match_id))

    def record(self, match_id: int) -> dict:
        """The deal record (record-format.md) of stored match ``match_id``; raises KeyError if there is
        none, ReplayError ``record`` naming a damaged row (not JSON, too deep, of a deal not stored)."""
        row = self.db.execute("SELECT game, players, options, house_rules FROM matches WHERE id = ?",
                              (match_id,)).fetchone()
        if row is None:
            raise KeyError(match_id)
        game, players, options, house_rules = row
        deals = [dict({"dealer": dealer, "deck": record.stored_json(deck, match_id, f"deal {deal + 1}'s deck"), "actions": []},
                      **({"shuffle": record.stored_json(proof, match_id, f"deal {deal + 1}'s shuffle proof")} if proof else {}))
                 for deal, (dealer, deck, proof) in enumerate(self.db.execute(
                     "SELECT dealer, deck, shuffle FROM deals WHERE match = ? ORDER BY deal", (match_id,)))]
        for deal, action in self.db.execute("SELECT deal, action FROM actions WHERE match = ? ORDER BY version",
                                            (match_id,)):
            if not isinstance(deal, int) or not 0 <= deal < len(deals):
                raise record.ReplayError("record", f"match {match_id}: an action of a deal not stored ({deal!r})")
            n = len(deals[deal]["actions"]) + 1
            deals[deal]["actions"].append(record.stored_json(action, match_id, f"deal {deal + 1}'s action {n}"))
        return {"format": "frapnet-record/1", "game": game, "players": players,
                "options": record.stored_json(options, match_id, "table options"),
                "house_rules": record.stored_json(house_rules, match_id, "house rules"), "deals": deals}

    def seats(self, match_id: int) -> list[dict]:
        """Per seat 0…n−1 of match ``match_id`` (n: its ``players``): ``{"seat", "name", "token",
        "bot", "taken_over"}`` (``taken_over``: the host plays the seat for a person who left or did
        not come back in time — free to take), each row at the seat its ``seat`` column names — an
        edited journal's row for no seat of the match, or a second row for one, is dropped; a seat
        without a row, or a name stored as anything but text (a BLOB, a number), has the name
        ``""`` (token None)."""
        n = self.db.execute("SELECT players FROM matches WHERE id = ?", (match_id,)).fetchone()
        n = n[0] if n and type(n[0]) is int and 0 < n[0] <= 64 else 0
        out = [{"seat": i, "name": "", "token": None, "bot": False, "taken_over": False} for i in range(n)]
        placed = set()
        for seat, name, token, bot, taken_over in self.db.execute(
                "SELECT seat, name, token, bot, taken_over FROM seats WHERE match = ? ORDER BY rowid", (match_id,)):
            if type(seat) is int and 0 <= seat < n and seat not in placed:
                placed.add(seat)
                out[seat] = {"seat": seat, "name": name if isinstance(name, str) else "", "token": token,
                             "bot": bot == 1, "taken_over": taken_over == 1}
        return out

    def matches(self) -> list[dict]:
        """Every stored match, oldest first: ``id``, ``table``, ``game``, ``players``,
        ``started``, ``finished`` (time or None), ``reason``, ``deals`` (dealt), ``names``
        (per seat), ``result`` (the host's result dict, or None), ``series`` (1, or 2, 3… for a
        rematch)."""
        out = []
        for mid, name, game, players, started, finished, reason, result, series in self.db.execute(
                "SELECT id, table_name, game, players, started_at, finished_at, reason, result, series FROM matches "
                "ORDER BY id").fetchall():
            deals = self.db.execute("SELECT COUNT(*) FROM deals WHERE match = ?", (mid,)).fetchone()[0]
            names = [s["name"] for s in self.seats(mid)]
            out.append({"id": mid, "table": name, "game": game, "players": players, "started": started,
                        "finished": finished, "reason": reason, "deals": deals, "names": names,
                        "result": record.stored_map(result), "series": series})
        return out


class MatchJournal(RecordFile):
    """One match in a :class:`Journal`: every change of its table appended and committed at
    once; ``record_path`` (``--record FILE``) exported from it at deal ends and at the end.

    A failure to store is logged (the table goes on: it is the referee of the players in
    front of it), once per kind of failure."""

    def __init__(self, journal: Journal, match_id: int, name: str, record_path: str | None = None) -> None:
        super().__init__(record_path)
        self.journal = journal
        self.id = match_id
        self.name = name
        self.db = journal.db
        self._failed = False

    def _store(self, sql: str, rows: list[tuple]) -> None:
        try:
            with self.db:  # one transaction, committed (synchronous=FULL: on disk) before returning
                self.db.executemany(sql, rows)
        except sqlite3.Error as exc:
            if not self._failed:
                log.error("journal {path}: cannot store a change of match {id}: {err}", path=self.journal.path,
                          id=self.id, err=exc)
            self._failed = True

    def deal_started(self, state: engine.State, proof: dict | None = None) -> None:
        super().deal_started(state, proof)
        dealer, deck, _ = state.history[1]
        self._store("INSERT INTO deals (match, deal, dealer, deck, shuffle) VALUES (?, ?, ?, ?, ?)",
                    [(self.id, state.deal_no - 1, dealer, json.dumps(list(deck)),
                      json.dumps(proof) if proof is not None else None)])

    def action_applied(self, state: engine.State) -> None:
        action = state.history[1][2][1]  # the newest action of the newest deal: (seat, verb, arg?)
        self._store("INSERT INTO actions (match, version, deal, action) VALUES (?, ?, ?, ?)",
                    [(self.id, state.version, state.deal_no - 1,
                      json.dumps([action[0]] + engine.action_to_wire(action[1:]), ensure_ascii=False))])
        super().action_applied(state)

    def seats_changed(self, table: str, seats) -> None:
        sql = "INSERT OR REPLACE INTO seats (match, seat, name, token, bot, taken_over) VALUES (?, ?, ?, ?, ?, ?)"
        self._store(sql, [(self.id, s.index, s.name, s.token, int(bool(s.is_bot)), int(bool(s.takeover))) for s in seats])

    def finished(self, state: engine.State, result: dict, over: bool, reason: str) -> None:
        self._store("UPDATE matches SET owner_pid = NULL, finished_at = ?, reason = ?, result = ? WHERE id = ?",
                    [(_now() if over else None, reason, json.dumps(result, ensure_ascii=False), self.id)])
        super().finished(state, result, over, reason)

    def next_match(self, done, result, state, record_path):
        """The match ``done`` is over (stored with ``result``); a new match of the same table,
        the next in its series, is stored from now on."""
        self.finished(done, result, True, "rematch")
        return self.journal.new_match(self.name, state, record_path, self.journal.series(self.id) + 1)

    def import_state(self, state: engine.State, proofs=()) -> None:
        """Store every deal and action of ``state`` (a match replayed from a record file, for
        ``--resume --record FILE``), each deal with its shuffle proof from ``proofs`` (per deal
        index, or None), in one transaction."""
        deals, actions, version = [], [], 0
        proofs = list(proofs)
        self.proofs = list(proofs)
        for di, (dealer, deck, acts) in enumerate(state.deals()):
            version += 1  # a deal start is a state version, as each accepted action
            proof = proofs[di] if di < len(proofs) else None
            deals.append((self.id, di, dealer, json.dumps(list(deck)),
                          json.dumps(proof) if isinstance(proof, dict) else None))
            for a in acts:
                version += 1
                actions.append((self.id, version, di, json.dumps([a[0]] + engine.action_to_wire(a[1:]),
                                                                 ensure_ascii=False)))
        try:
            with self.db:
                self.db.executemany("INSERT INTO deals (match, deal, dealer, deck, shuffle) VALUES (?, ?, ?, ?, ?)",
                                    deals)
                self.db.executemany("INSERT INTO actions (match, version, deal, action) VALUES (?, ?, ?, ?)",
                                    actions)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.journal.path}: cannot store the match: {exc}") from None

    def saved_seats(self, n: int) -> list[tuple[str, str | None, bool, bool]]:
        """Per seat, ``(name, token, is_bot, taken_over)`` as stored — checked like client input,
        since a journal may have been edited: names cleaned as a hello's (protocol.clean_name: at
        most 32 characters), tokens 16…128-character strings (else None); rows placed by their seat
        number (:meth:`Journal.seats`: a seat without one gets ``("", None, False, False)``: free)."""
        out = [(clean_name(i["name"]), i["token"] if isinstance(i["token"], str) and 16 <= len(i["token"]) <= MAX_TOKEN
                else None, i["bot"] is True, i["taken_over"] is True) for i in self.journal.seats(self.id)[:n]]
        return out + [("", None, False, False)] * (n - len(out))
