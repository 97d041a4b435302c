"""A Gin hand's result belongs to each player: it stays until this player presses "Next hand",
whatever the CPU or the other player does meanwhile, reads on a phone without scrolling, and
every finished hand of the game stays one tap away in "Previous hands"."""
import pytest

from tests.browser.gin_play import GinPlayer, last_view
from tests.browser.helpers import for_up_to, record_frames, start_from_menu, wait_playing, wait_until

pytestmark = pytest.mark.browser

PLAYING = ("upcard", "draw", "discard")
READING = 20_000  # ms: longer than any delay the site had before dealing by itself


class Reader(GinPlayer):
    """Plays the hand, and never presses Next hand: the test does."""

    def visible(self, selector: str) -> bool:
        return selector != "#gin-next-hand" and super().visible(selector)


def play_until_hand_over(players, frames_of, hand_number):
    for _ in for_up_to(120):
        view = last_view(frames_of(players[0]))
        if view["phase"] == "hand_over" and view["last_hand"]["hand_number"] == hand_number:
            return view
        if not any([player.act() for player in players]):
            players[0].page.wait_for_timeout(20)
    raise AssertionError(f"hand {hand_number} did not end")


def within_viewport(page, selector):
    return page.evaluate(f"""(() => {{
        const box = document.querySelector({selector!r}).getBoundingClientRect();
        return box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
    }})()""")


def test_the_result_waits_for_the_player_against_the_cpu_and_earlier_hands_stay(site, pages):
    page = pages.new(390, 844)
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", {"target": 1000}, level="easy")
    player = Reader(page, frames, use_table=False)
    ended = play_until_hand_over([player], lambda _: frames, 1)
    sheet = page.locator(".gin-handover")
    sheet.wait_for(state="visible")
    page.wait_for_timeout(READING)
    # Still there, and the CPU has not been dealt the next hand meanwhile.
    assert sheet.is_visible() and sheet.locator(".gin-side").count() == 2
    assert last_view(frames)["phase"] == "hand_over"
    assert last_view(frames)["hand_number"] == ended["hand_number"]
    # Readable on the phone as it is: inside the screen, no scrolling, full-size text.
    assert within_viewport(page, ".gin-handover")
    assert sheet.evaluate("el => el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth")
    assert sheet.locator(".gin-outcome").evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 14
    page.click("#gin-next-hand")
    wait_until(page, "document.querySelector('.gin-handover').hidden")
    assert last_view(frames)["phase"] in PLAYING

    play_until_hand_over([player], lambda _: frames, 2)
    sheet.wait_for(state="visible")
    sheet.locator("#gin-previous-hands").click()
    hands = page.locator("#gin-hands")
    hands.wait_for(state="visible")
    assert hands.locator(".gin-earlier-hand > h3").all_inner_texts() == ["Hand 2", "Hand 1"]
    assert hands.locator(".gin-earlier-hand").nth(1).locator(".gin-side").count() == 2
    assert within_viewport(page, "#gin-hands")
    hands.locator("#gin-hands-close").click()
    assert not hands.is_visible() and sheet.is_visible()


def test_the_other_players_next_hand_does_not_end_this_players_result(site, pages):
    alice, bob = pages.new(), pages.new(390, 844)
    alice_frames, bob_frames = record_frames(alice), record_frames(bob)
    room_id = start_from_menu(alice, site, "gin", "friends", {"target": 1000}, wait_for="waiting")
    bob.goto(f"{site.url}/r/{room_id}")
    bob.click("#join")
    wait_playing(alice)
    wait_playing(bob)
    frames = {alice: alice_frames, bob: bob_frames}
    players = [Reader(alice, alice_frames, use_table=False), Reader(bob, bob_frames, use_table=False)]
    play_until_hand_over(players, lambda player: frames[player.page], 1)
    bob.locator(".gin-handover").wait_for(state="visible")
    alice.locator("#gin-next-hand").click()
    wait_until(alice, "document.querySelector('.gin-handover').hidden")
    wait_until(bob, "document.getElementById('room').dataset.status === 'playing'")
    for _ in for_up_to(10):
        if last_view(bob_frames)["phase"] in PLAYING:
            break
        bob.wait_for_timeout(20)
    assert last_view(bob_frames)["phase"] in PLAYING  # the room has moved on: hand 2 is dealt
    bob.wait_for_timeout(READING)
    sheet = bob.locator(".gin-handover")
    assert sheet.is_visible() and sheet.locator("h2").inner_text() == "Hand 1"
    assert bob.locator(".gin-hand.mine .pcard").count() == 0  # hand 2 is not shown under it
    bob.click("#gin-next-hand")
    wait_until(bob, "document.querySelector('.gin-handover').hidden")
    assert bob.locator(".gin-hand.mine .pcard").count() >= 10
