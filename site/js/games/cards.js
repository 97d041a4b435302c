// French-suited playing cards, drawn with HTML and CSS: "7H" is the seven of hearts, "TD" the
// ten of diamonds; a card with no code is face down.
import { h } from "../dom.js";
import { gettext, pgettext, fmt } from "../i18n.js";

const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};
const SUIT_NAMES = {S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs")};
const RANK_NAMES = {
  A: gettext("ace"), 2: gettext("two"), 3: gettext("three"), 4: gettext("four"), 5: gettext("five"),
  6: gettext("six"), 7: gettext("seven"), 8: gettext("eight"), 9: gettext("nine"), T: gettext("ten"),
  J: gettext("jack"), Q: gettext("queen"), K: gettext("king"),
};
// The letters on the cards' corners, as each language prints them (German decks: B, D, K, A).
const RANK_SHORT = {
  A: pgettext("card corner letter for the ace", "A"), J: pgettext("card corner letter for the jack", "J"),
  Q: pgettext("card corner letter for the queen", "Q"), K: pgettext("card corner letter for the king", "K"),
  T: "10",
};
const RANK_VALUE = {A: 1, T: 10, J: 10, Q: 10, K: 10};

export const isJoker = (code) => typeof code === "string" && /^(JK|X|JOKER)/i.test(code);
export const rankOf = (code) => code.slice(0, -1);
export const suitOf = (code) => code.slice(-1);
export const deadwoodValue = (code) => RANK_VALUE[rankOf(code)] || Number(rankOf(code));

// "7♥" — short, for buttons and messages.
export function shortName(code) {
  if (isJoker(code)) return gettext("Joker");
  return `${RANK_SHORT[rankOf(code)] || rankOf(code)}${SUITS[suitOf(code)] || suitOf(code)}`;
}

// "seven of hearts" — for accessible names.
export function longName(code) {
  if (isJoker(code)) return gettext("joker");
  return fmt(gettext("%(rank)s of %(suit)s"), {rank: RANK_NAMES[rankOf(code)] || rankOf(code),
                                               suit: SUIT_NAMES[suitOf(code)] || suitOf(code)});
}

export function faceContent(code) {
  if (isJoker(code)) return [h("span", {class: "joker-star", "aria-hidden": "true"}, "★"), h("span", {}, gettext("JOKER"))];
  const rank = RANK_SHORT[rankOf(code)] || rankOf(code);
  const suit = SUITS[suitOf(code)] || "";
  const corner = (cls) => h("span", {class: `corner ${cls}`}, rank, h("br"), suit);
  return [corner("tl"), h("span", {class: "pip"}, suit), corner("br")];
}

// A card element; `tag` "button" for cards that can be pressed.
export function cardEl(code, {tag = "div", up = Boolean(code), attrs = {}} = {}) {
  const el = h(tag, {class: "pcard", ...attrs}, h("span", {class: "back"}), h("span", {class: "face"}));
  if (tag === "button") el.type = "button";
  setFace(el, code, up);
  return el;
}

// `content` draws the face of a code: a playing card by default (Memory's pictures draw their own).
export function setFace(el, code, up, content = faceContent) {
  const face = el.querySelector(".face");
  if (code && el.dataset.code !== code) {
    face.replaceChildren(...content(code));
    face.classList.toggle("joker", isJoker(code));
    el.classList.toggle("red-suit", !isJoker(code) && (suitOf(code) === "H" || suitOf(code) === "D"));
    el.dataset.code = code;
  }
  el.classList.toggle("up", Boolean(up && code));
}
