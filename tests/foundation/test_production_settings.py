"""Production configuration: refuses the default key, passes check --deploy, serves /healthz."""
import http.client
import subprocess
import sys

import pytest

from tests.live import PROJECT, embedded_env, get_json, services_reachable, start_daphne

STRONG_KEY = "k" * 20 + "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c"


def production_env(tmp_path, **extra):
    values = {"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "127.0.0.1,cards.example",
              "CSRF_TRUSTED_ORIGINS": "https://cards.example", **extra}
    env = embedded_env(tmp_path, **values)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return env


def manage(env, *args):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_it_refuses_to_start_on_the_default_secret_key(tmp_path):
    env = production_env(tmp_path)
    del env["SECRET_KEY"]
    result = manage(env, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_refuses_a_bad_boolean(tmp_path):
    result = manage(production_env(tmp_path, DEBUG="sometimes"), "check")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_it_passes_check_deploy_with_production_settings(tmp_path):
    env = production_env(tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
                         REDIS_URL="redis://127.0.0.1:6379/1")
    result = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.services
@pytest.mark.skipif(not services_reachable(), reason="needs the local PostgreSQL and Redis (always up on CI)")
def test_it_reports_postgres_and_redis_in_healthz_under_production_settings(tmp_path):
    env = production_env(tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
                         REDIS_URL="redis://127.0.0.1:6379/1")
    server = start_daphne(tmp_path, env)
    try:
        health = server.wait_ready()
        assert health["status"] == 200, health
        assert health["body"]["database"] == {"ok": True, "vendor": "postgresql"}
        assert health["body"]["redis"] == {"ok": True, "used": True}
        # /healthz and its two parts are exempt from the HTTPS redirect (load balancers probe
        # them over plain HTTP); every other page is redirected.
        for path in ("/healthz/live", "/healthz/ready"):
            assert get_json(server.url + path)["status"] == 200, path
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/", headers={"Host": "cards.example"})
        response = conn.getresponse()
        assert response.status == 301
        assert response.getheader("Location") == "https://cards.example/"
    finally:
        server.stop()
