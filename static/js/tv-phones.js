/* The TV's table when the cards are on the phones: the call, the wait, the melds, each seat's pile; its scores. */
import { cardFace } from "./cards.js";
import { callText } from "./call.js";
import { el } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { $, view } from "./tv-shared.js";
import { falseText, firstReveal, matchedRow, newcomerTiles, renderCall, renderClocks, renderControls, seatLine, seatTile } from "./tv-table.js";

/* A mode's module gives tv.js the same names as tv-real.js. The caller's words, shown big and spoken: */
export const call = callText;

const tops = {}; // each seat's pile top (card id) as last drawn: a changed one turns over on a flip or a hand's end
const deal = { hand: "", since: 0 }; // the deal whose cards come to the seats, and when it was first drawn
const flipped = {}; // each seat's pile: when it last turned over (ms), so a redraw carries the flip on where it was
const FLIP_MS = 500; // tv.css's .flip

export function renderTable() {
  const game = view.state.game;
  const seats = view.state.room.seats;
  // The end of a game: the table says the hand is over; the podium names the winner (tv-scores.js), last.
  // Everyone has picked: the count into the flip has the call too.
  const counting = view.state.room.call_in !== null && !game.pile && !view.state.room.paused;
  const words = game.game_over ? t("call.scored") : counting ? t("tv.flip_soon") : callText(view.state);
  renderCall(words, falseText(game, seats));
  renderWaiting(game, seats);
  renderControls(game);
  $("deal").hidden = true; // the real-cards table's own parts (tv-real.js), after a night of that
  $("shoe").hidden = false;
  $("call-now").hidden = false;
  $("shoe").textContent = t("tv.shoe", { n: game.shoe_count });
  $("shared-pile").hidden = !game.pile; // turns: one pile for everyone, in the middle
  if (game.pile) $("shared-pile").replaceChildren(el("span", { text: t("tv.pile") }), cardFace(game.pile.top));
  $("melds").replaceChildren(...game.matched.map((m) => matchedRow(fresh(m.seat), seats[m.seat].name, { melds: m.melds, orphans: [] })));
  // The piles turn over on "Discard!" and on a hand's end (the last discards): each whose top card is new.
  const flip = firstReveal() || game.scored;
  // The deal, shown while the cards are looked at (before the first "Draw!"): each seat's cards come to it, and
  // a redraw meanwhile carries the deal on where it was.
  const dealing = game.cycle === 0 && !game.scored ? `${view.state.room.night.length}/${game.hand_no}` : "";
  if (dealing && deal.hand !== dealing) Object.assign(deal, { hand: dealing, since: performance.now() });
  const dealtFor = (performance.now() - deal.since) / 1000;
  const tiles = game.seats.map((s, k) => {
    const seat = seats[s.seat];
    const waiting = game.waiting_for.includes(s.seat);
    const status = s.matched ? "matched" : s.picked ? "picked" : s.drawn ? (s.took_pile ? "took_pile" : "drew")
      : waiting ? (game.pile ? "their_turn" : "thinking") : null;
    const line = [tn("points", game.totals[s.seat])];
    if (game.dealer === s.seat) line.push(t("tv.dealer"));
    const top = s.pile_top ? s.pile_top.id : null;
    if (flip && top !== null && tops[s.seat] !== top) flipped[s.seat] = performance.now();
    tops[s.seat] = top;
    const flipping = performance.now() - (flipped[s.seat] ?? -FLIP_MS) < FLIP_MS;
    // One row: the seat's pile (its neighbour takes from it), and beside it its total, or its cards as dealt.
    const pile = game.pile ? null
      : el("div", { class: "pile", "aria-label": t("tv.pile_of", { name: seat.name }) }, cardFace(s.pile_top, flipping ? "flip" : ""));
    if (flipping && pile) pile.firstChild.style.animationDelay = `${flipped[s.seat] - performance.now()}ms`;
    return seatTile(seat, s.matched, waiting,
      el("div", { class: "seat-row" }, pile, dealing ? backs(s.cards, k, game.seats.length, dealtFor) : seatLine(line)),
      el("div", { class: "seat-status", text: status ? t(`status.${status}`) : "" }));
  });
  $("seats").replaceChildren(...tiles, ...newcomerTiles(seats));
  renderClocks();
}

/* A seat's cards as dealt, face down, coming to it one round at a time as a dealer deals; `since`: seconds since
   the deal began (a card already in place plays nothing). */
function backs(n, seat, seats, since) {
  const step = Math.min(0.06, 2.4 / (n * seats)); // a whole deal in under 2.5 s, whatever the table
  return el("div", { class: "dealt", "aria-label": tn("cards", n) }, ...Array.from({ length: n }, (_, round) => {
    const back = el("span", { class: "back" });
    const at = (round * seats + seat) * step - since;
    if (at > -0.3) back.style.animationDelay = `${at.toFixed(2)}s`;
    else back.style.animation = "none";
    return back;
  }));
}

/* A Match! just called: its row pops in, once (a redraw never plays it again). */
const seen = new Set();
function fresh(seat) {
  const key = `${view.state.game.hand_no}/${seat}`;
  if (seen.has(key)) return "";
  seen.add(key);
  return "new";
}

/* While the table waits for one or a few players, the TV names them (`waiting_for` is empty but while they act). */
function renderWaiting(game, seats) {
  const slow = game.waiting_for;
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
