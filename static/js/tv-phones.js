/* The TV's table when the cards are on the phones: the call, the wait, the melds, each seat's pile; its scores. */
import { cardFace } from "./cards.js";
import { callText } from "./call.js";
import { el } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { $, view } from "./tv-shared.js";
import { falseText, firstReveal, matchedRow, newcomerTiles, renderCall, renderClocks, renderControls, seatLine, seatTile } from "./tv-table.js";

/* A mode's module gives tv.js the same names as tv-real.js. The caller's words, shown big and spoken: */
export const call = callText;

export function renderTable() {
  const game = view.state.game;
  const seats = view.state.room.seats;
  renderCall(callText(view.state), falseText(game, seats));
  renderWaiting(game, seats);
  renderControls(game);
  $("deal").hidden = true; // the real-cards table's own parts (tv-real.js), after a night of that
  $("shoe").hidden = false;
  $("call-now").hidden = false;
  $("shoe").textContent = t("tv.shoe", { n: game.shoe_count });
  $("shared-pile").hidden = !game.pile; // turns: one pile for everyone, in the middle
  if (game.pile) $("shared-pile").replaceChildren(el("span", { text: t("tv.pile") }), cardFace(game.pile.top));
  $("melds").replaceChildren(...game.matched.map((m) => matchedRow("", seats[m.seat].name, { melds: m.melds, orphans: [] })));
  const flip = firstReveal(game.phase);
  const tiles = game.seats.map((s) => {
    const seat = seats[s.seat];
    const waiting = game.waiting_for.includes(s.seat);
    const status = s.matched ? "matched" : s.picked ? "picked" : s.drawn ? (s.took_pile ? "took_pile" : "drew")
      : waiting ? (game.pile ? "their_turn" : "thinking") : null;
    const line = [tn("cards", s.cards), tn("points", game.totals[s.seat])];
    if (game.dealer === s.seat) line.push(t("tv.dealer"));
    return seatTile(seat, s.matched, waiting,
      game.pile ? null : el("div", { class: "pile", "aria-label": t("tv.pile_of", { name: seat.name }) }, cardFace(s.pile_top, flip ? "flip" : "")),
      seatLine(line),
      el("div", { class: "seat-status", text: status ? t(`status.${status}`) : "" }));
  });
  $("seats").replaceChildren(...tiles, ...newcomerTiles(seats));
  renderClocks();
}

/* While the table waits for one or a few players, the TV names them. */
function renderWaiting(game, seats) {
  const acting = ["draw", "choose", "last_draw", "last_choose"].includes(game.phase);
  const slow = acting ? game.waiting_for : [];
  const few = slow.length && slow.length <= 3 && slow.length < game.seats.length;
  $("waiting-names").textContent = !slow.length ? "" : few
    ? t("tv.waiting_for", { names: list(slow.map((s) => seats[s].name)) })
    : t("tv.waiting_many", { n: slow.length });
}

/* The scores: each hand's points by seat, as the game keeps them. */
export const handPoints = (game) => game.history;
export const scoreCell = (game, hand, seat) => el("td", { text: game.history[hand][seat] ?? "–" });

/* Beside the sheet, under the hand's moments (tv-scores.js): who climbed and who fell most. */
export function story(game, seats) {
  const r = !game.game_over && game.recap;
  return !r ? [] : [["recap.climbed", r.climbed[0]], ["recap.fell", r.fell[0]]].map(([key, move]) => move
    && el("p", { text: t(key, { name: seats[move.seat].name, from: move.from, to: move.to }) }));
}

/* Nothing of this mode's stays open over the table. */
export function refresh() {}
