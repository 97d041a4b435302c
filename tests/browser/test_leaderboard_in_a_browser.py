"""The Memory leaderboard in a real Chromium, on a desktop and on a phone: a player whose stats
page is public is named and links to it, one who keeps it private shows as "a player", and the
page never scrolls sideways."""
from __future__ import annotations

import pytest

from tests.browser.conftest import seeded_site

pytestmark = pytest.mark.browser

# Run by the site's own manage.py shell: two players' solo games, finished now, as the rooms
# record them. The long name is the widest a phone must fit.
SEED = """
from datetime import datetime, timezone
from django.contrib.auth.models import User
from accounts.records import store_finished_game
from tests.accounts.accounts_testlib import game_record

shown = User.objects.create_user("shown_player_with_a_rather_long_name", password="x")
shown.profile.public_profile = True
shown.profile.save()
hidden = User.objects.create_user("hidden_player", password="x")
for user, flips, duration in [(shown, 3, 95.0), (hidden, 1, 130.0), (shown, 7, 61.0)]:
    store_finished_game(game_record(
        [{"holder": "human", "user_id": user.id, "result": "win", "rank": 1, "failed_flips": flips}],
        mode="solo", cpu_level=None, duration=duration, finished_at=datetime.now(timezone.utc),
        options={"players": 1, "cards": 24, "jokers": False, "match": "rank", "one_flip": False}))
"""

PAGE_WIDTH = "({width: window.innerWidth, scrollWidth: document.documentElement.scrollWidth})"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A site of its own: its records are written before the board is first built and cached."""
    with seeded_site(tmp_path_factory, "leaderboard-site", SEED) as server:
        yield server


def players(page, ranking: str) -> list[str]:
    section = page.locator("#cards-24-rank")
    return section.locator(f".ranking:has(h3:text-is('{ranking}')) .place-player").all_inner_texts()


@pytest.mark.parametrize("size", [(1280, 860), (390, 844)], ids=["desktop", "phone"])
def test_it_names_public_players_and_hides_the_others(site, pages, size):
    page = pages.new(*size)
    page.goto(f"{site.url}/memory/")
    page.get_by_role("link", name="Memory leaderboard: the best solo games").click()
    page.wait_for_url(f"{site.url}/leaderboard/")
    # Each player once, at their best game's place.
    assert players(page, "Fewest failed flips today") == ["a player", "shown_player_with_a_rather_long_name"]
    assert players(page, "Fastest of all time") == ["shown_player_with_a_rather_long_name", "a player"]
    assert "hidden_player" not in page.content()
    screen = page.evaluate(PAGE_WIDTH)
    assert screen["scrollWidth"] <= screen["width"], "the page scrolls sideways"
    # Every ranking of the setting lies within the screen's width, however long the name.
    for box in page.locator("#cards-24-rank .ranking").evaluate_all(
            "els => els.map(el => el.getBoundingClientRect().right)"):
        assert box <= screen["width"]
    page.locator("#cards-24-rank a", has_text="shown_player_with_a_rather_long_name").first.click()
    page.wait_for_url(f"{site.url}/u/shown_player_with_a_rather_long_name/")
    assert page.locator("h1").inner_text() == "shown_player_with_a_rather_long_name's games"
