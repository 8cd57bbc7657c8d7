/* The TV: caller and scorekeeper. It holds no state of its own: everything comes from the room.
   This module connects and dispatches; each screen lives in its own: tv-lobby, tv-table, tv-scores (with tv-chart),
   tv-voice, and each mode's table: tv-phones, or tv-real (the host's pad and picker, tv-pad and tv-picker, load
   when first opened). */
import { setWild } from "./cards.js";
import { connect, infoText, modeLoader, store } from "./common.js";
import { onChange, ready, t, tn } from "./i18n.js";
import { renderAudience, wireAudience } from "./tv-audience.js";
import { renderLobby } from "./tv-lobby.js";
import { renderScores } from "./tv-scores.js";
import { $, act, room, view } from "./tv-shared.js";
import { healthText, setClocks } from "./tv-table.js";
import { announce, sayAgain } from "./tv-voice.js";

/* Each mode's module: a night played one way never loads the other's (tests/test_weight.py counts each night). */
const MODES = { phones: () => import("./tv-phones.js"), real: () => import("./tv-real.js") };

ready.then(() => {
  const body = document.body;
  const hostToken = body.dataset.hostToken;
  let showScores = false;
  let closedScores = null; // the scored hand whose scores the host closed with "Back to the table"
  // The table's small join QR is the lobby's, drawn once in the page (one copy on the wire).
  $("table-qr").append($("lobby-qr").firstElementChild.cloneNode(true));

  const link = connect("host", room, () => hostToken, render);
  view.link = link;
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
  $("hide-scores").addEventListener("click", () => {
    showScores = false;
    closedScores = view.state.game ? `${view.state.game.hand_no}/${view.state.game.phase}` : null;
    render(view.state);
  });
  $("opt-lock").addEventListener("change", (e) => act("lock", { locked: e.target.checked }));
  $("allow-takeover").addEventListener("change", (e) => act("allow_bot_takeover", { allow: e.target.checked }));
  $("allow-helpers").addEventListener("change", (e) => act("allow_helpers", { allow: e.target.checked }));
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
    $("panel-release").hidden = seat.open || seat.waiting || seat.phoneless || view.state.game.game_over;
    $("panel-bot").hidden = !!seat.bot || seat.waiting || view.state.game.game_over || view.state.game.mode === "real";
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
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closePanel(); });

  setInterval(() => { // health words age
    const mode = view.state && view.state.game && modeOf(view.state.game);
    if (mode) { mode.renderTable(); renderPanel(); }
  }, 5000);

  /* Each mode's module, loaded when a game of it is first seen (a Wi-Fi drop: asked for again). */
  const modeOf = modeLoader(MODES, () => render(view.state));

  function render(next) {
    view.state = next;
    view.received = Date.now();
    setClocks(view.state.room);
    $("opt-lock").checked = !!view.state.room.locked;
    $("pace").textContent = t(`pace.${view.state.room.pace}`);
    const game = view.state.game;
    const mode = game && modeOf(game);
    if (game && !mode) return; // drawn once the mode's module is in
    setWild(game && game.wild_rank);
    const inLobby = !game;
    body.classList.toggle("real", (game ? game.mode : view.state.room.mode) === "real");
    $("lobby").hidden = !inLobby;
    $("table").hidden = inLobby;
    const scored = game && (game.phase === "scored" || game.game_over);
    if (scored && closedScores !== `${game.hand_no}/${game.phase}`) closedScores = null;
    $("scores").hidden = inLobby || !(showScores || (scored && closedScores === null));
    $("info").textContent = game ? infoText(game, view.state.room) : t("tv.room", { code: room });
    if (inLobby) renderLobby();
    else {
      mode.renderTable();
      renderScores(mode);
      $("to-lobby").hidden = !game.game_over; // the seats kept; another rule set, or the other way to play
      announce(mode);
    }
    for (const loaded of Object.values(modeOf.loaded)) loaded.refresh(); // an open pad follows the state, or closes
    renderPanel();
    renderAudience();
  }
});
