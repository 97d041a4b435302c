import re

from accounts_testlib import PASSWORD
from django.contrib.auth.models import User
from django.core import mail

NEW_PASSWORD = "another long passphrase"


def test_it_changes_the_password_of_a_signed_in_player(client, alice):
    assert client.get("/accounts/password/change/").status_code == 302  # signed out: to sign in
    client.force_login(alice)
    response = client.post("/accounts/password/change/", {
        "old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 200 and response.context["form"].has_error("old_password")
    response = client.post("/accounts/password/change/", {
        "old_password": PASSWORD, "new_password1": "12345678", "new_password2": "12345678"})
    assert response.context["form"].has_error("new_password2")
    response = client.post("/accounts/password/change/", {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/change/done/"
    assert User.objects.get(pk=alice.pk).check_password(NEW_PASSWORD)
    assert client.get("/accounts/me/").status_code == 200  # still signed in


def test_it_resets_the_password_through_a_link_sent_by_email(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"] and "alice" in message.body
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body).group(1)
    form_page = client.get(link, follow=True)  # Django swaps the token for a session value
    assert form_page.context["validlink"] is True
    response = client.post(form_page.redirect_chain[-1][0],
                           {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/complete/"
    assert User.objects.get(pk=alice.pk).check_password(NEW_PASSWORD)
    assert client.get(link, follow=True).context["validlink"] is False  # used once only


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/sent/"
    assert mail.outbox == []
