// Anonymous statistics of the room page (docs/telemetry.md): games started and
// finished, how a friends' room went (connecting, watching, joining, taking a seat,
// reconnections), and how the 3D table came up. Events go through the collector that
// templates/telemetry/snippet.html loads on every page (window.cardtableTelemetry), which sends
// nothing when statistics are off. Only schema fields leave this file: never the room id, a
// token, a seat number or a move.
import { gameSpecs } from "../dom.js";

// The JavaScript type of each option the game specs name (games/specs.py), as the schema wants it.
const TYPES = {int: "number", str: "string", bool: "boolean"};
const GAMES = gameSpecs();
const FPS_SAMPLE_MS = 2000;

function record(event) {
  const collector = window.cardtableTelemetry;
  if (collector) collector.record(event);
}

function collector(name) {
  const c = window.cardtableTelemetry;
  return c && typeof c[name] === "function" ? c[name].bind(c) : () => {};
}

/** The room's options, reduced to the settings the schema names, with their exact types. */
export function settingsOf(game, options) {
  const spec = GAMES[game];
  const keys = spec ? [["players", "int"], ...spec.options.map((o) => [o.key, o.type])] : [];
  const settings = {};
  for (const [key, type] of keys) {
    if (options && typeof options[key] === TYPES[type]) settings[key] = options[key];
  }
  return settings;
}

/** win / loss / draw for the seat this page plays; none where that means nothing. */
export function resultFor(room, result) {
  const seats = room.you && Array.isArray(room.you.seats) ? room.you.seats : [];
  if (!result || room.mode === "local" || room.mode === "solo" || seats.length !== 1) return "none";
  if (!result.winners || !result.winners.includes(seats[0])) return "loss";
  return result.draw ? "draw" : "win";
}

export class RoomStats {
  /** game and mode come from the page, so a connection that never answers is still counted. */
  constructor({game, mode}) {
    this.game = game;
    this.mode = mode;
    this.room = null;
    this.connections = 0;     // WebSocket openings; all but the first are reconnections
    this.connectReported = false;
    this.playing = null;      // {startedAt} while a game is seen in progress
    this.pending = new Map(); // request id → "join" | "take_seat"
    this.sessionSent = false;
    window.addEventListener("beforeunload", () => this.endSession());
  }

  get friends() { return this.mode === "friends"; }

  step(step, outcome) {
    if (this.friends && this.game) record({type: "room_step", game: this.game, step, outcome});
  }

  connectionChanged(up) {
    if (up) this.connections += 1;
    else if (!this.room && !this.connectReported) {
      // The connection closed before the room ever answered.
      this.connectReported = true;
      this.step("connect", "failed");
    }
  }

  request(step, id) {
    if (id) this.pending.set(id, step);
  }

  answered(message, outcome) {
    const step = this.pending.get(message.ref);
    if (!step) return;
    this.pending.delete(message.ref);
    this.step(step, outcome);
  }

  state(message) {
    const room = message.room;
    const view = message.view;
    const first = this.room === null;
    this.room = room;
    this.game = room.game;
    this.mode = room.mode;
    if (first && !this.connectReported) {
      this.connectReported = true;
      this.step("connect", "ok");
      if (room.you && room.you.role === "spectator") this.step("spectate", "ok");
    }
    const level = cpuLevel(room);
    const base = {game: room.game, mode: room.mode, settings: settingsOf(room.game, room.options),
                  ...(level ? {cpu_level: level} : {})};
    if (room.status === "playing" && !this.playing) {
      this.playing = {startedAt: performance.now()};
      // A page that opens on a game already under way did not see it start.
      if (view && view.moves === 0) record({type: "game_start", ...base});
    } else if (room.status === "finished" && this.playing) {
      record({type: "game_end", ...base, result: resultFor(room, room.result || (view && view.result)),
              move_count: view ? view.moves : 0,
              duration: (performance.now() - this.playing.startedAt) / 1000});
      this.playing = null;
      this.endSession();
    }
  }

  /** Once per page: how many times a friends' room had to reconnect. */
  endSession() {
    if (this.sessionSent || !this.friends || !this.room) return;
    this.sessionSent = true;
    record({type: "room_session", game: this.game, reconnections: Math.max(0, this.connections - 1)});
  }
}

function cpuLevel(room) {
  const cpuPlays = room.seats.some((seat) => seat.holder === "cpu" || seat.presence === "cpu");
  return cpuPlays && room.cpu_level ? room.cpu_level : null;
}

/** The 3D table: whether it can be drawn, how long the first frame took, and its frame rate. */
export function watchTable(table, game) {
  if (!table.has3d) {
    collector("view3dFailed")("unsupported");
    return;
  }
  if (table.view === "panel") return;  // the player chose the panel alone: nothing is drawn
  collector("view3dStarted")(game);
  requestAnimationFrame(() => {
    collector("view3dFirstFrame")();
    let frames = 0;
    const start = performance.now();
    const count = (now) => {
      frames += 1;
      if (now - start < FPS_SAMPLE_MS) requestAnimationFrame(count);
      else if (document.visibilityState === "visible") {
        collector("view3dSpeed")((frames * 1000) / (now - start));
      }
    };
    requestAnimationFrame(count);
  });
}
