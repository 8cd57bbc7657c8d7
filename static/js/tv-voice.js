/* The caller's voice and its stings: each big moment has a short sound of its own (tv-show.js says which), and the
   calls and the story are spoken in the TV's language, each once. */
import { lang } from "./i18n.js";
import { $ } from "./tv-shared.js";

/* Each moment's sting: notes in turn, as [Hz, seconds]. Short, and unlike one another: the deal riffles, "Draw!"
   knocks once, the count ticks, a late seat's hurry knocks twice a second, "Discard!" falls, a Match! climbs, a refused one buzzes low, the last discard
   closes on a cadence, the last hand drums, the lead changing hands leaps, a record hand lurches, and the winner
   gets a fanfare of their own. */
export const STINGS = {
  deal: [[330, 0.05], [349, 0.05], [330, 0.05], [349, 0.05], [392, 0.12]],
  draw: [[660, 0.18]],
  tick: [[1760, 0.06]],
  hurry: [[523, 0.07], [392, 0.12]],
  flip: [[1320, 0.12], [990, 0.12], [660, 0.2]],
  match: [[660, 0.1], [880, 0.1], [1100, 0.1], [1320, 0.3]],
  false: [[330, 0.2], [247, 0.35]],
  over: [[784, 0.16], [659, 0.16], [523, 0.16], [392, 0.4]],
  last: [[220, 0.1], [220, 0.1], [220, 0.1], [440, 0.35]],
  lead: [[587, 0.12], [1175, 0.3]],
  record: [[392, 0.15], [370, 0.15], [311, 0.35]],
  win: [[523, 0.12], [659, 0.12], [784, 0.12], [1047, 0.3], [784, 0.12], [1047, 0.6]],
};

let lastSaid = "";
let audio = null;

/* Say the current call again (in a new language). */
export function sayAgain() {
  lastSaid = "";
}

/* A moment's sting, when the host's sound switch is on. */
export function sting(kind) {
  if (!$("opt-sound").checked || !STINGS[kind]) return;
  let at = 0;
  for (const [frequency, length] of STINGS[kind]) {
    beep(frequency, at, length);
    at += length;
  }
}

/* Speak `text` (a call: only words with "!" or "…", said once until it changes), when the voice switch is on. */
export function say(text) {
  if (!text || text === lastSaid) return;
  lastSaid = text;
  if (!$("opt-speech").checked || !("speechSynthesis" in window) || !/[!…]/.test(text)) return;
  window.speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text.replace("…", ""));
  utterance.lang = lang;
  utterance.voice = voiceFor(lang);
  window.speechSynthesis.speak(utterance);
}

if ("speechSynthesis" in window) window.speechSynthesis.getVoices(); // browsers load their voices on first ask

/* A voice that speaks the TV's language (its region first: pt-BR over pt-PT), or none: the browser's default
   then reads it as best it can. */
function voiceFor(lang) {
  const voices = window.speechSynthesis.getVoices();
  const norm = (tag) => tag.replace("_", "-").toLowerCase();
  return voices.find((v) => norm(v.lang) === norm(lang))
    || voices.find((v) => norm(v.lang).split("-")[0] === norm(lang).split("-")[0])
    || null;
}

function beep(frequency, delay, length) {
  try {
    if (!audio || audio.state !== "running") return; // browsers allow sound only after a click
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const start = audio.currentTime + delay;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + length);
  } catch (e) {
    /* no sound on this browser */
  }
}
document.addEventListener("click", () => {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
});
