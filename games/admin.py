from django.contrib import admin

from games.models import FinishedGame, Room


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    # Only public facts: seats hold token hashes and the state holds hidden cards.
    list_display = ("id", "game", "mode", "status", "version", "due_at", "updated_at")
    list_filter = ("game", "mode", "status")
    fields = ("id", "game", "mode", "status", "options", "cpu_level", "origin", "version",
              "games_played", "due_at", "first_action_at", "reconnections", "created_at",
              "updated_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False


@admin.register(FinishedGame)
class FinishedGameAdmin(admin.ModelAdmin):
    list_display = ("game", "mode", "cpu_level", "moves", "duration", "finished_at")
    list_filter = ("game", "mode", "cpu_level")
    readonly_fields = [f.name for f in FinishedGame._meta.fields]

    def has_add_permission(self, request):
        return False
