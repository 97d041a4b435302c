// The room page: seats, room controls, invite link, reconnecting banner, result screen; the
// game itself is drawn by site/js/games/<game>.js on the table and in the button panel.
import { RoomClient } from "./client.js";
import { Table } from "./table.js";
import { h, createRoom, gameSpecs, roomIdFromUrl, tokenKey } from "../dom.js";
import { gettext, ngettext, fmt } from "../i18n.js";
import { errorText } from "../errors.js";
import { RoomStats, watchTable } from "./stats.js";
import { createFeel, bindSoundSwitch } from "./feel.js";
import { lightFocusOnTable } from "./keyed.js";
import { TurnClock } from "./clock.js";

const COLOURS = {
  red: gettext("Red"), green: gettext("Green"), yellow: gettext("Yellow"),
  blue: gettext("Blue"), purple: gettext("Purple"), orange: gettext("Orange"),
};
const GAMES = gameSpecs();
// Each game is drawn by its own module, site/js/games/<game>.js: the page's own game's under the
// static URL its template gives (hashed in production: server/static_storage.py).
const rendererModule = (game) => import(game === root.dataset.game && root.dataset.renderer
  ? root.dataset.renderer : `../games/${game}.js`);

const root = document.getElementById("room");
const roomId = root.dataset.roomId;
const $ = (id) => document.getElementById(id);
const client = new RoomClient(roomId);
const table = new Table({
  wrap: $("table-wrap"), viewport: $("table-viewport"), stage: $("table-stage"),
  surface: $("table-surface"),
});

let room = null;
let view = null;
let renderer = null;
let rendererGame = null;
let loading = null;
let resultHidden = false;
let resultShownFor = null;
let nextRoomUrl = null;
let lostSeat = null;
let renderedHome = null;  // the seat the table was last drawn from
// The last move when the CPU made it for a person (their time ran out, or the others let it
// play): the move line says so while that move is the view's last ({seat, last}).
let coveredMove = null;
// The commitment this page was shown while the game was played (room.fairness before its
// reveal): Verify holds the server's replay file to it (docs/verify.md). And what Verify found
// for the game now over ({commitment, ok, text}).
let promisedCommitment = null;
let verification = null;
// A friends' room before it starts: on the table, instead of a game nobody plays yet, who is
// waiting and the one thing to do (share the link, or Join).
const lobbyTitle = h("h2", {class: "lobby-title", id: "lobby-title"});
const lobbyJoin = h("div", {class: "lobby-join"});
const lobby = h("section", {class: "lobby", id: "lobby", hidden: true}, lobbyTitle, $("invite"), lobbyJoin);
$("table-wrap").append(lobby);
const shareButton = h("button", {type: "button", class: "btn", id: "share-invite", hidden: !navigator.share,
  onclick: () => navigator.share({title: document.title, url: $("invite-link").value}).catch(() => {})}, gettext("Share"));
$("copy-invite").after(shareButton);
const seatNotice = h("div", {class: "seat-notice", id: "seat-notice", role: "status", hidden: true});
$("room-actions").before(seatNotice);
// What the CPU did for this page's player under the room's pace: played a turn whose time ran
// out (their next move plays on as before), or took the seat over (one tap takes it back). Above
// the game's panel, so that on a phone it shows under the table without scrolling.
const cpuNote = h("div", {class: "seat-notice cpu-note", id: "cpu-note", role: "status", hidden: true});
$("game-panel").before(cpuNote);
const stats = new RoomStats({game: root.dataset.game, mode: root.dataset.mode});
if (root.dataset.game) watchTable(table, root.dataset.game);
const feel = createFeel();
bindSoundSwitch($("sound-switch"));
lightFocusOnTable($("game-panel"), $("table-surface"));
// A line for screen readers only, in the live region that already says each move: added to it,
// so the move shown stays and the next move's line replaces both.
function announce(text) {
  $("last-move").append(h("span", {class: "visually-hidden"}, ` ${text}`));
}
const clock = new TurnClock({panel: $("side-panel"), announce, seatName, isYou: (seat) => ctx.isYou(seat)});

export function seatName(seat) {
  const info = room && room.seats[seat];
  if (!info) return COLOURS.red;
  const colourName = COLOURS[info.colour] || info.colour;
  // The server names seats by colour (in English) unless the holder has an account name.
  const english = info.colour ? info.colour[0].toUpperCase() + info.colour.slice(1) : "";
  return info.name && info.name !== english ? info.name : colourName;
}

// A seat where the page lists seats (the seat pills, scores, standings, piles): "You" for this
// page's own seat, its colour kept as the swatch beside it; on one device every seat is at this
// device, so each keeps its colour's name.
function seatLabel(seat) {
  return ctx.isYou(seat) ? gettext("You") : seatName(seat);
}

function mySeats() {
  return room && room.you && Array.isArray(room.you.seats) ? room.you.seats : [];
}

const ctx = {
  surface: $("table-surface"),
  panel: $("game-panel"),
  table,
  seatName,
  seatLabel,
  seatColour: (seat) => (room && room.seats[seat] ? room.seats[seat].colour : "red"),
  get room() { return room; },
  get view() { return view; },
  // The seat drawn nearest: your own (the first one), else Red.
  get homeSeat() {
    const seats = mySeats();
    return room && room.mode !== "local" && seats.length ? seats[0] : 0;
  },
  canAct() {
    return Boolean(room && view && room.status === "playing" && view.current_player !== null
      && view.current_player !== undefined && mySeats().includes(view.current_player)
      && (view.legal_actions || []).length);
  },
  act(action) {
    const fields = {action};
    if (room.mode === "local") fields.seat = view.current_player;
    return send("action", fields);
  },
  // `shown` false: the game's panel shows the move itself, so the line is for screen readers only.
  setLastMove(text, shown = true) {
    $("last-move").textContent = ctx.asPlayed(text);
    $("last-move").classList.toggle("visually-hidden", !shown);
  },
  // The last move's words, saying so when the CPU made it for a person (a game's own panel that
  // shows the move, as Bozu's does, words it this way too).
  asPlayed(text) {
    const covered = text && coveredMove && view && JSON.stringify(view.last) === coveredMove.last;
    return covered
      ? ctx.say(coveredMove.seat, gettext("The CPU played for you: %(move)s"), gettext("The CPU played for %(name)s: %(move)s"),
        {move: text})
      : text || "";
  },
  // Whether `seat` is this page's player: messages about that seat say "You".
  isYou(seat) {
    return room !== null && room.mode !== "local" && mySeats().includes(seat);
  },
  // A message about `seat`: in the second person when it is this page's player.
  say(seat, forYou, forOthers, values = {}) {
    return fmt(this.isYou(seat) ? forYou : forOthers, {name: seatName(seat), ...values});
  },
  refuse,
  toast,
};

// A tap the table cannot take: a brief shake of what was tapped and a line saying why (in the
// words of site/js/errors.js). `code` is the game's own reason when it is this player's turn.
function refuse(element, code = "illegal_action") {
  let reason = code;
  if (!room || room.status === "finished") reason = "game_over";
  else if (room.status !== "playing") reason = "game_not_started";
  else if (!mySeats().length) reason = "not_a_player";
  else if (!view || !mySeats().includes(view.current_player)) reason = "not_your_turn";
  else if (!(view.legal_actions || []).length) reason = "not_allowed";
  toast(errorText(reason), "refused");
  if (element) {
    element.classList.remove("refused");
    void element.offsetWidth;  // restarts the animation on a second refused tap
    element.classList.add("refused");
  }
}

// Every request of the page goes through here, so one pressed while offline is not lost in silence.
function send(type, fields = {}) {
  const id = client.send(type, fields);
  if (id === null) toast(gettext("Connection lost. Reconnecting…"));
  return id;
}

client.addEventListener("state", (event) => {
  const receivedAt = Date.now();
  stats.state(event.detail);
  onState(event.detail, receivedAt);
});
client.addEventListener("joined", (event) => {
  stats.answered(event.detail, "ok");
  toast(gettext("You have a seat. Your turn will come."), "ok");
});
client.addEventListener("error", (event) => {
  stats.answered(event.detail, "failed");
  const {code, message} = event.detail;
  if (code === "bad_token") {
    // The seat this page held has changed hands: say so (with the seats on offer) once the
    // state that follows arrives. A token that never held a seat here simply offers Join.
    lostSeat = event.detail.lost_seat || null;
    return;
  }
  toast(errorText(code, message));
});
client.addEventListener("next_room", (event) => onNextRoom(event.detail));
client.addEventListener("connection", (event) => {
  stats.connectionChanged(event.detail.up);
  $("reconnect-banner").hidden = event.detail.up;
  root.classList.toggle("offline", !event.detail.up);
});
client.addEventListener("gone", () => {
  $("room-title").textContent = gettext("This table does not exist (any more).");
  $("room-actions").replaceChildren(h("a", {class: "btn btn-primary", href: "/"}, gettext("Choose a game")));
  $("reconnect-banner").hidden = true;
});
window.addEventListener("online", () => { if (!client.open) client.drop(); });
// Test and debugging hook: the page's client (never holds anything the page cannot see).
window.roomClient = client;
client.connect();

async function onState(message, receivedAt) {
  const previous = room;
  room = message.room;
  view = message.view;
  if (room.fairness && room.fairness.reveal === null) promisedCommitment = room.fairness.commitment;
  if (room.next_room) nextRoomUrl = room.next_room;
  if (rendererGame !== room.game) {
    loading = loading || rendererModule(room.game).then((module) => {
      renderer = module.create(ctx);
      rendererGame = room.game;
      document.body.dataset.game = room.game;
      table.setZoomable(Boolean(module.zoomable));
    });
    await loading;
  }
  if (message.room !== room) return;  // a newer state arrived while the renderer loaded
  clock.update(room, receivedAt);
  renderTitle();
  renderTurn();
  renderSeats();
  renderInvite();
  renderActions();
  renderLobby();
  // Drawn afresh when this page's seat changes (a spectator who joins): the table turns to it.
  const turned = renderedHome !== null && renderedHome !== ctx.homeSeat;
  noteCoveredMove(message.event);
  renderer.render(view, message.event, previous === null || Boolean(message.resync) || turned);
  renderedHome = ctx.homeSeat;
  root.dataset.status = room.status;
  renderResult();
  feel(room, view, previous === null || Boolean(message.resync), renderer);
  clock.tick();
  root.dataset.version = String(message.version);
}

function renderTitle() {
  const name = GAMES[room.game] ? GAMES[room.game].title : room.game;
  const status = {
    waiting: gettext("waiting for players"),
    playing: "",
    finished: gettext("game over"),
  }[room.status];
  $("room-title").textContent = status ? `${name} · ${status}` : name;
  document.title = `${name} · ${gettext("Card Table")}`;
  const seats = mySeats();
  let you;
  if (room.mode === "local") you = gettext("Everybody plays on this device: the panel acts for whoever's turn it is.");
  else if (seats.length) you = fmt(gettext("You play %(colour)s."), {colour: seatName(seats[0])});
  else you = gettext("You are watching.");
  $("room-you").textContent = you;
}

// Whose turn it is, in the room's head and in the tab's title: "Your turn" whenever this page's
// player is to move (on one device, the name of whoever is).
function renderTurn() {
  const line = $("turn-line");
  const playing = room.status === "playing" && view && Number.isInteger(view.current_player);
  const yours = playing && ctx.isYou(view.current_player);
  let text = "";
  if (yours) text = gettext("Your turn");
  else if (playing) text = fmt(gettext("%(name)s to play."), {name: seatName(view.current_player)});
  line.textContent = text;
  line.classList.toggle("yours", Boolean(yours));
  const name = GAMES[room.game] ? GAMES[room.game].title : room.game;
  document.title = yours ? `● ${gettext("Your turn")} · ${name}` : `${name} · ${gettext("Card Table")}`;
}

function scoreOf(seat) {
  if (renderer && renderer.seatScore) return renderer.seatScore(view, seat);
  return view && view.scores ? view.scores[seat] : 0;
}

const PRESENCE = {
  free: gettext("free seat"),
  connected: "",
  disconnected: gettext("connection lost"),
  cpu: gettext("CPU"),
};

function renderSeats() {
  const list = $("seats");
  list.replaceChildren(...room.seats.map((seat) => {
    const current = view && view.current_player === seat.seat && room.status === "playing";
    const tags = [];
    if (seat.holder === "cpu" || (seat.presence === "cpu" && seat.holder !== "human")) tags.push(gettext("CPU"));
    else if (seat.presence === "cpu" && turnsForSeat(seat) > 0) tags.push(gettext("taken over by the CPU"));
    else if (PRESENCE[seat.presence]) tags.push(PRESENCE[seat.presence]);
    if (seat.presence !== "cpu" && turnsForSeat(seat) > 0) tags.push(gettext("played by the CPU"));
    const pill = h("li", {
      class: `seat seat-${seat.colour}${current ? " current" : ""} presence-${seat.presence}`,
      "aria-current": current ? "true" : null,
      dataset: {seat: seat.seat},
    },
    h("span", {class: "seat-dot", "aria-hidden": "true"}),
    h("span", {class: "seat-name", title: seatName(seat.seat)}, seatLabel(seat.seat)),
    tags.length ? h("span", {class: "seat-tag"}, tags.join(" · ")) : null,
    h("span", {class: "seat-score", "aria-label": gettext("score")}, String(scoreOf(seat.seat) ?? 0)),
    // A game whose room keeps a session says each seat's part of it (docs/protocol.md, room.session).
    renderer && renderer.seatSession ? renderer.seatSession(seat.seat) : null,
    current ? h("span", {class: "visually-hidden"}, gettext("(to play)")) : null);
    clock.decorate(pill, seat.seat);
    return pill;
  }));
  renderCpuNote();
}

// A move the CPU made for a person's seat that it has not taken over (a seat it holds, or took
// over, plays as a CPU seat, and its moves read as such).
function noteCoveredMove(event) {
  if (!event || event.type !== "action" || !Number.isInteger(event.seat)) return;
  const seat = room.seats[event.seat];
  const covered = event.by === "cpu" && room.mode === "friends" && seat && seat.holder === "human"
    && seat.presence !== "cpu" && view && view.last;
  coveredMove = covered ? {seat: event.seat, last: JSON.stringify(view.last)} : null;
}

// The turns the CPU has played in a row for a person's seat whose time ran out (the server
// counts them; they start again from nothing when the person plays).
function turnsForSeat(seat) {
  return seat.holder === "human" && Number.isInteger(seat.timeouts) ? seat.timeouts : 0;
}

let cpuNoteShown = null;  // what the note says now: drawn again only when that changes
function renderCpuNote() {
  const mine = room.mode === "friends" && room.status === "playing"
    ? room.seats.filter((seat) => mySeats().includes(seat.seat) && turnsForSeat(seat) > 0) : [];
  const seat = mine[0];
  // Taken over, the seat is listed for take_seat: its button stays the same element while the
  // CPU plays on, so a tap landing as a new state arrives is not lost on a replaced button.
  const reclaim = seat && seat.presence === "cpu" ? (allowed().take_seat || []).filter((s) => s === seat.seat) : [];
  const key = seat ? JSON.stringify([seat.seat, seat.presence, turnsForSeat(seat), reclaim]) : null;
  cpuNote.hidden = !seat;
  if (key === cpuNoteShown) return;
  cpuNoteShown = key;
  if (!seat) return;
  if (seat.presence === "cpu") {
    cpuNote.replaceChildren(h("p", {class: "seat-notice-text"},
      gettext("Your time ran out three turns in a row, so the CPU is playing your seat. Take it back whenever you like.")),
    h("div", {class: "room-actions"}, reclaimButtons()));
    return;
  }
  cpuNote.replaceChildren(h("p", {class: "seat-notice-text"},
    fmt(ngettext("Your time ran out and the CPU played your turn. Your next move takes your seat back.",
      "Your time ran out and the CPU played your last %(n)s turns. Your next move takes your seat back.",
      turnsForSeat(seat)), {n: turnsForSeat(seat)})));
}

const inLobby = () => room.mode === "friends" && room.status === "waiting";

// The invite link is for the players of a room still waiting; it leaves once the game starts.
function renderInvite() {
  const show = inLobby() && mySeats().length > 0;
  $("invite").hidden = !show;
  if (show) $("invite-link").value = `${location.origin}/r/${roomId}`;
}

function renderLobby() {
  lobby.hidden = !inLobby();
  if (lobby.hidden) return;
  const name = GAMES[room.game] ? GAMES[room.game].title : room.game;
  const host = room.seats.find((seat) => seat.holder === "human");
  const offers = lostSeat ? [] : seatOffers();
  if (mySeats().length) lobbyTitle.textContent = gettext("Waiting for a friend: share this link");
  else if (host && offers.length) {
    lobbyTitle.textContent = fmt(gettext("%(name)s is waiting for you to play %(game)s."), {name: seatName(host.seat), game: name});
  } else lobbyTitle.textContent = fmt(gettext("%(game)s: waiting for players"), {game: name});
  lobbyJoin.replaceChildren(...offers);
}

$("copy-invite").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  $("copy-invite").textContent = gettext("Copied");
  setTimeout(() => { $("copy-invite").textContent = gettext("Copy"); }, 2000);
});

function button(label, onclick, extra = {}) {
  return h("button", {type: "button", class: `btn ${extra.class || ""}`, onclick, ...extra.attrs}, label);
}

// "Resign" ends the game: the first press asks, the second does it (no modal, keyboard friendly).
function confirmButton(label, confirmLabel, onConfirm, attrs = {}) {
  let armed = false;
  const el = button(label, () => {
    if (armed) { onConfirm(); return; }
    armed = true;
    el.textContent = confirmLabel;
    el.classList.add("btn-danger");
    setTimeout(() => { armed = false; el.textContent = label; el.classList.remove("btn-danger"); }, 4000);
  }, {attrs});
  return el;
}

// The room actions this connection may send now, as the server lists them (room.allowed,
// docs/protocol.md): the page offers these and no others, so it keeps no room rule of its own.
function allowed() {
  return (room && room.allowed) || {};
}

// What a spectator may sit down in: a free seat (Join) or a seat the CPU is playing.
function seatOffers() {
  const items = [];
  if (allowed().join) {
    items.push(button(gettext("Join"), () => stats.request("join", send("join")), {class: "btn-primary", attrs: {id: "join"}}));
  }
  for (const seat of allowed().take_seat || []) {
    if (mySeats().includes(seat)) continue;  // this page's own seat: the CPU note offers it
    const label = lostSeat && lostSeat.seat === seat
      ? fmt(gettext("Take back your seat (%(name)s)"), {name: seatName(seat)})
      : fmt(gettext("Take %(name)s's seat"), {name: seatName(seat)});
    items.push(button(label, () => stats.request("take_seat", send("take_seat", {seat})),
      {class: "btn-primary", attrs: {dataset: {takeSeat: seat}}}));
  }
  return items;
}

// The seat the CPU took over from this page's player, taken back with one tap.
function reclaimButtons() {
  return (allowed().take_seat || []).filter((seat) => mySeats().includes(seat)).map((seat) => button(
    fmt(gettext("Take back your seat (%(name)s)"), {name: seatName(seat)}),
    () => stats.request("take_seat", send("take_seat", {seat})),
    {class: "btn-primary", attrs: {id: "take-back", dataset: {takeSeat: seat}}}));
}

// A returning player whose seat changed hands while they were away is told so, with the
// seats on offer and the choice to watch, instead of silently becoming a spectator.
function renderSeatNotice(isPlayer) {
  if (isPlayer) lostSeat = null;
  seatNotice.hidden = !lostSeat;
  if (!lostSeat) return;
  const name = seatName(lostSeat.seat);
  const what = lostSeat.reason === "left"
    ? fmt(gettext("You left your seat (%(name)s); the CPU has been playing it since."), {name})
    : fmt(gettext("Your seat (%(name)s) was taken by someone else while you were away."), {name});
  const offers = seatOffers();
  const next = offers.length ? gettext("You can take a seat that is on offer, or watch.")
    : gettext("There is no seat to take: you can watch the game.");
  seatNotice.replaceChildren(h("p", {class: "seat-notice-text"}, what, " ", next),
    h("div", {class: "room-actions"}, offers,
      button(gettext("Watch"), () => { lostSeat = null; renderActions(); }, {attrs: {id: "watch"}})));
}

function renderActions() {
  const box = $("room-actions");
  const isPlayer = mySeats().length > 0;
  renderSeatNotice(isPlayer);
  const can = allowed();
  const items = lostSeat || inLobby() ? [] : seatOffers();
  if (can.start) {
    items.push(button(gettext("Start with CPU in the free seats"), () => send("start"),
      {class: "btn-primary", attrs: {id: "start"}}));
  }
  // A relaxed room's silence: after two minutes the others may let the CPU play the turn.
  if (can.let_cpu_play && view && Number.isInteger(view.current_player)) {
    items.push(button(fmt(gettext("Let the CPU play for %(name)s"), {name: seatName(view.current_player)}),
      () => send("let_cpu_play"), {attrs: {id: "let-cpu-play"}}));
  }
  if (can.leave) {
    items.push(confirmButton(gettext("Leave (CPU plays for you)"), gettext("Really leave?"),
      () => send("leave"), {id: "leave"}));
  }
  if (can.resign) {
    items.push(confirmButton(gettext("Resign"), gettext("Really resign?"),
      () => send("resign"), {id: "resign"}));
  }
  if (can.play_again) {
    items.push(...afterGameButtons("panel"));
  }
  // Not "Menu": on a phone the site's header has a Menu button of its own.
  items.push(h("a", {class: "btn btn-quiet", href: `/${room.game}/`}, gettext("Game options")));
  box.replaceChildren(...items);
}

// Each after-game choice says under its name what it does, so two of them side by side differ.
function labelled(label, hint) {
  return [h("span", {}, label), h("small", {class: "btn-hint"}, hint)];
}

// A player's choices once the game is over: shown while the server allows play_again.
function afterGameButtons(where) {
  const can = allowed();
  const items = [button(labelled(gettext("Play again"), gettext("This table, the same seats")), () => send("play_again"),
    {class: "btn-primary btn-two-line", attrs: {dataset: {roomAct: "play-again", where}}})];
  if (can.new_session) {
    items.push(button(labelled(gettext("New session"), gettext("The totals start again")), () => send("new_session"),
      {class: "btn-two-line", attrs: {dataset: {roomAct: "new-session", where}}}));
  }
  // A new link is for friends to follow to the next table; anywhere else a fresh table is
  // simply a new room from the same menu (the server would make either).
  if (can.new_link && room.mode === "friends") {
    items.push(button(gettext("Invite with a new link"), () => send("new_link"),
      {attrs: {dataset: {roomAct: "new-link", where}}}));
  } else if (can.new_link) {
    items.push(button(labelled(gettext("New game with these options"), gettext("A new table")), () => newSameRoom(),
      {class: "btn-two-line", attrs: {dataset: {roomAct: "new-game", where}}}));
  }
  if (nextRoomUrl) {
    items.push(h("a", {class: "btn btn-primary", href: nextRoomUrl, dataset: {roomAct: "next-room"}},
      gettext("Join the new table")));
  }
  return items;
}

async function newSameRoom() {
  try {
    location.assign(await createRoom({game: room.game, mode: room.mode, options: room.options,
                                      cpu_level: room.cpu_level, origin: "result"}));
  } catch (error) {
    toast(error.message);
  }
}

function onNextRoom(message) {
  nextRoomUrl = message.invite_url;
  const id = roomIdFromUrl(message.invite_url);
  if (message.seat_token && id) {
    localStorage.setItem(tokenKey(id), message.seat_token);
    if (window.cardtableTelemetry) {
      window.cardtableTelemetry.record({type: "room_created", game: room.game, origin: "new_link", outcome: "ok"});
    }
    location.assign(message.invite_url);
    return;
  }
  toast(gettext("A new table is ready: press Join the new table."), "ok");
  if (room) { renderActions(); renderResult(true); }
}

function renderResult(force = false) {
  const box = $("result");
  // A resignation ends the game without the engine's own result: the room's result says it.
  const result = room && (room.result || (view && view.result));
  if (!room || room.status !== "finished" || !result) {
    box.hidden = true;
    resultShownFor = null;
    resultHidden = false;
    return;
  }
  const key = `${room.id}:${root.dataset.games || 0}:${view.moves}`;
  if (resultShownFor === key && !force) return;
  if (resultShownFor !== key) resultHidden = false;
  resultShownFor = key;
  const mine = mySeats();
  let headline;
  if (room.mode === "solo") headline = gettext("Table cleared!");
  else if (result.draw) headline = gettext("It's a draw!");
  else if (room.mode !== "local" && mine.length && result.winners.includes(mine[0])) headline = gettext("You win!");
  else headline = fmt(gettext("%(name)s wins!"), {name: result.winners.map(seatName).join(", ")});
  const rows = [];
  // The ranking's figures: the game's own (its renderer's resultScores), else the result's scores.
  const column = (renderer && renderer.resultScores && renderer.resultScores(result))
    || {heading: gettext("Score"), scores: result.scores};
  result.ranking.forEach((group, index) => {
    for (const seat of group) {
      const score = column.scores && column.scores[seat];
      rows.push(h("tr", {class: `seat-${ctx.seatColour(seat)}`},
        h("td", {}, String(index + 1)),
        h("th", {scope: "row"}, h("span", {class: "seat-dot", "aria-hidden": "true"}), seatLabel(seat)),
        h("td", {}, score === undefined || score === null ? "–" : String(score))));
    }
  });
  const extra = renderer && renderer.resultDetails ? renderer.resultDetails(view, result) : null;
  const standings = renderer && renderer.sessionStandings ? renderer.sessionStandings() : null;
  const best = room.mode === "solo" && Number.isInteger(result.failed_flips) ? personalBest(result.failed_flips) : null;
  const buttons = allowed().play_again ? afterGameButtons("result") : [
    h("a", {class: "btn btn-primary", href: `/${room.game}/`}, gettext("Play this game")),
  ];
  box.replaceChildren(h("div", {class: "result-card"},
    h("div", {class: "result-head"}, h("h2", {id: "result-title", tabindex: "-1"}, headline), fairnessButtons()),
    Number.isInteger(result.resigned)
      ? h("p", {class: "result-note"}, ctx.isYou(result.resigned) ? gettext("You resigned.")
        : fmt(gettext("%(name)s resigned."), {name: seatName(result.resigned)})) : null,
    room.mode === "solo" ? null : h("table", {class: "ranking"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, gettext("Rank")), h("th", {scope: "col"}, gettext("Player")),
        h("th", {scope: "col"}, column.heading))),
      h("tbody", {}, rows)),
    extra,
    cpuTurnsNote(result),
    best ? h("p", {class: "result-note personal-best", id: "personal-best"}, best) : null,
    standings,
    h("div", {class: "result-buttons"}, buttons, replayLink(),
      button(gettext("Look at the table"), () => { resultHidden = true; box.hidden = true; }, {class: "btn-quiet", attrs: {id: "look-at-table"}})),
    verificationNote()));
  box.hidden = resultHidden;
  if (!resultHidden && !force) box.querySelector("h2").focus({preventScroll: true});
}

// A signed-in player's record keeps every committed game (room.fairness): its replay page,
// found by the room (accounts/replay_pages.py).
function replayLink() {
  if (root.dataset.signedIn !== "1" || !room.fairness || !room.fairness.reveal) return null;
  return h("a", {class: "btn", id: "result-replay", href: `/replays/room/${encodeURIComponent(room.id)}/`},
    gettext("Replay"));
}

function seatToken() {
  try {
    return room ? localStorage.getItem(tokenKey(room.id)) : null;
  } catch {
    return null;  // storage refused
  }
}

// Once a game is over, a seat's holder may have its replay file checked, and download it
// (GET /api/rooms/<id>/replay and /verify, docs/verify.md): anyone can run the same checks on
// the file with python -m games.verify.
function fairnessButtons() {
  if (!room.fairness || !room.fairness.reveal || !mySeats().length || !seatToken()) return null;
  return button(gettext("Verify"), verifyGame, {class: "btn-quiet", attrs: {id: "verify-game"}});
}

// What Verify found, and the file to check it yourself. Verify sits beside the headline, and the
// download comes with its answer: the result must still fit a phone's screen.
function verificationNote() {
  const found = verification && room.fairness && verification.commitment === room.fairness.commitment
    ? verification : null;
  if (!found) return null;
  return h("p", {class: `result-note verify-result${found.ok ? "" : " verify-failed"}`},
    h("span", {id: "verify-result", role: "status"}, found.text), " ",
    button(gettext("Download replay"), downloadReplay, {class: "btn-quiet", attrs: {id: "download-replay"}}));
}

async function fetchReplayPart(part) {
  const response = await fetch(`/api/rooms/${encodeURIComponent(room.id)}/${part}`,
    {headers: {"X-Seat-Token": seatToken()}});
  if (!response.ok) throw new Error(`${part}: ${response.status}`);
  return response;
}

async function downloadReplay() {
  try {
    const blob = await (await fetchReplayPart("replay")).blob();
    const link = h("a", {href: URL.createObjectURL(blob), download: `${room.game}-replay.json`, hidden: ""});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch {
    ctx.toast(gettext("The replay could not be downloaded. Try again."));
  }
}

async function verifyGame() {
  const commitment = room.fairness.commitment;
  let text;
  let ok = false;
  try {
    const found = await (await fetchReplayPart("verify")).json();
    if (promisedCommitment && found.commitment !== promisedCommitment) {
      text = gettext("Not verified: this is not the deal promised before the first move.");
    } else if (!found.verified) {
      text = fmt(gettext("Not verified: %(problems)s"), {problems: found.problems.join("; ")});
    } else {
      ok = true;
      const parts = [fmt(gettext("Verified: the deal was fixed before the first move (commitment %(commitment)s…) and every card shown matches it."),
        {commitment: found.commitment.slice(0, 12)})];
      if (found.cpu_moves > 0) {
        parts.push(fmt(ngettext("The CPU chose its one move from its own view.",
          "The CPU chose each of its %(n)s moves from its own view.", found.cpu_moves), {n: found.cpu_moves}));
      }
      if (!promisedCommitment) {
        parts.push(gettext("This page did not see the game begin: compare the commitment with the one you were shown."));
      }
      text = parts.join(" ");
    }
  } catch {
    text = gettext("The game could not be verified just now. Try again.");
  }
  verification = {commitment, ok, text};
  renderResult(true);
}

// Under a pace, the turns the CPU played for each person whose time ran out (the result counts
// them per seat); nothing when it played none.
function cpuTurnsNote(result) {
  const counts = Array.isArray(result.cpu_turns) ? result.cpu_turns : [];
  const lines = counts.map((n, seat) => (Number.isInteger(n) && n > 0
    ? h("li", {}, fmt(ngettext("%(name)s: %(n)s turn played by the CPU", "%(name)s: %(n)s turns played by the CPU", n),
      {name: seatLabel(seat), n})) : null)).filter(Boolean);
  return lines.length ? h("ul", {class: "result-note cpu-turns", id: "cpu-turns"}, lines) : null;
}

// A solo game's fewest failed flips on this device, per set of options: a result that beats it
// says so, also when its page is opened again (the best remembers the room that set it).
function personalBest(flips) {
  const key = `solo-best:${JSON.stringify(room.options)}`;
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    stored = null;  // storage refused, or not what this page wrote
  }
  let beaten = false;
  if (stored && stored.room === room.id) beaten = stored.beaten;
  else if (!stored || flips < stored.flips) {
    beaten = Boolean(stored);
    try {
      localStorage.setItem(key, JSON.stringify({flips, room: room.id, beaten}));
    } catch {
      // Storage refused (private mode): no best is kept.
    }
  }
  return beaten ? fmt(ngettext("New personal best: %(n)s failed flip.", "New personal best: %(n)s failed flips.", flips), {n: flips}) : null;
}

let toastTimer = null;
function toast(text, kind = "error") {
  const el = $("toast");
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  // A refused tap is answered briefly: the player is in the middle of a turn.
  toastTimer = setTimeout(() => { el.hidden = true; }, kind === "refused" ? 2500 : 4000);
}
