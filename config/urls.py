from django.contrib import admin
from django.urls import include, path

from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("healthz", game_views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
