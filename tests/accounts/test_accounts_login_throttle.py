"""Sign-in throttling (accounts/signin_throttle.py): per username at one address, per address
across usernames, lifted by a password reset; 429 with Retry-After, no address kept."""
import logging
import re
import secrets
import time
from datetime import timedelta

import pytest
from accounts_testlib import PASSWORD, addresses_in_one_64, unique_address
from asgiref.sync import sync_to_async
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.db import connections
from django.test import AsyncClient, Client

LOGIN = "/accounts/login/"
NEW_PASSWORD = "another long passphrase"


def sign_in(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


def assert_locked(response, settings):
    assert response.status_code == 429
    assert response["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    assert b"Too many failed sign-in attempts" in response.content
    assert b'name="username"' in response.content  # the site's own sign-in page


def test_a_username_at_one_address_is_locked_even_for_the_right_password(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(client, "alice", "guess").status_code == 400
    assert_locked(sign_in(client, "alice", "guess"), settings)
    assert_locked(sign_in(client, "alice", PASSWORD), settings)
    assert_locked(sign_in(client, "ALICE", PASSWORD), settings)  # one count for every case
    assert "_auth_user_id" not in client.session


def test_a_stranger_elsewhere_cannot_lock_the_owner_out(client, alice, settings):
    stranger = Client(REMOTE_ADDR=unique_address())
    for _ in range(settings.AXES_FAILURE_LIMIT + 3):
        sign_in(stranger, "alice", "guess")
    assert sign_in(stranger, "alice", PASSWORD).status_code == 429
    response = sign_in(client, "alice", PASSWORD)
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(alice.id)


def test_one_address_trying_many_usernames_is_throttled(client, alice, make_user, settings):
    make_user("bob")
    names = [f"someone{number}" for number in range(12)]
    answers = [sign_in(client, name, "guess").status_code for name in names]
    limit = settings.SIGN_IN_FAILURES_PER_ADDRESS
    assert answers[:limit] == [400] * limit and set(answers[limit:]) == {429}
    # Past the limit the address is refused for every name, a right password included...
    response = sign_in(client, "bob", PASSWORD)
    assert_locked(response, settings)
    assert "_auth_user_id" not in client.session
    # ...and the admin's sign-in page shares the count.
    response = client.post("/admin/login/", {"username": "bob", "password": PASSWORD})
    assert response.status_code == 429 and response["Retry-After"]
    # Another address is not affected.
    other = Client(REMOTE_ADDR=unique_address())
    assert sign_in(other, "bob", PASSWORD).status_code == 302


def test_a_success_forgets_the_failures_of_that_username_and_address(client, alice, settings):
    for _ in range(2):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            assert sign_in(client, "alice", "guess").status_code == 400
        assert sign_in(client, "alice", PASSWORD).status_code == 302
        client.logout()


def test_the_lock_ends_with_its_window(client, alice, settings):
    settings.AXES_COOLOFF_TIME = timedelta(seconds=1)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "alice", "guess")
    assert_locked(sign_in(client, "alice", PASSWORD), settings)
    time.sleep(1.5)  # the cache forgets the counts when the window ends
    assert sign_in(client, "alice", PASSWORD).status_code == 302


def test_an_address_stays_locked_while_it_keeps_trying_then_the_window_passes(client, alice, settings):
    settings.AXES_COOLOFF_TIME = timedelta(seconds=2)
    for number in range(settings.SIGN_IN_FAILURES_PER_ADDRESS):
        sign_in(client, f"someone{number}", "guess")
    time.sleep(1.2)
    assert_locked(sign_in(client, "alice", PASSWORD), settings)  # refused, and counted...
    time.sleep(1.2)
    assert_locked(sign_in(client, "alice", PASSWORD), settings)  # ...so the lock goes on
    time.sleep(2.5)  # a whole window without an attempt
    assert sign_in(client, "alice", PASSWORD).status_code == 302


def reset_password(client, email, new_password):
    mail.outbox.clear()
    client.post("/accounts/password/reset/", {"email": email})
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    response = client.post(form_page.redirect_chain[-1][0],
                           {"new_password1": new_password, "new_password2": new_password})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/complete/"


def test_a_password_reset_lifts_the_lock_at_every_address(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    attacker = Client(REMOTE_ADDR=unique_address())
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(attacker, "alice", "guess")
        sign_in(client, "alice", "forgotten")
    assert sign_in(client, "alice", PASSWORD).status_code == 429
    reset_password(Client(REMOTE_ADDR=unique_address()), "alice@example.com", NEW_PASSWORD)
    response = sign_in(client, "alice", NEW_PASSWORD)
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(alice.id)
    # The attacker's address starts afresh too, with a full count to go before the next lock.
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(attacker, "alice", "guess").status_code == 400
    assert sign_in(attacker, "alice", "guess").status_code == 429


def stored_cache_entries() -> dict:
    """Every key and value in the test cache: Redis in the services backend, else in-memory.
    The cache writes plain string values; the same Redis database also holds the channel
    layer's sorted sets and lists (other tests'), which are not the cache's and are skipped."""
    if hasattr(cache._cache, "get_client"):  # django.core.cache.backends.redis
        client = cache._cache.get_client()
        return {key: client.get(key) for key in client.scan_iter(_type="string")}
    return {key.encode(): value for key, value in cache._cache.items()}


def test_no_address_is_kept_in_the_database_the_cache_or_the_logs(client, alice, make_user,
                                                                   settings, caplog):
    address = "203.0.113.77"
    visitor = Client(REMOTE_ADDR=address)
    make_user("carol")
    with caplog.at_level(logging.DEBUG):
        for _ in range(settings.AXES_FAILURE_LIMIT + 1):
            sign_in(visitor, "alice", "guess")  # into the username lock
        for number in range(settings.SIGN_IN_FAILURES_PER_ADDRESS):
            sign_in(visitor, f"nobody{number}", "guess")  # into the address lock
        visitor.post("/admin/login/", {"username": "alice", "password": "guess"})
        assert sign_in(Client(REMOTE_ADDR="203.0.113.78"), "carol", PASSWORD).status_code == 302
    assert AccessAttempt.objects.count() == AccessLog.objects.count() == AccessFailureLog.objects.count() == 0
    assert not any(address in record.getMessage() or "203.0.113.78" in record.getMessage()
                   for record in caplog.records)
    entries = stored_cache_entries()
    assert any(b"signin" in key or b"axes" in key for key in entries)  # the counts are there...
    for key, value in entries.items():  # ...and name no one
        for secret in (address.encode(), b"203.0.113.78", b"alice", b"nobody"):
            assert secret not in key and secret not in str(value).encode()


@pytest.mark.django_db(transaction=True)  # the handler's thread sees the committed user
async def test_the_lock_holds_through_the_asgi_handler_daphne_serves(settings):
    # Axes's middleware takes another path under ASGI (and calls the lockout answer with its
    # arguments in another order).
    await sync_to_async(User.objects.create_user)("alice", password=PASSWORD)
    # The test client's peer is always 127.0.0.1: the address comes through one trusted proxy.
    settings.CLIENT_PROXY_HOPS = 1
    forwarded = {"X-Forwarded-For": unique_address()}
    client = AsyncClient()
    try:
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            response = await client.post(LOGIN, {"username": "alice", "password": "guess"}, headers=forwarded)
            assert response.status_code == 400
        for password in ("guess", PASSWORD):
            response = await client.post(LOGIN, {"username": "alice", "password": password}, headers=forwarded)
            assert_locked(response, settings)
    finally:
        await sync_to_async(connections.close_all)()


# ---- issue 35, finding 6: what the limits count ---------------------------------------------


@pytest.fixture
def ann(make_user):
    """A player whose name no earlier test used: a reset's lifted lock outlives its test in the
    shared cache (Redis) for the lock's whole window."""
    name = f"ann{secrets.token_hex(4)}"
    return make_user(name, email=f"{name}@example.com")


def sign_out(client) -> None:
    # As the site's button does: the test client's logout() would drop every cookie too.
    assert client.post("/accounts/logout/").status_code == 302


def spray(address: str, settings) -> None:
    """A stranger at ``address`` guesses across usernames until the address is locked."""
    stranger = Client(REMOTE_ADDR=address)
    for number in range(settings.SIGN_IN_FAILURES_PER_ADDRESS):
        sign_in(stranger, f"nobody{number}", "guess")
    assert_locked(sign_in(stranger, "nobody", "guess"), settings)


def test_an_ipv6_client_is_one_address_across_its_64(ann, make_user, settings):
    make_user("bob")
    addresses = addresses_in_one_64(settings.SIGN_IN_FAILURES_PER_ADDRESS + 1)
    for number, address in enumerate(addresses[:-1]):
        assert sign_in(Client(REMOTE_ADDR=address), f"nobody{number}", "guess").status_code == 400
    assert_locked(sign_in(Client(REMOTE_ADDR=addresses[-1]), "bob", PASSWORD), settings)


def test_a_browser_that_signed_in_before_is_counted_apart_from_the_address(ann, settings):
    # The owner signed in at school once; a stranger there then locks the school's address,
    # and her name at that address too.
    school = unique_address()
    owner = Client(REMOTE_ADDR=school)
    assert sign_in(owner, ann.username, PASSWORD).status_code == 302
    sign_out(owner)
    spray(school, settings)
    stranger = Client(REMOTE_ADDR=school)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(stranger, ann.username, "guess")
    # The owner's browser carries its device cookie: counted apart, it signs in.
    response = sign_in(owner, ann.username, PASSWORD)
    assert response.status_code == 302 and owner.session["_auth_user_id"] == str(ann.id)
    # Guessing stays locked: the stranger's browser, even with the right password.
    assert_locked(sign_in(stranger, ann.username, PASSWORD), settings)
    # The cookie is for ann alone: the owner's browser is the school's address for others.
    sign_out(owner)
    assert_locked(sign_in(owner, "bob", PASSWORD), settings)
    # Its own failures lock only that browser.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(owner, ann.username, "typo")
    assert_locked(sign_in(owner, ann.username, PASSWORD), settings)
    # A cookie made up (or another site's) counts for nothing.
    forged = Client(REMOTE_ADDR=school)
    forged.cookies["signin_device"] = owner.cookies["signin_device"].value.replace(":", ":0", 1)
    assert_locked(sign_in(forged, ann.username, PASSWORD), settings)


def test_a_password_reset_lifts_the_address_lock_for_that_account_only(ann, make_user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    make_user("bob")
    school = unique_address()
    spray(school, settings)
    laptop = Client(REMOTE_ADDR=school)
    assert_locked(sign_in(laptop, ann.username, PASSWORD), settings)
    reset_password(Client(REMOTE_ADDR=unique_address()), ann.email, NEW_PASSWORD)  # a phone
    response = sign_in(laptop, ann.username, NEW_PASSWORD)
    assert response.status_code == 302 and laptop.session["_auth_user_id"] == str(ann.id)
    # Every other account stays locked at that address, and guessing her password there
    # locks her name again after the username's own count.
    assert_locked(sign_in(Client(REMOTE_ADDR=school), "bob", PASSWORD), settings)
    stranger = Client(REMOTE_ADDR=school)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(stranger, ann.username, "guess").status_code == 400
    assert_locked(sign_in(stranger, ann.username, "guess"), settings)


@pytest.mark.parametrize("page, fields", [
    ("/accounts/password/change/", lambda password: {
        "old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}),
    ("/accounts/me/delete/", lambda password: {"password": password}),
])
def test_a_signed_in_password_check_counts_like_a_sign_in(ann, settings, page, fields):
    # A stolen session cannot guess the password either: the failures are the sign-in's.
    thief = Client(REMOTE_ADDR=unique_address())
    thief.force_login(ann)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert thief.post(page, fields("guess")).status_code in (200, 400)
    response = thief.post(page, fields("guess"))
    assert response.status_code == 429
    assert response["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    assert b"Too many wrong passwords" in response.content
    assert thief.post(page, fields(PASSWORD)).status_code == 429  # the right one too
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)
    # The same count as the sign-in page's: her name is locked there at that address.
    thief.logout()
    assert_locked(sign_in(thief, ann.username, PASSWORD), settings)
