// Gin Rummy: your hand sorted by its best split (a colour bar under each meld), the stock and
// the discard pile, the opponent's cards face down; draw with one tap, discard with two
// (lift, place); Knock only when it is legal; both hands shown when a hand ends, until this
// player presses "Next hand" (even if the other player has already been dealt the next one);
// every earlier hand of the game one tap away in "Previous hands".
import { h, fill } from "../dom.js";
import { gettext, fmt } from "../i18n.js";
import { place, cardButtonsSwitch } from "./common.js";
import { SURFACE_W, SURFACE_H, PHONE_SCREEN } from "../room/table.js";
import { cardEl, shortName, longName, deadwoodValue } from "./cards.js";
import { briefly } from "../room/feel.js";
import { play } from "../sound.js";

const GROUP_GAP = 26;
// Where things lie on the table: the stock, the discard pile and the Knock button in the
// middle, the opponent's cards at `theirsY`, your hand in `handRows` (a bar under each meld
// `barBelow` lower), one card `step` from the next. A phone's table is seen smaller, so there
// the cards are larger and the hand lies in two rows of whole cards (site/css/site.css).
const WIDE = {height: SURFACE_H, stock: {x: 420, y: 320}, discard: {x: 580, y: 320}, knock: {x: 800, y: 320},
  theirsY: 90, handRows: [590], step: 62, barBelow: 72};
const PHONE = {height: 700, stock: {x: 380, y: 235}, discard: {x: 560, y: 235}, knock: {x: 790, y: 235},
  theirsY: 70, handRows: [430, 600], step: 110, barBelow: 80};

// The hand's places: its cards in the server's order (melds first), split evenly over the rows,
// a group's cards kept `GROUP_GAP` apart from the next group's, and a bar under each meld's
// part of a row.
function handPlaces(hand, spots) {
  const cards = groups(hand).flatMap((g) => g.cards.map((card) => ({card, meld: g.meld})));
  const perRow = Math.ceil(cards.length / spots.handRows.length);
  const places = [];
  const bars = [];
  spots.handRows.forEach((y, r) => {
    const row = cards.slice(r * perRow, (r + 1) * perRow);
    const breaks = row.filter((c, i) => i > 0 && c.meld !== row[i - 1].meld).length;
    let x = SURFACE_W / 2 - (row.length * spots.step + breaks * GROUP_GAP) / 2 + spots.step / 2;
    let start = x;
    row.forEach((c, i) => {
      if (i > 0 && c.meld !== row[i - 1].meld) {
        x += GROUP_GAP;
        start = x;
      }
      places.push({...c, x, y});
      const ends = i === row.length - 1 || row[i + 1].meld !== c.meld;
      if (ends && c.meld !== null) bars.push({meld: c.meld, x: (start + x) / 2, y: y + spots.barBelow, width: x - start + spots.step - 8});
      x += spots.step;
    });
  });
  return {places, bars};
}

function find(view, type, field, value) {
  return (view.legal_actions || []).find((a) => a.type === type && (field === undefined || a[field] === value));
}

// Cards grouped as the server's best split says: melds first, then deadwood.
function groups(hand) {
  const result = hand.melds.map((cards, index) => ({cards, meld: index}));
  if (hand.deadwood_cards.length) result.push({cards: hand.deadwood_cards, meld: null});
  return result;
}

// How a hand ended, said to this page's player in the second person when they knocked or were
// knocked against ("You knock…", "…against your 9…", "…but you have 4: you score 29."); a gin
// and a knock are won by the knocker, an undercut by the defender (games/engines/gin.py).
export function outcomeText(summary, ctx) {
  const knocker = summary.knocker;
  if (knocker === null || knocker === undefined) {
    return gettext("Dead hand: the stock ran out. Nobody scores, and the same dealer deals again.");
  }
  const values = {
    name: ctx.seatName(knocker), defender: ctx.seatName(1 - knocker), winner: ctx.seatName(summary.winner),
    points: summary.points, kd: summary.deadwoods[knocker], dd: summary.deadwoods[1 - knocker],
  };
  switch (summary.outcome) {
    case "gin": return ctx.say(knocker, gettext("You go gin! You score %(points)s."),
      gettext("%(name)s goes gin! %(name)s scores %(points)s."), values);
    case "knock":
      if (ctx.isYou(1 - knocker)) {
        return fmt(gettext("%(name)s knocks with %(kd)s against your %(dd)s: %(name)s scores %(points)s."), values);
      }
      return ctx.say(knocker, gettext("You knock with %(kd)s against %(dd)s: you score %(points)s."),
        gettext("%(name)s knocks with %(kd)s against %(dd)s: %(winner)s scores %(points)s."), values);
    default:
      if (ctx.isYou(1 - knocker)) {
        return fmt(gettext("Undercut! %(name)s knocked with %(kd)s but you have %(dd)s: you score %(points)s."), values);
      }
      return ctx.say(knocker, gettext("Undercut! You knocked with %(kd)s but %(defender)s has %(dd)s: %(winner)s scores %(points)s."),
        gettext("Undercut! %(name)s knocked with %(kd)s but %(defender)s has %(dd)s: %(winner)s scores %(points)s."), values);
  }
}

// Both hands at the end of a hand: melds, deadwood and lay-offs. The defender's laid-off cards
// are shown on the knocker's meld they extend, the only place they still count. This page's
// player's own side is headed "You".
export function handSummary(summary, ctx, small = true) {
  const layoffs = summary.layoffs || [];
  const laidOn = (seat, i) => (seat === summary.knocker ? layoffs.filter((l) => l.meld === i).map((l) => l.card) : []);
  const sides = summary.hands.map((side, seat) => h("div", {class: "gin-side", dataset: {seat}},
    h("h3", {}, ctx.say(seat, gettext("You · deadwood %(d)s"), gettext("%(name)s · deadwood %(d)s"), {d: summary.deadwoods[seat]})),
    h("div", {class: "gin-melds"},
      side.melds.map((meld, i) => h("div", {class: `meld meld-${i % 4}`, "aria-label": gettext("meld")},
        meld.map((c) => mini(c, false)), laidOn(seat, i).map((c) => mini(c, true)))),
      side.deadwood_cards.length
        ? h("div", {class: "meld deadwood", "aria-label": gettext("deadwood")}, side.deadwood_cards.map((c) => mini(c, false)))
        : null)));
  return h("div", {class: `gin-summary${small ? " small" : ""}`},
    h("p", {class: "gin-outcome"}, outcomeText(summary, ctx)),
    summary.layoffs && summary.layoffs.length
      ? h("p", {class: "gin-layoffs"}, fmt(gettext("Laid off: %(cards)s"), {cards: summary.layoffs.map((l) => shortName(l.card)).join(", ")}))
      : null,
    sides);
}

function mini(code, laidOff) {
  return h("span", {class: `mini-card${/[HD]$/.test(code) ? " red-suit" : ""}${laidOff ? " laid-off" : ""}`,
    title: laidOff ? fmt(gettext("%(card)s (laid off)"), {card: longName(code)}) : longName(code), dataset: {card: code}},
  shortName(code));
}

export function create(ctx) {
  let lifted = null;
  let view = null;
  let latest = null; // the room's view as it came; `view` is what is shown
  // The finished hand this player still reads, and the number of the last one they dismissed
  // (kept for the tab: a reload does not skip a result not yet read).
  let held = null;
  let dismissed;
  let overKey = null; // what the result sheet shows now
  const phone = window.matchMedia(PHONE_SCREEN).matches;
  const spots = phone ? PHONE : WIDE;
  ctx.table.setSurfaceSize(SURFACE_W, spots.height);
  const felt = h("div", {class: `gin-table${phone ? " gin-phone" : ""}`, "aria-hidden": "true"});
  const stock = place(h("button", {type: "button", class: "gin-stock", tabindex: "-1", onclick: () => tapStock()},
    cardEl(null), h("span", {class: "stock-count"})), spots.stock.x, spots.stock.y);
  const discard = place(h("button", {type: "button", class: "gin-discard", tabindex: "-1", onclick: () => tapDiscardPile()}),
    spots.discard.x, spots.discard.y);
  // Pass (on the upcard) and Knock (or Gin) on the table too, beside the discard pile.
  const tableButton = place(h("button", {type: "button", class: "gin-table-button", tabindex: "-1", hidden: true}),
    spots.knock.x, spots.knock.y);
  const mine = h("div", {class: "gin-hand mine"});
  const theirs = h("div", {class: "gin-hand theirs"});
  // The hand's result is a sheet over the page, outside the scaled table, so that it reads at
  // full size on a phone; its buttons are in it.
  document.getElementById("gin-handover")?.remove();
  const over = h("section", {class: "gin-handover", id: "gin-handover", "aria-live": "polite", hidden: true});
  (ctx.surface.closest("#table-wrap") || document.body).append(over);
  const handsDialog = h("dialog", {class: "gin-hands-dialog", id: "gin-hands"});
  document.getElementById("gin-hands")?.remove();
  document.body.append(handsDialog);
  const banner = h("div", {class: "gin-table-status"});
  felt.append(banner, stock, discard, tableButton, theirs, mine);
  ctx.surface.replaceChildren(felt);

  const status = h("div", {class: "gin-status"});
  const prompt = h("p", {class: "gin-prompt", "aria-live": "polite"});
  const controls = h("div", {class: "gin-controls"});
  const handBox = h("div", {class: "gin-hand-buttons"});
  const handSwitch = cardButtonsSwitch(handBox);
  const info = h("div", {class: "gin-info"});
  ctx.panel.replaceChildren(h("div", {class: "gin-panel"}, status, prompt, controls, handSwitch, handBox, info));

  const myTurn = () => ctx.canAct() && view.current_player !== null;

  // A tap that is not a move now is answered with the reason (site/js/room/page.js).
  function tapStock() {
    if (!myTurn()) ctx.refuse(stock);
    else if (find(view, "draw", "source", "stock")) ctx.act({type: "draw", source: "stock"});
    else ctx.refuse(stock, "wrong_phase");
  }

  // What a tap on the discard pile sends now, if anything.
  function pileAction() {
    if (find(view, "take_upcard")) return {type: "take_upcard"};
    if (find(view, "draw", "source", "discard")) return {type: "draw", source: "discard"};
    if (lifted && find(view, "discard", "card", lifted)) return {type: "discard", card: lifted};
    return null;
  }

  function tapDiscardPile() {
    if (!myTurn()) {
      ctx.refuse(discard);
      return;
    }
    const action = pileAction();
    if (!action) ctx.refuse(discard, "wrong_phase");
    else if (action.type === "discard") placeLifted();
    else ctx.act(action);
  }

  function tapCard(card, element = null) {
    if (!myTurn() || view.phase !== "discard" || !find(view, "discard", "card", card)) {
      if (element) ctx.refuse(element, view.phase === "discard" ? "illegal_action" : "wrong_phase");
      return;
    }
    if (lifted === card) placeLifted();
    else {
      lifted = card;
      render(view);
    }
  }

  function placeLifted() {
    const card = lifted;
    lifted = null;
    ctx.act({type: "discard", card});
  }

  // A hand card names the discard its second tap sends, and only while that discard is legal.
  function handDataset(card, turn) {
    return turn && view.phase === "discard" && find(view, "discard", "card", card)
      ? {card, act: JSON.stringify({type: "discard", card})} : {card};
  }

  function knockCard() {
    const knocks = (view.legal_actions || []).filter((a) => a.type === "knock").map((a) => a.card);
    if (!knocks.length) return null;
    if (lifted && knocks.includes(lifted)) return lifted;
    // Otherwise the highest deadwood card that allows the knock.
    const loose = view.hand.deadwood_cards.filter((c) => knocks.includes(c));
    loose.sort((a, b) => deadwoodValue(b) - deadwoodValue(a));
    return loose[0] || knocks[0];
  }

  const dismissedKey = () => `gin-dismissed:${ctx.room.id}`;

  function readDismissed() {
    try {
      const stored = sessionStorage.getItem(dismissedKey());
      return stored === null ? null : Number(stored);
    } catch {
      return null;
    }
  }

  function saveDismissed() {
    try {
      sessionStorage.setItem(dismissedKey(), String(dismissed));
    } catch {
      // Storage refused (private mode): the result is simply not kept over a reload.
    }
  }

  // A seated player keeps the last hand's result until they press Next hand; a page opened
  // while a hand is played does not bring back a result that was read before.
  function holdResult() {
    const summary = latest.last_hand;
    if (!summary || !mySeat() || latest.phase === "over") {
      held = null;
      return;
    }
    if (dismissed === undefined) dismissed = readDismissed();
    if (dismissed === null) {
      dismissed = latest.phase === "hand_over" ? summary.hand_number - 1 : summary.hand_number;
      // Kept at once: a page that draws the room again (a resync) still holds the result shown.
      saveDismissed();
    }
    held = summary.hand_number > dismissed ? summary : null;
  }

  function nextHand() {
    dismissed = held ? held.hand_number : dismissed;
    saveDismissed();
    held = null;
    if (find(latest, "next_hand")) ctx.act({type: "next_hand"});
    else render(latest);
  }

  function finishedHands() {
    return [...(view.previous_hands || []), ...(view.last_hand ? [view.last_hand] : [])];
  }

  // Every finished hand of the game, the latest first.
  function showPreviousHands() {
    const hands = finishedHands().reverse();
    handsDialog.replaceChildren(
      h("h2", {}, gettext("Previous hands")),
      ...hands.map((summary) => h("section", {class: "gin-earlier-hand"},
        h("h3", {}, fmt(gettext("Hand %(n)s"), {n: summary.hand_number})),
        handSummary(summary, ctx),
        h("p", {class: "gin-hand-score"}, fmt(gettext("Score after it: %(a)s %(sa)s – %(sb)s %(b)s"), {
          a: ctx.seatLabel(ctx.homeSeat), sa: summary.scores[ctx.homeSeat],
          sb: summary.scores[1 - ctx.homeSeat], b: ctx.seatLabel(1 - ctx.homeSeat)})))),
      h("form", {method: "dialog"}, h("button", {class: "btn btn-primary", id: "gin-hands-close"}, gettext("Close"))));
    handsDialog.showModal();
  }

  function previousHandsButton() {
    return finishedHands().length
      ? h("button", {type: "button", class: "btn", id: "gin-previous-hands", onclick: showPreviousHands}, gettext("Previous hands"))
      : null;
  }

  function render(newView) {
    latest = newView;
    holdResult();
    // While the result is held the page shows the hand as it ended, whatever the room does.
    view = held ? {...latest, phase: "hand_over", current_player: null, legal_actions: [], hand: null,
      last: {type: "hand_over"}, last_hand: held} : latest;
    const home = ctx.homeSeat;
    const other = 1 - home;
    const hand = view.hand;
    if (!hand || !hand.cards.includes(lifted) || view.phase !== "discard") lifted = null;
    const playing = ["upcard", "draw", "discard"].includes(view.phase);
    const turn = myTurn();

    // Top line: deadwood and the match score, always.
    const scoreText = fmt(gettext("%(a)s %(sa)s – %(sb)s %(b)s · to %(target)s"), {
      a: ctx.seatLabel(home), sa: view.scores[home], sb: view.scores[other], b: ctx.seatLabel(other), target: view.target});
    // With eleven cards the figure that matters is what the best discard leaves.
    let deadwoodText = "";
    if (hand && hand.deadwood_after_discard !== null && hand.deadwood_after_discard !== undefined) {
      deadwoodText = fmt(gettext("Deadwood %(d)s after the best discard"), {d: hand.deadwood_after_discard});
    } else if (hand) deadwoodText = fmt(gettext("Deadwood %(d)s"), {d: hand.deadwood});
    fill(status, 
      hand ? h("span", {class: "gin-deadwood", id: "gin-deadwood"}, deadwoodText) : null,
      h("span", {class: "gin-score", id: "gin-score"}, scoreText),
      h("span", {class: "gin-handno"}, fmt(gettext("Hand %(n)s"), {n: view.hand_number})));
    fill(banner, hand ? h("strong", {}, deadwoodText) : null, h("span", {}, scoreText));

    // Stock and discard pile.
    stock.querySelector(".stock-count").textContent = playing ? String(view.stock_count) : "";
    stock.hidden = !playing;
    stock.classList.toggle("playable", turn && Boolean(find(view, "draw", "source", "stock")));
    const top = view.discard_pile[view.discard_pile.length - 1];
    const under = view.discard_pile[view.discard_pile.length - 2];
    fill(discard, under ? cardEl(under, {attrs: {class: "pcard under"}}) : null,
      top ? cardEl(top, {attrs: {class: "pcard top"}}) : null);
    discard.hidden = !playing;
    discard.classList.toggle("empty", !top);
    setAct(stock, turn && find(view, "draw", "source", "stock") ? {type: "draw", source: "stock"} : null);
    setAct(discard, turn ? pileAction() : null);
    discard.classList.toggle("playable", turn && Boolean(find(view, "take_upcard") || find(view, "draw", "source", "discard")
      || (lifted && find(view, "discard", "card", lifted))));

    renderHands(home, other, playing, turn);
    renderPanel(home, other, playing, turn, top);
    renderTableButton(turn);
    renderOver();
    // Once a hand is over its summary in the panel says how it ended: the line would repeat it.
    ctx.setLastMove(lastText(), playing || !view.last_hand);
  }

  function renderHands(home, other, playing, turn) {
    const hand = view.hand;
    mine.replaceChildren();
    if (hand && playing) {
      const drawn = view.last && view.last.type === "draw" && view.last.seat === home ? view.last.card : null;
      const {places, bars} = handPlaces(hand, spots);
      for (const {card, x, y} of places) {
        const banned = card === view.cannot_discard;
        const el = cardEl(card, {tag: "button", attrs: {
          tabindex: "-1", class: `pcard in-hand${lifted === card ? " lifted" : ""}${banned ? " sunk" : ""}${card === drawn ? " new" : ""}`,
          dataset: handDataset(card, turn), onclick: (event) => tapCard(card, event.currentTarget)}});
        if (turn && view.phase === "discard" && !banned) el.classList.add("playable");
        // Each card a hair above the one to its left, as in a fanned hand: overlapping
        // cards in one plane would make taps land on either.
        el.style.setProperty("--z", `${1 + mine.childElementCount * 0.4}px`);
        mine.append(place(el, x, y));
      }
      for (const bar of bars) {
        mine.append(place(h("span", {class: `meld-bar meld-${bar.meld % 4}`, style: {width: `${bar.width}px`}}), bar.x, bar.y));
      }
    }
    theirs.replaceChildren();
    const showSeat = hand ? other : null;
    const rows = showSeat === null ? [[other, spots.theirsY], [home, spots.handRows.at(-1)]] : [[other, spots.theirsY]];
    if (!playing) return;
    for (const [seat, y] of rows) {
      const count = view.card_counts[seat];
      const known = view.known_cards[seat] || [];
      const x0 = 500 - ((count - 1) * 34) / 2;
      for (let i = 0; i < count; i++) {
        const code = known[i] || null;
        theirs.append(place(cardEl(code, {attrs: {class: `pcard small${code ? " known" : ""}`}}), x0 + i * 34, y));
      }
    }
  }

  function renderPanel(home, other, playing, turn, top) {
    const items = [];
    let text;
    if (!playing) text = view.phase === "hand_over" ? gettext("The hand is over.") : gettext("The game is over.");
    else if (!turn) text = fmt(gettext("%(name)s to play."), {name: ctx.seatName(view.current_player)});
    else if (view.phase === "upcard") text = fmt(gettext("Take the upcard %(card)s, or pass."), {card: shortName(top)});
    else if (view.phase === "draw") text = view.stock_only ? gettext("Both passed: draw from the stock.")
      : gettext("Draw from the stock or the discard pile.");
    else text = lifted ? fmt(gettext("Press %(card)s again, or Place, to discard it."), {card: shortName(lifted)})
      : gettext("Choose a card to discard.");
    prompt.textContent = text;

    if (turn && find(view, "take_upcard")) {
      items.push(btn(fmt(gettext("Take the upcard %(card)s"), {card: shortName(top)}), {type: "take_upcard"}, "take-upcard", true));
      items.push(btn(gettext("Pass"), {type: "pass"}, "pass"));
    }
    if (turn && view.phase === "draw") {
      items.push(btn(fmt(gettext("Draw from the stock (%(n)s)"), {n: view.stock_count}),
        {type: "draw", source: "stock"}, "draw-stock", true));
      if (find(view, "draw", "source", "discard")) {
        items.push(btn(fmt(gettext("Take %(card)s from the discard pile"), {card: shortName(top)}),
          {type: "draw", source: "discard"}, "draw-discard"));
      }
    }
    if (turn && view.phase === "discard") {
      const place = btn(lifted ? fmt(gettext("Place %(card)s on the discard pile"), {card: shortName(lifted)})
        : gettext("Place on the discard pile"), lifted ? {type: "discard", card: lifted} : null, "place", false, () => placeLifted());
      place.disabled = !lifted;
      items.push(place);
      const knock = knockCard();
      if (knock) {
        items.push(btn(knockLabel(knock), {type: "knock", card: knock}, "knock", true, () => knockWith(knock)));
      }
    }
    const previous = sheetShown() ? null : previousHandsButton();
    if (previous) items.push(previous);
    controls.replaceChildren(...items);

    handBox.replaceChildren();
    handSwitch.hidden = !(view.hand && playing);
    if (view.hand && playing) {
      handBox.append(h("h3", {}, gettext("Your hand")));
      groups(view.hand).forEach((g) => {
        const label = g.meld === null ? gettext("Deadwood") : fmt(gettext("Meld %(n)s"), {n: g.meld + 1});
        handBox.append(h("div", {role: "group", "aria-label": label, class: `hand-group${g.meld === null ? " deadwood" : ` meld-${g.meld % 4}`}`},
          h("span", {class: "group-label"}, label),
          g.cards.map((card) => {
            const banned = card === view.cannot_discard;
            const b = h("button", {type: "button", class: `card-btn${/[HD]$/.test(card) ? " red-suit" : ""}${banned ? " sunk" : ""}`,
              "aria-pressed": String(lifted === card), dataset: handDataset(card, turn),
              "aria-label": banned ? fmt(gettext("%(card)s (just taken: may not be discarded)"), {card: longName(card)}) : longName(card),
              onclick: () => tapCard(card)}, shortName(card));
            b.disabled = !turn || view.phase !== "discard" || banned;
            return b;
          })));
      });
    }
    const known = view.known_cards[1 - ctx.homeSeat] || [];
    fill(info, playing ? h("p", {}, fmt(gettext("%(name)s holds %(n)s cards."), {name: ctx.seatName(1 - ctx.homeSeat), n: view.card_counts[1 - ctx.homeSeat]}),
      known.length ? ` ${fmt(gettext("Known: %(cards)s."), {cards: known.map(shortName).join(", ")})}` : "") : null,
    playing ? h("p", {}, fmt(gettext("Stock: %(n)s · Dealer: %(name)s"), {n: view.stock_count, name: ctx.seatLabel(view.dealer)})) : null,
    !playing && view.last_hand ? handSummary(view.last_hand, ctx) : null);
  }

  function knockLabel(knock) {
    const gin = view.hand.deadwood - (view.hand.deadwood_cards.includes(knock) ? deadwoodValue(knock) : 0) === 0;
    return gin ? fmt(gettext("Gin! (discard %(card)s)"), {card: shortName(knock)})
      : fmt(gettext("Knock (discard %(card)s)"), {card: shortName(knock)});
  }

  function knockWith(card) {
    lifted = null;
    ctx.act({type: "knock", card});
  }

  // The table's Pass or Knock: the panel's move, beside the discard pile.
  function renderTableButton(turn) {
    const knock = turn && view.phase === "discard" ? knockCard() : null;
    const pass = turn && find(view, "pass");
    tableButton.hidden = !knock && !pass;
    setAct(tableButton, knock ? {type: "knock", card: knock} : (pass ? {type: "pass"} : null));
    if (knock) {
      tableButton.textContent = knockLabel(knock);
      tableButton.onclick = () => knockWith(knock);
    } else if (pass) {
      tableButton.textContent = gettext("Pass");
      tableButton.onclick = () => ctx.act({type: "pass"});
    }
  }

  function mySeat() {
    return ctx.room.you && ctx.room.you.seats && ctx.room.you.seats.length > 0;
  }

  // The result sheet: shown to a player until they press Next hand, to a spectator while the
  // room is between hands.
  function sheetShown() {
    return Boolean(held || (view.phase === "hand_over" && view.last_hand && !mySeat()));
  }

  function renderOver() {
    const show = sheetShown();
    over.hidden = !show;
    // Drawn again only when what it says changes: a button under a finger stays where it is.
    const key = show ? JSON.stringify([view.last_hand.hand_number, Boolean(held), finishedHands().length, ctx.homeSeat])
      : null;
    const dealing = find(latest, "next_hand") ? {type: "next_hand"} : null;
    if (key === overKey) {
      // The other player dealt meanwhile: the same button now only ends this page's result.
      const shown = over.querySelector("#gin-next-hand");
      if (shown) setAct(shown, dealing);
      return;
    }
    overKey = key;
    if (!show) {
      over.replaceChildren();
      return;
    }
    const next = held ? h("button", {type: "button", class: "btn btn-primary", id: "gin-next-hand", onclick: nextHand,
      dataset: dealing ? {act: JSON.stringify(dealing)} : {}}, gettext("Next hand")) : null;
    over.replaceChildren(h("h2", {}, fmt(gettext("Hand %(n)s"), {n: view.last_hand.hand_number})),
      handSummary(view.last_hand, ctx, false),
      h("p", {class: "gin-hand-score"}, fmt(gettext("%(a)s %(sa)s – %(sb)s %(b)s · to %(target)s"), {
        a: ctx.seatLabel(ctx.homeSeat), sa: view.last_hand.scores[ctx.homeSeat], sb: view.last_hand.scores[1 - ctx.homeSeat],
        b: ctx.seatLabel(1 - ctx.homeSeat), target: view.target})),
      h("div", {class: "gin-handover-buttons"}, next, previousHandsButton()));
  }

  // The last move, said to this page's player when it was theirs ("You draw…").
  function lastText() {
    const last = view.last;
    if (!last) return "";
    const values = {card: last.card ? shortName(last.card) : ""};
    const say = (forYou, forOthers) => ctx.say(last.seat, forYou, forOthers, values);
    switch (last.type) {
      case "deal": return ctx.say(last.dealer, gettext("Hand %(n)s: you deal."), gettext("Hand %(n)s: %(name)s deals."), {n: last.hand_number});
      case "take_upcard": return say(gettext("You take the upcard %(card)s."), gettext("%(name)s takes the upcard %(card)s."));
      case "pass": return say(gettext("You pass on %(card)s."), gettext("%(name)s passes on %(card)s."));
      case "draw":
        if (last.source === "discard") return say(gettext("You take %(card)s from the discard pile."), gettext("%(name)s takes %(card)s from the discard pile."));
        return last.card ? say(gettext("You draw %(card)s from the stock."), gettext("%(name)s draws %(card)s from the stock."))
          : say(gettext("You draw from the stock."), gettext("%(name)s draws from the stock."));
      case "discard": return say(gettext("You discard %(card)s."), gettext("%(name)s discards %(card)s."));
      default: return view.last_hand ? outcomeText(view.last_hand, ctx) : "";
    }
  }

  // A panel button that sends `action` (named in data-act) unless `onclick` does more.
  function btn(label, action, id, primary = false, onclick = () => ctx.act(action)) {
    return h("button", {type: "button", class: `btn${primary ? " btn-primary" : ""}`, id: `gin-${id}`, onclick,
      dataset: action ? {act: JSON.stringify(action)} : {}}, label);
  }

  function setAct(el, action) {
    if (action) el.dataset.act = JSON.stringify(action);
    else delete el.dataset.act;
  }

  return {
    render,
    resultDetails(finalView, result) {
      const home = ctx.homeSeat;
      return h("div", {class: "gin-final"},
        h("p", {class: "gin-final-score"}, fmt(gettext("Final score: %(a)s %(sa)s – %(sb)s %(b)s"), {
          a: ctx.seatLabel(home), sa: result.scores[home], sb: result.scores[1 - home], b: ctx.seatLabel(1 - home)})),
        result.deciding_hand ? h("h3", {}, gettext("The deciding hand")) : null,
        result.deciding_hand ? handSummary(result.deciding_hand, ctx) : null);
    },
    // Each card taken or laid down is heard; a gin makes the hands shown glow (site/js/room/feel.js
    // calls it for each new move).
    react(last) {
      if (["take_upcard", "draw", "discard"].includes(last.type)) play("flip");
      if (last.type !== "hand_over" && last.type !== "game_over") return;
      if (last.outcome === "gin") {
        play("gin");
        briefly(document.querySelectorAll(".gin-handover:not([hidden]), #result .gin-summary"), "gin-made");
      } else if (last.outcome === "dead") play("miss");
      else play("pair");
    },
  };
}
