from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """A tiny endpoint that proves WebSockets work end to end: answers ``ping`` with ``pong``."""

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong", "echo": content.get("echo")})
        else:
            await self.send_json({"type": "error", "code": "unknown_type",
                                  "message": "Send {\"type\": \"ping\"}."})
