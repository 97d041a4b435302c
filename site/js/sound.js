// Short card sounds synthesised with the Web Audio API: no audio files to fetch. Sound is off
// until the player turns it on; the choice is kept in this browser's localStorage under
// "sound" ("on" or "off"; absent means off).
//
// Browsers refuse to start audio before the page has had a user gesture, so the AudioContext
// is made on the first press or key after sound is on (or by the press that turns it on);
// sounds asked for before that are simply not played.
const KEY = "sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) wake();
}

function wake() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume();
}

for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { if (soundOn()) wake(); }, {capture: true});
}

// One note: an oscillator through a gain that rises in 8 ms and fades out (no clicks).
function note(frequency, {at = 0, length = 0.15, type = "sine", volume = 0.18, slideTo = null} = {}) {
  const start = context.currentTime + at;
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(context.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

const C5 = 523.25, E5 = 659.25, G5 = 783.99, C6 = 1046.5, E6 = 1318.5, G6 = 1568;

const SOUNDS = {
  // A card turned or put down: a short falling tick.
  flip: () => note(1400, {length: 0.06, type: "triangle", volume: 0.12, slideTo: 500}),
  // A pair: two bright notes a fifth apart.
  pair: () => { note(E6, {length: 0.25}); note(1975.5, {at: 0.09, length: 0.35}); },
  // Your turn: two soft rising notes.
  turn: () => { note(G5, {length: 0.12, volume: 0.08}); note(C6, {at: 0.1, length: 0.2, volume: 0.08}); },
  // No match (or a game lost): a soft low falling tone.
  miss: () => note(330, {length: 0.3, volume: 0.1, slideTo: 247}),
  // A gin: a quick rising run.
  gin: () => [C5, E5, G5, C6, E6, G6].forEach((f, i) => note(f, {at: i * 0.05, length: 0.18, type: "triangle", volume: 0.12})),
  // A win: a short fanfare ending on a held chord.
  win: () => {
    [C5, E5, G5].forEach((f, i) => note(f, {at: i * 0.12, length: 0.16, type: "square", volume: 0.06}));
    [C5, E5, G5, C6].forEach((f) => note(f, {at: 0.38, length: 0.7, type: "triangle", volume: 0.09}));
  },
};

// Plays one of SOUNDS by name when sound is on and the browser has let audio start.
export function play(name) {
  if (!soundOn() || !context || context.state === "closed") return;
  SOUNDS[name]();
}
