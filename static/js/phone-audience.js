/* The phone in the audience: each hand's three questions one at a time (the names to tap are the screen's one
   action), the seconds until they close, what happened, and this member's place. It holds its own link, as the
   audience (docs/protocol.md, "The audience"): it never hears the table's cards, only the audience's table. */
import { answerText, askedText, optionText, percent, total } from "./audience.js";
import { connect, el, fill, store } from "./common.js";
import { onChange, t, tn } from "./i18n.js";
import { $, act, notice, room, shutText, view } from "./phone-shared.js";
import { feel, renderStage } from "./phone-stage.js";

const KEY = `pr.aud.${room}`; // this device's audience token for the room
let asking = null; // the question on screen (its key), or null: the first still to answer
let closesAt = null; // performance.now() ms when the open round closes, when the caller counts it down
let clock = null;

/* The audience's screen instead of the player's: its own link (the token read at every connection). */
export function start() {
  $("audience").hidden = false;
  view.link = connect("audience", room, () => store(KEY), render);
  view.link.socket.on("connect_error", (err) => notice(err.data && err.data.code ? err.message : t("phone.unreachable"), true));
  view.link.socket.on("disconnect", () => document.body.classList.add("offline"));
  view.link.socket.on("connect", () => document.body.classList.remove("offline"));
  onChange(() => view.state && render(view.state));
  $("aud-name").value = store("pr.name") || "";
  $("aud-join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("aud-name").value.trim();
    store("pr.name", name);
    const ack = await act("audience_join", { name });
    if (ack.ok) store(KEY, ack.audience_token); // this link is the member now; a reconnection says so with it
  });
  $("aud-take").addEventListener("click", async () => {
    const ack = await act("audience_seat");
    if (!ack.ok) return;
    store(view.tokenKey, ack.token); // a player now: the page opens as one
    store(KEY, null);
    location.reload();
  });
  $("aud-leave").addEventListener("click", () => {
    store(KEY, null);
    sessionStorage.removeItem(KEY);
    location.reload(); // the join page, as a guest
  });
}

const asked = askedText;
const said = optionText;

function render(state, moments = []) {
  const fresh = state !== view.state;
  view.state = state;
  const aud = state.room.audience;
  const you = state.room.you;
  const joined = you.member !== null && you.member !== undefined;
  if (you.removed && store(KEY)) store(KEY, null); // taken out by the host: this device may join again, by name
  const r = aud.round;
  if (fresh) closesAt = r && r.closes_in !== null && r.closes_in !== undefined ? performance.now() + r.closes_in * 1000 : null;
  // A newcomer is told before typing a name when the audience would turn them away: off, or full (at its cap).
  const shut = !joined && (!aud.on || !!aud.full);
  $("aud-join-form").hidden = joined || shut;
  $("aud-leave").hidden = !joined; // only a member leaves; a newcomer has nothing to leave
  $("aud-hand").textContent = r ? t("phone.aud.hand", { hand: r.hand }) : "";
  // Each part its own box, wrapped whole, so a narrow screen never runs one into the next.
  fill($("aud-me"), joined && [el("strong", { text: you.name }), el("span", { text: tn("points", you.points) }),
    el("span", { text: t("phone.aud.place", { place: you.place, of: you.of }) })]);
  renderOffer(you);
  renderHappened(aud, you);
  renderRound(aud, r, you, joined);
  renderStage(state, !!r && r.open && joined);
  if (joined) feel(state, moments, you);
  $("aud-leaders-box").hidden = !aud.leaders.length;
  fill($("aud-leaders"), aud.leaders.map((l) => el("li", { class: joined && l.name === you.name ? "me" : "",
    text: `${l.name}: ${tn("points", l.points)}` })));
  tick();
}

/* The host's offer of a seat: the one action then, ready when a seat is free between games. */
function renderOffer(you) {
  $("aud-offer").hidden = !you.offered;
  $("aud-take").disabled = !you.seat_free;
  $("aud-offer-note").textContent = t(you.seat_free ? "phone.aud.offer" : "phone.aud.seat_wait");
}

/* The round settled last, as it went for this member: each answer, and what each of their guesses earned. */
function renderHappened(aud, you) {
  const last = aud.last;
  const mine = you.last;
  const box = $("aud-happened");
  box.hidden = !last || !mine || mine.hand !== last.hand || !!last.void || !last.answers;
  if (box.hidden) return;
  const lines = last.questions.map((q) => {
    const answer = last.answers[q.key];
    const earned = mine.earned[q.key];
    const text = answer ? answerText(q, answer) : t("aud.void");
    const pick = mine.picks[q.key];
    const mark = earned === undefined ? "" : earned > 0 ? ` ✓ +${earned}` : " ✗";
    return el("li", { class: earned > 0 ? "right" : "" }, el("span", { text }), pick !== undefined && el("strong", { text: mark }));
  });
  const earned = Object.values(mine.earned).reduce((a, b) => a + b, 0);
  const guessed = Object.keys(mine.picks).length > 0;
  fill(box, el("h2", { text: t("phone.aud.happened", { hand: last.hand }) }), el("ul", {}, ...lines),
    guessed && el("p", { class: "aud-total", text: t("phone.aud.this_hand", { points: tn("points", earned) }) }));
}

/* The round: open, one question at a time with its names to tap; closed, this member's guesses beside the
   audience's; none, why not. */
function renderRound(aud, r, you, joined) {
  const picks = you.picks || {};
  const open = !!r && r.open && joined;
  $("aud-steps").hidden = !open;
  $("aud-options").hidden = !open;
  $("aud-mine").hidden = !r || r.open || !joined;
  if (!r || !joined) {
    $("aud-question").textContent = joined ? t(aud.on ? "phone.aud.waiting" : "phone.aud.off") : newcomerText(aud, you);
    $("aud-clock").textContent = "";
    return;
  }
  if (!r.open) {
    $("aud-clock").textContent = "";
    const guessed = r.questions.some((q) => picks[q.key] !== undefined);
    $("aud-question").textContent = t(guessed ? "phone.aud.closed" : "phone.aud.waiting");
    fill($("aud-mine"), r.questions.filter((q) => picks[q.key] !== undefined).map((q) => {
      const counts = (r.split || {})[q.key] || {};
      const whole = total(counts);
      return el("li", {}, el("span", { text: asked(q) }), el("strong", { text: said(q, picks[q.key]) }),
        el("span", { class: "aud-same", text: t("phone.aud.same", { pct: percent(counts[picks[q.key]] || 0, whole) }) }));
    }));
    return;
  }
  const keys = r.questions.map((q) => q.key);
  if (!keys.includes(asking)) asking = null;
  const current = r.questions.find((q) => q.key === asking) || r.questions.find((q) => picks[q.key] === undefined);
  fill($("aud-steps"), r.questions.map((q, i) => el("li", {}, el("button", {
    type: "button", class: q === current ? "on" : "", "aria-pressed": String(q === current),
    "aria-label": t("phone.aud.question", { n: i + 1 }), onclick: () => { asking = q.key; render(view.state); },
  }, el("span", { class: "aud-n", text: `${i + 1}` }), picks[q.key] === undefined ? "" : tab(said(q, picks[q.key]))))));
  if (!current) { // all three in: they may still change any of them
    $("aud-question").textContent = t("phone.aud.all_in");
    fill($("aud-options"));
    return;
  }
  $("aud-question").textContent = asked(current);
  const colours = view.state.room.colours || {};
  fill($("aud-options"), current.options.map((option) => {
    const chosen = picks[current.key] === option;
    const button = el("button", { type: "button", class: `big-button aud-option${chosen ? " chosen" : ""}`, "aria-pressed": String(chosen),
      onclick: () => pick(current, option) }, current.key === "under" ? null : el("span", { class: "dot", "aria-hidden": "true" }),
    el("span", { class: "aud-name", text: said(current, option) }));
    if (colours[option]) button.style.setProperty("--seat-colour", colours[option]);
    return el("li", {}, button);
  }));
}

/* What a connection that is not a member reads in place of a question: why it cannot join (off, or full at its
   cap), said before any name is typed; else the way in. A round under way while the audience is off goes on for
   its members (docs/protocol.md, "Off, and the cap"). */
function newcomerText(aud, you) {
  return shutText(aud) || t(you.removed ? "phone.aud.removed" : "phone.aud.join_first");
}

/* A pick as its question's tab shows it: a long name cut to one line's worth, so the tabs stay above the fold at
   320 × 568 with names of twenty letters (the whole name is on its button, ticked, and once the guesses close). */
const TAB_LETTERS = 14;
const tab = (text) => (text.length > TAB_LETTERS ? `${text.slice(0, TAB_LETTERS - 1).trimEnd()}…` : text);

async function pick(question, option) {
  const ack = await act("predict", { question: question.key, option });
  if (!ack.ok) return;
  // On to the question still to answer, a changed pick too (its own update may have drawn the page already,
  // still on this question: drawn again now).
  asking = null;
  render(view.state);
}

/* The seconds left, each second, while the caller counts the round down. */
function tick() {
  clearTimeout(clock);
  const r = view.state && view.state.room.audience.round;
  const you = view.state && view.state.room.you;
  if (!r || !r.open || !you || you.member === null || you.member === undefined) return; // a member's clock alone
  if (closesAt === null) {
    $("aud-clock").textContent = t("phone.aud.closes_at_draw");
    return;
  }
  const left = Math.max(0, Math.ceil((closesAt - performance.now()) / 1000));
  $("aud-clock").textContent = t("phone.aud.closes_in", { n: left });
  if (left > 0) clock = setTimeout(tick, 250);
}
