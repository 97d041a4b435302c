"""Signal receivers, connected in AccountsConfig.ready()."""
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from games.signals import game_finished

from . import deletion, leaderboard
from .models import Profile
from .records import store_finished_game
from .signin_throttle import record_failure


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.create_profile")
def create_profile(sender, instance, created, raw=False, **kwargs):
    # Every user has a profile, however created (sign-up, createsuperuser, admin), so that
    # ``user.profile`` never fails in another app.
    if created and not raw:
        Profile.objects.get_or_create(user=instance)


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.forget_deleted_user")
def forget_deleted_user(sender, instance, **kwargs):
    # However the user is deleted (the site, the admin, the shell), inside that deletion's
    # transaction: what the cascade cannot reach goes too (deletion.py).
    deletion.forget(instance)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.forget_leaderboard")
def forget_leaderboard_of_deleted_user(sender, instance, **kwargs):
    # The account's games leave the public board with it. After the commit: a board built
    # before then would still hold them.
    transaction.on_commit(leaderboard.forget)


@receiver(user_login_failed, dispatch_uid="accounts.count_sign_in_failure")
def count_sign_in_failure(sender, credentials, request=None, **kwargs):
    # Sent by authenticate() for the site's sign-in page and the admin's alike.
    if request is not None:
        record_failure(request)


@receiver(game_finished, dispatch_uid="accounts.record_finished_game")
def record_finished_game(sender, record, **kwargs):
    stored = store_finished_game(record)
    if stored and record["game"] == "memory" and record["mode"] == "solo":
        leaderboard.forget()  # the game may be the day's best
