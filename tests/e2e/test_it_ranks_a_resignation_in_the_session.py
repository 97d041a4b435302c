"""After a resignation the session's standings put the winner first: with the pairs even, the
game won (by the other's resignation) decides the place; nobody shares first."""
from tests.rooms.helpers import close_all, connect, create_room, options


async def test_the_winner_by_resignation_leads_the_session(site):
    created = create_room(site.url_for(0), "memory", "cpu", options("memory"))
    red = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    final = await red.request("resign")
    assert final["room"]["result"]["resigned"] == 0
    standings = final["room"]["session"]["standings"]
    assert [(row["seat"], row["rank"], row["wins"]) for row in standings] == [(1, 1, 1), (0, 2, 0)]
    await close_all(red)
