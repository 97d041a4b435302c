"""Typed readers for environment variables. A bad value stops the process with its name."""
from __future__ import annotations

import ipaddress
import os
import re
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit


class ConfigError(Exception):
    pass


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name} must be a boolean (1/0, true/false, yes/no, on/off), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None


def env_positive_float(name: str, default: float) -> float:
    """A number above zero (a factor, a length of time that must pass)."""
    value = env_float(name, default)
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"{name} must be a positive number, got {os.environ.get(name)!r}")
    return value


def env_float_or_none(name: str) -> float | None:
    """A number of seconds, or None when the variable is unset (the thing does not happen by itself)."""
    return env_float(name, 0.0) if os.environ.get(name) is not None else None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_secret_key(name: str, development_key: str, debug: bool) -> str:
    """The key Django signs with. With DEBUG off it must be one that `check --deploy` accepts
    (security.W009: 50+ characters, 5+ different ones, not Django's "django-insecure-" sample),
    so a weak key stops the process here instead of being a warning nobody reads."""
    key = os.environ.get(name, development_key)
    if not debug and (key == development_key or len(key) < 50 or len(set(key)) < 5
                      or key.startswith("django-insecure-")):
        raise ConfigError(f"With DEBUG off, {name} must be set to a random value of 50+ characters "
                          f"with 5+ different ones (make one with: python -c \"import secrets; "
                          f"print(secrets.token_urlsafe(50))\").")
    return key


def database_from_url(url: str, base_dir, pool_max: int = 10, pool_timeout: float = 10.0) -> dict:
    """``sqlite:///path`` (relative to the project) or ``postgres://user:pw@host:port/name``.

    On PostgreSQL, Django's own connections (page requests, Celery tasks) are borrowed from a
    pool of at most ``pool_max`` per process, waited for at most ``pool_timeout`` seconds.
    Under Daphne every page request runs in a thread of its own, and with persistent
    connections (CONN_MAX_AGE) each such thread left its connection open: a stream of
    requests used up the server's connections, and then every page failed. The rooms' and
    telemetry's threads keep connections of their own, outside the pool
    (server/db_threads.py)."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:///db.sqlite3 is relative to the project; sqlite:////abs/path is absolute.
        path = unquote(parts.path)
        name = path[1:] if path.startswith("//") else base_dir / (path.lstrip("/") or "db.sqlite3")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name,
                "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20}}
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        if not parts.path.strip("/"):
            raise ConfigError(f"DATABASE_URL names no database: {url!r}")
        query: dict[str, Any] = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        # Django connects with psycopg's prepared statements off (prepare_threshold None), and
        # psycopg then ignores even an explicit ``prepare=True``: the rooms' change and read
        # statements (games/rooms/storage.py) were parsed, analysed and planned on every call,
        # a third of PostgreSQL's CPU per move (bench/results/2026-12-01-prepared-statements.md).
        # Django's own queries
        # bind on the client (psycopg's ClientCursor), which psycopg never prepares, so this
        # prepares only the statements that ask for it.
        threshold = query.pop("prepare_threshold", "5")
        if not (threshold.isdigit() or threshold.lower() == "none"):
            raise ConfigError(f"DATABASE_URL's prepare_threshold must be a count or none, got {threshold!r}")
        query["prepare_threshold"] = int(threshold) if threshold.isdigit() else None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.strip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": 0,  # (a connection goes back to the pool when its request ends)
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {**query, "pool": {"min_size": 1, "max_size": pool_max, "timeout": pool_timeout}},
        }
    raise ConfigError(f"DATABASE_URL must start with sqlite:// or postgres://, got {url!r}")


def redis_url(name: str = "REDIS_URL") -> str | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if urlsplit(raw).scheme not in ("redis", "rediss", "unix"):
        raise ConfigError(f"{name} must be a redis:// URL, got {raw!r}")
    return raw


_RATE = re.compile(r"\s*(\d+)\s*/\s*(second|minute|hour|day)\s*", re.ASCII)
_SECONDS_PER = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def env_rates(name: str, default: str) -> tuple[tuple[int, int], ...]:
    """``20/minute,200/hour`` → ((20, 60), (200, 3600)): (requests, seconds) for each window."""
    raw = os.environ.get(name, default)
    rates = []
    for item in raw.split(","):
        match = _RATE.fullmatch(item)
        if match is None:
            raise ConfigError(f"{name} must be limits like 20/minute,200/hour "
                              f"(per second, minute, hour or day), got {raw!r}")
        if int(match[1]) < 1:
            raise ConfigError(f"{name} must allow at least 1 request per window, got {raw!r}")
        rates.append((int(match[1]), _SECONDS_PER[match[2]]))
    return tuple(rates)


def env_networks(name: str, default: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``127.0.0.0/8,::1,10.1.2.0/24`` → those networks (an address alone is a network of one).
    Host bits set (``10.1.2.3/24``) are refused: they usually mean a typing slip."""
    raw = os.environ.get(name, default)
    networks = []
    for item in raw.split(","):
        try:
            networks.append(ipaddress.ip_network(item.strip()))
        except ValueError:
            raise ConfigError(f"{name} must be comma-separated networks or addresses like "
                              f"127.0.0.1/32,::1,10.0.0.0/8, got {raw!r}") from None
    return tuple(networks)
