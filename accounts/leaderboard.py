"""The public Memory leaderboard (/leaderboard/): the fewest failed flips and the fastest solo
games of signed-in players, the day's (since 00:00 UTC) and of all time, per setting (deck size,
match rule, jokers, one flip per turn), since results of different settings do not compare.

Built from the players' own game records, never from games.FinishedGame (the operators' copy
names nobody). Only a player whose stats page is public, the rule of /u/<username>/, is named;
everyone else is "a player", and the page carries nothing that could tell who: no name, id,
link or finishing time. A signed-in player's own places read "You", to them only.

Cost: building the board is two queries (the day's and all time), however many games and
players; the built board is cached, and each page view then reads only the names of the public
players on it (one query), so that a player who turns their page private leaves it at once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone as django_timezone

from .models import GameRecord, memory_setting_label
from .stats import BY_FLIPS, BY_TIME, solo_records

BOARD_LENGTH = 10
# The cache holds one board per UTC day, so the day's rankings start empty at midnight. A new
# solo game and a deleted account forget it at once (receivers.py); the expiry only bounds how
# long a change that sends neither (an operator editing records in the admin) takes to show.
CACHE_SECONDS = 10 * 60
MATCH_ORDER = ["rank", "colour", "zebra", "identical"]


@dataclass(frozen=True)
class Entry:
    user_id: int
    failed_flips: int
    duration_seconds: float


@dataclass(frozen=True)
class Place:
    """One line of a ranking as the page shows it: ``player`` is None for "a player"; ``you``
    when it is the viewer's own game."""

    number: int
    player: str | None
    failed_flips: int
    duration_seconds: float
    you: bool = False


@dataclass
class Rankings:
    fewest_flips: list
    fastest: list


@dataclass
class SettingBoard:
    options: dict
    today: Rankings
    all_time: Rankings

    @property
    def label(self) -> str:
        return memory_setting_label(self.options)

    @property
    def anchor(self) -> str:
        """"cards-24-zebra-jokers": the setting's section on the page."""
        options = self.options
        parts = [f"cards-{options.get('cards')}", options.get("match", "rank")]
        if options.get("deck") == "pictures":
            parts.append("pictures")
        parts += [flag.replace("_", "-") for flag in ("jokers", "one_flip", "long_table") if options.get(flag)]
        return "-".join(parts)


@dataclass
class Board:
    day: date
    settings: list[SettingBoard]


def _cache_key(day: date) -> str:
    return f"memory-leaderboard:{day.isoformat()}"


def today() -> date:
    """The board's day: the date in UTC."""
    return django_timezone.now().astimezone(UTC).date()


def forget() -> None:
    """Drops the cached board: the next view builds it again."""
    cache.delete(_cache_key(today()))


def current_board(viewer_id: int | None = None) -> Board:
    """Today's board with the names of public players filled in, and the places of the signed-in
    viewer (``viewer_id``) marked as theirs: one query once cached."""
    day = today()
    key = _cache_key(day)
    board = cache.get(key)
    if board is None:
        board = _build(day)
        cache.set(key, board, CACHE_SECONDS)
    return _named(board, viewer_id)


def _rankings(records) -> dict[str, Rankings]:
    """Every setting's first players in either order, each once with their best game, in one
    query: two windows over each player's games of a setting pick their best in either order,
    and two windows number those bests per setting. A player has at most two bests, so an
    order's first BOARD_LENGTH players are among its first 2 x BOARD_LENGTH rows: only those
    are fetched, and each player keeps their first place in each order."""
    solo = solo_records(records)
    own = solo.annotate(
        own_by_flips=Window(RowNumber(), partition_by=[F("options"), F("user_id")], order_by=BY_FLIPS),
        own_by_time=Window(RowNumber(), partition_by=[F("options"), F("user_id")], order_by=BY_TIME))
    bests = own.filter(Q(own_by_flips=1) | Q(own_by_time=1)).values("id")
    ranked = solo.filter(id__in=bests).annotate(
        by_flips=Window(RowNumber(), partition_by=[F("options")], order_by=BY_FLIPS),
        by_time=Window(RowNumber(), partition_by=[F("options")], order_by=BY_TIME))
    fetched = 2 * BOARD_LENGTH
    rows = (ranked.filter(Q(by_flips__lte=fetched) | Q(by_time__lte=fetched))
            .values_list("options", "user_id", "failed_flips", "duration_seconds",
                         "by_flips", "by_time"))
    placed: dict[str, dict[str, dict[int, Entry]]] = {}
    for options, user_id, failed_flips, duration, by_flips, by_time in rows:
        orders = placed.setdefault(json.dumps(options, sort_keys=True), {"flips": {}, "time": {}})
        entry = Entry(user_id, failed_flips, duration)
        if by_flips <= fetched:
            orders["flips"][by_flips] = entry
        if by_time <= fetched:
            orders["time"][by_time] = entry
    return {setting: Rankings(fewest_flips=_one_place_each(orders["flips"]),
                              fastest=_one_place_each(orders["time"]))
            for setting, orders in placed.items()}


def _one_place_each(numbered: dict[int, Entry]) -> list[Entry]:
    """The first BOARD_LENGTH players in the order numbered, each at their first place only."""
    seen: set[int] = set()
    firsts = []
    for number in sorted(numbered):
        entry = numbered[number]
        if entry.user_id not in seen:
            seen.add(entry.user_id)
            firsts.append(entry)
    return firsts[:BOARD_LENGTH]


def _setting_order(options: dict):
    match = options.get("match", "rank")
    return (options.get("cards", 0), MATCH_ORDER.index(match) if match in MATCH_ORDER else len(MATCH_ORDER),
            options.get("deck") == "pictures", bool(options.get("jokers")), bool(options.get("one_flip")),
            bool(options.get("long_table")))


def _build(day: date) -> Board:
    records = GameRecord.objects.all()
    midnight = datetime.combine(day, time.min, tzinfo=UTC)
    all_time = _rankings(records)
    today = _rankings(records.filter(finished_at__gte=midnight))
    settings = [SettingBoard(options=json.loads(setting),
                             today=today.get(setting, Rankings([], [])),
                             all_time=all_time[setting])
                for setting in all_time]
    settings.sort(key=lambda board: _setting_order(board.options))
    return Board(day=day, settings=settings)


def _public_names(user_ids: set[int]) -> dict[int, str]:
    """The usernames of those players whose stats page anyone may open."""
    return dict(get_user_model().objects
                .filter(pk__in=user_ids, is_active=True, profile__public_profile=True)
                .values_list("pk", "username"))


def _named(board: Board, viewer_id: int | None) -> Board:
    entries = [entry for setting in board.settings
               for rankings in (setting.today, setting.all_time)
               for entry in rankings.fewest_flips + rankings.fastest]
    names = _public_names({entry.user_id for entry in entries}) if entries else {}

    def places(ranking: list[Entry]) -> list[Place]:
        return [Place(number, names.get(entry.user_id), entry.failed_flips, entry.duration_seconds,
                      you=viewer_id is not None and entry.user_id == viewer_id)
                for number, entry in enumerate(ranking, start=1)]

    def named_rankings(rankings: Rankings) -> Rankings:
        return Rankings(fewest_flips=places(rankings.fewest_flips), fastest=places(rankings.fastest))

    return Board(day=board.day, settings=[
        SettingBoard(options=setting.options, today=named_rankings(setting.today),
                     all_time=named_rankings(setting.all_time))
        for setting in board.settings])
