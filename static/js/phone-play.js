/* The phone in play, cards on the phones: this player's next step, the hand, drawing, picking, Match!, the clocks. */
import { callText } from "./call.js";
import { cardFace, laidOut } from "./cards.js";
import { deadlines, el, infoText, store } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { renderResults } from "./phone-results.js";
import { $, act, view } from "./phone-shared.js";

let lastCall = "";
let clocks = {}; // the hurry and match-window deadlines on this page's clock, set when a state arrives

/* The deadlines of the state just received (common.js's deadlines): a redraw never moves them. */
export function setClocks(room) {
  clocks = deadlines(room);
}

/* A mode's module gives phone.js the same names as phone-real.js. A watcher's line (phone-join.js): */
export const watchText = () => callText(view.state);

export function render(me, game) {
  const you = game.you;
  const seats = view.state.room.seats;
  const mine = game.seats[you.seat];
  const phase = game.phase;
  const call = callText(view.state);
  $("p-info").textContent = infoText(game);
  $("p-score").textContent = `${seats[you.seat].name} · ${tn("points", game.totals[you.seat])}`;
  $("p-call").textContent = call;
  document.body.classList.toggle("paused", !!view.state.room.paused);
  if (call !== lastCall) {
    lastCall = call;
    if (navigator.vibrate && /!/.test(call)) navigator.vibrate(120);
  }
  const myTurn = game.turn === null || game.turn === you.seat; // with turns, one player at a time
  const paused = !!view.state.room.paused; // the table stops: nothing to tap until the host resumes
  const drawing = !paused && (phase === "draw" || phase === "last_draw") && !mine.drawn && !mine.matched && myTurn;
  const choosing = !paused && !!you.drawn && !mine.matched && phase !== "reveal";
  $("draw-choices").hidden = !drawing;
  const top = you.take.top;
  const turns = game.pacing === "turns";
  const name = seats[you.right].name;
  const pile = $("draw-pile");
  const words = top
    ? t(turns ? "phone.take_pile" : "phone.take_right", { card: top.label, name })
    : t(turns ? "phone.pile_empty" : "phone.right_empty", { name });
  pile.replaceChildren(words);
  pile.disabled = !top;
  pile.setAttribute("aria-label", words);
  if (top) pile.prepend(cardFace(top, "on-button"));
  $("p-where").textContent = whereText(game, you, mine);
  renderHand(game, you, choosing);
  const over = !!game.results; // after a hand: the results lead, the hand steps aside
  for (const id of ["hand", "pick-note", "p-where"]) $(id).hidden = over;
  document.querySelector(".hand-tools").hidden = over;
  const canMatch = !paused && (phase === "reveal" || phase === "setup") && !mine.matched;
  // Match! is worth its full weight only when the hand is complete; otherwise it stays, quietly.
  const complete = !!you.hint && you.hint.penalty === 0 && you.hand.length === game.size;
  $("match-row").hidden = !canMatch;
  $("match").classList.toggle("ready", complete);
  const closing = choosing && you.pick !== null && game.waiting_for.length === 0; // the caller is about to flip
  $("pick-note").textContent = choosing
    ? you.pick === null ? t("phone.tap_discard") : t("phone.discarding", { card: game.you.hand.find((c) => c.id === you.pick).label })
    : "";
  $("pick-note").classList.toggle("closing", closing);
  $("p-step").textContent = stepText(game, you, mine, { drawing, choosing, closing, complete, paused, canMatch });
  renderClocks();
  renderResults(game, seats);
  // The coach: through the first hand, until dismissed; remembered on this device.
  $("coach").hidden = game.hand_no !== 1 || !!game.results || store("pr.coached") === "1";
  // Turn-based games play differently (one at a time, one shared pile): their own tips.
  for (const [id, key] of [["coach-turn", turns ? "coach.turns_turn" : "coach.turn"],
    ["coach-match", turns ? "coach.turns_match" : "coach.match"]]) {
    $(id).dataset.i18n = key; // kept for a change of language
    $(id).textContent = t(key);
  }
  $("vip-play").hidden = !me.controls;
  $("vip-pause").textContent = t(view.state.room.paused ? "action.resume" : "action.pause");
  $("vip-next").hidden = !(phase === "scored" && !game.game_over);
  $("vip-again").hidden = !game.game_over;
  $("vip-call").hidden = phase === "scored" || game.game_over;
  $("vip-pause").hidden = game.game_over;
}

/* The biggest words: what this player does now, or whom they wait for. */
function stepText(game, you, mine, now) {
  if (now.paused) return t("call.paused");
  if (game.game_over || game.phase === "scored") return rankText(game, you.seat);
  if (mine.matched) return t(game.pacing === "turns" ? "phone.went_out" : "phone.matched");
  if (now.drawing) return t("step.draw");
  if (now.choosing) return now.closing ? t("step.closing") : you.pick === null ? t("step.discard") : t("step.picked");
  if (now.canMatch && now.complete) return t("step.match_now");
  const others = game.waiting_for.filter((s) => s !== you.seat);
  if (others.length && others.length <= 3) return t("step.wait_for", { names: list(others.map((s) => view.state.room.seats[s].name)) });
  return t("step.wait");
}

function rankText(game, seat) {
  const rank = 1 + game.totals.filter((v) => v < game.totals[seat]).length;
  return t("phone.rank", { rank, n: game.totals.length, points: tn("points", game.totals[seat]) });
}

/* This seat's countdown before the caller plays for it, and the match window's clock. */
function renderClocks() {
  if (!view.state || !view.state.game || !view.state.game.you || view.state.game.you.waiting) return;
  const now = performance.now();
  const { hurryStart, hurryEnd, matchEnd } = clocks;
  const mineSlow = view.state.game.waiting_for.includes(view.state.game.you.seat);
  const hurry = $("p-hurry");
  hurry.hidden = !mineSlow || !hurryEnd || now < hurryStart || now > hurryEnd;
  if (!hurry.hidden) hurry.textContent = t("phone.hurry", { n: Math.max(0, Math.ceil((hurryEnd - now) / 1000)) });
  hurry.dataset.endsAt = hurryEnd ? String(Math.round(performance.timeOrigin + hurryEnd)) : ""; // wall-clock ms, for tests
  const left = matchEnd ? Math.ceil((matchEnd - now) / 1000) : 0;
  $("match-clock").textContent = left > 0 && left < 600 ? `⏱ ${left}` : "";
}
setInterval(renderClocks, 200);

function whereText(game, you, mine) {
  if (mine.matched) return t(game.pacing === "turns" ? "phone.went_out" : "phone.matched");
  const left = view.state.room.seats[you.left].name;
  const myTop = mine.pile_top;
  if (game.phase === "reveal" && myTop) return t("phone.onto_pile", { card: myTop.label, name: left });
  if (you.drawn) return t("phone.drew", { card: you.drawn.label });
  if (game.pacing === "turns" && game.turn !== you.seat && game.pile && game.pile.top) return t("phone.on_pile", { card: game.pile.top.label });
  return "";
}

function renderHand(game, you, choosing) {
  const hint = you.hint;
  $("hint").textContent = hint ? t("penalty.now", { n: hint.penalty }) : "";
  const byId = new Map(you.hand.map((c) => [c.id, c]));
  const cards = (ids) => ids.map((id) => byId.get(id));
  const mode = $("sort").value;
  const key = mode === "rank" ? (c) => c.rank * 4 + c.suit : (c) => c.suit * 14 + c.rank;
  // By melds, the solver's layout, then the card picked to discard on its own; else one row, sorted.
  const hands = mode === "melds" && hint
    ? [{ melds: hint.melds.map(cards), orphans: cards(hint.orphans) }, { melds: [], orphans: byId.has(you.pick) ? [byId.get(you.pick)] : [] }]
    : [{ melds: [], orphans: [...you.hand].sort((a, b) => key(a) - key(b)) }];
  const button = (face, card) => el("button", {
    type: "button",
    class: `card-button ${you.pick === card.id ? "picked" : ""} ${you.drawn && you.drawn.id === card.id ? "new" : ""}`,
    "aria-pressed": choosing ? String(you.pick === card.id) : null,
    "aria-label": card.label,
    disabled: !choosing,
    onclick: () => act("choose", { card_id: card.id, cycle: game.cycle }),
  }, face);
  // Orphans are ringed only in a scored hand: this one is still in play.
  const groups = { tag: "li", meld: { class: "group is-meld" }, orphans: { class: "group" }, ring: false, wrap: button };
  $("hand").replaceChildren(...hands.flatMap((hand) => laidOut(hand, groups)));
}

/* After a hand: this player's own line and place first, then the table by rank with running totals. */

/* The buttons of play, and the hand's order (remembered on this device). */
export function wire() {
  $("sort").value = store("pr.sort") || "melds";
  $("sort").addEventListener("change", () => { store("pr.sort", $("sort").value); view.rerender(); });
  $("coach-ok").addEventListener("click", () => { store("pr.coached", "1"); $("coach").hidden = true; });
  $("vip-pause").addEventListener("click", () => act("pause", { paused: !view.state.room.paused }));
  for (const [id, event] of [["vip-call", "call_now"], ["vip-next", "call_now"], ["vip-again", "start"]]) {
    $(id).addEventListener("click", () => act(event));
  }
  $("draw-shoe").addEventListener("click", () => act("draw", { source: "shoe", cycle: view.state.game.cycle }));
  $("draw-pile").addEventListener("click", () => act("draw", { source: "pile", cycle: view.state.game.cycle }));
  $("match").addEventListener("click", () => act("match"));
}
