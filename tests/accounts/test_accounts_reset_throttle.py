"""Password-reset requests are limited per client address (an IPv6 client's /64), not per
account (issue 35, finding 6): a stranger who asks for many resets of an account's address
uses up their own allowance, and the owner's request still sends the mail."""
from accounts_testlib import addresses_in_one_64, unique_address
from django.core import mail
from django.test import Client

RESET = "/accounts/password/reset/"


def ask(address: str, email: str):
    return Client(REMOTE_ADDR=address).post(RESET, {"email": email})


def test_a_stranger_cannot_spend_the_owners_reset_mails(alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PASSWORD_RESETS_PER_ADDRESS = ((3, 3600),)
    stranger = unique_address()
    for _ in range(3):
        response = ask(stranger, "alice@example.com")
        assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/sent/"
    refused = ask(stranger, "alice@example.com")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert b"Too many password resets asked from your network" in refused.content
    assert len(mail.outbox) == 3
    # Unknown addresses count the same (the answer tells nothing about them).
    assert ask(stranger, "nobody@example.com").status_code == 429
    # The owner, elsewhere, is not affected.
    assert ask(unique_address(), "alice@example.com").status_code == 302
    assert len(mail.outbox) == 4 and mail.outbox[-1].to == ["alice@example.com"]


def test_an_ipv6_client_is_one_address_across_its_64(alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PASSWORD_RESETS_PER_ADDRESS = ((2, 3600),)
    first, second, third = addresses_in_one_64(3)
    assert [ask(address, "nobody@example.com").status_code for address in (first, second, third)] == [
        302, 302, 429]
