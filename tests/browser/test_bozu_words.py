"""Bozu Mekuri's words on cards and screens: a long romanised name never runs over the kanji
on a card (small on the table and in the panel, large when flipped), Semimaru is named once,
and an empty centre at the end is not announced as "0 cards ... belong to nobody"."""
import pytest

from games.engines import bozu
from games.engines.bozu_cards import CARDS
from tests.browser.engine_views import open_room_page

pytestmark = pytest.mark.browser

OVERLAPS = """async (cards) => {
  const page = document.querySelector('script[type=module][src*="room/page"]').src;
  const {karuta} = await import(new URL('../games/bozu.js', page));
  const box = document.createElement('div');
  document.body.append(box);
  const overlapping = [];
  for (const size of ['', 'large']) {
    for (const card of cards) {
      const el = karuta(card, size);
      box.replaceChildren(el);
      const a = el.querySelector('.k-en').getBoundingClientRect();
      const b = el.querySelector('.k-ja').getBoundingClientRect();
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5) overlapping.push(`${size || 'small'} ${card.poet}`);
    }
  }
  box.remove();
  return overlapping;
}"""


def semimaru_flipped_view():
    """A game whose last flip turned up Semimaru (poem 10), and the same game at its end."""
    for seed in range(200):
        state = bozu.new_game({"players": 2}, seed)
        while not state.is_over:
            state.apply(state.current_player, {"type": "flip"})
            view = state.view(0)
            if view["last"] and view["last"]["card"]["poem"] == 10:
                return view, seed
    raise AssertionError("no game turns up Semimaru")


def test_long_names_keep_clear_of_the_kanji(site, pages):
    page = pages.new()
    open_room_page(page, site, "bozu")
    cards = [card._asdict() for card in CARDS if card is not None]
    assert page.evaluate(OVERLAPS, cards) == []


# The bozu module drawn on a room page with a context of its own, as tests/browser/engine_views.py
# does, with the messages' "you" and "name" filled in the English way.
WITH_MODULE = """async ([view, what]) => {
  const page = document.querySelector('script[type=module][src*="room/page"]').src;
  const module = await import(new URL('../games/bozu.js', page));
  const names = ['Red', 'Green'];
  const ctx = {surface: document.getElementById('table-surface'), panel: document.getElementById('game-panel'),
    table: null, homeSeat: 0, seatName: (s) => names[s], seatLabel: (s) => names[s],
    seatColour: (s) => ['red', 'green'][s],
    canAct: () => false, act: () => 1, setLastMove: () => {}, asPlayed: (text) => text, toast: () => {},
    isYou: () => false,
    say: (seat, forYou, forOthers, values = {}) => forOthers.replace(/%\\((\\w+)\\)s/g,
      (_, key) => (key === 'name' ? names[seat] : values[key])),
    room: {you: {seats: [0]}, mode: 'cpu', seats: names.map((name, seat) => ({seat, name}))}, view};
  const renderer = module.create(ctx);
  if (what === 'render') {
    renderer.render(view, null, true);
    return document.querySelector('#game-panel .bozu-last').textContent;
  }
  const details = renderer.resultDetails(view);
  return details ? details.textContent : null;
}"""


def test_semimaru_is_named_once_and_an_empty_centre_is_not_announced(site, pages):
    page = pages.new()
    open_room_page(page, site, "bozu")
    view, seed = semimaru_flipped_view()
    said = page.evaluate(WITH_MODULE, [view, "render"])
    assert "Semimaru" in said and "Semimaru (Semimaru)" not in said, said
    state = bozu.new_game({"players": 2}, seed)
    while not state.is_over:
        state.apply(state.current_player, {"type": "flip"})
    final = state.view(0)
    empty = {**final, "centre": {**final["centre"], "count": 0}}
    two_left = {**final, "centre": {**final["centre"], "count": 2}}
    assert page.evaluate(WITH_MODULE, [empty, "details"]) is None
    said = page.evaluate(WITH_MODULE, [two_left, "details"])
    assert said == "2 cards were left in the centre: they belong to nobody."
