"""A player's profile (privacy switches) and the record of their finished games."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import specs

from .sessions import Session  # noqa: F401  (the session engine's table belongs to this app)


class Profile(models.Model):
    """One per user, created with the user (see receivers.py).

    Other apps read ``user.profile.telemetry_enabled``: off means no browser signed in to this
    account sends telemetry, and the server drops any event that still arrives.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    telemetry_enabled = models.BooleanField(_("send anonymous statistics"), default=True)
    public_profile = models.BooleanField(_("public stats page"), default=False)
    # The site language the player last chose (the switcher in the header); empty until they
    # choose one. Applied at sign-in, so the choice follows the player to every browser.
    language = models.CharField(_("language"), max_length=8, blank=True, default="",
                                choices=settings.LANGUAGES)

    def __str__(self):
        return f"profile of {self.user}"

    @classmethod
    def of(cls, user) -> Profile:
        """The user's profile; made on first use for a user saved without signals (loaddata)."""
        try:
            return user.profile
        except cls.DoesNotExist:
            return cls.objects.create(user=user)


class GameRecord(models.Model):
    """One finished game as seen from one player's seat."""

    MODES = [("cpu", _("vs CPU")), ("local", _("this device")), ("solo", _("solo")),
             ("friends", _("with friends"))]
    # "unfinished": the CPU played most of the player's turns (their time ran out, or they were
    # away), so the game is neither their win nor their loss (docs/protocol.md, "Pace").
    RESULTS = [("win", _("win")), ("draw", _("draw")), ("loss", _("loss")), ("unfinished", _("unfinished"))]
    # Memory's match rules other than the default "same rank" (and "identical", implied by 104 cards).
    MEMORY_MATCH = {"colour": _("same rank and colour"), "zebra": _("zebra")}

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="game_records")
    game = models.CharField(max_length=16, choices=specs.choices)  # a callable: no migration per game
    mode = models.CharField(max_length=16, choices=MODES)
    options = models.JSONField(default=dict)
    # Empty string, not NULL, for "no CPU": GROUP BY and filters then need no special case.
    cpu_level = models.CharField(max_length=16, blank=True, default="")
    seat = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=10, choices=RESULTS)
    rank = models.PositiveSmallIntegerField()
    score = models.IntegerField(null=True, blank=True)  # None when a game keeps no score
    resigned = models.BooleanField(default=False)
    failed_flips = models.PositiveIntegerField(null=True, blank=True)  # solo Memory only
    moves = models.PositiveIntegerField()
    duration_seconds = models.FloatField()
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()
    # What replays the game exactly (games/rooms/replays.py): its seed and salt, actions and CPU
    # seats. The player's own data only: nothing of it is copied anywhere anonymous.
    replay = models.JSONField(null=True, blank=True)
    # The review of the game (games/review/) as first computed, per page language:
    # {language: {"version": games.review.VERSION, "review": {...}}}; accounts/replay_review.py
    # computes one once (a long game's takes seconds) and reads it afterwards. Nothing in it that
    # the replay does not give again.
    reviews = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-finished_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="record_user_finished"),
            # Each game/mode/level group's latest games in order: the stats page's recent form.
            # The stats page's per-group totals and recent form, read in group order from the
            # index alone on PostgreSQL (no sort of the player's whole record). result and
            # failed_flips are key columns, not INCLUDE ones, which SQLite does not support.
            models.Index(fields=["user", "game", "mode", "cpu_level", "-finished_at", "-id",
                                 "result", "failed_flips"], name="record_user_group_recent"),
        ]

    def __str__(self):
        return f"{self.user} {self.game}/{self.mode} {self.result} at {self.finished_at:%Y-%m-%d %H:%M}"

    @property
    def cpu_level_label(self):
        return specs.level_labels().get(self.cpu_level, self.cpu_level)

    @property
    def memory_setting_label(self) -> str:
        return memory_setting_label(self.options)

    def to_json(self) -> dict:
        return {
            "game": self.game, "mode": self.mode, "options": self.options,
            "cpu_level": self.cpu_level or None, "seat": self.seat, "players": self.players,
            "result": self.result, "rank": self.rank, "score": self.score,
            "resigned": self.resigned, "failed_flips": self.failed_flips, "moves": self.moves,
            "duration_seconds": self.duration_seconds,
            "started_at": self.started_at.isoformat(), "finished_at": self.finished_at.isoformat(),
            "replay": self.replay,
            # The game's share link (ReplayShare), if the player made one.
            "share": share.to_json() if (share := getattr(self, "share", None)) else None,
        }


def memory_setting_label(options: dict) -> str:
    """"24 cards, jokers, zebra": what makes one solo Memory result comparable to another."""
    cards = options.get("cards", 0)
    parts = [ngettext("%(cards)d card", "%(cards)d cards", cards) % {"cards": cards}]
    if options.get("jokers"):
        parts.append(gettext("jokers"))
    if options.get("match") in GameRecord.MEMORY_MATCH:
        parts.append(str(GameRecord.MEMORY_MATCH[options["match"]]))
    if options.get("one_flip"):
        parts.append(gettext("one flip per turn"))
    if options.get("deck") == "pictures":
        parts.append(gettext("pictures"))
    if options.get("long_table"):
        parts.append(gettext("long table"))
    return ", ".join(parts)


def new_share_key() -> str:
    """A share link's key: 128 random bits, not guessable, URL-safe."""
    return secrets.token_urlsafe(16)


class ReplayShare(models.Model):
    """A link anyone may open to watch one of a player's games (/r/<key>/): made by its owner,
    revoked by deleting the row, gone with the record (and so with the account)."""

    record = models.OneToOneField(GameRecord, on_delete=models.CASCADE, related_name="share")
    key = models.CharField(max_length=32, unique=True, default=new_share_key)
    show_name = models.BooleanField(default=False)  # the shared page names the owner's seat
    created_at = models.DateTimeField(auto_now_add=True)

    def to_json(self) -> dict:
        return {"key": self.key, "show_name": self.show_name, "created_at": self.created_at.isoformat()}
