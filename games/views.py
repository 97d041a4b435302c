from django.shortcuts import render

from .catalog import GAMES


def home(request):
    return render(request, "home.html", {"games": GAMES})
