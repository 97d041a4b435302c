"""Every page of the site fits a 360×740 phone without scrolling sideways: wide tables scroll
inside their own box or reflow. The account pages are seen signed in with 50 finished games of
every kind, the public page of that player too, and a room of each game."""
from __future__ import annotations

import pytest

from tests.accounts.accounts_testlib import PASSWORD
from tests.browser.conftest import seeded_site
from tests.browser.helpers import start_from_menu

pytestmark = pytest.mark.browser

NAME = "a_player_with_fifty_games"
# Run by the site's own manage.py shell: 50 finished games of every game and mode, as the rooms
# record them, for a player whose stats page is public.
SEED = f"""
from datetime import datetime, timedelta, timezone
from django.contrib.auth.models import User
from accounts.records import store_finished_game
from tests.accounts.accounts_testlib import game_record

user = User.objects.create_user({NAME!r}, password={PASSWORD!r})
user.profile.public_profile = True
user.profile.save()
kinds = [
    ("memory", "cpu", {{"players": 2, "cards": 24}}, 2),
    ("memory", "solo", {{"players": 1, "cards": 24, "jokers": False, "match": "rank", "one_flip": False}}, 1),
    ("bozu", "cpu", {{"players": 3}}, 3),
    ("gin", "cpu", {{"players": 2, "target": 100}}, 2),
    ("memory", "friends", {{"players": 2, "cards": 52}}, 2),
]
now = datetime.now(timezone.utc)
for i in range(50):
    game, mode, options, players = kinds[i % len(kinds)]
    me = {{"holder": "human", "user_id": user.id, "result": "win" if i % 3 else "loss",
          "rank": 1 if i % 3 else 2, "score": 10 + i,
          "failed_flips": i % 7 if mode == "solo" else None}}
    others = [{{"holder": "cpu" if mode != "friends" else "human"}} for _ in range(players - 1)]
    store_finished_game(game_record([me, *others], game=game, mode=mode, options=options,
                                    cpu_level=None if mode in ("solo", "friends") else "hard",
                                    duration=60.0 + 13 * i, finished_at=now - timedelta(hours=i)))
"""

PUBLIC_PAGES = ["/", "/memory/", "/bozu/", "/gin/", "/memory/rules/", "/bozu/rules/", "/gin/rules/",
                "/privacy/", "/leaderboard/", "/accounts/login/", "/accounts/signup/",
                "/accounts/password/reset/", f"/u/{NAME}/"]
ACCOUNT_PAGES = ["/accounts/me/", "/accounts/password/change/", "/accounts/me/delete/"]
WIDTH = "({inner: window.innerWidth, scroll: document.documentElement.scrollWidth})"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with seeded_site(tmp_path_factory, "phone-pages-site", SEED) as server:
        yield server


def overflow(page) -> int:
    width = page.evaluate(WIDTH)
    return width["scroll"] - width["inner"]


def sign_in(page, site):
    page.goto(f"{site.url}/accounts/login/")
    page.fill("#id_username", NAME)
    page.fill("#id_password", PASSWORD)
    page.click("form.account-form button[type=submit]")
    # The password is hashed as in production (PBKDF2): seconds on a busy machine.
    page.wait_for_url(f"{site.url}/accounts/me/", timeout=60000)


def test_no_page_scrolls_sideways_at_360_by_740(site, pages):
    page = pages.new(360, 740)
    wide = {}
    for path in PUBLIC_PAGES:
        page.goto(site.url + path)
        wide[path] = overflow(page)
    sign_in(page, site)
    for path in [*ACCOUNT_PAGES, f"/u/{NAME}/"]:
        page.goto(site.url + path)
        wide[f"{path} signed in"] = overflow(page)
    for game in ("memory", "bozu", "gin"):
        start_from_menu(page, site, game, "cpu")
        wide[f"{game} room"] = overflow(page)
    start_from_menu(page, site, "gin", "friends", wait_for="waiting")
    wide["friends room, waiting"] = overflow(page)
    assert {path: px for path, px in wide.items() if px > 0} == {}


def test_sign_out_is_styled_on_every_page(site, pages):
    page = pages.new()
    sign_in(page, site)
    for path in ("/", "/gin/", "/gin/rules/", "/privacy/", "/leaderboard/", "/accounts/me/"):
        page.goto(site.url + path)
        style = page.locator(".account-nav .link-button").evaluate(
            "el => { const s = getComputedStyle(el); return [s.backgroundColor, s.borderTopStyle, s.cursor]; }")
        assert style == ["rgba(0, 0, 0, 0)", "none", "pointer"], (path, style)
