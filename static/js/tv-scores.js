/* The TV's scores: every row all night, the chart, the hand's story and the night's awards. */
import { callText, el } from "./common.js";
import { lang, list, t } from "./i18n.js";
import { drawChart } from "./tv-chart.js";
import { nightList } from "./tv-lobby.js";
import { $, openPad, room, view } from "./tv-shared.js";


/* Each hand's points by seat: with real cards, from the score sheet (partyrummy/realcards/views.py). */
function handPoints(game) {
  return game.mode === "real" ? game.sheet.map((row) => row.map((cell) => (cell ? cell.points : null))) : game.history;
}

export function renderScores() {
  const game = view.state.game;
  const seats = view.state.room.seats;
  const scored = game.phase === "scored" || game.game_over;
  $("scores-title").textContent = game.game_over ? callText(view.state) : scored ? t("tv.hand_scored", { hand: game.hand_no }) : t("tv.scores");
  $("next-hand").hidden = game.game_over || game.phase !== "scored";
  $("play-again").hidden = !game.game_over;
  const real = game.mode === "real";
  const history = handPoints(game);
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
      ...history.map((h, k) => (real ? sheetCell(game.sheet[k][i], k + 1, i, seats[i].name) : el("td", { text: h[i] ?? "–" }))),
      el("td", { class: "total", text: game.totals[i] }),
    );
  });
  rows.forEach((row, k) => row.style.setProperty("--seat-colour", seats[order[k]].colour));
  $("score-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("story").replaceChildren(...(real ? [...night, ...legend(game)] : []), ...storyLines(game, seats));
  // After the story: the chart takes the room left.
  drawChart($("chart"), { points: history, seats: seats.slice(0, game.totals.length), order, hands: game.hands_total });
}

/* A score of a real-cards night: a button, so the host can correct it; underlined when typed and, when
   corrected, with the score as entered struck through beside it. */
function sheetCell(cell, hand, seat, name) {
  if (!cell) return el("td", { text: "–" });
  const typed = cell.how === "typed";
  const corrected = cell.corrected_from !== null && cell.corrected_from !== undefined;
  const label = [t("tv.real.cell", { name, hand, points: cell.points }), typed ? t("tv.real.legend_typed") : ""].filter(Boolean).join(", ");
  return el("td", { class: `cell ${typed ? "typed" : ""} ${corrected ? "corrected" : ""}` },
    el("button", { type: "button", class: "cell-tap", "aria-label": label,
      onclick: () => openPad(() => t("tv.real.correct_title", { name, hand }), (points) => view.link.send("correct", { hand, seat, points })) },
    corrected ? el("del", { class: "old", text: cell.corrected_from }) : null,
    el("span", { class: "num", text: cell.points })));
}

/* What the marks on the sheet mean, each beside a sample, and that a tap corrects; once a hand is scored, the
   faces its entries hold more often than the decks do (someone mistyped: the host checks and corrects). */
function legend(game) {
  return [
    game.overdrawn.length ? el("p", { class: "overdrawn", text: t("tv.real.overdrawn", { cards: list(game.overdrawn.map((c) => c.label)) }) }) : null,
    el("p", { class: "legend", text: t("tv.real.legend_tap") }),
    el("p", { class: "legend" }, el("span", { class: "sample typed", text: "7" }), t("tv.real.legend_typed")),
    el("p", { class: "legend" }, el("span", { class: "sample old", text: "9" }), t("tv.real.legend_corrected")),
  ].filter(Boolean);
}

/* Between hands the hand's story; at the end of the night the podium and the awards (partyrummy/awards.py). */
function storyLines(game, seats) {
  const names = (ids) => list(ids.map((s) => seats[s].name));
  const lines = [];
  if (game.awards) {
    game.awards.podium.forEach((step, k) => {
      if (step.length) lines.push(el("p", { class: "podium", text: t("podium.place", { place: k + 1, names: names(step) }) }));
    });
    for (const a of game.awards.awards) lines.push(el("p", { text: t(`award.${a.key}`, { names: names(a.seats), n: a.n, from: a.from, to: a.to }) }));
  } else if (game.recap) {
    const r = game.recap;
    if (r.zero.length) lines.push(el("p", { text: t("recap.zero", { names: names(r.zero) }) }));
    if (r.worst) lines.push(el("p", { text: t("recap.worst", { names: names(r.worst.seats), n: r.worst.points }) }));
    for (const [key, move] of [["recap.climbed", r.climbed[0]], ["recap.fell", r.fell[0]]]) {
      if (move) lines.push(el("p", { text: t(key, { name: seats[move.seat].name, from: move.from, to: move.to }) }));
    }
  }
  return lines;
}
