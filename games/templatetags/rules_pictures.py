"""The rules pages' pictures (templates/games/rules/): placeholders that site/js/rules.js fills
with the games' own drawings, playing cards by site/js/games/cards.js and karuta by
site/js/games/bozu.js, so a rules page shows the cards exactly as the table does. The
placeholders are sized by site/css/rules.css, so the page does not move when they are drawn."""
import json

from django import template
from django.utils.html import format_html, format_html_join

from games.engines.bozu_cards import CARDS

register = template.Library()
FACE_DOWN = "--"


@register.simple_tag
def cards(codes: str, group: str = "") -> str:
    """A row of playing cards: ``{% cards "7S 7H 7D" "meld" %}``; ``--`` is a face-down card.
    ``group`` is a class of the row (``meld``, ``deadwood``, ``laid-off``)."""
    items = format_html_join("", '<span class="rules-card" data-card="{}"></span>',
                             (("" if code == FACE_DOWN else code,) for code in codes.split()))
    return format_html('<span class="rules-cards {}">{}</span>', group, items)


@register.simple_tag
def karuta(kind: str) -> str:
    """The first card of the deck of this kind (noble, emperor, lady, monk, semimaru)."""
    card = next(card for card in CARDS if card is not None and card.type == kind)
    data = json.dumps({"poem": card.poem, "type": card.type, "poet": card.poet, "poet_ja": card.poet_ja},
                      ensure_ascii=False)
    return format_html('<span class="rules-karuta" data-karuta="{}"></span>', data)
