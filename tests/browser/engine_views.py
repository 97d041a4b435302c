"""Draws a view made by a real engine with the site's own renderer, on a real room page.

A hand that ends with a lay-off, or a discard phase right after the upcard was taken, comes up
in a played game only by chance. These tests make such a state with the engine itself
(games/engines/), take its ``view(seat)`` exactly as the server sends it, and hand it to the
game's module (site/js/games/<game>.js) inside an open room page, so the page's own stylesheet,
table and side panel lay it out. The room's live renderer keeps drawing into the elements it
had; the new one replaces them on the table and in the panel.
"""
from __future__ import annotations

import json

from tests.browser.helpers import start_from_menu

RENDER = """async ([game, view, names, colours]) => {
  const page = document.querySelector('script[type=module][src*="room/page"]').src;
  const module = await import(new URL(`../games/${game}.js`, page));
  const seats = view.seat === null ? [] : [view.seat];
  const ctx = {
    surface: document.getElementById('table-surface'), panel: document.getElementById('game-panel'),
    // The table as the renderers use it: its frame, and its surface's size (left as it is).
    table: {viewport: document.getElementById('table-viewport'), setSurfaceSize: () => {}, onFit: () => {}},
    seatName: (seat) => names[seat], seatColour: (seat) => colours[seat],
    seatLabel: (seat) => (seats.includes(seat) ? 'You' : names[seat]),
    isYou: (seat) => seats.includes(seat),
    say: (seat, forYou, forOthers, values = {}) => (seats.includes(seat) ? forYou : forOthers)
      .replace(/%\\((\\w+)\\)s/g, (_, key) => (key === 'name' ? names[seat] : values[key])),
    refuse: () => {},
    room: {you: {seats}, mode: 'cpu', seats: names.map((name, seat) => ({seat, name}))}, view,
    homeSeat: view.seat === null ? 0 : view.seat,
    canAct: () => view.current_player !== null && seats.includes(view.current_player)
      && (view.legal_actions || []).length > 0,
    act: (action) => { window.engineViewActs.push(action); return 1; },
    setLastMove: () => {}, asPlayed: (text) => text, toast: () => {},
  };
  window.engineViewActs = [];
  const renderer = module.create(ctx);
  renderer.render(view, null, true);
  // For a test that reads what the result screen would add (the renderer's resultDetails).
  window.engineViewRenderer = renderer;
}"""


def open_room_page(page, site, game: str) -> None:
    """A room page of ``game`` against the CPU, waiting for this page's own first move."""
    start_from_menu(page, site, game, "cpu", level="easy")


COLOURS = ("red", "green", "yellow", "blue", "purple", "orange")


def render_view(page, game: str, view: dict, names=("Red", "Green", "Yellow", "Blue")) -> None:
    # Through JSON and back: exactly what a state message would carry.
    page.evaluate(RENDER, [game, json.loads(json.dumps(view)), list(names), list(COLOURS)])
    # Cards move and flip with CSS transitions; measure the settled table.
    page.wait_for_timeout(700)
