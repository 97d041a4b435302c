"""What makes the site an installable web app that a returning phone loads from its cache: the web
manifest (GET /manifest.webmanifest: name, colours, icons, so a browser offers "Add to Home
screen"), and the JavaScript catalog (/jsi18n/) under a versioned URL cached for a year.

Why a version in the catalog's URL: the catalog is a script every page loads before its modules.
Served at one plain URL it could only be cached briefly (a deploy may change the translations).
Its URL now carries a digest of what makes it (Django's version, the page's language and that
language's compiled djangojs catalog), so a new release or another language is another URL, and
the one a page names never changes: it is immutable for a year. A request whose version is not
the current one (an old page after a deploy) gets today's catalog, not to be cached.
"""
from __future__ import annotations

import hashlib
from functools import cache

import django
from django.conf import settings
from django.http import JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, gettext, to_locale
from django.views.i18n import JavaScriptCatalog

YEAR = 365 * 24 * 3600
# The colours of the site's felt (site/css/site.css: --bg, --bg-deep): the phone's status bar and
# the splash screen while the app starts.
THEME_COLOUR, BACKGROUND_COLOUR = "#0c3326", "#07241a"


@cache
def catalog_version(language: str) -> str:
    digest = hashlib.sha256(f"{django.__version__} {language}".encode())
    for folder in settings.LOCALE_PATHS:
        compiled = folder / to_locale(language) / "LC_MESSAGES" / "djangojs.mo"
        if compiled.is_file():
            digest.update(compiled.read_bytes())
    return digest.hexdigest()[:12]


def javascript_catalog_url() -> str:
    """The catalog's URL for the page's language: /jsi18n/?v=<version>."""
    return f"{reverse('javascript-catalog')}?v={catalog_version(get_language())}"


class VersionedJavaScriptCatalog(JavaScriptCatalog):
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if request.GET.get("v") == catalog_version(get_language()):
            patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
        else:
            patch_cache_control(response, no_cache=True)
        return response


def web_manifest(request):
    name = gettext("Card Table")
    manifest = {
        "name": name,
        "short_name": name,
        "description": gettext("Play Memory, Bozu Mekuri and Gin Rummy in your browser: against the computer, "
                               "with friends through one link, or alone. Free, no ads, no account needed."),
        "lang": get_language(),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json",
                            json_dumps_params={"ensure_ascii": False})
    patch_cache_control(response, public=True, max_age=24 * 3600)
    return response
