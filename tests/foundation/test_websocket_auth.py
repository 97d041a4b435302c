"""server/websocket_auth.py: a WebSocket route sees the user of the session cookie its handshake
carried, as Channels' AuthMiddlewareStack would show it, and its frames reach the server without
a session wrapper on the way."""
import pytest
from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from server.websocket_auth import websocket_auth

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def closed_connections():
    yield
    # The sign-in and Channels' user lookup ran in asgiref's one sync thread: close its
    # connection, or the test database cannot be dropped.
    await sync_to_async(connections.close_all)()


class WhoAmI(AsyncWebsocketConsumer):
    async def connect(self):
        await self.accept()
        user = self.scope["user"]
        await self.send(text_data=user.username if user.is_authenticated else "anonymous")


def _signed_in_cookie() -> str:
    user = get_user_model().objects.create_user("wsauth", password="a long password 1")
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def _first_frame(cookie: str | None) -> str:
    communicator = WebsocketCommunicator(websocket_auth(WhoAmI.as_asgi()), "/ws/x/",
                                         headers=[(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
                                         if cookie else [])
    connected, _ = await communicator.connect()
    assert connected
    text = await communicator.receive_from()
    await communicator.disconnect()
    return text


async def test_it_finds_the_signed_in_user_of_the_handshake():
    cookie = await sync_to_async(_signed_in_cookie)()
    assert await _first_frame(cookie) == "wsauth"


async def test_it_leaves_a_handshake_without_a_session_anonymous():
    assert await _first_frame(None) == "anonymous"
    assert await _first_frame("not-a-session-key") == "anonymous"


async def test_it_hands_the_server_its_own_send():
    seen = []

    async def app(scope, receive, send):
        seen.append(send)
        assert "session" in scope and "user" in scope

    async def server_send(message):
        pass

    async def receive():
        return {"type": "websocket.connect"}

    await websocket_auth(app)({"type": "websocket", "path": "/ws/x/", "headers": []}, receive, server_send)
    assert seen == [server_send]
