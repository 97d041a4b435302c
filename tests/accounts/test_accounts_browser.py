"""In a real Chromium: sign up, play a short Memory game (24 cards) against the CPU from the
button panel, and find it on /accounts/me/."""
import random
import re

import pytest
from accounts_testlib import PASSWORD
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.live import chromium, embedded_env, running_site

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("accounts-browser")
    env = embedded_env(tmp_path, CPU_DELAY_MEMORY_FLIP="0.02", MEMORY_CONCEAL_DELAY="0.05")
    with running_site(tmp_path, env) as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    with chromium() as opened:
        yield opened


def test_a_new_player_finishes_a_memory_game_and_finds_it_on_the_account_page(site, browser):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(15_000)

    page.goto(site.url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.fill("#id_username", "pelman")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page).to_have_url(site.url + "/")  # back where the sign-up link was
    expect(page.locator(".account-nav .account-link")).to_have_text("pelman")
    page.locator(".account-nav .account-link").click()
    expect(page.locator("main")).to_contain_text("No finished games yet")

    page.goto(site.url + "/memory/")
    menu = page.locator("form.menu[data-game=memory]").first
    menu.locator("select[data-option=cards]").select_option("24")
    menu.locator("select[data-option=players]").select_option("2")
    menu.locator("input[name=cpu_level][value=easy]").check(force=True)
    menu.locator("button[data-mode=cpu]").click()
    expect(page).to_have_url(re.compile(r"/r/[\w-]+$"))

    # Play from the button panel: on each turn, turn over face-down cards the server allows.
    rng = random.Random(7)
    result = page.locator("#result")
    playable = page.locator(".memory-grid button.cell[aria-disabled=false]")
    for _ in range(2000):
        if result.is_visible():
            break
        try:
            playable.first.wait_for(state="attached", timeout=2_000)
        except PlaywrightTimeout:
            continue  # the CPU's turn, or the mismatch display
        choices = playable.all()
        if choices:
            try:
                rng.choice(choices).click(timeout=1_000)
            except PlaywrightTimeout:
                pass  # the panel re-rendered under the click: look again
    expect(result).to_be_visible()

    page.locator(".account-nav .account-link").click()
    expect(page).to_have_url(re.compile(r"/accounts/me/$"))
    expect(page.locator("#total-games")).to_have_text("1")
    rows = page.locator("tr.record")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Memory")
    expect(rows.first).to_contain_text("vs CPU")
    expect(rows.first).to_contain_text("Easy")
    expect(page.locator("#stats-memory")).to_be_visible()
    expect(page.locator(".results-chart svg g.bar")).to_have_count(1)
    assert errors == []
    context.close()
