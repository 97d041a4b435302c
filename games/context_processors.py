"""What every page's header and footer know of the games: their names, titles and rules pages,
from the game specs (games/specs.py)."""
from . import specs


def games(request) -> dict:
    return {"site_games": [{"slug": spec.name, "name": spec.title, "rules_page": spec.rules_page}
                           for spec in specs.all_specs()]}
