/* Score entry with real cards, the player's choice of two ways: tap the cards on a compact picker (a suit, then
   its ranks; the solver lays them out live, with the penalty) or type the points on a big pad. The draft lives
   on the server (journaled): each tap sends the whole list, and the seat's view brings it back laid out. */
import { card, cardPicker, laidOut, RANKS, SUITS, SYMBOLS } from "./cards.js";
import { el } from "./common.js";
import { lang, onChange, t, tn } from "./i18n.js";
import { $, act, view } from "./phone-shared.js";

/* This phone's side of the entry: the hand and seat it is for, the way chosen, the suit shown, the points
   typed, and what every event carries (the seat answered for). */
const entry = { key: "", way: "cards", suit: 2, typed: "", args: {} };

/* The draft of the seat answered for: its own, or one this phone helps with (`game.helping`). */
function draftOf(game, seat) {
  if (seat === game.you) return game.draft;
  const help = game.helping && game.helping[seat];
  return help || { cards: [], melds: [], orphans: [], penalty: 0, complete: false };
}

const picker = cardPicker({
  draft: () => draftOf(view.state.game, entry.args.seat ?? view.state.game.you),
  send: (cards) => view.link.send("draft", { ...entry.args, cards }),
  version: () => view.state.v,
  error: showError,
  redraw: () => view.rerender(),
});

export function renderEntry(game, seat, shown, args) {
  $("entry").hidden = !shown;
  if (!shown) return;
  const key = `${game.hand_no}:${seat}`;
  const draft = draftOf(game, seat);
  if (key !== entry.key) {
    Object.assign(entry, { key, typed: "", way: "cards" });
    picker.reset();
    showError("");
  }
  entry.args = args;
  for (const [id, way] of [["way-cards", "cards"], ["way-points", "points"]]) {
    $(id).setAttribute("aria-pressed", String(entry.way === way));
    $(id).classList.toggle("primary", entry.way === way);
  }
  $("by-cards").hidden = entry.way !== "cards";
  $("by-points").hidden = entry.way !== "points";
  renderPicker(game, draft);
  renderPad();
}

/* The picker as a suit, then its ranks (the phone's screen holds no more), and the cards tapped, laid out. */
function renderPicker(game, draft) {
  const sending = picker.settle();
  $("entry-count").textContent = tn("real.count", game.size, { count: draft.cards.length });
  $("entry-penalty").textContent = t("penalty.now", { n: draft.penalty });
  $("entry-confirm").disabled = !draft.complete || sending;
  for (const button of $("suits").children) {
    const suit = Number(button.dataset.suit);
    button.setAttribute("aria-pressed", String(suit === entry.suit));
    button.classList.toggle("on", suit === entry.suit);
  }
  for (const button of $("ranks").children) {
    const rank = Number(button.dataset.rank);
    const shown = card(rank, entry.suit);
    button.hidden = !rank && !game.jokers;
    button.dataset.face = shown.card;
    button.setAttribute("aria-label", rank ? shown.label : t("real.joker"));
    picker.fill(button, shown);
  }
  $("tapped-note").textContent = t(draft.cards.length ? "real.tap_off" : "real.no_cards");
  if (!picker.relaid(lang)) return;
  $("tapped").replaceChildren(...laidOut(draft, { tag: "li", meld: { class: "group is-meld" }, orphans: { class: "group orphans" }, wrap: (face, c) =>
    el("button", { type: "button", class: "card-button", "data-face": c.card, "aria-label": t("real.take_off", { card: c.label }) }, face) }));
}

function renderPad() {
  const typed = entry.typed;
  $("typed").textContent = typed || "0";
  $("typed").classList.toggle("empty", !typed);
  $("send-points").disabled = !typed;
  $("send-points").textContent = t("real.enter_points", { points: tn("points", Number(typed || 0)) });
}

function showError(message) {
  $("entry-error").hidden = !message;
  $("entry-error").textContent = message;
}

/* The picker's and the pad's buttons, made once: their words and counts change in place. */
export function wireEntry() {
  $("suits").replaceChildren(...SUITS.map((name, suit) =>
    el("button", { type: "button", class: `suit ${name}`, "data-suit": suit, text: SYMBOLS[suit] })));
  const order = [...RANKS.keys()].slice(1).concat(0); // A … K, then the joker (hidden where the rules have none)
  $("ranks").replaceChildren(...order.map((rank) => el("button", { type: "button", class: "card-button rank", "data-rank": rank })));
  $("pad").replaceChildren(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0"].map((key) =>
    el("button", { type: "button", class: key === "⌫" ? "erase" : "", "data-key": key, text: key })));
  const labelSuits = () => {
    for (const b of $("suits").children) b.setAttribute("aria-label", t(`real.suit.${SUITS[b.dataset.suit]}`));
    $("pad").querySelector(".erase").setAttribute("aria-label", t("real.erase"));
  };
  labelSuits();
  onChange(labelSuits);
  const on = (id, handler) => $(id).addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (button && !button.disabled) handler(button);
  });
  on("suits", (b) => { entry.suit = Number(b.dataset.suit); view.rerender(); });
  picker.wire($("ranks"), $("tapped"));
  on("pad", (b) => {
    const key = b.dataset.key;
    entry.typed = key === "⌫" ? entry.typed.slice(0, -1) : (entry.typed + key).replace(/^0+(?=\d)/, "").slice(0, 3);
    renderPad();
  });
  on("way-cards", () => { entry.way = "cards"; view.rerender(); });
  on("way-points", () => { entry.way = "points"; view.rerender(); });
  on("entry-confirm", () => act("confirm", entry.args));
  on("send-points", () => act("points", { ...entry.args, points: Number(entry.typed) }));
}
