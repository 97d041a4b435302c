"""The menus in a real browser: the options chosen are the options of the room created, each
mode button makes its kind of room, and a refused option says why and goes nowhere."""
import json
import urllib.request

import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import start_from_menu, wait_until

pytestmark = pytest.mark.browser


def summary(site, room_id):
    with urllib.request.urlopen(f"{site.url}/api/rooms/{room_id}") as response:
        return json.loads(response.read())


def test_it_creates_the_room_the_home_page_menu_describes(site, pages):
    page = pages.new()
    page.goto(site.url + "/")
    screenshot(page, "home")
    form = page.locator("form.menu[data-game=memory]")
    form.locator("[data-option=players]").select_option("3")
    form.locator("[data-option=cards]").select_option("40")
    form.locator("[data-option=jokers]").check()
    form.locator("[data-option=match]").select_option("zebra")
    form.locator("button[data-mode=local]").click()
    page.wait_for_url("**/r/*")
    room = summary(site, page.url.rsplit("/", 1)[1])
    assert room["game"] == "memory" and room["mode"] == "local"
    assert room["options"] == {"players": 3, "cards": 40, "jokers": True, "match": "zebra", "one_flip": False}


def test_it_starts_solo_memory_with_one_player(site, pages):
    page = pages.new()
    room_id = start_from_menu(page, site, "memory", "solo", {"cards": 24})
    assert summary(site, room_id)["options"]["players"] == 1
    assert page.locator(".memory-solo").inner_text().startswith("Failed flips: 0")


def test_it_passes_the_cpu_level_and_bozu_options(site, pages):
    page = pages.new()
    room_id = start_from_menu(page, site, "bozu", "cpu", {"players": 3, "semimaru": "skip", "emperor": "again",
                                                        "lady_empty_again": True}, level="hard")
    room = summary(site, room_id)
    assert room["options"] == {"players": 3, "semimaru": "skip", "emperor": "again", "lady_empty_again": True}
    assert room["cpu_level"] == "hard"


def test_it_says_why_a_refused_option_is_refused_and_stays_on_the_menu(site, pages):
    page = pages.new()
    page.goto(site.url + "/gin/")
    form = page.locator("form.menu[data-game=gin]")
    form.locator("[data-option=target]").fill("0")
    form.locator("button[data-mode=cpu]").click()
    status = form.locator(".menu-status")
    wait_until(page, "document.querySelector('.menu-status').textContent.startsWith('Could not start')")
    assert "target" in status.inner_text()
    assert page.url.endswith("/gin/")
    assert form.locator("button[data-mode=cpu]").is_enabled()
