"""The static files' storage in production: WhiteNoise's compressed manifest storage (a content
hash in every file's name, gzip and Brotli copies beside it), with the ES modules' imports
rewritten to those hashed names.

Why the rewrite: site/js has no build step, and its modules import each other by relative URL
(`import { x } from "./dom.js";`). Left as they are, the browser fetched every imported module
under its plain name, which WhiteNoise may serve only with a short cache lifetime (a new release
changes the file behind the same URL), so a returning player asked for them all again. Django's
manifest storage rewrites `import … from "…";`, `export … from "…";` and `import "…";` to the
hashed name (it needs the semicolon the repository's style ends them with), so every module is
fetched by a name whose content never changes, and WhiteNoise serves it as immutable for a year.
The one import it cannot see, the room page's renderer chosen at run time, is handed to the page
by its template (games/views.py, templates/games/room.html).
"""
from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedModulesStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    # A module's hashed name changes with its imports' names: each pass settles one more level
    # of the import tree (room/page.js -> room/client.js -> ... is five deep), Django's default
    # of 5 passes is not enough, and a cycle would fail however many were allowed.
    max_post_process_passes = 20
