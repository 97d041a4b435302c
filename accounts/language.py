"""The site language a player chose, remembered twice: Django's language cookie for every
visitor (read by LocaleMiddleware), and Profile.language for signed-in players, so the choice
follows them to any browser they sign in on. URLs carry no language prefix."""
from __future__ import annotations

from django.conf import settings
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from .models import Profile

LANGUAGES = dict(settings.LANGUAGES)


def chosen_in_browser(request) -> str:
    """The language this browser's cookie holds, if it is one the site speaks."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return code if code in LANGUAGES else ""


def set_cookie(response, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE)


@require_POST
def set_language(request):
    """The switcher's form: Django's set_language (cookie, then back to ``next``); a signed-in
    player's choice is kept on the account as well. An unknown code changes nothing."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if code in LANGUAGES and request.user.is_authenticated:
        profile = Profile.of(request.user)
        profile.language = code
        profile.save(update_fields=["language"])
    return response


def apply_on_sign_in(request, user, response) -> None:
    """At sign-in the account's language wins; an account without one adopts the choice this
    browser made before signing in."""
    profile = Profile.of(user)
    if profile.language:
        if chosen_in_browser(request) != profile.language:
            set_cookie(response, profile.language)
    else:
        code = chosen_in_browser(request)
        if code:
            profile.language = code
            profile.save(update_fields=["language"])
