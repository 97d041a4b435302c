"""The operators' copy of a finished game (``FinishedGame``): made from the ``game_finished``
record (games/signals.py) so that it cannot be matched to anybody's own record
(accounts.GameRecord, the one place a finished game is linked to an account).

Its values say no more than the hour, the statistics' ranges and how each seat ended
(``operators_copy``). Nor does when it is written: a copy inserted with the change that finished
the room shared that change's transaction id (PostgreSQL's ``xmin``) with the room's last event,
came a few transactions before the players' own records, and lay in finish order. So the copy
waits in memory with the statistics until the hourly flush (server/hourly_buffer.py) writes the
hour's copies in one transaction, shuffled, with random keys (docs/telemetry.md, "Unlinkable").
"""
from __future__ import annotations

from typing import Any

from games.models import FinishedGame
from games.ranges import GAME_RANGES
from server.hourly_buffer import HourlyBuffer

SEAT_FACTS_FOR_OPERATORS = ("seat", "holder", "result", "rank", "resigned")

copies = HourlyBuffer("finished games", FinishedGame)


def operators_copy(record: dict[str, Any]) -> dict[str, Any]:
    """The copy of a ``game_finished`` record: no user ids, scores or failed flips, times to the
    hour (as ISO text, as the buffer holds them), moves and duration as the statistics' ranges."""
    hour = {"minute": 0, "second": 0, "microsecond": 0}
    return {"game": record["game"], "mode": record["mode"], "options": record["options"],
            "cpu_level": record["cpu_level"] or "",
            "room_origin": record["room_origin"] or "",
            "reconnections": record["reconnections"],
            "moves": GAME_RANGES["move_count"].label(record["moves"]),
            "duration": GAME_RANGES["duration"].label(record["duration_seconds"]),
            "started_at": record["started_at"].replace(**hour).isoformat(),
            "finished_at": record["finished_at"].replace(**hour).isoformat(),
            "seats": [{k: seat[k] for k in SEAT_FACTS_FOR_OPERATORS if k in seat}
                      for seat in record["seats"]]}


def keep_operators_copy(sender: Any, record: dict[str, Any], **kwargs: Any) -> None:
    """``game_finished``'s receiver (connected in GamesConfig.ready): the copy waits for the flush."""
    copies.add([operators_copy(record)])
