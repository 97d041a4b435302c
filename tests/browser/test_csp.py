"""The strict Content-Security-Policy (server/headers.py) in a real Chromium: a game of each kind
against the CPU to its end, the pages around them, an account with its results chart, a
friends' room's copy button and the admin, with every console message, script error and
`securitypolicyviolation` event collected: there must be none. The listener is Playwright's
injection (add_init_script), which the policy does not govern; the first test shows that the
browser does enforce the policy and that the listener hears it."""
from __future__ import annotations

import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BROWSER_TIMING
from tests.browser.gin_play import GinPlayer, last_view
from tests.browser.helpers import (
    clipboard_text,
    flip_bozu_until_finished,
    for_up_to,
    record_frames,
    start_from_menu,
    status,
    wait_until,
)
from tests.browser.memory_play import play_my_flips
from tests.live import PROJECT, embedded_env, running_site

pytestmark = pytest.mark.browser

CHROMIUM_ADVICE = ("[DOM] ", "Autofocus processing was blocked")
ADMIN_PASSWORD = "admin-password-for-the-csp-test"
PLAYER_PASSWORD = "correct horse battery"

# Also kept in the page (window.cspViolations), for a test to wait on.
REPORT_VIOLATIONS = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const text = `${event.effectiveDirective} refused ${event.blockedURI || "inline"} `
    + `in ${event.sourceFile || document.URL}:${event.lineNumber} ${event.sample}`;
  window.cspViolations.push(text);
  window.reportViolation(text);
}, true);"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The browser tests' site, with an operator account for the admin."""
    tmp_path = tmp_path_factory.mktemp("csp-site")
    env = embedded_env(tmp_path, **BROWSER_TIMING)
    with running_site(tmp_path, env) as server:
        subprocess.run([sys.executable, "manage.py", "createsuperuser", "--noinput",
                        "--username", "operator", "--email", "operator@example.com"],
                       cwd=PROJECT, env={**env, "DJANGO_SUPERUSER_PASSWORD": ADMIN_PASSWORD},
                       check=True, timeout=120)
        yield server


class Watched:
    """A browser context that keeps every console message, script error and policy violation,
    and the policy each page arrived with."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1280, "height": 860})
        self.context.set_default_timeout(15000)
        self.complaints: list[str] = []
        self.policies: dict[str, str | None] = {}
        self.context.expose_function("reportViolation", lambda text: self.complaints.append(f"violation: {text}"))
        self.context.add_init_script(REPORT_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.on("console", self._hear)
        self.page.on("pageerror", lambda error: self.complaints.append(f"error on {self.page.url}: {error}"))
        self.page.on("response", self._remember_policy)

    def _hear(self, message):
        # Chromium's own advice about forms, not something the page said or the policy refused:
        # "[DOM] Password forms should have (optionally hidden) username fields" (verbose) and
        # "Autofocus processing was blocked because a document already has a focused element"
        # (info, in the admin's add forms when the page got focus first).
        if message.type in ("verbose", "info") and message.text.startswith(CHROMIUM_ADVICE):
            return
        self.complaints.append(f"console {message.type}: {message.text} ({message.location.get('url')})")

    def _remember_policy(self, response):
        if response.request.resource_type == "document":
            self.policies[response.url] = response.headers.get("content-security-policy")

    def visit(self, url: str):
        response = self.page.goto(url)
        assert response.ok, url

    def assert_clean(self):
        """Nothing was said or refused, and every page came with the strict policy."""
        assert self.complaints == [], "\n".join(self.complaints)
        assert self.policies
        for url, policy in self.policies.items():
            assert policy and "script-src 'self';" in policy and "style-src 'self';" in policy, url

    def close(self):
        self.context.close()


@pytest.fixture
def watched(chromium):
    opened = Watched(chromium)
    yield opened
    opened.close()


def test_the_browser_enforces_the_policy_and_reports_what_it_refuses(site, watched):
    page = watched.page
    watched.visit(site.url + "/")
    ran = page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.inlineRan = true";
        document.body.append(script);
        const styled = document.createElement("p");
        styled.setAttribute("style", "color: red");
        document.body.append(styled);
        return window.inlineRan === true;
    }""")
    assert ran is False
    wait_until(page, "window.cspViolations.length >= 2")  # the events come as tasks
    directives = sorted(text.split()[0] for text in page.evaluate("window.cspViolations"))
    assert directives == ["script-src-elem", "style-src-attr"]
    # The same reports reach this test through the binding, and Chromium says each refusal in
    # the console too: the other tests count on both.
    for _ in for_up_to(10):
        reports = [c for c in watched.complaints if c.startswith("violation: ")]
        said = [c for c in watched.complaints
                if c.startswith("console error: ") and "violates the following Content Security Policy" in c]
        if len(reports) >= 2 and len(said) >= 2:
            break
        page.wait_for_timeout(20)
    assert sorted(c.split()[1] for c in reports) == ["script-src-elem", "style-src-attr"]
    assert len(said) == 2, watched.complaints
    assert len(watched.complaints) == 4


def test_it_plays_memory_signed_in_and_shows_the_account_pages_without_a_violation(site, watched):
    page = watched.page
    # (Not the 404 page: with DEBUG on, as here, Django answers with its own debug page, whose
    # inline styles the policy refuses too; tests/pages/test_security_headers.py checks ours.)
    for url in ("/", "/memory/", "/bozu/", "/gin/", "/memory/rules/", "/bozu/rules/", "/gin/rules/",
                "/privacy/", "/accounts/login/"):
        watched.visit(site.url + url)

    watched.visit(site.url + "/accounts/signup/")
    page.fill("#id_username", "cspplayer")
    page.fill("#id_password1", PLAYER_PASSWORD)
    page.fill("#id_password2", PLAYER_PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator(".account-nav .account-link")).to_have_text("cspplayer")

    start_from_menu(page, site, "memory", "cpu", {"players": 2, "cards": 24}, level="easy")
    for view in ("overhead", "panel", "perspective"):  # the table's transforms, set by script
        page.click(f"[data-view={view}]")
        expect(page.locator(f"[data-view={view}]")).to_have_attribute("aria-pressed", "true")
    play_my_flips(page)
    assert status(page) == "finished"
    page.locator("#result").wait_for(state="visible")

    watched.visit(site.url + "/accounts/me/")
    expect(page.locator(".results-chart svg")).to_be_visible()
    page.check("input[name=public_profile]")
    page.locator("#privacy button[type=submit]").click()
    page.get_by_role("link", name="/u/cspplayer/").click()
    expect(page.locator(".results-chart svg")).to_be_visible()
    for url in ("/accounts/password/change/", "/accounts/me/delete/"):
        watched.visit(site.url + url)
    page.locator(".lang-switch button[lang=ja]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    page.locator(".lang-switch button[lang=en]").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    watched.assert_clean()


def test_it_plays_bozu_against_the_cpu_without_a_violation(site, watched):
    page = watched.page
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    page.mouse.move(400, 400)
    page.mouse.wheel(0, -300)  # zoom: the stage's transform, set by script
    assert flip_bozu_until_finished(page) >= 10
    page.locator("#result").wait_for(state="visible")
    watched.assert_clean()


def test_it_plays_a_gin_game_against_the_cpu_without_a_violation(site, watched):
    page = watched.page
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", {"target": 10}, level="easy")
    player = GinPlayer(page, frames, use_table=True)
    for _ in for_up_to(300):
        if status(page) == "finished":
            break
        if not player.act():
            page.wait_for_timeout(20)
    assert status(page) == "finished"
    assert max(last_view(frames)["scores"]) >= 10
    page.locator("#result").wait_for(state="visible")
    watched.assert_clean()


def test_it_copies_a_friends_room_invite_without_a_violation(site, watched):
    page = watched.page
    watched.context.grant_permissions(["clipboard-read", "clipboard-write"])
    room_id = start_from_menu(page, site, "memory", "friends", {"players": 2}, wait_for="waiting")
    page.click("#copy-invite")
    expect(page.locator("#copy-invite")).to_have_text("Copied")
    assert clipboard_text(page, site.url) == f"{site.url}/r/{room_id}"
    watched.assert_clean()


def test_the_admin_works_under_the_policy(site, watched):
    page = watched.page
    watched.visit(site.url + "/admin/")
    page.fill("#id_username", "operator")
    page.fill("#id_password", ADMIN_PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#site-name")).to_be_visible()
    page.locator("#content-main a[href='/admin/games/room/']").first.click()
    expect(page.locator("#changelist")).to_be_visible()
    page.locator("#nav-filter").fill("user")  # the sidebar's filter box: admin script
    expect(page.locator("#nav-sidebar a[href='/admin/games/room/']")).to_be_hidden()
    page.locator("#changelist-filter a", has_text="Memory").first.click()
    expect(page).to_have_url(f"{site.url}/admin/games/room/?game__exact=memory")
    watched.visit(site.url + "/admin/auth/user/add/")
    watched.visit(site.url + "/admin/telemetry/event/")
    page.locator("#telemetry-filters select[name=days]").select_option("7")
    page.locator("#telemetry-filters button[type=submit]").click()
    expect(page).to_have_url(f"{site.url}/admin/telemetry/event/?days=7&game=")
    watched.assert_clean()
