"""A move pressed while the connection is down is not lost in silence: the page says the
connection is lost, nothing is sent or changed, and after the reconnection the same press plays."""
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import start_from_menu, wait_until

pytestmark = pytest.mark.browser

# New connections go nowhere and the open one is dropped, as in a tunnel. Nowhere is a path of
# the site's own origin that no consumer serves: the site's Content-Security-Policy refuses
# sockets to any other origin (server/headers.py).
BLOCK_SOCKETS = """() => {
    window.__RealWebSocket = window.WebSocket;
    window.WebSocket = function () { return new window.__RealWebSocket(`ws://${location.host}/ws/nowhere/`); };
    window.roomClient.drop();
}"""
UNBLOCK_SOCKETS = "() => { window.WebSocket = window.__RealWebSocket; }"


def test_it_says_so_when_a_move_is_pressed_offline_and_plays_it_after_reconnecting(site, pages):
    page = pages.new()
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    wait_until(page, "document.getElementById('flip').disabled === false")
    deck = page.locator("#deck-count").inner_text()

    page.evaluate(BLOCK_SOCKETS)
    expect(page.locator("#reconnect-banner")).to_be_visible()
    page.click("#flip")
    expect(page.locator("#toast")).to_have_text("Connection lost. Reconnecting…")
    assert page.evaluate("window.roomClient.open") is False
    assert page.locator("#deck-count").inner_text() == deck

    page.evaluate(UNBLOCK_SOCKETS)
    expect(page.locator("#reconnect-banner")).to_be_hidden(timeout=20000)
    wait_until(page, "document.getElementById('flip').disabled === false")
    # The offline press was not queued and replayed (the version moves with the seat's
    # connection marks, the deck only with flips).
    assert page.locator("#deck-count").inner_text() == deck
    # Waiting for the deck, not the version: the seat's reconnection mark may move the version
    # after the press, before its answer.
    page.click("#flip")
    wait_until(page, f"Number(document.getElementById('deck-count').textContent) < {int(deck)}")
