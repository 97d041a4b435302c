"""The rules pages in a real browser: each page in each language opens with its sections, with
nothing fetched from outside the site; its statistics switch is the one of /privacy/ (the same
stored choice); every internal link answers, every #link has its target."""
from urllib.parse import urlsplit

import pytest

SLUGS = ["memory", "bozu", "gin"]
LANGUAGES = ["en", "es", "de", "ja"]
SECTIONS = ["how-to-play", "options", "controls", "tips", "faq", "statistics", "sources"]


def open_offline(pages, site, path, language):
    """The page in a browser that can reach nothing but the site."""
    context = pages.chromium.new_context(extra_http_headers={"Accept-Language": language})
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    outside = []

    def only_the_site(route):
        if route.request.url.startswith(site.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    page = pages.open(context)
    page.goto(site.url + path)
    return page, outside


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_it_opens_each_rules_page_with_working_internal_links(pages, site, slug, language):
    page, outside = open_offline(pages, site, f"/{slug}/rules/", language)
    assert page.locator("html").get_attribute("lang") == language
    for section in SECTIONS:
        assert page.locator(f"section#{section} h2").is_visible()
    first = page.locator("#faq details").first
    assert first.get_attribute("open") is None
    first.locator("summary").click()
    assert first.get_attribute("open") is not None and first.locator("p").is_visible()
    assert page.locator("#statistics input[type=checkbox][data-telemetry-switch]").is_visible()
    hrefs = page.locator("a[href]").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    internal = {href for href in hrefs if not urlsplit(href).scheme}
    assert {"/privacy/", f"/{slug}/", "#statistics", "#sources"} <= internal
    for href in sorted(internal):
        if href.startswith("#"):
            assert page.locator(href).count() == 1, href
        else:
            assert page.request.get(site.url + href).status == 200, href
    assert page.locator("#sources ul a[href^='https://']").count() >= 1
    assert outside == []  # nothing on the page needs the internet


def switch_state(page):
    return "true" if page.locator("#telemetry-switch").is_checked() else "false"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_rules_pages_switch_is_the_privacy_pages_switch(pages, site, slug):
    page, _ = open_offline(pages, site, f"/{slug}/rules/", "en")
    assert switch_state(page) == "true"
    page.locator("#statistics #telemetry-switch").click()
    assert switch_state(page) == "false"
    assert page.evaluate("localStorage.getItem('telemetry')") == "off"
    assert page.evaluate("window.cardtableTelemetry.record({type: 'page_view'})") is False
    page.goto(site.url + "/privacy/")
    assert switch_state(page) == "false"
    page.locator("#telemetry-switch").click()
    page.goto(f"{site.url}/{slug}/rules/")
    assert switch_state(page) == "true"
    assert page.evaluate("localStorage.getItem('telemetry')") == "on"
