/* The audience on the TV (docs/protocol.md, "The audience"): its split under the call once its guesses close
   ("62% say Ana calls Match! first"), the answers and its best guessers beside a scored hand, the night's best
   guesser under the podium, and the host's panel: let an audience in, cap it, offer one of them a seat. Drawn after
   the rest of the screen, from `room.audience`, which every viewer of the room shares. */
import { answerText, percent, saidText, total } from "./audience.js";
import { el } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { $, act, view } from "./tv-shared.js";

const CAPS = ["", "10", "20", "50", "100"]; // "": none but the server's own (docs/protocol.md, `audience`)
const SHOWN = 3; // best guessers beside a scored hand

export function wireAudience() {
  $("aud-open").addEventListener("click", () => { $("aud-panel").hidden = false; renderAudience(); $("aud-close").focus(); });
  $("aud-close").addEventListener("click", () => { $("aud-panel").hidden = true; });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") $("aud-panel").hidden = true; });
  const settings = () => act("audience", { on: $("aud-on").checked, cap: $("aud-cap").value ? Number($("aud-cap").value) : null });
  $("aud-on").addEventListener("change", settings);
  $("aud-cap").addEventListener("change", settings);
  $("aud-member").addEventListener("change", renderAudience);
  $("aud-offer-seat").addEventListener("click", async () => {
    const member = Number($("aud-member").value);
    const roster = view.state.room.audience_roster || [];
    const chosen = roster.find((m) => m.member === member);
    if (chosen && (await act("audience_offer", { member, offered: !chosen.offered })).ok) renderAudience();
  });
}

export function renderAudience() {
  const state = view.state;
  const aud = state && state.room.audience;
  if (!aud) return;
  const game = state.game;
  $("aud-open").textContent = t("tv.aud.button", { n: aud.members });
  renderLobbyLine(aud, game);
  renderStrip(aud, game);
  renderScoresBox(aud, game);
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
  $("aud-lobby").hidden = !open || (!full && !aud.members);
  $("aud-lobby").textContent = full ? t("tv.aud.scan") : t("tv.aud.count", { n: aud.members });
  // At the table: the small join QR stays for the audience when the seats are full (tv-table.js hides it then).
  if (game && open) $("table-join").hidden = false;
}

/* Under the call once the guesses close: what the audience says, until a Match! lays its hands down. */
function renderStrip(aud, game) {
  const r = aud.round;
  const show = !!game && !!r && !r.open && !!r.predicted && !game.scored && !(game.matched || []).length;
  $("aud-strip").hidden = !show;
  if (!show) return;
  const said = r.questions.map((q) => saidText(q, r.split[q.key])).filter(Boolean);
  $("aud-strip").replaceChildren(el("strong", { text: t("tv.aud.title") }), ...said.map((s) => el("span", { text: s })));
}

/* Beside a scored hand: each answer with the share that saw it coming, and the best guessers. */
function renderScoresBox(aud, game) {
  const last = aud.last;
  const show = !!game && game.scored && !!last && !!last.answers && last.hand === game.hand_no && !!last.predicted;
  $("aud-scores").hidden = !show;
  if (!show) return;
  const lines = last.questions.filter((q) => last.answers[q.key]).map((q) => {
    const counts = last.split[q.key] || {};
    const right = last.answers[q.key].reduce((sum, option) => sum + (counts[option] || 0), 0);
    return el("p", {}, answerText(q, last.answers[q.key]), " · ", el("strong", { text: t("aud.saw", { pct: percent(right, total(counts)) }) }));
  });
  const leaders = aud.leaders.slice(0, SHOWN).map((l) => el("li", {}, el("span", { class: "aud-name", text: l.name }),
    el("span", { text: ` ${tn("points", l.points)}${l.earned ? ` (+${l.earned})` : ""}` })));
  $("aud-scores").replaceChildren(el("h3", { text: t("tv.aud.title") }), ...lines,
    leaders.length ? el("p", { class: "aud-leaders-title", text: t("tv.aud.leaders") }) : null,
    leaders.length ? el("ol", { class: "aud-leaders" }, ...leaders) : null);
}

/* The host's panel: the switch, the cap, and a seat at the next game for one member. */
function renderPanel(aud) {
  $("aud-panel-count").textContent = t("tv.aud.count", { n: aud.members });
  $("aud-on").checked = aud.on;
  const cap = aud.cap === null ? "" : String(aud.cap);
  if ($("aud-cap").options.length !== CAPS.length) {
    $("aud-cap").replaceChildren(...CAPS.map((c) => el("option", { value: c, text: c || t("tv.aud.no_cap") })));
  }
  $("aud-cap").value = cap;
  const roster = (view.state.room.audience_roster || []).filter((m) => !m.seated);
  const chosen = $("aud-member").value;
  $("aud-member").replaceChildren(...roster.map((m) => el("option", { value: String(m.member),
    text: m.offered ? t("tv.aud.offered", { name: m.name }) : m.name })));
  if (roster.some((m) => String(m.member) === chosen)) $("aud-member").value = chosen;
  const picked = roster.find((m) => String(m.member) === $("aud-member").value);
  $("aud-member").disabled = $("aud-offer-seat").disabled = !roster.length;
  $("aud-offer-seat").textContent = t(picked && picked.offered ? "tv.aud.unoffer" : "tv.aud.offer");
  $("aud-panel-note").textContent = roster.length ? t("tv.aud.offer_note") : t("tv.aud.nobody");
}
