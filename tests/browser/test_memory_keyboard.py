"""A whole Memory game against the CPU, played with the keyboard on the button panel only:
Tab to the card grid, arrow keys to move, Enter or Space to flip."""
import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import for_up_to, record_frames, start_from_menu, status, version, wait_version_after
from tests.browser.memory_play import Memory, read_cells

pytestmark = pytest.mark.browser


def focused(page):
    return page.evaluate("""() => { const e = document.activeElement;
        return e && e.classList.contains('cell') ? {row: +e.dataset.row, col: +e.dataset.column,
        pos: e.dataset.pos} : null; }""")


def move_to(page, target):
    here = focused(page)
    for _ in range(abs(target["row"] - here["row"])):
        page.keyboard.press("ArrowDown" if target["row"] > here["row"] else "ArrowUp")
    for _ in range(abs(target["col"] - here["col"])):
        page.keyboard.press("ArrowRight" if target["col"] > here["col"] else "ArrowLeft")
    assert focused(page)["pos"] == target["pos"]


def test_it_plays_a_memory_game_against_the_cpu_with_the_keyboard_only(site, pages):
    page = pages.new()
    frames = record_frames(page)
    start_from_menu(page, site, "memory", "cpu", {"cards": 24, "players": 2}, level="hard")
    # The grid has the table's layout: 24 cards are 6 columns by 4 rows, A1 at the back left.
    cells = read_cells(page)
    assert [c["pos"] for c in cells[:7]] == ["A1", "A2", "A3", "A4", "A5", "A6", "B1"]
    assert len(cells) == 24

    for _ in range(40):  # Tab through the header and the view buttons to the card grid
        page.keyboard.press("Tab")
        if focused(page):
            break
    assert focused(page)["pos"] == "A1"

    player = Memory()
    flips = keys_used = 0
    for _ in for_up_to(180):
        if status(page) == "finished":
            break
        cells = read_cells(page)
        player.look(cells)
        if not any(c["enabled"] for c in cells):
            page.wait_for_timeout(30)  # the CPU's turn, or a mismatch being shown
            continue
        target = player.choose(cells)
        before = version(page)
        move_to(page, target)
        page.keyboard.press("Enter" if flips % 2 == 0 else " ")
        keys_used += 1
        flips += 1
        wait_version_after(page, before)
        if flips == 6:
            screenshot(page, "memory")
    assert status(page) == "finished"
    assert flips > 0 and keys_used == flips

    result = page.locator("#result")
    result.wait_for(state="visible")
    rows = result.locator("table.ranking").first.locator("tbody tr")  # the game's, not the session's
    assert rows.count() == 2
    scores = [int(rows.nth(i).locator("td").last.inner_text()) for i in range(2)]
    assert sum(scores) == 12 and scores == sorted(scores, reverse=True)  # pairs: 24 cards, 12 pairs
    assert result.locator("h2").inner_text() in ("You win!", "It's a draw!", "Green wins!")
    # The result screen is reachable by keyboard too: it takes focus, and Play again is a button.
    assert page.evaluate("document.activeElement.id") == "result-title"
    assert result.locator("[data-room-act=play-again]").is_visible()

    # Play again, still by keyboard: from the result's heading, Tab goes in the order seen:
    # Verify beside the heading, then Play again.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "verify-game"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.roomAct") == "play-again"
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_after(page, before)
    page.wait_for_selector("#room[data-status=playing]")
    assert result.is_hidden()
    # The new game's first state: a fresh table (the CPU may already be flipping on the page).
    fresh = next(f for f in frames if f.get("type") == "state" and (f.get("event") or {}).get("type") == "play_again")
    assert all(entry["state"] == "down" for entry in fresh["view"]["layout"])
    assert fresh["view"]["scores"] == [0, 0]
