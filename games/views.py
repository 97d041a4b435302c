"""Page views: home, each game's menu and rules, the room page, the icon. The rooms API is in
games/api.py."""
import re
from typing import Any

from django.http import Http404
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from . import bozu_page, catalog, specs
from .catalog import MODE_HELP, MODE_LABELS
from .models import Room
from .module_preloads import module_preloads

# Room ids are secrets.token_urlsafe strings; anything else cannot be a room.
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _game(slug: str) -> dict:
    game = catalog.game(slug)
    if game is None:
        raise Http404(_("No such game."))
    return game


def _menus(games):
    return [{**game,
             "players_range": range(game["players"]["min"], game["players"]["max"] + 1),
             "mode_buttons": [{"mode": m, "label": MODE_LABELS[m], "help": MODE_HELP[m]}
                              for m in game["modes"]]}
            for game in games]


@ensure_csrf_cookie  # the menu script posts to /api/rooms with this cookie's token
def home(request):
    return render(request, "home.html", {"games": _menus(catalog.games()),
                                         "client_games": specs.client_data()})


@ensure_csrf_cookie
def game_menu(request, slug):
    game = _menus([_game(slug)])[0]
    return render(request, "games/menu_page.html",
                  {"game": game, "client_games": specs.client_data()})


def rules(request, slug):
    game = _game(slug)
    if not game["rules_page"]:
        raise Http404(_("No such game."))
    context: dict[str, Any] = {"game": game}
    if slug == "bozu":
        context.update(poet_groups=bozu_page.poet_groups(), simulation=bozu_page.simulation(),
                       options_tip=bozu_page.options_tip())
    return render(request, f"games/rules/{slug}.html", context)


@ensure_csrf_cookie
def room(request, room_id):
    if not ROOM_ID.match(room_id):
        raise Http404(_("No such room."))
    # The game and mode let the page report a failed connection (telemetry) before any state.
    known = Room.objects.filter(id=room_id).values("game", "mode").first() or {}
    game_module = [f"js/games/{known['game']}.js"] if known else []
    return render(request, "games/room.html", {
        "room_id": room_id, **known, "client_games": specs.client_data(),
        "module_preloads": module_preloads("js/room/page.js", *game_module),
        # Its game's renderer by its static URL (hashed in production), which the page's script
        # imports by a name it computes, where server/static_storage.py cannot rewrite it.
        "renderer_url": static(game_module[0]) if known else ""})


def favicon(request):
    # Browsers ask for /favicon.ico on pages that name no icon (the admin, a JSON answer); a 404
    # there would be an error in every such page's console. Not permanent: the static file's
    # name changes with its content in production.
    return redirect(static("img/icon.svg"))
