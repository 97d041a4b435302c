"""A solo Memory result says "new personal best" when it beats the fewest failed flips this
device has seen with the same options, also when the finished game's page is opened again."""
import json

import pytest

from tests.browser.helpers import record_frames, start_from_menu
from tests.browser.memory_play import play_my_flips

pytestmark = pytest.mark.browser


def test_a_solo_result_says_new_personal_best_when_it_is(site, pages):
    page = pages.new()
    frames = record_frames(page)
    start_from_menu(page, site, "memory", "solo", {"cards": 24})
    options = [f for f in frames if f.get("type") == "state"][-1]["room"]["options"]
    # An earlier game with these options left 99 failed flips; one with other options left 0.
    page.evaluate("""([key, other]) => {
      localStorage.setItem(key, JSON.stringify({flips: 99, room: 'an-earlier-room', beaten: false}));
      localStorage.setItem(other, JSON.stringify({flips: 0, room: 'another-room', beaten: false}));
    }""", [f"solo-best:{json.dumps(options, separators=(',', ':'))}", 'solo-best:{"players":1,"cards":52}'])
    play_my_flips(page)
    best = page.locator("#personal-best")
    best.wait_for(state="visible")
    flips = [f for f in frames if f.get("type") == "state"][-1]["room"]["result"]["failed_flips"]
    assert best.inner_text() == f"New personal best: {flips} failed flip{'' if flips == 1 else 's'}."
    page.reload()
    page.locator("#personal-best").wait_for(state="visible")  # still this game's news
