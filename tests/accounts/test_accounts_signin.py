from accounts_testlib import PASSWORD
from django.test import Client


def test_it_signs_in_and_redirects_to_next(client, alice):
    response = client.post("/accounts/login/?next=/r/room1", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/r/room1"
    assert client.session["_auth_user_id"] == str(alice.id)


def test_a_wrong_password_is_refused(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session


def test_it_refuses_a_post_without_the_csrf_token(alice):
    response = Client(enforce_csrf_checks=True).post("/accounts/login/",
                                                      {"username": "alice", "password": PASSWORD})
    assert response.status_code == 403


def test_sign_out_is_a_post_with_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/accounts/me/")
    assert b'action="/accounts/logout/"' in page.content
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 403
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else client.cookies["csrftoken"].value
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "_auth_user_id" not in client.session
