"""POST /api/rooms creates a room; GET /api/rooms/<id> is its public summary (docs/protocol.md);
GET /api/rooms/<id>/replay a player's replay file of its finished game and GET
/api/rooms/<id>/verify what ``games.verify`` finds in it (docs/verify.md);
GET /api/games lists the games as the menus and the room page know them (games/specs.py).

Creating a room is exempt from CSRF: it changes nothing for the visitor's account (the signed-in
user is bound to a seat only over the WebSocket, from the session), and bots call it too. It
does count against the visitor's room allowance, though, so it takes only
``Content-Type: application/json``: a browser sends that cross-site only after a CORS preflight,
which this site never grants, so another page cannot spend a visitor's allowance with a form or a
``text/plain`` fetch.

A ``seed`` makes the room reproducible (the same deals and CPU moves for the same actions), for
testing a client. Only a development server (DEBUG) or a staff account may ask for one: with a
known seed a player could know every hidden card.
"""
import asyncio
import json

from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games import specs, verify
from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.rooms import creation, limits, links, service
from games.rooms.seats import Seat, seats_held_by
from server.client_address import client_address

MAX_BODY_BYTES = 4096


def _error(status: int, code: ErrorCode, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


async def _user_id(request) -> int | None:
    user = await request.auser()
    return user.pk if user.is_authenticated else None


async def _may_seed(request) -> bool:
    return settings.DEBUG or (await request.auser()).is_staff


@csrf_exempt
@require_POST
async def create_room(request):
    if request.content_type != "application/json":
        return _error(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                      "The request body must be JSON, sent with Content-Type: application/json.")
    if len(request.body) > MAX_BODY_BYTES:
        return _error(413, ErrorCode.TOO_LARGE, f"The request body may be at most {MAX_BODY_BYTES} bytes.")
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser's stack
        return _error(400, ErrorCode.MALFORMED_JSON, "The request body is not valid JSON.")
    if not isinstance(body, dict):
        return _error(400, ErrorCode.MALFORMED_JSON, "The request body must be a JSON object.")
    unknown = set(body) - {"game", "mode", "options", "cpu_level", "origin", "seed", "pace"}
    if unknown:
        return _error(400, ErrorCode.INVALID_OPTIONS, f"Unknown field(s): {', '.join(sorted(unknown))}.")
    if body.get("seed") is not None and not await _may_seed(request):
        return _error(403, ErrorCode.SEED_NOT_ALLOWED, "A seeded room can be made only on a development "
                                               "server (DEBUG) or by a staff account.")
    wait = await limits.seconds_to_wait(client_address(request), await _user_id(request))
    if wait:
        response = _error(429, ErrorCode.TOO_MANY_ROOMS, limits.refusal(wait))
        response["Retry-After"] = str(wait)
        return response
    try:
        room, token = await creation.create_room.on_loop(body.get("game"), body.get("mode"),
                                                        body.get("options"), body.get("cpu_level"),
                                                        body.get("origin"), body.get("seed"), body.get("pace"))
    except GameError as exc:
        return _error(503 if exc.code == ErrorCode.UNAVAILABLE else 400, exc.code, exc.message)
    return JsonResponse({"room_id": room.id, "invite_url": links.invite_url(room.id), "seat": 0,
                         "seat_token": token, "version": room.version}, status=201)


@require_GET
async def room_summary(request, room_id):
    try:
        room = await service.load.on_loop(room_id)
    except GameError as exc:
        return _error(404, exc.code, exc.message)
    return JsonResponse(service.summary(room))


async def _replay_file(request, room_id) -> dict | JsonResponse:
    """The replay file of the room's finished game (docs/verify.md), for the holder of a seat:
    its seat token in the ``X-Seat-Token`` header (never in the URL, which logs keep). Only
    once the game is over, when nothing in it is secret any more. Else the error to answer."""
    token = request.headers.get("X-Seat-Token", "")
    try:
        room = await service.load.on_loop(room_id)
    except GameError as exc:
        return _error(404, exc.code, exc.message)
    seats = seats_held_by([Seat.from_json(s) for s in room.seats], links.hash_token(token)) if token else []
    if not seats:
        return _error(403, ErrorCode.NOT_A_PLAYER, "Only a player of this room, with their seat token, "
                                           "may download its replay.")
    if room.status != "finished" or not room.fairness:
        return _error(409, ErrorCode.GAME_NOT_OVER, "The replay can be downloaded once the game is over.")
    return await service.replay_file.on_loop(room, seats)


@require_GET
async def room_replay(request, room_id):
    file = await _replay_file(request, room_id)
    if isinstance(file, JsonResponse):
        return file
    response = JsonResponse(file)
    response["Content-Disposition"] = f'attachment; filename="{file["game"]}-replay.json"'
    response["Cache-Control"] = "no-store"
    return response


@require_GET
async def room_verify(request, room_id):
    """The result screen's Verify: ``games.verify``'s checks of the seat's replay file (the
    commitment, the decks from the seed, every card shown, the result, every CPU move from its
    own views). The page itself compares the commitment with the one it was shown before the
    first move; anyone can run the same checks on the downloaded file."""
    file = await _replay_file(request, room_id)
    if isinstance(file, JsonResponse):
        return file
    report = await asyncio.to_thread(verify.check, file)  # replays the game: off the event loop
    response = JsonResponse({"verified": not report.problems, "problems": report.problems,
                             "cpu_moves": report.cpu_moves, "commitment": file["fairness"]["commitment"]})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def games(request):
    return JsonResponse(specs.client_data())
