"""A player's statistics, aggregated in the database: a fixed number of queries however many
games the player has finished (bench/stats_bench.py measures it with 10,000 records)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date

from django.core.paginator import Page, Paginator
from django.db.models import Avg, Count, F, Min, Q
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber, TruncDate

from games import specs

from .models import GameRecord

PAGE_SIZE = 20
GROUP_FORM_LENGTH = 5      # results shown per game / mode / CPU level row
RECENT_FORM_LENGTH = 10    # results shown overall
CHART_DAYS = 30            # the chart shows the most recent days with a game

WIN, DRAW, LOSS = "win", "draw", "loss"
# A game whose turns the CPU mostly played for the player (docs/protocol.md, "Pace"): listed with
# the player's games, but neither won nor lost, so it counts in no tally, form or chart.
UNFINISHED = "unfinished"
MODE_LABELS = dict(GameRecord.MODES)

_counts = {
    "games": Count("id", filter=~Q(result=UNFINISHED)),
    "wins": Count("id", filter=Q(result=WIN)),
    "draws": Count("id", filter=Q(result=DRAW)),
    "losses": Count("id", filter=Q(result=LOSS)),
}


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses


@dataclass
class Group(Tally):
    """Games of one game, mode and CPU level."""

    game: str = ""
    mode: str = ""
    cpu_level: str = ""
    best_failed_flips: int | None = None
    average_failed_flips: float | None = None
    form: list[str] = field(default_factory=list)  # newest first

    @property
    def solo(self) -> bool:
        # Solo games are scored by failed flips, not won or lost.
        return self.mode == "solo"

    @property
    def game_label(self):
        return dict(specs.choices()).get(self.game, self.game)

    @property
    def mode_label(self):
        return MODE_LABELS.get(self.mode, self.mode)

    @property
    def cpu_level_label(self):
        return specs.level_labels().get(self.cpu_level, self.cpu_level)


@dataclass
class GameTotals(Tally):
    game: str = ""
    groups: list[Group] = field(default_factory=list)

    @property
    def game_label(self):
        return dict(specs.choices()).get(self.game, self.game)


@dataclass
class DayResults:
    day: date
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass
class PlayerStats:
    overall: Tally                 # every game but solo ones
    games: list[GameTotals]        # per game, each with its groups
    recent_form: list[GameRecord]  # newest first, solo excluded
    solo_bests: list[SoloBest]     # per solo Memory setting, the best first
    days: list[DayResults]         # oldest first, for the chart
    page: Page                     # finished games, newest first

    @property
    def empty(self) -> bool:
        return not self.page.paginator.count


@dataclass
class SoloBest:
    """A player's personal bests at one solo Memory setting (deck size, match rule, jokers, one
    flip per turn): results of different settings do not compare."""

    fewest_flips: GameRecord  # the fewest failed flips, the fastest of those
    fastest: GameRecord       # the fastest time, the fewest failed flips of those

    @property
    def setting_label(self) -> str:
        return self.fewest_flips.memory_setting_label


# The order of the solo Memory rankings, here and on the public board (leaderboard.py): ties
# go to the other measure, then to whoever got there first.
BY_FLIPS = [F("failed_flips").asc(), F("duration_seconds").asc(), F("finished_at").asc(), F("id").asc()]
BY_TIME = [F("duration_seconds").asc(), F("failed_flips").asc(), F("finished_at").asc(), F("id").asc()]


def solo_records(records):
    """The scored solo Memory games among ``records``."""
    return records.filter(game="memory", mode="solo", failed_flips__isnull=False)


def solo_bests(records) -> list[SoloBest]:
    """Both bests of every setting in one query: two windows number each setting's games, and
    only the first of either order is fetched (one row when the same game holds both)."""
    ranked = solo_records(records).annotate(
        by_flips=Window(RowNumber(), partition_by=[F("options")], order_by=BY_FLIPS),
        by_time=Window(RowNumber(), partition_by=[F("options")], order_by=BY_TIME))
    fewest, fastest = {}, {}
    for record in ranked.filter(Q(by_flips=1) | Q(by_time=1)):
        setting = json.dumps(record.options, sort_keys=True)
        if record.by_flips == 1:
            fewest[setting] = record
        if record.by_time == 1:
            fastest[setting] = record
    bests = [SoloBest(fewest[setting], fastest[setting]) for setting in fewest]
    return sorted(bests, key=lambda best: (best.fewest_flips.failed_flips,
                                           best.fewest_flips.duration_seconds))


def player_stats(user, page_number=1) -> PlayerStats:
    records = GameRecord.objects.filter(user=user)
    competitive = records.exclude(mode="solo").exclude(result=UNFINISHED)

    groups: dict[tuple, Group] = {}
    for row in (records.values("game", "mode", "cpu_level")
                .annotate(**_counts, best=Min("failed_flips"), average=Avg("failed_flips"))
                .order_by("game", "mode", "cpu_level")):
        key = (row["game"], row["mode"], row["cpu_level"])
        groups[key] = Group(game=row["game"], mode=row["mode"], cpu_level=row["cpu_level"],
                            games=row["games"], wins=row["wins"], draws=row["draws"],
                            losses=row["losses"], best_failed_flips=row["best"],
                            average_failed_flips=row["average"])

    # The last few results of every group in one query: a window numbers each group's games
    # newest first, and only the first few rows are fetched.
    ranked = records.exclude(result=UNFINISHED).annotate(n=Window(
        RowNumber(), partition_by=[F("game"), F("mode"), F("cpu_level")],
        order_by=[F("finished_at").desc(), F("id").desc()]))
    for game, mode, cpu_level, result in (ranked.filter(n__lte=GROUP_FORM_LENGTH)
                                          .order_by("game", "mode", "cpu_level", "n")
                                          .values_list("game", "mode", "cpu_level", "result")):
        groups[(game, mode, cpu_level)].form.append(result)

    overall = Tally()
    per_game: dict[str, GameTotals] = {}
    for group in groups.values():
        totals = per_game.setdefault(group.game, GameTotals(game=group.game))
        totals.groups.append(group)
        if not group.solo:
            totals.add(group)
            overall.add(group)

    days = [DayResults(**row) for row in
            competitive.annotate(day=TruncDate("finished_at")).values("day")
            .annotate(wins=_counts["wins"], draws=_counts["draws"], losses=_counts["losses"])
            .order_by("-day")[:CHART_DAYS]]
    days.reverse()

    return PlayerStats(
        overall=overall,
        games=[per_game[slug] for slug in specs.names() if slug in per_game],
        recent_form=list(competitive.only("result", "game", "mode", "finished_at")[:RECENT_FORM_LENGTH]),
        solo_bests=solo_bests(records),
        days=days,
        page=Paginator(records.order_by("-finished_at", "-id"), PAGE_SIZE).get_page(page_number),
    )
