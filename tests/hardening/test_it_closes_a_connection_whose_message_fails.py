"""Whatever a message raises on the server (here a MemoryError, as a parser out of memory would),
the connection is closed cleanly with SERVER_FAILED and its seat stops counting it: the error
used to escape the consumer, the socket closed without its disconnect ever being recorded, and
the seat counted a connection for good. In-process, on the suite's backend."""
import asyncio
import json
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from config.routing import websocket_urlpatterns
from games.consumers import SERVER_FAILED
from games.models import Room
from server.websocket_auth import websocket_auth


@pytest.fixture
async def closed_connections():
    yield
    await sync_to_async(connections.close_all)()


def _friends_room() -> dict:
    response = Client().post("/api/rooms", {"game": "gin", "mode": "friends", "options": {"target": 25}},
                             content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def _conns(room_id: str) -> dict:
    seats = Room.objects.get(pk=room_id).seats
    return (json.loads(seats) if isinstance(seats, str) else seats)[0]["conns"]


@pytest.mark.django_db(transaction=True)
async def test_it_closes_a_connection_whose_message_fails_and_lets_its_seat_go(closed_connections):
    room = await sync_to_async(_friends_room)()
    communicator = WebsocketCommunicator(websocket_auth(URLRouter(websocket_urlpatterns)),
                                         f"/ws/rooms/{room['room_id']}/")
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "hello", "token": room["seat_token"], "id": "h1"})
    assert (await communicator.receive_json_from(10))["type"] == "state"
    assert sum((await sync_to_async(_conns)(room["room_id"])).values()) == 1

    with mock.patch("json.loads", side_effect=MemoryError):  # the parser runs out of memory
        await communicator.send_to(text_data='{"type": "ping"}')
        closed = await communicator.receive_output(10)
    assert closed == {"type": "websocket.close", "code": SERVER_FAILED}

    async def let_go():
        while await sync_to_async(_conns)(room["room_id"]):
            await asyncio.sleep(0.05)
    await asyncio.wait_for(let_go(), 10)
    await communicator.disconnect()
