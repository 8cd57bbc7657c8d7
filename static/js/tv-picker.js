/* The TV's card picker: the host taps in the hand of a player without a phone (a grid of suits by ranks, jokers
   where the variant has them; the same card as often as the decks hold it). Each tap sends the whole list
   (`draft`); the TV's view brings it back laid out by the solver (`game.drafts`), shown with the penalty,
   and a card tapped by mistake comes off with one tap. */
import { el } from "./common.js";
import { lang, onChange, ready, t, tn } from "./i18n.js";
import { $, face, view } from "./tv-shared.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = "CDHS";
const JOKER = "JK";
const EMPTY = { cards: [], melds: [], orphans: [], penalty: 0, complete: false };

/* The seat being entered, and the list sent but not yet back laid out (taps made meanwhile build on it). */
const picker = { seat: null, pending: null, sending: 0, laid: "" };

export function draftOf(game, seat) {
  return (game.drafts && game.drafts[seat]) || EMPTY;
}

/* Start on a seat: nothing pending, the layout drawn anew. */
export function pickFor(seat) {
  Object.assign(picker, { seat, pending: null, sending: 0, laid: "" });
}

export function renderPicker(game) {
  const draft = draftOf(game, picker.seat);
  if (picker.pending && !picker.sending && same(picker.pending, draft.cards)) picker.pending = null;
  const list = picker.pending || draft.cards;
  for (const button of $("pick-grid").children) {
    const n = list.filter((f) => f === button.dataset.face).length;
    button.hidden = button.dataset.face === JOKER && !game.jokers;
    button.replaceChildren(face(button.dataset.face), n ? el("span", { class: "count", text: `×${n}` }) : "");
  }
  $("pick-count").textContent = tn("tv.real.count", game.size, { count: draft.cards.length });
  $("pick-penalty").textContent = t("penalty.now", { n: draft.penalty });
  const laid = JSON.stringify([draft.melds, draft.orphans, game.wild_rank, lang]);
  if (laid !== picker.laid) { // rebuilt only when it changes: a button replaced under a finger loses its tap
    picker.laid = laid;
    const group = (faces, orphan) => el("span", { class: "meld" }, ...faces.map((f) => {
      const card = face(f);
      if (orphan) card.classList.add("orphan");
      return el("button", { type: "button", class: "laid-card", "data-face": f, "aria-label": t("tv.real.take_off", { card: card.textContent }) }, card);
    }));
    $("pick-laid").replaceChildren(...draft.melds.map((m) => group(m, false)), ...(draft.orphans.length ? [group(draft.orphans, true)] : []),
      draft.cards.length ? "" : el("span", { class: "pick-none", text: t("tv.real.no_cards") }));
  }
  return draft.complete && !picker.pending;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/* Send the whole list; a refusal (a sixth 7♥, a card too many) is shown and the list is the server's again. */
async function send(cards, onError) {
  picker.pending = cards;
  picker.sending += 1;
  const ack = await view.link.send("draft", { cards, seat: picker.seat });
  picker.sending -= 1;
  if (!ack.ok && !picker.sending) picker.pending = null;
  onError(ack.ok ? "" : ack.error.message);
}

/* The grid, made once (its faces never change; counts do); taps on the grid add, taps on the layout take off. */
export function wirePicker(onError, redraw) {
  const faces = [...SUITS].flatMap((suit) => RANKS.map((rank) => rank + suit)).concat(JOKER);
  $("pick-grid").replaceChildren(...faces.map((f) => el("button", { type: "button", class: "pick-card", "data-face": f })));
  const current = () => picker.pending || draftOf(view.state.game, picker.seat).cards;
  const tap = (id, change) => $(id).addEventListener("click", async (e) => {
    const button = e.target.closest("button");
    if (!button) return;
    const sending = send(change([...current()], button.dataset.face), onError);
    redraw();
    await sending;
    redraw();
  });
  tap("pick-grid", (list, f) => [...list, f]);
  tap("pick-laid", (list, f) => {
    list.splice(list.lastIndexOf(f), 1);
    return list;
  });
  const label = () => {
    for (const button of $("pick-grid").children) {
      const f = button.dataset.face;
      button.setAttribute("aria-label", f === JOKER ? t("tv.real.joker") : face(f).textContent);
    }
  };
  ready.then(label);
  onChange(label);
}
