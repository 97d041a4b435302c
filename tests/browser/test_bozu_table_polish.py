"""How Bozu Mekuri looks to a new player (issue 15): a tall pile leaves its label readable, the
small card in the panel shows its figure and names whole, and a disabled Flip looks disabled.
The states come from the engine (tests/browser/engine_views.py)."""
import pytest

from games.engines import bozu
from tests.browser.engine_views import open_room_page, render_view
from tests.browser.pixels import decode_png

pytestmark = pytest.mark.browser

PILE_EDGE = (203, 191, 157)  # the paper edge drawn under a pile as deep as it is tall (site.css)


def tall_pile_view():
    """Seed 0 after 99 flips: Yellow holds 53 cards, Red 42, and it is Blue's turn."""
    state = bozu.new_game({}, 0)
    for _ in range(99):
        state.apply(state.current_player, {"type": "flip"})
    view = state.view(0)
    assert [pile["count"] for pile in view["piles"]] == [42, 0, 53, 4] and view["current_player"] == 3
    return view


def covered_share(page, locator) -> float:
    """The share of the label's box painted in the colour of a pile's edge."""
    box = locator.bounding_box()
    _, _, rows = decode_png(page.screenshot(clip=box))
    pixels = [p for row in rows for p in row]
    near = [p for p in pixels if sum(abs(a - b) for a, b in zip(p, PILE_EDGE, strict=True)) < 60]
    return len(near) / len(pixels)


def test_it_keeps_the_labels_of_tall_piles_readable(site, pages):
    page = pages.new()
    open_room_page(page, site, "bozu")
    render_view(page, "bozu", tall_pile_view())
    for name in ("You · 42", "Yellow · 53"):  # Red is this page's seat
        label = page.locator(".bozu-pile .pile-label", has_text=name)
        assert covered_share(page, label) < 0.05, name
    fresh = bozu.new_game({}, 0).view(0)
    render_view(page, "bozu", fresh)
    count = page.locator(".deck-count")
    assert count.inner_text() == str(fresh["deck_count"])
    assert covered_share(page, count) < 0.05


def test_it_shows_the_small_card_in_the_panel_whole(site, pages):
    page = pages.new()
    open_room_page(page, site, "bozu")
    render_view(page, "bozu", tall_pile_view())
    card = page.locator(".side-panel .bozu-last .karuta")
    outer = card.bounding_box()
    parts = {part: card.locator(f".{part}").first.bounding_box() for part in ("k-ja", "k-en", "k-type")}
    figure = card.locator(".k-figure svg").bounding_box()
    for part in ("k-en", "k-type"):  # the romanised name and the type, not cut off
        inner = parts[part]
        assert outer["x"] <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5, part
        assert inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5, part
    ja = parts["k-ja"]
    assert ja["x"] >= figure["x"] + figure["width"], (ja, figure)  # the Japanese name beside the figure, not over it


def test_it_makes_a_disabled_flip_look_disabled(site, pages):
    page = pages.new()
    open_room_page(page, site, "bozu")
    style = """() => { const b = document.getElementById('flip'); const s = getComputedStyle(b);
      return {disabled: b.disabled, background: s.backgroundColor, cursor: s.cursor, opacity: Number(s.opacity)}; }"""
    render_view(page, "bozu", bozu.new_game({}, 0).view(0))  # Red, this page, flips first
    enabled = page.evaluate(style)
    enabled_act = page.get_attribute("#flip", "data-act")
    render_view(page, "bozu", tall_pile_view())  # Blue's turn: not this page's
    disabled = page.evaluate(style)
    assert not enabled["disabled"] and disabled["disabled"]
    assert disabled["cursor"] != "pointer" and disabled["opacity"] < enabled["opacity"]
    red, green, blue = (int(v) for v in disabled["background"].split("(")[1].split(")")[0].split(",")[:3])
    assert max(red, green, blue) - min(red, green, blue) < 40, disabled  # grey, not the gold of a live button
    assert enabled_act == '{"type":"flip"}' and page.get_attribute("#flip", "data-act") is None
