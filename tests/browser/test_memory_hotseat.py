"""Memory on one device with three players: every seat is played from this page, by tapping the
cards on the 3D table; the current player's name is framed and the turn goes round."""
import pytest

from tests.browser.helpers import for_up_to, start_from_menu, status, version, wait_version_after
from tests.browser.memory_play import Memory, read_cells

pytestmark = pytest.mark.browser


def test_it_plays_a_three_player_memory_game_on_one_device(site, pages):
    page = pages.new()
    start_from_menu(page, site, "memory", "local", {"players": 3, "cards": 24})
    seats = page.locator("#seats .seat")
    assert seats.count() == 3
    assert page.locator("#room-you").inner_text().startswith("Everybody plays on this device")
    assert page.locator("#invite").is_hidden()

    player = Memory()
    framed_seats = set()
    for _ in for_up_to(180):
        if status(page) == "finished":
            break
        cells = read_cells(page)
        if not any(c["enabled"] for c in cells):
            page.wait_for_timeout(30)  # the mismatch is being shown to everybody
            continue
        current = page.locator("#seats .seat.current")
        assert current.count() == 1  # exactly one name framed: the player to flip
        framed_seats.add(current.get_attribute("data-seat"))
        target = player.choose(cells)
        before = version(page)
        page.locator(f".memory-card[data-pos={target['pos']}]").click()
        wait_version_after(page, before)
        player.look(read_cells(page))
    assert status(page) == "finished"
    assert framed_seats == {"0", "1", "2"}

    result = page.locator("#result")
    result.wait_for(state="visible")
    rows = result.locator("table.ranking").first.locator("tbody tr")  # the game's, not the session's
    assert rows.count() == 3
    assert sum(int(rows.nth(i).locator("td").last.inner_text()) for i in range(3)) == 12  # pairs
    # Every card is in a pile: the panel shows 0 left and every button says who took it.
    assert page.locator("#cards-left").inner_text() == "0"
    labels = page.eval_on_selector_all(".memory-grid .cell", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(": taken by " in label for label in labels)
