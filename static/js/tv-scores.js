/* The TV's scores: every row all night, the chart, and beside the sheet what the game's mode adds; a scored hand's
   moments (a zero hand, the biggest penalty) and its rows moving to their new places; at the end the podium. */
import { el, winnersText } from "./common.js";
import { lang, list, t } from "./i18n.js";
import { drawChart } from "./tv-chart.js";
import { nightList } from "./tv-lobby.js";
import { $, room, view } from "./tv-shared.js";

let moved = ""; // the scored hand (of which game) whose rows moved: they move once, when its scores first show
let sheet = -1; // the game whose whole sheet the host asked for over its podium ("Final scores"), by its number

/* `mode`: the module of the game's mode (tv-phones.js or tv-real.js), which gives each hand's points, draws
   each cell and says what goes beside the sheet. */
export function renderScores(mode) {
  const game = view.state.game;
  const seats = view.state.room.seats;
  const scored = game.phase === "scored" || game.game_over;
  const won = (i) => game.game_over && game.winners.includes(i);
  const key = `${view.state.room.night.length}/${game.hand_no}`;
  const podium = game.awards && sheet !== view.state.room.night.length;
  $("scores").classList.toggle("on-podium", !!podium);
  $("final-scores").onclick = () => { sheet = view.state.room.night.length; renderScores(mode); };
  $("scores-title").textContent = podium ? winnersText(view.state) : game.game_over ? t("tv.final_scores") : scored ? t("tv.hand_scored", { hand: game.hand_no }) : t("tv.scores");
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
  const rows = order.map((i) => el("tr", { class: won(i) ? "winner" : "" },
    el("td", { class: "place", text: `${won(i) ? "★" : ""}${game.places[i]}` }), // ties share a place
    el("th", { scope: "row" }, el("span", { class: "dot", "aria-hidden": "true" }), seats[i].name),
    ...history.map((_, k) => mode.scoreCell(game, k, i, seats[i].name)),
    el("td", { class: "total", text: game.totals[i] }),
  ));
  rows.forEach((row, k) => row.style.setProperty("--seat-colour", seats[order[k]].colour));
  $("score-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("story").replaceChildren(...[...moments(game, seats), ...mode.story(game, seats, night)].filter(Boolean));
  $("podium").replaceChildren(...(podium ? podiumOf(game, seats, won) : []));
  // After the story: the chart takes the room left.
  drawChart($("chart"), { points: history, seats: seats.slice(0, game.totals.length), order, hands: game.hands_total });
  if (scored && !$("scores").hidden && moved !== key && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
    // The rows climb and fall: each slides from where it stood before this hand to its new place.
    moved = key;
    const before = history.at(-1).map((p, i) => game.totals[i] - (p || 0));
    const was = [...order].sort((a, b) => before[a] - before[b] || a - b);
    const tops = rows.map((row) => row.offsetTop);
    rows.forEach((row, k) => row.animate([{ transform: `translateY(${tops[was.indexOf(order[k])] - tops[k]}px)` }, {}], 1100));
  }
}

const names = (ids, seats) => list(ids.map((s) => seats[s].name));

/* A scored hand's moments, big: who scored nothing, who took the biggest penalty. */
function moments(game, seats) {
  const r = !game.game_over && game.recap;
  return !r ? [] : [r.zero.length ? el("p", { class: "moment zero", text: t("recap.zero", { names: names(r.zero, seats) }) }) : null,
    r.worst && el("p", { class: "moment worst", text: t("recap.worst", { names: names(r.worst.seats, seats), n: r.worst.points }) })];
}

/* The night's end: the top three on their steps (ties share one; every winner starred), and the awards as cards. */
function podiumOf(game, seats, won) {
  const colour = (node, seat) => { node.style.setProperty("--seat-colour", seats[seat].colour); return node; };
  const steps = game.awards.podium.map((step, k) => step.length ? colour(el("div", { class: `step step${k + 1}` },
    ...step.map((s) => colour(el("p", { class: "name" }, el("span", { class: "dot" }), won(s) ? "★ " : "", seats[s].name), s)),
    el("div", { class: "block", text: `${game.places[step[0]]}` })), step[0]) : null);
  const awards = game.awards.awards.map((a) => colour(el("p", { class: "award", text: t(`award.${a.key}`, { names: names(a.seats, seats), n: a.n, from: a.from, to: a.to }) }), a.seats[0]));
  return [el("div", { class: "steps" }, ...steps), el("div", { class: "awards" }, ...awards)];
}
