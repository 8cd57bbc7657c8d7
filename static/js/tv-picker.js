/* The TV's card picker for a player without a phone: a grid of suits by ranks (and the joker); each tap sends the
   whole list (`draft`), which the TV's view brings back laid out (`game.drafts`), with the penalty. */
import { card, cardPicker, laidOut, RANKS, SUITS } from "./cards.js";
import { el } from "./common.js";
import { lang, onChange, ready, t, tn } from "./i18n.js";
import { $, view } from "./tv-shared.js";

const EMPTY = { cards: [], melds: [], orphans: [], penalty: 0, complete: false };
// The grid's cards, every suit's A to K in its row, then the joker.
const GRID = [...SUITS.keys()].flatMap((suit) => [...RANKS.keys()].slice(1).map((rank) => card(rank, suit))).concat(card(0));

let seat = null; // the seat being entered
let extra = {}; // what the events carry besides (`override`)
const draftOf = (game) => (game.drafts && game.drafts[seat]) || EMPTY;
export let picker = null;

/* Start on a seat: nothing pending, the layout drawn anew. */
export function pickFor(which, more = {}) {
  seat = which;
  extra = more;
  picker.reset();
}

/* Whether the hand may be confirmed: every card in, none still on its way. */
export function renderPicker(game) {
  const draft = draftOf(game);
  const sending = picker.settle();
  [...$("pick-grid").children].forEach((button, i) => {
    button.hidden = GRID[i].rank === 0 && !game.jokers;
    picker.fill(button, GRID[i]);
  });
  picker.tools($("pick-run"), $("pick-undo"));
  $("pick-count").textContent = tn("tv.real.count", game.size, { count: draft.cards.length });
  $("pick-penalty").textContent = t("penalty.now", { n: draft.penalty });
  if (picker.relaid(lang)) {
    $("pick-laid").replaceChildren(...laidOut(draft, { orphans: { class: "meld" }, wrap: (face, c) =>
      el("button", { type: "button", class: "laid-card", "data-face": c.card, "aria-label": t("tv.real.take_off", { card: face.textContent }) }, face) }),
    draft.cards.length ? "" : el("span", { class: "pick-none", text: t("tv.real.no_cards") }));
  }
  return draft.complete && !sending;
}

/* The grid, made once (counts change, faces never); a refusal (a fifth 7♥, a card too many) goes to `onError`. */
export function wirePicker(onError, redraw) {
  picker = cardPicker({
    draft: () => draftOf(view.state.game),
    send: (cards) => view.link.send("draft", { ...extra, cards, seat }),
    version: () => view.state.v,
    error: onError,
    redraw,
  });
  $("pick-grid").replaceChildren(...GRID.map((c) => el("button", { type: "button", class: "pick-card", "data-face": c.card })));
  picker.wire($("pick-grid"), $("pick-laid"), $("pick-run"), $("pick-undo"));
  const label = () => {
    for (const [i, button] of [...$("pick-grid").children].entries()) {
      button.setAttribute("aria-label", GRID[i].rank ? GRID[i].label : t("tv.real.joker"));
    }
  };
  ready.then(label);
  onChange(label);
}
