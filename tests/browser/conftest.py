"""A live site and Debian's Chromium for the browser tests.

The site is the embedded default (one Daphne, SQLite, no Redis) with the game timings
shortened through the environment variables an operator would use, so CPU seats move at once.
A Gin hand's result stays until a player presses "Next hand", as it does for people, and a
Memory mismatch stays face up briefly, as it does for people, only shorter.
"""
from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import live
from tests.live import PROJECT, embedded_env, running_site

SCREENSHOTS = PROJECT / "docs" / "screenshots"
BROWSER_TIMING = {
    "CPU_DELAY_MEMORY_FLIP": "0.02",
    "MEMORY_CONCEAL_DELAY": "0.2",
    "CPU_DELAY_BOZU_FLIP": "0.01",
    "CPU_DELAY_GIN_STEP": "0.02",
    "SEAT_TAKEOVER_DELAY": "1.5",
}


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    tmp_path: Path = tmp_path_factory.mktemp("browser-site")
    env = embedded_env(tmp_path, **BROWSER_TIMING)
    with running_site(tmp_path, env) as server:
        yield server


@contextmanager
def seeded_site(tmp_path_factory, name: str, seed: str):
    """A site of its own (for one test module), its database first filled by ``seed``, run by
    the site's own manage.py shell."""
    tmp_path: Path = tmp_path_factory.mktemp(name)
    env = embedded_env(tmp_path, **BROWSER_TIMING)
    with running_site(tmp_path, env) as server:
        subprocess.run([sys.executable, "manage.py", "shell", "-c", seed], cwd=PROJECT, env=env,
                       check=True, timeout=120)
        yield server


@pytest.fixture(scope="module")
def chromium():
    with live.chromium() as browser:
        yield browser


class Pages:
    """New pages in fresh contexts (separate localStorage, like separate people); any script
    error on any of them fails the test."""

    def __init__(self, chromium):
        self.chromium = chromium
        self.contexts = []
        self.errors: list[str] = []

    def new(self, width=1280, height=860):
        context = self.chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15000)
        self.contexts.append(context)
        return self.open(context)

    def open(self, context):
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        return page

    def close(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(chromium):
    opened = Pages(chromium)
    yield opened
    opened.close()
    assert opened.errors == []


def screenshot(page, name: str) -> None:
    """Screenshots for the README, taken while the tests play."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
