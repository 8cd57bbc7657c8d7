/* The phone after a hand, cards on the phones: the story (phone-story.js), this player's hand, then the table by
   place; at the end of the night the podium and the awards lead. */
import { laidOut } from "./cards.js";
import { el, fill } from "./common.js";
import { t, tn } from "./i18n.js";
import { $, view } from "./phone-shared.js";
import { standings, story } from "./phone-story.js";

export function renderResults(game, seats) {
  const box = $("p-results");
  const results = game.results;
  box.hidden = !results;
  if (!results) return;
  const me = game.you.seat;
  const who = seats.map((s) => s.name);
  const own = results.find((r) => r.seat === me);
  const points = game.history[game.history.length - 1] || [];
  fill(box, // a seat with no result of its own shows nothing there, never "null"
    el("div", { class: "story" }, ...story(game, me, points)),
    el("h2", { text: t("phone.hand_scores", { hand: game.hand_no }) }),
    own ? el("div", { class: "result" },
      el("span", { text: t("phone.this_hand", { points: tn("points", own.penalty) }) }),
      ...laidOut(own)) : null,
    el("h2", { text: t("phone.table_rank") }),
    standings(game, me, who),
  );
  climb(game, me, points);
}

let moved = ""; // the scored hand whose standings moved this player's row

/* This player's row slides from the place it held before the hand to its new one, once a hand. */
function climb(game, seat, points) {
  const key = `${view.state.room.night.length}/${game.hand_no}/${game.game_over}`;
  const row = $("p-results").querySelector(".standings .me");
  if (moved === key || !row || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  moved = key;
  const before = game.totals.map((total, s) => total - (points[s] || 0));
  const was = before.filter((v) => v < before[seat]).length; // rows above it before, as the places rank
  const rows = [...row.parentElement.children];
  const shift = (was - rows.indexOf(row)) * row.offsetHeight;
  if (shift) row.animate([{ transform: `translateY(${shift}px)` }, {}], { duration: 900, easing: "ease-out", delay: 300 });
}
