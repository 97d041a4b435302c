// Bozu Mekuri: the deck, the flipped card shown large, the piles and the centre; the panel's
// "Flip a card" plays the whole game.
import { h, fill } from "../dom.js";
import { gettext, ngettext, fmt, language } from "../i18n.js";
import { SURFACE_W, SURFACE_H } from "../room/table.js";
import { seatPosition, place, flyTo, reducedMotion } from "./common.js";
import { play } from "../sound.js";

export const zoomable = true;

const TYPES = {
  noble: gettext("noble"), emperor: gettext("emperor"), lady: gettext("lady"),
  monk: gettext("monk"), semimaru: gettext("Semimaru"),
};
const SHOW_MS = 850;
const CENTRE = {x: SURFACE_W * 0.56, y: SURFACE_H * 0.5};
const DECK = {x: SURFACE_W * 0.38, y: SURFACE_H * 0.5};

// A small figure for each type: a court cap for nobles and emperors, long hair for ladies,
// a shaved head for monks, a hood for Semimaru.
const FIGURES = {
  noble: '<path d="M20 8 l6 -6 l2 8z" fill="#1d1d1d"/><circle cx="20" cy="16" r="6" fill="#f1d9b5"/><path d="M6 44 q14 -26 28 0z" fill="#3b5ba5"/>',
  emperor: '<path d="M14 6 h12 l-2 6 h-8z" fill="#1d1d1d"/><circle cx="20" cy="16" r="6" fill="#f1d9b5"/><path d="M6 44 q14 -26 28 0z" fill="#7a2a8a"/>',
  lady: '<path d="M11 18 q9 -18 18 0 v24 h-18z" fill="#1d1d1d"/><circle cx="20" cy="16" r="6" fill="#f1d9b5"/><path d="M6 44 q14 -26 28 0z" fill="#c2334d"/>',
  monk: '<circle cx="20" cy="15" r="7" fill="#f1d9b5"/><path d="M6 44 q14 -26 28 0z" fill="#555"/><path d="M12 30 l16 10" stroke="#c9a227" stroke-width="3"/>',
  semimaru: '<path d="M11 20 q9 -20 18 0 v4 h-18z" fill="#6b4f2a"/><circle cx="20" cy="19" r="5" fill="#f1d9b5"/><path d="M6 44 q14 -24 28 0z" fill="#8b6b3a"/>',
};

// The poet as this page's language names them: in Japanese script on the Japanese site, else
// romanised (the engine's view carries both, games/engines/bozu_cards.py).
export const poetName = (card) => (language === "ja" ? card.poet_ja : card.poet);

export function karuta(card, size = "") {
  return h("div", {class: `karuta type-${card.type} ${size}`, dataset: {poem: card.poem}},
    h("span", {class: "k-num"}, String(card.poem)),
    h("span", {class: "k-figure", "aria-hidden": "true"},
      svg(FIGURES[card.type] || FIGURES.noble)),
    kanji(card.poet_ja),
    language === "ja" ? null : h("span", {class: "k-en", title: card.poet}, card.poet),
    h("span", {class: "k-type"}, TYPES[card.type] || card.type));
}

// The name in Japanese script, its length given to the stylesheet (a long one is set smaller).
function kanji(name) {
  const el = h("span", {class: "k-ja", lang: "ja"}, name);
  el.style.setProperty("--ja-chars", String(name.length));
  return el;
}

function svg(inner) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  el.setAttribute("viewBox", "0 0 40 44");
  el.innerHTML = inner;
  return el;
}

// The effect of a flip, said of its player ("takes the 3 cards…") or to them ("you take…").
function effectText(effect, moved, yours) {
  const values = {moved};
  switch (effect) {
    case "to_pile": return yours ? gettext("onto your pile.") : gettext("onto their pile.");
    case "pile_to_centre": return fmt(yours
      ? ngettext("your pile of %(moved)s card goes to the centre with the monk.",
        "your pile of %(moved)s cards goes to the centre with the monk.", moved)
      : ngettext("their pile of %(moved)s card goes to the centre with the monk.",
        "their pile of %(moved)s cards goes to the centre with the monk.", moved), values);
    case "takes_centre":
      if (moved === 0) return gettext("the centre was empty.");
      return fmt(yours
        ? ngettext("you take the %(moved)s card in the centre.", "you take the %(moved)s cards in the centre.", moved)
        : ngettext("takes the %(moved)s card in the centre.", "takes the %(moved)s cards in the centre.", moved), values);
    case "flip_again": return yours ? gettext("you keep the card and flip again.") : gettext("keeps the card and flips again.");
    case "miss_next_turn":
      return yours ? gettext("you keep the card and miss the next turn.") : gettext("keeps the card and misses the next turn.");
    case "others_to_centre": return fmt(ngettext("every other pile goes to the centre (%(moved)s card).",
      "every other pile goes to the centre (%(moved)s cards).", moved), values);
    default: return "";
  }
}

// What happened, said to this page's player when the flip was theirs ("You flipped…").
function describe(last, ctx) {
  const values = {poet: poetName(last.card), type: TYPES[last.card.type]};
  // Semimaru is both the poet and the card's type: named once.
  const head = last.card.type === "semimaru"
    ? ctx.say(last.seat, gettext("You flipped %(poet)s"), gettext("%(name)s flipped %(poet)s"), values)
    : ctx.say(last.seat, gettext("You flipped %(poet)s (%(type)s)"), gettext("%(name)s flipped %(poet)s (%(type)s)"), values);
  const effect = effectText(last.effect, last.moved, ctx.isYou(last.seat));
  let text = fmt(gettext("%(flip)s: %(effect)s"), {flip: head, effect});
  if (last.again && last.effect !== "flip_again") text += ` ${gettext("Flip again.")}`;
  for (const seat of last.skipped || []) text += ` ${ctx.say(seat, gettext("You miss a turn."), gettext("%(name)s misses a turn."))}`;
  return text;
}

export function create(ctx) {
  const surface = ctx.surface;
  const felt = h("div", {class: "bozu-table", "aria-hidden": "true"});
  const deck = place(h("button", {type: "button", class: "bozu-deck", tabindex: "-1",
    onclick: () => flip()}, h("span", {class: "deck-count"})), DECK.x, DECK.y);
  const centre = place(h("div", {class: "bozu-centre"}, h("div", {class: "pile-cards"}),
    h("span", {class: "pile-label"})), CENTRE.x, CENTRE.y);
  felt.append(deck, centre);
  surface.replaceChildren(felt);
  let piles = [];
  let lastMoves = null;

  const flipButton = h("button", {type: "button", class: "btn btn-primary btn-big", id: "flip",
    onclick: () => flip()}, gettext("Flip a card"));
  const lastBox = h("div", {class: "bozu-last"});
  const counts = h("dl", {class: "counts"});
  ctx.panel.replaceChildren(h("div", {class: "bozu-panel"}, flipButton, lastBox, counts));

  function flip() {
    if (ctx.canAct()) ctx.act({type: "flip"});
    else ctx.refuse(deck);  // the panel's Flip is disabled then: a tap on the deck
  }

  function buildPiles(view) {
    piles = [];
    for (const el of felt.querySelectorAll(".bozu-pile")) el.remove();
    for (let seat = 0; seat < view.players; seat++) {
      const pos = seatPosition(seat, ctx.homeSeat, view.players);
      const pile = place(h("div", {class: `bozu-pile seat-${ctx.seatColour(seat)}`},
        h("div", {class: "pile-cards"}), h("span", {class: "pile-label"})), pos.x, pos.y);
      felt.append(pile);
      piles.push(pile);
    }
  }

  function stack(el, count, top) {
    const cards = el.querySelector(".pile-cards");
    cards.replaceChildren(top ? karuta(top) : h("div", {class: "karuta-empty"}));
    // The pile's thickness grows with its count (capped so it stays on the table).
    el.style.setProperty("--depth", String(Math.min(count, 40)));
    el.classList.toggle("empty", count === 0);
  }

  function render(view, event, fresh) {
    if (piles.length !== view.players || fresh) buildPiles(view);
    view.piles.forEach((pile, seat) => {
      stack(piles[seat], pile.count, pile.top);
      piles[seat].querySelector(".pile-label").textContent = `${ctx.seatLabel(seat)} · ${pile.count}`;
      piles[seat].classList.toggle("current", view.current_player === seat);
    });
    stack(centre, view.centre.count, view.centre.top);
    centre.querySelector(".pile-label").textContent = fmt(gettext("Centre · %(n)s"), {n: view.centre.count});
    deck.querySelector(".deck-count").textContent = String(view.deck_count);
    deck.style.setProperty("--depth", String(Math.min(Math.ceil(view.deck_count / 3), 34)));
    deck.hidden = view.deck_count === 0;
    const canAct = ctx.canAct();
    deck.classList.toggle("playable", canAct);
    flipButton.disabled = !canAct;
    for (const el of [deck, flipButton]) {
      if (canAct) el.dataset.act = JSON.stringify({type: "flip"});
      else delete el.dataset.act;
    }
    flipButton.textContent = ctx.room.mode === "local" && view.current_player !== null
      ? fmt(gettext("Flip a card (%(name)s)"), {name: ctx.seatName(view.current_player)})
      : gettext("Flip a card");

    const text = view.last ? describe(view.last, ctx) : gettext("Nobody has flipped yet.");
    fill(lastBox, 
      view.last ? karuta(view.last.card, "small") : null,
      h("p", {}, ctx.asPlayed(text)));
    ctx.setLastMove(text, false);  // shown beside its card above
    counts.replaceChildren(
      ...view.piles.flatMap((pile, seat) => [h("dt", {}, ctx.seatLabel(seat)), h("dd", {}, String(pile.count))]),
      h("dt", {}, gettext("Centre")), h("dd", {id: "centre-count"}, String(view.centre.count)),
      h("dt", {}, gettext("Deck")), h("dd", {id: "deck-count"}, String(view.deck_count)),
      h("dt", {}, gettext("Monks left in the deck")), h("dd", {}, String(view.deck_monks)),
      h("dt", {}, gettext("Ladies left in the deck")), h("dd", {}, String(view.deck_ladies)));

    if (!fresh && lastMoves !== null && view.moves > lastMoves && view.last) showcase(view.last, view);
    lastMoves = view.moves;
  }

  // The flipped card, large in the middle with its poet and type, then off to where it went.
  function showcase(last, view) {
    for (const old of felt.querySelectorAll(".bozu-show")) old.remove();
    const card = karuta(last.card, "large");
    const show = place(h("div", {class: "bozu-show"}, card,
      h("p", {class: "show-caption"}, `${poetName(last.card)} · ${TYPES[last.card.type]}`)),
    SURFACE_W / 2, SURFACE_H * 0.46);
    felt.append(show);
    const toCentre = last.effect === "pile_to_centre";
    const target = toCentre ? CENTRE : seatPosition(last.seat, ctx.homeSeat, view.players);
    flyTo(show, target.x, target.y, {delay: reducedMotion() ? 0 : SHOW_MS, duration: reducedMotion() ? 1 : 380});
  }

  // Cards left in the centre at the end are said to be nobody's; with none left, nothing is said.
  return {render, resultDetails: (view) => (view.centre.count ? h("p", {class: "result-note"},
    fmt(ngettext("%(n)s card was left in the centre: it belongs to nobody.",
      "%(n)s cards were left in the centre: they belong to nobody.", view.centre.count),
    {n: view.centre.count})) : null),
  // Each flip is heard, a centre taken home as a pair is, a pile sent to the centre as a miss
  // (site/js/room/feel.js calls it for each new move).
  react(last) {
    play("flip");
    if (last.effect === "takes_centre" && last.moved > 0) play("pair");
    if (last.effect === "pile_to_centre") play("miss");
  }};
}
