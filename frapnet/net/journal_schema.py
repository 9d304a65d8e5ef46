"""The SQLite journal's tables (:mod:`frapnet.net.journal`, issue #9): the schema, how an older
frapnet's journal is recognised and upgraded, and a read-only journal's copy in memory."""
from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2
UPGRADE_FROM_1 = (("matches", "record_path", "TEXT"), ("matches", "series", "INTEGER NOT NULL DEFAULT 1"),
                   ("deals", "shuffle", "TEXT"))
"""Schema 1 (before shuffle proofs, record paths and rematch series) is upgraded in place."""
ADDED_COLUMNS = (("seats", "taken_over", "INTEGER NOT NULL DEFAULT 0"),)
"""Columns added to schema 2 since, in place where missing (an older frapnet neither reads nor
names them: its rows take the default)."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    table_name TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    house_rules TEXT NOT NULL,
    resume_key TEXT NOT NULL,
    started_at TEXT NOT NULL,
    owner_pid INTEGER,
    record_path TEXT,
    series INTEGER NOT NULL DEFAULT 1,
    finished_at TEXT,
    reason TEXT,
    result TEXT
);
CREATE INDEX IF NOT EXISTS matches_by_key ON matches (resume_key, finished_at);
CREATE TABLE IF NOT EXISTS seats (
    match INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT,
    bot INTEGER NOT NULL,
    taken_over INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS deals (
    match INTEGER NOT NULL REFERENCES matches (id),
    deal INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    deck TEXT NOT NULL,
    shuffle TEXT,
    PRIMARY KEY (match, deal)
);
CREATE TABLE IF NOT EXISTS actions (
    match INTEGER NOT NULL,
    version INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match, version),
    FOREIGN KEY (match, deal) REFERENCES deals (match, deal)
);
"""
"""Seats and deals are numbered 0…; an action is keyed by the state version it made (the
match's count of accepted actions and deals, so ordering by it is the order of play); ``options``, ``house_rules``, ``deck``, ``action``
(``[seat, verb, argument?]``) and ``result`` are JSON text; times ISO 8601 UTC;
``shuffle`` (the deal's proof, records.md) JSON text or NULL; ``finished_at`` is NULL while the
match is unfinished; ``owner_pid`` is the host process playing it (NULL once it stopped);
``record_path`` the absolute ``--record`` path (NULL: none); ``series`` 1, then 2, 3… for each
rematch with the same seats (frapnet.net.rematch); a seat's ``taken_over`` is 1 while the host
plays it for a person who left or did not come back within the grace period — free for anyone to
take (docs/protocol.md ``leave``), after a restart too."""


def stale(db) -> bool:
    """Was the journal open on ``db`` written by an older frapnet (schema 1, a column missing)?"""
    return (db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() != (str(SCHEMA_VERSION),)
            or any(c not in {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t, c, _ in ADDED_COLUMNS))


def in_memory(disk):
    """A copy in memory of the database open on ``disk`` (closed)."""
    mem = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    disk.backup(mem)
    disk.close()
    return mem
