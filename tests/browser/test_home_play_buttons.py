"""The home page's first screen has a Play button for every game, on a phone and on a laptop:
one tap starts a game against the CPU with the options last used on this device. Each game's
card is as tall as what it holds: no empty band under a picture."""
import re

import pytest

from tests.browser.helpers import record_frames, start_from_menu, wait_playing

pytestmark = pytest.mark.browser

GAMES = ("memory", "bozu", "gin")


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "laptop"])
def test_every_game_has_a_play_button_on_the_first_screen(site, pages, size):
    page = pages.new(*size)
    page.goto(site.url + "/")
    for game in GAMES:
        box = page.locator(f"[data-quick-game={game}]").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size[1], (game, box)
        assert box["height"] >= 40
    if size[0] > 1000:  # three cards side by side: the menu follows each picture closely
        for game in ("bozu", "gin"):
            art = page.locator(f"#game-{game} .game-art").bounding_box()
            menu = page.locator(f"#game-{game} form.menu").bounding_box()
            assert menu["y"] - (art["y"] + art["height"]) < 24, game


def test_one_tap_plays_with_the_options_last_used(site, pages):
    page = pages.new(390, 844)
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", {"target": 50}, level="hard")
    page.goto(site.url + "/")
    page.locator("[data-quick-game=gin]").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    wait_playing(page)
    room = [f for f in frames if f.get("type") == "state"][-1]["room"]
    assert room["game"] == "gin" and room["mode"] == "cpu"
    assert room["options"]["target"] == 50 and room["cpu_level"] == "hard"
