"""Rooms and their events are deleted a day after their last change, unless someone is still
connected or a step is due (games/rooms/cleanup.py); a finished game is kept for operators
with nothing that matches a player's record (FinishedGame), and for each signed-in player in their own record."""
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import GameRecord
from games.engines.base import GameError
from games.models import FinishedGame, Room, RoomEvent
from games.rooms import creation, service
from games.rooms.cleanup import delete_idle_rooms
from games.tasks import delete_idle_rooms_task
from server import hourly_buffer
from telemetry.schema import BUCKETS

pytestmark = pytest.mark.django_db(transaction=True)


def finished_bozu(user=None, disconnect=True) -> str:
    room, token = creation.create_room("bozu", "local", {"players": 2})
    held = service.hello(room.id, token, user.pk if user else None).reply["seats"]
    while service.load(room.id).status != "finished":
        service.act(room.id, held, {"type": "flip"})
    if disconnect:
        service.disconnect(room.id, held)
    return room.id


def last_change():
    return max(Room.objects.values_list("updated_at", flat=True))


def delete_at(moment) -> int:
    return delete_idle_rooms_task.apply(kwargs={"now": moment.isoformat()}).get()


def test_rooms_idle_a_day_are_deleted_with_their_events():
    finished = finished_bozu()
    waiting, _ = creation.create_room("gin", "friends", {"target": 25})
    never_started = waiting.id
    assert RoomEvent.objects.filter(room_id=finished).count() > 100
    a_day_later = last_change() + timedelta(hours=24)
    assert delete_at(a_day_later - timedelta(seconds=1)) == 0
    assert Room.objects.count() == 2
    assert delete_at(a_day_later + timedelta(seconds=1)) == 2
    assert not Room.objects.filter(pk__in=[finished, never_started]).exists()
    assert RoomEvent.objects.count() == 0
    # Gone means gone: the room's address answers as for any unknown room.
    with pytest.raises(GameError, match="no such room"):
        service.load(finished)


def test_a_room_with_a_connection_open_or_a_step_due_is_kept():
    open_tab = finished_bozu(disconnect=False)
    cpu_turn, _ = creation.create_room("bozu", "cpu", {"players": 2}, "easy")
    Room.objects.filter(pk=cpu_turn.id).update(due_at=timezone.now())  # a CPU move due
    idle = finished_bozu()
    assert delete_at(last_change() + timedelta(days=2)) == 1
    assert set(Room.objects.values_list("pk", flat=True)) == {open_tab, cpu_turn.id}
    assert not Room.objects.filter(pk=idle).exists()


def test_it_deletes_in_batches():
    rooms = {finished_bozu() for _ in range(3)}
    assert delete_idle_rooms_task.apply(kwargs={"now": (last_change() + timedelta(days=1, seconds=1)).isoformat()}
                                        ).get() == 3
    assert not Room.objects.filter(pk__in=rooms).exists()
    more = {finished_bozu() for _ in range(3)}
    assert delete_idle_rooms(last_change() + timedelta(days=1, seconds=1), batch_size=1) == 3
    assert not Room.objects.filter(pk__in=more).exists()


def test_it_refuses_a_bad_now_and_deletes_nothing():
    finished_bozu()
    for bad in ("tomorrow", "2030-01-01T00:00:00"):  # no time zone
        with pytest.raises(ValueError, match="now must be"):
            delete_idle_rooms_task.apply(kwargs={"now": bad}).get()
    assert Room.objects.count() == 1


def test_beat_deletes_idle_rooms_every_hour():
    entry = settings.CELERY_BEAT_SCHEDULE["rooms-cleanup"]
    assert entry["task"] == delete_idle_rooms_task.name
    assert entry["schedule"].hour == set(range(24)) and len(entry["schedule"].minute) == 1


def test_a_finished_game_is_kept_for_operators_with_nothing_that_matches_the_players_record():
    user = get_user_model().objects.create_user("ada", password="pw-long-enough-1")
    finished_bozu(user)
    hourly_buffer.flush()  # the operators' copy waits for it (games/finished.py)
    record = GameRecord.objects.get(user=user)  # the player's own record keeps the link
    kept = FinishedGame.objects.get()
    assert isinstance(kept.pk, uuid.UUID)  # no key order to match the records' ids against
    assert [set(seat) for seat in kept.seats] == [{"seat", "holder", "result", "rank", "resigned"}] * 2
    assert [seat["holder"] for seat in kept.seats] == ["human", "human"]
    assert kept.moves == BUCKETS["move_count"].label(record.moves)
    assert kept.duration == BUCKETS["duration"].label(record.duration_seconds)
    for stored, exact in ((kept.started_at, record.started_at), (kept.finished_at, record.finished_at)):
        assert stored == exact.replace(minute=0, second=0, microsecond=0)
