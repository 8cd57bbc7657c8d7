/* The TV's scores: every row all night, the chart, and beside the sheet what the game's mode adds. */
import { el, winnersText } from "./common.js";
import { lang, t } from "./i18n.js";
import { drawChart } from "./tv-chart.js";
import { nightList } from "./tv-lobby.js";
import { $, room, view } from "./tv-shared.js";

/* `mode`: the module of the game's mode (tv-phones.js or tv-real.js), which gives each hand's points, draws
   each cell and says what goes beside the sheet. */
export function renderScores(mode) {
  const game = view.state.game;
  const seats = view.state.room.seats;
  const scored = game.phase === "scored" || game.game_over;
  $("scores-title").textContent = game.game_over ? winnersText(view.state) : scored ? t("tv.hand_scored", { hand: game.hand_no }) : t("tv.scores");
  $("next-hand").hidden = game.game_over || game.phase !== "scored";
  $("play-again").hidden = !game.game_over;
  const real = game.mode === "real";
  const history = mode.handPoints(game);
  $("undo-correction").hidden = !(real && game.can_undo);
  $("csv").setAttribute("href", `/room/${room}/scores.csv?lang=${encodeURIComponent(lang)}`);
  // The night's games under the sheet; with real cards the sheet's rows of buttons need that height at 720p, so
  // they go beside it, with the legend.
  const night = game.game_over ? nightList() : [];
  $("night-scores").replaceChildren(...(real ? [] : night));
  const order = seats.map((s, i) => i).filter((i) => i < game.totals.length).sort((a, b) => game.totals[a] - game.totals[b]);
  const head = el("tr", {}, el("th", { scope: "col", text: "#" }), el("th", { scope: "col", text: t("tv.player") }),
    ...history.map((h, i) => el("th", { scope: "col", text: `${i + 1}` })),
    el("th", { scope: "col", text: t("tv.total") }));
  const rows = order.map((i) => {
    const winner = game.game_over && (game.winners || []).includes(i);
    return el("tr", { class: winner ? "winner" : "" },
      el("td", { class: "place", text: `${order.indexOf(i) + 1}` }),
      el("th", { scope: "row" }, el("span", { class: "dot", "aria-hidden": "true" }), seats[i].name),
      ...history.map((_, k) => mode.scoreCell(game, k, i, seats[i].name)),
      el("td", { class: "total", text: game.totals[i] }),
    );
  });
  rows.forEach((row, k) => row.style.setProperty("--seat-colour", seats[order[k]].colour));
  $("score-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("story").replaceChildren(...mode.story(game, seats, night));
  // After the story: the chart takes the room left.
  drawChart($("chart"), { points: history, seats: seats.slice(0, game.totals.length), order, hands: game.hands_total });
}
