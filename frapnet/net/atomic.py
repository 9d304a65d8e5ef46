"""Files the host writes whole and processes it checks on (issue #9; docs/reliability.md): a record
file written beside itself as ``FILE.tmpPID``, fsync'd and renamed over ``FILE``, its dead
writers' temporaries removed; and whether a stored process id still runs (a journal's owner)."""
from __future__ import annotations

import contextlib
import glob
import os


def alive(pid) -> bool:
    """True if process ``pid`` exists (it may be this one). A stored pid that is not a positive
    int of a process id's size (an edited journal) is no process."""
    if type(pid) is not int or not 0 < pid < 2 ** 31:
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:  # someone else's process
        return True
    except OSError:  # ProcessLookupError: none
        return False
    return True


def writable(path: str) -> bool:
    """Can this process write ``path`` and create files beside it (``-wal``, ``-shm``)?"""
    folder = os.path.dirname(os.path.abspath(path))
    if not (os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)):
        return False
    try:
        return not os.statvfs(folder).f_flag & os.ST_RDONLY
    except OSError:
        return True


def write_atomically(path: str, text: str, private: bool = False) -> None:
    """``text`` into ``path`` via ``path.tmpPID``: written, fsync'd, renamed over ``path`` (mode 0600
    if ``private``); temporaries of dead processes beside it are removed first."""
    for stale in glob.glob(glob.escape(path) + ".tmp*"):
        pid = stale[len(path) + 4:]
        if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
            with contextlib.suppress(OSError):
                os.remove(stale)
    tmp, mode = f"{path}.tmp{os.getpid()}", 0o600 if private else 0o666
    try:
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
