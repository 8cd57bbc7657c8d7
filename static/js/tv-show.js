/* The TV's show: what a new state means as a moment (a deal, "Draw!", "Discard!", a Match!, a refused one, a hand's
   end, the last hand), its sting and its banner, and how long it keeps the screen before the next state replaces
   it: a bot's Match! a moment after "Discard!" waits until the cards have turned over. Presentation only: the
   server's pace never waits for the TV. */
import { t } from "./i18n.js";
import { $, view } from "./tv-shared.js";
import { restart, whenTicking } from "./tv-table.js";
import { say, sting } from "./tv-voice.js";

/* How long each moment keeps the screen, at least (ms). */
const HOLD = { flip: 1600, match: 1200, false: 900, last: 1500 };
const BANNER = 3500; // a banner's time over the band

/* The moments, biggest first, as the server said they happened with the updates to the state about to be drawn
   (docs/protocol.md, `table`: `moments`); a deal's are its own: a hand's end drawn with the next deal (the host
   dealt at once) is old news, and the last hand's drum is played, not the end's cadence. A state that came whole
   (a load, a return) has none. Pure. */
const BIGGEST = ["win", "over", "last", "deal", "match", "false", "flip", "draw"];
const DEAL = new Set(["win", "last", "deal"]);
export function momentsOf(moments) {
  const kinds = new Set(moments.map((m) => m.kind));
  return BIGGEST.filter((kind) => kinds.has(kind) && (!kinds.has("deal") || DEAL.has(kind)));
}

let holdUntil = 0;
let timer = null;

/* Whether a state that just came may be drawn now: while a moment holds the screen it waits (its drawing is asked
   for when the hold ends, with whatever state is newest then). A pause, a language or a new game never waits. */
export function mayDraw(next, drawLater) {
  const shown = view.state;
  const urgent = !shown || !shown.game || !next.game || shown.room.paused !== next.room.paused;
  const wait = holdUntil - performance.now();
  if (urgent || wait <= 0) return true;
  clearTimeout(timer);
  timer = setTimeout(drawLater, wait);
  return false;
}

/* Play the moments between the state on screen and the next: the biggest one's sting, a banner for the last hand;
   the screen is held for the longest of their holds. */
export function play(moments) {
  if (!moments.length) return;
  const first = moments[0];
  if (first !== "win") sting(first); // the winner's own comes when the podium names them (tv-scores.js)
  holdUntil = performance.now() + Math.max(0, ...moments.map((m) => HOLD[m] || 0));
  if (moments.includes("last")) {
    // With real cards the deal says it, in its own place (whenever the moment comes: with the hand's end or the deal).
    if (!document.body.classList.contains("real")) banner(t("tv.last_hand"));
    say(t("tv.last_hand"));
  }
}

let bannerTimer = null;

/* A moment's words over the band for a few seconds. */
export function banner(text) {
  const box = $("banner");
  box.textContent = text;
  box.hidden = false;
  restart(box, "banner");
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { box.hidden = true; }, BANNER);
}

whenTicking((kind) => sting(kind));
