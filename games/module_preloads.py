"""The ES modules a page's script will import, for `<link rel="modulepreload">`: the browser then
fetches them all at once, while it parses the page, instead of one import level after the other
(site/js has no build step that bundles them; on a phone's slow line each level costs a round
trip before the table can be drawn).

Only static imports are followed (`import … from "./x.js"`, `export … from`, `import "./x.js"`):
the room page imports its game's renderer dynamically, by the game's name, so the caller names
that one. The links name each module by its static URL: in production the hashed name, which
is also the name its importers use (server/static_storage.py rewrites their imports).
"""
from __future__ import annotations

import posixpath
import re
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.templatetags.static import static

STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"'();]*?["'](\.{1,2}/[^"']+\.js)["']""", re.M)


@cache
def _imports(path: str) -> tuple[str, ...]:
    """The static paths `path` (a static path such as js/room/page.js) imports directly."""
    found = finders.find(path)
    if found is None:
        raise FileNotFoundError(f"static module {path!r} is not among the static files")
    base = posixpath.dirname(path)
    return tuple(posixpath.normpath(posixpath.join(base, name))
                 for name in STATIC_IMPORT.findall(Path(found).read_text(encoding="utf-8")))


def module_preloads(script: str, *loaded_later: str) -> list[str]:
    """URLs of every module `script` imports, and of each of `loaded_later` (modules it imports
    dynamically) with their own imports, in the order met; `script` itself is left out (its
    own <script> tag loads it)."""
    order: list[str] = []

    def visit(path: str) -> None:
        for name in _imports(path):
            if name not in order and name != script:
                order.append(name)
                visit(name)

    visit(script)
    for path in loaded_later:
        if path not in order:
            order.append(path)
        visit(path)
    return [static(path) for path in order]
