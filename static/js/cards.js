/* Cards as the pages draw them: ranks and suits, a face, a hand laid out in melds and orphans, the pickers' taps. */
import { el } from "./common.js";

export const RANKS = ["JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]; // by rank number
export const SUITS = ["clubs", "diamonds", "hearts", "spades"]; // by suit number
export const SYMBOLS = "♣♦♥♠";

/* A card as the views send it (partyrummy/views.py's card_view), for a picker's buttons. */
export function card(rank, suit = 0) {
  const face = (letters) => (rank ? RANKS[rank] + letters[suit] : "JK");
  return { card: face("CDHS"), label: face(SYMBOLS), rank, suit };
}

let wildRank = null; // this hand's wild rank ("3", "K"…), set by the page with each state

export function setWild(rank) {
  wildRank = rank || null;
}

/* A card's face: its label with a suit class, so colour is never the only signal; wilds marked. */
export function cardFace(card, extra = "") {
  if (!card) return el("span", { class: "card empty", text: "—" });
  const joker = card.rank === 0;
  const wild = joker || card.label.slice(0, -1) === wildRank;
  return el("span", { class: `card ${joker ? "joker" : SUITS[card.suit]} ${wild ? "wild" : ""} ${extra}`.trim(), text: joker ? "🃏" : card.label });
}

/* A hand laid out: each meld in a `tag` with the attributes `meld`, then the orphans, ringed (they cost points)
   unless `ring` is false, in a group of attributes `orphans` or loose. `wrap(face, card)`: what the screen taps. */
export function laidOut(hand, { tag = "span", meld = { class: "meld" }, orphans = null, ring = true, wrap = (face) => face } = {}) {
  const faces = (cards, orphan) => cards.map((c) => wrap(cardFace(c, orphan && ring ? "orphan" : ""), c));
  const loose = faces(hand.orphans, true);
  return [...hand.melds.map((m) => el(tag, meld, ...faces(m))), ...(!orphans ? loose : loose.length ? [el(tag, orphans, ...loose)] : [])];
}

/* The taps of a card picker (phone-entry.js's, tv-picker.js's): each sends the whole list of faces ("7H"), which
   the seat's view (`draft()`) brings back laid out. Taps made meanwhile build on the list sent, so none is lost;
   a refusal leaves the server's list. */
export function cardPicker({ draft, send, version, error, redraw }) {
  const at = { pending: null, sending: 0, answered: -1, laid: "" };
  const drafted = () => draft().cards.map((c) => c.card);
  const faces = () => at.pending || drafted();
  async function tap(list) {
    Object.assign(at, { pending: list, sending: at.sending + 1 });
    redraw();
    const ack = await send(list);
    at.sending -= 1;
    at.answered = version();
    if (!ack.ok && !at.sending) at.pending = null;
    error(ack.ok ? "" : ack.error.message);
    redraw();
  }
  return {
    reset() { // another seat or hand
      Object.assign(at, { pending: null, laid: "" });
    },
    /* What was sent is in, or a newer view came since the answer: the server's list is the list again. Returns
       whether taps are still on their way (the hand may be confirmed only once they are in). */
    settle() {
      const { pending } = at;
      if (pending && !at.sending && (version() > at.answered || pending.join() === drafted().join())) at.pending = null;
      return !!at.pending;
    },
    /* A picker's button: `card`'s face, and how often the list holds it. */
    fill(button, card) {
      const n = faces().filter((f) => f === card.card).length;
      button.replaceChildren(cardFace(card), n ? el("span", { class: "count", text: `×${n}` }) : "");
    },
    /* Whether the layout (and `extra`, what else it shows) changed since last drawn: it is rebuilt only then, for a
       button replaced under a finger loses its tap. */
    relaid(extra) {
      const laid = JSON.stringify([draft().melds, draft().orphans, wildRank, extra]);
      return laid !== at.laid && !!(at.laid = laid);
    },
    /* Taps on `grid`'s buttons add their face (data-face); on `laid`'s, take one off. */
    wire(grid, laid) {
      const on = (node, change) => node.addEventListener("click", (e) => {
        const button = e.target.closest("button");
        if (button && !button.disabled) tap(change([...faces()], button.dataset.face));
      });
      on(grid, (list, face) => [...list, face]);
      on(laid, (list, face) => list.filter((f, i) => f !== face || i !== list.lastIndexOf(face)));
    },
  };
}
