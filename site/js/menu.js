// The game menus: read the options, create a room through the API, go to its table.
import { createRoom, gameSpecs } from "./dom.js";
import { gettext, fmt } from "./i18n.js";

const GAMES = gameSpecs();

// A disabled option is one the other options rule out (syncOptions): it is not sent, and the
// engine implies its value.
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

// Each game's last options and CPU level are kept on this device: its menu opens with them, and
// the home page's one-tap Play uses them.
const lastKey = (form) => `menu-last:${form.dataset.game}`;

function remember(form, options, level, pace) {
  try {
    localStorage.setItem(lastKey(form), JSON.stringify({options, cpu_level: level, pace}));
  } catch {
    // Storage refused (private mode): the menu simply opens with the defaults next time.
  }
}

function restore(form) {
  let saved;
  try {
    saved = JSON.parse(localStorage.getItem(lastKey(form)) || "null");
  } catch {
    saved = null;  // storage refused, or not what this page wrote
  }
  if (!saved) return;
  for (const [key, value] of Object.entries(saved.options || {})) {
    const field = form.querySelector(`[data-option="${key}"]`);
    if (!field) continue;
    if (field.dataset.type === "bool") field.checked = Boolean(value);
    else if (field.tagName !== "SELECT" || field.querySelector(`option[value="${value}"]`)) field.value = String(value);
  }
  const level = saved.cpu_level && form.querySelector(`input[name=cpu_level][value="${saved.cpu_level}"]`);
  if (level) level.checked = true;
  const pace = saved.pace && form.querySelector(`input[name=pace][value="${saved.pace}"]`);
  if (pace) pace.checked = true;
}

async function start(form, mode, button) {
  const status = form.querySelector(".menu-status");
  const options = readOptions(form);
  const level = form.querySelector("input[name=cpu_level]:checked");
  const pace = form.querySelector("input[name=pace]:checked");
  remember(form, {...options}, level ? level.value : null, pace ? pace.value : null);
  if (mode === "solo") options.players = 1;
  const body = {game: form.dataset.game, mode, options, cpu_level: level ? level.value : null,
                origin: "menu"};
  // Only a room with friends has a pace: the other modes have no clock.
  if (mode === "friends" && pace) body.pace = pace.value;
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

function fieldValue(field) {
  if (field.disabled) return undefined;
  if (field.dataset.type === "bool") return field.checked;
  return field.dataset.type === "int" ? Number.parseInt(field.value, 10) : field.value;
}

// The game's spec says which option values rule out an option or one of its choices (Memory:
// two decks rule out the match condition). Repeated until nothing changes, since an option
// ruled out no longer rules out others.
function syncOptions(form) {
  const game = GAMES[form.dataset.game];
  if (!game) return;
  const field = (key) => form.querySelector(`[data-option=${key}]`);
  const holds = (rules) => rules.some(([key, value]) => field(key) && fieldValue(field(key)) === value);
  for (let round = 0; round <= game.options.length; round += 1) {
    let changed = false;
    for (const option of game.options) {
      const input = field(option.key);
      if (!input) continue;
      for (const choice of option.choices || []) {
        const element = input.querySelector(`option[value="${choice.value}"]`);
        const off = holds(choice.off_when);
        if (element && element.disabled !== off) { element.disabled = off; changed = true; }
        if (off && String(choice.value) === input.value) { input.value = String(option.default); changed = true; }
      }
      const off = holds(option.off_when);
      if (input.disabled !== off) { input.disabled = off; changed = true; }
    }
    if (!changed) return;
  }
}

for (const form of document.querySelectorAll("form.menu")) {
  form.addEventListener("change", () => syncOptions(form));
  restore(form);
  syncOptions(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter || form.querySelector("button[data-mode]");
    start(form, button.dataset.mode, button);
  });
}

for (const button of document.querySelectorAll("[data-quick-game]")) {
  button.addEventListener("click", () => {
    const form = document.querySelector(`form.menu[data-game="${button.dataset.quickGame}"]`);
    if (form) start(form, "cpu", button);
  });
}
