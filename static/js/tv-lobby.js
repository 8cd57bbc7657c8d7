/* The TV's lobby: the join card, the seats in ring order, the rules and the bots. */
import { el } from "./common.js";
import { lang, list, t, tn } from "./i18n.js";
import { $, act, view } from "./tv-shared.js";
import { badge } from "./tv-table.js";

export function renderLobby() {
  const seats = view.state.room.seats;
  const ring = $("ring");
  ring.replaceChildren(
    ...seats.map((s, i) => {
      const small = (key, text, event, data) => el("button", { type: "button", class: "small", "aria-label": t(key, { name: s.name }),
        onclick: () => act(event, { seat: i, ...data }) }, text);
      const item = el(
        "li",
        { class: `ring-seat ${s.health === "reconnecting" || s.health === "gone" ? "offline" : ""}` },
        el("span", { class: "dot", "aria-hidden": "true" }),
        el("span", { class: "seat-name" }, s.name, s.phoneless && badge("nophone", "tv.no_phone")),
        s.vip && badge("vip", "tv.vip"),
        s.bot && badge("bot", "tv.bot"),
        small("tv.move_left", "◀", "move", { to: Math.max(0, i - 1) }),
        small("tv.move_right", "▶", "move", { to: Math.min(seats.length - 1, i + 1) }),
        small("tv.remove", "✕", "remove"),
      );
      item.style.setProperty("--seat-colour", s.colour);
      return item;
    }),
  );
  const need = view.state.room.min_players;
  const count = [tn("tv.players_in", seats.length)];
  if (seats.length < need) count.push(tn("tv.need_more", need - seats.length));
  $("lobby-count").textContent = seats.length ? count.join(" · ") : t("tv.waiting_players");
  // A shipped variant's name and description come from the catalog; a house variant's are its own words.
  const words = (v, part) => (v.shipped ? t(`variant.${v.name}.${part}`) : part === "name" ? v.name : v.description);
  const select = $("variant");
  const menu = [lang, ...view.state.room.variants.map((v) => v.name)].join(" ");
  if (select.dataset.menu !== menu) { // rebuilt only when it changes: an open menu is not closed under the host
    select.dataset.menu = menu;
    select.replaceChildren(...view.state.room.variants.map((v) => el("option", { value: v.name, text: words(v, "name") })));
  }
  select.value = view.state.room.variant;
  const chosen = view.state.room.variants.find((v) => v.name === view.state.room.variant);
  $("variant-desc").textContent = chosen ? words(chosen, "description") : "";
  const you = view.state.room.you;
  $("start").disabled = !you.can.includes("start"); // what the host may do now is the server's to say
  $("add-bot").disabled = !you.can.includes("add_bot");
  const full = seats.length >= view.state.room.max_players;
  const locked = view.state.room.locked;
  $("scan").textContent = t(locked ? "tv.locked_scan" : full ? "tv.table_full" : "tv.scan");
  $("scan").classList.toggle("full", full || locked);
  renderTakeover();
  renderMode();
  $("night").replaceChildren(...nightList());
}

/* The host's say on late guests taking a bot's seat (the server may not offer the option). */
function renderTakeover() {
  const known = "allow_bot_takeover" in view.state.room;
  $("takeover-box").hidden = !known;
  if (known) $("allow-takeover").checked = !!view.state.room.allow_bot_takeover;
}

/* Cards on the phones or real cards on the table; with real cards, players without a phone and who answers for
   them, instead of bots (the server may not offer the modes). */
function renderMode() {
  const room = view.state.room;
  const known = "mode" in room;
  const real = room.mode === "real";
  $("mode").hidden = !known;
  $("mode-phones").setAttribute("aria-pressed", String(!real));
  $("mode-real").setAttribute("aria-pressed", String(real));
  $("person-form").hidden = !real;
  $("helpers-box").hidden = !real;
  $("allow-helpers").checked = !!room.allow_helpers;
  $("phoneless-box").hidden = !real;
  $("phoneless-ready").checked = !!room.phoneless_ready;
  $("add-person").disabled = !room.you.can.includes("add_person");
  $("person-name").placeholder = t("tv.person_placeholder");
  if (real) {
    $("takeover-box").hidden = true;
    $("bot-controls").hidden = true;
  } else $("bot-controls").hidden = false;
}

export function nightList() {
  return view.state.room.night.map((g, i) => el("p", { text: t("tv.night_game", { game: i + 1, winners: g.winners.length ? list(g.winners) : t("tv.no_winner") }) }));
}
