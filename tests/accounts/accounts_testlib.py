"""Helpers shared by the accounts tests (conftest.py cannot be imported from a test module)."""
import ipaddress
import secrets
from datetime import datetime, timedelta, timezone

PASSWORD = "correct horse battery"


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


def unique_address() -> str:
    """A client address no other test (or earlier run) has used: sign-in failures are counted per
    address in the shared cache (Redis in the services backend) for the lock's whole window."""
    return str(ipaddress.IPv6Address(DOCUMENTATION_PREFIX + secrets.randbits(96)))


DOCUMENTATION_PREFIX = int(ipaddress.IPv6Address("2001:db8::"))
