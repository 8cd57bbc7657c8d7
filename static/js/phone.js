/* The phone: join, then play with one thumb. Every action is refused or accepted by the server.
   This module connects and dispatches; each screen lives in its own: phone-join, then each mode's: phone-play
   and phone-results, or for real cards on the table phone-real (the buttons), phone-entry (the score entry),
   phone-real-scores. */
import { setWild } from "./cards.js";
import { connect, modeLoader, store } from "./common.js";
import { onChange, ready, t } from "./i18n.js";
import { audienceOpen, joinAudience, renderJoin, renderWaiting, renderWatching } from "./phone-join.js";
import { wireSound } from "./phone-moments.js";
import { $, act, notice, room, view } from "./phone-shared.js";

/* Each mode's module: a night played one way never loads the other's (tests/test_weight.py counts each night). */
const MODES = { phones: () => import("./phone-play.js"), real: () => import("./phone-real.js") };

ready.then(() => {
  // In the audience (a member's token, or sent there by a locked room): its own screen and link, no seat's.
  const audience = `pr.aud.${room}`;
  if (!store(view.tokenKey) && (store(audience) || sessionStorage.getItem(audience))) {
    import("./phone-audience.js").then((module) => module.start());
    return;
  }
  let wasConnected = false;

  // A rejoin QR from the TV carries a one-time ticket in the fragment (never sent to the server in a URL); until
  // it is spent it goes with the connection too, which lets it through a locked room.
  let claim = new URLSearchParams(location.hash.slice(1)).get("claim");
  const link = connect("player", room, () => store(view.tokenKey), render, () => claim);
  view.link = link;
  view.rerender = () => render(view.state);
  link.socket.on("connect", () => {
    document.body.classList.remove("offline");
    if (wasConnected && store(view.tokenKey)) notice(t("phone.back"));
    wasConnected = true;
    if (claim) {
      const ticket = claim;
      claim = null;
      history.replaceState(null, "", location.pathname); // a reload must not spend the ticket again
      act("claim", { ticket }).then((ack) => {
        if (ack.ok) {
          store(view.tokenKey, ack.token);
          notice(t("phone.claimed"));
        }
      });
    }
  });
  // Lost: say so and stop the buttons (they cannot work) until the socket is back.
  link.socket.on("disconnect", () => { document.body.classList.add("offline"); notice(t("phone.lost"), true); });
  // The server's refusal comes in this phone's language; a network failure has only the client's words.
  link.socket.on("connect_error", (err) => {
    if (err.data && err.data.code === "locked" && !store(view.tokenKey)) { // a stranger at a locked room: the audience
      sessionStorage.setItem(audience, "1");
      location.reload();
      return;
    }
    notice(err.data && err.data.code ? err.message : t("phone.unreachable"), true);
  });
  link.socket.on("notice", (n) => {
    if (["removed", "released", "replaced", "moved"].includes(n.code)) store(view.tokenKey, null); // a guest now
    notice(n.message, true, n.code);
    if (n.code === "moved") toNight(); // the night seated them at another table: it says which
  });

  /* A table of a night of several tables: a phone that has no seat here but is the night's guest asks the night
     where it sits now (moved while it slept); once in a while, so a night that sends it back here is no loop. */
  function toNight() {
    const night = view.state && view.state.room.in_night;
    const bounced = Number(sessionStorage.getItem("pr.night.bounced") || 0);
    if (!night || !store(`pr.night.${night.code}`) || Date.now() - bounced < 10000) return false;
    sessionStorage.setItem("pr.night.bounced", String(Date.now()));
    location.replace(`/n/${night.code}`);
    return true;
  }
  let toldTable = false;

  /* Keep the screen on where the browser allows it (HTTPS or localhost only); elsewhere we resync on waking. */
  async function keepAwake() {
    try {
      if (navigator.wakeLock && document.visibilityState === "visible") await navigator.wakeLock.request("screen");
    } catch (e) {
      /* not allowed here: coming back is instant anyway */
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();

  $("name").value = store("pr.name") || "";
  wireSound();
  onChange(() => render(view.state));

  $("notice").addEventListener("click", () => { $("notice").hidden = true; }); // read: tap it away

  $("name").addEventListener("input", () => {
    const max = $("name").maxLength;  // the server's limit, in the page
    $("name-note").textContent = $("name").value.length >= max ? t("phone.name_limit", { max }) : "";
  });

  $("aud-entry-join").addEventListener("click", joinAudience);
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!view.state.room.can_join && audienceOpen()) return joinAudience(); // a full table's name goes to the audience
    const name = $("name").value.trim();
    store("pr.name", name);
    const ack = await act("join", { name });
    if (ack.ok) {
      store(view.tokenKey, ack.token);
      link.sync();
    }
  });
  $("not-you").addEventListener("click", () => {
    store(view.tokenKey, null);
    link.socket.disconnect().connect(); // reconnect as a guest
  });
  $("vip-start").addEventListener("click", () => act("start"));

  let held = null; // the latest state, while its mode's module loads
  const modeOf = modeLoader(MODES, (module) => { // its buttons wired, then the state drawn
    module.wire();
    const next = held;
    held = null;
    render(next);
  });

  function render(next, moments = []) {
    if (!next) return;
    view.moments = [...view.moments, ...moments]; // played with the state they came with, once it is drawn
    const game = next.game;
    const mode = game && modeOf(game);
    if (game && !mode) { // drawn once the mode's module is in
      held = next;
      return;
    }
    const fresh = next !== view.state; // a redraw (a language, a tap) keeps the clocks where they are
    view.state = next;
    const me = next.room.you;
    const seated = me.role === "player";
    const real = !!game && game.mode === "real"; // real cards on the table: the phone answers, the TV keeps score
    const dealtIn = seated && !!game && !!game.you && !game.you.waiting;
    setWild(game && game.wild_rank);
    if (fresh && mode) mode.setClocks(next);
    if (!seated && toNight()) return;
    if (seated && next.room.in_night && !toldTable) { // which table is theirs, in the room: said once, on arrival
      toldTable = true;
      notice(t("night.your_table", { n: next.room.in_night.table }), true);
    }
    renderJoin(seated, game);
    if (!seated && game) renderWatching(game, mode.watchText(game));
    $("waiting").hidden = !seated || dealtIn;
    $("play").hidden = !dealtIn || real;
    $("real").hidden = !dealtIn || !real;
    if (seated && !dealtIn) renderWaiting(me);
    if (dealtIn) mode.render(me, game);
    view.moments = [];
  }
});
