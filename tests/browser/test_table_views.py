"""The table's views: Perspective and Overhead buttons at the table's top right, a
small turn while dragging, a layout that never changes with the view or the window, the panel
alone when the player asks for it or when 3D transforms are missing, and the panel below the
table on a narrow screen."""
import re

import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import start_from_menu, version, wait_until, wait_version_after

pytestmark = pytest.mark.browser


def tilt_and_turn(page):
    transform = page.eval_on_selector("#table-stage", "el => el.style.transform")
    tilt = float(re.search(r"rotateX\((-?[\d.]+)deg\)", transform).group(1))
    turn = float(re.search(r"rotateZ\((-?[\d.]+)deg\)", transform).group(1))
    return tilt, turn


def card_layout(page):
    return page.eval_on_selector_all(".memory-card", "els => els.map(e => [e.dataset.pos, e.style.left, e.style.top])")


def test_it_switches_views_and_turns_while_dragging_without_moving_a_card(site, pages):
    page = pages.new()
    start_from_menu(page, site, "memory", "cpu", {"cards": 40})
    layout = card_layout(page)
    buttons = page.locator(".view-buttons")
    box, table = buttons.bounding_box(), page.locator("#table-wrap").bounding_box()
    assert box["y"] - table["y"] < 30 and (table["x"] + table["width"]) - (box["x"] + box["width"]) < 30
    assert page.get_attribute("[data-view=perspective]", "aria-pressed") == "true"
    assert tilt_and_turn(page)[0] > 10

    page.click("[data-view=overhead]")
    assert page.get_attribute("[data-view=overhead]", "aria-pressed") == "true"
    assert tilt_and_turn(page) == (0.0, 0.0)
    assert card_layout(page) == layout  # the view changes, the layout does not
    screenshot(page, "memory-overhead")
    page.click("[data-view=perspective]")

    # Dragging the table turns it a little, and it eases back when let go.
    viewport = page.locator("#table-viewport").bounding_box()
    x, y = viewport["x"] + 20, viewport["y"] + viewport["height"] - 20
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 150, y - 30, steps=5)
    _, turn = tilt_and_turn(page)
    assert 0 < turn <= 10
    page.mouse.up()
    assert tilt_and_turn(page)[1] == 0

    # Nor a window of another shape.
    page.set_viewport_size({"width": 700, "height": 1000})
    page.wait_for_timeout(100)
    assert card_layout(page) == layout
    panel = page.locator("#side-panel").bounding_box()
    table = page.locator("#table-wrap").bounding_box()
    assert panel["y"] >= table["y"] + table["height"] - 1  # the panel goes below the table
    screenshot(page, "memory-narrow")


def test_it_plays_from_the_panel_alone_when_asked(site, pages):
    page = pages.new()
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    page.click("[data-view=panel]")
    assert page.locator("#table-viewport").is_hidden()
    wait_until(page, "!document.getElementById('flip').disabled")
    before = version(page)
    page.click("#flip")
    wait_version_after(page, before)
    # The choice is remembered for the next page.
    page.reload()
    page.locator("#room[data-status=playing]").wait_for(state="attached")
    assert page.locator("#table-viewport").is_hidden()
    page.click("[data-view=perspective]")
    assert page.locator("#table-viewport").is_visible()


def test_it_falls_back_to_the_panel_without_3d_transforms(site, pages):
    page = pages.new()
    page.add_init_script("CSS.supports = () => false;")
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    assert page.locator("#table-viewport").is_hidden()
    assert page.locator("[data-view=perspective]").is_disabled()
    wait_until(page, "!document.getElementById('flip').disabled")
    before = version(page)
    page.click("#flip")
    wait_version_after(page, before)
