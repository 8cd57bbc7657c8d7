/* The caller's voice: each new call spoken in the TV's language, with a beep (a Match! rings up, "Discard!" flips
   down, a Match! refused buzzes low). */
import { lang } from "./i18n.js";
import { $, view } from "./tv-shared.js";
import { falseText } from "./tv-table.js";

let lastCall = "";
let audio = null;

/* Say the current call again (in a new language). */
export function sayAgain() {
  lastCall = "";
}

/* Say the call of the game's mode (its module's `call`), if it is a new one. */
export function announce(mode) {
  const game = view.state.game;
  const wrong = game ? falseText(game, view.state.room.seats) : "";
  const text = game ? `${mode.call(view.state)} ${wrong}`.trim() : "";
  if (!text || text === lastCall) return;
  lastCall = text;
  const tones = wrong ? [330, 247] : game.matched.length ? [660, 880, 1100] : game.phase === "reveal" ? [1320, 990, 660] : [660];
  if ($("opt-sound").checked) tones.forEach((f, k) => beep(f, k * 0.12));
  if ($("opt-speech").checked && "speechSynthesis" in window && /[!…]/.test(text)) {
    window.speechSynthesis.cancel();
    const utterance = new SpeechSynthesisUtterance(text.replace("…", ""));
    utterance.lang = lang;
    utterance.voice = voiceFor(lang);
    window.speechSynthesis.speak(utterance);
  }
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

function beep(frequency, delay) {
  try {
    if (!audio || audio.state !== "running") return; // browsers allow sound only after a click
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const start = audio.currentTime + delay;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + 0.25);
  } catch (e) {
    /* no sound on this browser */
  }
}
document.addEventListener("click", () => {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
});
