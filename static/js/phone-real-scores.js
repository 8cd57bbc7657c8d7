/* Real cards on the table, the phone after entering: "Your hand: 12 pts" and whether a Match! held (a way to
   change it until the hand is scored is phone-entry.js's); then the hand's story (phone-story.js), this seat's points and the table by
   place; at the end of the night the podium and the awards lead. */
import { laidOut } from "./cards.js";
import { el, fill } from "./common.js";
import { t, tn } from "./i18n.js";
import { $ } from "./phone-shared.js";
import { standings, story } from "./phone-story.js";

/* After entering: "Your hand: 12 pts", and for a Match! whether it held. */
export function renderEntered(game, seat, mine, who) {
  const entry = seat === game.you.seat ? game.you.entry : mine.entry; // another seat's points stay hidden until scored (but a Match!'s)
  const shown = mine.entered && !game.scored && !game.game_over;
  $("entered").hidden = !shown;
  if (!shown) return;
  const words = seat === game.you.seat ? "real.your_hand" : "real.their_hand";
  $("entered-points").textContent = entry
    ? t(words, { name: who[seat], points: tn("points", entry.points) }) + (entry.how === "typed" ? ` ${t("real.typed")}` : "")
    : t("real.their_entered", { name: who[seat] });
  const claim = entry && entry.claim;
  $("entered-claim").hidden = !entry || claim === null || claim === undefined;
  $("entered-claim").textContent = claim ? t("real.claim_held") : t("real.claim_failed");
  $("entered-claim").classList.toggle("failed", claim === false);
  $("entered-melds").replaceChildren(...(entry && entry.how === "cards" ? laidOut(entry) : []));
}

/* After a hand: this seat's points and place, then the table by total. */
export function renderResults(game, who) {
  const box = $("r-results");
  const scored = game.scored || game.game_over;
  box.hidden = !scored;
  if (!scored) return;
  const me = game.you.seat;
  const row = game.sheet[game.sheet.length - 1] || [];
  const cell = row[me];
  const entry = game.seats[me].entry;
  fill(box, // a seat with no result of its own shows nothing there, never "null"
    el("div", { class: "story" }, ...story(game, me, row.map((c) => (c ? c.points : null)))),
    el("h2", { text: t("phone.hand_scores", { hand: game.sheet.length }) }),
    cell ? el("div", { class: "result" },
      el("span", { text: t("phone.this_hand", { points: tn("points", cell.points) }) }),
      ...(entry && entry.how === "cards" ? laidOut(entry) : [])) : null,
    el("h2", { text: t("phone.table_rank") }),
    standings(game, me, who),
  );
}
