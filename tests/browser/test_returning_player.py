"""A player who comes back to a friends' room after their seat changed hands (issue 15): the
page says what happened and what they can do, instead of silently making them a spectator."""
import pytest

from tests.browser.helpers import start_from_menu, wait_playing, wait_until

pytestmark = pytest.mark.browser


def test_it_tells_a_returning_player_their_seat_was_taken(site, pages):
    alice = pages.new()
    room_id = start_from_menu(alice, site, "gin", "friends", wait_for="waiting")
    bob = pages.new()
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob, "waiting")
    bob.click("#join")
    wait_playing(bob)
    bob_context = bob.context
    bob.close()  # Bob walks away; his seat token stays in his browser
    wait_until(alice, "document.querySelector(\"#seats .seat[data-seat='1']\").textContent.includes('CPU')")

    carol = pages.new()
    carol.goto(f"{site.url}/r/{room_id}")
    wait_playing(carol)
    carol.click("[data-take-seat='1']")
    wait_until(carol, "document.getElementById('room-you').textContent === 'You play Green.'")

    bob = pages.open(bob_context)
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob)
    notice = bob.locator("#seat-notice")
    notice.wait_for(state="visible")
    assert notice.inner_text().startswith("Your seat (Green) was taken by someone else while you were away.")
    assert "There is no seat to take: you can watch the game." in notice.inner_text()
    assert bob.locator("#room-you").inner_text() == "You are watching."
    bob.click("#watch")
    assert notice.is_hidden()
    assert bob.locator("[data-take-seat]").count() == 0 and bob.locator("#join").count() == 0


def test_it_takes_a_left_seat_back_in_one_tap(site, pages):
    alice = pages.new()
    room_id = start_from_menu(alice, site, "bozu", "friends", {"players": 3}, wait_for="waiting")
    bob = pages.new()
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob, "waiting")
    bob.click("#join")
    wait_until(bob, "document.getElementById('room-you').textContent === 'You play Green.'")
    alice.click("#start")
    wait_playing(bob)
    bob.click("#leave")
    bob.click("#leave")  # "Really leave?"
    wait_until(bob, "document.getElementById('room-you').textContent === 'You are watching.'")
    bob.reload()
    wait_playing(bob)
    notice = bob.locator("#seat-notice")
    notice.wait_for(state="visible")
    assert notice.inner_text().startswith("You left your seat (Green); the CPU has been playing it since.")
    back = notice.locator("[data-take-seat='1']")
    assert back.inner_text() == "Take back your seat (Green)"
    # The offers are in the notice, not twice on the page.
    assert bob.locator("[data-take-seat='1']").count() == 1
    back.click()
    wait_until(bob, "document.getElementById('room-you').textContent === 'You play Green.'")
    assert notice.is_hidden()
    wait_until(alice, "!document.querySelector(\"#seats .seat[data-seat='1']\").textContent.includes('CPU')")
