from django.urls import path

from . import views

app_name = "telemetry"
urlpatterns = [
    path("telemetry/events", views.events, name="events"),
    path("privacy/", views.privacy, name="privacy"),
]
