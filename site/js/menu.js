// The game menus: read the options, create a room through the API, go to its table.
import { createRoom } from "./dom.js";
import { gettext, fmt } from "./i18n.js";

// A disabled option is one the other options rule out (syncOptions): it is not sent.
function readOptions(form) {
  const options = {};
  for (const field of form.querySelectorAll("[data-option]:enabled")) {
    const type = field.dataset.type;
    if (type === "bool") options[field.dataset.option] = field.checked;
    else if (type === "int") options[field.dataset.option] = Number.parseInt(field.value, 10);
    else options[field.dataset.option] = field.value;
  }
  return options;
}

async function start(form, mode, button) {
  const status = form.querySelector(".menu-status");
  const options = readOptions(form);
  if (mode === "solo") options.players = 1;
  const level = form.querySelector("input[name=cpu_level]:checked");
  const body = {game: form.dataset.game, mode, options, cpu_level: level ? level.value : null,
                origin: "menu"};
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => { b.disabled = true; });
  button.classList.add("busy");
  status.textContent = gettext("Setting the table…");
  try {
    location.assign(await createRoom(body));
  } catch (error) {
    status.textContent = fmt(gettext("Could not start the game: %(reason)s"), {reason: error.message});
    buttons.forEach((b) => { b.disabled = false; });
    button.classList.remove("busy");
  }
}

// Memory: two decks and pictures are played with the "identical" rule, which the engine implies
// (the match condition is left out); pictures have no jokers and no 104-card deck; the long
// table holds 52 cards without jokers.
function syncOptions(form) {
  const field = (key) => form.querySelector(`[data-option=${key}]`);
  const [deck, cards, match, jokers, longTable] = ["deck", "cards", "match", "jokers", "long_table"].map(field);
  if (!cards || !match) return;
  const pictures = Boolean(deck) && deck.value === "pictures";
  const twoDecks = cards.querySelector("option[value='104']");
  if (twoDecks) twoDecks.disabled = pictures;
  if (pictures && cards.value === "104") cards.value = "52";
  match.disabled = pictures || cards.value === "104";
  if (jokers) jokers.disabled = pictures;
  if (longTable) longTable.disabled = cards.value !== "52" || Boolean(jokers && jokers.checked && !pictures);
}

for (const form of document.querySelectorAll("form.menu")) {
  form.addEventListener("change", () => syncOptions(form));
  syncOptions(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter || form.querySelector("button[data-mode]");
    start(form, button.dataset.mode, button);
  });
}
