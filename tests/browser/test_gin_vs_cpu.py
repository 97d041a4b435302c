"""Gin Rummy against the CPU: a hand played to a knock or gin, with both hands shown
at the end; then a whole game to 100 points, with the CPU sped up through CPU_DELAY_GIN_STEP."""
import pytest

from tests.browser.conftest import screenshot
from tests.browser.gin_play import GinPlayer, last_view
from tests.browser.helpers import for_up_to, record_frames, start_from_menu, status, wait_until

pytestmark = pytest.mark.browser


def test_it_plays_a_gin_hand_to_a_knock_or_gin_with_both_hands_shown(site, pages):
    page = pages.new()
    frames = record_frames(page)
    # A target no hand reaches: a gin against 75 points of deadwood would end a match to 100 at
    # once, and the hand-over below would never come.
    start_from_menu(page, site, "gin", "cpu", {"target": 1000}, level="normal")
    # Deadwood and the match score are at the top from the start.
    page.locator("#gin-deadwood").wait_for()
    assert page.locator("#gin-score").inner_text().startswith("You 0 – 0 Green")  # this page plays Red
    player = GinPlayer(page, frames, use_table=True, past_decided_hands=False)
    outcome = None
    for step in for_up_to(300):
        view = last_view(frames)
        assert view["phase"] != "over", f"one hand ended the match: {view['scores']}"
        if view["phase"] == "hand_over" and view["last_hand"]["outcome"] != "dead":
            outcome = view["last_hand"]["outcome"]
            break
        if step == 12:
            screenshot(page, "gin")
        if not player.act():
            page.wait_for_timeout(20)
    assert outcome in ("knock", "gin", "undercut")
    overlay = page.locator(".gin-handover")
    overlay.wait_for(state="visible")
    assert overlay.locator(".gin-side").count() == 2  # both hands, melds and deadwood
    text = overlay.locator(".gin-outcome").inner_text()
    assert ("knock" in text) or ("gin" in text) or ("Undercut" in text)  # "You knock" or "Green knocks"
    screenshot(page, "gin-hand-over")
    page.click("#gin-next-hand")
    wait_until(page, "!document.querySelector('.gin-handover') || document.querySelector('.gin-handover').hidden")


def test_it_plays_a_whole_gin_game_to_100(site, pages):
    page = pages.new()
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", {"target": 100}, level="easy")
    player = GinPlayer(page, frames, use_table=False)
    for _ in for_up_to(600):
        if status(page) == "finished":
            break
        if not player.act():
            page.wait_for_timeout(20)
    assert status(page) == "finished"
    final = last_view(frames)
    assert max(final["scores"]) >= 100
    result = page.locator("#result")
    result.wait_for(state="visible")
    score_line = result.locator(".gin-final-score").inner_text()
    assert score_line == f"Final score: You {final['scores'][0]} – {final['scores'][1]} Green"
    assert "The deciding hand" in result.inner_text()
    assert result.locator(".gin-summary .gin-side").count() == 2
    screenshot(page, "gin-result")
