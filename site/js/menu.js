// The game menus: read the options, create a room through the API, go to its table.
import { createRoom } from "./dom.js";
import { gettext, fmt } from "./i18n.js";

function readOptions(form) {
  const options = {};
  for (const field of form.querySelectorAll("[data-option]")) {
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
  // Two decks are played with the "identical" rule, which the engine implies from cards=104.
  if (options.cards === 104) delete options.match;
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

function syncMatchRule(form) {
  const cards = form.querySelector("[data-option=cards]");
  const match = form.querySelector("[data-option=match]");
  if (cards && match) match.disabled = cards.value === "104";
}

for (const form of document.querySelectorAll("form.menu")) {
  form.addEventListener("change", () => syncMatchRule(form));
  syncMatchRule(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter || form.querySelector("button[data-mode]");
    start(form, button.dataset.mode, button);
  });
}
