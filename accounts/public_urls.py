from django.urls import path

from . import language, views

urlpatterns = [
    # The language switcher on every page (templates/i18n/switcher.html).
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("u/<str:username>/", views.public_profile, name="public_profile"),
    path("leaderboard/", views.memory_leaderboard, name="leaderboard"),
]
