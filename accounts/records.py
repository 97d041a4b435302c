"""Turns the rooms' "game finished" record (games/signals.py) into GameRecord rows."""
from __future__ import annotations

from django.contrib.auth import get_user_model

from .models import GameRecord


def store_finished_game(record: dict) -> list[GameRecord]:
    """Stores one GameRecord per signed-in player of a finished game.

    A user holding several seats (one device playing every seat in "this device" mode) gets
    one record, for their first seat: one game played is one game in their stats. A seat
    whose account was deleted before the end is skipped. A resignation is always a loss.
    The CPU level is kept only when a CPU played: rooms carry a level for every mode, and a
    solo or hotseat game filed under "hard" would split its stats for nothing.
    """
    seats_by_user: dict[int, dict] = {}
    for seat in sorted(record["seats"], key=lambda s: s["seat"]):
        if seat.get("user_id") is not None:
            seats_by_user.setdefault(seat["user_id"], seat)
    if not seats_by_user:
        return []
    existing = set(get_user_model().objects.filter(pk__in=seats_by_user).values_list("pk", flat=True))
    cpu_level = (record.get("cpu_level") or "") if any(
        seat["holder"] == "cpu" for seat in record["seats"]) else ""
    rows = []
    for user_id, seat in seats_by_user.items():
        if user_id not in existing:
            continue
        rows.append(GameRecord(
            user_id=user_id,
            game=record["game"],
            mode=record["mode"],
            options=record.get("options") or {},
            cpu_level=cpu_level,
            seat=seat["seat"],
            players=len(record["seats"]),
            result="loss" if seat.get("resigned") else seat["result"],
            rank=seat["rank"],
            score=seat["score"],
            resigned=bool(seat.get("resigned")),
            failed_flips=seat.get("failed_flips"),
            moves=record["moves"],
            duration_seconds=record["duration_seconds"],
            started_at=record["started_at"],
            finished_at=record["finished_at"],
            replay=record.get("replay"),
        ))
    return GameRecord.objects.bulk_create(rows)
