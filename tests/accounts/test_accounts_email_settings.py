"""Password-reset mail: printed to the console by the embedded default, SMTP from the environment in production."""
import json
import subprocess
import sys

from tests.live import PROJECT, embedded_env

STRONG_KEY = "k" * 20 + "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c"
SHOW = ("import json; from django.conf import settings as s; print(json.dumps([s.EMAIL_BACKEND, "
        "s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL]))")


def email_settings(env):
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", SHOW], cwd=PROJECT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_embedded_default_prints_mail_to_the_console(tmp_path):
    assert email_settings(embedded_env(tmp_path))[0] == "django.core.mail.backends.console.EmailBackend"


def test_production_sends_by_smtp_configured_from_the_environment(tmp_path):
    env = embedded_env(tmp_path, DEBUG="0", SECRET_KEY=STRONG_KEY, ALLOWED_HOSTS="cards.example",
                       EMAIL_HOST="smtp.cards.example", EMAIL_PORT="587", EMAIL_HOST_USER="mailer",
                       EMAIL_USE_TLS="1", DEFAULT_FROM_EMAIL="Cards <noreply@cards.example>")
    assert email_settings(env) == ["django.core.mail.backends.smtp.EmailBackend", "smtp.cards.example",
                                   587, "mailer", True, "Cards <noreply@cards.example>"]
