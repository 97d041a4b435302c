import pytest

from config import env
from config.env import ConfigError


def test_it_reads_booleans_strictly(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    assert env.env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "0")
    assert env.env_bool("FLAG", True) is False
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ConfigError, match="FLAG must be a boolean"):
        env.env_bool("FLAG", False)


def test_it_reads_numbers_and_lists(monkeypatch):
    monkeypatch.setenv("N", "12")
    assert env.env_int("N", 1) == 12
    monkeypatch.setenv("N", "twelve")
    with pytest.raises(ConfigError, match="N must be an integer"):
        env.env_int("N", 1)
    monkeypatch.setenv("HOSTS", " a.example, b.example ,")
    assert env.env_list("HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.delenv("HOSTS")
    assert env.env_list("HOSTS", ["x"]) == ["x"]


def test_it_reads_rate_limits(monkeypatch):
    assert env.env_rates("RATES", "20/minute,200/hour") == ((20, 60), (200, 3600))
    monkeypatch.setenv("RATES", " 5 / second , 1/day")
    assert env.env_rates("RATES", "20/minute") == ((5, 1), (1, 86400))
    for bad in ("", "20", "20/minutes", "x/hour", "20/minute,", "-1/hour"):
        monkeypatch.setenv("RATES", bad)
        with pytest.raises(ConfigError, match="RATES must be limits like 20/minute,200/hour"):
            env.env_rates("RATES", "20/minute")
    monkeypatch.setenv("RATES", "0/minute")
    with pytest.raises(ConfigError, match="RATES must allow at least 1 request per window"):
        env.env_rates("RATES", "20/minute")


def test_it_parses_database_urls(tmp_path):
    pg = env.database_from_url("postgres://u:p%40ss@db:5433/cards?sslmode=require", tmp_path)
    assert (pg["ENGINE"], pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "django.db.backends.postgresql", "cards", "u", "p@ss", "db", "5433")
    # Prepared statements on (psycopg's default), so that the rooms' statements that ask to be
    # prepared are (Django's default would silently turn that off); a URL may say otherwise.
    # Page requests borrow from a bounded pool (10 by default), never a connection kept per thread.
    pool = {"min_size": 1, "max_size": 10, "timeout": 10.0}
    assert pg["OPTIONS"] == {"sslmode": "require", "prepare_threshold": 5, "pool": pool}
    assert pg["CONN_MAX_AGE"] == 0
    assert env.database_from_url("postgres://db/cards?prepare_threshold=none", tmp_path, 4, 2.5)["OPTIONS"] == {
        "prepare_threshold": None, "pool": {"min_size": 1, "max_size": 4, "timeout": 2.5}}
    with pytest.raises(ConfigError, match="prepare_threshold must be a count or none"):
        env.database_from_url("postgres://db/cards?prepare_threshold=-1", tmp_path)
    assert env.database_from_url("sqlite:///db.sqlite3", tmp_path)["NAME"] == tmp_path / "db.sqlite3"
    assert env.database_from_url("sqlite:////var/x.db", tmp_path)["NAME"] == "/var/x.db"
    with pytest.raises(ConfigError, match="DATABASE_URL must start with"):
        env.database_from_url("mysql://x/y", tmp_path)
    with pytest.raises(ConfigError, match="names no database"):
        env.database_from_url("postgres://host/", tmp_path)


def test_it_checks_redis_urls(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "http://nope")
    with pytest.raises(ConfigError, match="redis://"):
        env.redis_url()
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    assert env.redis_url() == "redis://127.0.0.1:6379/0"
