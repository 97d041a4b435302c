// Shared by the game renderers: where each seat sits around the table, and small helpers.
import { h } from "../dom.js";
import { gettext } from "../i18n.js";
import { SURFACE_W, SURFACE_H } from "../room/table.js";

// Relative positions clockwise from the home seat (nearest, at the bottom), as seen from above.
const AROUND = {
  1: [[0.5, 0.88]],
  2: [[0.5, 0.88], [0.5, 0.1]],
  3: [[0.5, 0.88], [0.12, 0.3], [0.88, 0.3]],
  4: [[0.5, 0.88], [0.09, 0.5], [0.5, 0.1], [0.91, 0.5]],
  5: [[0.5, 0.88], [0.09, 0.62], [0.24, 0.1], [0.76, 0.1], [0.91, 0.62]],
  6: [[0.5, 0.88], [0.09, 0.62], [0.09, 0.2], [0.5, 0.1], [0.91, 0.2], [0.91, 0.62]],
};

export function seatPosition(seat, home, players) {
  const [x, y] = AROUND[players][(seat - home + players) % players];
  return {x: x * SURFACE_W, y: y * SURFACE_H};
}

export function place(el, x, y) {
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
  return el;
}

// Moves a clone of `el` from where it is to (x, y) on the surface, then removes it.
export function flyTo(el, x, y, {duration = 450, delay = 0} = {}) {
  const dx = x - parseFloat(el.style.left);
  const dy = y - parseFloat(el.style.top);
  const animation = el.animate([
    {transform: "translate(-50%, -50%) translateZ(40px) scale(1)", opacity: 1},
    {transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) translateZ(0) scale(0.45)`, opacity: 0.2},
  ], {duration, delay, easing: "cubic-bezier(.5,0,.3,1)", fill: "forwards"});
  animation.onfinish = () => el.remove();
  return animation;
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// On a touch screen the cards on the table are the board: a panel's card buttons (the
// keyboard's and screen readers' way to play: Memory's grid, Gin's hand) stay out of sight
// until asked for, and come back with the keyboard's focus (.card-buttons in site/css/site.css).
// Marks `buttons` so and answers the switch that shows and hides them.
export function cardButtonsSwitch(buttons) {
  buttons.classList.add("card-buttons");
  const toggle = h("button", {type: "button", class: "btn btn-quiet card-buttons-switch", "aria-expanded": "false",
    onclick: () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      buttons.classList.toggle("open", open);
      toggle.setAttribute("aria-expanded", String(open));
      toggle.textContent = open ? gettext("Hide the card buttons") : gettext("Show the card buttons");
    }}, gettext("Show the card buttons"));
  return toggle;
}
