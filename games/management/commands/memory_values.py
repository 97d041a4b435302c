"""``manage.py memory_values``: start-of-game values of perfect-memory Memory under optimal play.

One line per deck size, ``n value`` (see ``memory_tables.start_values``): with two players the
first player's expected pairs minus the second's; with one player the expected number of turns;
with three or more, each seat's expected pairs, the first player first.
"""
from django.core.management.base import BaseCommand, CommandError

from games.cpu.memory_tables import start_values
from games.engines.memory import MATCH_RULES


class Command(BaseCommand):
    help = "Prints the optimal-play value of a Memory game of n pairs, one line per n."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--match", choices=MATCH_RULES, default="colour",
                            help="rank and zebra deal ranks of four: only even n are printed")
        parser.add_argument("--max-pairs", type=int, default=27)
        parser.add_argument("--jokers", action="store_true", help="add the joker pair (worth 2)")
        parser.add_argument("--one-flip", action="store_true", help="a match ends the turn")
        parser.add_argument("--exact", action="store_true", help="exact fractions (slow)")

    def handle(self, *args, players, match, max_pairs, jokers, one_flip, exact, **kwargs):
        try:
            rows = start_values(match, players, max_pairs, jokers, one_flip, exact)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        for n, value in rows:
            parts = value if isinstance(value, tuple) else (value,)
            self.stdout.write(f"{n} " + " ".join(_number(v) for v in parts))


def _number(value) -> str:
    return str(value) if not isinstance(value, float) else f"{value:.12g}"
