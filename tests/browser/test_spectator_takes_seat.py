"""A spectator of a friends' room takes a seat the CPU is playing and plays it."""
import pytest

from tests.browser.helpers import start_from_menu, version, wait_playing, wait_until

pytestmark = pytest.mark.browser


def test_it_lets_a_spectator_take_a_cpu_seat(site, pages):
    alice = pages.new()
    room_id = start_from_menu(alice, site, "bozu", "friends", {"players": 3}, wait_for="waiting")
    alice.click("#start")  # the free seats become CPU seats
    wait_playing(alice)
    assert alice.locator("#leave").inner_text() == "Leave (CPU plays for you)"  # 3 players: no Resign
    assert alice.locator("#resign").count() == 0

    carol = pages.new()
    carol.goto(f"{site.url}/r/{room_id}")
    wait_playing(carol)
    assert carol.locator("#room-you").inner_text() == "You are watching."
    assert carol.locator("#flip").is_disabled()
    assert carol.locator("#join").count() == 0  # no free seat: only CPU seats to take
    take = carol.locator("[data-take-seat='1']")
    assert take.inner_text() == "Take Green's seat"
    assert carol.locator("[data-take-seat='2']").inner_text() == "Take Yellow's seat"
    take.click()
    wait_until(carol, "document.getElementById('room-you').textContent === 'You play Green.'")
    assert carol.locator("[data-take-seat]").count() == 0
    wait_until(alice, "!document.querySelector(\"#seats .seat[data-seat='1']\").textContent.includes('CPU')")

    # Red flips, then it is Green's turn: Carol's button.
    if alice.locator("#flip").is_enabled():
        alice.click("#flip")
    wait_until(carol, "!document.getElementById('flip').disabled")
    before = version(carol)
    carol.click("#flip")
    wait_until(carol, f"Number(document.getElementById('room').dataset.version) > {before}")
    wait_until(alice, "document.getElementById('last-move').textContent.startsWith('Green flipped') "
                            "|| document.getElementById('last-move').textContent.startsWith('Yellow flipped')")
