/* The TV: caller and scorekeeper. It holds no state of its own: everything comes from the room.
   This module connects and dispatches; each screen lives in its own: tv-lobby, tv-table, tv-scores (with tv-chart),
   tv-show (each moment's sting and hold) with tv-voice, and each mode's table: tv-phones, or tv-real (the host's
   pad and picker, tv-pad and tv-picker, load when first opened). */
import { setWild } from "./cards.js";
import { connect, infoText, modeLoader, store } from "./common.js";
import { onChange, ready, t, tn } from "./i18n.js";
import { cheer, renderAudience, wireAudience } from "./tv-audience.js";
import { renderLobby } from "./tv-lobby.js";
import { endOf, renderScores } from "./tv-scores.js";
import { $, act, room, view } from "./tv-shared.js";
import { mayDraw, momentsOf, play } from "./tv-show.js";
import { falseText, fitCall, fitMelds, healthText, seatGrid, setClocks } from "./tv-table.js";
import { say, sayAgain } from "./tv-voice.js";

/* Each mode's module: a night played one way never loads the other's (tests/test_weight.py counts each night). */
const HOST_NEAR_MS = 8000; // the host's buttons stay in sight this long after the laptop was last used
const MODES = { phones: () => import("./tv-phones.js"), real: () => import("./tv-real.js") };

ready.then(() => {
  const body = document.body;
  const hostToken = body.dataset.hostToken;
  let showScores = false;
  let closedScores = null; // the scored hand whose scores the host closed with "Back to the table"
  let hands = null; // the scored hand whose hands (or totals) the host asked for again: [its key, "hands" | "totals"]
  // The table's small join QR is the lobby's, drawn once in the page (one copy on the wire).
  $("table-qr").append($("lobby-qr").firstElementChild.cloneNode(true));

  /* A state as it comes: its clocks start now; it is drawn at once, or when the moment on screen has had its time. */
  let latest = null;
  let happened = []; // what the updates not yet drawn meant, played when their state is
  function receive(next, moments = []) {
    latest = next;
    happened = [...happened, ...moments];
    view.received = Date.now();
    setClocks(next.room);
    if (mayDraw(next, () => render(latest))) render(next);
  }
  const link = connect("host", room, () => hostToken, receive);
  view.link = link;
  view.redraw = () => view.state && render(view.state);
  addEventListener("resize", () => view.redraw()); // the call and the hands laid down fitted to the new size
  wireAudience();
  /* Connection loss: say it, stop the controls (they cannot work), and say when it is back. */
  let wasConnected = false;
  link.socket.on("disconnect", () => connection(false));
  link.socket.on("connect_error", () => connection(false));
  link.socket.on("connect", () => connection(true));
  let connTimer = null;
  function connection(up) {
    body.classList.toggle("offline", !up);
    clearTimeout(connTimer);
    $("conn").hidden = up && !wasConnected;
    $("conn").textContent = t(up ? "conn.back" : "conn.lost");
    if (up) connTimer = setTimeout(() => { $("conn").hidden = true; }, 3000);
    wasConnected = wasConnected || up;
  }

  /* The host's buttons (the drawer's, the scores' own) are in sight only while the host is using the laptop: a
     move of its mouse, a tap or a key shows them for a while; the show's screens are the guests' the rest of the
     time. A panel open, or a button with the keyboard's focus, keeps them in sight. */
  let idle = null;
  const near = () => {
    body.classList.add("host-near");
    clearTimeout(idle);
    idle = setTimeout(() => body.classList.remove("host-near"), HOST_NEAR_MS);
  };
  for (const kind of ["pointermove", "pointerdown", "keydown", "wheel"]) addEventListener(kind, near, { passive: true });
  near(); // the host just opened the page

  /* The host's drawer: the switches, the pause, "Call now" and the scores, out of the sofa's sight until opened. */
  function drawer(open) {
    $("host-drawer").hidden = !open;
    $("host-open").setAttribute("aria-expanded", String(open));
    if (open) $("host-close").focus();
  }
  $("host-open").addEventListener("click", () => drawer($("host-drawer").hidden));
  $("host-close").addEventListener("click", () => drawer(false));
  for (const id of ["call-now", "show-scores", "aud-open"]) $(id).addEventListener("click", () => drawer(false));

  for (const [id, key] of [["opt-speech", "tv.speech"], ["opt-sound", "tv.sound"], ["opt-four", "tv.four"]]) {
    const box = $(id);
    const saved = store(key);
    if (saved !== null) box.checked = saved === "1";
    box.addEventListener("change", () => {
      store(key, box.checked ? "1" : "0");
      applyOptions();
    });
  }
  function applyOptions() {
    body.classList.toggle("four-colour", $("opt-four").checked);
  }
  applyOptions();
  onChange(() => {
    sayAgain(); // the current call, in the new language
    if (view.state) render(view.state);
  });

  // The host's buttons that send one action as it is.
  for (const [id, event, data] of [["start", "start"], ["call-now", "call_now"], ["next-hand", "call_now"], ["play-again", "start"], ["to-lobby", "lobby"],
    ["deal-go", "call_now"], ["undo-correction", "undo_correction"], ["mode-phones", "mode", { mode: "phones" }], ["mode-real", "mode", { mode: "real" }]]) {
    $(id).addEventListener("click", () => act(event, data));
  }
  $("add-bot").addEventListener("click", () => act("add_bot", { strength: $("bot-strength").value }));
  $("variant").addEventListener("change", (e) => act("variant", { name: e.target.value }));
  $("pause").addEventListener("click", () => act("pause", { paused: !view.state.room.paused }));
  // The pace, one tap to the next (relaxed, normal, quick): every wait of the caller scales with it.
  const PACES = ["relaxed", "normal", "quick"];
  $("pace").addEventListener("click", () => act("pace", { pace: PACES[(PACES.indexOf(view.state.room.pace) + 1) % PACES.length] }));
  $("show-scores").addEventListener("click", () => { showScores = true; closedScores = null; render(view.state); });
  // Several tables: the night's big screen, opened with this screen's key when it has one. Offered in the lobby
  // only, where a night begins (a table's own screen is in a night already: it has no way to another).
  const key = new URLSearchParams(location.search).get("key");
  if (key && location.pathname === "/") $("to-night").href = `/night?key=${encodeURIComponent(key)}`;
  $("hide-scores").addEventListener("click", () => {
    showScores = false;
    hands = null; // the hands or the totals the host asked for go too
    closedScores = view.state.game ? scoredKey(view.state.game) : null;
    render(view.state);
  });
  $("show-hands").addEventListener("click", () => {
    const game = view.state.game;
    hands = [scoredKey(game), $("hands").hidden ? "hands" : "totals"];
    render(view.state);
  });
  $("opt-lock").addEventListener("change", (e) => act("lock", { locked: e.target.checked }));
  $("allow-takeover").addEventListener("change", (e) => act("allow_bot_takeover", { allow: e.target.checked }));
  $("allow-helpers").addEventListener("change", (e) => act("allow_helpers", { allow: e.target.checked }));
  $("phoneless-ready").addEventListener("change", (e) => act("phoneless_ready", { ready: e.target.checked }));
  $("person-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("person-name").value.trim();
    if (name && (await act("add_person", { name })).ok) $("person-name").value = "";
  });

  /* Tapping a seat: its rejoin QR (for a borrowed phone), and the host's seat controls. */
  view.openPanel = (seat) => openPanel(seat);
  let panelSeat = null;
  let panelMinutes = null; // how long the rejoin QR on show lasts
  async function openPanel(seat) {
    panelSeat = seat;
    $("panel-qr").removeAttribute("src");
    $("panel-qr").hidden = true;
    $("panel-reveal").hidden = false;
    $("panel-help").textContent = "";
    panelMinutes = null;
    renderPanel();
    $("seat-panel").hidden = false;
    $("panel-close").focus();
    const ack = await link.send("rejoin_code", { seat });
    if (ack.ok && panelSeat === seat) {
      $("panel-qr").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(ack.svg)}`;
      panelMinutes = ack.minutes;
      renderPanel();
    } else if (!ack.ok) $("panel-help").textContent = ack.error.message;
  }
  function closePanel() {
    panelSeat = null;
    $("seat-panel").hidden = true;
  }
  function renderPanel() {
    if (panelSeat === null) return;
    const seat = view.state.room.seats[panelSeat];
    if (!seat || !view.state.game) return closePanel();
    $("panel-name").textContent = seat.name;
    $("panel-health").textContent = healthText(seat) || t("health.connected");
    if (panelMinutes) $("panel-help").textContent = tn("tv.panel_help", panelMinutes);
    const seatsCan = view.state.room.you.seats_can; // the seats the host may hand over now, as the server says
    $("panel-release").hidden = !seatsCan.release.includes(panelSeat);
    $("panel-bot").hidden = !seatsCan.bot_seat.includes(panelSeat);
    const row = view.state.game.mode === "real" && view.state.game.seats[panelSeat]; // its hand, to enter on the TV
    $("panel-enter").hidden = !row || seat.phoneless || !seat.connected || row.entered || !row.can.includes("points");
  }
  $("panel-close").addEventListener("click", closePanel);
  $("panel-reveal").addEventListener("click", () => { $("panel-reveal").hidden = true; $("panel-qr").hidden = false; });
  $("panel-bot").addEventListener("click", async () => {
    await act("bot_seat", { seat: panelSeat, strength: $("bot-strength").value });
    closePanel();
  });
  $("panel-release").addEventListener("click", async () => { await act("release", { seat: panelSeat }); closePanel(); });
  $("panel-remove").addEventListener("click", async () => { await act("remove", { seat: panelSeat }); closePanel(); });
  $("panel-enter").addEventListener("click", () => {
    const seat = panelSeat;
    closePanel();
    modeOf(view.state.game).enterOnTv(seat);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    closePanel();
    drawer(false);
  });

  setInterval(() => { // health words age
    const mode = view.state && view.state.game && modeOf(view.state.game);
    if (mode) { mode.renderTable(); renderPanel(); }
  }, 5000);

  /* Each mode's module, loaded when a game of it is first seen (a Wi-Fi drop: asked for again). */
  const modeOf = modeLoader(MODES, () => render(view.state));

  const scoredKey = (game) => `${view.state.room.night.length}/${game.hand_no}/${game.scored}`;

  function render(next) {
    const said = happened; // the server's moments, as they came (the audience's reads who matched)
    const moments = momentsOf(happened);
    happened = [];
    view.state = next;
    $("opt-lock").checked = !!view.state.room.locked;
    // A table of a night of several tables says which, where the game's name stands.
    const night = view.state.room.in_night;
    document.querySelector(".brand").textContent = night ? t("night.table_of", night) : t("app.name");
    $("pace").textContent = t(`pace.${view.state.room.pace}`);
    const game = view.state.game;
    const mode = game && modeOf(game);
    if (game && !mode) return; // drawn once the mode's module is in
    setWild(game && game.wild_rank);
    const inLobby = !game;
    body.classList.toggle("real", (game ? game.mode : view.state.room.mode) === "real");
    $("lobby").hidden = !inLobby;
    $("to-night").hidden = !inLobby || location.pathname !== "/";
    $("table").hidden = inLobby;
    // A scored hand's end comes in turn (tv-scores.js): the table while the last discards turn over, then the
    // hands, then the totals (or the podium), unless the host closed them or asked for one again.
    const end = game && game.scored ? endOf(game) : null;
    const key = game ? scoredKey(game) : "";
    if (end && closedScores !== key) closedScores = null;
    if (hands && hands[0] !== key) hands = null;
    const auto = !!end && closedScores === null && end.part !== "table";
    $("scores").hidden = inLobby || !(showScores || auto || hands);
    $("info").textContent = game ? infoText(game, view.state.room) : t("tv.room", { code: room });
    if (inLobby) {
      $("shoe").hidden = true;
      renderLobby();
    } else {
      mode.renderTable();
      seatGrid($("seats").children.length);
      fitCall();
      fitMelds();
      if (game.scored) $("banner").hidden = true;
      renderScores(mode, hands ? hands[1] : !end || end.part === "table" ? "totals" : end.part);
      // At the end, the ways on (again, or another rule set) instead of back to a table that is over.
      $("to-lobby").hidden = !game.game_over; // the seats kept; another rule set, or the other way to play
      $("hide-scores").hidden = game.game_over;
      // The call, said (the winner's is said when the podium names them: tv-scores.js), and the moment's sting.
      if (!game.game_over) say(`${mode.call(view.state)} ${falseText(game, view.state.room.seats)}`.trim());
      play(moments);
      cheer(said);
    }
    for (const loaded of Object.values(modeOf.loaded)) loaded.refresh(); // an open pad follows the state, or closes
    if (game) fitCall(); // the call again, if the pad closed over it
    renderPanel();
    renderAudience();
  }
});
