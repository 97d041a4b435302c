"""A signed-in player finishes a solo Memory game, opens its replay from the result screen and
from the finished-games list, steps through it (buttons, keys, the slider), plays it, toggles
"Only what I saw", opens the review, verifies the game against the commitment shown before its
first move and downloads its replay file, and shares it: a phone (390x844) and a laptop
(1366x768), the page never wider than the screen (issue 39, points 2 and 4)."""
import json
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.verify import check
from tests.accounts.accounts_testlib import PASSWORD
from tests.browser.conftest import screenshot, seeded_site
from tests.browser.helpers import start_from_menu, wait_until
from tests.browser.memory_play import play_my_flips
from tests.browser.test_accounts_pages_look import sign_up

pytestmark = pytest.mark.browser

SCREENS = [(390, 844), (1366, 768)]


def drawn(page):
    """The page's module has drawn the first step (and listens to the keys)."""
    page.locator("#replay-table[data-step]").wait_for()


def step(page) -> int:
    return int(page.locator("#replay-table").get_attribute("data-step"))


def cards_up(page) -> int:
    return page.locator("#replay-table .replay-card.up").count()


def fits(page, width: int):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.fixture(scope="module")
def finished(chromium, site):
    """One signed-in player with one finished solo Memory game: the browser's saved state."""
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(15000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    commitments = set()  # every commitment the room page was shown, in its states

    def note_commitment(payload):
        message = json.loads(payload) if isinstance(payload, str) else {}
        fairness = (message.get("room") or {}).get("fairness")
        if message.get("type") == "state" and fairness:
            commitments.add(fairness["commitment"])
    page.on("websocket", lambda ws: ws.on("framereceived", note_commitment))
    name = sign_up(page, site)
    start_from_menu(page, site, "memory", "solo", {"cards": 24})
    play_my_flips(page)
    # The result screen's way to the replay (pressed again if the result was drawn anew, with
    # a state that came, just as it was pressed).
    for attempt in range(3):
        page.locator("#result-replay").click()
        try:
            page.wait_for_url(re.compile(r"/replays/\d+/$"), timeout=10000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    record_url = page.url
    state = context.storage_state()
    context.close()
    assert errors == [] and len(commitments) == 1
    return state, record_url, name, commitments.pop()


@pytest.mark.parametrize("width,height", SCREENS)
def test_a_player_replays_a_finished_game_from_the_list(site, pages, chromium, finished, width, height):
    state, record_url, _name, _commitment = finished
    context = chromium.new_context(viewport={"width": width, "height": height}, storage_state=state)
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    page = pages.open(context)
    page.goto(f"{site.url}/accounts/me/")
    page.locator("a.replay-link").first.click()
    page.wait_for_url(record_url)
    drawn(page)
    last = int(page.locator("#replay-slider").get_attribute("max"))
    assert last >= 24  # at least one flip for every card of 24
    assert step(page) == 0
    # Every card face up on the open table at the deal; none as the player saw it.
    assert cards_up(page) == 24
    fits(page, width)

    page.locator("#replay-forward").click()
    assert step(page) == 1
    assert "turns" in page.locator("#replay-caption").inner_text()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step(page) == 3
    page.locator("#replay-back").click()
    assert step(page) == 2
    page.keyboard.press("ArrowLeft")
    assert step(page) == 1

    page.locator("#replay-seen").check()
    assert page.locator("#replay-table").get_attribute("data-view") == "seen"
    assert cards_up(page) == 1  # the one card turned so far
    page.locator("#replay-seen").uncheck()
    assert cards_up(page) == 24

    # Jump: the slider by its own keys, End and Home anywhere else.
    page.locator("#replay-slider").focus()
    page.keyboard.press("ArrowRight")
    assert step(page) == 2
    page.locator("#replay-caption").click()
    page.keyboard.press("End")
    assert step(page) == last
    page.locator("#replay-seen").check()
    assert page.locator("#replay-table .replay-card.cell-taken").count() == 24
    page.locator("#replay-seen").uncheck()
    page.keyboard.press("Home")
    assert step(page) == 0

    # Play at the fastest speed, pause with space.
    page.locator("#replay-speed").select_option("400")
    page.locator("#replay-caption").click()
    page.keyboard.press(" ")
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "true"
    wait_until(page, "+document.getElementById('replay-table').dataset.step >= 2")
    page.keyboard.press(" ")
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "false"
    paused_at = step(page)
    page.wait_for_timeout(900)
    assert step(page) == paused_at
    fits(page, width)
    if width == 390:
        screenshot(page, "replay-phone")

    # The review, its noted steps a tap away.
    page.locator("#review-open").click()
    summary = page.locator(".review-summary")
    summary.wait_for()
    assert summary.inner_text().strip()
    noted = page.locator(".review-step")
    if noted.count():
        target = int(noted.first.get_attribute("data-step"))
        noted.first.click()
        assert step(page) == target
    fits(page, width)


def test_a_shared_replay_names_nobody_and_stops_when_revoked(site, pages, chromium, finished):
    state, record_url, name, _commitment = finished
    context = chromium.new_context(viewport={"width": 390, "height": 844}, storage_state=state)
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    owner = pages.open(context)
    owner.goto(record_url)
    drawn(owner)
    owner.locator("#share-create").click()
    link = owner.locator("#share-link").input_value()
    assert re.fullmatch(rf"{re.escape(site.url)}/r/[A-Za-z0-9_-]{{20,}}/", link)

    visitor = pages.new(390, 844)
    visitor.goto(link)
    drawn(visitor)
    assert visitor.locator("#replay-table .replay-seat").first.inner_text().startswith("Player 1")
    assert not visitor.locator("#share-create").count() and not visitor.locator("#review").count()
    visitor.locator("#replay-forward").click()
    assert step(visitor) == 1
    fits(visitor, 390)
    assert name in owner.content() and name not in visitor.content()

    owner.locator("#unshare").click()
    owner.locator("#share-create").wait_for()
    assert visitor.goto(link).status == 404


def test_the_owner_verifies_and_downloads_a_game_from_its_replay(site, pages, chromium, finished):
    """Verify holds the server's answer to the commitment the record kept, which is the one the
    room page was shown before the first move; a server answering for another deal is caught;
    the downloaded file checks with games.verify."""
    state, record_url, _name, commitment = finished
    context = chromium.new_context(viewport={"width": 390, "height": 844}, storage_state=state)
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    page = pages.open(context)
    page.goto(record_url)
    drawn(page)
    assert page.locator("#verify").get_attribute("data-commitment") == commitment
    page.locator("#verify-game").click()
    wait_until(page, "document.getElementById('verify-result').textContent.includes('erified')")
    assert page.locator("#verify-result").inner_text() == (
        f"Verified: the deal was fixed before the first move (commitment {commitment[:12]}…) and "
        "every card shown matches it.")  # solo: no CPU moves to name
    fits(page, 390)

    page.route("**/replays/*/verify.json", lambda route: route.fulfill(json={
        "verified": True, "problems": [], "cpu_moves": 0, "commitment": "0" * 64}))
    page.locator("#verify-game").click()
    wait_until(page, "document.getElementById('verify-result').textContent.startsWith('Not verified')")
    assert page.locator("#verify-result").inner_text() == (
        "Not verified: this is not the deal promised before the first move.")
    assert "verify-failed" in page.locator("#verify").get_attribute("class")
    page.unroute("**/replays/*/verify.json")

    with page.expect_download() as downloading:
        page.locator("#download-replay").click()
    download = downloading.value
    assert download.suggested_filename == "memory-replay.json"
    with open(download.path(), encoding="utf-8") as handle:
        file = json.load(handle)
    assert file["fairness"]["commitment"] == commitment
    assert check(file).problems == []


# Run by the site's own manage.py shell: a Gin game's first 60 steps and a whole Bozu game
# against the CPU, kept as a signed-in player's records are (the engines choose at random).
SEED = f"""
from datetime import datetime, timezone
from django.contrib.auth.models import User
from accounts.models import GameRecord
from games import fairness
from tests.accounts.replay_games import played

user = User.objects.create_user("replayer", password={PASSWORD!r})
for game, options, limit in (("gin", {{"players": 2, "target": 100}}, 60), ("bozu", {{"players": 3}}, None)):
    actions = played(game, options, 5, limit)
    now = datetime.now(timezone.utc)
    GameRecord.objects.create(user=user, game=game, mode="cpu", options=options, cpu_level="easy",
        seat=0, players=options["players"], result="loss", rank=2, score=0, moves=len(actions),
        duration_seconds=60.0, started_at=now, finished_at=now,
        replay={{"seed": 5, "salt": "0" * 32, "actions": actions, "cpus": [], "result": None}})
# The Bozu record keeps the commitment of a game dealt with another salt: a record changed
# since its game (the Gin record is one kept before records kept the commitment).
record = GameRecord.objects.get(game="bozu")
record.replay["commitment"] = fairness.commitment("bozu", record.options, 5, "1" * 32)
record.save()
"""


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    with seeded_site(tmp_path_factory, "replay-site", SEED) as server:
        yield server


@pytest.mark.parametrize("width,height", SCREENS)
def test_gin_and_bozu_replays_show_every_card_and_fit_the_screen(seeded, pages, width, height):
    page = pages.new(width, height)
    page.goto(f"{seeded.url}/accounts/login/")
    page.fill("#id_username", "replayer")
    page.fill("#id_password", PASSWORD)
    page.click("form.account-form button[type=submit]")
    # The password is hashed as in production (PBKDF2): seconds on a busy machine.
    page.wait_for_url(f"{seeded.url}/accounts/me/", timeout=60000)
    links = page.locator("a.replay-link")
    assert links.count() == 2
    for index in range(2):
        page.goto(f"{seeded.url}/accounts/me/")
        page.locator("a.replay-link").nth(index).click()
        drawn(page)
        game = page.locator("#replay").get_attribute("data-game")
        page.keyboard.press("End")
        fits(page, width)
        if game == "gin":
            # Both hands face up; as the player saw them, the CPU's hand face down but for
            # the cards it picked up in sight.
            page.keyboard.press("Home")
            hands = page.locator(".replay-hand")
            assert hands.nth(0).locator(".replay-card.up").count() == 10
            assert hands.nth(1).locator(".replay-card.up").count() == 10
            page.locator("#replay-seen").check()
            assert hands.nth(0).locator(".replay-card.up").count() == 10
            assert hands.nth(1).locator(".replay-card.up").count() == 0
            if width == 390:
                screenshot(page, "replay-gin-390")
            assert not page.locator("#verify-game").count()
        else:
            # The deck's next card is shown on the open table only.
            page.keyboard.press("Home")
            deck = page.locator(".replay-pile").last
            assert deck.locator(".karuta").count() == 1
            page.locator("#replay-seen").check()
            assert deck.locator(".karuta").count() == 0
            page.locator("#replay-seen").uncheck()
            page.keyboard.press("End")
            assert "flips" in page.locator("#replay-caption").inner_text()
            if width == 390:
                screenshot(page, "replay-bozu-390")
            page.locator("#verify-game").click()
            wait_until(page, "document.getElementById('verify-result').textContent.startsWith('Not verified')")
            assert "the reveal does not hash to the commitment" in page.locator("#verify-result").inner_text()
        fits(page, width)
