"""Settings come from the environment (config/env.py); the defaults are the embedded site.

Embedded default: SQLite in the project folder, Celery tasks run in-process. Production:
DATABASE_URL (PostgreSQL) and REDIS_URL (the rooms' notices between processes, cache, Celery
broker), SECRET_KEY, DEBUG=0, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS.
"""
from datetime import timedelta
from pathlib import Path

from celery.schedules import crontab

from .env import (
    ConfigError,
    database_from_url,
    env_bool,
    env_float,
    env_float_or_none,
    env_int,
    env_list,
    env_networks,
    env_positive_float,
    env_rates,
    env_secret_key,
    env_str,
    redis_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEFAULT_SECRET_KEY = "dev-only-insecure-key-change-me"
DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_secret_key("SECRET_KEY", DEFAULT_SECRET_KEY, DEBUG)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "games",
    "accounts",
    "telemetry",
]

MIDDLEWARE = [
    # Outside SecurityMiddleware, so that its HTTP-to-HTTPS redirect carries the site's security
    # headers too; before WhiteNoise, so static files get the policy (an SVG opened directly).
    "server.headers.SecurityHeadersMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages, /jsi18n/ and the API's JSON compressed (WhiteNoise above serves static files already
    # compressed). BREACH needs a secret and the attacker's text in one compressed body: Django's
    # CSRF token is masked anew in every response and its GZip adds random bytes to each one, and
    # no page holds another secret (seat tokens stay in the browser's storage and the WebSocket).
    "django.middleware.gzip.GZipMiddleware",
    # A view that found no pooled database connection: 503 with Retry-After (server/errors.py).
    "server.errors.BusyDatabaseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Last, as axes asks: turns a locked-out sign-in into its 429 (accounts/signin_throttle.py).
    "axes.middleware.AxesMiddleware",
]
# Database sessions that name their account, so deleting an account ends all of its sessions
# (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
# The largest WebSocket message (and frame) Daphne reads before it drops the connection; `manage.py
# serve` and `runserver` both pass it on. The rooms refuse anything over 4 KiB with an error of
# their own (games/consumers.py), so this only has to lie well above that: a client that sends a
# few megabytes by mistake is told why instead of losing its connection (docs/protocol.md, "Rate
# and size"). Daphne buffers a whole message first, so it stays a few megabytes, not unlimited.
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = 4 * 1024 * 1024
# Seconds a client has to send a request's line and headers before `manage.py serve` drops the
# connection (as the balancer's `timeout http-request`, for a Daphne reached directly).
HTTP_HEADER_TIMEOUT = env_float("HTTP_HEADER_TIMEOUT", 10.0)
if HTTP_HEADER_TIMEOUT <= 0:
    raise ConfigError(f"HTTP_HEADER_TIMEOUT must be more than 0, got {HTTP_HEADER_TIMEOUT:g}")

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.context_processors.games",
            ],
        },
    },
]

# PostgreSQL connections one process lends to page requests and tasks, and how long a request
# waits for one before it is answered 503 (config/env.py, server/errors.py).
DB_POOL_MAX = env_int("DB_POOL_MAX", 10)
DB_POOL_TIMEOUT = env_float("DB_POOL_TIMEOUT", 10.0)
for _name, _value in (("DB_POOL_MAX", DB_POOL_MAX), ("DB_POOL_TIMEOUT", DB_POOL_TIMEOUT)):
    if _value <= 0:
        raise ConfigError(f"{_name} must be more than 0, got {_value:g}")
DATABASES = {"default": database_from_url(env_str("DATABASE_URL", "sqlite:///db.sqlite3"), BASE_DIR,
                                          DB_POOL_MAX, DB_POOL_TIMEOUT)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = redis_url()
# No CHANNEL_LAYERS: no consumer has a channel of its own (games/consumers.py); the rooms'
# notices between processes travel on their own Redis link (games/rooms/fanout.py).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: the Redis broker in production; in the embedded default tasks run in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", REDIS_URL is None)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Every server process starts server/embedded_beat.py's thread from config/asgi.py. The test
# process imports config/asgi.py too, and there the thread would delete and write rows of the
# test database behind the tests' backs (config/test_settings.py turns it off).
EMBEDDED_BEAT = True
CELERY_BEAT_SCHEDULE = {
    # Without beat (the embedded default) server/embedded_beat.py runs the same tasks from the
    # server process. Anonymous statistics are deleted 30 days after they arrive.
    "telemetry-purge": {"task": "telemetry.purge_expired_events",
                        "schedule": crontab(hour=3, minute=17)},
    # (Statistics and the operators' copy of finished games wait in each server process's memory
    # and are flushed by that process: server/hourly_buffer.py, not by beat.)
    # Rooms nobody has touched for a day are deleted with their events (games/rooms/cleanup.py).
    "rooms-cleanup": {"task": "games.delete_idle_rooms", "schedule": crontab(minute=30)},
    # Sessions are deleted once expired (SESSION_COOKIE_AGE, two weeks after their last use):
    # Django leaves an expired row until its own browser returns (accounts/tasks.py).
    "sessions-cleanup": {"task": "accounts.clear_expired_sessions", "schedule": crontab(hour=4, minute=7)},
}

# Proxies in front of Daphne that append to X-Forwarded-For: every per-address limit (rooms,
# telemetry) counts the client they saw (server/client_address.py). The variable keeps its
# first name, TELEMETRY_PROXY_HOPS, though it serves every limit.
CLIENT_PROXY_HOPS = env_int("TELEMETRY_PROXY_HOPS", 0)
if CLIENT_PROXY_HOPS < 0:
    raise ConfigError(f"TELEMETRY_PROXY_HOPS must be 0 or more, got {CLIENT_PROXY_HOPS}")

# Networks whose clients may read GET /metrics, straight from a web process, never through the
# balancer (games/metrics.py): loopback only unless METRICS_ALLOW says more.
METRICS_ALLOW = env_networks("METRICS_ALLOW", "127.0.0.0/8,::1")

# Rooms one client may create, per address and per signed-in account: (requests, seconds)
# windows in the shared cache (games/rooms/limits.py).
ROOMS_PER_ADDRESS = env_rates("ROOMS_PER_ADDRESS", "20/minute,200/hour")
ROOMS_PER_ACCOUNT = env_rates("ROOMS_PER_ACCOUNT", "20/minute,200/hour")

TELEMETRY = {
    "RETENTION_DAYS": 30,
    "PURGE_BATCH": env_int("TELEMETRY_PURGE_BATCH", 20_000),
    "EMBEDDED_PURGE_INTERVAL": env_float("TELEMETRY_EMBEDDED_PURGE_INTERVAL", 24 * 3600.0),
    # seconds between a server process's flushes of what it holds (server/hourly_buffer.py)
    "FLUSH_INTERVAL": env_float("TELEMETRY_FLUSH_INTERVAL", 3600.0),
    "RATE_LIMIT": env_int("TELEMETRY_RATE_LIMIT", 120),      # requests per address per window,
    "RATE_WINDOW": env_float("TELEMETRY_RATE_WINDOW", 60.0),  # per process (docs/telemetry.md)
    "MAX_BODY": env_int("TELEMETRY_MAX_BODY", 32 * 1024),
}

# Rooms unchanged for IDLE_HOURS, with no connection and no step due, are deleted
# (games/rooms/cleanup.py): hourly by beat, or every EMBEDDED_INTERVAL seconds without it.
ROOM_CLEANUP = {
    "IDLE_HOURS": 24,
    "BATCH": env_int("ROOM_CLEANUP_BATCH", 500),
    "EMBEDDED_INTERVAL": env_float("ROOM_CLEANUP_EMBEDDED_INTERVAL", 3600.0),
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/me/"
LOGOUT_REDIRECT_URL = "/"

# Sign-in throttling, for the site's sign-in page and the admin's together
# (accounts/signin_throttle.py): AXES_FAILURE_LIMIT failures for one username from one address,
# or SIGN_IN_FAILURES_PER_ADDRESS from one address across usernames, lock for AXES_COOLOFF_TIME
# after the latest failure. Counted in the cache (Redis in production), never in the database.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.signin_throttle.AddressThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_FAILURE_LIMIT = env_int("SIGN_IN_FAILURES_PER_USERNAME", 5)
SIGN_IN_FAILURES_PER_ADDRESS = env_int("SIGN_IN_FAILURES_PER_ADDRESS", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("SIGN_IN_LOCK_MINUTES", 15))
for _name, _value in (("SIGN_IN_FAILURES_PER_USERNAME", AXES_FAILURE_LIMIT),
                      ("SIGN_IN_FAILURES_PER_ADDRESS", SIGN_IN_FAILURES_PER_ADDRESS),
                      ("SIGN_IN_LOCK_MINUTES", AXES_COOLOFF_TIME.total_seconds() // 60)):
    if _value < 1:
        raise ConfigError(f"{_name} must be 1 or more, got {_value:g}")
# Per client address (an IPv6 client's /64), in the shared cache (server/rate_limit.py): accounts
# made, and password-reset requests (counted whatever the address, so a stranger cannot spend an
# account's allowance and the answer tells nothing). Beyond them 429 with Retry-After.
SIGN_UPS_PER_ADDRESS = env_rates("SIGN_UPS_PER_ADDRESS", "10/hour,50/day")
PASSWORD_RESETS_PER_ADDRESS = env_rates("PASSWORD_RESETS_PER_ADDRESS", "5/hour,20/day")
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_FORM_FIELD = "username"  # the site's form and the admin's
# Axes gets keyed digests instead of the address and the username, so nothing it keeps or
# logs names either.
AXES_CLIENT_IP_CALLABLE = "accounts.signin_throttle.address_key"
AXES_USERNAME_CALLABLE = "accounts.signin_throttle.username_key"
AXES_LOCKOUT_CALLABLE = "accounts.signin_throttle.lockout_response"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_ENABLE_ADMIN = False
AXES_DISABLE_ACCESS_LOG = True
AXES_ENABLE_ACCESS_FAILURE_LOG = False
if REDIS_URL is None:
    # axes.W001 warns that an in-memory cache is not shared between processes; the embedded
    # default is one process.
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

LANGUAGE_CODE = "en"
# The language cookie (accounts/language.py) is sent on same-site requests and top-level
# navigations only, like the session's (Django's default for its own cookies).
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGES = [("en", "English"), ("es", "Español"), ("de", "Deutsch"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# The browser client lives in site/ and is served as static files under /static/.
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "site"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "server.static_storage.HashedModulesStaticFilesStorage"
        if not DEBUG else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend")
# For EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend: one file per mail in this
# folder (tests read password-reset links there, apart from the server's log).
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Card Table <noreply@localhost>")

# Behind a TLS-terminating proxy in production.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz(/live|/ready)?$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Dotted paths of more GameSpecs (games/specs.py) registered at start-up beside the site's own
# games; the tests add a toy game this way.
EXTRA_GAMES = env_list("EXTRA_GAMES", [])

# Each game's delays are its GameSpec's (games/specs.py, ``Delays``); these variables override
# them, in seconds (tests shorten them): "<game>_cpu" is a CPU seat's wait before each of its
# actions, "<game>_<step>" the wait before the engine's automatic step of that name. A Gin hand's
# result stays until a player sends next_hand, unless GIN_NEXT_HAND_DELAY is set: then the server
# deals the next hand by itself after that long.
GAME_DELAYS = {key: seconds for key, seconds in (
    ("memory_cpu", env_float_or_none("CPU_DELAY_MEMORY_FLIP")),
    ("memory_conceal", env_float_or_none("MEMORY_CONCEAL_DELAY")),
    ("bozu_cpu", env_float_or_none("CPU_DELAY_BOZU_FLIP")),
    ("gin_cpu", env_float_or_none("CPU_DELAY_GIN_STEP")),
    ("gin_next_hand", env_float_or_none("GIN_NEXT_HAND_DELAY")),
) if seconds is not None}
# The rooms' own timing, whatever the game (seconds). Tests shorten these through the environment.
GAME_TIMING = {
    "takeover": env_float("SEAT_TAKEOVER_DELAY", 45.0),
    # Server processes' heartbeat (games/rooms/processes.py): a process silent this long is dead.
    "heartbeat": env_float("SERVER_HEARTBEAT_SECONDS", 5.0),
    "process_dead_after": env_float("SERVER_DEAD_AFTER", 20.0),
}
# Multiplies every pace's seconds per turn and a relaxed room's two minutes before the others may
# let the CPU play (games/rooms/pace.py): tests and operators shorten or lengthen them.
PACE_SCALE = env_positive_float("PACE_SCALE", 1.0)

# Plain lines, or one JSON object a line for a log collector (LOG_FORMAT=json): scrubbed alike.
LOG_FORMAT = env_str("LOG_FORMAT", "plain")
if LOG_FORMAT not in ("plain", "json"):
    raise ConfigError(f"LOG_FORMAT must be plain or json, got {LOG_FORMAT!r}")
# Error reports to a Sentry-compatible service, scrubbed as the logs are (telemetry/errors.py):
# off unless set.
SENTRY_DSN = env_str("SENTRY_DSN", "").strip() or None

# Logging never records a client address, a room id or a token, however the server is started
# (telemetry/logs.py). The one handler scrubs every record: addresses, and the secret parts of
# paths (Django's request warnings name the path) become placeholders, and the request (and its
# META) is dropped. Every logger reaches it: Daphne's and Twisted's propagate to the root, and
# "django" writes only through it, so Django's default mail_admins handler (request META in the
# mail) is gone. Daphne's access log is no logger: config/asgi.py scrubs it.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"scrub": {"()": "telemetry.logs.ScrubLogRecord"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
                   "json": {"()": "telemetry.logs.JsonLines"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT,
                             "filters": ["scrub"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"level": "ERROR"},
        "axes": {"level": "ERROR"},  # a line per attempt, naming no one (AXES_CLIENT_IP_CALLABLE)
    },
}
DEFAULT_EXCEPTION_REPORTER_FILTER = "telemetry.logs.NoAddressReporterFilter"
