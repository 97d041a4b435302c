"""Geometry of the results chart; templates/accounts/_chart.html draws it as inline SVG."""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .stats import DayResults

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 8, 12, 28   # room for the axis labels
GAP = 0.2                                  # fraction of a slot left between bars
MAX_BAR = 40                               # a few days' bars stay bars, not walls


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
    """Stacked bars, one per day with games: wins at the bottom, then draws, then losses."""
    if not days:
        return None
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    most = max(day.games for day in days)
    slot = min(plot_w / len(days), MAX_BAR / (1 - GAP))
    bars = []
    for i, day in enumerate(days):
        base = TOP + plot_h
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
        "first_day": days[0].day, "last_day": days[-1].day,
    }
