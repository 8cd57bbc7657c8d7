/* Score entry with real cards, the player's choice of two ways: tap the cards on a compact picker (a suit, then
   its ranks; the solver lays them out live, with the penalty) or type the points on a big pad. The draft lives
   on the server (journaled): each tap sends the whole list, and the seat's view brings it back laid out. */
import { cardFace, el, faceCard } from "./common.js";
import { lang, onChange, t, tn } from "./i18n.js";
import { $, act, view } from "./phone-shared.js";

const RANKS = ["JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]; // by rank number
const SUITS = "CDHS"; // the faces' letters, by suit number
const SYMBOLS = "♣♦♥♠";
const SUIT_KEYS = ["real.suit.clubs", "real.suit.diamonds", "real.suit.hearts", "real.suit.spades"];
const JOKER = "JK";

/* This phone's side of the entry: the hand and seat it is for, the way chosen, the suit shown, the list being
   sent (null: the server's draft is the list), the points typed. */
const entry = { key: "", way: "cards", suit: 2, cards: null, sending: 0, ackV: -1, typed: "", args: {}, laid: "" };

/* The draft of the seat answered for: its own, or one this phone helps with (`game.helping`). */
function draftOf(game, seat) {
  if (seat === game.you) return game.draft;
  const help = game.helping && game.helping[seat];
  return help || { cards: [], melds: [], orphans: [], penalty: 0, complete: false };
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export function renderEntry(game, seat, shown, args) {
  $("entry").hidden = !shown;
  if (!shown) return;
  const key = `${game.hand_no}:${seat}`;
  const draft = draftOf(game, seat);
  if (key !== entry.key) {
    Object.assign(entry, { key, cards: null, typed: "", way: "cards" });
    showError("");
  }
  // What was sent is in (or a newer state came since the answer): the server's list is the list again.
  if (entry.cards && !entry.sending && (same(entry.cards, draft.cards) || view.state.v > entry.ackV)) entry.cards = null;
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

function renderPicker(game, draft) {
  const list = entry.cards || draft.cards;
  const count = (face) => list.filter((f) => f === face).length;
  $("entry-count").textContent = tn("real.count", game.size, { count: draft.cards.length });
  $("entry-penalty").textContent = t("penalty.now", { n: draft.penalty });
  $("entry-confirm").disabled = !draft.complete || !!entry.cards;
  for (const button of $("suits").children) {
    const suit = Number(button.dataset.suit);
    button.setAttribute("aria-pressed", String(suit === entry.suit));
    button.classList.toggle("on", suit === entry.suit);
  }
  for (const button of $("ranks").children) {
    const rank = Number(button.dataset.rank);
    const face = rank ? RANKS[rank] + SUITS[entry.suit] : JOKER;
    const card = faceCard(face);
    const n = count(face);
    button.hidden = !rank && !game.jokers;
    button.dataset.face = face;
    button.setAttribute("aria-label", rank ? card.label : t("real.joker"));
    button.replaceChildren(cardFace(card), n ? el("span", { class: "count", text: `×${n}` }) : "");
  }
  $("tapped-note").textContent = t(draft.cards.length ? "real.tap_off" : "real.no_cards");
  // Rebuilt only when the layout changes: a button replaced under a finger would lose its tap.
  const laid = JSON.stringify([draft.melds, draft.orphans, game.wild_rank, lang]);
  if (laid === entry.laid) return;
  entry.laid = laid;
  const group = (faces, cls, orphan) => el("li", { class: `group ${cls}` }, ...faces.map((face) => {
    const card = faceCard(face);
    return el("button", { type: "button", class: "card-button", "data-face": face, "aria-label": t("real.take_off", { card: card.label }) },
      cardFace(card, orphan ? "orphan" : ""));
  }));
  $("tapped").replaceChildren(...draft.melds.map((m) => group(m, "is-meld", false)),
    ...(draft.orphans.length ? [group(draft.orphans, "orphans", true)] : []));
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

/* Send the whole list; the seat's view comes back laid out. Taps made before it does build on this list. */
async function send(cards) {
  entry.cards = cards;
  entry.sending += 1;
  view.rerender();
  const ack = await view.link.send("draft", { ...entry.args, cards });
  entry.sending -= 1;
  entry.ackV = view.state.v;
  showError(ack.ok ? "" : ack.error.message);
  if (!ack.ok && !entry.sending) entry.cards = null; // refused: the list is the server's, unchanged
  view.rerender();
}

function current() {
  const game = view.state.game;
  const seat = entry.args.seat ?? game.you;
  return entry.cards || draftOf(game, seat).cards;
}

/* The picker's and the pad's buttons, made once: their words and counts change in place. */
export function wireEntry() {
  $("suits").replaceChildren(...SYMBOLS.split("").map((symbol, suit) =>
    el("button", { type: "button", class: `suit ${["clubs", "diamonds", "hearts", "spades"][suit]}`, "data-suit": suit, text: symbol })));
  const order = [...RANKS.keys()].slice(1).concat(0); // A … K, then the joker (hidden where the rules have none)
  $("ranks").replaceChildren(...order.map((rank) => el("button", { type: "button", class: "card-button rank", "data-rank": rank })));
  $("pad").replaceChildren(...["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0"].map((key) =>
    el("button", { type: "button", class: key === "⌫" ? "erase" : "", "data-key": key, text: key })));
  const labelSuits = () => {
    for (const b of $("suits").children) b.setAttribute("aria-label", t(SUIT_KEYS[b.dataset.suit]));
    $("pad").querySelector(".erase").setAttribute("aria-label", t("real.erase"));
  };
  labelSuits();
  onChange(labelSuits);
  const on = (id, handler) => $(id).addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (button && !button.disabled) handler(button);
  });
  on("suits", (b) => { entry.suit = Number(b.dataset.suit); view.rerender(); });
  on("ranks", (b) => send([...current(), b.dataset.face]));
  on("tapped", (b) => {
    const list = [...current()];
    const at = list.lastIndexOf(b.dataset.face);
    if (at >= 0) list.splice(at, 1);
    send(list);
  });
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
