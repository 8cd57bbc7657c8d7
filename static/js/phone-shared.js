/* What the phone's screens share: the page's elements, the room, the latest state, notices, actions, card names. */
import { t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);
export const room = document.body.dataset.room;

/* The latest state; the link once connected; where this device keeps its seat's token. */
// `moments`: what the updates to the state being drawn meant (docs/protocol.md, `table`), until it is drawn
export const view = { state: null, link: null, tokenKey: `pr.token.${room}`, moments: [] };

let noticeTimer = null;
let pressed = null; // the button just pressed: shown pressed until the server answers
document.addEventListener("pointerdown", (e) => { pressed = e.target.closest("button"); }, true);

/* A message at the top of the screen (phone.css: it pushes the page down rather than cover its heading); `code`: the
   server's notice it shows, for a screen that corrects it while it shows. */
export function notice(message, sticky, code = "") {
  const box = $("notice");
  box.textContent = message;
  box.dataset.code = code;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, sticky ? 6000 : 3000);
}

/* Send one action; the press shows at once, the server's answer confirms it (or a notice says why not). */
export async function act(event, data) {
  const button = pressed;
  pressed = null;
  if (button) button.classList.add("pending");
  const ack = await view.link.send(event, data);
  if (button) button.classList.remove("pending");
  if (!ack.ok) notice(ack.error.message);
  return ack;
}

/* A card named in a sentence: its label ("7♥"), the joker by its name in the reader's language (its label is
   the views' "JK", which no player says). */
export const cardName = (card) => (card.rank === 0 ? t("card.joker") : card.label);

/* Why the audience would turn a newcomer away, said before they type a name: off, or full at its cap (the
   host's, or the server's most); "" while it would let them in. */
export function shutText(aud) {
  if (!aud.on) return t("phone.aud.off");
  return aud.full ? t("phone.aud.full", { n: aud.cap === null ? aud.most : Math.min(aud.cap, aud.most) }) : "";
}
