/* Score entry with real cards, the player's choice of two ways (the last one chosen on this phone comes first): tap
   the cards on a compact picker (two suits a page; the solver lays them out live, with the penalty) or type the
   points on a big pad. The draft lives on the server (journaled): each tap sends the whole list, and the seat's view
   brings it back laid out. Once confirmed, the hand may be changed until it is scored. */
import { card, cardPicker, laidOut, SUITS, SYMBOLS } from "./cards.js";
import { el, store } from "./common.js";
import { lang, list, onChange, t, tn } from "./i18n.js";
import { $, act, cardName, view } from "./phone-shared.js";

/* The pages of two suits, and the one to open on: the one with the fewer cards in so far, so with the more still to
   enter (a deal gives every suit alike); the first on a tie. bench/taps.py measures it. */
export const PAGES = [[0, 1], [2, 3]];
export function likelyPage(faces) {
  const count = (page) => faces.filter((f) => PAGES[page].includes("CDHS".indexOf(f.slice(-1)))).length;
  return count(1) < count(0) ? 1 : 0;
}

/* This phone's side of the entry: the hand and seat it is for, the way chosen, the page of suits shown, the points
   typed, and what every event carries (the seat answered for). */
const entry = { key: "", way: "cards", page: 0, typed: "", args: {} };
// The picker's cards, each suit's A to K, then the joker; each sits in its suit's column of three on its page.
const CARDS = [...SUITS.keys()].flatMap((suit) => Array.from({ length: 13 }, (_, i) => card(i + 1, suit))).concat(card(0));

/* The draft of the seat answered for: its own, or one this phone helps with (`game.you.helping`). */
function draftOf(game, seat) {
  if (seat === game.you.seat) return game.you.draft;
  const help = game.you.helping && game.you.helping[seat];
  return help || { cards: [], melds: [], orphans: [], penalty: 0, complete: false };
}

const picker = cardPicker({
  draft: () => draftOf(view.state.game, entry.args.seat ?? view.state.game.you.seat),
  send: (cards) => view.link.send("draft", { ...entry.args, cards }),
  version: () => view.state.v,
  error: showError,
  redraw: () => view.rerender(),
});

export function renderEntry(game, seat, shown, args) {
  const own = seat === game.you.seat && game.seats[seat];
  // Entered and not yet scored: the hand may still change (a draft takes the entry back).
  const changing = !shown && own && own.entered && !game.game_over && own.can.includes("points"); // until scored
  $("entry").hidden = !shown && !changing;
  $("entry-change").hidden = !changing;
  $("entry-ways").hidden = !shown;
  if (!shown) {
    $("by-cards").hidden = $("by-points").hidden = true;
    return;
  }
  const key = `${game.hand_no}:${seat}`;
  const draft = draftOf(game, seat);
  if (key !== entry.key) {
    Object.assign(entry, { key, typed: "", way: store("pr.way") || "cards", page: likelyPage(draft.cards.map((c) => c.card)) });
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

/* The picker as a page of two suits (the phone's screen holds no more) side by side, and the cards tapped, laid out. */
function renderPicker(game, draft) {
  const sending = picker.settle();
  $("entry-count").textContent = tn("real.count", game.size, { count: draft.cards.length });
  $("entry-penalty").textContent = t("penalty.now", { n: draft.penalty });
  $("entry-confirm").disabled = !draft.complete || sending;
  for (const button of $("suits").children) {
    const on = Number(button.dataset.page) === entry.page;
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("on", on);
  }
  for (const [i, button] of [...$("ranks").querySelectorAll(".rank")].entries()) {
    const shown = CARDS[i];
    button.hidden = shown.rank ? !PAGES[entry.page].includes(shown.suit) : !game.jokers;
    picker.fill(button, shown);
  }
  picker.tools($("pick-run"), $("pick-undo"));
  $("tapped-note").textContent = t(draft.cards.length ? "real.tap_off" : "real.no_cards");
  if (!picker.relaid(lang)) return;
  $("tapped").replaceChildren(...laidOut(draft, { tag: "li", meld: { class: "group is-meld" }, orphans: { class: "group orphans" }, wrap: (face, c) =>
    el("button", { type: "button", class: "card-button", "data-face": c.card, "aria-label": t("real.take_off", { card: cardName(c) }) }, face) }));
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
  $("suits").replaceChildren(...PAGES.map((suits, page) => el("button", { type: "button", class: "page", "data-page": page },
    ...suits.map((s) => el("span", { class: SUITS[s], text: SYMBOLS[s] })))));
  $("ranks").replaceChildren(...CARDS.map((c) => {
    const button = el("button", { type: "button", class: "card-button rank", "data-face": c.card, "aria-label": c.rank ? c.label : null });
    // Three columns a suit, A 2 3 down to K; the page's second suit after a gap (column 4); the joker beside the K.
    const column = PAGES.flat().indexOf(c.suit) % 2 ? 5 : 1;
    button.style.gridArea = c.rank ? `${Math.ceil(c.rank / 3)} / ${column + ((c.rank - 1) % 3)}` : "5 / 2 / 6 / 4";
    return button;
  }), $("pick-run"));
  $("pad").replaceChildren(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0"].map((key) =>
    el("button", { type: "button", class: key === "⌫" ? "erase" : "", "data-key": key, text: key })));
  const labels = () => {
    for (const b of $("suits").children) b.setAttribute("aria-label", list(PAGES[b.dataset.page].map((s) => t(`real.suit.${SUITS[s]}`))));
    $("ranks").querySelector("[data-face=JK]").setAttribute("aria-label", t("real.joker"));
    $("pad").querySelector(".erase").setAttribute("aria-label", t("real.erase"));
  };
  labels();
  onChange(() => {
    labels();
    showError(""); // the server's reason came in the other language
  });
  const on = (id, handler) => $(id).addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (button && !button.disabled) handler(button);
  });
  on("suits", (b) => { entry.page = Number(b.dataset.page); view.rerender(); });
  picker.wire($("ranks"), $("tapped"), $("pick-run"), $("pick-undo"));
  on("pad", (b) => {
    const key = b.dataset.key;
    entry.typed = key === "⌫" ? entry.typed.slice(0, -1) : (entry.typed + key).replace(/^0+(?=\d)/, "").slice(0, 3);
    renderPad();
  });
  for (const way of ["cards", "points"]) on(`way-${way}`, () => { store("pr.way", (entry.way = way)); view.rerender(); });
  on("entry-confirm", () => act("confirm", entry.args));
  on("send-points", () => act("points", { ...entry.args, points: Number(entry.typed) }));
  on("entry-change", () => act("draft", { ...entry.args, cards: view.state.game.you.draft.cards.map((c) => c.card) }));
}
