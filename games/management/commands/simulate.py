"""``manage.py simulate <game> ...``: CPU-only games; the last line printed is one JSON object."""
import importlib
import importlib.util
import json

from django.core.management.base import BaseCommand, CommandError

from games import specs
from games.engines.base import GameError
from games.sim import common


def parse_option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise CommandError(f"--option takes key=value, got {text!r}")
    key, raw = text.split("=", 1)
    try:
        value = json.loads(raw)  # numbers, true/false
    except json.JSONDecodeError:
        value = raw
    return key, value


class Command(BaseCommand):
    help = "Plays CPU-only games and prints a JSON summary as the last line."

    def add_arguments(self, parser):
        parser.add_argument("game", choices=specs.names())
        parser.add_argument("--players", type=int, default=None)
        parser.add_argument("--cpu", default=None, help="comma-separated CPU levels, one per seat")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        parser.add_argument("--fast", action="store_true", help="use the game's fast path if it has one")

    def handle(self, *args, game, players, cpu, games, seed, option, fast, **kwargs):
        options = dict(parse_option(o) for o in option)
        levels = [level.strip() for level in cpu.split(",")] if cpu else None
        arguments = {"players": players, "levels": levels, "games": games, "seed": seed,
                     "options": options}
        try:
            if importlib.util.find_spec(f"games.sim.{game}"):
                simulator = importlib.import_module(f"games.sim.{game}")
                summary = simulator.run(**arguments, fast=fast)
            else:  # a game with no simulator of its own: its GameSpec's engine and CPU
                summary = common.run(specs.get(game), **arguments)
        except GameError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(json.dumps(summary))
