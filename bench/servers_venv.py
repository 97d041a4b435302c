"""The ASGI servers that ``bench/ws_load.py --server`` compares with Daphne (uvicorn, Granian),
installed on first use into bench/.servers-venv (ignored by git), never into the project's .venv:
that one holds exactly the lock (tests/foundation/test_locked_install.py). The bench's
environment gets the project's runtime lock first (requirements/production.txt, every file
checked against its hash), then the servers at the versions pinned here, each with the same
Python as .venv. It is made again when either changes.

    .venv/bin/python bench/servers_venv.py    # install (or check) it without running a bench
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
VENV = PROJECT / "bench" / ".servers-venv"
BIN = VENV / "bin"
RUNTIME_LOCK = PROJECT / "requirements" / "production.txt"
# uvicorn as its docs recommend for production (uvloop, httptools; websockets comes from the
# lock), h11 for its import; Granian (Rust's hyper and tungstenite, its own workers). uvloop also
# serves Granian's --loop uvloop.
SERVERS = ("uvicorn==0.55.0", "h11==0.16.0", "uvloop==0.23.0", "httptools==0.9.0",
           "granian==2.8.9")
STAMP = VENV / "installed-for.txt"


def wanted() -> str:
    """What the environment was made for: the lock's digest and the servers' pins."""
    lock = hashlib.sha256(RUNTIME_LOCK.read_bytes()).hexdigest()
    return "\n".join([f"{RUNTIME_LOCK.name} sha256 {lock}", *SERVERS, sys.version.split()[0]]) + "\n"


def ensure() -> Path:
    """The environment's bin folder, made first where it is missing or out of date."""
    if STAMP.exists() and STAMP.read_text() == wanted():
        return BIN
    print(f"Installing {', '.join(SERVERS)} and {RUNTIME_LOCK.relative_to(PROJECT)} into "
          f"{VENV.relative_to(PROJECT)} (first use) …", flush=True)
    shutil.rmtree(VENV, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--require-hashes", "-r", str(RUNTIME_LOCK)], check=True)
    subprocess.run([*pip, *SERVERS], check=True)
    STAMP.write_text(wanted())
    return BIN


if __name__ == "__main__":
    print(ensure())
