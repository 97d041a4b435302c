// Memory's picture deck: a card is a picture's name ("cat"), drawn from one SVG sprite
// (site/img/pictures.svg: 100 × 100 cells in the order of this list, which is the engine's)
// and named in the page's language for screen readers.
import { h } from "../dom.js";
import { gettext } from "../i18n.js";

const PICTURES = {
  apple: gettext("apple"),
  banana: gettext("banana"),
  cherries: gettext("cherries"),
  carrot: gettext("carrot"),
  mushroom: gettext("mushroom"),
  leaf: gettext("leaf"),
  flower: gettext("flower"),
  tree: gettext("tree"),
  sun: gettext("sun"),
  cloud: gettext("cloud"),
  star: gettext("star"),
  umbrella: gettext("umbrella"),
  house: gettext("house"),
  car: gettext("car"),
  boat: gettext("boat"),
  key: gettext("key"),
  cup: gettext("cup"),
  clock: gettext("clock"),
  bell: gettext("bell"),
  balloon: gettext("balloon"),
  fish: gettext("fish"),
  cat: gettext("cat"),
  bird: gettext("bird"),
  snail: gettext("snail"),
  butterfly: gettext("butterfly"),
  book: gettext("book"),
};
const ORDER = Object.keys(PICTURES);

export const pictureName = (code) => PICTURES[code] || code;

// The picture alone, its cell of the sprite chosen by --picture (site/css/site.css).
export function picture(code) {
  const el = h("span", {class: "picture", role: "img", "aria-label": pictureName(code)});
  el.style.setProperty("--picture", String(ORDER.indexOf(code)));
  return el;
}

// A card's face: the picture, as large as the card allows.
export const pictureFace = (code) => [picture(code)];
