"""How the reviews write cards and numbers in the page's language."""
from __future__ import annotations

from django.utils import formats
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.bozu_page import SEAT_NAMES
from games.engines.base import SEAT_COLOURS

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(card: str) -> str:
    """``7H`` as 7♥, ``TD`` as 10♦; the joker and the pictures by name."""
    if card == "JK":
        return _("joker")
    if len(card) == 2 and card[1] in SUITS:
        return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]
    return pgettext("memory review", "picture")


def number(value: float) -> str:
    """One decimal, with the language's decimal mark."""
    return str(formats.number_format(round(value, 1), 1))


def signed(value: float) -> str:
    rounded = round(value, 1)
    return ("+" if rounded > 0 else "−" if rounded < 0 else "±") + number(abs(rounded))


def seat_name(seat: int, me: int) -> str:
    """You, or the seat's colour as the tables name it."""
    if seat == me:
        return _("You")
    return str(SEAT_NAMES[SEAT_COLOURS[seat]])


def poet_name(card: dict) -> str:
    """A Bozu Mekuri card's poet, in Japanese script on a Japanese page (docs/i18n.md)."""
    return str(card["poet_ja"] if get_language() == "ja" else card["poet"])
