"""The rules pages in a real Chromium: the pictures are drawn with the table's own cards, a
360×740 phone never scrolls sideways, and a 1366×768 screen is used: the contents column
stands beside the text, which is wide."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SLUGS = ("memory", "bozu", "gin")
MEASURE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const toc = box(document.querySelector(".rules > .toc"));
  const body = box(document.querySelector(".rules-body"));
  return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth,
          toc: {left: toc.left, right: toc.right, width: toc.width},
          body: {left: body.left, right: body.right, width: body.width},
          placeholders: document.querySelectorAll(".rules-card, .rules-karuta").length,
          drawn: document.querySelectorAll(".rules-card > .pcard, .rules-karuta > .karuta").length,
          faceUp: document.querySelectorAll(".rules-card > .pcard.up").length,
          named: [...document.querySelectorAll(".rules-card")].every((c) => c.getAttribute("aria-label"))};
}"""


def measured(page, site, slug):
    page.goto(f"{site.url}/{slug}/rules/")
    page.wait_for_function("document.querySelectorAll('.rules-card > .pcard, .rules-karuta > .karuta').length"
                           " === document.querySelectorAll('.rules-card, .rules-karuta').length")
    return page.evaluate(MEASURE)


def test_the_pictures_are_drawn_and_a_phone_never_scrolls_sideways(site, pages):
    page = pages.new(width=360, height=740)
    for slug in SLUGS:
        got = measured(page, site, slug)
        assert got["placeholders"] >= 5 and got["drawn"] == got["placeholders"] and got["named"], (slug, got)
        assert got["scroll"] <= got["inner"], (slug, got)
    # Memory's grid is face down, its match and mismatch face up.
    assert measured(page, site, "memory")["faceUp"] == 4


def test_a_desktop_screen_puts_the_contents_beside_a_wide_text(site, pages):
    page = pages.new(width=1366, height=768)
    for slug in SLUGS:
        got = measured(page, site, slug)
        assert got["scroll"] <= got["inner"], (slug, got)
        assert got["toc"]["right"] <= got["body"]["left"], (slug, got)  # side by side
        # The contents and the text together span most of the screen, the text most of that.
        assert got["body"]["right"] - got["toc"]["left"] >= 0.75 * got["inner"], (slug, got)
        assert got["body"]["width"] >= 800, (slug, got)
