"""Small things every visitor meets: each page's title names the site, the sign-up form speaks
in the site's words (not Django's stock help), the CPU's middle level has one name in every game
and language, and the leaderboard is in the navigation."""
import re

import pytest

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "es", "de", "ja"]


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/privacy/",
                                 "/accounts/password/reset/"])
def test_every_title_names_the_site(client, url):
    html = client.get(url).content.decode()
    assert re.search(r"<title>[^<]+ · Card Table</title>", html), re.search(r"<title>.*</title>", html)


def test_the_sign_up_form_has_no_stock_help_text(client):
    html = client.get("/accounts/signup/").content.decode()
    for stock in ("Required. 150 characters or fewer", "Your password can’t be too similar",
                  "Enter the same password as before, for verification"):
        assert stock not in html
    assert "Letters, digits and @ . + - _ only." in html
    assert "At least 8 characters, not only digits, and not a common password." in html


def cpu_levels(client, game, language):
    html = client.get(f"/{game}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return re.findall(r'name="cpu_level" value="(\w+)"[^>]*><span>([^<]+)</span>', html)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cpu_levels_have_the_same_names_in_every_game(client, language):
    named = {game: [label for _value, label in cpu_levels(client, game, language)]
             for game in ("memory", "bozu", "gin")}
    assert len(named["memory"]) == 3
    assert named["memory"] == named["bozu"] == named["gin"]
    # ...while Gin's middle level is still sent as "normal".
    assert [value for value, _label in cpu_levels(client, "gin", language)] == ["easy", "normal", "hard"]


@pytest.mark.parametrize("url", ["/", "/gin/", "/accounts/login/"])
def test_the_leaderboard_is_in_the_navigation(client, url):
    html = client.get(url).content.decode()
    nav = re.search(r'<nav class="site-nav".*?</nav>', html, re.DOTALL).group(0)
    assert 'href="/leaderboard/">Leaderboard</a>' in nav
