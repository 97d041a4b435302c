"""Sessions name their account (accounts/sessions.py): whatever changes a session's key, the row
still names the account, so deleting it ends them all; upgrading moves the sessions Django kept
until now, so nobody is signed out."""
from accounts_testlib import PASSWORD
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session as DjangoSession
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from accounts.sessions import Session


def test_a_changed_password_keeps_the_new_session_named_and_deletion_ends_it(alice):
    laptop = Client()
    laptop.force_login(alice)
    before = laptop.cookies["sessionid"].value
    response = laptop.post("/accounts/password/change/", {
        "old_password": PASSWORD, "new_password1": "another horse battery",
        "new_password2": "another horse battery"})
    assert response.status_code == 302
    after = laptop.cookies["sessionid"].value
    assert after != before   # Django cycles the key on a password change
    assert list(Session.objects.filter(user=alice).values_list("session_key", flat=True)) == [after]
    laptop.post("/accounts/me/delete/", {"password": "another horse battery"})
    assert not Session.objects.exists()
    assert laptop.get("/accounts/me/").status_code == 302


def test_upgrading_moves_the_sessions_kept_so_far(transactional_db, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    deleted = bob.pk
    bob.delete()    # before the upgrade: its session stayed behind in Django's table
    migrate([("accounts", "0005_profile_language")])
    try:
        kept = {"alice": django_session({"_auth_user_id": str(alice.pk)}),
                "visitor": django_session({"django_language": "de"}),  # nobody signed in
                "bob": django_session({"_auth_user_id": str(deleted)})}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    moved = dict(Session.objects.values_list("session_key", "user_id"))
    assert moved == {kept["alice"]: alice.pk, kept["visitor"]: None}
    assert not DjangoSession.objects.exists()


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)


def django_session(data: dict) -> str:
    """A session saved the way Django saved them before accounts/sessions.py: its key."""
    store = DjangoSessionStore()
    store.update(data)
    store.create()
    return store.session_key
