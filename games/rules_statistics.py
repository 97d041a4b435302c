"""What the anonymous statistics send, and never send, for one game: the rules pages' list.

Derived from telemetry.schema so that a rules page can never drift from what the server
accepts: every event type that carries a ``game`` field (its fields, the ``settings`` field
narrowed to this game's options, the mode and CPU level narrowed to what this game offers), the
context fields every event carries, then schema.FORBIDDEN and schema.NOT_STORED for what is
never sent or stored. Only the people's wording lives here; a schema entry without wording
raises KeyError, so tests/pages/test_rules_pages.py fails until it is written.
"""
from django.utils.translation import gettext_lazy as _

from games import catalog
from telemetry import schema

EVENT_LABELS = {
    "game_start": _("a game started"),
    "game_end": _("a game finished"),
    "room_created": _("a room for friends created"),
    "room_step": _("a step in a friends' room (connecting, watching, joining, taking a seat)"),
    "room_session": _("how often the page reconnected to its room"),
    "view3d_failed": _("the 3D table could not be drawn"),
    "view3d_first_frame": _("how long the 3D table took to draw its first picture"),
    "view3d_left_early": _("the page was left before the 3D table's first picture"),
    "view3d_speed": _("how smoothly the 3D table moves"),
    "load_failure": _("a part of the page failed to load"),
}

# schema.FORBIDDEN maps many spellings to one English description; each description once.
NEVER_SENT_LABELS = {
    "the room id": _("the room id and the invite link"),
    "seat tokens": _("seat tokens"),
    "moves": _("the moves of the game"),
    "board positions": _("the cards: where they lie, what is in a hand"),
    "the GPU model": _("your graphics card model"),
    "the page URL": _("the page address (URL) and where you came from"),
    "the IP address": _("your IP address"),
    "the User-Agent (the server derives browser and OS family itself)":
        _("your browser's full User-Agent (the server keeps only the browser and system family)"),
}

NOT_STORED_LABELS = {
    "page": _("the page-open identifier: a random number made anew at every page open, checked "
              "by the server and thrown away, so that two events cannot be tied to one visit"),
}


def _narrowed(field, slug):
    """A field's possible values on this game's pages."""
    game = catalog.game(slug)
    assert game is not None, f"statistics are shown for known games only, not {slug!r}"
    if field.name == "game":
        return [slug]
    if field.name == "mode":
        return [mode for mode in field.values if mode in game["modes"]]
    if field.name == "cpu_level":  # in the game's own order, easiest first
        return [level["value"] for level in game["cpu_levels"] if level["value"] in field.values]
    return list(field.values)


def _values_text(field, slug) -> str:
    if field.kind == "int" and field.minimum == field.maximum:
        return str(field.minimum)
    if field.kind == "int":
        return _("a whole number from %(minimum)s to %(maximum)s") % {
            "minimum": field.minimum, "maximum": field.maximum}
    return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in _narrowed(field, slug))


def _row(field, slug) -> dict:
    return {"name": field.name, "values": _values_text(field, slug), "doc": field.doc}


def sent(slug: str) -> list[dict]:
    """The events that name this game, each with its fields and their possible values."""
    events = []
    for kind, (required, optional) in schema.EVENT_TYPES.items():
        fields = required + optional
        if schema.GAME.name not in {f.name for f in fields}:
            continue
        rows = []
        for field in fields:
            if field.kind == "settings":
                rows += [_row(option, slug) for option in schema.SETTINGS[slug].values()]
            else:
                rows.append(_row(field, slug))
        events.append({"type": kind, "label": EVENT_LABELS[kind], "fields": rows})
    return events


def context() -> list[dict]:
    """The fields every event carries (what the page knows of the device), those stored."""
    return [{"name": f.name, "values": ", ".join(f.values), "doc": f.doc}
            for f in schema.CONTEXT.values() if f.name not in schema.NOT_STORED]


def never_sent() -> list:
    return [NEVER_SENT_LABELS[text] for text in dict.fromkeys(schema.FORBIDDEN.values())]


def never_stored() -> list[dict]:
    return [{"name": name, "label": NOT_STORED_LABELS[name]} for name in sorted(schema.NOT_STORED)]


def statistics(slug: str) -> dict:
    return {"sent": sent(slug), "context": context(), "never_sent": never_sent(),
            "never_stored": never_stored()}
