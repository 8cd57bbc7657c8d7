/* The TV's scores: every row all night, the chart, and beside the sheet what the game's mode adds. A hand's end is
   told in turn (tv.js asks `endOf` which part is on): the last discards turn over on the table, then every hand is
   laid out (the zero hands first, each penalty counted up), then the totals, big, the rows moving to their new
   places, with the hand's story (a zero hand, the biggest penalty, the lead changing hands, a record, a close race,
   the last hand next). At the end of a game the podium is built third, second, first, and the winner named last. */
import { laidOut } from "./cards.js";
import { el, winnersText } from "./common.js";
import { lang, list, t, tn } from "./i18n.js";
import { drawChart } from "./tv-chart.js";
import { nightList } from "./tv-lobby.js";
import { $, room, view } from "./tv-shared.js";
import { nextHandIn } from "./tv-table.js";
import { say, sting } from "./tv-voice.js";

/* How long each part of a hand's end lasts (ms): presentation only, the server's pace never waits for it. */
const LAST_FLIP = 1800; // the last discards turning over on the table
const HAND_STEP = 150; // between one hand laid out and the next
const COUNT_UP = 900; // a penalty counted up from 0
const HANDS_HOLD = 3500; // every hand in sight, before the totals
const STEP = 1500; // between the podium's steps, third to first
const NAMED = 900; // the first step up, then the winner named
const still = matchMedia("(prefers-reduced-motion: reduce)");
const PODIUM = ["third", "second", "first", "named", "awards"]; // the podium's parts, in turn

let moved = ""; // the scored hand (of which game) whose rows moved: they move once, when its totals first show
let sheet = -1; // the game whose whole sheet the host asked for over its podium ("Final scores"), by its number
let laid = ""; // the hand whose hands are laid out in #hands
let told = ""; // the hand (or the podium) whose story was last spoken
const ends = new Map(); // each scored hand's key -> when its end began (performance.now())
let wake = null;

const keyOf = (game) => `${view.state.room.night.length - (game.game_over ? 1 : 0)}/${game.hand_no}`;

/* Which part of a scored hand's end is on: "table" (the last discards turning over), "hands", then "totals", or at
   the end of a game the podium's ("third", "second", "first", "named", "awards"); and how long it has been on
   (ms). A redraw is asked for at each change. */
export function endOf(game) {
  const key = keyOf(game);
  if (!ends.has(key)) ends.set(key, performance.now());
  const since = performance.now() - ends.get(key);
  // With cards on the phones the last discards turn over on the table first; real cards were put down by hand.
  const flip = game.results ? LAST_FLIP : 0;
  const hands = flip + (laidHands(game).length - 1) * HAND_STEP + COUNT_UP + HANDS_HOLD;
  const parts = [["table", 0], ["hands", flip]];
  if (!game.game_over) parts.push(["totals", hands]);
  else {
    parts.push(["third", hands], ["second", hands + STEP], ["first", hands + 2 * STEP]);
    parts.push(["named", hands + 2 * STEP + NAMED], ["awards", hands + 2 * STEP + 2 * NAMED]);
  }
  const on = parts.filter(([, at]) => since >= at).at(-1);
  const next = parts.find(([, at]) => since < at);
  clearTimeout(wake);
  if (next) wake = setTimeout(() => view.redraw(), next[1] - since + 20);
  return { part: on[0], since: since - on[1] };
}

/* Each seat's hand as the table shows it once the hand is scored, the lowest penalty first: with cards on the
   phones the results, with real cards each entry (a typed score has no cards). */
function laidHands(game) {
  const hands = game.results
    || game.seats.filter((s) => s.entry).map((s) => ({ seat: s.seat, penalty: s.entry.points, melds: s.entry.melds, orphans: s.entry.orphans }));
  return [...hands].sort((a, b) => a.penalty - b.penalty || a.seat - b.seat);
}

/* `mode`: the module of the game's mode (tv-phones.js or tv-real.js), which gives each hand's points, draws
   each cell and says what goes beside the sheet; `part`: the part of a hand's end on show (endOf), or "totals". */
export function renderScores(mode, part = "totals") {
  const game = view.state.game;
  const seats = view.state.room.seats;
  const won = (i) => game.game_over && game.winners.includes(i);
  const key = keyOf(game);
  const podium = game.awards && sheet !== view.state.room.night.length && PODIUM.includes(part);
  const hands = part === "hands";
  $("scores").classList.toggle("on-podium", !!podium);
  $("scores").classList.toggle("showing-hands", hands);
  $("hands").hidden = !hands;
  $("final-scores").onclick = () => { sheet = view.state.room.night.length; renderScores(mode); };
  const named = part === "named" || part === "awards";
  $("scores-title").textContent = hands ? t("tv.hands_title", { hand: game.hand_no })
    : podium ? (named ? winnersText(view.state) : t("tv.podium_title"))
      : game.game_over ? t("tv.final_scores") : game.scored ? t("tv.hand_scored", { hand: game.hand_no }) : t("tv.scores");
  $("next-hand").hidden = game.call !== "next";
  $("play-again").hidden = !game.game_over;
  $("show-hands").hidden = !game.scored || !!podium;
  $("show-hands").textContent = t(hands ? "tv.show_totals" : "tv.show_hands");
  const real = game.mode === "real";
  const history = mode.handPoints(game);
  $("undo-correction").hidden = !(real && game.can_undo);
  $("csv").setAttribute("href", `/room/${room}/scores.csv?lang=${encodeURIComponent(lang)}`);
  renderNext();
  if (hands) return renderHands(game, seats, key);
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
  const story = game.scored ? storyOf(game, seats) : [];
  // The most telling first, and a few at most: the chart keeps room for every name (all of it is said).
  const shown = [...story].sort((a, b) => TOLD.indexOf(a[0]) - TOLD.indexOf(b[0])).slice(0, real ? 1 : 3);
  $("story").replaceChildren(...[...(game.game_over ? [] : shown.map(([kind, text], k) => moment(kind, text, k))),
    ...mode.story(game, seats, night)].filter(Boolean));
  $("podium").replaceChildren(...(podium ? podiumOf(game, seats, won, part, story) : []));
  // After the story: the chart takes the room left.
  drawChart($("chart"), { points: history, seats: seats.slice(0, game.totals.length), order, hands: game.hands_total });
  if (game.scored && !podium && !$("scores").hidden && moved !== key && !still.matches) {
    // The rows climb and fall: each slides from where it stood before this hand to its new place.
    moved = key;
    const before = history.at(-1).map((p, i) => game.totals[i] - (p || 0));
    const was = [...order].sort((a, b) => before[a] - before[b] || a - b);
    const tops = rows.map((row) => row.offsetTop);
    rows.forEach((row, k) => row.animate([{ transform: `translateY(${tops[was.indexOf(order[k])] - tops[k]}px)` }, {}], 1100));
  }
  if (game.scored && !$("scores").hidden) tell(game, key, part, story);
}

/* Say the story once, when its part first shows: the hand's after the totals, the winner once named. */
function tell(game, key, part, story) {
  const now = `${key}/${part}`;
  if (told === now || (game.game_over && part !== "named")) return;
  told = now;
  const kinds = story.map(([kind]) => kind);
  if (game.game_over) sting("win");
  else if (kinds.includes("lead")) sting("lead");
  else if (kinds.includes("record")) sting("record");
  const words = story.filter(([kind]) => !["zero", "worst"].includes(kind)).map(([, text]) => text);
  say([...(game.game_over ? [winnersText(view.state)] : []), ...words].join(" "));
}

/* Every hand laid out, the lowest penalty first, each coming in turn and its penalty counted up; drawn once a hand. */
function renderHands(game, seats, key) {
  const hands = laidHands(game);
  const grid = $("hands");
  grid.style.setProperty("--cols", String(hands.length > 8 ? 3 : hands.length > 3 ? 2 : 1));
  if (laid === key) return;
  laid = key;
  grid.replaceChildren(...hands.map((hand, k) => {
    const penalty = el("span", { class: "penalty", text: tn("points", still.matches ? hand.penalty : 0) });
    const cards = hand.melds.length || hand.orphans.length ? laidOut(hand) : [el("span", { class: "typed", text: t("tv.typed") })];
    const item = el("li", { class: `hand-shown ${hand.penalty ? "" : "zero"}` },
      el("div", { class: "hand-head" }, el("span", { class: "who", text: seats[hand.seat].name }), penalty),
      el("div", { class: "hand-cards" }, ...cards));
    item.style.setProperty("--seat-colour", seats[hand.seat].colour);
    item.style.animationDelay = `${(k * HAND_STEP) / 1000}s`;
    if (!still.matches) countUp(penalty, hand.penalty, k * HAND_STEP);
    return item;
  }));
}

/* A penalty counted up from 0 to `points`, starting `delay` ms from now. */
function countUp(node, points, delay) {
  const start = performance.now() + delay;
  const frame = (now) => {
    const share = Math.min(1, Math.max(0, (now - start) / COUNT_UP));
    node.textContent = tn("points", Math.round(points * share));
    if (share < 1) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/* Who deals the next hand, under the totals: the caller in so many seconds, or the VIP's phone or the host. */
function renderNext() {
  const game = view.state && view.state.game;
  const box = $("next-who");
  if (!game || game.call !== "next") {
    box.textContent = "";
    return;
  }
  const vip = view.state.room.seats.find((s) => s.vip);
  const secs = nextHandIn();
  box.textContent = secs !== null ? t("tv.next_in", { n: secs }) : vip ? t("tv.next_by") : t("tv.next_host");
}
setInterval(renderNext, 250);

const names = (ids, seats) => list(ids.map((s) => seats[s].name));
const TOLD = ["lead", "close", "record", "next-last", "zero", "worst"]; // a hand's story, the most telling first

/* A scored hand's story, in the order it is told: [kind, words]. Its facts are the views' (the recap). */
function storyOf(game, seats) {
  const r = game.recap;
  if (!r) return [];
  const story = [];
  if (r.zero.length) story.push(["zero", t("recap.zero", { names: names(r.zero, seats) })]);
  if (r.worst) story.push(["worst", t("recap.worst", { names: names(r.worst.seats, seats), n: r.worst.points })]);
  if (r.lead) {
    const words = game.game_over ? "story.snatched" : "story.lead";
    story.push(["lead", tn(words, r.lead.seats.length, { names: names(r.lead.seats, seats) })]);
  }
  if (r.record) story.push(["record", t("story.record", { names: names(r.record.seats, seats), n: r.record.points, was: r.record.was })]);
  if (r.close) {
    const who = { names: names(r.close.seats, seats) };
    story.push(["close", r.close.gap === 0 ? t("story.level", who) : tn(game.game_over ? "story.finish" : "story.race", r.close.gap, who)]);
  }
  if (r.next_last) story.push(["next-last", t("story.next_last")]);
  return story;
}

const moment = (kind, text, k) => {
  const node = el("p", { class: `moment ${kind}`, text });
  node.style.setProperty("--k", String(k));
  return node;
};

/* The night's end: the podium built third, second, first (ties share a step; every winner starred), each step
   with its total; the winner named in the title once the first step is up; then the awards as cards and the last
   hand's story (a lead taken at the end, a close finish). */
function podiumOf(game, seats, won, part, story) {
  const colour = (node, seat) => { node.style.setProperty("--seat-colour", seats[seat].colour); return node; };
  const at = PODIUM.indexOf(part); // 0: the third step is up; 1: the second too; 2 and on: the first too
  const steps = game.awards.podium.map((step, k) => step.length && at >= 2 - k ? colour(el("div", { class: `step step${k + 1} ${at === 2 - k ? "" : "up"}` },
    ...step.map((s) => colour(el("p", { class: "name" }, el("span", { class: "dot" }), won(s) ? "★ " : "", seats[s].name), s)),
    el("p", { class: "step-total", text: tn("points", game.totals[step[0]]) }),
    el("div", { class: "block", text: `${game.places[step[0]]}` })), step[0]) : null);
  const awards = part !== "awards" ? [] : game.awards.awards.map((a) => colour(el("p", { class: "award",
    text: t(`award.${a.key}`, { names: names(a.seats, seats), n: a.n, from: a.from, to: a.to }) }), a.seats[0]));
  // The last hand's story, in one line: a close finish, else the lead taken at the end.
  const told = part === "awards" && (story.find(([kind]) => kind === "close") || story.find(([kind]) => kind === "lead"));
  return [el("div", { class: "steps" }, ...steps), told ? moment(told[0], told[1], 0) : null, el("div", { class: "awards" }, ...awards)]
    .filter(Boolean); // no story to tell: nothing (replaceChildren would write "null")
}
