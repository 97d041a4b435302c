"""In a real browser the room page's module preloads are exactly what its scripts then import:
each preloaded module is used (requested once, not fetched again under another name) and no
module the page imports was left out (games/module_preloads.py)."""
import re

import pytest

from tests.browser.helpers import start_from_menu

pytestmark = pytest.mark.browser

LOADED_BY_TAGS = re.compile(r"/static/js/(room/page|telemetry|header)(\.[0-9a-f]{12})?\.js$")


@pytest.mark.parametrize("game", ["memory", "gin"])
def test_it_preloads_every_module_the_room_imports_and_nothing_else(site, pages, game):
    page = pages.new(390, 844)
    start_from_menu(page, site, game, "cpu")
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    modules = [u.removeprefix(site.url) for u in requested if u.endswith(".js")]
    preloaded = page.eval_on_selector_all("link[rel=modulepreload]", "els => els.map(e => e.getAttribute('href'))")
    imported = [m for m in modules if not LOADED_BY_TAGS.search(m)]
    assert preloaded and sorted(imported) == sorted(preloaded)
