/* The host's number pad: points typed on the TV, for a player without a phone or to correct a score.
   Big keys for a laptop's touch screen or a mouse; the keyboard's digits work too. */
import { $ } from "./tv-shared.js";

const { el } = PR;
const { t } = I18N;
const MAX_DIGITS = 3; // no hand costs 1,000 points

let digits = "";
let send = null; // the points go here; it resolves with the server's ack
let opener = null; // focus goes back there when the pad closes

/* Open the pad under `title`; `onEnter(points)` sends them and resolves with the ack: the pad closes on ok,
   shows the refusal otherwise. */
export function openPad(title, onEnter) {
  digits = "";
  send = onEnter;
  opener = document.activeElement;
  $("pad-title").textContent = title;
  $("pad-error").textContent = "";
  show();
  $("pad").hidden = false;
  $("pad-ok").focus();
}

function closePad() {
  send = null;
  $("pad").hidden = true;
  if (opener && opener.isConnected) opener.focus();
}

function show() {
  $("pad-value").textContent = digits || "0";
  $("pad-ok").disabled = !digits;
}

function press(key) {
  if (key === "⌫") digits = digits.slice(0, -1);
  else if (digits.length < MAX_DIGITS) digits = digits === "0" ? key : digits + key;
  $("pad-error").textContent = "";
  show();
}

async function enter() {
  if (!send || !digits) return;
  const sending = send;
  $("pad-ok").disabled = true;
  const ack = await sending(Number(digits));
  if (send !== sending) return; // closed or reopened meanwhile
  if (ack.ok) closePad();
  else {
    $("pad-error").textContent = ack.error.message;
    show();
  }
}

/* The keys, built once: 1-9, then delete, 0. */
$("pad-keys").replaceChildren(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0"].map((key) =>
  el("button", { type: "button", class: "pad-key", "data-key": key, onclick: () => press(key) }, key)));
function labelKeys() {
  $("pad-keys").querySelector("[data-key='⌫']").setAttribute("aria-label", t("tv.real.delete_digit"));
}
I18N.ready.then(labelKeys);
I18N.onChange(labelKeys);
$("pad-ok").addEventListener("click", enter);
$("pad-cancel").addEventListener("click", closePad);
document.addEventListener("keydown", (e) => {
  if ($("pad").hidden) return;
  const key = e.key.toLowerCase(); // key names, compared in lower case
  if (/^[0-9]$/.test(key)) press(key);
  else if (key === "backspace") press("⌫");
  else if (key === "enter" && e.target === document.body) enter();
  else if (key === "escape") closePad();
  else return;
  e.preventDefault();
});
