"""POST /api/rooms with a `seed` (docs/protocol.md): a reproducible room for testing a client,
accepted by a development server (DEBUG) or from a staff account, refused for anyone else
(a known seed tells every hidden card); the same seed and the same actions give the same cards."""
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.bot import ProtocolError
from games.models import Room
from tests.rooms.helpers import close_all, connect, create_room

SOLO = {"game": "memory", "mode": "solo", "options": {"cards": 24}}
FLIPS = ["A1", "A2", "B3", "C4", "D6", "B1"]


async def cards_turned_up(site, seed: int) -> list[str]:
    """Plays FLIPS in a new seeded solo room (over the WebSocket) and returns the cards shown."""
    created = create_room(site.url, "memory", "solo", {"cards": 24}, seed=seed)
    conn = await connect(site.url, created["room_id"], created["seat_token"])
    shown = []
    for pos in FLIPS:
        # A mismatch stays up until the server turns it down: wait until the flip is legal.
        flip = {"type": "flip", "pos": pos}
        await conn.wait_for(lambda s, flip=flip: flip in s["view"]["legal_actions"], 5)
        answer = await conn.request("action", action=flip)
        shown.append(answer["view"]["last"]["card"])
    await close_all(conn)
    return shown


async def test_it_deals_the_same_cards_for_the_same_seed_on_a_debug_server(embedded_site):
    # The test servers run with DEBUG on, as `make run` does.
    first = await cards_turned_up(embedded_site, 20261130)
    assert await cards_turned_up(embedded_site, 20261130) == first
    # A random room (or another seed) deals otherwise; these fixed seeds show it.
    assert await cards_turned_up(embedded_site, 7) != first


@pytest.mark.parametrize("seed", [-1, 2 ** 63, "7", 1.5, True])
def test_it_refuses_a_seed_that_is_not_a_63_bit_whole_number(embedded_site, seed):
    with pytest.raises(ProtocolError) as refused:
        create_room(embedded_site.url, "memory", "solo", {"cards": 24}, seed=seed)
    assert refused.value.code == "invalid_seed"


def post_room(client: Client, **fields):
    return client.post("/api/rooms", json.dumps({**SOLO, **fields}), content_type="application/json")


@pytest.mark.django_db(transaction=True)  # the rooms API writes from its own threads
def test_it_refuses_a_seed_to_anyone_but_staff_when_debug_is_off(settings):
    settings.DEBUG = False  # as in production (and as pytest-django runs Django anyway)
    client = Client()
    answer = post_room(client, seed=42)
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "seed_not_allowed"
    client.force_login(User.objects.create_user("player", password="pw-long-enough-1"))
    assert post_room(client, seed=42).status_code == 403
    assert Room.objects.count() == 0  # a refusal makes no room
    assert post_room(client).status_code == 201  # without a seed, anyone may

    staff = Client()
    staff.force_login(User.objects.create_user("tester", password="pw-long-enough-1", is_staff=True))
    answer = post_room(staff, seed=42)
    assert answer.status_code == 201, answer.json()
    assert Room.objects.get(id=answer.json()["room_id"]).seed == 42
