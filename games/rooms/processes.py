"""Server processes: this process's identity and heartbeat, and the processes that stopped beating.

Seats count their connections per server process (``Room.seats[i]["conns"]``, keyed by
``PROCESS_ID``). Each process keeps a row in ``ServerProcess`` and writes it every few seconds
(``this_process.heartbeat``, from the scheduler's loop). A process that dies without closing
its connections (SIGKILL, power loss) stops beating: ``dead_processes`` finds it and
``steps.sweep`` (a change of each room that counts one of its connections, so the service's
to make) forgets those connections, using ``rooms_counting`` and then ``forget``.
"""
from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.models import Room, ServerProcess
from games.rooms import registry

log = logging.getLogger(__name__)

PROCESS_ID = uuid.uuid4().hex[:12]


class ThisProcess:
    """This process's row and what its last heartbeat learned. There is one (``this_process``):
    the scheduler's loop beats, and the service's commands that count a connection under
    ``PROCESS_ID`` make sure the row exists first."""

    def __init__(self, process_id: str) -> None:
        self.id = process_id
        self.registered = False
        # The only live server process, as of the last heartbeat: a refusal decided from this
        # process's copy of a row is then trusted (``changes.apply``, games/rooms/cache.py).
        self.alone = False

    def ensure_registered(self) -> None:
        """The row exists before any connection is counted under this process's id, so that
        even a process killed before its first timed heartbeat is found dead."""
        if not self.registered:
            self.heartbeat()

    def heartbeat(self) -> bool:
        """Writes the row; True when it was gone: this process was declared dead (silent for too
        long: the database unreachable, the process stalled or stopped) and the others' sweep
        forgot its connections, which the caller must then close so that they count again."""
        now = timezone.now()
        declared_dead = False
        if not ServerProcess.objects.filter(pk=self.id).update(last_seen=now):
            if self.registered:
                log.warning("this server process was declared dead and registers again; its room "
                            "connections close so that they reconnect and count again")
                declared_dead = True
            ServerProcess.objects.get_or_create(pk=self.id, defaults={"last_seen": now})
        self.registered = True
        # Conservative: a process that died recently still counts until it is swept.
        self.alone = not ServerProcess.objects.exclude(pk=self.id).exists()
        return declared_dead


this_process = ThisProcess(PROCESS_ID)


def dead_processes() -> list[tuple[str, datetime]]:
    """The other processes silent for longer than ``registry.process_dead_after()``, with when
    each was last seen."""
    cutoff = timezone.now() - timedelta(seconds=registry.process_dead_after())
    return list(ServerProcess.objects.filter(last_seen__lt=cutoff).exclude(pk=this_process.id)
                .values_list("id", "last_seen"))


def rooms_counting(process_id: str) -> list[str]:
    """The rooms with a seat that counts a connection of the process."""
    # Rare (a process died) and must find every room, so a scan of the seats' text is fine.
    return list(Room.objects.annotate(seats_text=Cast("seats", TextField()))
                .filter(seats_text__contains=f'"{process_id}"').values_list("id", flat=True))


def forget(process_id: str) -> None:
    """The process is gone: its row goes, once no room counts its connections."""
    ServerProcess.objects.filter(pk=process_id).delete()
