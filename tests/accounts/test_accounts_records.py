"""The receiver of games.signals.game_finished stores one record per signed-in seat holder."""
from datetime import UTC, datetime

from django.contrib.auth.models import User

from accounts.models import GameRecord, Profile


def test_it_stores_a_record_for_the_signed_in_seat_only(alice, finish_game):
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "score": 8, "rank": 1},
                 {"result": "loss", "score": 4, "rank": 2}],
                game="memory", mode="cpu", cpu_level="hard", moves=37, duration=201.5,
                options={"players": 2, "cards": 24})
    record = GameRecord.objects.get()
    assert record.user == alice
    assert (record.game, record.mode, record.cpu_level) == ("memory", "cpu", "hard")
    assert record.options == {"players": 2, "cards": 24}
    assert (record.seat, record.players, record.result, record.rank, record.score) == (0, 2, "win", 1, 8)
    assert (record.moves, record.duration_seconds) == (37, 201.5)
    assert record.finished_at == datetime(2026, 3, 14, 15, 9, tzinfo=UTC)
    assert record.resigned is False and record.failed_flips is None


def test_it_stores_a_record_for_each_signed_in_player_of_a_friends_game(make_user, finish_game):
    bob, carol = make_user("bob"), make_user("carol")
    finish_game([{"holder": "human", "user_id": bob.id, "result": "draw", "score": 6, "rank": 1},
                 {"holder": "human", "user_id": None, "result": "loss", "score": 2, "rank": 2},
                 {"holder": "human", "user_id": carol.id, "result": "draw", "score": 6, "rank": 1}],
                mode="friends", cpu_level=None)
    rows = {r.user.username: r for r in GameRecord.objects.select_related("user")}
    assert set(rows) == {"bob", "carol"}
    assert (rows["bob"].seat, rows["bob"].result) == (0, "draw")
    assert (rows["carol"].seat, rows["carol"].result, rows["carol"].players) == (2, "draw", 3)
    assert rows["carol"].cpu_level == ""


def test_a_game_without_signed_in_players_stores_nothing(db, finish_game):
    finish_game([{"holder": "human", "result": "win", "rank": 1}, {"result": "loss"}])
    assert not GameRecord.objects.exists()


def test_a_resignation_is_a_loss(alice, finish_game):
    # Even if a record ever said otherwise, the one who resigned lost.
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "resigned": True, "rank": 1},
                 {"result": "loss"}], game="gin", cpu_level="normal")
    record = GameRecord.objects.get()
    assert (record.result, record.resigned) == ("loss", True)


def test_solo_memory_keeps_the_failed_flips(alice, finish_game):
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1, "score": 12,
                  "failed_flips": 9}], mode="solo", cpu_level=None, options={"players": 1, "cards": 24})
    record = GameRecord.objects.get()
    assert (record.mode, record.failed_flips, record.players) == ("solo", 9, 1)


def test_one_account_on_every_seat_of_a_local_game_gets_one_record(alice, finish_game):
    finish_game([{"holder": "human", "user_id": alice.id, "result": "loss", "rank": 2},
                 {"holder": "human", "user_id": alice.id, "result": "win", "rank": 1}],
                mode="local", cpu_level=None)
    assert GameRecord.objects.filter(user=alice).count() == 1
    assert GameRecord.objects.get().seat == 0


def test_a_seat_whose_account_was_deleted_is_skipped(make_user, finish_game):
    bob, gone = make_user("bob"), make_user("gone")
    gone_id = gone.id
    gone.delete()
    finish_game([{"holder": "human", "user_id": bob.id, "result": "win", "rank": 1},
                 {"holder": "human", "user_id": gone_id, "result": "loss"}], mode="friends")
    assert list(GameRecord.objects.values_list("user__username", flat=True)) == ["bob"]


def test_every_new_user_gets_a_profile_with_telemetry_on_and_a_private_page(db):
    user = User.objects.create_user("dora", password="x")
    assert user.profile.telemetry_enabled is True
    assert user.profile.public_profile is False
    admin = User.objects.create_superuser("root", password="x")
    assert Profile.objects.filter(user=admin).exists()


def test_the_cpu_level_is_kept_only_when_a_cpu_played(alice, make_user, finish_game):
    bob = make_user("bob")
    # A solo game and a game between people carry the room's level; it means nothing there.
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1, "failed_flips": 3}],
                mode="solo", cpu_level="medium")
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1},
                 {"holder": "human", "user_id": bob.id, "result": "loss"}], mode="friends", cpu_level="hard")
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1},
                 {"holder": "cpu", "result": "loss"}], mode="friends", cpu_level="hard")
    assert list(GameRecord.objects.filter(user=alice).order_by("id").values_list("mode", "cpu_level")) == [
        ("solo", ""), ("friends", ""), ("friends", "hard")]


def test_a_game_without_scores_is_recorded_without_one(alice, finish_game):
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1, "score": None},
                 {"result": "loss", "score": None}])
    assert GameRecord.objects.get().score is None
