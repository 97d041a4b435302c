# The browser tests share the live site and Chromium of tests/browser (the same fixtures).
from tests.browser.conftest import chromium, pages, site  # noqa: F401
