/* The phone after a hand: this player's hand and place first, then the table by rank. */
import { laidOut } from "./cards.js";
import { el } from "./common.js";
import { t, tn } from "./i18n.js";
import { $ } from "./phone-shared.js";

export function renderResults(game, seats) {
  const box = $("p-results");
  const results = game.results;
  box.hidden = !results;
  if (!results) return;
  const me = game.you.seat;
  const dealt = seats.slice(0, game.totals.length);
  const order = dealt.map((s, i) => i).sort((a, b) => game.totals[a] - game.totals[b]);
  const own = results.find((r) => r.seat === me);
  box.replaceChildren(
    el("h2", { text: t("phone.hand_scores", { hand: game.hand_no }) }), // the winners are in the call above
    own ? el("div", { class: "result" },
      el("span", { text: t("phone.this_hand", { points: tn("points", own.penalty) }) }),
      ...laidOut(own)) : null,
    el("h2", { text: t("phone.table_rank") }),
    el("ol", { class: "standings" }, ...order.map((i) =>
      el("li", { class: i === me ? "me" : "", text: `${seats[i].name}: ${game.totals[i]}` }))),
  );
}
