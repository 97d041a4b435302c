// The turn clock of a room with a pace (issue 38, docs/protocol.md "Pace"): while a seat is to
// play under a clock, its entry in room.seats carries `due` (the deadline, server time) and
// `seconds_left`. The server's deadline is the truth and the CPU plays the turn when it passes;
// this module only draws it, the same on every screen: a ring on the seat's pill, a bar and the
// seconds in the side panel, and one line for screen readers when ten seconds remain. Under
// prefers-reduced-motion the ring and the bar stay still and only the seconds change.
import { h } from "../dom.js";
import { gettext, ngettext, fmt } from "../i18n.js";

const TICK_MS = 250;
const WARN_SECONDS = 10;

// When, on this device's clock, the seat's time runs out. This device's clock may be off the
// server's by minutes, so `due` (server time) is not compared with it: `seconds_left`, which
// the server worked out from `due` as it sent the state, counted from the state's receipt says
// the same deadline in this device's time (a message's transit is the only error left).
export function localDeadline(entry, receivedAt) {
  if (typeof entry.due !== "number" || typeof entry.seconds_left !== "number") return null;
  return receivedAt + entry.seconds_left * 1000;
}

// Whole seconds left, counted up so that "0" shows only once the time has run out.
export function wholeSecondsLeft(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export class TurnClock {
  // `panel`: where the panel's clock goes; `announce(text)`: says a line to screen readers;
  // `seatName(seat)`, `isYou(seat)`: as the room page names seats.
  constructor({panel, announce, seatName, isYou}) {
    Object.assign(this, {announce, seatName, isYou});
    this.text = h("span", {class: "turn-clock-text"});
    this.fill = h("span", {class: "turn-clock-fill"});
    this.element = h("div", {class: "turn-clock", id: "turn-clock", role: "timer", hidden: true},
      this.text, h("span", {class: "turn-clock-bar", "aria-hidden": "true"}, this.fill));
    panel.prepend(this.element);
    this.running = null;  // {seat, due, deadline, total}
    this.warned = null;   // the deadline already announced
    this.timer = null;
  }

  // Called with every state before the seats are drawn; `tick()` once the page is drawn.
  update(room, receivedAt = Date.now()) {
    const entry = room.status === "playing"
      ? (room.seats || []).find((seat) => localDeadline(seat, receivedAt) !== null) : null;
    if (!entry) {
      this.stop();
      return;
    }
    const deadline = localDeadline(entry, receivedAt);
    const same = this.running && this.running.seat === entry.seat && this.running.due === entry.due;
    // The turn's whole length draws the ring's full circle: the seat's seconds per turn when the
    // server says them, else the most this page has seen left of this turn.
    const given = Number(entry.turn_seconds) || 0;
    const seen = (deadline - receivedAt) / 1000;
    const total = Math.max(given, same ? this.running.total : 0, seen, 1);
    // A later message of the same turn keeps the deadline first worked out, so the clock never
    // jumps back and forth with each message's transit time.
    this.running = {seat: entry.seat, due: entry.due, deadline: same ? this.running.deadline : deadline, total};
    this.element.hidden = false;
    if (!this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
    this.draw();
  }

  stop() {
    this.running = null;
    this.element.hidden = true;
    clearInterval(this.timer);
    this.timer = null;
  }

  // The pill of the seat to play gets its ring (the pills are drawn afresh with every state).
  decorate(pill, seat) {
    if (!this.running || this.running.seat !== seat) return;
    pill.append(h("span", {class: "seat-clock", "aria-hidden": "true"},
      h("span", {class: "seat-clock-ring"}), h("span", {class: "seat-clock-seconds"})));
    this.draw();
  }

  // Draws the time left and says it once when ten seconds remain (after the page has drawn the
  // state: the line goes into the live region the state's move line fills).
  tick() {
    const left = this.draw();
    if (left === null) return;
    const {seat, deadline} = this.running;
    if (left > 0 && left <= WARN_SECONDS && this.warned !== deadline) {
      this.warned = deadline;
      this.announce(this.isYou(seat)
        ? fmt(ngettext("%(n)s second left to play.", "%(n)s seconds left to play.", left), {n: left})
        : fmt(ngettext("%(n)s second left for %(name)s to play.", "%(n)s seconds left for %(name)s to play.", left),
          {n: left, name: this.seatName(seat)}));
    }
  }

  // The whole seconds left, drawn; null when no clock runs.
  draw() {
    if (!this.running) return null;
    const {seat, deadline, total} = this.running;
    const now = Date.now();
    const left = wholeSecondsLeft(deadline, now);
    const share = Math.min(1, Math.max(0, (deadline - now) / 1000 / total));
    const you = this.isYou(seat);
    this.text.textContent = you
      ? fmt(gettext("Your turn: %(n)s s left"), {n: left})
      : fmt(gettext("%(name)s: %(n)s s left"), {name: this.seatName(seat), n: left});
    // Still under reduced motion: the ring and the bar stay full, the seconds say the rest.
    const shown = reducedMotion.matches ? 1 : share;
    this.element.style.setProperty("--clock-left", shown.toFixed(3));
    this.element.classList.toggle("short", left <= WARN_SECONDS);
    for (const pill of document.querySelectorAll(`#seats .seat[data-seat="${seat}"] .seat-clock`)) {
      pill.style.setProperty("--clock-left", shown.toFixed(3));
      pill.classList.toggle("short", left <= WARN_SECONDS);
      pill.querySelector(".seat-clock-seconds").textContent = String(left);
    }
    return left;
  }
}
