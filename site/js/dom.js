import { gettext, fmt } from "./i18n.js";
import { errorText } from "./errors.js";

// A tiny element builder: h("button", {class: "btn", onclick}, "Flip").
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// The games as the server's GameSpecs describe them (games/specs.py), embedded in the menu and
// room pages as JSON data (not a script, so the strict CSP allows it): titles, options, levels.
export function gameSpecs() {
  const data = document.getElementById("game-specs");
  return data ? JSON.parse(data.textContent) : {};
}

export const tokenKey = (roomId) => `seat-token:${roomId}`;

export function roomIdFromUrl(url) {
  const match = new URL(url, location.origin).pathname.match(/^\/r\/([^/]+)/);
  return match ? match[1] : null;
}

// Which screen made a friends' room, and whether it worked (anonymous statistics, docs/telemetry.md).
function roomCreated(body, outcome) {
  if (body.mode === "friends" && window.cardtableTelemetry) {
    window.cardtableTelemetry.record({type: "room_created", game: body.game, origin: body.origin || "menu", outcome});
  }
}

// Creates a room through the rooms API; keeps the seat token; answers the room's page URL.
export async function createRoom(body) {
  try {
    const url = await postRoom(body);
    roomCreated(body, "ok");
    return url;
  } catch (error) {
    roomCreated(body, "failed");
    throw error;
  }
}

async function postRoom(body) {
  let response;
  try {
    response = await fetch("/api/rooms", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error(gettext("Could not reach the server: check the connection."));
  }
  let data = null;
  try { data = await response.json(); } catch { /* an empty or HTML answer: reported below */ }
  if (response.status !== 201 || !data || !data.room_id) {
    // The server's message is English; the page says it in its own language (errors.js).
    const message = data && data.error ? errorText(data.error.code, data.error.message)
      : fmt(gettext("The server did not answer (HTTP %(status)s)."), {status: String(response.status)});
    throw new Error(message);
  }
  localStorage.setItem(tokenKey(data.room_id), data.seat_token);
  return data.invite_url;
}

// replaceChildren that skips null/false children, as h() does.
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
