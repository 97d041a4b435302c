"""User-Agent → (browser family, OS family). The header itself is never stored or logged.

Order matters: Edge, Opera and Samsung Internet also say "Chrome", Chrome says "Safari", and
Chrome on iOS says "CriOS" (it is WebKit underneath, but people call it Chrome).
"""
from __future__ import annotations

_BROWSERS = (
    ("edge", ("edg/", "edga/", "edgios/", "edge/")),
    ("opera", ("opr/", "opera", "opt/")),
    ("samsung", ("samsungbrowser/",)),
    ("firefox", ("firefox/", "fxios/")),
    ("chrome", ("chrome/", "crios/", "chromium/")),
    ("safari", ("safari/",)),
)
_OSES = (
    ("ios", ("iphone", "ipad", "ipod")),
    ("android", ("android",)),
    ("chromeos", ("cros ",)),
    ("windows", ("windows",)),
    ("macos", ("macintosh", "mac os x")),
    ("linux", ("linux", "x11")),
)


def _family(ua: str, table) -> str:
    for family, needles in table:
        if any(needle in ua for needle in needles):
            return family
    return "other"


def reduce_user_agent(user_agent: str | None) -> tuple[str, str]:
    ua = (user_agent or "")[:512].lower()
    return _family(ua, _BROWSERS), _family(ua, _OSES)
