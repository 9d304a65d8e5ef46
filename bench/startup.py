"""Startup benchmark: `frapnet --help`, and `frapnet play` to the first full screen.

    .venv/bin/python bench/startup.py [--runs N]

Prints figures (seconds; min / median / max of N runs), never asserts. Targets (issue #4):
first full screen ≤ 1.0 s, ``--help`` ≤ 0.3 s.

- ``--help``: wall time of the console script ``frapnet --help`` (and of ``python -c pass`` as
  the interpreter's own floor).
- ``play`` (pty): ``frapnet play --seed S --bot-delay 0`` on a pseudo-terminal of 100×30; the
  clock stops when the bytes written to the terminal hold the seat table and the card boxes
  of the hand (the first full screen). Also the CPU time (user + system) the process used by
  then: on a busy machine wall time grows with the load average (printed first), CPU time
  does not.
- ``play`` (tmux): the same inside a detached tmux session, polling ``capture-pane`` every 10 ms
  until the screen shows the hand (if tmux is installed).
- ``import``: ``python -X importtime``'s top modules for ``frapnet play``'s imports, to see what
  the time is spent on.
"""
from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FRAPNET = str(BIN / "frapnet") if (BIN / "frapnet").exists() else None


def frapnet_cmd(*args: str) -> list[str]:
    return [FRAPNET, *args] if FRAPNET else [sys.executable, "-m", "frapnet", *args]


BYTECODE = True  # --no-bytecode-cache sets False


def env() -> dict:
    """The children's environment. With the bytecode cache (the default, as a user's install has
    it) compiled modules go to a private PYTHONPYCACHEPREFIX, so the checkout stays clean."""
    e = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", LANG="C.UTF-8")
    e.pop("LANGUAGE", None)
    if BYTECODE:
        e.pop("PYTHONDONTWRITEBYTECODE", None)
        e["PYTHONPYCACHEPREFIX"] = os.path.join(os.environ.get("TMPDIR", "/tmp"), "frapnet-bench-pycache")
    else:
        e["PYTHONDONTWRITEBYTECODE"] = "1"
        e.pop("PYTHONPYCACHEPREFIX", None)
    return e


def time_help() -> float:
    t0 = time.perf_counter()
    subprocess.run(frapnet_cmd("--help"), stdout=subprocess.DEVNULL, check=True, env=env())
    return time.perf_counter() - t0


def time_python() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=env())
    return time.perf_counter() - t0


def full_screen(text: str) -> bool:
    """The table is drawn: the seat table, the hand's card boxes and the action row."""
    return "Olga (you)" in text and "╭───╮" in text and "╰───╯" in text and "[l]" in text


CPU: list[float] = []  # CPU seconds (user + system) the play process used until the first screen


def time_play_pty(seed: int) -> float:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    t0 = time.perf_counter()
    p = subprocess.Popen(frapnet_cmd("play", "--seed", str(seed), "--bot-delay", "0", "--name", "Olga", "--lang", "en"),
                         stdin=slave, stdout=slave, stderr=slave, env=env(), cwd=ROOT, start_new_session=True)
    os.close(slave)
    buf = b""
    elapsed = None
    try:
        while time.perf_counter() - t0 < 20:
            r, _, _ = select.select([master], [], [], 0.5)
            if not r:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            if full_screen(buf.decode("utf-8", "replace")):
                elapsed = time.perf_counter() - t0
                break
    finally:
        p.terminate()
        _, status, usage = os.wait4(p.pid, 0)  # reap it ourselves to read its CPU time
        p.returncode = status
        os.close(master)
    if elapsed is not None:
        CPU.append(usage.ru_utime + usage.ru_stime)
    if elapsed is None:
        raise RuntimeError("the first screen never came; output was:\n" + buf.decode("utf-8", "replace")[-2000:])
    return elapsed


def time_play_tmux(seed: int) -> float:
    tmux = shutil.which("tmux")
    sock = f"frapnet-bench-{os.getpid()}-{time.monotonic_ns()}"
    cmd = " ".join(frapnet_cmd("play", "--seed", str(seed), "--bot-delay", "0", "--name", "Olga", "--lang", "en"))
    t0 = time.perf_counter()
    subprocess.run([tmux, "-L", sock, "new-session", "-d", "-s", "b", "-x", "100", "-y", "30",
                    f"{cmd}; sleep 30"], check=True, cwd=ROOT, env=env())
    try:
        while time.perf_counter() - t0 < 20:
            out = subprocess.run([tmux, "-L", sock, "capture-pane", "-p", "-t", "b"], capture_output=True,
                                 text=True).stdout
            if full_screen(out):
                return time.perf_counter() - t0
            time.sleep(0.01)
        raise RuntimeError("the first screen never came in tmux:\n" + out)
    finally:
        subprocess.run([tmux, "-L", sock, "kill-server"], capture_output=True)


def import_profile(top: int = 8) -> list[tuple[int, str]]:
    code = ("import asyncio, frapnet.tui.app, frapnet.hosting, frapnet.net.client, frapnet.bots.strategy, "
            "frapnet.engine, frapnet.games.frap")
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env=env())
    rows = []
    for line in r.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            if not name.startswith("  ") or name.startswith("   ") is False:
                rows.append((int(parts[1]), name.strip()))
    rows.sort(reverse=True)
    return rows[:top]


def show(label: str, xs: list[float], target: float | None = None) -> None:
    line = (f"{label:<34} min {min(xs):6.3f} s   median {statistics.median(xs):6.3f} s   "
            f"max {max(xs):6.3f} s   (n={len(xs)})")
    if target is not None:
        line += f"   target ≤ {target:.1f} s: {'met' if statistics.median(xs) <= target else 'NOT met'}"
    print(line, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="compile every module on every run (PYTHONDONTWRITEBYTECODE=1, a cold start)")
    a = ap.parse_args()
    global BYTECODE
    BYTECODE = not a.no_bytecode_cache
    print("bytecode cache:", "on (private PYTHONPYCACHEPREFIX)" if BYTECODE else "off (every module compiled)")
    load = os.getloadavg()
    print(f"python {sys.version.split()[0]} · {os.cpu_count()} CPUs · load average {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f} · {FRAPNET or 'python -m frapnet'}")
    time_help()  # warm the file cache
    show("python -c pass (floor)", [time_python() for _ in range(a.runs)])
    show("frapnet --help", [time_help() for _ in range(a.runs)], 0.3)
    time_play_pty(1)
    CPU.clear()
    show("frapnet play → first screen (pty)", [time_play_pty(i) for i in range(a.runs)], 1.0)
    show("  its CPU time (user+sys)", CPU, 1.0)
    if shutil.which("tmux"):
        show("frapnet play → first screen (tmux)", [time_play_tmux(i) for i in range(a.runs)], 1.0)
    else:
        print("frapnet play → first screen (tmux): skipped, tmux is not installed")
    print("heaviest imports of frapnet play (cumulative µs):")
    for us, name in import_profile():
        print(f"  {us:>9}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
