/* The phone before play: joining, taking a seat, waiting for the deal, watching a full table. */
import { el, infoText, store } from "./common.js";
import { t, tn } from "./i18n.js";
import { $, act, notice, shutText, view } from "./phone-shared.js";

/* The join screen: the name form, or the seats a newcomer may take, or word that the table is full. */
export function renderJoin(seated, game) {
  // A seat someone left is open to anyone; a bot's only if the host allows it.
  const playing = view.state.game && !view.state.game.game_over;
  const left = playing ? view.state.room.seats.filter((s) => s.open) : [];
  const bots = playing && view.state.room.allow_bot_takeover ? view.state.room.seats.filter((s) => s.bot) : [];
  const open = [...left, ...bots];
  const full = !view.state.room.can_join;
  $("join").hidden = seated;
  $("join-form").hidden = seated || (full && !open.length);
  $("join-form").querySelector("button").hidden = full;
  $("full-note").hidden = seated || !full || !playing || !!left.length;
  $("open-seats").hidden = seated || !open.length;
  $("open-note").textContent = t(left.length ? "phone.open_seats" : "phone.take_over_note");
  $("open-list").replaceChildren(...open.map((s) =>
    el("li", {}, el("button", { type: "button", class: "big-button", onclick: () => takeSeat(s.seat) },
      s.bot ? t("phone.take_over", { name: s.name })
        : game ? tn("phone.play_seat_points", game.totals[s.seat], { name: s.name }) : t("phone.play_seat", { name: s.name })))));
  $("watch").hidden = seated || !game;
  $("watch-note").textContent = t(view.state.room.can_join ? "phone.join_late" : "phone.watching");
  $("watch-note").hidden = !$("full-note").hidden; // "the table is full" says it already
  renderAudienceEntry(seated);
}

/* The audience's way in (docs/protocol.md, "The audience"): under the name, the way in when the table cannot take
   a newcomer; the name form shows for it then. */
export const audienceOpen = () => { const aud = view.state.room.audience; return !!aud && aud.on && !aud.full; };
function renderAudienceEntry(seated) {
  const table = view.state.room.can_join;
  const aud = view.state.room.audience;
  $("aud-entry").hidden = seated || !audienceOpen();
  // Where the audience would be the way in (the table cannot take a newcomer, or a game is on), a shut one says
  // why before a name is typed: off, or full at its cap.
  const game = view.state.game;
  const why = !seated && !!aud && !audienceOpen() && (!table || (!!game && !game.game_over));
  $("aud-why").hidden = !why;
  $("aud-why").textContent = why ? shutText(aud) : "";
  $("aud-entry-note").textContent = t(table ? "phone.aud.or_watch" : "phone.aud.table_full");
  $("aud-entry-join").classList.toggle("primary", !table);
  if (!seated && audienceOpen() && !table) {
    $("join-form").hidden = false;
    $("full-note").hidden = true;
  }
}

/* The name typed, kept for next time; none yet: the player is asked for it (null). */
function typedName() {
  const name = $("name").value.trim();
  if (!name) {
    notice(t("phone.type_name"));
    $("name").focus();
    return null;
  }
  store("pr.name", name);
  return name;
}

/* Into the audience by the name typed: the page opens again as the member (its token kept for the room). */
export async function joinAudience() {
  const name = typedName();
  if (!name) return;
  const ack = await act("audience_join", { name });
  if (ack.ok) {
    store(`pr.aud.${view.state.room.code}`, ack.audience_token);
    location.reload();
  }
}

async function takeSeat(seat) {
  const name = typedName();
  if (!name) return;
  const ack = await act("take", { seat, name });
  if (ack.ok) store(view.tokenKey, ack.token);
}

/* A watcher's screen: the caller's line (`call`, the game's mode's words), the game, the scores. */
export function renderWatching(game, call) {
  $("watch-call").textContent = call;
  $("watch-info").textContent = infoText(game, view.state.room);
  const seats = view.state.room.seats;
  const order = seats.map((s, i) => i).filter((i) => i < game.totals.length).sort((a, b) => game.totals[a] - game.totals[b]);
  $("watch-scores").replaceChildren(...order.map((i) => el("li", { text: `${seats[i].name}: ${game.totals[i]}` })));
}

function neighbourWords(seat) {
  const seats = view.state.room.seats;
  const n = seats.length;
  if (n < 2) return "";
  const right = seats[(seat - 1 + n) % n].name;
  const left = seats[(seat + 1) % n].name;
  const variant = view.state.room.variants.find((v) => v.name === view.state.room.variant);
  return t(variant && variant.pacing === "turns" ? "phone.order_turns" : "phone.order_piles", { right, left });
}

export function renderWaiting(me) {
  const seat = view.state.room.seats[me.seat];
  const late = !!view.state.game && !view.state.game.game_over;
  $("welcome").textContent = t("phone.youre_in", { name: seat.name });
  $("neighbours").textContent = late ? "" : neighbourWords(me.seat);
  // The VIP starts the game themselves: no "waiting for the host" above their own Start. At a night's table the
  // big screen deals every table at once: the phone says which table is theirs instead.
  const night = view.state.room.in_night;
  const starts = me.controls && !night;
  $("waiting-note").textContent = late ? tn("phone.dealt_next", view.state.game.totals[me.seat])
    : night ? t("night.wait_deal", { n: night.table }) : starts ? "" : t("phone.wait_start");
  $("vip-lobby").hidden = !starts;
  // A Start that cannot be tapped says why: how many more players the rules need.
  const missing = view.state.room.min_players - view.state.room.seats.length;
  $("vip-start").disabled = missing > 0;
  $("start-why").textContent = missing > 0 ? tn("phone.need_players", missing) : "";
}
