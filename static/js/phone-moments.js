/* The moments felt on the phone: a short animation, a buzz where the phone has one (navigator.vibrate; iPhones
   have none), and a sound when this phone's switch is on (remembered on this device, like its language). Under
   prefers-reduced-motion there is no animation and no buzz, but for a warning (the TV about to play for this
   player: a buzz says it to a phone in a pocket). Nothing here waits: the game's pace is the server's. */
import { store } from "./common.js";
import { $ } from "./phone-shared.js";

const still = matchMedia("(prefers-reduced-motion: reduce)");
// Each moment's notes (Hz, in turn) and buzz (ms): someone's Match!, this player's own (the table hears it), the
// hurry (the TV is about to play for this player), a hand that went this player's way, the win.
const NOTES = { draw: [440], flip: [523, 784], match: [784, 988, 1319], matched: [784, 988, 1319, 1568],
  hurry: [880, 880], good: [659, 880], win: [523, 659, 784, 1047] };
const BUZZ = { draw: 40, flip: 70, match: [90, 60, 90], matched: [60, 40, 60, 40, 200], hurry: [300, 150, 300],
  good: [80, 50, 160], win: [120, 60, 120, 60, 240] };
const WARNINGS = new Set(["hurry"]); // felt even by those who asked for less motion
let audio = null;

const soundOn = () => store("pr.sound") === "1";

/* The switch at the foot of the screen; switched on, it plays a note at once (the tap lets the page sound). */
export function wireSound() {
  const box = $("sound");
  box.checked = soundOn();
  box.addEventListener("change", () => {
    store("pr.sound", box.checked ? "1" : "0");
    play([660]);
  });
}

/* Short notes, one after another, on Web Audio; a browser without it stays silent. */
function play(notes) {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!soundOn() || !Context) return;
  try {
    audio = audio || new Context();
    notes.forEach((hz, i) => {
      const at = audio.currentTime + i * 0.11;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.17);
    });
  } catch (e) {
    /* no sound here: the moment goes on without it */
  }
}

/* A moment of the game (`kind`: one of NOTES'); `node` plays its animation (phone.css: .moment-KIND). */
export function moment(kind, node) {
  play(NOTES[kind]);
  if (navigator.vibrate && (!still.matches || WARNINGS.has(kind))) navigator.vibrate(BUZZ[kind]);
  if (still.matches) return;
  if (!node) return;
  node.classList.remove(`moment-${kind}`);
  void node.offsetWidth; // the animation starts again for a moment that follows one still playing
  node.classList.add(`moment-${kind}`);
}

/* The kinds of moment that came with the state being drawn (docs/protocol.md, `table`: `moments`). */
export const kinds = (moments) => new Set(moments.map((m) => m.kind));
