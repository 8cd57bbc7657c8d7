/* Cards as the pages draw them: ranks and suits, a face, a hand laid out in melds and orphans, the pickers' taps. */
import { el } from "./common.js";
import { t, tn } from "./i18n.js";

export const RANKS = ["JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]; // by rank number
export const SUITS = ["clubs", "diamonds", "hearts", "spades"]; // by suit number: the faces' classes
export const SYMBOLS = "♣♦♥♠";

/* A card of the views' shape (partyrummy/rules/cards.py's card_view) made here, for a picker's buttons. */
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

/* A hand laid out: a group (a `tag` with the attributes `meld`) for each meld, then the orphans, ringed since
   they cost points (unless `ring` is false), in a group of their own (attributes `orphans`) or loose after the
   melds. `wrap(face, card)` puts each face in what the screen taps, if anything. */
export function laidOut(hand, { tag = "span", meld = { class: "meld" }, orphans = null, ring = true, wrap = (face) => face } = {}) {
  const faces = (cards, orphan) => cards.map((c) => wrap(cardFace(c, orphan && ring ? "orphan" : ""), c));
  const loose = faces(hand.orphans, true);
  return [...hand.melds.map((m) => el(tag, meld, ...faces(m))), ...(!orphans ? loose : loose.length ? [el(tag, orphans, ...loose)] : [])];
}

/* A card picker's taps (phone-entry.js's, tv-picker.js's): each sends the whole list of faces ("7H"), which the
   seat's view (`draft()`) brings back laid out by the solver. Until it does, taps build on the list sent, so none
   is lost (a quick second tap included); a refusal leaves the server's list as it was. A run goes in by its ends:
   a card, then the other held (400 ms), shift-clicked or tapped after "Run". Undo takes the last change back (until
   someone else changes the list). `draft()` is the seat's draft in the view held, `send(faces)` resolves with the
   ack, `version()` is the held view's, `error(message)` shows a refusal ("" clears it), `redraw()` draws anew. */
export function cardPicker({ draft, send, version, error, redraw }) {
  const at = { pending: null, sending: 0, answered: -1, laid: "", undo: [], mine: null, last: null, run: false };
  const drafted = () => draft().cards.map((c) => c.card);
  const faces = () => at.pending || drafted();
  const forget = () => Object.assign(at, { undo: [], mine: null, last: null, run: false });
  async function change(list, undoing) {
    const before = faces();
    if (!undoing) at.undo.push(before);
    Object.assign(at, { pending: list, sending: at.sending + 1, run: false });
    redraw();
    const ack = await send(list);
    at.sending -= 1;
    at.answered = version();
    if (ack.ok) at.mine = list;
    else {
      at.undo = at.undo.filter((x) => x !== before);
      at.last = null;
      if (!at.sending) at.pending = null;
    }
    error(ack.ok ? "" : ack.error.message);
    redraw();
  }
  function tap(face, run) {
    const [from, suit, added] = [at.last, face.slice(-1), [face]];
    if ((run || at.run) && from && from.slice(-1) === suit) {
      const [a, b] = [from, face].map((f) => RANKS.indexOf(f.slice(0, -1))).sort((x, y) => x - y);
      for (let r = a + 1; r < b; r++) added.push(RANKS[r] + suit);
    }
    if (face !== "JK") at.last = face;
    change([...faces(), ...added]);
  }
  function undo() {
    at.last = null;
    if (at.undo.length) change(at.undo.pop(), true);
  }
  return {
    undo,
    reset() { // another seat or hand: nothing pending, nothing to undo, the layout drawn anew
      Object.assign(forget(), { pending: null, laid: "" });
    },
    /* Before drawing: what was sent is in, or a newer view came since the answer, so the server's list is the list
       again (changed by someone else, it leaves nothing to undo). Returns whether taps are still on their way: the
       hand is confirmed only once they are in. */
    settle() {
      const now = drafted().join();
      if (at.pending && !at.sending && (version() > at.answered || at.pending.join() === now)) at.pending = null;
      if (!at.pending && at.mine && at.mine.join() !== now) forget();
      return !!at.pending;
    },
    /* A picker's button: `card`'s face, and how often the list holds it. */
    fill(button, card) {
      const n = faces().filter((f) => f === card.card).length;
      button.replaceChildren(cardFace(card), n ? el("span", { class: "count", text: `×${n}` }) : "");
    },
    /* Run (from where; pressed while armed) and Undo (how many cards). */
    tools(run, back) {
      const [from, before] = [at.last, at.undo.at(-1)];
      const n = before ? Math.abs(before.length - faces().length) : 0;
      run.disabled = !from;
      run.textContent = from ? t("pick.run_from", { card: from.slice(0, -1) + SYMBOLS["CDHS".indexOf(from.slice(-1))] }) : t("pick.run");
      run.setAttribute("aria-pressed", String(at.run));
      back.disabled = !before;
      back.textContent = n > 1 ? tn("pick.undo_n", n) : t("pick.undo");
    },
    /* Whether the layout (and `extra`, what else it shows) changed since last drawn: it is rebuilt only then, for a
       button replaced under a finger loses its tap. */
    relaid(extra) {
      const laid = JSON.stringify([draft().melds, draft().orphans, wildRank, extra]);
      return laid !== at.laid && !!(at.laid = laid);
    },
    /* Taps on `grid`'s buttons add their face (data-face); on `laid`'s, take one off. */
    wire(grid, laid, run, back) {
      let [timer, pressed, held] = [0, null, null]; // held: a run's end, whose click is no other tap
      const faceOf = (e) => e.target.closest("button:not(:disabled)")?.dataset.face;
      const stop = () => (timer = clearTimeout(timer));
      const hold = () => stop() || (pressed && tap((held = pressed), true));
      const on = (node, type, listener) => node.addEventListener(type, listener);
      on(grid, "pointerdown", (e) => {
        stop();
        held = null;
        pressed = !e.button && faceOf(e);
        timer = pressed && setTimeout(hold, 400);
      });
      for (const type of ["pointerup", "pointercancel", "pointerleave"]) on(grid, type, stop);
      on(grid, "contextmenu", (e) => { // a phone's own long press ends the run too
        e.preventDefault();
        if (timer) hold();
      });
      on(grid, "click", (e) => {
        const face = faceOf(e);
        if (face && face !== held) tap(face, e.shiftKey);
        held = null;
      });
      on(laid, "click", (e) => {
        const [face, list] = [faceOf(e), [...faces()]];
        if (!face) return;
        list.splice(list.lastIndexOf(face), 1);
        at.last = null;
        change(list);
      });
      on(run, "click", () => redraw((at.run = !at.run && !!at.last)));
      on(back, "click", undo);
    },
  };
}
