"""Usernames are normalised (NFKC) and refused when they look like a taken one (accounts/lookalikes.py)."""
import pytest
from accounts_testlib import PASSWORD
from django.contrib.auth.models import User


def sign_up(client, username):
    return client.post("/accounts/signup/", {"username": username, "password1": PASSWORD,
                                             "password2": PASSWORD})


@pytest.mark.parametrize("lookalike", [
    "\u0430lice",  # Cyrillic а
    "ALICE",       # only the case differs
    "AIice",       # capital I for l
    "al\u0456ce",  # Cyrillic і
    "\uff41lice",  # fullwidth ａ (NFKC makes it "alice")
])
def test_a_name_that_looks_like_a_taken_one_is_refused(client, alice, lookalike):
    response = sign_up(client, lookalike)
    assert response.status_code == 400 and response.context["form"].has_error("username")
    assert User.objects.count() == 1


def test_the_lookalike_check_works_both_ways(client, make_user):
    make_user("b0b")
    response = sign_up(client, "bob")
    assert response.status_code == 400
    assert response.context["form"].has_error("username", "lookalike")
    assert b"looks too much like" in response.content


def test_a_different_name_is_accepted(client, alice):
    assert sign_up(client, "alicia").status_code == 302
    assert User.objects.filter(username="alicia").exists()


def test_names_are_stored_in_nfkc_and_sign_in_in_any_compatible_form(client, db):
    assert sign_up(client, "\ufb01le").status_code == 302  # the ﬁ ligature
    user = User.objects.get()
    assert user.username == "file"
    client.logout()
    response = client.post("/accounts/login/", {"username": "\ufb01le", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(user.id)
