"""Wherever the page lists the seats (issue 37, point 6), this page's own seat reads "You", its
colour kept as the swatch beside it: the seat pills, the piles on the table, the panel's counts,
the result's ranking and the session's standings. On one device every seat is at this device,
so each keeps its colour's name."""
import pytest

from tests.browser.helpers import start_from_menu, wait_until

pytestmark = pytest.mark.browser

def pill(page, seat: int):
    return page.locator(f"#seats .seat[data-seat='{seat}'] .seat-name")


def test_it_names_this_players_seat_you_in_every_list(site, pages):
    page = pages.new(1366, 768)
    start_from_menu(page, site, "memory", "cpu", {"cards": 24}, level="easy")
    assert pill(page, 0).inner_text() == "You" and pill(page, 1).inner_text() == "Green"
    own = page.locator("#seats .seat[data-seat='0']")
    assert "seat-red" in own.get_attribute("class") and own.locator(".seat-dot").count() == 1  # the swatch
    assert page.locator("#room-you").inner_text() == "You play Red."  # the colour itself, once
    labels = page.locator(".memory-pile .pile-label").all_inner_texts()
    assert sorted(label.split(" · ")[0] for label in labels) == ["Green", "You"], labels
    assert page.locator(".memory-panel .counts dt").all_inner_texts()[:2] == ["You", "Green"]
    assert "Red" not in page.inner_text("#seats") + page.inner_text("#side-panel").replace("You play Red.", "")

    page.click("#resign")
    page.click("#resign")
    result = page.locator("#result")
    result.wait_for(state="visible")
    ranking = result.locator("table.ranking").first.locator("tbody th").all_inner_texts()
    assert sorted(ranking) == ["Green", "You"], ranking
    standings = result.locator("#session-standings table:not(.session-times) tbody th").all_inner_texts()
    assert sorted(standings) == ["Green", "You"], standings
    assert "Red" not in result.inner_text()
    # The colour stays beside the name: the row of "You" has Red's swatch.
    you_row = result.locator("table.ranking").first.locator("tbody tr", has_text="You")
    assert "seat-red" in you_row.get_attribute("class")
    assert you_row.locator(".seat-dot").count() == 1


def test_on_one_device_every_seat_keeps_its_colour(site, pages):
    page = pages.new(1366, 768)
    start_from_menu(page, site, "memory", "local", {"players": 2, "cards": 24})
    wait_until(page, "document.querySelectorAll('#seats .seat-name').length === 2")
    assert [pill(page, seat).inner_text() for seat in (0, 1)] == ["Red", "Green"]
    assert page.locator(".memory-panel .counts dt").all_inner_texts()[:2] == ["Red", "Green"]
    assert "You" not in page.inner_text("#seats")
