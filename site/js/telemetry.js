/**
 * Anonymous statistics collector (the schema is in docs/telemetry.md).
 *
 * Loaded on every page by templates/telemetry/snippet.html, which also writes the schema's
 * bucket edges and the signed-in account's switch into <script id="telemetry-config">.
 *
 * API, for the other modules of the site (imported from this module, or through the global
 * window.cardtableTelemetry; no import statement here: the static files' storage would read it
 * as this module importing itself, server/static_storage.py):
 *
 *   record({type: "game_start", game: "memory", mode: "cpu", cpu_level: "hard",
 *           settings: {players: 2, cards: 52, jokers: false, match: "rank"}});
 *   record({type: "game_end", game: "memory", mode: "cpu", cpu_level: "hard", settings: {...},
 *           result: "win", move_count: 57, duration: 312.5});   // duration in seconds
 *   record({type: "room_created", game: "bozu", origin: "menu", outcome: "ok"});
 *   record({type: "room_step", game: "bozu", step: "connect", outcome: "ok"});
 *           // step: connect | spectate | join | take_seat; outcome: ok | failed
 *   record({type: "room_session", game: "bozu", reconnections: 2});  // once, on leaving/ending
 *   view3dStarted("memory");      // the 3D table is being built: a first frame is expected
 *   view3dFirstFrame();           // time since page open, bucketed (once per page)
 *   view3dFailed("unsupported");  // unsupported | error | timeout
 *   view3dSpeed(48.5);            // frames per second, bucketed
 *   record({type: "load_failure", failure: "websocket"});  // script | style | api | websocket | error
 *
 * Raw numbers given for a bucketed field (move_count, duration in seconds, ttff in ms, fps) are
 * turned into bucket labels here: exact measurements never leave the browser. record() returns false and
 * keeps nothing when statistics are off. Never pass a room id, token, URL or anything not in the
 * schema: the server refuses the whole batch.
 *
 * The switch: localStorage "telemetry" = "on" | "off" (absent: on, unless the browser sends
 * Global Privacy Control). A signed-in account with statistics off wins over everything.
 * The page-open id comes from crypto.randomUUID() and lives in this module's memory only.
 */
const STORAGE_KEY = "telemetry";
const FLUSH_INTERVAL_MS = 15000;
const MAX_LOAD_FAILURES = 5;

const configElement = document.getElementById("telemetry-config");
const config = configElement ? JSON.parse(configElement.textContent) : null;
const PAGE_ID = crypto.randomUUID();
const queue = [];
let loadFailures = 0;
let view3d = null; // {game, done} while a first frame is awaited

function storedChoice() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked: fall back to the default
  }
}

/** Whether this page may send anything right now. */
export function enabled() {
  if (!config || config.account === "off") return false;
  const choice = storedChoice();
  if (choice === "off") return false;
  if (choice === "on") return true;
  return !navigator.globalPrivacyControl;
}

/** The switch: true turns statistics on in this browser (overriding GPC), false turns them off. */
export function setEnabled(on) {
  try {
    localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
  } catch {
    return false;
  }
  if (!on) queue.length = 0;
  updateSwitches();
  return true;
}

/** The label of a raw measurement in one of the schema's bucket sets. */
export function bucket(name, value) {
  const spec = config && config.buckets[name];
  if (!spec) throw new Error(`unknown bucket set ${name}`);
  if (typeof value !== "number" || !Number.isFinite(value)) return "unknown";
  for (let i = 0; i < spec.edges.length; i += 1) {
    if (value < spec.edges[i]) return spec.labels[i];
  }
  return spec.labels[spec.labels.length - 1];
}

function deviceKind() {
  const data = navigator.userAgentData;
  if (data && typeof data.mobile === "boolean") return data.mobile ? "mobile" : "desktop";
  if (window.matchMedia) return window.matchMedia("(pointer: coarse)").matches ? "mobile" : "desktop";
  return "unknown";
}

function cacheShare() {
  // Scripts and styles of this site: transferSize 0 with a body means the browser cache.
  const entries = (performance.getEntriesByType ? performance.getEntriesByType("resource") : [])
    .filter((e) => e.name.startsWith(location.origin) && /\.(m?js|css)(\?|$)/.test(e.name));
  const measured = entries.filter((e) => e.decodedBodySize > 0);
  if (!measured.length) return "unknown";
  const cached = measured.filter((e) => e.transferSize === 0).length;
  if (cached === measured.length) return "all";
  return cached ? "part" : "none";
}

function context() {
  const connection = navigator.connection;
  const net = connection && ["slow-2g", "2g", "3g", "4g"].includes(connection.effectiveType)
    ? connection.effectiveType : "unknown";
  return {
    page: PAGE_ID,
    device: deviceKind(),
    memory: typeof navigator.deviceMemory === "number" ? bucket("memory", navigator.deviceMemory) : "unknown",
    cores: typeof navigator.hardwareConcurrency === "number" ? bucket("cores", navigator.hardwareConcurrency) : "unknown",
    net,
    cache: cacheShare(),
  };
}

/** Queue one event (see the list above); false when statistics are off. */
export function record(event) {
  if (!enabled()) return false;
  const clean = { ...event };
  for (const name of ["move_count", "duration", "ttff", "fps"]) {
    if (typeof clean[name] === "number") clean[name] = bucket(name, clean[name]);
  }
  queue.push({ ...clean, ...context() });
  if (queue.length >= config.max_events) flush();
  return true;
}

function body(events) {
  const payload = { events };
  if (storedChoice() === "on") payload.opt_in = true;
  return JSON.stringify(payload);
}

/** Send what is queued now. beacon: use navigator.sendBeacon (the page is going away). */
export function flush(beacon = false) {
  if (!enabled()) {
    queue.length = 0;
    return;
  }
  while (queue.length) {
    const events = queue.splice(0, config.max_events);
    // text/plain keeps the beacon a "simple" request; the server reads the body as JSON.
    const blob = new Blob([body(events)], { type: "text/plain;charset=UTF-8" });
    if (beacon && navigator.sendBeacon && navigator.sendBeacon(config.endpoint, blob)) continue;
    fetch(config.endpoint, { method: "POST", body: blob, keepalive: true, credentials: "same-origin" })
      .catch(() => {}); // statistics are best effort: a lost batch is not worth a retry loop
  }
}

export function view3dStarted(game) {
  view3d = { game, done: false };
}

export function view3dFirstFrame() {
  if (!view3d || view3d.done) return;
  view3d.done = true;
  record({ type: "view3d_first_frame", ttff: performance.now(), ...(view3d.game ? { game: view3d.game } : {}) });
}

export function view3dFailed(reason) {
  const game = view3d && view3d.game;
  if (view3d) view3d.done = true;
  record({ type: "view3d_failed", reason, ...(game ? { game } : {}) });
}

export function view3dSpeed(fps) {
  const game = view3d && view3d.game;
  record({ type: "view3d_speed", fps, ...(game ? { game } : {}) });
}

function leftBeforeFirstFrame(how) {
  if (!view3d || view3d.done) return;
  view3d.done = true;
  record({ type: "view3d_left_early", how, ttff: performance.now(), ...(view3d.game ? { game: view3d.game } : {}) });
}

function onResourceError(event) {
  const target = event.target;
  let failure = null;
  if (target instanceof HTMLScriptElement) failure = "script";
  else if (target instanceof HTMLLinkElement && target.rel === "stylesheet") failure = "style";
  else if (event instanceof ErrorEvent && target === window) failure = "error";
  if (!failure || loadFailures >= MAX_LOAD_FAILURES) return;
  loadFailures += 1;
  record({ type: "load_failure", failure });
}

function updateSwitches() {
  for (const input of document.querySelectorAll("[data-telemetry-switch]")) input.checked = enabled();
}

function bindSwitches() {
  for (const input of document.querySelectorAll("[data-telemetry-switch]")) {
    input.addEventListener("change", () => setEnabled(input.checked));
  }
  updateSwitches();
}

// Resource errors do not bubble: listen in the capture phase.
window.addEventListener("error", onResourceError, true);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") {
    leftBeforeFirstFrame("hidden");
    flush(true);
  }
});
window.addEventListener("pagehide", () => {
  leftBeforeFirstFrame("closed");
  flush(true);
});
setInterval(() => { if (queue.length) flush(); }, FLUSH_INTERVAL_MS);

if (document.readyState === "complete") record({ type: "page_view" });
else window.addEventListener("load", () => record({ type: "page_view" }), { once: true });
bindSwitches();

window.cardtableTelemetry = {
  record, enabled, setEnabled, bucket, flush,
  view3dStarted, view3dFirstFrame, view3dFailed, view3dSpeed,
};
