"""The journal as the commands see it (`frapnet host`, `play`, `export`, `stats`; issue #9):
checked before any network or terminal is touched, so a bad ``--db`` file is one clear line
naming it (exit 2), never a traceback."""
from __future__ import annotations


def open_checked(path: str | None, command: str, create: bool = True):
    """The :class:`frapnet.net.journal.Journal` at ``path`` (None: the default one in the user's
    data folder), or None after printing ``frapnet COMMAND: --db: FILE: what is wrong`` on
    stderr (corrupt, not a frapnet journal, locked by another process, missing with ``create``
    false, unreadable)."""
    import sys

    from frapnet.net.journal import Journal, JournalError, default_path

    try:
        return Journal(path or default_path(), create=create)
    except JournalError as exc:
        print(f"frapnet {command}: --db: {exc}", file=sys.stderr)
    except OSError as exc:  # the data folder cannot be created
        print(f"frapnet {command}: --db: {exc.filename or path}: {exc.strerror or exc}", file=sys.stderr)
    return None


def table_of_record(path: str | None, record: str) -> str | None:
    """The table name under which the journal at ``path`` last stored a match with ``--record
    record`` (None: none, or no usable journal) — how `frapnet host --resume` keeps the name."""
    from frapnet.net.journal import Journal, JournalError, default_path

    try:
        j = Journal(path or default_path(), create=False)
    except (JournalError, OSError):
        return None
    try:
        found = j.with_record(record)
    finally:
        j.close()
    return found[1] if found else None
