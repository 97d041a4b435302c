"""Which language a page is in: Accept-Language, the switcher on every page (a cookie for
visitors, Profile.language for signed-in players, applied at sign-in), URLs without prefixes,
and numbers, dates and e-mails in the player's language."""
import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.models import GameRecord, Profile
from tests.accounts.accounts_testlib import unique_address

PASSWORD = "correct horse battery"
LANG = re.compile(r'<html lang="([a-z-]+)"')


def lang(response) -> str:
    return LANG.search(response.content.decode()).group(1)


@pytest.fixture
def player(db):
    return User.objects.create_user("nadia", "nadia@example.com", PASSWORD)


@pytest.mark.parametrize("header, expected, brand", [
    ("es-ES,es;q=0.9,en;q=0.5", "es", "Mesa de cartas"),
    ("de-AT,de;q=0.9", "de", "Kartentisch"),
    ("ja,en-US;q=0.7", "ja", "カードテーブル"),
    ("fr-FR,fr;q=0.9", "en", "Card Table"),   # a language the site does not speak
    ("", "en", "Card Table"),
])
def test_the_browsers_accept_language_chooses(db, header, expected, brand):
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get("/")
    assert response.status_code == 200 and lang(response) == expected
    assert brand in response.content.decode()
    assert response["Content-Language"] == expected


@pytest.mark.parametrize("url", ["/", "/memory/", "/gin/rules/", "/r/" + "a" * 22,
                                 "/accounts/login/", "/accounts/signup/", "/privacy/",
                                 "/no-such-page/"])
def test_every_page_has_the_switcher(db, url):
    response = Client(HTTP_ACCEPT_LANGUAGE="de").get(url)
    html = response.content.decode()
    form = re.search(r'<form class="lang-switch" method="post" action="/i18n/setlang/".*?</form>', html, re.S)
    assert form, url
    buttons = re.findall(r'<button type="submit" name="language" value="(\w+)" lang="\w+" '
                         r'aria-pressed="(\w+)">([^<]+)</button>', form.group(0))
    assert buttons == [("en", "false", "English"), ("es", "false", "Español"),
                       ("de", "true", "Deutsch"), ("ja", "false", "日本語")]
    assert f'name="next" value="{url}"' in form.group(0)
    assert "csrfmiddlewaretoken" in form.group(0)


def test_a_visitors_choice_is_kept_in_a_cookie_and_wins_over_the_browser(db):
    client = Client(HTTP_ACCEPT_LANGUAGE="de", enforce_csrf_checks=True)
    client.get("/memory/")
    token = client.cookies["csrftoken"].value
    response = client.post("/i18n/setlang/", {"language": "ja", "next": "/memory/",
                                              "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/memory/"
    assert client.cookies["django_language"].value == "ja"
    page = client.get("/memory/")
    assert lang(page) == "ja" and "神経衰弱" in page.content.decode()
    # The same URLs in every language: no /ja/ prefix exists.
    assert client.get("/ja/memory/").status_code == 404


def test_the_switcher_refuses_what_it_should(db, player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    client.get("/")
    assert client.post("/i18n/setlang/", {"language": "es"}).status_code == 403  # no CSRF token
    assert client.get("/i18n/setlang/?language=es").status_code == 405
    token = client.cookies["csrftoken"].value
    response = client.post("/i18n/setlang/", {"language": "xx", "csrfmiddlewaretoken": token,
                                              "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == "/"  # not off the site
    assert "django_language" not in client.cookies
    assert Profile.objects.get(user=player).language == ""


def test_a_signed_in_players_choice_is_kept_on_the_account_and_applied_at_sign_in(db, player):
    laptop = Client(HTTP_ACCEPT_LANGUAGE="en")
    laptop.force_login(player)
    laptop.post("/i18n/setlang/", {"language": "de", "next": "/accounts/me/"})
    assert Profile.objects.get(user=player).language == "de"
    # Another browser, which asks for English: signing in brings the account's language.
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = phone.post("/accounts/login/", {"username": "nadia", "password": PASSWORD})
    assert response.status_code == 302
    assert phone.cookies["django_language"].value == "de"
    me = phone.get("/accounts/me/")
    assert lang(me) == "de" and "Datenschutz" in me.content.decode()
    # Download my data tells the choice too.
    assert phone.get("/accounts/me/export/").json()["account"]["language"] == "de"


def test_an_account_without_a_language_adopts_the_browsers_choice_at_sign_in(db, player):
    client = Client()
    client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    client.post("/accounts/login/", {"username": "nadia", "password": PASSWORD})
    assert Profile.objects.get(user=player).language == "es"


def test_signing_up_keeps_the_language_chosen_before(db):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post("/i18n/setlang/", {"language": "ja", "next": "/accounts/signup/"})
    response = client.post("/accounts/signup/", {"username": "kenji", "password1": PASSWORD,
                                                 "password2": PASSWORD})
    assert response.status_code == 302
    assert Profile.objects.get(user__username="kenji").language == "ja"


def test_form_errors_are_in_the_pages_language(db):
    response = Client(HTTP_ACCEPT_LANGUAGE="es").post(
        "/accounts/signup/", {"username": "x", "password1": PASSWORD, "password2": "other one"})
    html = response.content.decode()
    assert response.status_code == 400 and "no coinciden" in html  # Django's own Spanish


def test_numbers_and_dates_follow_the_language(db, player):
    when = datetime(2026, 3, 14, 15, 9, tzinfo=UTC)
    for result in ("win", "loss", "loss"):
        GameRecord.objects.create(user=player, game="gin", mode="cpu", cpu_level="normal",
                                  options={"players": 2, "target": 100}, seat=0, players=2,
                                  result=result, rank=1, score=1234, moves=80,
                                  duration_seconds=754.0, started_at=when, finished_at=when)
    pages = {}
    for language in ("en", "de", "ja", "es"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(player)
        pages[language] = client.get("/accounts/me/").content.decode()
    assert '<dd id="win-rate">33%</dd>' in pages["en"]
    assert '<dd id="win-rate">33 %</dd>' in pages["de"] and '<dd id="win-rate">33%</dd>' in pages["ja"]
    assert "03/14/2026" in pages["en"] and "14.03.2026" in pages["de"]
    assert "2026/03/14" in pages["ja"] and "14/03/2026" in pages["es"]
    assert "Gin Rommé" in pages["de"] and "ジン・ラミー" in pages["ja"]


def test_the_reset_email_is_in_the_accounts_language(db, player):
    Profile.objects.filter(user=player).update(language="ja")
    # From an address of its own: reset requests are counted per address in the cache (Redis),
    # which outlives earlier runs.
    Client(HTTP_ACCEPT_LANGUAGE="de", REMOTE_ADDR=unique_address()).post(
        "/accounts/password/reset/", {"email": "nadia@example.com"})
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.subject == "カードテーブル：新しいパスワードの設定"
    assert "nadia さん" in message.body and "このメールは無視してください" in message.body
