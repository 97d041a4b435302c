"""Starts real server processes for end-to-end tests: the server exactly as `make run` starts it."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def services_reachable() -> bool:
    """The local PostgreSQL and Redis that every developer and CI machine runs."""
    def reachable(port):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            return False
    return reachable(5432) and reachable(6379)


def embedded_env(tmp_path: Path, **overrides: str) -> dict:
    """The environment of the embedded default, with its SQLite file in a temporary folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "TEST_BACKEND")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(overrides)
    return env


class LiveServer:
    """One server process; stop() ends it (SIGTERM, then SIGKILL)."""

    def __init__(self, command: list[str], env: dict, port: int, log_path: Path,
                 host: str = "127.0.0.1"):
        self.host, self.port = host, port
        self.url = f"http://{host}:{port}"
        self.ws_url = f"ws://{host}:{port}"
        self.log_path = log_path
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen(command, cwd=PROJECT, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 60.0) -> dict:
        deadline = time.monotonic() + timeout
        last_error = None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log()}")
            try:
                return get_json(self.url + "/healthz")
            except OSError as exc:
                last_error = exc
                time.sleep(0.2)
        raise TimeoutError(f"server not ready after {timeout}s ({last_error}):\n{self.log()}")

    def log(self) -> str:
        if not self._log.closed:  # (closed once the server stopped)
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def kill(self):
        """SIGKILL the whole process group: a crash, not a shutdown."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


def get_json(url: str, timeout: float = 5.0) -> dict:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return {"status": response.status, "body": json.loads(response.read())}
    except urllib.error.HTTPError as exc:
        return {"status": exc.code, "body": json.loads(exc.read() or b"null")}


def migrate(env: dict) -> None:
    """Creates the schema of the database an end-to-end server will use."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=PROJECT,
                   env=env, check=True, timeout=180)


# Debian's chromium, started as this machine's network allows (no background connections).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


@contextlib.contextmanager
def chromium():
    """Debian's Chromium through Playwright's sync API, closed on the way out. Keep it open
    for a module at most: the sync API keeps an event loop running in this thread meanwhile,
    which would break every asyncio test collected after it."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def running_site(tmp_path: Path, env: dict, name: str = "daphne"):
    """A migrated database and a ready Daphne on it, stopped on the way out."""
    migrate(env)
    server = start_daphne(tmp_path, env, name=name)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def start_make_run(tmp_path: Path, **env_overrides: str) -> LiveServer:
    """`make run` on a free port, as a person would start the site."""
    port = free_port()
    env = embedded_env(tmp_path, **env_overrides)
    command = ["make", "--no-print-directory", "run", f"PORT={port}"]
    return LiveServer(command, env, port, tmp_path / "server.log")


def start_daphne(tmp_path: Path, env: dict, name: str = "daphne", host: str = "127.0.0.1",
                 port: int | None = None) -> LiveServer:
    """The same server command as `make run`, without migrate/collectstatic (already done)."""
    port = port or free_port()
    command = [str(VENV_BIN / "python"), "manage.py", "serve", "--host", host, "--port", str(port)]
    return LiveServer(command, env, port, tmp_path / f"{name}.log", host)
