"""What operators see (docs/telemetry.md, "Operators"): aggregates over the last days, never
single events."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from . import charts, schema
from .models import Event

DAY_CHOICES = (1, 7, 14, 30)


class FilterError(ValueError):
    pass


@dataclass(frozen=True)
class Filters:
    days: int = 30
    game: str = ""

    @classmethod
    def from_query(cls, query) -> Filters:
        raw_days = query.get("days", "30")
        try:
            days = int(raw_days)
        except ValueError:
            raise FilterError(_("days must be one of %s.") % ", ".join(map(str, DAY_CHOICES))) from None
        if days not in DAY_CHOICES:
            raise FilterError(_("days must be one of %s.") % ", ".join(map(str, DAY_CHOICES)))
        game = query.get("game", "")
        if game not in ("",) + schema.GAMES:
            raise FilterError(_("game must be one of %s, or empty for all.") % ", ".join(schema.GAMES))
        return cls(days, game)

    def since(self):
        return timezone.now() - timedelta(days=self.days)

    def queryset(self):
        events = Event.objects.filter(received_at__gte=self.since())
        return events.filter(game=self.game) if self.game else events

    def dates(self) -> list[date]:
        """Every UTC day the range touches, oldest first: its first one only in part."""
        first, last = self.since().date(), timezone.now().date()
        return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def _rate(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def games_started_finished(events) -> list[dict]:
    rows = (events.filter(type__in=("game_start", "game_end")).values("game", "mode")
            .annotate(started=Count("id", filter=Q(type="game_start")),
                      finished=Count("id", filter=Q(type="game_end")))
            .order_by("game", "mode"))
    return [{**row, "rate": _rate(row["finished"], row["started"])} for row in rows]


def view3d_failures(events, by: str) -> list[dict]:
    attempts = events.filter(type__in=("view3d_failed", "view3d_first_frame", "view3d_left_early"))
    rows = (attempts.values(by).annotate(failed=Count("id", filter=Q(type="view3d_failed")),
                                         total=Count("id")).order_by(by))
    return [{"label": row[by], "failed": row["failed"], "total": row["total"],
             "rate": _rate(row["failed"], row["total"])} for row in rows]


def bucket_counts(events, kind: str, field: str) -> list[dict]:
    counts = dict(events.filter(type=kind).values_list(field).annotate(n=Count("id")).order_by())
    labels = schema.BUCKETS[field].values
    return [{"label": label, "count": counts.get(label, 0)} for label in labels]


def room_steps(events) -> list[dict]:
    rows = (events.filter(type="room_step").values("step")
            .annotate(ok=Count("id", filter=Q(outcome="ok")), total=Count("id")).order_by("step"))
    return [{**row, "rate": _rate(row["ok"], row["total"])} for row in rows]


def rooms_created(events) -> list[dict]:
    rows = (events.filter(type="room_created").values("origin")
            .annotate(ok=Count("id", filter=Q(outcome="ok")), total=Count("id")).order_by("origin"))
    return [{**row, "rate": _rate(row["ok"], row["total"])} for row in rows]


def reconnections(events) -> dict:
    sessions = events.filter(type="room_session")
    summary = sessions.aggregate(sessions=Count("id"), total=Sum("reconnections"),
                                 with_any=Count("id", filter=Q(reconnections__gt=0)))
    summary["total"] = summary["total"] or 0
    summary["per_session"] = round(summary["total"] / summary["sessions"], 2) if summary["sessions"] else 0.0
    return summary


def load_failures(events) -> list[dict]:
    return list(events.filter(type="load_failure").values("failure").annotate(count=Count("id"))
                .order_by("-count", "failure"))


# What each per-day series counts: a number of events of one type, or (reconnections) the sum of
# a field over the visits to rooms that day.
DAILY = {
    "started": Count("id", filter=Q(type="game_start")),
    "finished": Count("id", filter=Q(type="game_end")),
    "view3d_failed": Count("id", filter=Q(type="view3d_failed")),
    "load_failures": Count("id", filter=Q(type="load_failure")),
    "reconnections": Sum("reconnections", filter=Q(type="room_session")),
}


def per_day(events, dates: list[date]) -> list[dict]:
    """One row per day of ``dates`` (a day with no event counts 0 for each series), from the
    hour each event was stored (``received_at``: the hour the buffer was flushed, UTC)."""
    rows = {row["day"]: row for row in events.annotate(day=TruncDate("received_at")).values("day")
            .annotate(**DAILY).order_by()}
    return [{"day": day, **{name: (rows.get(day) or {}).get(name) or 0 for name in DAILY}} for day in dates]


def build(filters: Filters) -> dict:
    events = filters.queryset()
    games = games_started_finished(events)
    failures = {by: view3d_failures(events, by) for by in ("browser", "os", "device")}
    ttff = bucket_counts(events, "view3d_first_frame", "ttff")
    left_early = bucket_counts(events, "view3d_left_early", "ttff")
    steps = room_steps(events)
    created = rooms_created(events)
    loads = load_failures(events)
    daily = per_day(events, filters.dates())
    days = [row["day"].isoformat() for row in daily]
    return {
        "total": events.count(),
        "daily": daily,
        "daily_charts": [
            charts.daily_chart(_("Games started and finished per day"), days,
                               [(_("started"), [row["started"] for row in daily]),
                                (_("finished"), [row["finished"] for row in daily])]),
            charts.daily_chart(_("3D failures per day"), days,
                               [(_("3D failures"), [row["view3d_failed"] for row in daily])]),
            charts.daily_chart(_("Load failures per day"), days,
                               [(_("load failures"), [row["load_failures"] for row in daily])]),
            charts.daily_chart(_("Reconnections per day"), days,
                               [(_("reconnections"), [row["reconnections"] for row in daily])]),
        ],
        "games": games,
        "games_chart": charts.grouped_bar_chart(
            _("Games started and finished"),
            [(f"{row['game']} / {row['mode']}", [row["started"], row["finished"]]) for row in games],
            [_("started"), _("finished")]),
        "failures": failures,
        "failure_charts": {by: charts.bar_chart(_("3D failure rate by %s") % by,
                                                [(row["label"], row["rate"]) for row in rows], "%", 100)
                           for by, rows in failures.items()},
        "ttff": ttff,
        "left_early": left_early,
        "ttff_chart": charts.grouped_bar_chart(
            _("Time to first 3D frame"),
            [(row["label"], [row["count"], early["count"]]) for row, early in zip(ttff, left_early, strict=True)],
            [_("first frame"), _("left before")]),
        "steps": steps,
        "created": created,
        "rooms_chart": charts.bar_chart(_("Friends' rooms: success rate"),
                                        [(row["step"], row["rate"]) for row in steps]
                                        + [(f"create ({row['origin']})", row["rate"]) for row in created],
                                        "%", 100),
        "reconnections": reconnections(events),
        "loads": loads,
        "loads_chart": charts.bar_chart(_("Load failures by kind"),
                                        [(row["failure"], row["count"]) for row in loads]),
    }
