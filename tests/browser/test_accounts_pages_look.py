"""How the account and privacy pages look to a new player (issue 15): forms styled like the
game menus, a confirmation for every saved change, the felt down to the bottom of long pages,
a footer on every page with the privacy switch, the rules and the languages, and a meta
description everywhere."""
import secrets

import pytest

from tests.accounts.accounts_testlib import PASSWORD
from tests.browser.pixels import decode_png

pytestmark = pytest.mark.browser



def sign_up(page, site) -> str:
    # Random, not counted: pytest imports this file once as a test module and once more where
    # another imports sign_up, and a counter in each copy handed out the same names on one site.
    name = f"looker{secrets.token_hex(6)}"
    page.goto(f"{site.url}/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form.account-form button[type=submit]")
    # The password is hashed as in production (PBKDF2): seconds on a busy machine.
    page.wait_for_url(f"{site.url}/accounts/me/", timeout=60000)
    return name


STYLE = """el => { const s = getComputedStyle(el); const r = el.getBoundingClientRect();
  const form = el.closest('form').getBoundingClientRect();
  return {background: s.backgroundColor, radius: parseFloat(s.borderTopLeftRadius), width: r.width,
          formWidth: form.width}; }"""


def assert_styled(page, inputs: str):
    """Fields dark and rounded like the menus' (not the browser's), the button the menus' gold
    one, only as wide as its label."""
    menu_like = "rgba(0, 0, 0, 0.3)"
    fields = page.locator(f"form.account-form {inputs}")
    assert fields.count() > 0
    for i in range(fields.count()):
        style = fields.nth(i).evaluate(STYLE)
        assert style["background"] == menu_like and style["radius"] >= 4, style
    button = page.locator("form.account-form button[type=submit]").evaluate(STYLE)
    assert button["background"] == "rgb(240, 194, 75)", button
    assert button["width"] < button["formWidth"] * 0.8, button


def test_it_styles_the_account_forms_like_the_game_pages(site, pages):
    page = pages.new()
    page.goto(f"{site.url}/accounts/signup/")
    assert_styled(page, "input[type=text], input[type=password]")
    page.goto(f"{site.url}/accounts/login/")
    assert_styled(page, "input[type=text], input[type=password]")
    sign_up(page, site)
    page.goto(f"{site.url}/accounts/password/change/")
    assert_styled(page, "input[type=password]")
    page.goto(f"{site.url}/accounts/me/delete/")
    assert_styled(page, "input[type=password]")


def test_it_confirms_every_saved_change(site, pages):
    page = pages.new()
    name = sign_up(page, site)
    assert page.locator(".messages").inner_text() == f"Welcome, {name}: your account is ready."
    page.reload()
    assert page.locator(".messages").count() == 0  # said once
    page.locator("#privacy button[type=submit]").click()
    page.wait_for_url(f"{site.url}/accounts/me/#privacy")
    assert page.locator(".messages").inner_text() == "Your privacy settings are saved."
    page.goto(f"{site.url}/accounts/password/change/")
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", PASSWORD + "-2")
    page.fill("#id_new_password2", PASSWORD + "-2")
    page.click("form.account-form button[type=submit]")
    page.wait_for_url(f"{site.url}/accounts/password/change/done/")
    assert page.locator(".messages").inner_text() == "Your new password is saved."


def test_it_covers_long_pages_with_the_felt_to_the_bottom(site, pages):
    page = pages.new(width=1000, height=600)
    page.goto(f"{site.url}/privacy/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height > 1200  # several screens long
    _, rows_height, rows = decode_png(page.screenshot(full_page=True))
    for y in (rows_height - 5, rows_height // 2 + 300):
        row = rows[y]
        red, green, blue = (sum(p[c] for p in row) / len(row) for c in range(3))
        assert green > red + 8 and green > blue, (y, red, green, blue)  # the deep green, not the grey canvas


@pytest.mark.parametrize("path", ["/", "/gin/", "/memory/rules/", "/privacy/", "/accounts/login/",
                                  "/accounts/signup/", "room"])
def test_every_page_has_a_footer_and_a_meta_description(site, pages, path):
    page = pages.new()
    if path == "room":
        page.goto(f"{site.url}/bozu/")
        page.locator("form.menu[data-game=bozu] button[data-mode=cpu]").click()
        page.wait_for_selector("#room[data-status=playing]")
    else:
        page.goto(site.url + path)
    description = page.locator("meta[name=description]")
    assert description.count() == 1 and len(description.get_attribute("content")) > 50
    footer = page.locator("footer.site-footer")
    hrefs = footer.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert {"/privacy/", "/memory/rules/", "/bozu/rules/", "/gin/rules/", "#language"} <= set(hrefs)
    assert footer.is_visible()
    assert page.locator("#language.lang-switch").count() == 1  # where the Language link goes
    footer.get_by_role("link", name="Privacy and statistics").click()
    page.wait_for_url(f"{site.url}/privacy/")
    assert page.locator("#telemetry-switch").is_visible()


def test_it_styles_the_privacy_page_like_the_game_pages(site, pages):
    page = pages.new()
    page.goto(f"{site.url}/privacy/")
    switch = page.locator("#telemetry-switch")
    assert switch.evaluate("el => getComputedStyle(el).appearance") == "none"  # drawn by the site
    assert switch.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(240, 194, 75)"  # on: gold
    box = page.locator("label.toggle").bounding_box()
    assert box["height"] >= 44  # the whole label is the target
    switch.click()
    assert switch.evaluate("el => getComputedStyle(el).backgroundColor") != "rgb(240, 194, 75)"
    cell = page.locator("#stored-fields td").first.evaluate(
        "el => { const s = getComputedStyle(el); return [s.borderBottomStyle, s.textAlign]; }")
    assert cell == ["solid", "left"]
    heading = page.locator("#stored-fields thead th").first.evaluate("el => getComputedStyle(el).textAlign")
    assert heading == "left"


def test_each_game_page_describes_its_game(site, pages):
    page = pages.new()
    descriptions = set()
    for path in ("/memory/", "/bozu/", "/gin/", "/gin/rules/"):
        page.goto(site.url + path)
        descriptions.add(page.get_attribute("meta[name=description]", "content"))
    assert len(descriptions) == 3  # a game's menu and rules describe that game
    assert any(d.startswith("Meld runs and sets") for d in descriptions)
