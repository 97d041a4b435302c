from django.urls import path

from . import api

urlpatterns = [
    path("games", api.games, name="games"),
    path("rooms", api.create_room, name="create-room"),
    path("rooms/<str:room_id>", api.room_summary, name="room-summary"),
    path("rooms/<str:room_id>/replay", api.room_replay, name="room-replay"),
    path("rooms/<str:room_id>/verify", api.room_verify, name="room-verify"),
]
