/* The audience on the TV (docs/protocol.md, "The audience"): its split as a picture in the band once its guesses
   close, the moment a guess comes true ("31 of 54 saw Ana's Match! coming"), the answers and the hand's best
   guessers under every hand laid out, a line beside a scored hand's sheet, the night's best
   guesser under the podium, and the host's panel: let an audience in, cap it, offer one of them a seat. Drawn after
   the rest of the screen, from `room.audience`, which every viewer of the room shares; the panel also takes one
   member out of the audience, or everyone their device brought. */
import { answerText, optionText, percent, sawIt, total } from "./audience.js";
import { el, fill } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { $, act, view } from "./tv-shared.js";
import { banner } from "./tv-show.js";

const SHOWN = 3; // best guessers beside a scored hand

export function wireAudience() {
  $("aud-open").addEventListener("click", () => { $("aud-panel").hidden = false; renderAudience(); $("aud-close").focus(); });
  $("aud-close").addEventListener("click", () => { $("aud-panel").hidden = true; });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") $("aud-panel").hidden = true; });
  const settings = () => act("audience", { on: $("aud-on").checked, cap: $("aud-cap").value ? Number($("aud-cap").value) : null });
  $("aud-on").addEventListener("change", settings);
  $("aud-cap").addEventListener("change", settings);
  $("aud-search").addEventListener("input", renderAudience);
  window.addEventListener("resize", renderAudience); // the scores' box takes the room a screen's size leaves it
  // Each member's row: a seat offered or taken back; out of the audience, alone or with everyone their device
  // brought (a script's crowd of names). One listener for the list, whose rows are drawn anew.
  $("aud-members").addEventListener("click", async (e) => {
    const button = e.target.closest("button[data-do]");
    if (!button) return;
    const member = Number(button.dataset.member);
    const chosen = (view.state.room.audience_roster || []).find((m) => m.member === member);
    if (!chosen) return;
    const ack = button.dataset.do === "offer" ? await act("audience_offer", { member, offered: !chosen.offered })
      : await act("audience_remove", { member, together: button.dataset.do === "remove-all" });
    if (ack.ok) renderAudience();
  });
}

export function renderAudience() {
  const state = view.state;
  const aud = state && state.room.audience;
  if (!aud) return;
  const game = state.game;
  $("aud-open").textContent = t("tv.aud.button", { n: aud.members });
  renderLobbyLine(aud, game);
  renderSplit(aud, game);
  renderScoresBox(aud, game);
  renderReveal(aud, game);
  const best = aud.best;
  $("aud-best").hidden = !best || !$("scores").classList.contains("on-podium");
  if (best) $("aud-best").textContent = t("tv.aud.best", { names: list(best.names), points: tn("points", best.points) });
  if (!$("aud-panel").hidden) renderPanel(aud);
}

/* The lobby: with the table full, the QR code is the audience's way in. */
function renderLobbyLine(aud, game) {
  const room = view.state.room;
  const full = room.seats.length >= room.max_players || room.locked;
  const open = aud.on && !aud.full;
  if (!game && full && open) $("scan").textContent = t("tv.aud.scan"); // the QR code is the audience's way in now
  $("aud-lobby").hidden = !open || !aud.members;
  $("aud-lobby").textContent = t("tv.aud.count", { n: aud.members });
}

/* In the band, once the guesses close and until a Match! lays its hands down there: what the audience said of each
   question as a picture (a bar of the players' colours, each as long as its share), the most picked beside it, and
   how many guessed. Beside the seats, never over them. */
function renderSplit(aud, game) {
  const r = aud.round;
  const box = $("aud-split");
  const show = !!game && !!r && !r.open && !!r.predicted && !game.scored && !(game.matched || []).length;
  box.hidden = !show;
  if (!show) return;
  const colours = Object.fromEntries(view.state.room.seats.map((s) => [s.name, s.colour]));
  const columns = r.questions.map((q) => {
    const counts = r.split[q.key] || {};
    const whole = total(counts);
    const [lead, n] = Object.entries(counts)[0] || [];
    const bar = el("div", { class: "aud-bar", "aria-hidden": "true" }, ...Object.entries(counts).map(([option, k]) => {
      const part = el("span", { class: `aud-part ${q.key === "under" ? option : ""}` });
      part.style.flexGrow = String(k);
      if (colours[option]) part.style.background = colours[option];
      return part;
    }));
    return el("div", { class: "aud-q", "data-q": q.key }, el("p", { class: "aud-ask", text: shortAsked(q) }), bar,
      el("p", { class: "aud-lead", text: lead === undefined ? "–" : `${optionText(q, lead)} · ${percent(n, whole)}%` }));
  });
  box.setAttribute("aria-label", t("tv.aud.title"));
  fill(box, el("div", { class: "aud-head" }, el("strong", { text: t("tv.aud.title") }),
    el("span", { text: tn("tv.aud.guessed", r.predicted) })), columns);
}

/* A question as the TV's picture names it: short, the players' names are under it. */
const shortAsked = (q) => t(`tv.aud.short.${q.key}`, { name: q.subject, n: q.line });

/* The moment something the audience predicted happens: the first Match! of a hand ("31 of 54 saw Ana's Match!
   coming"), said over the band as the hand is laid down. `moments`: the server's, as they came with the state on
   the table (tv.js calls it with a game on screen). */
export function cheer(moments) {
  const state = view.state;
  const r = state.room.audience && state.room.audience.round;
  const first = (state.game.matched || [])[0]; // a Match! of this update's that came first in the hand
  if (!first || !r || r.open || !moments.some((m) => m.kind === "match" && m.seat === first.seat)) return;
  const counts = (r.split || {}).first || {};
  const whole = total(counts);
  if (!whole) return;
  const name = state.room.seats[first.seat].name;
  banner(t("tv.aud.saw_match", { n: counts[name] || 0, of: whole, name }));
}

/* Under every hand laid out at a hand's end: each answer with how many saw it coming, and the hand's best guessers
   with what they just earned. */
function renderReveal(aud, game) {
  const last = aud.last;
  const box = $("aud-reveal");
  const show = !!game && game.scored && !!last && !!last.answers && last.hand === game.hand_no && !!last.predicted
    && $("scores").classList.contains("showing-hands");
  box.hidden = !show;
  if (!show) return;
  const answers = last.questions.filter((q) => last.answers[q.key]).map((q) => {
    const counts = last.split[q.key] || {};
    const saw = sawIt(last.answers[q.key], counts);
    return el("p", { class: "aud-answer" }, el("span", { text: answerText(q, last.answers[q.key]) }), " ",
      el("strong", { text: t("tv.aud.saw_of", { n: saw, of: total(counts) }) }));
  });
  const top = aud.top.map((m, k) => `${k + 1}. ${m.name} +${m.earned}`);
  fill(box, el("h3", { text: t("tv.aud.title") }), el("div", { class: "aud-answers" }, ...answers),
    top.length ? el("p", { class: "aud-top" }, el("strong", { text: `${t("tv.aud.this_hand")}: ` }), top.join(" · ")) : null);
}

/* Beside a scored hand: each answer with the share that saw it coming, and the best guessers; under the sheet,
   or where the sheet leaves no room (real cards' rows of buttons at 720p) two short lines in the title's row. */
function renderScoresBox(aud, game) {
  const last = aud.last;
  const box = $("aud-scores");
  const show = !!game && game.scored && !!last && !!last.answers && last.hand === game.hand_no && !!last.predicted
    && !$("scores").classList.contains("showing-hands"); // the hands laid out have the answers under them
  box.hidden = !show;
  if (!show) return;
  let picks = 0;
  let right = 0;
  const lines = last.questions.filter((q) => last.answers[q.key]).map((q) => {
    const counts = last.split[q.key] || {};
    const saw = sawIt(last.answers[q.key], counts);
    picks += total(counts);
    right += saw;
    return el("p", {}, answerText(q, last.answers[q.key]), " · ", el("strong", { text: t("aud.saw", { pct: percent(saw, total(counts)) }) }));
  });
  const leaders = aud.leaders.slice(0, SHOWN);
  const gained = (l) => (l.earned ? ` (+${l.earned})` : ""); // never a template inside another's ${…} (rjsmin)
  const named = leaders.map((l, k) => `${k + 1}. ${l.name} ${tn("points", l.points)}${gained(l)}`);
  const top = leaders[0];
  fill(box,
    el("div", { class: "aud-full" }, el("h3", { text: t("tv.aud.title") }), ...lines,
      leaders.length ? el("p", {}, el("strong", { text: `${t("tv.aud.leaders")}: ` }), named.join(" · ")) : null),
    el("div", { class: "aud-compact" }, el("p", { text: t("tv.aud.right", { pct: percent(right, picks) }) }),
      top ? el("p", { text: t("tv.aud.top", { name: short(top.name), points: tn("points", top.points) }) }) : null),
  );
  place(box);
}

/* A name cut to fit the title's row (the whole name is on the phones and under the sheet at 1080p). */
const short = (name) => (name.length > 10 ? `${name.slice(0, 9).trimEnd()}…` : name);

/* Under the sheet, as wide as it (the sheet's column has room below its rows); if it would reach past the scores'
   body, in the title's row instead, right of the title (CSS's `compact`). */
function place(box) {
  const panel = $("scores");
  if (box.parentElement !== panel) panel.append(box); // tried under the sheet first, each time
  const outer = panel.getBoundingClientRect();
  const sheet = $("score-table").getBoundingClientRect();
  const room = $("score-table").parentElement.getBoundingClientRect();
  box.classList.remove("compact");
  box.style.left = `${sheet.left - outer.left - panel.clientLeft}px`;
  box.style.top = `${sheet.bottom + 8 - outer.top - panel.clientTop}px`;
  box.style.width = `${sheet.width}px`;
  if (box.getBoundingClientRect().bottom <= room.bottom + 1) return;
  for (const side of ["left", "top", "width"]) box.style.removeProperty(side);
  box.classList.add("compact");
  $("scores-aside").append(box);
}

/* The host's panel: the switch, the cap, and the members by points (best first), found by name: for each, a seat
   at the next game offered (or taken back), or out of the audience. */
let drawn = ""; // what the list was drawn from: drawn again only when it changed (a click mid-redraw is lost)
function renderPanel(aud) {
  // Off, or at the cap (a cap set under the count too): who is in stays in with every guess, newcomers wait;
  // said where the count is, so the host need not fear the switch.
  const count = t("tv.aud.count", { n: aud.members });
  const state = !aud.on ? t("tv.aud.off_note") : aud.full ? t("tv.aud.full") : "";
  $("aud-panel-count").textContent = state ? `${count} · ${state}` : count;
  $("aud-on").checked = aud.on;
  const cap = aud.cap === null ? "" : String(aud.cap);
  const caps = ["", ...aud.caps.map(String)]; // "": none but the server's own, `most`
  if ($("aud-cap").options.length !== caps.length || $("aud-cap").lang !== document.documentElement.lang) {
    $("aud-cap").lang = document.documentElement.lang; // "(no cap)" in the TV's language, switched or not
    $("aud-cap").replaceChildren(...caps.map((c) => el("option", { value: c, text: c || t("tv.aud.no_cap", { n: aud.most }) })));
  }
  $("aud-cap").value = cap;
  const roster = (view.state.room.audience_roster || []).filter((m) => !m.seated);
  const query = fold($("aud-search").value.trim());
  const shown = roster.filter((m) => !query || fold(m.name).includes(query))
    .sort((a, b) => b.points - a.points || a.member - b.member);
  $("aud-search").closest("label").hidden = roster.length < 2; // nothing to find among one
  $("aud-panel-note").textContent = !roster.length ? t("tv.aud.nobody") : !shown.length ? t("tv.aud.no_match")
    : t("tv.aud.offer_note");
  const key = JSON.stringify([shown, document.documentElement.lang]);
  if (key === drawn) return;
  drawn = key;
  const active = document.activeElement && document.activeElement.closest("button[data-do]");
  const focused = active && $("aud-members").contains(active) ? active : null;
  const again = focused && `button[data-member="${focused.dataset.member}"]`; // the same member's row, drawn anew
  // Each button is described by its row's name: a screen reader says whose seat, whose way out.
  const rowButton = (m, what, text, extra) => el("button", { type: "button", "data-do": what, "data-member": String(m.member),
    "aria-describedby": `aud-who-${m.member}`, text, ...extra });
  $("aud-members").replaceChildren(...shown.map((m) => el("li", { class: m.offered ? "offered" : "" },
    el("span", { class: "aud-who", id: `aud-who-${m.member}`, text: m.offered ? t("tv.aud.offered", { name: m.name }) : m.name }),
    el("span", { class: "aud-points", text: tn("points", m.points) }),
    el("span", { class: "aud-acts" },
      rowButton(m, "offer", t(m.offered ? "tv.aud.unoffer" : "tv.aud.offer"), { class: m.offered ? "" : "primary" }),
      rowButton(m, "remove", t("tv.aud.remove")),
      m.together ? rowButton(m, "remove-all", t("tv.aud.remove_all", { n: m.together + 1 })) : null))));
  const back = again && $("aud-members").querySelector(again);
  if (back) back.focus(); // a keyboard's place kept: its row's first button, or the search box if it went
  else if (focused) $("aud-search").focus();
}

/* A name as the search box compares it: without case or accents ("zoe" finds Zoë, "stefan" Ștefan). */
const fold = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
