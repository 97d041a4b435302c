"""A friends' room in two browser contexts (two people): the invite link with its copy button,
Join, a dropped connection with the reconnecting banner, the CPU holding the seat meanwhile and
giving it back, a full reload that keeps the seat, then Resign and a new link."""
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import clipboard_text, record_sent, start_from_menu, version, wait_playing, wait_until

pytestmark = pytest.mark.browser

BLOCK_SOCKETS = """() => {
    window.__RealWebSocket = window.WebSocket;
    // Every new connection goes nowhere, as on a train in a tunnel; the open one is dropped.
    // Nowhere is a path of the site's own origin that no consumer serves: the site's
    // Content-Security-Policy refuses sockets to any other origin (server/headers.py).
    window.WebSocket = function () { return new window.__RealWebSocket(`ws://${location.host}/ws/nowhere/`); };
    window.roomClient.drop();
}"""
UNBLOCK_SOCKETS = "() => { window.WebSocket = window.__RealWebSocket; }"


def seat_text(page, seat: int) -> str:
    return page.locator(f"#seats .seat[data-seat='{seat}']").inner_text()


def flip_if_my_turn(page) -> bool:
    if page.locator("#flip").is_enabled():
        before = version(page)
        page.click("#flip")
        wait_until(page, f"Number(document.getElementById('room').dataset.version) > {before}")
        return True
    return False


def test_it_plays_a_friends_room_across_a_lost_connection(site, pages):
    alice = pages.new()
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"])
    room_id = start_from_menu(alice, site, "bozu", "friends", {"players": 2}, wait_for="waiting")
    invite = alice.locator("#invite-link")
    assert invite.is_visible()
    assert invite.input_value() == f"{site.url}/r/{room_id}"
    alice.click("#copy-invite")
    # The label changes once the asynchronous clipboard write has finished: wait for it.
    expect(alice.locator("#copy-invite")).to_have_text("Copied")
    assert clipboard_text(alice, site.url) == f"{site.url}/r/{room_id}"
    assert alice.locator("#start").is_visible()
    assert "free seat" in seat_text(alice, 1)

    bob = pages.new()
    sent = record_sent(bob)
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob, "waiting")
    assert bob.locator("#room-you").inner_text() == "You are watching."
    assert bob.locator("#start").count() == 0  # only the creator may start
    bob.click("#join")
    wait_playing(bob)  # the last free seat taken: the game starts by itself
    wait_playing(alice)
    assert bob.locator("#room-you").inner_text() == "You play Green."
    assert bob.evaluate(f"localStorage.getItem('seat-token:{room_id}')")
    # The invite leaves once the game starts.
    assert not alice.locator("#invite").is_visible() and not bob.locator("#invite").is_visible()

    # Bob's connection drops: his page says so, Alice sees him away, then the CPU takes over.
    flip_if_my_turn(alice)
    bob.evaluate(BLOCK_SOCKETS)
    bob.locator("#reconnect-banner").wait_for(state="visible")
    wait_until(alice, "document.querySelector(\"#seats .seat[data-seat='1']\").textContent.includes('connection lost')")
    wait_until(alice, "document.querySelector(\"#seats .seat[data-seat='1']\").classList.contains('presence-cpu')")
    for _ in range(3):  # the game goes on without him
        flip_if_my_turn(alice)
        wait_until(alice, "!document.getElementById('flip').disabled")
    away_version = version(bob)
    assert version(alice) > away_version

    # Back: the banner goes, the page resyncs from the version it had, and the seat is his again.
    hellos_before = sum(1 for m in sent if m["type"] == "hello")
    bob.evaluate(UNBLOCK_SOCKETS)
    bob.locator("#reconnect-banner").wait_for(state="hidden")
    hellos = [m for m in sent if m["type"] == "hello"]
    assert len(hellos) == hellos_before + 1
    assert hellos[-1]["last_version"] == away_version and hellos[-1]["token"]
    wait_until(bob, f"Number(document.getElementById('room').dataset.version) >= {version(alice)}")
    wait_until(alice,
               "document.querySelector(\"#seats .seat[data-seat='1']\").classList.contains('presence-connected')")
    assert bob.locator("#room-you").inner_text() == "You play Green."
    assert bob.locator("#deck-count").inner_text() == alice.locator("#deck-count").inner_text()

    # A full reload keeps the seat too: the token is in this browser's storage.
    context = bob.context
    bob.close()
    bob = pages.open(context)
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob)
    assert bob.locator("#room-you").inner_text() == "You play Green."

    # Bob resigns (two presses: the first asks); both see the result.
    bob.click("#resign")
    assert bob.locator("#resign").inner_text() == "Really resign?"
    bob.click("#resign")
    wait_playing(alice, "finished")
    alice.locator("#result").wait_for(state="visible")
    assert alice.locator("#result h2").inner_text() == "You win!"
    assert "Green resigned." in alice.locator("#result").inner_text()
    bob.locator("#result").wait_for(state="visible")
    assert bob.locator("#result h2").inner_text() == "Red wins!"

    # A new link from the result screen: Alice moves to the new room, Bob is offered it.
    alice.locator("#result [data-room-act=new-link]").click()
    alice.wait_for_url(lambda url: room_id not in url)
    wait_playing(alice, "waiting")
    new_id = alice.url.rsplit("/", 1)[1]
    assert alice.locator("#start").is_visible()
    bob.locator("#result [data-room-act=next-room]").click()
    bob.wait_for_url(f"**/r/{new_id}")
    wait_playing(bob, "waiting")
    bob.click("#join")
    wait_playing(bob)
    wait_playing(alice)  # the new room started for both
