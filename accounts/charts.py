"""Geometry of the results chart; templates/accounts/_chart.html draws it as inline SVG."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .stats import DayResults

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 8, 12, 28   # room for the axis labels
GAP = 0.2                                  # fraction of a slot left between bars
# The axis covers at least two weeks, every day a slot (days without games stay empty), so a
# single day of games is one slim bar with a range of dates, not one wall under one date twice.
MIN_DAYS = 14


@dataclass
class Segment:
    kind: str   # win / draw / loss: the CSS class gives the colour
    y: float
    height: float


@dataclass
class Bar:
    x: float
    width: float
    segments: list[Segment]
    title: str


def results_chart(days: list[DayResults]) -> dict | None:
    """Stacked bars, one per day with games, each in its day's place on a calendar axis: wins
    at the bottom, then draws, then losses."""
    if not days:
        return None
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    most = max(day.games for day in days)
    first = min(days[0].day, days[-1].day - timedelta(days=MIN_DAYS - 1))
    slot = plot_w / ((days[-1].day - first).days + 1)
    bars = []
    for day in days:
        i = (day.day - first).days
        base: float = TOP + plot_h
        segments = []
        for kind, count in (("win", day.wins), ("draw", day.draws), ("loss", day.losses)):
            if count:
                h = plot_h * count / most
                base -= h
                segments.append(Segment(kind, round(base, 2), round(h, 2)))
        bars.append(Bar(
            x=round(LEFT + i * slot + slot * GAP / 2, 2), width=round(slot * (1 - GAP), 2),
            segments=segments,
            title=_("%(date)s: %(wins)d won, %(draws)d drawn, %(losses)d lost") % {
                "date": date_format(day.day, "SHORT_DATE_FORMAT"),
                "wins": day.wins, "draws": day.draws, "losses": day.losses}))
    return {
        "width": WIDTH, "height": HEIGHT, "bars": bars, "most": most,
        "left": LEFT, "top": TOP, "bottom": TOP + plot_h, "right": WIDTH - RIGHT,
        "label_y": HEIGHT - 8,
        "first_day": first, "last_day": days[-1].day, "game_days": len(days),
    }
