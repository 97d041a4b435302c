"""The games the site offers, as the pages list them."""
from django.utils.translation import gettext_lazy as _

GAMES = [
    {
        "slug": "memory",
        "name": _("Memory"),
        "tagline": _("Concentration: turn two cards, find the pairs, remember every flip."),
    },
    {
        "slug": "bozu",
        "name": _("Bozu Mekuri"),
        "tagline": _("The monk-flip game with Hyakunin Isshu cards: nobles, ladies and monks."),
    },
    {
        "slug": "gin",
        "name": _("Gin Rummy"),
        "tagline": _("Meld runs and sets, knock with ten or less, race to 100."),
    },
]
