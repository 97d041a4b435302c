"""Fixtures for the accounts tests: players and "game finished" records in the documented format."""
from datetime import datetime, timedelta, timezone

import pytest
from django.contrib.auth.models import User

from games.signals import game_finished

PASSWORD = "correct horse battery"


@pytest.fixture
def make_user(db):
    def make(username="alice", password=PASSWORD, **fields):
        return User.objects.create_user(username=username, password=password, **fields)
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", email="alice@example.com")


def game_record(seats, *, game="memory", mode="cpu", cpu_level="hard", options=None,
                moves=40, duration=125.0, finished_at=None):
    """A record as games/signals.py documents it; ``seats`` lists per-seat overrides."""
    finished_at = finished_at or datetime(2026, 3, 14, 15, 9, tzinfo=timezone.utc)
    full_seats = []
    for number, overrides in enumerate(seats):
        seat = {"seat": number, "holder": "cpu", "user_id": None, "result": "loss",
                "score": 0, "rank": 2, "resigned": False, "failed_flips": None}
        seat.update(overrides)
        full_seats.append(seat)
    return {
        "game": game, "mode": mode,
        "options": options if options is not None else {"players": len(seats), "cards": 24},
        "cpu_level": cpu_level, "moves": moves, "duration_seconds": duration,
        "started_at": finished_at - timedelta(seconds=duration), "finished_at": finished_at,
        "seats": full_seats, "room_origin": "menu" if mode == "friends" else None,
        "reconnections": 0,
    }


@pytest.fixture
def finish_game(db):
    """Sends game_finished as the rooms service does once a game has really finished."""
    def send(seats, **fields):
        record = game_record(seats, **fields)
        game_finished.send(sender="rooms", record=record)
        return record
    return send
