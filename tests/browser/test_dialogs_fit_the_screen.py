"""Every dialog fits the screen, laptop and phone alike (issue 37, point 6), all of it on screen
at scroll 0 with every button inside the viewport: the Gin final result (the tallest: the
ranking, the deciding hand and the after-game buttons), Memory's result with the session's
table, Bozu's result, and Gin's hand result with its Previous hands. Gin's hand result is an
opaque sheet that never lies over the side panel (on a laptop it lies over the table)."""
import pytest

from tests.browser.gin_play import GinPlayer, last_view
from tests.browser.helpers import flip_bozu_until_finished, for_up_to, record_frames, start_from_menu, status
from tests.browser.memory_play import play_my_flips

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [(1366, 768), (360, 740)], ids=["laptop", "phone"])
ON_SCREEN = """el => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""
# Whether two elements' boxes share any area.
OVERLAP_JS = """([a, b]) => { const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return Math.min(r.right, s.right) > Math.max(r.left, s.left)
    && Math.min(r.bottom, s.bottom) > Math.max(r.top, s.top); }"""


def assert_fits(page, selector: str, least_buttons: int = 1):
    """All of the dialog at once on the screen as it is: inside the viewport, nothing hidden
    below its own scroll, every button on screen, and the page not wider than the screen."""
    page.evaluate("scrollTo(0, 0)")
    dialog = page.locator(selector)
    dialog.wait_for(state="visible")
    assert dialog.evaluate(ON_SCREEN), dialog.bounding_box()
    sizes = dialog.evaluate("el => [el.scrollHeight, el.clientHeight]")
    assert sizes[0] <= sizes[1] + 1, sizes
    buttons = dialog.locator("button:visible, a.btn:visible")
    assert buttons.count() >= least_buttons
    for index in range(buttons.count()):
        assert buttons.nth(index).evaluate(ON_SCREEN), buttons.nth(index).inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


class Reader(GinPlayer):
    """Plays the hand and leaves its result on screen: never presses Next hand."""

    def visible(self, selector: str) -> bool:
        return selector != "#gin-next-hand" and super().visible(selector)


@SIZES
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
    assert_fits(page, "#result .result-card", least_buttons=2)


@SIZES
def test_the_gin_hand_result_is_an_opaque_sheet_beside_the_panel(site, pages, size):
    page = pages.new(*size)
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", {"target": 1000}, level="easy")
    player = Reader(page, frames, use_table=False)
    for _ in for_up_to(120):
        if last_view(frames)["phase"] == "hand_over":
            break
        if not player.act():
            page.wait_for_timeout(20)
    assert last_view(frames)["phase"] == "hand_over"
    assert_fits(page, ".gin-handover", least_buttons=2)  # Next hand, Previous hands
    assert not page.evaluate(OVERLAP_JS, [".gin-handover", "#side-panel"])
    background = page.locator(".gin-handover").evaluate("el => getComputedStyle(el).backgroundColor")
    assert background.startswith("rgb("), f"the sheet lets the page show through: {background}"
    if size[0] > 900:  # beside the panel, over the table
        assert page.evaluate(OVERLAP_JS, [".gin-handover", "#table-viewport"])
    page.click("#gin-previous-hands")
    assert_fits(page, "#gin-hands")
    page.click("#gin-hands-close")
    page.click("#gin-next-hand")
    page.locator(".gin-handover").wait_for(state="hidden")
    assert page.locator("#table-viewport").is_visible()


@SIZES
def test_memorys_result_with_the_session_table_fits(site, pages, size):
    page = pages.new(*size)
    start_from_menu(page, site, "memory", "cpu", {"cards": 24}, level="easy")
    play_my_flips(page)
    assert page.locator("#result #session-standings").count() == 1  # the session's table is in it
    assert_fits(page, "#result .result-card", least_buttons=3)


@SIZES
def test_bozus_result_fits(site, pages, size):
    page = pages.new(*size)
    start_from_menu(page, site, "bozu", "cpu", {"players": 4}, level="easy")
    flip_bozu_until_finished(page)
    assert status(page) == "finished"
    assert page.locator("#result table.ranking tbody tr").count() == 4
    assert_fits(page, "#result .result-card", least_buttons=2)
