// The feel of the game: when something happens at the table or the player's turn comes, a
// short sound (site/js/sound.js, only when the player has turned sound on) and a brief animation class (keyframes in
// site/css/site.css, all of them off under prefers-reduced-motion): each game's renderer reacts to
// its own moves (its `react` hook, site/js/games/<game>.js), and here the player's turn is heard
// and a win glows on the result screen.
import { play, soundOn, setSound } from "../sound.js";

const BRIEF_MS = 1200;

// The animation class `name` on each element for a moment (the renderers' reactions use it too).
export function briefly(elements, name) {
  for (const el of elements) {
    el.classList.add(name);
    setTimeout(() => el.classList.remove(name), BRIEF_MS);
  }
}

// The sound switch (templates/games/room.html): a toggle button, aria-pressed when sound is on.
export function bindSoundSwitch(button) {
  const show = () => button.setAttribute("aria-pressed", String(soundOn()));
  button.addEventListener("click", () => { setSound(!soundOn()); show(); });
  show();
}

// Whether this page's player won (in a room on one device, whoever won is at this device).
function won(room, result, seats) {
  if (room.mode === "solo") return true;
  if (result.draw) return false;
  return room.mode === "local" || (seats.length > 0 && result.winners.includes(seats[0]));
}

// Whether this page's player is the one to move now, after someone else moved (on one device
// every turn is at this device, and alone every turn is yours: no turn is announced there).
function yourTurn(room, view) {
  const seats = room.you && room.you.seats ? room.you.seats : [];
  return room.status === "playing" && room.mode !== "local" && room.mode !== "solo" && Boolean(view)
    && seats.includes(view.current_player) && (view.legal_actions || []).length > 0;
}

export function createFeel() {
  let lastSeen = null;
  let statusSeen = null;
  let turnSeen = false;
  // Called after each state is drawn, with the renderer that drew it; `fresh` (first state,
  // resync) replays nothing.
  return function react(room, view, fresh, renderer) {
    const last = view && view.last ? JSON.stringify(view.last) : null;
    const changed = !fresh && last !== null && last !== lastSeen;
    const finished = !fresh && statusSeen === "playing" && room.status === "finished";
    const turnCame = !fresh && !turnSeen && yourTurn(room, view);
    lastSeen = last;
    statusSeen = room.status;
    turnSeen = yourTurn(room, view);
    if (changed && renderer && renderer.react) renderer.react(view.last);
    if (turnCame) play("turn");
    const result = room.result || (view && view.result);
    if (!finished || !result) return;
    const seats = room.you && room.you.seats ? room.you.seats : [];
    if (won(room, result, seats)) {
      play("win");
      briefly(document.querySelectorAll("#result .result-card"), "celebrate");
    } else if (seats.length) play("miss");
  };
}
