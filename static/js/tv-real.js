/* The TV's table when people hold real cards: the TV sets the table, calls, shows who is ready and who is
   waited for, and answers for the seats without a phone (a tap target on each); its scores correct with a tap.
   The game's fields are partyrummy/realcards/views.py's table view. */
import { calledText, el, loud, names, winnersText } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { $, act, view } from "./tv-shared.js";
import { falseText, firstReveal, matchedRow, newcomerTiles, renderCall, renderClocks, renderControls, seatLine, seatTile } from "./tv-table.js";

/* The host's number pad and card picker (tv-pad.js, tv-picker.js) load the first time the host opens them:
   many nights never do, and the TV's first load stays light. */
let pad = null;
async function openPad(...args) {
  pad = pad || (await import("./tv-pad.js"));
  pad.openPad(...args);
}

/* The open pad redrawn with the state (a hand entered meanwhile closes it). */
export function refresh() {
  if (pad) pad.refreshPad();
}

/* A mode's module gives tv.js the same names as tv-phones.js. The caller's shout (shown big and spoken): */
export function call(state) {
  const game = state.game;
  if (game.game_over) return winnersText(state);
  if (state.room.paused) return t("call.paused");
  const who = names(state);
  const matched = game.matched.map((m) => who[m.seat]);
  const called = () => calledText(matched, game.pacing === "turns");
  const shout = CALLS[game.phase];
  return shout ? shout(game, who, matched.length ? called() : "") : "";
}

/* The call of each phase (`called`: who called Match!, when someone has). */
const CALLS = {
  setup: (game, who, called) => called || tn("tv.real.call.deal", game.size),
  ready: () => t("call.draw"),
  reveal: (game, who, called) => called || t("call.discard"),
  last_ready: () => t("call.last_draw"),
  turn: (game, who, called) => [called, t(`tv.real.call.${game.phase}`, { name: loud([who[game.turn]]) })].filter(Boolean).join(" "),
  entry: () => t("tv.real.call.entry"),
  scored: () => t("call.scored"),
};
CALLS.last_turn = CALLS.turn;

/* What the players do now, under the call (never spoken: the phones say it too); a Match! refused first. */
function hint(game) {
  if (game.false_match) return falseText(game, view.state.room.seats);
  if (game.game_over || game.scored || game.call === "deal") return ""; // the deal and the scores say it all
  if (game.matched.length && (game.window || (game.turn !== null && game.call))) return ""; // the call says enough
  return t(`table.phase.${game.phase}`);
}

export function renderTable() {
  const game = view.state.game;
  const seats = view.state.room.seats;
  renderCall(call(view.state), hint(game));
  $("waiting-names").textContent = waitingLine(game, seats);
  renderDeal(game, seats);
  $("shoe").hidden = true;
  $("shared-pile").hidden = true;
  renderControls(game);
  // The deal's own big button calls the first "Draw!"; while hands are entered there is nothing to call.
  $("call-now").hidden = game.call !== "call" && game.call !== "next";
  $("melds").replaceChildren(...game.seats.filter((s) => s.entry && s.matched).map((s) => matchedHand(seats[s.seat].name, s.entry)));
  const flip = firstReveal();
  $("seats").replaceChildren(...game.seats.map((s) => realTile(game, s, seats[s.seat], flip)), ...newcomerTiles(seats));
  renderClocks(); // a late seat's hurry on its tile again, at once
}

/* Who the table waits for: the few not ready by name (else a count), and every hand not yet entered. */
function waitingLine(game, seats) {
  const listed = (ids) => list(ids.map((s) => seats[s].name));
  if (game.readying) {
    const playing = game.seats.filter((s) => !s.matched);
    const slow = playing.filter((s) => !s.ready).map((s) => s.seat);
    if (!slow.length) return "";
    return slow.length <= 3 && slow.length < playing.length ? t("tv.waiting_for", { names: listed(slow) })
      : t("tv.real.ready_count", { n: playing.length - slow.length, total: playing.length });
  }
  if (game.window && game.waiting_for.length && game.waiting_for.length <= 3) { // the window ends once they go on
    return t("tv.real.window_waits", { names: listed(game.waiting_for) });
  }
  if (!game.call && !game.game_over && game.waiting_for.length) { // the hands being entered
    return game.waiting_for.length <= 4 ? t("tv.waiting_for", { names: listed(game.waiting_for) }) // the tiles say who, beyond
      : t("tv.waiting_many", { n: game.waiting_for.length });
  }
  return "";
}

/* The table set, while people deal: the hand, the piles to start, the decks, who deals and starts, the wild rank
   big; and the host's button to call the first "Draw!" once the cards are out. */
function renderDeal(game, seats) {
  const setup = game.call === "deal"; // the cards are being dealt
  $("deal").hidden = !setup;
  if (!setup) return;
  const turns = game.pacing === "turns";
  // The last hand says so on the deal itself (the banner would cover the deal's facts at 720p): big, first.
  const last = game.hand_no === game.hands_total && game.hands_total > 1;
  const facts = [last ? t("tv.last_hand") : t("info.hand", { hand: game.hand_no, total: game.hands_total }),
    t(turns ? "tv.real.face_up_shared" : "tv.real.face_up_each"),
    game.jokers ? tn("tv.real.decks_jokers", game.decks, { jokers: game.jokers }) : tn("tv.real.decks", game.decks)];
  if (turns && game.dealer !== null) {
    const starter = (game.dealer + 1) % game.seats.length;
    facts.push(t("tv.real.dealer_starter", { dealer: seats[game.dealer].name, starter: seats[starter].name }));
  }
  $("deal-facts").replaceChildren(...facts.map((text, k) => el("p", { class: k === 0 && last ? "deal-last" : "", text })));
  $("deal-wild").hidden = !game.wild_rank;
  if (game.wild_rank) {
    $("deal-wild").replaceChildren(el("span", { class: "wild-rank", "aria-hidden": "true", text: game.wild_rank }),
      el("span", { class: "wild-words", text: t("info.wild", { rank: game.wild_rank }) }));
  }
  $("deal-go").textContent = t(turns ? "tv.real.dealt_play" : "tv.real.dealt_draw");
  $("deal-go").disabled = !!view.state.room.paused;
}

/* A matched player's hand as entered, laid out for everyone to check, and whether it holds. */
function matchedHand(name, entry) {
  const verdict = [entry.how === "typed" ? `✎ ${tn("points", entry.points)}` : "",
    entry.claim ? t("tv.real.claim_ok") : t("tv.real.claim_bad", { points: tn("points", entry.points) })].filter(Boolean).join(" ");
  return matchedRow(entry.claim ? "" : "claim-bad", name, entry, el("span", { class: "verdict", text: verdict }));
}

/* One seat: its name, total and state (a tick when ready, turning over into "Discard!" on the call); a seat
   without a phone gets the TV's buttons. */
function realTile(game, s, seat, flip) {
  const entering = s.can.includes("points") || (s.entered && !game.call && !game.game_over); // its hand to enter, or in
  const readying = game.readying;
  const turn = game.turn === s.seat; // with turns: its turn
  // Entering, a matched seat's tile stays green; its line says whether its hand is in (two words fit 720p).
  const status = entering ? (s.entered ? `✓ ${t("tv.real.entered")}` : t("tv.real.not_in"))
    : s.matched ? t(game.pacing === "turns" ? "tv.real.out" : "status.matched")
      : readying && s.ready ? `✓ ${t("tv.real.ready")}`
        : turn ? t("status.their_turn")
          : game.revealed ? t("call.discard") : "";
  const waiting = entering ? !s.entered : readying || game.window ? game.waiting_for.includes(s.seat) : turn;
  const line = [tn("points", game.totals[s.seat])];
  if (game.dealer === s.seat) line.push(t("tv.dealer"));
  // A seat without a phone, or whose phone is not connected: the TV answers for it, so no seat blocks the table.
  const answered = (seat.phoneless || !seat.connected) && !game.game_over;
  const buttons = answered ? answers(game, s, seat.name, entering) : [];
  // A phone-less seat still to enter shows its button, which says as much as "Not in yet": one line less.
  const shown = entering && !s.entered && buttons.length ? "" : status;
  const tile = seatTile(seat, s.matched, waiting,
    seatLine(line),
    el("div", { class: `seat-status ${flip ? "flip" : ""}`, text: shown }));
  tile.classList.toggle("is-ready", readying && s.ready);
  if (buttons.length) tile.append(el("div", { class: "seat-acts" }, ...buttons)); // side by side: the tile stays short
  return tile;
}

/* The TV answers for a seat without a phone: the button its player would tap, on its tile; what the seat may
   send now, as the server says (`can`: Match! in the window, its take-back, Ready, Done and Out!, entering). */
function answers(game, s, name, entering) {
  const seat = s.seat;
  const can = (move) => s.can.includes(move);
  const paused = !entering && view.state.room.paused; // the pace's taps wait; entering goes on
  const button = (key, onclick, pressed) => el("button", { type: "button", class: "seat-act", "aria-pressed": pressed === undefined ? null : String(pressed),
    "aria-label": `${name}: ${t(key)}`, disabled: paused, onclick }, t(key));
  if (entering) {
    if (s.entered || !can("points")) return [];
    return [button("tv.real.enter_hand", () => openPad(() => t("tv.real.pad_title", { name, hand: game.hand_no }),
      (points) => view.link.send("points", { points, seat }), seat))];
  }
  const acts = [];
  if (can("match")) acts.push(button("action.match", () => act("match", { seat })));
  if (can("withdraw")) acts.push(button("tv.real.take_back", () => act("withdraw", { seat })));
  if (can("ready")) acts.push(button("tv.real.ready", () => act("ready", { seat, ready: !s.ready, cycle: game.cycle }), s.ready));
  if (can("done")) acts.push(button("tv.real.done", () => act("done", { seat, cycle: game.cycle })));
  if (can("out")) acts.push(button("tv.real.out", () => act("out", { seat, cycle: game.cycle })));
  return acts;
}

/* The seat panel's "Enter it on the TV": the host enters a seat's hand though its phone is connected (the
   phone is told, and its hand goes in from here). */
export function enterOnTv(seat) {
  const name = view.state.room.seats[seat].name;
  openPad(() => t("tv.real.pad_title", { name, hand: view.state.game.hand_no }),
    (points) => view.link.send("points", { points, seat, override: true }), seat, { override: true });
}

/* The scores: each hand's points by seat, from the score sheet. */
export const handPoints = (game) => game.sheet.map((row) => row.map((cell) => (cell ? cell.points : null)));
export const scoreCell = (game, hand, seat, name) => sheetCell(game.sheet[hand][seat], hand + 1, seat, name);

/* Beside the sheet: the night's games (their height under it goes to the sheet's rows of buttons at 720p), then
   the legend. */
export const story = (game, seats, night) => [...night, ...legend(game)];

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
