from django.urls import path

from games.consumers import PingConsumer, RoomConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/rooms/<str:room_id>/", RoomConsumer.as_asgi()),
]
