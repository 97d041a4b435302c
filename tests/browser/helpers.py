"""Steps shared by the browser tests: start a game from a menu, wait for the room's state."""
from __future__ import annotations

import json
import re
import time

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def start_from_menu(page, site, game: str, mode: str, options: dict | None = None,
                    level: str | None = None, wait_for: str = "playing"):
    """Sets the menu's fields as a person would and presses the mode button."""
    page.goto(f"{site.url}/{game}/")
    form = page.locator(f"form.menu[data-game={game}]")
    for key, value in (options or {}).items():
        field = form.locator(f"[data-option={key}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    if level:
        form.locator(f"input[name=cpu_level][value={level}]").check()
    form.locator(f"button[data-mode={mode}]").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    wait_playing(page, wait_for)
    return page.url.rsplit("/", 1)[1]


def for_up_to(seconds: float):
    """Numbers the steps of a play loop until ``seconds`` have passed. Play loops are bounded in
    time, not in steps: a step is a move or a short wait for the CPU, and a loaded machine (two
    test workers) takes more waits per move. The loop's own assertion after it says what did not
    happen in time."""
    deadline = time.monotonic() + seconds
    step = 0
    while time.monotonic() < deadline:
        yield step
        step += 1


def wait_until(page, expression: str, timeout: float = 15.0):
    """Waits until the JavaScript expression is truthy in the page. Not page.wait_for_function:
    Playwright runs that predicate through the page's eval(), which the site's
    Content-Security-Policy refuses (no 'unsafe-eval'); page.evaluate goes through the
    DevTools protocol, which the policy does not govern."""
    deadline = time.monotonic() + timeout
    while not _holds(page, expression):
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"waited {timeout} s for {expression}")
        page.wait_for_timeout(20)


def _holds(page, expression: str):
    try:
        return page.evaluate(expression)
    except PlaywrightError as error:
        if "Execution context was destroyed" in error.message:
            return False  # the page is navigating: ask the next one
        raise


def clipboard_text(page, origin: str) -> str:
    """What the clipboard holds, read from a blank page of the site's origin beside ``page``:
    the site's own pages may not read it (Permissions-Policy clipboard-read=(),
    server/headers.py)."""
    reader = page.context.new_page()
    url = f"{origin}/clipboard-reader-of-the-tests"
    reader.route(url, lambda route: route.fulfill(body="<!doctype html><title>reader</title>",
                                                  content_type="text/html"))
    try:
        reader.goto(url)
        reader.bring_to_front()  # the clipboard answers the focused page only
        return reader.evaluate("navigator.clipboard.readText()")
    finally:
        reader.close()
        page.bring_to_front()


def wait_playing(page, status: str = "playing"):
    page.wait_for_selector(f"#room[data-status={status}]")


def version(page) -> int:
    return int(page.get_attribute("#room", "data-version") or 0)


def wait_version_after(page, before: int, timeout: float = 10.0):
    wait_until(page, f"Number(document.getElementById('room').dataset.version) > {before}", timeout)


def status(page) -> str:
    return page.get_attribute("#room", "data-status")


def record_frames(page) -> list[dict]:
    """Every WebSocket frame the page receives, parsed."""
    frames: list[dict] = []

    def on_socket(socket):
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))
    page.on("websocket", on_socket)
    return frames


def record_sent(page) -> list[dict]:
    sent: list[dict] = []

    def on_socket(socket):
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
    page.on("websocket", on_socket)
    return sent


WHAT_THE_PAGE_KNEW = """() => ({open: window.roomClient.open, version: window.roomClient.version,
    shown: document.getElementById('room').dataset.version, flip_disabled: document.getElementById('flip').disabled,
    toast: document.getElementById('toast').hidden ? null : document.getElementById('toast').textContent,
    focus: document.activeElement && document.activeElement.id})"""


def flip_bozu_until_finished(page, on_flip=None) -> int:
    """Presses the panel's Flip whenever it is this page's turn until the game ends; returns
    the number of flips. ``on_flip(flips)`` runs after each flip has been answered."""
    flips = 0
    for _ in range(200):
        wait_until(page, "document.getElementById('flip').disabled === false "
                         "|| document.getElementById('room').dataset.status === 'finished'")
        if status(page) == "finished":
            break
        before = version(page)
        for _attempt in range(5):
            page.locator("#flip").press("Enter")
            try:
                wait_version_after(page, before, timeout=5)
                break
            except PlaywrightTimeout:
                # Rarely (in CI, under load; cause not yet found) a press goes unanswered. Print
                # what the page knew, for a failing run's captured output, and press again.
                print("Flip press without an answer:", page.evaluate(WHAT_THE_PAGE_KNEW), flush=True)
        else:
            raise AssertionError("the room did not answer five presses of Flip")
        flips += 1
        if on_flip:
            on_flip(flips)
    return flips
