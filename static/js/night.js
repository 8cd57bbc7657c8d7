/* The big screen of a night of several tables: the way in for everyone, each table at a glance, one leaderboard.
   It asks the server for the night's view each second (one screen: a few hundred bytes a second); each table's own
   screen is that table's room's TV page, on the socket as ever. */
import { el, fill, postJson } from "./common.js";
import { lang, onChange, ready, t, tn } from "./i18n.js";

const code = document.body.dataset.night;
const key = new URLSearchParams(location.search).get("key");
const withKey = (path) => (key ? `${path}${path.includes("?") ? "&" : "?"}key=${encodeURIComponent(key)}` : path);
const $ = (id) => document.getElementById(id);
const HOST_NEAR_MS = 8000;
let view = null;

/* The host's controls show while the laptop is used, as on the TV. */
let idle = null;
const near = () => {
  document.body.classList.add("host-near");
  clearTimeout(idle);
  idle = setTimeout(() => document.body.classList.remove("host-near"), HOST_NEAR_MS);
};
for (const kind of ["pointermove", "pointerdown", "keydown"]) addEventListener(kind, near, { passive: true });

function notice(message) {
  $("n-notice").textContent = message;
  $("n-notice").hidden = !message;
  if (message) setTimeout(() => { $("n-notice").hidden = true; }, 6000);
}

async function act(body) {
  const answer = await postJson(withKey(`/night/${code}/do?lang=${lang}`), body);
  if (!answer || !answer.ok) notice(answer ? answer.error.message : t("night.busy"));
  poll();
}

/* A table at a glance: its number, its players, its hand and call, who it waits for. */
function tableCard(table) {
  const phase = table.playing ? t(`night.phase.${table.phase}`) : table.game_over ? t("night.over") : t("night.lobby");
  const hand = table.playing ? t("night.hand_of", { n: table.hand_no, of: table.hands_total }) : "";
  const slow = table.waiting_for;
  const waits = slow.length && slow.length <= 3 ? t("night.waits_for", { names: slow.join(", ") }) : "";
  return el("li", { class: `n-table${table.playing ? " playing" : ""}`, "data-table": table.table },
    el("div", { class: "n-table-head" },
      el("strong", { text: t("night.table_n", { n: table.table }) }),
      el("span", { text: tn("night.players", table.players.length) }),
      table.mode === "real" ? el("span", { class: "n-real", text: t("night.real") }) : null),
    el("div", { class: "n-table-line" }, el("span", { text: [hand, phase].filter(Boolean).join(" · ") }),
      waits ? el("span", { class: "n-waits", text: waits }) : null));
}

/* Each table's own screen, for the host to open on a second TV or a tablet (its link carries that table's key). */
function screens() {
  fill($("n-screens"), ...view.tables.map((table) => el("a", {
    class: "button", href: table.screen, target: "_blank", rel: "noopener",
    text: t("night.screen_of", { n: table.table }),
  })));
}

function points(value) {
  if (value === null || value === undefined) return "–";
  return value > 0 ? `+${value}` : String(value);
}

/* The leaderboard: everyone, best first, in as many columns as the screen needs (every row readable, none cut). */
function board() {
  const rows = view.standings;
  const byDup = view.ranked_by === "duplicate";
  const played = rows.some((row) => row.games > 0); // before the first hand scored, nobody is ranked by anything yet
  $("n-board-head").textContent = !played ? t("night.board_empty")
    : byDup ? t("night.ranked_duplicate") : t("night.ranked_totals");
  const list = $("n-board");
  const columns = rows.length > 36 ? 3 : rows.length > 12 ? 2 : 1;
  const per = Math.max(1, Math.ceil(rows.length / columns));
  const heads = () => el("li", { class: "n-row n-heads", "aria-hidden": "true" }, el("span"), el("span"), el("span"),
    el("span", { class: "n-total", text: t("night.total") }), el("span", { class: "n-dup", text: t("night.duplicate") }));
  const items = rows.map((row) => el("li", { class: "n-row" },
    el("span", { class: "n-rank", text: String(row.place) }),
    el("span", { class: "n-name", text: row.name }),
    el("span", { class: "n-where", text: row.table === null ? "" : t("night.table_short", { n: row.table + 1 }) }),
    el("span", { class: `n-total${played && !byDup ? " lead" : ""}`, text: String(row.total) }),
    el("span", { class: `n-dup${byDup ? " lead" : ""}`, text: points(row.duplicate) })));
  // Each column its own list, headed: the board reads down one column, then the next, and a long name in one
  // column never stretches a row of another.
  const lists = [];
  for (let start = 0; start < items.length; start += per) {
    lists.push(el("ol", { class: "n-column", start: start + 1 }, heads(), ...items.slice(start, start + per)));
  }
  fill(list, ...lists);
  list.style.setProperty("--columns", String(columns));
}

function controls() {
  const guests = view.guests;
  const chosen = $("n-guest").value;
  fill($("n-guest"), ...guests.map((g) => el("option", { value: g.key, text: `${g.name} (${t("night.table_short", { n: g.table })})` })));
  if (guests.some((g) => g.key === chosen)) $("n-guest").value = chosen;
  const to = $("n-to").value;
  fill($("n-to"), ...view.tables.map((table) => el("option", { value: table.table, text: t("night.table_n", { n: table.table }) })));
  if (to) $("n-to").value = to;
  if (document.activeElement !== $("n-variant")) $("n-variant").value = view.variant;
  const playing = view.tables.some((table) => table.playing);
  $("n-deal").disabled = playing;
  for (const button of document.querySelectorAll("[data-reseat], #n-move")) button.disabled = playing;
}

function render() {
  if (!view) return;
  const seated = view.tables.reduce((n, table) => n + table.players.length, 0);
  $("n-status").textContent = [tn("night.guests", seated), view.rounds ? t("night.game_n", { n: view.rounds }) : ""]
    .filter(Boolean).join(" · ");
  fill($("n-tables"), ...view.tables.map(tableCard));
  board();
  controls();
  screens();
}

let asking = false;
async function poll() {
  if (asking) return;
  asking = true;
  try {
    const response = await fetch(withKey(`/night/${code}/view`), { cache: "no-store" });
    if (response.ok) {
      view = await response.json();
      render();
    }
  } catch (e) {
    /* the laptop's server restarting: the next second asks again */
  } finally {
    asking = false;
  }
}

ready.then(() => {
  near();
  $("n-deal").addEventListener("click", () => act({ action: "deal" }));
  for (const button of document.querySelectorAll("[data-reseat]")) {
    button.addEventListener("click", () => act({ action: "reseat", how: button.dataset.reseat }));
  }
  $("n-move").addEventListener("click", () => act({ action: "move", guest: $("n-guest").value, table: Number($("n-to").value) }));
  $("n-variant").addEventListener("change", () => act({ action: "variant", name: $("n-variant").value }));
  $("n-csv").href = withKey(`/night/${code}/scores.csv?lang=${lang}`);
  $("n-codes-open").addEventListener("click", () => { $("n-codes").hidden = false; });
  $("n-codes-close").addEventListener("click", () => { $("n-codes").hidden = true; });
  onChange(render);
  poll();
  setInterval(poll, 1000);
});
