"""Page views without a browser: every page renders, menus carry every option and default."""
import re

import pytest

from games import catalog
from games.engines import bozu, gin, memory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/memory/", "/bozu/", "/gin/", "/memory/rules/",
                                 "/bozu/rules/", "/gin/rules/", "/r/AbCdEfGhIjKlMnOpQrStUv"])
def test_it_serves_each_page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "/jsi18n/" in html  # the catalog loads before the page's modules
    page_module = re.search(r'<script type="module" src="/static/js/(menu|room/page)\.js">', html)
    if url != "/" and "/rules/" in url:
        assert page_module is None  # rules pages need no script of their own
    else:
        # (under its version: games/webapp.py)
        assert re.search(r'<script src="/jsi18n/\?v=[0-9a-f]{12}">', html).start() < page_module.start()


@pytest.mark.parametrize("url", ["/poker/", "/memory/rules/extra/", "/r/short", "/r/has%20space-xxxxxxxxxxxx"])
def test_it_answers_404_for_what_is_not_a_page(client, url):
    assert client.get(url).status_code == 404


def test_it_lists_the_three_games_with_their_menus_on_the_home_page(client):
    html = client.get("/").content.decode()
    for game in catalog.games():
        assert f'id="game-{game["slug"]}"' in html
        assert f'<form class="menu" data-game="{game["slug"]}"' in html
        assert f'href="/{game["slug"]}/rules/"' in html


def test_it_sets_the_csrf_cookie_the_menu_needs_to_create_a_room(client):
    response = client.get("/memory/")
    assert "csrftoken" in response.cookies


def _menu(client, slug):
    html = client.get(f"/{slug}/").content.decode()
    start = html.index('<form class="menu"')
    return html[start:html.index("</form>", start)]


def _selected(form, key):
    select = re.search(rf'<select data-option="{key}"[^>]*>(.*?)</select>', form, re.S).group(1)
    return re.search(r'<option value="([^"]+)" selected>', select).group(1)


def test_it_offers_every_memory_option_with_its_default(client):
    form = _menu(client, "memory")
    assert _selected(form, "players") == "2"
    assert re.findall(r'<option value="(\d)"', form.split('data-option="players"')[1].split("</select>")[0]) \
        == ["2", "3", "4", "5", "6"]
    assert _selected(form, "cards") == "52"
    assert all(f'value="{n}"' in form for n in (52, 40, 24, 104))
    assert _selected(form, "match") == "rank"
    assert all(f'value="{m}"' in form for m in ("rank", "colour", "zebra"))
    assert re.search(r'data-option="one_flip" data-type="bool" name="one_flip">', form)  # off
    assert re.search(r'data-option="jokers" data-type="bool" name="jokers">', form)  # off
    assert [m for m in re.findall(r'data-mode="(\w+)"', form)] == ["cpu", "local", "solo", "friends"]
    assert re.findall(r'name="cpu_level" value="(\w+)"( checked)?', form) == [
        ("easy", ""), ("medium", " checked"), ("hard", "")]


def test_it_offers_every_bozu_option_with_the_engine_defaults(client):
    form = _menu(client, "bozu")
    defaults = bozu.Options().to_json()
    assert _selected(form, "players") == str(defaults["players"])
    assert _selected(form, "semimaru") == defaults["semimaru"]
    assert set(re.findall(r'<option value="(\w+)"', form.split('data-option="semimaru"')[1].split("</select>")[0])) \
        == set(bozu.SEMIMARU_RULES)
    assert _selected(form, "emperor") == defaults["emperor"]
    assert set(re.findall(r'<option value="(\w+)"', form.split('data-option="emperor"')[1].split("</select>")[0])) \
        == set(bozu.EMPEROR_RULES)
    assert 'data-option="lady_empty_again" data-type="bool" name="lady_empty_again">' in form
    assert re.findall(r'data-mode="(\w+)"', form) == ["cpu", "local", "friends"]


def test_it_offers_gin_points_and_normal_level_and_no_hotseat(client):
    form = _menu(client, "gin")
    assert 'data-option="target" data-type="int" name="target" value="100"' in form
    assert 'data-option="players"' not in form  # always two
    assert re.findall(r'name="cpu_level" value="(\w+)"( checked)?', form) == [
        ("easy", ""), ("normal", " checked"), ("hard", "")]
    assert re.findall(r'data-mode="(\w+)"', form) == ["cpu", "friends"]


def test_it_builds_menus_whose_defaults_the_engines_accept():
    assert bozu.parse_options({o["key"]: o["default"] for o in catalog.game("bozu")["options"]}
                              | {"players": catalog.game("bozu")["players"]["default"]}) == bozu.Options()
    assert memory.parse_options({o["key"]: o["default"] for o in catalog.game("memory")["options"]}
                                | {"players": 2}) == memory.Options()
    assert gin.parse_options({o["key"]: o["default"] for o in catalog.game("gin")["options"]}) == gin.Options()


@pytest.mark.parametrize("slug,facts", [
    ("memory", ["shinkei-suijaku", "Pelmanism", "1890s", "NBC", "1958", "1973", "Zwick", "Pexeso"]),
    ("bozu", ["Tsubouchi", "1886", "Kodomo fūzoku", "1896", "Fujiwara no Teika", "12, 13 or 15", "Meiji"]),
    ("gin", ["Q-K-A", "undercut", "25", "100", "lay off"]),
])
def test_it_writes_rules_with_options_controls_tips_and_faq(client, slug, facts):
    html = client.get(f"/{slug}/rules/").content.decode()
    for section in ("how-to-play", "options", "controls", "tips", "faq"):
        assert f'<section id="{section}">' in html
    for fact in facts:
        assert fact in html


def test_it_sends_browsers_asking_for_favicon_ico_to_the_site_icon(client):
    # The admin's pages name no icon; a 404 there would be an error in their console.
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/img/icon.svg"
    assert client.get(response["Location"]).status_code == 200
