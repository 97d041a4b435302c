// Memory: the fixed grid of cards (playing cards or pictures), flips with an animation, the
// first card's lit border, the mismatch left face up until the server turns it back, taken
// pairs moving to the taker's pile (your own nearest, the others at the back). The panel: one button per card in the same
// layout, rows A, B, C… from the back and columns 1, 2, 3… from the left; arrow keys move,
// Enter or Space flips.
import { h, fill } from "../dom.js";
import { gettext, ngettext, fmt } from "../i18n.js";
import { SURFACE_W, SURFACE_H, PHONE_SCREEN } from "../room/table.js";
import { place, cardButtonsSwitch } from "./common.js";
import { cardEl, setFace, longName, shortName } from "./cards.js";
import { picture, pictureFace, pictureName } from "./pictures.js";
import { briefly } from "../room/feel.js";
import { play } from "../sound.js";

const GRID = {left: 70, right: 930, top: 150, bottom: 575};
const HOME_PILE_Y = 628;
const BACK_PILE_Y = 62;
// On a phone the grid fills the table: cells of CELL units, the piles in a band of BAND units
// above and below the grid (upright) or beside it (turned), the surface only as large as that.
const CELL = {w: 100, h: 128};
const BAND = 150;
const EDGE = 4;

// Where everything goes on the surface: `grid` (its box), the card's size, and `pile(seat)`,
// the middle of a seat's pile of taken cards; `arrangement` names the layout.
function wideLayout(v, home) {
  const cellW = (GRID.right - GRID.left) / v.columns;
  const cellH = (GRID.bottom - GRID.top) / v.rows;
  const cardH = Math.min(cellH * 0.9, (cellW * 0.9) / 0.71);
  const others = othersOf(home, v.players);
  return {arrangement: "wide", width: SURFACE_W, height: SURFACE_H, cellW, cellH, cardW: cardH * 0.71, cardH,
    left: GRID.left, top: GRID.top,
    pile(seat) {
      if (seat === home) return {x: SURFACE_W / 2, y: HOME_PILE_Y};
      const width = GRID.right - GRID.left;
      return {x: GRID.left + (width * (others.indexOf(seat) + 0.5)) / others.length, y: BACK_PILE_Y};
    }};
}

function othersOf(home, players) {
  const others = [];
  for (let k = 1; k < players; k++) others.push((home + k) % players);
  return others;
}

// The phone's layouts: "upright" puts the piles above (the others) and below (yours) the grid,
// "turned" to its left (the others) and right (yours); the one whose cards come out larger in
// the frame `box` is chosen.
function phoneLayouts(v, home) {
  const gridW = v.columns * CELL.w;
  const gridH = v.rows * CELL.h;
  const others = othersOf(home, v.players);
  const common = {cellW: CELL.w, cellH: CELL.h, cardW: CELL.w - 6, cardH: CELL.h - 6};
  const upright = {...common, arrangement: "upright", width: gridW + 2 * EDGE, height: gridH + 2 * BAND,
    left: EDGE, top: BAND,
    pile(seat) {
      if (seat === home) return {x: EDGE + gridW / 2, y: gridH + 1.5 * BAND};
      return {x: EDGE + (gridW * (others.indexOf(seat) + 0.5)) / others.length, y: BAND / 2};
    }};
  const turned = {...common, arrangement: "turned", width: gridW + 2 * BAND, height: gridH + 2 * EDGE,
    left: BAND, top: EDGE,
    pile(seat) {
      if (seat === home) return {x: gridW + 1.5 * BAND, y: EDGE + gridH - CELL.h};
      return {x: BAND / 2, y: EDGE + (gridH * (others.indexOf(seat) + 0.5)) / Math.max(others.length, 2)};
    }};
  return [upright, turned];
}

function chooseLayout(v, home, box, phone) {
  if (!phone) return wideLayout(v, home);
  const fits = (layout) => Math.min(box.width / layout.width, box.height / layout.height);
  const [upright, turned] = phoneLayouts(v, home);
  return fits(turned) > fits(upright) ? turned : upright;
}

export function create(ctx) {
  const felt = h("div", {class: "memory-table", "aria-hidden": "true"});
  ctx.surface.replaceChildren(felt);
  const grid = h("div", {class: "memory-grid", role: "grid", "aria-label": gettext("Cards")});
  const scores = h("dl", {class: "counts"});
  const soloLine = h("p", {class: "memory-solo"});
  const tieLine = h("p", {class: "memory-tie-break", id: "tie-break", role: "status", hidden: true});
  const help = h("p", {class: "panel-help"}, gettext("Arrow keys move between cards; Enter or Space turns one over."));
  const panel = h("div", {class: "memory-panel"}, h("h2", {class: "panel-title"}, gettext("Cards")), tieLine,
    cardButtonsSwitch(grid), grid, help, soloLine, scores);
  ctx.panel.replaceChildren(panel);

  let cards = new Map();       // pos -> table element
  let buttons = new Map();     // pos -> panel button
  let piles = [];
  let shape = null;
  // Whether this is a phone is decided once: a phone's layout follows its frame's shape (turned
  // or upright), a larger screen's never changes with the window.
  let phone = null;
  let layout = null;
  let focusPos = null;
  let view = null;
  let soloTimer = null;

  function flip(pos, element) {
    if (ctx.canAct() && (view.legal_actions || []).some((a) => a.pos === pos)) {
      ctx.act({type: "flip", pos});
      return;
    }
    const state = view.layout.find((entry) => entry.pos === pos).state;
    ctx.refuse(element, {up: "card_face_up", taken: "card_taken"}[state] || "not_allowed");
  }

  function build(v) {
    felt.replaceChildren();
    grid.replaceChildren();
    cards = new Map();
    buttons = new Map();
    const cols = v.columns;
    if (phone === null) phone = window.matchMedia(PHONE_SCREEN).matches;
    layout = chooseLayout(v, ctx.homeSeat, ctx.table.viewport.getBoundingClientRect(), phone);
    ctx.table.setSurfaceSize(layout.width, layout.height);
    felt.classList.toggle("memory-phone", phone);
    felt.style.setProperty("--mw", `${layout.cardW}px`);
    felt.style.setProperty("--mh", `${layout.cardH}px`);
    piles = [];
    for (let seat = 0; seat < v.players; seat++) {
      const spot = layout.pile(seat);
      const pile = place(h("div", {class: `memory-pile seat-${ctx.seatColour(seat)}`}, h("span", {class: "pile-label"})), spot.x, spot.y);
      felt.append(pile);
      piles.push(pile);
    }
    const rows = [];
    for (let r = 0; r < v.rows; r++) {
      rows.push(h("div", {role: "row", class: "memory-row"}));
      grid.append(rows[r]);
    }
    grid.style.setProperty("--cols", String(cols));
    // Past nine columns (two decks, the long table) the cells are narrow: "A13" in smaller type.
    grid.classList.toggle("many-columns", cols > 9);
    for (const entry of v.layout) {
      const x = layout.left + layout.cellW * (entry.column + 0.5);
      const y = layout.top + layout.cellH * (entry.row + 0.5);
      const el = place(cardEl(null, {tag: "button", attrs: {tabindex: "-1", class: "pcard memory-card",
        dataset: {pos: entry.pos}, onclick: (event) => flip(entry.pos, event.currentTarget)}}), x, y);
      el.dataset.home = `${x},${y}`;
      felt.append(el);
      cards.set(entry.pos, el);
      const button = h("button", {type: "button", class: "cell", role: "gridcell", tabindex: "-1",
        dataset: {pos: entry.pos, row: entry.row, column: entry.column}, onclick: (event) => flip(entry.pos, event.currentTarget)});
      rows[entry.row].append(button);
      buttons.set(entry.pos, button);
    }
    focusPos = focusPos && buttons.has(focusPos) ? focusPos : v.layout[0].pos;
    shape = `${v.rows}x${v.columns}x${v.layout.length}x${v.players}`;
  }

  // A phone turned to its side: the piles move beside the grid (or back above and below it).
  ctx.table.onFit((box) => {
    if (!phone || !layout || !view) return;
    if (chooseLayout(view, ctx.homeSeat, box, true).arrangement !== layout.arrangement) render(view, null, true);
  });

  grid.addEventListener("keydown", (event) => {
    const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
    if (event.key === "Home" || event.key === "End") {
      const list = [...buttons.keys()];
      focusOn(event.key === "Home" ? list[0] : list[list.length - 1]);
      event.preventDefault();
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const current = buttons.get(focusPos);
    let row = Number(current.dataset.row) + move[0];
    let column = Number(current.dataset.column) + move[1];
    const lengths = view.row_lengths;
    if (row < 0 || row >= lengths.length) return;
    column = Math.max(0, Math.min(column, lengths[row] - 1));
    const target = view.layout.find((e) => e.row === row && e.column === column);
    if (target) focusOn(target.pos);
  });

  // The card the panel's keyboard focus is on is lit on the table too, where the eyes are.
  grid.addEventListener("focusin", (event) => {
    if (event.target.dataset.pos) focusPos = event.target.dataset.pos;
    markKeyed(focusPos);
  });
  grid.addEventListener("focusout", (event) => {
    if (!grid.contains(event.relatedTarget)) markKeyed(null);
  });

  function markKeyed(pos) {
    for (const [p, el] of cards) el.classList.toggle("keyed", p === pos);
  }

  function focusOn(pos) {
    focusPos = pos;
    for (const [p, b] of buttons) b.tabIndex = p === pos ? 0 : -1;
    buttons.get(pos).focus();
  }

  function render(v, event, fresh) {
    view = v;
    const key = `${v.rows}x${v.columns}x${v.layout.length}x${v.players}`;
    if (key !== shape || fresh) build(v);
    const canAct = ctx.canAct();
    // Keys are for the players; a spectator has nothing to turn over.
    help.hidden = !(ctx.room.you && ctx.room.you.seats && ctx.room.you.seats.length);
    const legal = new Set((v.legal_actions || []).map((a) => a.pos));
    const {face, long, cell} = faces(v);
    const pileCounts = new Array(v.players).fill(0);
    for (const entry of v.layout) {
      const el = cards.get(entry.pos);
      const button = buttons.get(entry.pos);
      const up = entry.state !== "down";
      setFace(el, entry.card || null, up, face);
      el.classList.toggle("first", v.first === entry.pos);
      el.classList.toggle("mismatch", v.phase === "reveal" && entry.state === "up");
      el.classList.toggle("playable", canAct && legal.has(entry.pos));
      const act = canAct && legal.has(entry.pos) ? JSON.stringify({type: "flip", pos: entry.pos}) : null;
      let label;
      if (entry.state === "taken") {
        const n = pileCounts[entry.by]++;
        const spot = layout.pile(entry.by);
        // A taken card joins its pile: stacked with a little offset so the pile has depth.
        place(el, spot.x + ((n % 6) - 2.5) * 3, spot.y - Math.min(n, 24) * 0.6);
        el.style.setProperty("--z", `${Math.min(n, 30) * 0.6}px`);
        el.classList.add("taken");
        // The card's name is in the label: a button's name includes the text it shows (WCAG 2.5.3).
        label = ctx.say(entry.by, gettext("%(pos)s, %(card)s: taken by you"), gettext("%(pos)s, %(card)s: taken by %(name)s"),
          {pos: entry.pos, card: long(entry.card)});
      } else {
        const [x, y] = el.dataset.home.split(",");
        place(el, Number(x), Number(y));
        el.classList.remove("taken");
        el.style.removeProperty("--z");
        label = entry.state === "up"
          ? fmt(gettext("%(pos)s: %(card)s, face up"), {pos: entry.pos, card: long(entry.card)})
          : fmt(gettext("%(pos)s: face down"), {pos: entry.pos});
      }
      button.replaceChildren(entry.state === "down" ? entry.pos : cell(entry.card));
      button.className = `cell state-${entry.state}${entry.card && /[HD]$/.test(entry.card) ? " red-suit" : ""}${v.first === entry.pos ? " first" : ""}`;
      if (entry.state === "taken") button.classList.add(`seat-${ctx.seatColour(entry.by)}`);
      button.setAttribute("aria-label", label);
      button.setAttribute("aria-disabled", String(!(canAct && legal.has(entry.pos))));
      button.tabIndex = entry.pos === focusPos ? 0 : -1;
      for (const target of [el, button]) {
        if (act) target.dataset.act = act;
        else delete target.dataset.act;
      }
    }
    markKeyed(grid.contains(document.activeElement) ? focusPos : null);
    piles.forEach((pile, seat) => {
      pile.querySelector(".pile-label").textContent = `${ctx.seatLabel(seat)} · ${v.scores[seat]}`;
      pile.classList.toggle("current", v.current_player === seat);
    });

    fill(scores, ...Array.from({length: v.players}, (_, seat) => [
      h("dt", {}, ctx.seatLabel(seat)), h("dd", {}, v.players === 1
        ? fmt(ngettext("%(n)s pair", "%(n)s pairs", v.pairs[seat]), {n: v.pairs[seat]})
        : fmt(ngettext("%(n)s card", "%(n)s cards", v.scores[seat]), {n: v.scores[seat]}))]).flat(),
    h("dt", {}, gettext("Cards left")), h("dd", {id: "cards-left"}, String(v.cards_left)));
    renderSolo(v);
    renderTieBreak(v);
    ctx.setLastMove(lastText(v));
  }

  // A tie-break round is on the table: say whose round it is (the others only watch), to this
  // page's player in the second person when they are in it.
  function renderTieBreak(v) {
    const round = v.tie_break && v.tie_break.winner === null && v.tie_break.round ? v.tie_break : null;
    tieLine.hidden = !round;
    if (!round) return;
    const yours = round.seats.some((seat) => ctx.isYou(seat));
    const names = round.seats.filter((seat) => !ctx.isYou(seat)).map(ctx.seatName).join(", ");
    tieLine.textContent = fmt(yours ? gettext("Tie-break round %(n)s: you play for the win against %(names)s.")
      : gettext("Tie-break round %(n)s: %(names)s play for the win."), {n: round.round, names});
  }

  function renderSolo(v) {
    soloLine.hidden = v.players !== 1;
    if (v.players !== 1) return;
    const startKey = `memory-start:${ctx.room.id}`;
    if (v.moves === 0) sessionStorage.removeItem(startKey);
    else if (!sessionStorage.getItem(startKey)) sessionStorage.setItem(startKey, String(Date.now()));
    const draw = () => {
      const start = Number(sessionStorage.getItem(startKey)) || Date.now();
      const seconds = view.moves ? Math.floor((Date.now() - start) / 1000) : 0;
      soloLine.textContent = fmt(gettext("Failed flips: %(n)s · Time: %(time)s"),
        {n: view.failed_flips, time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`});
    };
    draw();
    clearInterval(soloTimer);
    if (!v.is_over) soloTimer = setInterval(draw, 1000);
  }

  function lastText(v) {
    const last = v.last;
    if (!last) {
      return v.current_player !== null ? ctx.say(v.current_player, gettext("You start."), gettext("%(name)s starts.")) : "";
    }
    if (last.type === "conceal") {
      return v.current_player !== null
        ? ctx.say(v.current_player, gettext("No match: the cards are turned back. Your turn."),
          gettext("No match: the cards are turned back. %(name)s to play."))
        : gettext("No match: the cards are turned back.");
    }
    const values = {pos: last.pos, card: faces(v).short(last.card)};
    const say = (forYou, forOthers, more = {}) => ctx.say(last.seat, forYou, forOthers, {...values, ...more});
    if (last.result === "first") return say(gettext("You turn %(pos)s: %(card)s."), gettext("%(name)s turns %(pos)s: %(card)s."));
    if (last.result === "match" && last.tie_break_round) {
      return say(gettext("You turn %(pos)s: %(card)s. A pair! A tie for first: tie-break round %(n)s."),
        gettext("%(name)s turns %(pos)s: %(card)s. A pair! A tie for first: tie-break round %(n)s."), {n: last.tie_break_round});
    }
    if (last.result === "match") {
      return v.is_over || v.options.one_flip
        ? say(gettext("You turn %(pos)s: %(card)s. A pair!"), gettext("%(name)s turns %(pos)s: %(card)s. A pair!"))
        : say(gettext("You turn %(pos)s: %(card)s. A pair! You go again."),
          gettext("%(name)s turns %(pos)s: %(card)s. A pair! %(name)s goes again."));
    }
    return say(gettext("You turn %(pos)s: %(card)s. No match."), gettext("%(name)s turns %(pos)s: %(card)s. No match."));
  }

  // How this game's cards are drawn (face on the table, cell in the panel) and named (long for
  // screen readers, short in messages): playing cards, or the picture deck.
  function faces(v) {
    return v.options.deck === "pictures"
      ? {face: pictureFace, cell: picture, long: pictureName, short: pictureName}
      : {face: undefined, cell: shortName, long: longName, short: shortName};
  }

  return {
    render,
    resultDetails(v, result) {
      if (result && result.tie_break) {
        const rounds = result.tie_break.rounds;
        const last = rounds[rounds.length - 1];
        const winner = result.tie_break.winner;
        return h("p", {class: "result-note memory-tie-break-result", id: "tie-break-result"},
          ctx.say(winner,
            ngettext("Decided by a tie-break round: you took %(pairs)s pairs of it.",
              "Decided by %(n)s tie-break rounds: you took %(pairs)s pairs of the last.", rounds.length),
            ngettext("Decided by a tie-break round: %(name)s took %(pairs)s pairs of it.",
              "Decided by %(n)s tie-break rounds: %(name)s took %(pairs)s pairs of the last.", rounds.length),
            {n: rounds.length, pairs: last[winner]}));
      }
      if (v.players !== 1 || !v.is_over) return null;
      return h("p", {class: "result-note memory-solo-result"}, soloLine.textContent);
    },
    // Memory counts pairs wherever a person reads a score, as its session does (its engine's
    // scores count cards).
    seatScore: (v, seat) => (v && Array.isArray(v.pairs) ? v.pairs[seat] : 0),
    resultScores: (result) => (Array.isArray(result.pairs) ? {heading: gettext("Pairs"), scores: result.pairs} : null),
    seatSession,
    sessionStandings,
    // Each flip is heard; a pair's two cards lift and glow (site/js/room/feel.js calls it for each new move).
    react(last) {
      if (last.type !== "flip") return;
      play("flip");
      if (last.result === "mismatch") play("miss");
      if (last.result === "match") {
        play("pair");
        briefly(last.pair.map((pos) => document.querySelector(`.memory-card[data-pos="${pos}"]`)).filter(Boolean), "pair-made");
      }
    },
  };

  // The room's session (docs/protocol.md, room.session), not shown to a solo player: on each
  // seat's pill, its running total of pairs (the game being played included) and games won since
  // the room was made or since its last "New session".
  function seatSession(seat) {
    const room = ctx.room;
    const session = room.session;
    if (!session || room.mode === "solo") return null;
    const row = session.standings.find((r) => r.seat === seat);
    const v = ctx.view;
    const pairs = row.pairs + (room.status === "playing" && v && Array.isArray(v.pairs) ? v.pairs[seat] : 0);
    return h("span", {class: "seat-session", title: gettext("This session")},
      fmt(ngettext("%(n)s pair", "%(n)s pairs", pairs), {n: pairs}) + " · "
      + fmt(ngettext("%(n)s game won", "%(n)s games won", row.wins), {n: row.wins}));
  }

  // The session's standings under the game's own result: the highest running total first, a tie
  // broken by the pairs the tied players won against each other (the server orders them).
  function sessionStandings() {
    const room = ctx.room;
    const session = room.session;
    if (!session || room.mode === "solo" || !session.games) return null;
    return h("section", {class: "session-standings", id: "session-standings"},
      h("h3", {}, fmt(ngettext("Session standings after %(n)s game", "Session standings after %(n)s games", session.games),
        {n: session.games})),
      h("table", {class: "ranking"},
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, gettext("Rank")), h("th", {scope: "col"}, gettext("Player")),
          h("th", {scope: "col"}, gettext("Games won")), h("th", {scope: "col"}, gettext("Pairs")))),
        h("tbody", {}, session.standings.map((row) => h("tr", {class: `seat-${ctx.seatColour(row.seat)}`},
          h("td", {}, String(row.rank)),
          h("th", {scope: "row"}, h("span", {class: "seat-dot", "aria-hidden": "true"}), ctx.seatLabel(row.seat)),
          h("td", {}, String(row.wins)),
          h("td", {}, String(row.pairs)))))),
      sessionGames(session));
  }

  // Each game of the session with how long it took (from its first move) and who won it, the
  // fastest win marked: friends can race through a session (docs/protocol.md, room.session).
  function sessionGames(session) {
    const played = session.played || [];
    if (!played.length) return null;
    const fastest = session.fastest_win;
    const clock = (seconds) => {
      const whole = Math.round(seconds);
      return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    };
    return h("div", {class: "session-games"},
      fastest ? h("p", {class: "session-fastest", id: "session-fastest"},
        fmt(gettext("Fastest win: %(name)s in %(time)s (game %(n)s)"),
          {name: ctx.seatLabel(fastest.winner), time: clock(fastest.seconds), n: fastest.game})) : null,
      h("table", {class: "ranking session-times", id: "session-times"},
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, gettext("Game")), h("th", {scope: "col"}, gettext("Winner")),
          h("th", {scope: "col"}, gettext("Time")))),
        h("tbody", {}, played.map((game) => h("tr", {class: fastest && fastest.game === game.game ? "fastest" : null},
          h("td", {}, String(game.game)),
          h("th", {scope: "row"}, game.winner === null ? gettext("Draw") : ctx.seatLabel(game.winner)),
          h("td", {}, clock(game.seconds)))))));
  }
}
