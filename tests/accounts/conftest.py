"""Fixtures for the accounts tests: players and "game finished" records in the documented format."""
import pytest
from accounts_testlib import PASSWORD, game_record, unique_address
from django.contrib.auth.models import User
from django.test import Client

from games.signals import game_finished


@pytest.fixture
def client():
    """pytest-django's client, from an address of its own (see unique_address)."""
    return Client(REMOTE_ADDR=unique_address())


@pytest.fixture
def make_user(db):
    def make(username="alice", password=PASSWORD, **fields):
        return User.objects.create_user(username=username, password=password, **fields)
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def finish_game(db):
    """Sends game_finished as the rooms service does once a game has really finished."""
    def send(seats, **fields):
        record = game_record(seats, **fields)
        game_finished.send(sender="rooms", record=record)
        return record
    return send
