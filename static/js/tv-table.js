/* The TV's table in either mode: the call, the seats, the controls, the clocks (the rest: tv-phones, tv-real). */
import { laidOut } from "./cards.js";
import { deadlines, el } from "./common.js";
import { lang, t, tn } from "./i18n.js";
import { $, room, view } from "./tv-shared.js";

let clocks = {}; // the hurry, match-window, flip and next-hand deadlines, on this page's clock, set when a state arrives
let drawn = ""; // the "Discard!" (hand/cycle) the table was last drawn in
let counted = 0; // the second of the count into the flip last shown

/* True on the first drawing of a "Discard!" only: the piles (with real cards, the Ready ticks) turn over then,
   never again on a redraw. The table says when its match window opens after a cycle (`window`, `cycle`). */
export function firstReveal() {
  const game = view.state.game;
  const key = game.revealed ? `${game.hand_no}/${game.cycle}` : "";
  const first = !!key && drawn !== key;
  drawn = key;
  return first;
}

/* A Match! refused, said plainly: "Not yet, Ana: 11 points left". */
export const falseText = (game, seats) => (game.false_match
  ? tn("table.false_match", game.false_match.points, { name: seats[game.false_match.seat].name }) : "");

/* Connection health in words; "gone since" is worked out from when this state arrived. */
export function healthText(seat) {
  switch (seat.health) {
    case "open": return t(view.state.room.mode === "real" ? "health.open_real" : "health.open"); // real: nobody plays it
    case "bot": return t("health.bot", { strength: t(`bot.${seat.bot}`) });
    case "phoneless": return t("health.phoneless");
    case "reconnecting": {
      const goneFor = (seat.gone_for || 0) + (Date.now() - view.received) / 1000;
      if (goneFor < view.state.room.grace_s) return t("health.reconnecting");
    } // falls through: it has been too long
    case "gone": {
      const since = new Date(view.received - (seat.gone_for || 0) * 1000);
      return t("health.gone", { time: since.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" }) });
    }
    default: return "";
  }
}
/* The deadlines of the state just received (common.js's deadlines, the flip's and the next hand's): a redraw never
   moves them. */
export function setClocks(room) {
  clocks = deadlines(room);
  const at = (secs) => (secs === null || secs === undefined ? null : performance.now() + secs * 1000);
  clocks.callEnd = at(room.call_in);
  clocks.nextEnd = at(room.next_in);
}

/* Seconds left to a deadline of this page's clock (0 once it has passed), or null without one. */
export const secondsTo = (end) => (end ? Math.max(0, Math.ceil((end - performance.now()) / 1000)) : null);
export const nextHandIn = () => secondsTo(clocks.nextEnd);

/* The host's controls (in the drawer), with cards on the phones or on the table: the pause, and "Call now", which
   deals the next hand between hands (the table's `call` says what it does now); the join QR while seats are free. */
export function renderControls(game) {
  const full = view.state.room.seats.length >= view.state.room.max_players;
  $("table-join").hidden = full || !view.state.room.can_join;
  $("table-code").textContent = room;
  $("pause").textContent = t(view.state.room.paused ? "action.resume" : "action.pause");
  $("pause").disabled = game.game_over;
  $("call-now").disabled = game.game_over;
  $("call-now").textContent = t(game.call === "next" ? "action.next_hand" : "action.call_now");
  $("show-scores").dataset.i18n = game.game_over ? "tv.final_scores" : "tv.scores";
  $("show-scores").textContent = t($("show-scores").dataset.i18n);
}

/* The seats' grid: six columns at most, fewer seats fewer columns; its cells' size never depends on what a tile
   shows, so no tile moves while a hand is played. */
export function seatGrid(count) {
  const grid = $("seats");
  const cols = Math.min(6, Math.max(1, count));
  grid.style.setProperty("--cols", String(cols));
  grid.style.setProperty("--row", Math.ceil(count / cols) > 1 ? "24.5vh" : "36vh");
}

/* A hand laid down for all to check: its player's name, its melds (and orphans), and what `after` adds. */
export function matchedRow(extra, name, hand, ...after) {
  return el("div", { class: `matched ${extra}` }, el("span", { class: "who", text: `${name}:` }), ...laidOut(hand), ...after);
}

/* A tile's line of facts ("13 cards · 42 pts"): it breaks only between them. */
export function seatLine(parts) {
  return el("div", { class: "seat-line" }, ...parts.flatMap((part, i) => [i ? " · " : "", el("span", { text: part })]));
}

/* Seats that joined mid-game, after the dealt ones: dealt in at the next hand. */
export function newcomerTiles(seats) {
  return seats.filter((seat) => seat.waiting).map((seat) =>
    seatTile(seat, false, false, el("div", { class: "seat-status", text: t("status.next_hand") })));
}

/* The call: the shout on the big line, the rest (and a hint of what to do, if given) smaller below; the shout
   shrunk until both fit the box, never below 1.15 times the line under it (it stays the largest text). */
export function renderCall(text, hint = "") {
  const cut = text.search(/[!…]\s/);
  const big = cut > 0 ? text.slice(0, cut + 1) : text;
  const small = [cut > 0 ? text.slice(cut + 2) : "", hint].filter(Boolean).join(" ");
  const box = $("call");
  if (box.dataset.text === text + hint) return fitCall();
  box.dataset.text = text + hint;
  $("call-big").textContent = big;
  $("call-small").textContent = small ? ` ${small}` : ""; // the space: one sentence to read aloud and to search
  box.dataset.size = "";
  fitCall();
}

/* The call's shout fitted to its box, again whenever the box changed (hands laid down, another screen size). */
export function fitCall() {
  const box = $("call");
  const measured = `${innerWidth}x${box.clientHeight}`;
  if (box.dataset.size === measured || !box.clientHeight) return; // hidden (under the pad): fitted once shown
  box.dataset.size = measured;
  const line = $("call-big");
  const floor = (1.15 * parseFloat(getComputedStyle($("call-small")).fontSize)) / parseFloat(getComputedStyle(box).fontSize);
  let size = 1;
  line.style.fontSize = "";
  while (size > floor && (line.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight + 1)) {
    size -= 0.05;
    line.style.fontSize = `${size}em`;
  }
}

/* The hands laid down on a Match!, made smaller only when more than fit the band (three or more of them). */
export function fitMelds() {
  const melds = $("melds");
  const band = melds.parentElement;
  let scale = 1;
  melds.style.setProperty("--meld", "1");
  while (scale > 0.5 && band.scrollHeight > band.clientHeight + 1) {
    scale -= 0.05;
    melds.style.setProperty("--meld", scale.toFixed(2));
  }
}

/* A seat's mark (the VIP, a bot, no phone), its words from the catalog. */
export const badge = (kind, key) => el("span", { class: `badge ${kind}`, text: t(key) });

/* One seat on the table: a button, so the host can tap it for the seat's rejoin QR and controls. */
export function seatTile(seat, matched, thinking, ...lines) {
  // A bot's seat, or a player's without a phone, is a healthy seat: marked as such, never drawn like a lost phone.
  const health = seat.bot || seat.phoneless ? "" : healthText(seat);
  const lost = !seat.phoneless && (seat.health === "reconnecting" || seat.health === "gone");
  const item = el("li", { class: `seat ${matched ? "is-matched" : ""} ${lost ? "offline" : ""} ${thinking ? "waiting" : "done"}` },
    el("button", { type: "button", class: "seat-tap", "aria-label": t("tv.seat_tap", { name: seat.name }), onclick: () => view.openPanel(seat.seat) },
      // The tile's border is the seat's colour: no dot, so a long name keeps the whole width of the tile.
      el("div", { class: "seat-head" }, el("span", { class: "seat-name", text: seat.name }),
        seat.bot && badge("bot", "tv.bot"),
        seat.phoneless && badge("nophone", "tv.no_phone")),
      ...lines,
      health ? el("div", { class: "seat-health", text: health }) : null));
  item.style.setProperty("--seat-colour", seat.colour);
  return item;
}

/* The clocks, from the deadlines (never reset by a redraw): the hurry countdown, the match window's, and the
   count into the flip once everyone has acted, a digit a second with a tick. */
export function renderClocks() {
  if (!view.state || !view.state.game) return;
  const now = performance.now();
  const box = $("countdown");
  const { hurryStart, hurryEnd, matchEnd, callEnd } = clocks;
  box.hidden = !hurryEnd || now < hurryStart;
  // Past its end, a table that still waits (people hold the cards) says what moves it on: never a wait without end.
  const over = now > hurryEnd + 1000;
  if (!box.hidden) box.textContent = over ? t("tv.hurry_over") : t("tv.hurry", { n: Math.max(0, Math.ceil((hurryEnd - now) / 1000)) });
  box.classList.toggle("over", over);
  box.dataset.endsAt = hurryEnd ? String(Math.round(performance.timeOrigin + hurryEnd)) : ""; // wall-clock ms, for tests
  hurryTiles(!box.hidden && !over && !view.state.room.paused ? Math.max(0, Math.ceil((hurryEnd - now) / 1000)) : null);
  const match = $("match-clock");
  const left = matchEnd ? Math.ceil((matchEnd - now) / 1000) : 0;
  match.hidden = !(left > 0 && left < 600); // a window held open for the host shows no clock
  if (!match.hidden) match.textContent = t("tv.match_clock", { n: left });
  const count = $("flip-count");
  const second = callEnd && !view.state.room.paused ? secondsTo(callEnd) : 0;
  count.hidden = !second;
  if (second && second !== counted) {
    count.textContent = String(second);
    count.setAttribute("aria-label", t("tv.flip_in", { n: second }));
    restart(count, "flip-count");
    onTick("tick");
  }
  counted = second;
}
setInterval(renderClocks, 200);

/* The hurry on the late seats' own tiles, big, a second at a time (`left`: the seconds left, null: no hurry now),
   and a knock each second, heard across the room: the pill on the status line alone went unseen for 18 s. */
let knocked = null; // the second last knocked
function hurryTiles(left) {
  let late = 0;
  for (const tile of $("seats").querySelectorAll(":scope > .seat")) {
    const hurried = left !== null && tile.classList.contains("waiting");
    let mark = tile.querySelector(".seat-hurry");
    if (hurried && !mark) mark = tile.querySelector(".seat-tap").appendChild(el("div", { class: "seat-hurry", role: "timer" }));
    if (mark) mark.hidden = !hurried;
    if (hurried) mark.textContent = t("tv.hurry", { n: left });
    tile.classList.toggle("hurried", hurried);
    late += hurried;
  }
  if (late && left !== knocked) onTick("hurry");
  knocked = late ? left : null;
}

/* What the count's ticks and the hurry's knocks do (tv-show.js makes each a sound: `kind`, "tick" or "hurry"). */
let onTick = () => {};
export const whenTicking = (tick) => { onTick = tick; };

/* Play an element's animation again from its start (its class `name` names it). */
export function restart(node, name) {
  node.classList.remove(name);
  void node.offsetWidth;
  node.classList.add(name);
}
