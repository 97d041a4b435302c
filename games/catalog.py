"""The games the site offers, as the pages list them: names, menus (options with their defaults,
CPU levels, modes), all read from each game's GameSpec (games/specs.py). The menu posts exactly
these option keys to ``POST /api/rooms``; the engines validate them again, so a wrong entry
is a visible error, never a silent change of rules.
"""
from django.utils import formats
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import specs
from games.rooms import pace

MODE_LABELS = {
    "cpu": _("Play vs CPU"),
    "local": _("This device"),
    "solo": _("Solo"),
    "friends": _("With friends"),
}
MODE_HELP = {
    "cpu": _("You are Red; the CPU plays every other seat."),
    "local": _("Everybody takes turns on this screen."),
    "solo": _("One player: as few failed flips as you can."),
    "friends": _("Get a link to send; friends who open it take the free seats."),
}


def _choice(choice: specs.Choice) -> dict:
    return {"value": choice.value, "label": choice.label}


def _option(option: specs.Option) -> dict:
    menu = {"key": option.key, "label": option.label, "kind": option.kind,
            "default": option.default, "type": option.type, "help": option.help}
    if option.kind == "select":
        menu["choices"] = [_choice(c) for c in option.choices]
    if option.kind == "number":
        menu.update(min=option.minimum, max=option.maximum, step=option.step)
    return menu


PACE_LABELS = {
    "relaxed": pgettext_lazy("pace", "Relaxed"),
    "normal": pgettext_lazy("pace", "Normal"),
    "quick": pgettext_lazy("pace", "Quick"),
}


def _paces(spec: specs.GameSpec) -> list[dict]:
    """The paces a room with friends may have (games/rooms/pace.py), relaxed (the default)
    first, each with this game's seconds per turn as the server will count them."""
    if "friends" not in spec.modes:
        return []
    paces = []
    for name in pace.PACES:
        seconds = pace.turn_seconds(spec.name, name)
        if seconds is None:
            detail = gettext("no clock")
        else:
            whole = abs(seconds - round(seconds)) < 0.05  # a scaled pace may have a tenth
            shown = round(seconds) if whole else round(seconds, 1)
            detail = gettext("%(seconds)s s a turn") % {"seconds": formats.number_format(shown, use_l10n=True)}
        paces.append({"value": name, "label": PACE_LABELS[name], "detail": detail})
    return paces


def menu(spec: specs.GameSpec) -> dict:
    """One game as the templates show it."""
    return {
        "slug": spec.name, "name": spec.title, "tagline": spec.tagline,
        "description": spec.description, "rules_page": spec.rules_page,
        # In a room with others; solo is its own mode.
        "players": {"min": spec.players.minimum, "max": spec.players.maximum,
                    "default": spec.players.default},
        "options": [_option(o) for o in spec.options],
        "cpu_levels": [_choice(level) for level in spec.cpu_levels],
        "cpu_default": spec.cpu_default,
        "modes": list(spec.modes),
        "paces": _paces(spec),
    }


def games() -> list[dict]:
    return [menu(spec) for spec in specs.all_specs()]


def game(slug: str) -> dict | None:
    spec = specs.get(slug)
    return menu(spec) if spec else None
