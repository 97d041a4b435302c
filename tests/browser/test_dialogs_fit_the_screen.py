"""Every dialog fits the screen, laptop and phone alike: the Gin final result (the tallest: the
ranking, the deciding hand and the after-game buttons) with its last button on screen, and the
Gin hand's result and its Previous hands."""
import pytest

from tests.browser.gin_play import GinPlayer, last_view
from tests.browser.helpers import for_up_to, record_frames, start_from_menu, status

pytestmark = pytest.mark.browser

ON_SCREEN = """el => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


@pytest.mark.parametrize("size", [(1366, 768), (360, 740)], ids=["laptop", "phone"])
def test_the_gin_final_result_fits_with_its_last_button(site, pages, size):
    page = pages.new(*size)
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", {"target": 1}, level="easy")
    player = GinPlayer(page, frames, use_table=False)
    for _ in for_up_to(120):
        if status(page) == "finished":
            break
        if not player.act():
            page.wait_for_timeout(20)
    assert status(page) == "finished", last_view(frames)["phase"]
    card = page.locator("#result .result-card")
    card.wait_for(state="visible")
    assert card.evaluate(ON_SCREEN)
    # All of it at once: nothing hidden below the card's own scroll, its last button on screen.
    sizes = card.evaluate("el => [el.scrollHeight, el.clientHeight]")
    assert sizes[0] <= sizes[1] + 1, sizes
    buttons = card.locator("button, a.btn")
    assert buttons.count() >= 2
    assert buttons.last.evaluate(ON_SCREEN)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
