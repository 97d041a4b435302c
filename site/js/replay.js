// The replay page (templates/accounts/replay.html): every step of a finished game, sent by the
// server as JSON data (accounts/replay_pages.py, games/replay_steps.py), drawn one at a time.
// Each step has two tables: "open" (every card face up) and "seen" (what the player's seat was
// shown at that moment); the checkbox "Only what I saw" picks the second.
import { h } from "./dom.js";
import { gettext, ngettext, fmt } from "./i18n.js";
import { cardEl, shortName } from "./games/cards.js";
import { pictureFace, pictureName } from "./games/pictures.js";
import { karuta, poetName } from "./games/bozu.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
const last = steps.length - 1;
const pictures = data.game === "memory" && data.options.deck === "pictures";

const table = document.getElementById("replay-table");
const slider = document.getElementById("replay-slider");
const position = document.getElementById("replay-position");
const caption = document.getElementById("replay-caption");
const playButton = document.getElementById("replay-play");
const speed = document.getElementById("replay-speed");
const seenOnly = document.getElementById("replay-seen");

let current = 0;
let timer = null;

const cardName = (code) => (pictures ? pictureName(code) : shortName(code));

function card(code, {shown = true, extra = ""} = {}) {
  const el = cardEl(shown ? code : null);
  el.classList.add("replay-card");
  if (extra) el.classList.add(extra);
  if (code && shown && pictures) el.querySelector(".face").replaceChildren(...pictureFace(code));
  el.setAttribute("aria-label", code && shown ? cardName(code) : gettext("face down"));
  return el;
}

// "Player 2 turns B4 (7♥)": what the step's log entry did, in the page's language.
function describe(step, index) {
  const entry = step.entry;
  if (!entry) return gettext("The deal");
  const [seat, action, by] = entry;
  const name = seat === null ? "" : data.names[seat];
  const values = {name, pos: action.pos, card: action.card ? cardName(action.card) : ""};
  if (by === "auto") {
    if (action.type === "conceal") return gettext("The cards turned up are turned face down again.");
    if (action.type === "next_hand") return gettext("The next hand is dealt.");
  }
  switch (action.type) {
    case "flip":
      if (data.game === "memory") {
        return fmt(gettext("%(name)s: turns %(pos)s (%(card)s)"), {...values, card: memoryCard(index, action.pos)});
      }
      return fmt(gettext("%(name)s: flips %(card)s"), {...values, card: flipped(index)});
    case "take_upcard": return fmt(gettext("%(name)s: takes the upcard"), values);
    case "pass": return fmt(gettext("%(name)s: passes"), values);
    case "draw": return action.source === "discard"
      ? fmt(gettext("%(name)s: takes the top discard"), values)
      : fmt(gettext("%(name)s: draws from the stock"), values);
    case "discard": return fmt(gettext("%(name)s: discards %(card)s"), values);
    case "knock": return fmt(gettext("%(name)s: knocks, discarding %(card)s"), values);
    case "next_hand": return fmt(gettext("%(name)s: deals the next hand"), values);
    default: return fmt(gettext("%(name)s: plays"), values);
  }
}

// Bozu: the card a flip turned over was the deck's top card before it.
function flipped(index) {
  const before = steps[index - 1];
  return before && before.open.next ? poetName(before.open.next) : "";
}

function scoreLine(view) {
  return h("ol", {class: "replay-scores"}, data.names.map((name, seat) =>
    h("li", {class: `replay-seat${view.turn === seat ? " to-play" : ""}${seat === data.seat ? " own" : ""}`},
      h("span", {class: "replay-name"}, name), " ",
      h("strong", {class: "replay-score"}, String(view.scores[seat])))));
}

// Memory's grid: the one the step carries, else the last one before it (games/replay_steps.py).
function gridAt(index) {
  for (let k = index; k >= 0; k--) if (steps[k].grid) return steps[k].grid;
  return {columns: 1, places: []};
}

// "t7H@1": taken, the seven of hearts, by seat 1; "d": face down, unseen.
function parseCell(text) {
  const [rest, by] = text.slice(1).split("@");
  return {state: {d: "down", u: "up", t: "taken"}[text[0]], code: rest || null,
          by: by === undefined ? null : Number(by)};
}

function memoryCard(index, pos) {
  const cell = parseCell(steps[index].open.cells[gridAt(index).places.findIndex((p) => p[0] === pos)] || "d");
  return cell.code ? cardName(cell.code) : "";
}

function memoryTable(view, open) {
  const {columns, places} = gridAt(current);
  const grid = h("div", {class: "replay-grid", style: {"--columns": String(columns)}});
  view.cells.forEach((text, index) => {
    const [pos, row, column] = places[index];
    const {state, code, by} = parseCell(text);
    // Every card face up on the open table; one face down then is marked so, and a taken one
    // keeps its place, dimmed, with who took it.
    const shown = Boolean(code) && (open || state !== "down");
    const el = card(code, {shown, extra: `cell-${state}`});
    el.style.gridRow = String(row + 1);
    el.style.gridColumn = String(column + 1);
    el.dataset.pos = pos;
    el.dataset.state = state;
    const label = [pos, shown ? cardName(code) : gettext("face down")];
    if (state === "taken") label.push(fmt(gettext("taken by %(name)s"), {name: data.names[by]}));
    el.setAttribute("aria-label", label.join(", "));
    el.title = label.join(", ");
    grid.append(el);
  });
  return grid;
}

function ginTable(view) {
  return h("div", {class: "replay-gin"},
    view.hands.map((hand, seat) => h("div", {class: "replay-hand"},
      h("span", {class: "replay-label"}, data.names[seat]),
      h("div", {class: "replay-cards"}, hand.map((code) => card(code))))),
    h("div", {class: "replay-hand"},
      h("span", {class: "replay-label"}, fmt(gettext("Discard pile (%(count)s), stock %(stock)s"),
                                              {count: view.discard.length, stock: view.stock})),
      h("div", {class: "replay-cards"}, view.discard.slice(-6).map((code) => card(code)))));
}

function bozuTable(view) {
  const pile = (label, pileView) => h("div", {class: "replay-pile"},
    h("span", {class: "replay-label"}, fmt(gettext("%(name)s: %(count)s"), {name: label, count: pileView.count})),
    pileView.top ? karuta(pileView.top, "small") : h("div", {class: "karuta-empty"}));
  return h("div", {class: "replay-bozu"},
    view.piles.map((p, seat) => pile(data.names[seat], p)),
    pile(gettext("Centre"), view.centre),
    h("div", {class: "replay-pile"},
      h("span", {class: "replay-label"}, fmt(gettext("Deck: %(count)s"), {count: view.deck})),
      view.next ? karuta(view.next, "small")
        : h("div", {class: view.deck ? "bozu-deck-back" : "karuta-empty"})));
}

function render() {
  const step = steps[current];
  const open = !seenOnly.checked;
  const view = open ? step.open : step.seen;
  const drawn = data.game === "memory" ? memoryTable(view, open)
    : data.game === "gin" ? ginTable(view) : bozuTable(view);
  table.replaceChildren(scoreLine(view), drawn);
  table.dataset.step = String(current);
  table.dataset.view = open ? "open" : "seen";
  slider.value = String(current);
  position.textContent = fmt(gettext("Step %(step)s of %(steps)s"), {step: current, steps: last});
  caption.textContent = describe(step, current);
  document.getElementById("replay-first").disabled = current === 0;
  document.getElementById("replay-back").disabled = current === 0;
  document.getElementById("replay-forward").disabled = current === last;
  document.getElementById("replay-last").disabled = current === last;
}

function go(step) {
  current = Math.max(0, Math.min(last, step));
  if (current === last) pause();
  render();
}

// The play button is a toggle: its name stays Play, aria-pressed says it is playing.
function play() {
  if (current === last) current = 0;
  playButton.setAttribute("aria-pressed", "true");
  playButton.querySelector(".play-icon").textContent = "‖";
  timer = setInterval(() => go(current + 1), Number(speed.value));
  render();
}

function pause() {
  clearInterval(timer);
  timer = null;
  playButton.setAttribute("aria-pressed", "false");
  playButton.querySelector(".play-icon").textContent = "▶";
}

const toggle = () => (timer ? pause() : play());

slider.max = String(last);
document.getElementById("replay-first").addEventListener("click", () => go(0));
document.getElementById("replay-back").addEventListener("click", () => go(current - 1));
document.getElementById("replay-forward").addEventListener("click", () => go(current + 1));
document.getElementById("replay-last").addEventListener("click", () => go(last));
playButton.addEventListener("click", toggle);
slider.addEventListener("input", () => go(Number(slider.value)));
seenOnly.addEventListener("change", render);
speed.addEventListener("change", () => { if (timer) { pause(); play(); } });

// Arrows, Home, End and space drive the replay, except where the focused control uses the key
// itself (the slider moves by arrows, a button or checkbox by space, a field types).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  const typing = target.matches("input:not([type=checkbox]),select,textarea");
  const keys = {
    ArrowRight: () => go(current + 1), ArrowLeft: () => go(current - 1),
    Home: () => go(0), End: () => go(last), " ": toggle,
  };
  if (!(event.key in keys) || typing) return;
  if (event.key === " " && target.matches("button,a,summary,input")) return;
  event.preventDefault();
  keys[event.key]();
});

// The review (accounts/replay_review.py, docs/review.md), the owner's page only: fetched when
// asked for, its summary and every noted step, each a button that jumps there.
const review = document.getElementById("review");

async function showReview() {
  const body = document.getElementById("review-body");
  const opener = document.getElementById("review-open");
  opener.disabled = true;
  body.textContent = gettext("Loading…");
  let found;
  try {
    const response = await fetch(review.dataset.url, {credentials: "same-origin"});
    if (!response.ok) throw new Error(String(response.status));
    found = await response.json();
  } catch {
    body.textContent = gettext("The review could not be loaded. Please try again.");
    opener.disabled = false;
    return;
  }
  opener.hidden = true;
  const noted = (found.moves || found.decisions || found.events || [])
    .map((item) => ({step: item.step, text: item.text || (item.notes || []).join(" ")}))
    .filter((item) => item.text);
  body.replaceChildren(
    h("p", {class: "review-summary"}, found.summary?.text || ""),
    found.explanation ? h("p", {class: "review-explanation"}, found.explanation) : null,
    h("ol", {class: "review-notes"}, noted.map((item) => h("li", {},
      h("button", {type: "button", class: "btn btn-quiet review-step", dataset: {step: String(item.step)},
                   onclick: () => { pause(); go(item.step); }},
        fmt(gettext("Step %(step)s"), {step: item.step})),
      " ", item.text))));
}

if (review) document.getElementById("review-open").addEventListener("click", showReview);

// Verify and Download replay (accounts/replay_checks.py, docs/verify.md), on the owner's page of
// a record that kept the commitment its game showed before the first move: the server checks
// the replay file made from the record, and the page holds the answer to that commitment, as
// the result screen holds it to the one it was shown.
const verifyBox = document.getElementById("verify");

async function verifyGame(button, result) {
  const promised = verifyBox.dataset.commitment;
  button.disabled = true;
  result.textContent = gettext("Loading…");
  let text;
  let ok = false;
  try {
    const response = await fetch(verifyBox.dataset.url, {credentials: "same-origin"});
    if (!response.ok) throw new Error(String(response.status));
    const found = await response.json();
    if (found.commitment !== promised) {
      text = gettext("Not verified: this is not the deal promised before the first move.");
    } else if (!found.verified) {
      text = fmt(gettext("Not verified: %(problems)s"), {problems: found.problems.join("; ")});
    } else {
      ok = true;
      text = fmt(gettext("Verified: the deal was fixed before the first move (commitment %(commitment)s…) and every card shown matches it."),
        {commitment: promised.slice(0, 12)});
      if (found.cpu_moves > 0) {
        text += " " + fmt(ngettext("The CPU chose its one move from its own view.",
          "The CPU chose each of its %(n)s moves from its own view.", found.cpu_moves), {n: found.cpu_moves});
      }
    }
  } catch {
    text = gettext("The game could not be verified just now. Try again.");
  }
  result.textContent = text;
  verifyBox.classList.toggle("verify-failed", !ok);
  button.disabled = false;
}

if (verifyBox) {
  const result = h("span", {id: "verify-result", role: "status"});
  const button = h("button", {type: "button", class: "btn", id: "verify-game"}, gettext("Verify"));
  button.addEventListener("click", () => verifyGame(button, result));
  verifyBox.replaceChildren(button, " ",
    h("a", {class: "btn btn-quiet", id: "download-replay", href: verifyBox.dataset.download,
            download: `${data.game}-replay.json`}, gettext("Download replay")),
    " ", result);
}

render();
