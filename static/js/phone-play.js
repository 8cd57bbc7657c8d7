/* The phone in play, cards on the phones: one heading for this player's next step, the hand, drawing, picking,
   Match!, the clocks (the hurry, this seat's own time to choose, the flip, the match window) and the moments. What
   the seat may do now is the table's (`can`, `window`, `last_cycle`, `scored`), never worked out from the phase. */
import { callText } from "./call.js";
import { cardFace, laidOut } from "./cards.js";
import { deadlines, el, infoText, store } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { kinds, moment } from "./phone-moments.js";
import { renderResults } from "./phone-results.js";
import { $, act, cardName, view } from "./phone-shared.js";
import { placeText, winnersLine } from "./phone-story.js";

let clocks = {}; // the deadlines on this page's clock (performance.now() ms), set when a state arrives
let playedFor = null; // the TV's play for this seat, this cycle: {key, card, drew, message} (as its notice said)
let buzzed = ""; // the hurry (hand/cycle) this phone has buzzed for

/* The deadlines of the state just received: the hurry and the match window (common.js), the flip once everyone
   has acted (room.call_in) and this seat's own time to choose after a late draw (you.choose_ends_in). A redraw
   never moves them. */
export function setClocks(state) {
  clocks = deadlines(state.room);
  const at = (secs) => (secs === null || secs === undefined ? null : performance.now() + secs * 1000);
  clocks.callEnd = at(state.room.call_in);
  clocks.chooseEnd = at(state.game && state.game.you && state.game.you.choose_ends_in);
}

/* A mode's module gives phone.js the same names as phone-real.js. A watcher's line (phone-join.js): */
export const watchText = () => callText(view.state);

const secsTo = (at) => Math.max(0, Math.ceil((at - performance.now()) / 1000));
const cycleKey = (game) => `${game.hand_no}/${game.cycle}`;

export function render(me, game) {
  const you = game.you;
  const room = view.state.room;
  const seats = room.seats;
  const mine = game.seats[you.seat];
  const paused = !!room.paused;
  const turns = game.pacing === "turns";
  const others = game.matched.map((m) => m.seat).filter((s) => s !== you.seat);
  const now = {
    paused,
    turns,
    drawing: !paused && mine.can.includes("draw"), // what the rules let this seat send now, as the server says
    choosing: !paused && mine.can.includes("choose"),
    canMatch: !paused && mine.can.includes("match"),
    // Match! is worth its full weight only when the hand is complete; otherwise it stays, quietly.
    complete: !!you.hint && you.hint.penalty === 0 && you.hand.length === game.size,
    // Everyone else has drawn and picked (the table waits for this seat alone).
    lastOne: !turns && game.seats.every((s) => s.seat === you.seat || s.matched || s.picked),
    others, // the other seats that called Match! (or went out)
    played: playedNow(game, you, mine), // the TV played for this seat this cycle: its card, and the one going now
  };
  $("p-info").textContent = infoText(game, room);
  $("p-score").textContent = `${seats[you.seat].name} · ${tn("points", game.totals[you.seat])}`;
  document.body.classList.toggle("paused", paused);

  $("draw-choices").hidden = !now.drawing;
  const top = you.take.top;
  const name = seats[you.right].name;
  const pile = $("draw-pile");
  const words = top
    ? t(turns ? "phone.take_pile" : "phone.take_right", { card: cardName(top), name })
    : t(turns ? "phone.pile_empty" : "phone.right_empty", { name });
  pile.replaceChildren(words); // an empty pile's button says so: the reason it cannot be tapped
  pile.disabled = !top;
  pile.setAttribute("aria-label", words);
  if (top) pile.prepend(cardFace(top, "on-button"));
  renderHand(game, you, now.choosing, mine.matched);
  const over = !!game.results; // after a hand: the results lead, the hand steps aside
  for (const id of ["hand", "pick-note", "p-where"]) $(id).hidden = over;
  document.querySelector(".hand-tools").hidden = over || mine.matched;

  // The Match! window: Match!, or Play on (ready for the next "Draw!"); it ends once everyone has said one.
  const goOn = !paused && mine.can.includes("ready") && !mine.ready;
  $("match-row").hidden = !now.canMatch && !goOn;
  $("match").hidden = !now.canMatch;
  $("go-on").hidden = !goOn;
  $("match").classList.toggle("ready", now.canMatch && now.complete);
  $("match").classList.toggle("quiet", !now.complete);
  setText($("p-step-text"), stepText(game, you, mine, now));
  $("p-call").textContent = newsText(game, you, now);
  $("p-where").textContent = whereText(game, you, mine, now);
  renderPickNote(game, you, now);
  renderPlayedNotice(now.played);
  renderResults(game, seats);
  renderMoments(game, you, mine, now);
  tick();
  // The coach: through the first hand, until dismissed (remembered on this device); never over a Match! to call.
  $("coach").hidden = game.hand_no !== 1 || !!game.results || now.canMatch || store("pr.coached") === "1";
  // Turn-based games play differently (one at a time, one shared pile): their own tips.
  for (const [id, key] of [["coach-turn", turns ? "coach.turns_turn" : "coach.turn"],
    ["coach-match", turns ? "coach.turns_match" : "coach.match"]]) {
    $(id).dataset.i18n = key; // kept for a change of language
    $(id).textContent = t(key);
  }
  const between = game.call === "next";
  $("vip-turn").hidden = !me.controls || !(between || game.game_over);
  $("vip-next").hidden = !between;
  $("vip-again").hidden = !game.game_over;
  // The VIP's pause and call now: folded away at the foot, opened when wanted.
  $("vip-play").hidden = !me.controls || game.call !== "call";
  $("vip-pause").textContent = t(paused ? "action.resume" : "action.pause");
  $("vip-call").hidden = paused;
}

/* The heading: what this player does now; with nothing to do, the table's news or whom it waits for. */
function stepText(game, you, mine, now) {
  if (now.paused) return t("call.paused");
  if (game.scored) return placeText(game, you.seat);
  if (mine.matched) return t(now.turns ? "step.you_went_out" : "step.you_matched");
  if (now.turns && game.cycle > 0) return callText(view.state); // whose turn, and whether the last
  if (now.drawing) return t(game.last_cycle ? "step.last_draw" : "step.draw");
  if (now.choosing) {
    if (you.pick === null) return t(game.last_cycle ? "step.last_discard" : "step.discard");
    if (flipping()) return t("step.flip", { n: secsTo(clocks.callEnd) });
    return waitText(game, you) || t("step.picked");
  }
  if (now.canMatch && now.complete) return t("step.match_now");
  // As its notice says, until the next "Draw!"; never once its player changed the card the TV picked.
  if (now.played && !now.played.changed) return t("step.played_for", { card: now.played.name });
  if (game.window && !now.turns) return windowText(game, you, mine, now);
  if (now.others.length) return theyMatched(now);
  // Nothing to do: whom the table waits for, else the table's own words (the deal, the caller).
  return waitText(game, you) || (game.cycle === 0 ? t(`call.${game.phase}`, { hand: game.hand_no }) : t("step.wait"));
}

/* A Match! window: what it asks of this seat. After another's Match!, that this seat's last draw comes next; else
   Match! or Play on (the hand just dealt: look at it), and once this seat has gone on, whom the window waits for. */
function windowText(game, you, mine, now) {
  const names = (seats) => list(seats.map((s) => view.state.room.seats[s].name));
  if (now.others.length) return tn("step.they_matched_last", now.others.length, { names: names(now.others) });
  if (!mine.ready) {
    if (!game.revealed) return t("call.setup", { hand: game.hand_no }); // the window of the deal
    return t(you.hint ? "step.play_on" : "step.match_or_play_on"); // with hints, a complete hand said so above
  }
  const undecided = game.seats.filter((s) => s.seat !== you.seat && !s.ready && !s.matched).map((s) => s.seat);
  if (!undecided.length) return t("step.next_draw");
  return undecided.length > 3 ? tn("step.wait_many", undecided.length) : t("step.wait_for", { names: names(undecided) });
}

const theyMatched = (now) => tn(now.turns ? "phone.they_went_out" : "phone.they_matched", now.others.length,
  { names: list(now.others.map((s) => view.state.room.seats[s].name)) });

/* Everyone has acted: the cards flip when room.call_in runs out (a pick may still change until then). */
const flipping = () => !!clocks.callEnd && performance.now() < clocks.callEnd;

function waitText(game, you) {
  const others = game.waiting_for.filter((s) => s !== you.seat);
  if (!others.length) return "";
  if (others.length > 3) return tn("step.wait_many", others.length);
  return t("step.wait_for", { names: list(others.map((s) => view.state.room.seats[s].name)) });
}

/* The line under the heading: news of the table the heading does not already give. */
function newsText(game, you, now) {
  if (now.paused) return "";
  if (game.game_over) return winnersLine(game, you.seat);
  const wrong = game.false_match;
  if (wrong && wrong.seat !== you.seat) { // this phone's own refusal comes as a notice
    return tn("table.false_match", wrong.points, { name: view.state.room.seats[wrong.seat].name });
  }
  if (game.scored || !now.others.length || now.turns) return "";
  const heading = !now.drawing && !now.choosing && !(now.canMatch && now.complete);
  return heading ? "" : theyMatched(now);
}

/* What happened to this player's cards, or what comes next for them: one line. */
function whereText(game, you, mine, now) {
  if (now.paused || game.results) return "";
  if (mine.matched) return lastCycleText(game, now);
  if (game.window && now.others.length && !now.turns) return t("phone.your_last_cycle");
  const myTop = mine.pile_top;
  if (game.revealed && myTop) {
    return t("phone.onto_pile", { card: cardName(myTop), name: view.state.room.seats[you.left].name });
  }
  if (now.lastOne && (now.drawing || (now.choosing && you.pick === null))) return t("phone.others_ready");
  if (you.drawn) return t("phone.drew", { card: cardName(you.drawn) });
  if (now.turns && game.turn !== you.seat && game.pile && game.pile.top) return t("phone.on_pile", { card: cardName(game.pile.top) });
  return "";
}

/* After this player's Match!: the table's last cycle as it goes, how many of the others have played it. */
function lastCycleText(game, now) {
  if (now.turns || !game.last_cycle || game.window) return t(now.turns ? "phone.others_last_turn" : "phone.others_last_cycle");
  const playing = game.seats.filter((s) => !s.matched);
  return t("phone.last_cycle_done", { n: playing.filter((s) => s.picked).length, total: playing.length });
}

/* The TV's play for this seat this cycle, as it stands now (null: none): the card the TV picked and whether the
   player has changed it since (a pick may change until the flip), named by the card this seat discards now. */
function playedNow(game, you, mine) {
  if (!playedFor || playedFor.key !== cycleKey(game)) return null;
  const picked = you.pick !== null ? you.hand.find((c) => c.id === you.pick) : null;
  const going = picked || (game.revealed ? mine.pile_top : null); // after the flip: what went onto the pile
  const name = going ? cardName(going) : playedFor.card === "JK" ? t("card.joker") : playedFor.card;
  return { ...playedFor, name, changed: !!going && going.label !== playedFor.card };
}

/* The notice of the TV's play, while it shows: corrected the moment the player changes the pick (never stale). */
function renderPlayedNotice(played) {
  const box = $("notice");
  if (!played || box.hidden || box.dataset.code !== "played_for") return;
  const key = played.drew ? "notice.played_changed" : "notice.played_pick_changed";
  const words = played.changed ? t(key, { card: played.name }) : played.message;
  if (box.textContent !== words) box.textContent = words;
}

/* Under the hand: the card picked, that it may change until the flip (and for how long), a warning when wild. */
function renderPickNote(game, you, now) {
  const note = $("pick-note");
  const card = now.choosing && you.pick !== null ? you.hand.find((c) => c.id === you.pick) : null;
  note.replaceChildren();
  note.classList.toggle("closing", !!card && flipping());
  if (!card) return;
  note.append(t("phone.discarding", { card: cardName(card) }));
  const wild = card.rank === 0 || card.label.slice(0, -1) === game.wild_rank;
  if (wild) note.append(" ", el("strong", { class: "warn", text: t("phone.wild_pick", { card: cardName(card) }) }));
}

/* The moments: the flip (the heading turns over), someone's Match!, the call to draw, a hand's end and the end of
   the night as this player's own (a hand at 0, a place won, the win, an award). */
function renderMoments(game, you, mine, now) {
  const happened = kinds(view.moments);
  const heading = $("p-step");
  if (happened.has("match")) moment(mine.matched ? "matched" : "match", heading);
  else if (happened.has("win")) moment((game.winners || []).includes(you.seat) ? "win" : "flip", heading);
  else if (happened.has("over")) moment(mineScored(game, you.seat) ? "good" : "flip", heading);
  else if (happened.has("flip")) moment("flip", heading);
  else if (happened.has("draw") && now.drawing) moment("draw", heading);
}

/* A hand that went this player's way: scored at 0, or a place won. */
function mineScored(game, seat) {
  const points = game.history.at(-1) || [];
  return points[seat] === 0 || (game.recap && game.recap.climbed.some((m) => m.seat === seat));
}

/* The clocks, redrawn every 200 ms: this seat's hurry (the heading counts it down, and the phone buzzes as it
   starts) or its own time to choose, the flip, the match window. */
function tick() {
  const state = view.state;
  const game = state && state.game;
  if (!game || game.mode === "real" || !game.you || game.you.waiting) return;
  const you = game.you;
  const now = performance.now();
  const slow = game.waiting_for.includes(you.seat);
  const { hurryStart, hurryEnd, matchEnd, callEnd, chooseEnd } = clocks;
  let text = "";
  if (slow && chooseEnd && you.pick === null && now < chooseEnd) text = t("phone.choose_left", { n: secsTo(chooseEnd) });
  else if (slow && hurryEnd && now >= hurryStart && now <= hurryEnd) text = t("phone.hurry", { n: secsTo(hurryEnd) });
  const hurry = $("p-hurry");
  const shown = !hurry.hidden;
  hurry.hidden = !text || !!state.room.paused;
  $("p-step-text").hidden = !hurry.hidden; // the countdown is the heading while it runs
  if (hurry.textContent !== text || shown !== !hurry.hidden) setText(hurry, text);
  hurry.dataset.endsAt = hurryEnd ? String(Math.round(performance.timeOrigin + hurryEnd)) : ""; // wall-clock ms, for tests
  if (!hurry.hidden && buzzed !== cycleKey(game)) { // the TV is about to play for this seat: felt, not only read
    buzzed = cycleKey(game);
    moment("hurry", $("p-step"));
  }
  const step = $("p-step-text");
  if (callEnd && you.pick !== null && you.drawn && !state.room.paused && !game.seats[you.seat].matched) {
    const words = flipping() ? t("step.flip", { n: secsTo(callEnd) }) : step.textContent;
    if (step.textContent !== words) setText(step, words);
  }
  const left = matchEnd ? secsTo(matchEnd) : 0;
  const complete = $("match").classList.contains("ready");
  $("match-clock").textContent = left > 0 && left < 600 ? t(complete ? "phone.match_left" : "phone.next_draw", { n: left }) : "";
}
setInterval(tick, 200);

/* Words into a box that keeps its size (the heading, the hint): shrunk until they fit it, never below 55%. */
function setText(node, words) {
  node.textContent = words;
  fit(node);
}

/* A box's words at the largest size that fits it (again when the screen turns: its width and type size change). */
function fit(node) {
  const box = node.closest("#p-step") || node;
  let size = 1;
  node.style.fontSize = "";
  while (size > 0.55 && (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1)) {
    size -= 0.05;
    node.style.fontSize = `${size.toFixed(2)}em`;
  }
}

let drawn = ""; // what the hand was last drawn from: it is drawn anew only when that changes
let order = { cards: "", sort: "", groups: [] }; // the hand's order as laid out, kept while it holds the same cards

/* The hand. Its order is laid out when its cards change (a deal, a draw, a discard) or on a new sort, and kept
   while they stay: a tap picks a card where it lies, never moves it, and no card slides under the finger. */
function renderHand(game, you, choosing, matched) {
  const hint = you.hint;
  const byId = new Map(you.hand.map((c) => [c.id, c]));
  // The hint speaks of the hand as it will be: the best discard before a pick, what is left without the pick.
  let hintText = hint ? t("penalty.now", { n: hint.penalty }) : "";
  if (hint && choosing && you.pick !== null && byId.has(you.pick)) hintText = t("penalty.after", { card: cardName(byId.get(you.pick)), n: hint.penalty });
  else if (hint && choosing && byId.has(hint.discard)) hintText = t("phone.best_discard", { card: cardName(byId.get(hint.discard)) });
  setText($("hint"), hintText);
  const sort = matched ? "matched" : $("sort").value;
  const cards = you.hand.map((c) => c.id).sort((a, b) => a - b).join();
  if (order.cards !== cards || order.sort !== sort) order = { cards, sort, groups: groupsOf(game, you, sort, byId) };
  const shown = JSON.stringify([order.groups, you.pick, you.drawn && you.drawn.id, choosing, game.wild_rank]);
  if (shown === drawn) return; // nothing of the hand changed: its buttons stay (one replaced under a finger loses its tap)
  drawn = shown;
  const button = (face, card) => el("button", {
    type: "button",
    class: `card-button ${you.pick === card.id ? "picked" : ""} ${you.drawn && you.drawn.id === card.id ? "new" : ""}`,
    "aria-pressed": choosing ? String(you.pick === card.id) : null,
    "aria-label": cardName(card),
    disabled: !choosing,
    onclick: () => act("choose", { card_id: card.id, cycle: game.cycle }),
  }, face);
  // Orphans are ringed only in a scored hand: this one is still in play.
  const laid = { tag: "li", meld: { class: "group is-meld" }, orphans: { class: "group" }, ring: false, wrap: button };
  const hands = order.groups.map(({ meld, ids }) => (meld ? { melds: [ids.map((id) => byId.get(id))], orphans: [] }
    : { melds: [], orphans: ids.map((id) => byId.get(id)) }));
  $("hand").classList.toggle("laid-down", matched);
  $("hand").replaceChildren(...hands.flatMap((hand) => laidOut(hand, laid)));
}

/* The hand's groups in order: by melds, the solver's layout (the melds, then the cards in none, a picked card
   among them where it was); a hand matched, its melds as laid down; else one row, sorted by suit or by rank. */
function groupsOf(game, you, sort, byId) {
  const hint = you.hint;
  if (sort === "matched") {
    const laid = game.matched.find((m) => m.seat === you.seat);
    if (laid) return laid.melds.map((m) => ({ meld: true, ids: m.map((c) => c.id).filter((id) => byId.has(id)) }));
  }
  if (sort === "melds" && hint) {
    const melded = hint.melds.map((ids) => ({ meld: true, ids: ids.filter((id) => byId.has(id)) }));
    const placed = new Set(melded.flatMap((g) => g.ids));
    return [...melded, { meld: false, ids: you.hand.map((c) => c.id).filter((id) => !placed.has(id)) }];
  }
  const key = sort === "rank" ? (c) => c.rank * 4 + c.suit : (c) => c.suit * 14 + c.rank;
  return [{ meld: false, ids: [...you.hand].sort((a, b) => key(a) - key(b)).map((c) => c.id) }];
}

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
  $("go-on").addEventListener("click", () => act("ready", { cycle: view.state.game.cycle }));
  window.addEventListener("resize", () => { for (const id of ["p-step-text", "p-hurry", "hint"]) if (!$(id).hidden) fit($(id)); });
  // The TV played for this seat: the heading says so too, in the same words as the notice, until the next call.
  view.link.socket.on("notice", (n) => {
    const game = view.state && view.state.game;
    if (n.code === "played_for" && game) {
      const key = n.hand ? `${n.hand}/${n.cycle}` : cycleKey(game);
      playedFor = { key, card: n.card, drew: n.drew !== false, message: n.message };
    }
    view.rerender();
  });
}
