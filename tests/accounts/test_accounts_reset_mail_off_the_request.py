"""The reset page answers before any mail is sent (issue 35, finding 8): a Celery worker looks
the address up and sends the mail, so a known address and an unknown one get the same answer
in the same time (the page had answered a known one ten times slower, sending as it went).

Against the real thing: a server and a Celery worker on PostgreSQL and Redis, as deployed. With
no worker running, both requests are answered and no mail exists; the worker then sends one,
to the known address."""
import secrets
import subprocess
import time

import psycopg
import pytest
from accounts_testlib import Browser
from django.conf import settings

from tests.e2e.conftest import SERVICES_DB_ADMIN, _drop_database
from tests.live import PROJECT, VENV_BIN, embedded_env, migrate, start_daphne

pytestmark = [pytest.mark.services,
              pytest.mark.skipif(settings.TEST_BACKEND != "services", reason="needs PostgreSQL and Redis")]


def _mails(folder) -> list[str]:
    return [path.read_text() for path in folder.glob("*.log")] if folder.exists() else []


def test_it_answers_known_and_unknown_addresses_before_any_mail_is_sent(tmp_path):
    name = f"reset_{secrets.token_hex(6)}"
    email = f"{name}@example.com"
    with psycopg.connect(SERVICES_DB_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    env = embedded_env(tmp_path, EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                       EMAIL_FILE_PATH=str(tmp_path / "mail"))
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    env["REDIS_URL"] = settings.REDIS_URL
    server = worker = None
    try:
        migrate(env)
        subprocess.run([str(VENV_BIN / "python"), "manage.py", "createsuperuser", "--noinput"], cwd=PROJECT,
                       env={**env, "DJANGO_SUPERUSER_USERNAME": name, "DJANGO_SUPERUSER_EMAIL": email,
                            "DJANGO_SUPERUSER_PASSWORD": "correct horse battery"}, check=True, timeout=60)
        server = start_daphne(tmp_path, env)
        server.wait_ready()
        for address in (email, f"nobody-{name}@example.com"):
            status, url = Browser(server.url).submit("/accounts/password/reset/", {"email": address})
            assert (status, url) == (200, server.url + "/accounts/password/reset/sent/")
        time.sleep(1)
        assert _mails(tmp_path / "mail") == []  # nothing was sent while the requests waited
        worker = subprocess.Popen([str(VENV_BIN / "celery"), "-A", "config", "worker", "--pool", "solo",
                                   "--loglevel", "WARNING"], cwd=PROJECT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not _mails(tmp_path / "mail") and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(1)  # (a second mail, if there were one, would be sent just after the first)
        mails = _mails(tmp_path / "mail")
        assert len(mails) == 1 and f"To: {email}" in mails[0]
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
        if server is not None:
            server.stop()
        _drop_database(name)
