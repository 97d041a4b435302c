"""Every place that names the games reads them from the GameSpecs (games/specs.py): the engines
and CPUs they point to, the model choices, the menus, the URLs and nav, the statistics schema,
simulate, the bot and the page scripts. Each check here fails if a place keeps a list of its own."""
from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from accounts.models import GameRecord
from games import bot, catalog, specs
from games.management.commands.simulate import Command as Simulate
from games.models import Room
from telemetry import schema

SPECS = specs.all_specs()
SITE_JS = Path(__file__).resolve().parents[2] / "site" / "js"


def defaults(spec: specs.GameSpec) -> dict:
    return {o.key: o.default for o in spec.options} | {"players": spec.players.default}


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_it_agrees_with_the_engine_and_the_cpu(spec):
    engine, cpu = spec.engine_module(), spec.cpu_module()
    assert engine.GAME == spec.name
    # The menu's defaults are the engine's, and every value the menu offers is accepted (an
    # engine may leave an option at its default out of its canonical options).
    assert engine.parse_options(defaults(spec)) == engine.parse_options(None)
    canonical_keys = set(engine.parse_options(None).to_json())
    for option in spec.options:
        offered = [c.value for c in option.choices] or [option.minimum, option.maximum]
        if option.kind == "checkbox":
            offered = [True, False]
        for value in offered:
            canonical = engine.parse_options({option.key: value}).to_json()
            assert canonical.get(option.key, option.default) == value
            canonical_keys |= set(canonical)
    # The statistics know the players and exactly the options the engine names.
    assert set(schema.SETTINGS[spec.name]) == canonical_keys == {"players"} | {o.key for o in spec.options}
    for level in spec.level_names:
        assert cpu.make_cpu(level, 0, 1, engine.parse_options(None)).to_json()


def test_it_gives_the_models_the_specs_games():
    names = [name for name, _label in specs.choices()]
    assert names == [s.name for s in SPECS]
    assert [value for value, _label in Room._meta.get_field("game").choices] == names
    assert [value for value, _label in GameRecord._meta.get_field("game").choices] == names


def test_it_lists_the_specs_games_everywhere_on_the_server():
    names = tuple(s.name for s in SPECS)
    assert tuple(game["slug"] for game in catalog.games()) == names
    assert tuple(schema.GAMES) == names and tuple(schema.SETTINGS) == names
    assert set(schema.CPU_LEVELS) == {level for s in SPECS for level in s.level_names}
    assert tuple(schema.MODES) == specs.MODES
    simulate = Simulate().create_parser("manage.py", "simulate")
    assert tuple(next(a for a in simulate._actions if a.dest == "game").choices) == names
    bot_games = next(a for a in bot.argument_parser()._actions if a.dest == "game").choices
    assert tuple(bot_games) == names
    for spec in SPECS:
        assert bot.default_level(spec.name) == spec.cpu_default
        assert reverse("game-menu", args=[spec.name]) == f"/{spec.name}/"


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_it_accepts_statistics_of_every_game_with_its_default_options(spec):
    event = {"type": "game_start", "page": str(uuid.uuid4()), "game": spec.name, "mode": spec.modes[0],
             "settings": spec.engine_module().parse_options(None).to_json(),
             "cpu_level": spec.cpu_default}
    assert schema.validate_event(event)["game"] == spec.name


def test_it_hands_the_pages_the_specs(client):
    home = client.get("/").content.decode()
    for spec in SPECS:
        assert f'href="/{spec.name}/"' in home  # the nav
        assert (f'href="/{spec.name}/rules/"' in home) == spec.rules_page  # the footer
    assert client.get("/api/games").json() == specs.client_data()
    menu = client.get("/memory/").content.decode()
    embedded = re.search(r'<script id="game-specs" type="application/json">(.*?)</script>', menu, re.DOTALL)
    assert embedded and '"memory"' in embedded.group(1)
    # Memory's two decks and pictures rule out the match condition, and pictures the 104-card
    # deck: the menu script learns it from here.
    memory = {o["key"]: o for o in specs.client_data()["memory"]["options"]}
    assert memory["match"]["off_when"] == [["cards", 104], ["deck", "pictures"]]
    assert [c["off_when"] for c in memory["cards"]["choices"] if c["value"] == 104] == [[["deck", "pictures"]]]


def test_the_page_scripts_name_no_game():
    # The menu and room scripts read the games from the specs' JSON; each game draws its table
    # with site/js/games/<name>.js, which the room page imports by the game's name.
    for script in ("menu.js", "room/page.js", "room/stats.js"):
        source = (SITE_JS / script).read_text(encoding="utf-8")
        for spec in SPECS:
            assert not re.search(rf"""["'`]{spec.name}["'`]|\b{spec.name}:""", source), (script, spec.name)
        assert "104" not in source
    for spec in SPECS:
        assert (SITE_JS / "games" / f"{spec.name}.js").is_file()
