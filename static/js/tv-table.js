/* The TV's table in either mode: the call, the seats, the controls, the clocks (the rest: tv-phones, tv-real). */
import { laidOut } from "./cards.js";
import { deadlines, el } from "./common.js";
import { lang, t, tn } from "./i18n.js";
import { $, room, view } from "./tv-shared.js";

let clocks = {}; // the hurry and match-window deadlines, on this page's clock, set when a state arrives
let drawn = ""; // the phase the table was last drawn in

/* True on the first drawing of "Discard!" only: the piles (with real cards, the Ready ticks) turn over then,
   never again on a redraw. */
export function firstReveal(phase) {
  const first = phase === "reveal" && drawn !== phase;
  drawn = phase;
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
/* The deadlines of the state just received (common.js's deadlines): a redraw never moves them. */
export function setClocks(room) {
  clocks = deadlines(room);
}

/* The controls row, with cards on the phones or on the table: the join QR while seats are free, the pause, and
   "Call now", which deals the next hand between hands: the host's way on is always at hand. */
export function renderControls(game) {
  const full = view.state.room.seats.length >= view.state.room.max_players;
  $("table-join").hidden = full || !view.state.room.can_join;
  $("table-code").textContent = room;
  $("pause").textContent = t(view.state.room.paused ? "action.resume" : "action.pause");
  $("pause").disabled = game.game_over;
  $("call-now").disabled = game.game_over;
  $("call-now").textContent = t(game.phase === "scored" ? "action.next_hand" : "action.call_now");
  $("show-scores").dataset.i18n = game.game_over ? "tv.final_scores" : "tv.scores";
  $("show-scores").textContent = t($("show-scores").dataset.i18n);
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

/* The call: the shout on the big line, the rest (and a hint of what to do, if given) smaller below;
   shrunk until it fits its box. */
export function renderCall(text, hint = "") {
  const cut = text.search(/[!…]\s/);
  const big = cut > 0 ? text.slice(0, cut + 1) : text;
  const small = [cut > 0 ? text.slice(cut + 2) : "", hint].filter(Boolean).join(" ");
  const box = $("call");
  if (box.dataset.text === text + hint && box.dataset.width === String(innerWidth)) return;
  box.dataset.text = text + hint;
  box.dataset.width = String(innerWidth);
  $("call-big").textContent = big;
  $("call-small").textContent = small ? ` ${small}` : ""; // the space: one sentence to read aloud and to search
  const line = $("call-big");
  let size = 1;
  line.style.fontSize = "";
  while (size > 0.3 && (line.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight + 1)) {
    size -= 0.05;
    line.style.fontSize = `${size}em`;
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
      el("div", { class: "seat-head" }, el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "seat-name", text: seat.name }),
        seat.bot && badge("bot", "tv.bot"),
        seat.phoneless && badge("nophone", "tv.no_phone")),
      ...lines,
      health ? el("div", { class: "seat-health", text: health }) : null));
  item.style.setProperty("--seat-colour", seat.colour);
  return item;
}

/* The hurry countdown and the match window's clock, from the deadlines (never reset by a redraw). */
export function renderClocks() {
  if (!view.state || !view.state.game) return;
  const now = performance.now();
  const box = $("countdown");
  const { hurryStart, hurryEnd, matchEnd } = clocks;
  box.hidden = !hurryEnd || now < hurryStart;
  // Past its end, a table that still waits (people hold the cards) says what moves it on: never a wait without end.
  const over = now > hurryEnd + 1000;
  if (!box.hidden) box.textContent = over ? t("tv.hurry_over") : t("tv.hurry", { n: Math.max(0, Math.ceil((hurryEnd - now) / 1000)) });
  box.classList.toggle("over", over);
  box.dataset.endsAt = hurryEnd ? String(Math.round(performance.timeOrigin + hurryEnd)) : ""; // wall-clock ms, for tests
  const match = $("match-clock");
  const left = matchEnd ? Math.ceil((matchEnd - now) / 1000) : 0;
  match.hidden = !(left > 0 && left < 600); // a window held open for the host shows no clock
  if (!match.hidden) match.textContent = t("tv.match_clock", { n: left });
}
setInterval(renderClocks, 200);
