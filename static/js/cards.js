/* Cards as the pages draw them: ranks and suits, a card's face, a hand laid out in melds and orphans, and the
   tap logic both card pickers share (the phone's, phone-entry.js, and the TV's, tv-picker.js). */
import { el } from "./common.js";

export const RANKS = ["JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]; // by rank number
export const SUITS = ["clubs", "diamonds", "hearts", "spades"]; // by suit number: the faces' classes
export const SYMBOLS = "♣♦♥♠";

/* A card of the views' shape (partyrummy/views.py's card_view) made here, for a picker's buttons. */
export function card(rank, suit) {
  return rank ? { card: RANKS[rank] + "CDHS"[suit], label: RANKS[rank] + SYMBOLS[suit], rank, suit }
    : { card: "JK", label: "JK", rank: 0, suit: 0 };
}

let wildRank = null; // this hand's wild rank ("3", "K"…), set by the page with each state

export function setWild(rank) {
  wildRank = rank || null;
}

/* A card face: its label with a suit class, so colour is never the only signal; wilds marked. */
export function cardFace(card, extra) {
  if (!card) return el("span", { class: "card empty", text: "—" });
  const joker = card.rank === 0;
  const wild = joker || (wildRank !== null && card.label.slice(0, -1) === wildRank);
  return el("span", { class: `card ${joker ? "joker" : SUITS[card.suit]} ${wild ? "wild" : ""} ${extra || ""}`.trim(), text: joker ? "🃏" : card.label });
}

/* A hand laid out: a group (a `tag` with the attributes `meld`) for each meld, then the orphans, ringed since
   they cost points (unless `ring` is false), in a group of their own (attributes `orphans`) or loose after the
   melds. `wrap(face, card)` puts each face in what the screen taps, if anything. */
export function laidOut(hand, { tag = "span", meld = { class: "meld" }, orphans = null, ring = true, wrap = (face) => face } = {}) {
  const faces = (cards, orphan) => cards.map((c) => wrap(cardFace(c, orphan && ring ? "orphan" : ""), c));
  const loose = faces(hand.orphans, true);
  return [...hand.melds.map((m) => el(tag, meld, ...faces(m, false))),
    ...(orphans === null ? loose : loose.length ? [el(tag, orphans, ...loose)] : [])];
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/* The tap logic of a card picker. Each tap sends the whole list of faces ("7H"); the seat's view brings it back
   laid out by the solver. Until it does, taps build on the list sent (a quick second tap is never lost); a
   refusal leaves the server's list as it was. `draft()` is the seat's draft in the view held, `send(faces)`
   resolves with the ack, `version()` is the held view's, `error(message)` shows a refusal ("" clears it). */
export function cardPicker({ draft, send, version, error, redraw }) {
  const at = { pending: null, sending: 0, answered: -1, laid: "" };
  const faces = () => at.pending || draft().cards.map((c) => c.card);
  async function tap(list) {
    at.pending = list;
    at.sending += 1;
    redraw();
    const ack = await send(list);
    at.sending -= 1;
    at.answered = version();
    if (!ack.ok && !at.sending) at.pending = null;
    error(ack.ok ? "" : ack.error.message);
    redraw();
  }
  return {
    /* Another seat or hand: nothing pending, the layout drawn anew. */
    reset() {
      Object.assign(at, { pending: null, laid: "" });
    },
    /* Before drawing: what was sent is in (or a newer view came since the answer), so the server's list is the
       list again. Whether taps are still on their way: the hand is confirmed only once they are in. */
    settle() {
      const back = () => same(at.pending, draft().cards.map((c) => c.card)) || version() > at.answered;
      if (at.pending && !at.sending && back()) at.pending = null;
      return !!at.pending;
    },
    /* A picker button: the face of `card` and how often the list holds it. */
    fill(button, card) {
      const n = faces().filter((f) => f === card.card).length;
      button.replaceChildren(cardFace(card), n ? el("span", { class: "count", text: `×${n}` }) : "");
    },
    /* Whether the layout (with what else it shows, `extra`) changed since it was last drawn: it is rebuilt only
       then, since a button replaced under a finger would lose its tap. */
    relaid(extra) {
      const laid = JSON.stringify([draft().melds, draft().orphans, wildRank, extra]);
      const changed = laid !== at.laid;
      at.laid = laid;
      return changed;
    },
    /* Taps on `grid`'s buttons add their card (data-face); taps on `laid`'s take one off. */
    wire(grid, laid) {
      const on = (node, change) => node.addEventListener("click", (e) => {
        const button = e.target.closest("button");
        if (button && !button.disabled) tap(change([...faces()], button.dataset.face));
      });
      on(grid, (list, face) => [...list, face]);
      on(laid, (list, face) => {
        const i = list.lastIndexOf(face);
        if (i >= 0) list.splice(i, 1);
        return list;
      });
    },
  };
}
