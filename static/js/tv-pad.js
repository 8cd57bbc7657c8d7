/* The host's pad: points typed on the TV (a big number pad; the keyboard's digits work too), to correct a score
   or to enter the hand of a player without a phone, for whom the card picker (tv-picker.js) is the other way. */
import { el } from "./common.js";
import { onChange, ready, t } from "./i18n.js";
import { pickFor, renderPicker, wirePicker } from "./tv-picker.js";
import { $, view } from "./tv-shared.js";

const MAX_DIGITS = 3; // no hand costs 1,000 points

/* What is open: the digits typed, where the points go (it resolves with the ack), the seat whose hand it is
   (null: a correction, points only), the way chosen, and where focus goes back on closing. */
const pad = { digits: "", send: null, seat: null, way: "points", opener: null, title: () => "" };

/* Open the pad under `title()` (a function: the words follow the TV's language); `onEnter(points)` sends them and resolves with the ack: the pad closes on ok,
   shows the refusal otherwise. With `seat`, the host may tap that seat's cards in instead. */
export function openPad(title, onEnter, seat = null) {
  Object.assign(pad, { digits: "", send: onEnter, seat, way: "points", opener: document.activeElement, title });
  if (seat !== null) pickFor(seat);
  showError("");
  $("pad").hidden = false;
  refreshPad();
  $("pad-ok").focus();
}

function closePad() {
  pad.send = null;
  $("pad").hidden = true;
  if (pad.opener && pad.opener.isConnected) pad.opener.focus();
}

/* Redraw the open pad (on each state: the picker's layout comes back from the server). A hand entered
   meanwhile (by a helper's phone) closes it. */
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
  $("pad-cards").hidden = !cards;
  $("pad-value").textContent = pad.digits || "0";
  $("pad-ok").textContent = t(cards ? "tv.real.confirm" : "tv.real.enter");
  $("pad-ok").disabled = cards ? !renderPicker(game) : !pad.digits;
}

function showError(message) {
  $("pad-error").textContent = message;
}

function press(key) {
  if (key === "⌫") pad.digits = pad.digits.slice(0, -1);
  else if (pad.digits.length < MAX_DIGITS) pad.digits = pad.digits === "0" ? key : pad.digits + key;
  showError("");
  refreshPad();
}

async function enter() {
  const sending = pad.send;
  if (!sending || $("pad-ok").disabled) return;
  $("pad-ok").disabled = true;
  const ack = pad.way === "cards" ? await view.link.send("confirm", { seat: pad.seat }) : await sending(Number(pad.digits));
  if (pad.send !== sending) return; // closed or reopened meanwhile
  if (ack.ok) closePad();
  else {
    showError(ack.error.message);
    refreshPad();
  }
}

/* The keys, built once: 1-9, then delete, 0. */
$("pad-keys").replaceChildren(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0"].map((key) =>
  el("button", { type: "button", class: "pad-key", "data-key": key, onclick: () => press(key) }, key)));
function labelKeys() {
  $("pad-keys").querySelector("[data-key='⌫']").setAttribute("aria-label", t("tv.real.delete_digit"));
  $("pad-ways").setAttribute("aria-label", t("tv.real.way"));
}
ready.then(labelKeys);
onChange(labelKeys);
wirePicker(showError, refreshPad);
for (const [id, way] of [["way-points", "points"], ["way-cards", "cards"]]) {
  $(id).addEventListener("click", () => { pad.way = way; showError(""); refreshPad(); });
}
$("pad-ok").addEventListener("click", enter);
$("pad-cancel").addEventListener("click", closePad);
document.addEventListener("keydown", (e) => {
  if ($("pad").hidden) return;
  const key = e.key.toLowerCase(); // key names, compared in lower case
  if (/^[0-9]$/.test(key) && pad.way === "points") press(key);
  else if (key === "backspace" && pad.way === "points") press("⌫");
  else if (key === "enter" && e.target === document.body) enter();
  else if (key === "escape") closePad();
  else return;
  e.preventDefault();
});
