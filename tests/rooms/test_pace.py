"""The pure parts of a room's pace (games/rooms/pace.py, issue 38): each game's seconds per turn
and PACE_SCALE, when a turn begins, when the others may let the CPU play (the one rule of
games/rooms/allowed.py), and which paces a new room may ask for. The same over WebSockets:
test_it_keeps_the_table_moving.py."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from config.env import ConfigError, env_positive_float
from games.engines.base import GameError
from games.models import Room
from games.rooms import allowed, creation, pace, service, steps
from games.rooms.pace import IN_A_ROW, Turns
from games.rooms.seats import Seat
from tests.rooms import helpers

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("game", "normal", "quick"), [("gin", 60, 20), ("memory", 30, 10), ("bozu", 15, 5)])
def test_each_game_has_its_seconds_per_turn_scaled(settings, game, normal, quick):
    assert pace.turn_seconds(game, "relaxed") is None
    assert (pace.turn_seconds(game, "normal"), pace.turn_seconds(game, "quick")) == (normal, quick)
    settings.PACE_SCALE = 0.5
    assert (pace.turn_seconds(game, "normal"), pace.turn_seconds(game, "quick")) == (normal / 2, quick / 2)
    assert pace.relaxed_wait() == 60


def test_pace_scale_must_be_a_positive_number(monkeypatch):
    monkeypatch.delenv("PACE_SCALE", raising=False)
    assert env_positive_float("PACE_SCALE", 1.0) == 1.0
    monkeypatch.setenv("PACE_SCALE", "0.05")
    assert env_positive_float("PACE_SCALE", 1.0) == 0.05
    for bad in ("0", "-1", "fast", "", "nan", "inf"):
        monkeypatch.setenv("PACE_SCALE", bad)
        with pytest.raises(ConfigError, match="PACE_SCALE"):
            env_positive_float("PACE_SCALE", 1.0)


def people(n=2):
    return [Seat("human", f"{i}" * 64, conns={"p": 1}) for i in range(n)]


def state(current, moves, over=False):
    return SimpleNamespace(current_player=current, moves=moves, is_over=over)


def test_a_turn_begins_with_another_seat_or_a_whole_turn_played():
    seats, turns = people(), Turns.from_json(None, 2)
    turns.follow(state(0, 0), seats, NOW, actions_per_turn=2)
    assert (turns.seat, turns.since, turns.played) == (0, NOW.isoformat(), [1, 0])
    later = NOW + timedelta(seconds=5)
    turns.follow(state(0, 1), seats, later, actions_per_turn=2)  # half a turn: the clock runs on
    assert (turns.since, turns.played) == (NOW.isoformat(), [1, 0])
    turns.follow(state(0, 2), seats, later, actions_per_turn=2)  # a pair in Memory: a new turn
    assert (turns.since, turns.played) == (later.isoformat(), [2, 0])
    turns.follow(state(None, 3), seats, later, actions_per_turn=2)  # a conceal is due: no clock
    assert turns.seat is None and turns.deadline("memory", "quick", seats) is None
    turns.follow(state(1, 3), seats, later, actions_per_turn=2)
    assert turns.seat == 1 and turns.played == [2, 1]


def test_the_deadline_is_for_a_person_to_play_under_a_clock(settings):
    settings.PACE_SCALE = 1.0
    seats, turns = people(), Turns.from_json(None, 2)
    turns.follow(state(1, 0), seats, NOW, actions_per_turn=1)
    assert turns.deadline("bozu", "quick", seats) == NOW + timedelta(seconds=5)
    assert turns.deadline("bozu", "relaxed", seats) is None
    assert turns.offer_at("relaxed", seats) == NOW + timedelta(seconds=120)
    assert turns.due_times("bozu", "normal", seats) == [NOW + timedelta(seconds=15)]
    # The CPU plays the turn now: no deadline; the third in a row hands the seat over.
    assert [turns.cover(1) for _ in range(IN_A_ROW)] == [False, False, True]
    assert turns.deadline("bozu", "quick", seats) is None and turns.cpu == [0, 3]
    turns.played_by_human(1, NOW + timedelta(seconds=3), "quick")
    assert turns.in_a_row == [0, 0] and turns.deadline("bozu", "quick", seats) == NOW + timedelta(seconds=5)
    # In a relaxed room a move starts the silence again.
    turns.played_by_human(1, NOW + timedelta(seconds=3), "relaxed")
    assert turns.offer_at("relaxed", seats) == NOW + timedelta(seconds=123)


def room(pace_name="relaxed", mode="friends", status="playing", turns=None):
    return Room(id="r", game="bozu", mode=mode, pace=pace_name, status=status, seats=[], turns=turns,
                options={}, seed=1, state={})


def test_the_others_may_let_the_cpu_play_after_two_minutes_of_silence(settings):
    settings.PACE_SCALE = 1.0
    seats, turns = people(3), Turns.from_json(None, 3)
    turns.follow(state(0, 0), seats, NOW, actions_per_turn=1)
    relaxed = room(turns=turns.to_json())

    def refusal(held, now):
        return allowed.refusal(relaxed, seats, held, "let_cpu_play", now=now)

    later = NOW + timedelta(seconds=120)
    assert refusal([1], later - timedelta(seconds=1))[0] == "not_allowed"
    assert refusal([1], later) is None and refusal([2], later) is None
    assert refusal([0], later)[0] == "not_allowed"  # its own turn
    assert refusal([], later)[0] == "not_a_player"
    for other in (room("normal", turns=turns.to_json()), room(mode="cpu", turns=turns.to_json()),
                  room(status="finished", turns=turns.to_json())):
        assert allowed.refusal(other, seats, [1], "let_cpu_play", now=later)[0] == "not_allowed"
    seats[0].take_over()  # the CPU plays it already
    assert refusal([1], later)[0] == "not_allowed"


def test_a_holder_may_take_its_own_seat_back_from_the_cpu():
    seats = people()
    friends = room("normal")
    assert allowed.refusal(friends, seats, [0], "take_seat", 0) == (
        "seat_not_available", "You are playing this seat already.")
    seats[0].take_over()
    assert allowed.refusal(friends, seats, [0], "take_seat", 0) is None
    assert allowed.refusal(friends, seats, [0], "take_seat", 1)[0] == "not_allowed"
    assert allowed.allowed(friends, seats, [0]).get("take_seat") == [0]


@pytest.mark.django_db
def test_only_a_friends_room_has_a_pace():
    made, _token = creation.create_room("gin", "friends", {}, room_pace="quick")
    assert made.pace == "quick"
    assert creation.create_room("gin", "friends", {})[0].pace == "relaxed"
    assert creation.create_room("gin", "cpu", {}, room_pace="relaxed")[0].pace == "relaxed"
    for mode, bad in (("friends", "fast"), ("friends", 1), ("cpu", "quick")):
        with pytest.raises(GameError) as refused:
            creation.create_room("gin", mode, {}, room_pace=bad)
        assert refused.value.code == "invalid_pace"


@pytest.mark.django_db
def test_a_seat_the_cpu_mostly_played_is_unfinished_for_its_person(django_user_model):
    from accounts.models import GameRecord
    from accounts.receivers import record_finished_game
    from accounts.stats import player_stats
    from games.rooms import changes

    green = django_user_model.objects.create_user("green")
    made, _token = creation.create_room("bozu", "friends", {"players": 2}, room_pace="quick")
    work = changes.Work(room=made, now=NOW)
    work.seats[1] = Seat("human", "1" * 64, user=green.id)
    work.turns.played, work.turns.cpu = [10, 10], [5, 6]  # Green's: 6 of 10 by the CPU
    changes.finish(work, {"scores": [3, 9], "ranking": [[1], [0]], "winners": [1], "draw": False},
                   resigned=None)
    assert made.result["cpu_turns"] == [5, 6]
    assert [s["result"] for s in work.finished_record["seats"]] == ["loss", "unfinished"]
    record_finished_game(None, work.finished_record)
    assert GameRecord.objects.get(user=green).result == "unfinished"
    stats = player_stats(green)  # listed, but neither a win nor a loss
    assert stats.page.paginator.count == 1 and stats.overall.games == 0 and not stats.recent_form


def cpu_turn_after_the_deadline(game, options):
    """A friends room under a normal clock whose seat to play has been silent past its
    deadline: the actions the CPU plays for that seat, one timed step after another, until its
    turn is over; and the room's turns then."""
    made, creator = creation.create_room(game, "friends", options, room_pace="normal")
    service.hello(made.id, creator, None)
    service.join(made.id, None)  # the last free seat: play begins
    room = Room.objects.get(pk=made.id)
    silent = room.turns["seat"]
    late = (datetime.now(UTC) - timedelta(seconds=pace.turn_seconds(game, "normal") + 1)).isoformat()
    Room.objects.filter(pk=made.id).update(turns={**room.turns, "since": late}, due_at=datetime.now(UTC))
    played = []
    while (event := steps.run_step(made.id).event) and event.get("by") == "cpu" and event["seat"] == silent:
        played.append(event["action"]["type"])
    return silent, played, Turns.from_json(Room.objects.get(pk=made.id).turns, 2)


@pytest.fixture
def steps_at_once(settings):
    helpers.steps_at_once(settings)
    settings.PACE_SCALE = 1.0


@pytest.mark.django_db
def test_the_cpu_plays_a_whole_gin_turn_upcard_decision_and_discard(steps_at_once):
    silent, played, turns = cpu_turn_after_the_deadline("gin", {"target": 25})
    assert played in (["pass"], ["take_upcard", "discard"], ["take_upcard", "knock"])
    assert turns.seat != silent and turns.cpu[silent] == turns.in_a_row[silent] == 1


@pytest.mark.django_db
def test_the_cpu_plays_a_whole_memory_turn_both_flips(steps_at_once):
    silent, played, turns = cpu_turn_after_the_deadline("memory", {"players": 2, "cards": 24})
    assert played == ["flip", "flip"]
    assert not turns.covered and turns.cpu[silent] == turns.in_a_row[silent] == 1


def test_the_bot_waits_for_the_others_as_long_as_the_pace_scaled(monkeypatch):
    from games.bot import others_wait
    monkeypatch.delenv("PACE_SCALE", raising=False)
    assert others_wait() == 180  # past a relaxed room's two minutes
    monkeypatch.setenv("PACE_SCALE", "2")
    assert others_wait() == 360
    monkeypatch.setenv("PACE_SCALE", "0.05")
    assert others_wait() == 120  # never less than before paces
