/* The audience's phone following the hand once its guesses are in (docs/protocol.md, "The audience": `room.hand`):
   the TV's call, who called Match!, each seat's pile as the TV shows it face up; and a buzz when a guess comes true
   (the Match! this member said would come first, a hand's answers that earned them points). */
import { cardFace } from "./cards.js";
import { calledText, el, fill } from "./common.js";
import { t } from "./i18n.js";
import { moment } from "./phone-moments.js";
import { $ } from "./phone-shared.js";

let felt = new Set(); // the guesses come true this page has buzzed for already (each once, even redrawn)
let primed = false; // what was true when the page opened it did not see happen: no buzz for it

/* The hand on the table, while this member has nothing to pick (`guessing`: its questions are on screen). */
export function renderStage(state, guessing) {
  const hand = state.room.hand;
  $("aud-stage").hidden = !hand || guessing;
  if ($("aud-stage").hidden) return;
  $("aud-call").textContent = hand.called.length ? calledText(hand.called) : t(hand.shout, { hand: hand.hand });
  const colours = state.room.colours || {};
  fill($("aud-seats"), hand.seats.map((seat) => {
    const item = el("li", { class: seat.matched ? "matched" : "" }, el("span", { class: "aud-seat-name", text: seat.name }),
      seat.matched ? el("strong", { class: "aud-seat-match", text: t("phone.aud.matched") }) : null,
      seat.pile ? cardFace(seat.pile) : null);
    item.style.setProperty("--seat-colour", colours[seat.name] || "var(--muted)");
    return item;
  }));
}

/* A buzz for a guess come true: the hand's first Match! by the player this member picked (with the update that
   brought it), and a hand's answers that earned them points (once they are in their own part). */
export function feel(state, moments, you) {
  const hand = state.room.hand;
  const r = state.room.audience.round;
  const picks = (you && you.picks) || {};
  const first = hand && hand.called[0];
  if (first && r && !r.open && picks.first === first && moments.some((m) => m.kind === "match")) once(`${r.game}/${r.hand}/first`);
  const last = you && you.last;
  const earned = last ? Object.values(last.earned).some((points) => points > 0) : false;
  if (earned) once(`${state.room.audience.last && state.room.audience.last.game}/${last.hand}/earned`);
  primed = true;
}

function once(key) {
  if (felt.has(key)) return;
  felt = new Set([...felt, key].slice(-20));
  if (primed) moment("good", $("aud-stage"));
}
