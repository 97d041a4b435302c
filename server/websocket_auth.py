"""Who a WebSocket's user is: the user of the session cookie its handshake carried, found as
Channels' ``AuthMiddlewareStack`` finds it, without that stack's wrapper around every frame sent.

Channels' session middleware wraps ``send`` to save a changed session and set its cookie when an
HTTP response starts. A WebSocket has no such response, so on these routes the wrapper only
looked the session up again for every frame the server sent, for nothing (figures:
bench/results/2026-12-01-orjson-views.md). Nothing on a WebSocket changes the session (signing in and
out are HTTP pages), so the session is read once, at the handshake, and the frames go straight
to the server.
"""
from __future__ import annotations

from asgiref.typing import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope
from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper


class HandshakeSessionMiddleware:
    """``scope["session"]`` from the handshake's cookie (as Channels' ``SessionMiddleware``
    resolves it); ``send`` left as it is."""

    def __init__(self, inner: ASGI3Application) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        session = InstanceSessionWrapper(scope, send)
        await session.resolve_session()
        await self.inner(session.scope, receive, send)


def websocket_auth(inner: ASGI3Application) -> ASGI3Application:
    """``scope["user"]`` and ``scope["session"]`` for a WebSocket route, as
    ``AuthMiddlewareStack(inner)`` gives them."""
    app: ASGI3Application = CookieMiddleware(HandshakeSessionMiddleware(AuthMiddleware(inner)))
    return app
