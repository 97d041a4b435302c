"""How Gin Rummy looks to a new player (issue 15): the card just taken from the pile shows its
face, the top line counts the deadwood a discard would leave, an empty discard pile is outlined,
lay-offs appear on the knocker's melds, a long deadwood row stays inside the side panel, and a
hand's result speaks to the player it is about ("You knock…", issue 37). The states come from
the engine (tests/browser/engine_views.py)."""
import json

import pytest

from games.engines import gin
from games.engines.gin_melds import CARDS, best_split
from tests.browser.engine_views import open_room_page, render_view
from tests.browser.helpers import record_sent, start_from_menu, version, wait_until, wait_version_after
from tests.browser.pixels import mean_colour

pytestmark = pytest.mark.browser


def upcard_taken_view():
    """Seat 0, not the dealer, has just taken the upcard: eleven cards, one of them banned,
    and nothing left on the discard pile."""
    seed = next(s for s in range(100) if gin.new_game({}, s).dealer == 1)
    state = gin.new_game({}, seed)
    state.apply(0, {"type": "take_upcard"})
    return state.view(0)


UNMATCHED = ["2H", "3D", "5C", "7H", "8D", "TC", "JH", "2D", "6C"]


def knock_view(defender, seat=0):
    """Seat 0 knocks with the ace of clubs against ``defender``'s ten cards; the end of the
    hand as ``seat`` sees it (None: a spectator)."""
    knocker = ["5S", "6S", "7S", "9H", "9D", "9C", "KH", "KD", "KC", "AC", "QD"]
    state = gin.new_game({}, 1)
    rest = [c for c in CARDS if c not in knocker + defender]
    state.hands = [knocker, defender]
    state.discard_pile, state.stock = rest[:1], rest[1:]
    state.phase, state.current_player, state.taken_card = "discard", 0, None
    state.apply(0, {"type": "knock", "card": "QD"})
    return state.view(seat)


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def test_it_shows_the_face_of_the_card_just_taken(site, pages):
    page = pages.new()
    open_room_page(page, site, "gin")
    view = upcard_taken_view()
    render_view(page, "gin", view)
    card = box(page, f".pcard.in-hand.sunk[data-card='{view['cannot_discard']}']")
    # Its left half (the next card covers part of the right), away from the corner letters.
    red, green, blue = mean_colour(page, {"x": card["x"] + card["width"] * 0.15, "y": card["y"] + card["height"] * 0.3,
                                          "width": card["width"] * 0.3, "height": card["height"] * 0.4})
    # The face is paper (dimmed, still grey-white); the back is dark red with stripes.
    assert green > 110 and abs(red - green) < 40, (red, green, blue)


def test_it_counts_the_deadwood_the_best_discard_leaves(site, pages):
    page = pages.new()
    open_room_page(page, site, "gin")
    view = upcard_taken_view()
    render_view(page, "gin", view)
    cards = view["hand"]["cards"]
    after = min(best_split([c for c in cards if c != card])[0] for card in cards if card != view["cannot_discard"])
    assert len(cards) == 11 and after != view["hand"]["deadwood"]
    assert page.locator("#gin-deadwood").inner_text() == f"Deadwood {after} after the best discard"
    assert page.locator(".gin-table-status strong").inner_text() == f"Deadwood {after} after the best discard"


def test_it_outlines_an_empty_discard_pile(site, pages):
    page = pages.new()
    open_room_page(page, site, "gin")
    render_view(page, "gin", upcard_taken_view())
    pile = page.locator(".gin-discard")
    assert pile.is_visible() and pile.locator(".pcard").count() == 0
    style = pile.evaluate("el => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineWidth, "
                          "s.borderTopStyle, s.borderTopWidth]; }")
    outlined = style[0] != "none" and float(style[1].rstrip("px")) > 0
    bordered = style[2] != "none" and float(style[3].rstrip("px")) > 0
    assert outlined or bordered, style


def test_it_shows_laid_off_cards_on_the_knockers_melds(site, pages):
    page = pages.new()
    open_room_page(page, site, "gin")
    # The four of spades goes on the knocker's run of spades.
    view = knock_view(["4S", *UNMATCHED])
    assert [layoff["card"] for layoff in view["last_hand"]["layoffs"]] == ["4S"]
    render_view(page, "gin", view)
    for where in (".gin-handover", ".side-panel"):
        laid = page.locator(f"{where} .gin-side[data-seat='0'] .meld .mini-card.laid-off")
        assert laid.all_inner_texts() == ["4♠"]
        assert page.locator(f"{where} .gin-side[data-seat='1'] .mini-card", has_text="4♠").count() == 0
    # The result speaks to the knocker, who is this page's player.
    kd, dd = view["last_hand"]["deadwoods"]
    points = view["last_hand"]["points"]
    for where in (".gin-handover", ".side-panel"):
        outcome = page.locator(f"{where} .gin-outcome").inner_text()
        assert outcome == f"You knock with {kd} against {dd}: you score {points}."
        sides = page.locator(f"{where} .gin-side h3").all_inner_texts()
        assert sides == [f"You · deadwood {kd}", f"Green · deadwood {dd}"]


def test_an_undercut_is_told_to_each_player_and_the_spectators(site, pages):
    """The defender who undercuts reads "you have… you score", the knocker "You knocked", a
    spectator both colours' names."""
    page = pages.new()
    open_room_page(page, site, "gin")
    melded = ["2H", "3H", "4H", "6H", "7H", "8H", "JS", "JD", "JC", "AD"]  # the ace of diamonds loose: 1
    heard = {}
    for seat in (0, 1, None):
        view = knock_view(melded, seat)
        render_view(page, "gin", view)
        heard[seat] = page.locator(".gin-handover .gin-outcome").inner_text()
    summary = view["last_hand"]
    assert (summary["outcome"], summary["winner"], summary["deadwoods"]) == ("undercut", 1, [1, 1])
    points = summary["points"]
    assert heard == {
        0: f"Undercut! You knocked with 1 but Green has 1: Green scores {points}.",
        1: f"Undercut! Red knocked with 1 but you have 1: you score {points}.",
        None: f"Undercut! Red knocked with 1 but Green has 1: Green scores {points}.",
    }


def test_a_knock_is_told_to_each_player_and_the_spectators(site, pages):
    """The knocker reads "You knock", the defender "…against your 9", a spectator both
    colours' names."""
    page = pages.new()
    open_room_page(page, site, "gin")
    heard, sides = {}, {}
    for seat in (0, 1, None):
        view = knock_view(["4S", *UNMATCHED], seat)
        render_view(page, "gin", view)
        heard[seat] = page.locator(".gin-handover .gin-outcome").inner_text()
        sides[seat] = page.locator(".gin-handover .gin-side h3").all_inner_texts()
    summary = view["last_hand"]
    assert (summary["outcome"], summary["winner"]) == ("knock", 0)
    (kd, dd), points = summary["deadwoods"], summary["points"]
    assert heard == {
        0: f"You knock with {kd} against {dd}: you score {points}.",
        1: f"Red knocks with {kd} against your {dd}: Red scores {points}.",
        None: f"Red knocks with {kd} against {dd}: Red scores {points}.",
    }
    assert sides == {
        0: [f"You · deadwood {kd}", f"Green · deadwood {dd}"],
        1: [f"Red · deadwood {kd}", f"You · deadwood {dd}"],
        None: [f"Red · deadwood {kd}", f"Green · deadwood {dd}"],
    }


def test_it_keeps_a_long_deadwood_row_inside_the_side_panel(site, pages):
    page = pages.new()
    open_room_page(page, site, "gin")
    view = knock_view(["4H", *UNMATCHED])  # nothing melds, nothing lays off
    assert len(view["last_hand"]["hands"][1]["deadwood_cards"]) == 10
    render_view(page, "gin", view)
    panel = box(page, ".side-panel")
    assert page.locator(".side-panel .gin-side[data-seat='1'] .meld.deadwood .mini-card").count() == 10
    cards = page.locator(".side-panel .mini-card")
    for i in range(cards.count()):
        card = cards.nth(i).bounding_box()
        assert panel["x"] <= card["x"] and card["x"] + card["width"] <= panel["x"] + panel["width"], (i, card, panel)


def test_every_control_names_the_action_it_sends(site, pages):
    """data-act on the stock, the pile, the hand cards and the panel's buttons is exactly the
    action a press sends (docs/protocol.md), in a real game against the CPU."""
    page = pages.new()
    sent = record_sent(page)
    start_from_menu(page, site, "gin", "cpu", level="easy")
    presses = discards = 0
    for _ in range(200):
        if presses >= 4:
            break
        wait_until(page, "document.querySelector('.gin-controls [data-act], .card-btn:enabled') !== null")
        before = version(page)
        if page.locator(".card-btn:enabled").count():
            cards = page.locator(".card-btn:enabled")
            for i in range(cards.count()):
                card = cards.nth(i).get_attribute("data-card")
                expected = {"type": "discard", "card": card}
                assert json.loads(cards.nth(i).get_attribute("data-act")) == expected
                assert json.loads(page.get_attribute(f".pcard.in-hand[data-card='{card}']", "data-act")) == expected
            banned = page.locator(".card-btn.sunk")
            assert banned.count() == 0 or banned.get_attribute("data-act") is None
            target = page.locator(f".pcard.in-hand[data-card='{cards.first.get_attribute('data-card')}']")
            target.click()  # lift: the pile now names the discard it would send
            assert page.get_attribute(".gin-discard", "data-act") == target.get_attribute("data-act")
            expected, element = json.loads(target.get_attribute("data-act")), target
            discards += 1
        else:
            element = page.locator(".gin-controls [data-act]").first
            expected = json.loads(element.get_attribute("data-act"))
        count = len(sent)
        element.click()
        wait_version_after(page, before)
        actions = [frame["action"] for frame in sent[count:] if frame.get("type") == "action"]
        assert actions == [expected]
        presses += 1
    assert presses == 4 and discards >= 1
