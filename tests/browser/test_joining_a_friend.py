"""Joining a friend: the host alone is told to share the link (no game dealt to nobody), the
invited page says who waits and for what with one large Join, and after Join the table turns to
the joiner's seat at once."""
import pytest

from tests.browser.helpers import start_from_menu, wait_playing

pytestmark = pytest.mark.browser


def centre_y(page, selector):
    box = page.locator(selector).bounding_box()
    return box["y"] + box["height"] / 2


def test_the_joiners_own_pile_is_nearest_to_them_right_after_join(site, pages):
    alice, bob = pages.new(), pages.new(390, 844)
    room_id = start_from_menu(alice, site, "bozu", "friends", {"players": 2}, wait_for="waiting")
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob, "waiting")
    bob.click("#join")
    wait_playing(bob)
    # Bob plays Green: his pile is the near one (lower on his screen), Red's the far one, as on
    # Alice's screen the other way round; no reload in between.
    assert centre_y(bob, ".bozu-pile.seat-green") > centre_y(bob, ".bozu-pile.seat-red")
    assert centre_y(alice, ".bozu-pile.seat-red") > centre_y(alice, ".bozu-pile.seat-green")


def test_the_invited_page_says_who_waits_and_the_invite_leaves_once_the_game_starts(site, pages):
    alice, bob = pages.new(), pages.new(390, 844)
    room_id = start_from_menu(alice, site, "memory", "friends", {"players": 2}, wait_for="waiting")
    assert alice.locator("#lobby-title").inner_text() == "Waiting for a friend: share this link"
    assert alice.locator("#lobby #invite-link").input_value() == f"{site.url}/r/{room_id}"
    assert alice.locator("#lobby #copy-invite").is_visible()
    bob.goto(f"{site.url}/r/{room_id}")
    wait_playing(bob, "waiting")
    assert bob.locator("#lobby-title").inner_text() == "Red is waiting for you to play Memory."
    join = bob.locator("#lobby #join")
    assert join.count() == 1 and bob.locator("#join").count() == 1
    box = join.bounding_box()
    assert box["height"] >= 48 and box["y"] + box["height"] <= 844  # large, on the first screen
    join.click()
    wait_playing(bob)
    wait_playing(alice)
    for page in (alice, bob):
        assert not page.locator("#lobby").is_visible() and not page.locator("#invite").is_visible()


def test_a_host_alone_sees_the_link_to_share_and_no_hand_dealt(site, pages):
    alice = pages.new(390, 844)
    start_from_menu(alice, site, "gin", "friends", wait_for="waiting")
    assert alice.locator("#lobby-title").inner_text() == "Waiting for a friend: share this link"
    assert alice.locator("#lobby #copy-invite").is_visible()
    # Share is offered where the browser has the Web Share API (headless Chromium has not).
    assert alice.locator("#share-invite").is_visible() == alice.evaluate("Boolean(navigator.share)")
    assert not alice.locator(".gin-hand.mine .pcard").first.is_visible()
    assert not alice.locator("#game-panel").is_visible()
    assert alice.locator("#turn-line").inner_text() == ""
