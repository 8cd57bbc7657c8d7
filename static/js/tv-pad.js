/* The host's pad, a dialog beside the table: points to correct a score or for a player without a phone, or that
   player's cards (tv-picker.js), the way last used on this TV first. Digits go in, Backspace deletes (a card: undo),
   Enter confirms, Escape cancels, arrows and Tab move (never out of it). */
import { el, store } from "./common.js";
import { onChange, ready, t } from "./i18n.js";
import { picker, pickFor, renderPicker, wirePicker } from "./tv-picker.js";
import { $, view } from "./tv-shared.js";

/* What is open: the digits (`fresh`: as opened, a digit replaces them), where the points go (resolves with the
   ack), the seat whose hand it is (null: a correction), the way, what the card events carry besides, where focus
   goes back on closing, and the title. */
const pad = { digits: "", fresh: false, send: null, seat: null, way: "points", extra: {}, opener: null, title: () => "" };

/* Open the pad under `title()` (the words follow the TV's language); `onEnter(points)` sends them and resolves with
   the ack: the pad closes on ok, shows the refusal otherwise. With `seat`, its cards may go in instead. `value`:
   where a correction starts (by default the cell tapped); other fields go with the card events (`override`). */
export function openPad(title, onEnter, seat = null, { value, ...extra } = {}) {
  const opener = document.activeElement;
  const start = String(value ?? (seat === null && opener.matches("button") && opener.querySelector(".num")?.textContent) ?? "");
  const way = seat === null ? "points" : view.state.game.drafts?.[seat]?.cards.length ? "cards" : store("tv.way") || "points";
  Object.assign(pad, { digits: /^\d+$/.test(start) ? start : "", fresh: true, send: onEnter, seat, way, extra, opener, title });
  if (seat !== null) pickFor(seat, extra);
  showError("");
  $("pad").hidden = false;
  $("pad").style.top = `${document.querySelector(".topbar").getBoundingClientRect().bottom + innerHeight * 0.012}px`;
  refreshPad();
  $("pad").focus();
}

function closePad() {
  pad.send = null;
  $("pad").hidden = true;
  if (pad.opener.isConnected) pad.opener.focus();
}

/* Redraw the open pad (on each state: the picker's layout comes back). A hand entered meanwhile closes it. */
export function refreshPad() {
  if ($("pad").hidden) return;
  const game = view.state.game;
  const entering = pad.seat !== null;
  if (entering && (!game || game.mode !== "real" || !game.seats[pad.seat] || game.seats[pad.seat].entered)) return closePad();
  const cards = entering && pad.way === "cards";
  $("pad-title").textContent = pad.title();
  $("pad").classList.toggle("cards", cards);
  $("pad-ways").hidden = !entering;
  $("way-points").setAttribute("aria-pressed", String(!cards));
  $("way-cards").setAttribute("aria-pressed", String(cards));
  $("pad-typed").hidden = cards;
  $("pad-cards").hidden = $("pick-run").hidden = $("pick-undo").hidden = !cards;
  $("pad-value").textContent = pad.digits || "0";
  $("pad-value").classList.toggle("fresh", pad.fresh && !!pad.digits);
  $("pad-ok").textContent = t(cards ? "tv.real.confirm" : "tv.real.enter");
  $("pad-ok").disabled = cards ? !renderPicker(game) : !pad.digits;
}

function showError(message) {
  $("pad-error").textContent = message;
}

function press(key) {
  if (pad.fresh && key !== "⌫") pad.digits = "";
  if (key === "⌫") pad.digits = pad.digits.slice(0, -1);
  else if (pad.digits.length < 3) pad.digits = pad.digits === "0" ? key : pad.digits + key; // no hand costs 1,000
  pad.fresh = false;
  showError("");
  refreshPad();
}

async function enter() {
  const sending = pad.send;
  if (!sending || $("pad-ok").disabled) return;
  $("pad-ok").disabled = true;
  const ack = pad.way === "cards" ? await view.link.send("confirm", { ...pad.extra, seat: pad.seat }) : await sending(Number(pad.digits));
  if (pad.send !== sending) return; // closed or reopened meanwhile
  if (ack.ok) closePad();
  else {
    showError(ack.error.message);
    refreshPad();
  }
}

/* Tab goes round the dialog's buttons, arrows along them (up and down a grid's column). */
function move(key, back) {
  const all = [...$("pad").querySelectorAll("button")].filter((b) => !b.disabled && b.offsetParent);
  const here = document.activeElement;
  const i = all.indexOf(here);
  const column = here.matches(".pad-key, .pick-card") ? getComputedStyle(here.parentElement).gridTemplateColumns.split(" ").length : 1;
  const step = { tab: back ? -1 : 1, arrowleft: -1, arrowright: 1, arrowup: -column, arrowdown: column }[key];
  const next = key === "tab" ? (i < 0 && back ? -1 : i + step) : Math.min(all.length - 1, Math.max(0, i + step));
  all.at(next % all.length).focus();
}

/* The keys, built once: 1-9, then delete, 0. */
$("pad-keys").replaceChildren(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0"].map((key) =>
  el("button", { type: "button", class: "pad-key", "data-key": key, onclick: () => press(key) }, key)));
function labelKeys() {
  $("pad-keys").querySelector("[data-key='⌫']").setAttribute("aria-label", t("tv.real.delete_digit"));
  $("pad-ways").setAttribute("aria-label", t("tv.real.way"));
}
ready.then(labelKeys);
onChange(() => {
  labelKeys();
  showError(""); // the server's reason came in the language it had
});
wirePicker(showError, refreshPad);
for (const way of ["points", "cards"]) {
  $(`way-${way}`).addEventListener("click", () => { store("tv.way", (pad.way = way)); showError(""); refreshPad(); });
}
$("pad-ok").addEventListener("click", enter);
$("pad-cancel").addEventListener("click", closePad);
// A click leaves the focus on the dialog (Enter confirms); one beside it brings it back.
$("pad").addEventListener("mousedown", (e) => e.target.closest("button") && e.preventDefault());
$("pad").addEventListener("focusout", (e) => {
  if (!$("pad").contains(e.relatedTarget)) setTimeout(() => $("pad").hidden || $("pad").contains(document.activeElement) || $("pad").focus());
});
document.addEventListener("keydown", (e) => {
  if ($("pad").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.toLowerCase(); // key names, compared in lower case
  if (/^[0-9]$/.test(key) && pad.way === "points") press(key);
  else if (key === "backspace") pad.way === "points" ? press("⌫") : picker.undo();
  else if (key === "enter" && !($("pad").contains(e.target) && e.target.matches("button"))) enter(); // a button: pressed
  else if (key === "escape") closePad();
  else if (key === "tab" || key.startsWith("arrow")) move(key, e.shiftKey);
  else return;
  e.preventDefault();
});
