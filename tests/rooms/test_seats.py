"""games/rooms/seats.py reads and writes Room.seats exactly as stored before it existed, so a room
saved by either version loads on the other (a rolling deploy), and its rules say what the
protocol page's "Seats" table says."""
from datetime import UTC, datetime, timedelta

from games.rooms.seats import Seat, public, seats_held_by, take_refusal

# Seats as the version before games/rooms/seats.py wrote them (its service's dicts): new ones,
# and after join, take_seat (of a seat never held: a null former token), leave and a takeover.
STORED = [
    {"holder": "human", "token": "a" * 64, "user": None, "conns": {}, "away_since": None,
     "cpu": False, "left": False, "seen": False},
    {"holder": "cpu", "token": None, "user": None, "conns": {}, "away_since": None,
     "cpu": True, "left": False, "seen": False},
    {"holder": "none", "token": None, "user": None, "conns": {}, "away_since": None,
     "cpu": False, "left": False, "seen": False},
    {"holder": "human", "token": "b" * 64, "user": 7, "conns": {"p1": 2, "p2": 1}, "away_since": None,
     "cpu": False, "left": False, "seen": True},
    {"holder": "human", "token": "c" * 64, "user": None, "conns": {"p1": 1}, "away_since": None,
     "cpu": False, "left": False, "seen": True, "former_token": None},
    {"holder": "human", "token": None, "user": 7, "conns": {}, "away_since": None,
     "cpu": True, "left": True, "seen": True, "former_token": "d" * 64},
    {"holder": "human", "token": "e" * 64, "user": None, "conns": {}, "away_since": None,
     "cpu": True, "left": False, "seen": True},
]
# A seat its holder left before seats remembered the token they replaced (no former_token).
LEFT_LONG_AGO = {"holder": "human", "token": None, "user": None, "conns": {}, "away_since": None,
                 "cpu": True, "left": True, "seen": True}


def test_it_writes_every_stored_seat_back_as_it_was_key_for_key():
    for stored in [*STORED, LEFT_LONG_AGO]:
        written = Seat.from_json(stored).to_json()
        assert written == stored
        assert list(written) == list(stored)  # the same keys in the same order (SQLite keeps the text)


def test_it_stores_the_keys_the_version_before_wrote():
    new_keys = ["holder", "token", "user", "conns", "away_since", "cpu", "left", "seen"]
    assert list(Seat("human", "a" * 64).to_json()) == new_keys
    assert Seat.for_cpu().to_json() == STORED[1]
    assert Seat("none").to_json() == STORED[2]
    joined = Seat.arrived("f" * 64, 7, "p1").to_json()
    assert joined == {**STORED[3], "token": "f" * 64, "conns": {"p1": 1}}
    # take_seat of a CPU seat never held stores a null former token, as before.
    assert Seat.for_cpu().taken_by("c" * 64, None, "p1").to_json() == STORED[4]


def test_it_gives_the_public_holder_and_presence_of_the_protocol_table():
    seats = [Seat.from_json(s) for s in STORED[1:]]  # six seats, the most a room has
    assert [(s["holder"], s["presence"]) for s in public(seats)] == [
        ("cpu", "cpu"),  # a CPU seat
        ("none", "free"),
        ("human", "connected"),
        ("human", "connected"),  # taken by a new person
        ("cpu", "cpu"),  # left
        ("human", "cpu"),  # taken over by the CPU while its person is away
    ]
    assert public(seats)[2] == {"seat": 2, "colour": "yellow", "name": "Yellow", "holder": "human",
                                "presence": "connected"}
    assert public([Seat.from_json(STORED[0])])[0]["presence"] == "disconnected"  # before its first hello


def test_a_token_holds_its_seat_until_it_changes_hands_and_then_learns_it():
    seats = [Seat.from_json(s) for s in STORED]
    assert seats_held_by(seats, "a" * 64) == [0]
    assert seats_held_by(seats, "e" * 64) == [6]  # taken over, still the token's to take back
    assert seats_held_by(seats, "d" * 64) == []  # left
    assert seats[5].was_held_by("d" * 64) and not seats[5].was_held_by("a" * 64)
    assert seats_held_by(seats, None) == []
    seats[3].leave()
    assert seats_held_by(seats, "b" * 64) == []
    assert seats[3].was_held_by("b" * 64)
    assert seats[3].to_json() == {**STORED[3], "token": None, "conns": {}, "cpu": True, "left": True,
                                  "former_token": "b" * 64}
    # The one who takes a left seat is remembered as taking it from the one who left.
    assert seats[3].taken_by("g" * 64, None, "p1").former_token == "b" * 64


def test_the_cpu_covers_a_seat_away_for_the_delay_and_its_token_takes_it_back():
    delay = timedelta(seconds=45)
    seat = Seat.arrived("a" * 64, None, "p1")
    assert seat.takeover_at(delay) is None  # connected
    away = datetime(2026, 1, 1, tzinfo=UTC)
    seat.drop("p1")
    assert seat.went_away(away.isoformat())
    assert seat.presence == "disconnected"
    assert seat.takeover_at(delay) == away + delay
    seat.take_over()
    assert (seat.presence, seat.public_holder, seat.takeover_at(delay)) == ("cpu", "human", None)
    assert seat.connect("p2", 9)  # a reconnection: it had been seen before
    assert (seat.presence, seat.cpu, seat.user, seat.conns) == ("connected", False, 9, {"p2": 1})
    # A CPU seat, a free one and one left are never away: nobody's connection to lose.
    for stored in (STORED[1], STORED[2], STORED[5]):
        assert not Seat.from_json(stored).went_away(away.isoformat())


def test_a_process_that_died_takes_all_its_connections_with_it():
    seat = Seat.from_json(STORED[3])
    seat.drop("p1")
    assert seat.conns == {"p1": 1, "p2": 1}
    assert seat.forget("p1") and not seat.forget("p1")
    assert seat.connected and not seat.went_away("2026-01-01T00:00:00+00:00")
    assert seat.forget("p2") and seat.went_away("2026-01-01T00:00:00+00:00")


def test_only_a_seat_the_cpu_plays_in_a_friends_game_may_be_taken():
    seats = [Seat.from_json(s) for s in STORED]
    takeable = [i for i in range(len(seats)) if take_refusal("friends", "playing", seats, i) is None]
    assert takeable == [1, 5, 6]
    assert take_refusal("cpu", "playing", seats, 1) == ("seat_not_available",
                                                        "Seats can only be taken in a friends room.")
    assert take_refusal("friends", "finished", seats, 1)[0] == "seat_not_available"
    assert take_refusal("friends", "playing", seats, len(seats))[0] == "bad_field"
    assert take_refusal("friends", "playing", seats, -1)[0] == "bad_field"
