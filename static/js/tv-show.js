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

/* The moments from one state of a game to the next (the tables' facts, never their phase), the biggest first. A
   page's first state is none: a reload or a return is no moment. Pure. */
export function momentsOf(before, after) {
  if (!before || !after) return [];
  const found = [];
  const dealt = after.hand_no !== before.hand_no || (before.game_over && !after.game_over);
  if (after.game_over && !before.game_over) found.push("win");
  if (after.scored && !before.scored) found.push("over");
  if (dealt && after.hand_no === after.hands_total && after.hands_total > 1) found.push("last");
  if (dealt) found.push("deal");
  if (dealt) return found;
  if (after.matched.length > before.matched.length) found.push("match");
  if (after.false_match && !before.false_match) found.push("false");
  const flipped = after.revealed && !(before.revealed && before.cycle === after.cycle);
  if (flipped) found.push("flip");
  if (after.cycle > before.cycle && !after.window && !after.scored) found.push("draw");
  return found;
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
    banner(t("tv.last_hand"));
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

whenTicking(() => sting("tick"));
