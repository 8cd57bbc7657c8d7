/* Real cards on the table: the phone as one big button at a time (Ready, Match!, Done, Out!), the words of
   the phase, the wild rank, who the table waits for, and after the hand the score entry (phone-entry.js)
   and the scores. With helpers allowed, the same buttons answer for a seat without a phone. */
import { calledText, deadlines, el, infoText, names, winnersText } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { renderEntry, wireEntry } from "./phone-entry.js";
import { kinds, moment } from "./phone-moments.js";
import { renderEntered, renderResults } from "./phone-real-scores.js";
import { $, act, view } from "./phone-shared.js";
import { placeText, winnersLine } from "./phone-story.js";

/* The seat this phone answers for now: its own, or (helpers allowed) a phone-less one chosen below. */
const answering = { seat: null, hand: null };
let clocks = {}; // the hurry and the match window on this page's clock (performance.now() ms), set as a state arrives

/* The room's clocks of the state just received: a redraw (a change of language) never moves them. */
export function setClocks(state) {
  clocks = deadlines(state.room);
}

/* What every event of this phone carries: the seat answered for, when it is not its own. */
export function seatArg(game, extra) {
  return answering.seat === game.you.seat ? { ...extra } : { ...extra, seat: answering.seat };
}

/* The phone-less seats this phone may answer for (helpers allowed), its own first. */
function answerable(game) {
  const room = view.state.room;
  const others = room.allow_helpers ? room.seats.filter((s) => s.phoneless && s.seat !== game.you.seat && s.seat < game.seats.length).map((s) => s.seat) : [];
  return others.length ? [game.you.seat, ...others] : [];
}

export function render(me, game) {
  const room = view.state.room;
  const who = names(view.state);
  const over = game.scored || game.game_over;
  const choices = over ? [] : answerable(game);
  // A new hand starts with the phone answering for itself: a choice made for someone else never carries over.
  if (!choices.includes(answering.seat) || answering.hand !== game.hand_no) answering.seat = game.you.seat;
  answering.hand = game.hand_no;
  const seat = answering.seat;
  const mine = game.seats[seat];
  const paused = !!room.paused;
  $("r-info").textContent = infoText(game, view.state.room);
  $("r-score").textContent = `${who[game.you.seat]} · ${tn("points", game.totals[game.you.seat] ?? 0)}`;
  renderHelpers(choices, who);

  const now = { paused, turns: game.pacing === "turns", myTurn: game.turn === seat, matched: mine.matched };
  // Its hand to enter, when the rules let it (a pause stops the pace, not the entry).
  const entering = !mine.entered && !game.game_over && mine.can.includes("points");
  $("r-step").textContent = stepText(game, seat, who, now, entering);
  $("r-call").textContent = entering ? "" : newsLine(game, seat, who, now);
  $("r-wild").hidden = !game.wild_rank || !game.call || game.scored || entering; // no wild once the hand is over
  $("r-wild").replaceChildren(el("span", { class: "r-wild-rank", text: "★" }), t("info.wild", { rank: game.wild_rank }));
  $("r-where").textContent = paused || entering || game.game_over ? "" : whereText(game, mine, now);
  renderButtons(game, mine, now);
  renderWaiting(game, seat, who, entering);
  renderEntry(game, seat, entering, seatArg(game));
  renderEntered(game, seat, mine, who);
  renderResults(game, who);
  renderVip(me, game, paused);
  renderClock();
  const happened = kinds(view.moments);
  if (happened.has("match")) moment("match", $("r-step"));
  else if (happened.has("win")) moment((game.winners || []).includes(game.you.seat) ? "win" : "flip", $("r-step"));
  else if (happened.has("flip") || happened.has("over")) moment("flip", $("r-step")); // the cards turn over
  else if (happened.has("draw") && game.readying) moment("draw", $("r-step"));
}

/* The other seats that called Match! (or went out), by name: "Ana called Match!". */
function theyMatched(game, seat, who) {
  const others = game.matched.map((m) => m.seat).filter((s) => s !== seat);
  const key = game.pacing === "turns" ? "phone.they_went_out" : "phone.they_matched";
  return others.length ? tn(key, others.length, { names: list(others.map((s) => who[s])) }) : "";
}

/* "Answer for:" with the phone's own name and each phone-less seat's; the chosen one is pressed. */
function renderHelpers(choices, who) {
  $("helpers").hidden = !choices.length;
  $("helper-seats").replaceChildren(...choices.map((s) => el("button", {
    type: "button",
    class: s === answering.seat ? "primary" : "",
    "aria-pressed": String(s === answering.seat),
    text: who[s],
    onclick: () => { answering.seat = s; view.rerender(); },
  })));
}

/* The biggest words: what the seat answered for does now. */
function stepText(game, seat, who, now, entering) {
  const own = seat === game.you.seat;
  if (entering) return own ? t("real.step.enter") : t("real.step.enter_for", { name: who[seat] });
  if (now.paused) return t("call.paused");
  if (game.game_over) return placeText(game, game.you.seat);
  const step = STEPS[game.phase];
  return step ? step(game, seat, who, now, own) : "";
}

/* The heading of each phase (the last cycle's words where it is the last). */
const STEPS = {
  setup: (game, seat, who, now) => {
    if (!now.turns) return tn("real.step.deal", game.size);
    return game.dealer === game.you.seat ? tn("real.step.you_deal", game.size) : tn("real.step.they_deal", game.size, { name: who[game.dealer] });
  },
  ready: (game, seat, who, now) => {
    if (now.matched) return t("phone.matched");
    if (game.seats[seat].ready) return t("real.step.ready");
    return t(game.last_cycle ? "real.step.last_draw" : "real.step.draw");
  },
  reveal: (game, seat, who, now) => (now.matched ? t("real.step.you_matched") : theyMatched(game, seat, who) || t("real.step.discard")),
  turn: (game, seat, who, now, own) => {
    if (now.matched) return t("phone.went_out");
    const last = game.last_cycle ? "_last" : "";
    // Answering for Carla on her turn: "Carla's turn", with her Done and Out! below.
    return now.myTurn && own ? t(`real.step.your${last}_turn`) : t(`real.step.their${last}_turn`, { name: who[game.turn] });
  },
  entry: () => t("real.step.entered"),
  scored: (game) => placeText(game, game.you.seat),
};
STEPS.last_ready = STEPS.ready;
STEPS.last_turn = STEPS.turn;

/* The line under the heading, when the heading does not say it: the winners, a Match! refused, a complete hand
   dealt, who called Match! (the heading says it while the cards are down). */
function newsLine(game, seat, who, now) {
  if (game.game_over) return winnersLine(game, game.you.seat);
  if (now.paused || game.scored || !game.call) return ""; // nothing to call: the hand is over
  const wrong = game.false_match;
  if (wrong) return tn("table.false_match", wrong.points, { name: who[wrong.seat] });
  if (game.on_deal && game.on_deal.length) return tn("phone.on_deal", game.on_deal.length, { names: list(game.on_deal.map((s) => who[s])) });
  return game.window ? "" : theyMatched(game, seat, who);
}

/* The line under the step: what this phase asks, in the engine's words for it. */
function whereText(game, mine, now) {
  if (game.scored || !game.call || mine.matched) return "";
  if (game.turn !== null && !now.myTurn) return ""; // with turns: another seat's
  // After a Match! the cards stay down until the last "Draw!": one word of what comes, not the window's.
  if (game.window && game.matched.length) return now.turns ? "" : t("phone.your_last_cycle");
  if (mine.ready) return t("real.ready_undo");
  return t(`table.phase.${game.phase}`);
}

/* One big button at a time: Ready (pressed: tap again to take it back), Match! or its withdraw, Done and Out!. */
function renderButtons(game, mine, now) {
  const can = (move) => !now.paused && mine.can.includes(move); // what the rules let the seat send now, as the server says
  const ready = $("r-ready");
  ready.hidden = !can("ready");
  ready.textContent = t(mine.ready ? "real.ready_on" : "real.ready");
  ready.classList.toggle("on", !!mine.ready);
  ready.setAttribute("aria-pressed", String(!!mine.ready));
  $("r-match").hidden = !can("match");
  $("r-match").classList.toggle("ready", game.revealed); // in setup only a dealt complete hand calls it
  $("r-withdraw").hidden = !can("withdraw");
  $("r-done").hidden = !can("done");
  $("r-out").hidden = !can("out");
}

/* Whom the table waits for, once this seat has done its part. */
function renderWaiting(game, seat, who, entering) {
  const others = game.waiting_for.filter((s) => s !== seat);
  const waiting = game.asking && !entering && !game.waiting_for.includes(seat); // while entering, the picker has the screen
  $("r-wait").textContent = waiting && others.length ? t("step.wait_for", { names: list(others.map((s) => who[s])) }) : "";
}

/* The VIP's phone: "Cards are dealt: Draw!" while people deal, the next hand, and at the foot, small, pause and
   call now. */
function renderVip(me, game, paused) {
  $("r-dealt").hidden = game.call !== "deal" || paused; // what the host's call does now, as the server says
  $("r-next").hidden = game.call !== "next";
  $("r-again").hidden = !game.game_over;
  $("r-vip").hidden = !me.controls || (["r-dealt", "r-next", "r-again"].every((id) => $(id).hidden));
  $("r-pause").textContent = t(paused ? "action.resume" : "action.pause");
  $("r-pause").hidden = game.call !== "deal" && game.call !== "call"; // no clock runs while hands are entered
  $("r-call-now").hidden = paused || game.call !== "call";
  $("r-host").hidden = !me.controls || ($("r-pause").hidden && $("r-call-now").hidden);
}

/* The match window's seconds left, under Match!, said for what they are (the next "Draw!"); for a seat not yet
   Ready, when the TV calls "Discard!" anyway, or, once its countdown is over and the rules keep the table
   waiting (a negative room.hurry.ends_in), that the table is waiting for it. */
function renderClock() {
  const game = view.state && view.state.game;
  if (!game || game.mode !== "real") return;
  const now = performance.now();
  const { matchEnd, hurryStart, hurryEnd } = clocks;
  const left = matchEnd ? Math.ceil((matchEnd - now) / 1000) : 0;
  $("r-clock").textContent = left > 0 && left < 600 && !$("r-match").hidden ? t("phone.next_draw", { n: left }) : "";
  const slow = game.waiting_for.includes(answering.seat) && !$("r-ready").hidden;
  const hurry = $("r-hurry");
  hurry.hidden = !slow || !hurryEnd || now < hurryStart || !!view.state.room.paused;
  const text = now > hurryEnd ? t("real.waiting_you") : t("real.hurry", { n: Math.max(0, Math.ceil((hurryEnd - now) / 1000)) });
  if (!hurry.hidden && hurry.textContent !== text) hurry.textContent = text;
}
setInterval(renderClock, 250);

/* The buttons' taps, each for the seat answered for, and the score entry's. */
export function wire() {
  wireEntry();
  const game = () => view.state.game;
  $("r-ready").addEventListener("click", () => {
    const g = game();
    act("ready", seatArg(g, { ready: !g.seats[answering.seat].ready, cycle: g.cycle }));
  });
  $("r-match").addEventListener("click", () => act("match", seatArg(game())));
  $("r-withdraw").addEventListener("click", () => act("withdraw", seatArg(game())));
  $("r-done").addEventListener("click", () => act("done", seatArg(game(), { cycle: game().cycle })));
  $("r-out").addEventListener("click", () => act("out", seatArg(game(), { cycle: game().cycle })));
  $("r-pause").addEventListener("click", () => act("pause", { paused: !view.state.room.paused }));
  for (const [id, event] of [["r-dealt", "call_now"], ["r-call-now", "call_now"], ["r-next", "call_now"], ["r-again", "start"]]) {
    $(id).addEventListener("click", () => act(event));
  }
}

/* A watcher's line (phone-join.js): the step of the table, not of a seat. (A mode's module gives phone.js the
   same names as phone-play.js.) */
export function watchText(game) {
  const who = names(view.state);
  if (game.game_over) return winnersText(view.state);
  if (game.matched.length) return calledText(game.matched.map((m) => who[m.seat]), game.pacing === "turns");
  const line = WATCHED[game.phase];
  return line ? line(game, who) : t("call.scored");
}

/* A watcher's line for each phase. */
const WATCHED = {
  setup: (game) => tn("real.step.deal", game.size),
  ready: () => t("call.draw"),
  last_ready: () => t("call.last_draw"),
  reveal: () => t("call.discard"),
  turn: (game, who) => t("real.step.their_turn", { name: who[game.turn] }),
  last_turn: (game, who) => t("real.step.their_last_turn", { name: who[game.turn] }),
  entry: (game, who) => t("step.wait_for", { names: list(game.waiting_for.map((s) => who[s])) }),
};
