"""Room ids, seat tokens and invite links. Only a token's hash is stored (``hash_token``): a
seat is proved by the token its holder keeps. Nothing here reads a room, so any module may
import it.
"""
from __future__ import annotations

import hashlib
import secrets


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_room_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def invite_url(room_id: str) -> str:
    return f"/r/{room_id}"
