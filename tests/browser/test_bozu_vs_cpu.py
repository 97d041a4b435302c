"""A whole Bozu Mekuri game against three CPUs: flip with the panel's button (and once on the
deck), the flipped card shown large, the counts in the panel, zoom with the wheel."""
import re

import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import flip_bozu_until_finished, start_from_menu, status, version, wait_version_after

pytestmark = pytest.mark.browser


def stage_scale(page) -> float:
    transform = page.eval_on_selector("#table-stage", "el => el.style.transform")
    return float(re.search(r"scale\(([\d.]+)\)", transform).group(1))


def test_it_plays_a_bozu_game_against_the_cpu(site, pages):
    page = pages.new()
    start_from_menu(page, site, "bozu", "cpu", {"players": 4})
    assert page.locator("#seats .seat").count() == 4
    assert page.locator("#deck-count").inner_text() in {str(n) for n in range(97, 101)}

    # Wheel zoom on the table (Bozu only).
    page.locator("#flip:enabled").wait_for()
    before_zoom = stage_scale(page)
    page.mouse.move(400, 400)
    page.mouse.wheel(0, -300)
    page.wait_for_timeout(50)
    assert stage_scale(page) > before_zoom * 1.3
    page.mouse.wheel(0, 300)
    page.wait_for_timeout(50)
    assert stage_scale(page) == pytest.approx(before_zoom, rel=0.01)

    # The first flip is a tap on the deck; the flipped card is shown large with its poet and type.
    before = version(page)
    page.locator(".bozu-deck").click()
    wait_version_after(page, before)
    show = page.locator(".bozu-show")
    show.wait_for(state="attached")
    caption = show.locator(".show-caption").inner_text()
    assert re.match(r".+ · (noble|emperor|lady|monk|Semimaru)$", caption)

    def after_flip(flips):
        # The panel's last-card line says what the flip did.
        assert page.locator(".bozu-last p").inner_text()
        if flips == 7:
            page.locator(".bozu-show").wait_for(state="attached")
            screenshot(page, "bozu")

    flips = 1 + flip_bozu_until_finished(page, after_flip)
    assert status(page) == "finished"
    assert flips >= 20
    assert page.locator("#deck-count").inner_text() == "0"

    counts = dict(zip(page.locator(".counts dt").all_inner_texts(), page.locator(".counts dd").all_inner_texts(),
                      strict=True))
    piles = [int(counts[name]) for name in ("You", "Green", "Yellow", "Blue")]  # Red is this page's seat
    assert sum(piles) + int(counts["Centre"]) == 100
    assert counts["Monks left in the deck"] == "0" and counts["Ladies left in the deck"] == "0"

    result = page.locator("#result")
    result.wait_for(state="visible")
    scores = [int(t) for t in result.locator("tbody td:last-child").all_inner_texts()]
    assert sorted(scores, reverse=True) == sorted(piles, reverse=True)
    # The centre's cards are named only when some are left there (none is no news).
    assert ("left in the centre" in result.inner_text()) == (int(counts["Centre"]) > 0)
