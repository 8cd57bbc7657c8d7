/* The TV: caller and scorekeeper. It holds no state of its own: everything comes from the room. */
"use strict";

I18N.ready.then(() => {
  const { el, cardFace, callText, infoText, store } = PR;
  const { t, tn } = I18N;
  const body = document.body;
  const room = body.dataset.room;
  const hostToken = body.dataset.hostToken;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let lastCall = "";
  let showScores = false;
  let countdownTimer = null;
  let audio = null;

  const link = PR.connect("host", room, () => hostToken, render);

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
  I18N.onChange(() => {
    lastCall = ""; // say the current call again, in the new language
    if (state) render(state);
  });

  async function act(event, data) {
    const ack = await link.send(event, data);
    if (!ack.ok) flash(ack.error.message);
  }
  function flash(message) {
    $("info").textContent = message;
  }

  $("start").addEventListener("click", () => act("start"));
  $("add-bot").addEventListener("click", () => act("add_bot", { strength: $("bot-strength").value }));
  $("variant").addEventListener("change", (e) => act("variant", { name: e.target.value }));
  $("pause").addEventListener("click", () => act("pause", { paused: !state.room.paused }));
  $("call-now").addEventListener("click", () => act("call_now"));
  $("next-hand").addEventListener("click", () => act("call_now"));
  $("play-again").addEventListener("click", () => act("start"));
  $("show-scores").addEventListener("click", () => { showScores = true; render(state); });
  $("hide-scores").addEventListener("click", () => { showScores = false; render(state); });

  /* Tapping a seat: its rejoin QR (for a borrowed phone), and the host's seat controls. */
  let panelSeat = null;
  let panelMinutes = null; // how long the rejoin QR on show lasts
  async function openPanel(seat) {
    panelSeat = seat;
    $("panel-qr").removeAttribute("src");
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
    const seat = state.room.seats[panelSeat];
    if (!seat || !state.game) return closePanel();
    $("panel-name").textContent = seat.name;
    $("panel-health").textContent = healthText(seat) || t("health.connected");
    if (panelMinutes) $("panel-help").textContent = tn("tv.panel_help", panelMinutes);
    $("panel-release").hidden = seat.open || seat.waiting || state.game.game_over;
    $("panel-bot").hidden = !!seat.bot || seat.waiting || state.game.game_over;
  }
  $("panel-close").addEventListener("click", closePanel);
  $("panel-bot").addEventListener("click", async () => {
    await act("bot_seat", { seat: panelSeat, strength: $("bot-strength").value });
    closePanel();
  });
  $("panel-release").addEventListener("click", async () => { await act("release", { seat: panelSeat }); closePanel(); });
  $("panel-remove").addEventListener("click", async () => { await act("remove", { seat: panelSeat }); closePanel(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closePanel(); });

  /* Connection health in words; "gone since" is worked out from when this state arrived. */
  let received = Date.now();
  function healthText(seat) {
    switch (seat.health) {
      case "open": return t("health.open");
      case "bot": return t("health.bot", { strength: t(`bot.${seat.bot}`) });
      case "reconnecting": {
        const goneFor = (seat.gone_for || 0) + (Date.now() - received) / 1000;
        if (goneFor < state.room.grace_s) return t("health.reconnecting");
      } // falls through: it has been too long
      case "gone": {
        const since = new Date(received - (seat.gone_for || 0) * 1000);
        return t("health.gone", { time: since.toLocaleTimeString(I18N.lang, { hour: "2-digit", minute: "2-digit" }) });
      }
      default: return "";
    }
  }
  setInterval(() => { if (state && state.game) { renderTable(); renderPanel(); } }, 5000);

  function render(next) {
    state = next;
    received = Date.now();
    const game = state.game;
    const inLobby = !game;
    $("lobby").hidden = !inLobby;
    $("table").hidden = inLobby;
    const scored = game && (game.phase === "scored" || game.game_over);
    $("scores").hidden = inLobby || !(showScores || scored);
    $("info").textContent = game ? infoText(game) : t("tv.room", { code: room });
    if (inLobby) renderLobby();
    else {
      renderTable();
      renderScores();
    }
    renderPanel();
    announce();
  }

  function renderLobby() {
    const seats = state.room.seats;
    const ring = $("ring");
    ring.replaceChildren(
      ...seats.map((s, i) => {
        const angle = (2 * Math.PI * i) / Math.max(seats.length, 2) - Math.PI / 2;
        const item = el(
          "li",
          { class: `ring-seat ${s.connected ? "" : "offline"}` },
          el("span", { class: "dot", "aria-hidden": "true" }),
          el("span", { class: "seat-name", text: s.name }),
          s.vip ? el("span", { class: "badge", text: t("tv.vip") }) : null,
          s.bot ? el("span", { class: "badge", text: `🤖 ${t(`bot.${s.bot}`)}` }) : null,
          el("button", { type: "button", class: "small", "aria-label": t("tv.move_left", { name: s.name }), onclick: () => act("move", { seat: i, to: Math.max(0, i - 1) }) }, "◀"),
          el("button", { type: "button", class: "small", "aria-label": t("tv.move_right", { name: s.name }), onclick: () => act("move", { seat: i, to: Math.min(seats.length - 1, i + 1) }) }, "▶"),
          el("button", { type: "button", class: "small", "aria-label": t("tv.remove", { name: s.name }), onclick: () => act("remove", { seat: i }) }, "✕"),
        );
        item.style.setProperty("--seat-colour", s.colour);
        item.style.setProperty("--x", `${Math.cos(angle) * 40 + 50}%`);
        item.style.setProperty("--y", `${Math.sin(angle) * 40 + 50}%`);
        return item;
      }),
    );
    const need = state.room.min_players;
    const count = [tn("tv.players_in", seats.length)];
    if (seats.length < need) count.push(tn("tv.need_more", need - seats.length));
    $("lobby-count").textContent = seats.length ? count.join(" · ") : t("tv.waiting_players");
    // A shipped variant's name and description come from the catalog; a house variant's are its own words.
    const words = (v, part) => (v.shipped ? t(`variant.${v.name}.${part}`) : part === "name" ? v.name : v.description);
    const select = $("variant");
    const menu = [I18N.lang, ...state.room.variants.map((v) => v.name)].join(" ");
    if (select.dataset.menu !== menu) { // rebuilt only when it changes: an open menu is not closed under the host
      select.dataset.menu = menu;
      select.replaceChildren(...state.room.variants.map((v) => el("option", { value: v.name, text: words(v, "name") })));
    }
    select.value = state.room.variant;
    const chosen = state.room.variants.find((v) => v.name === state.room.variant);
    $("variant-desc").textContent = chosen ? words(chosen, "description") : "";
    $("start").disabled = seats.length < need;
    $("night").replaceChildren(...nightList());
  }

  function nightList() {
    return state.room.night.map((g, i) => el("p", { text: t("tv.night_game", { game: i + 1, winners: g.winners.length ? I18N.list(g.winners) : t("tv.no_winner") }) }));
  }

  function renderTable() {
    const game = state.game;
    const seats = state.room.seats;
    $("call").textContent = callText(state);
    $("shoe").textContent = t("tv.shoe", { n: game.shoe_count });
    $("shared-pile").hidden = !game.pile; // turns: one pile for everyone, in the middle
    if (game.pile) $("shared-pile").replaceChildren(el("span", { text: t("tv.pile") }), cardFace(game.pile.top));
    $("pause").textContent = t(state.room.paused ? "action.resume" : "action.pause");
    $("pause").disabled = game.game_over;
    $("call-now").disabled = game.game_over || game.phase === "scored";
    $("melds").replaceChildren(
      ...game.matched.map((m) =>
        el("div", { class: "matched" },
          el("span", { class: "who", text: `${seats[m.seat].name}:` }),
          ...m.melds.map((meld) => el("span", { class: "meld" }, ...meld.map((c) => cardFace(c))))),
      ),
    );
    const tiles = game.seats.map((s) => {
      const seat = seats[s.seat];
      const waiting = game.waiting_for.includes(s.seat);
      const status = s.matched ? "matched" : s.picked ? "picked" : s.drawn ? (s.took_pile ? "took_pile" : "drew")
        : waiting ? (game.pile ? "their_turn" : "thinking") : null;
      const line = [tn("cards", s.cards), tn("points", game.totals[s.seat])];
      if (game.dealer === s.seat) line.push(t("tv.dealer"));
      return seatTile(seat, s.matched, waiting,
        game.pile ? null : el("div", { class: "pile", "aria-label": t("tv.pile_of", { name: seat.name }) }, cardFace(s.pile_top)),
        el("div", { class: "seat-line", text: line.join(" · ") }),
        el("div", { class: "seat-status", text: status ? t(`status.${status}`) : "" }));
    });
    const newcomers = seats.filter((seat) => seat.waiting).map((seat) =>
      seatTile(seat, false, false, el("div", { class: "seat-status", text: t("status.next_hand") })));
    $("seats").replaceChildren(...tiles, ...newcomers);
    renderCountdown();
  }

  /* One seat on the table: a button, so the host can tap it for the seat's rejoin QR and controls. */
  function seatTile(seat, matched, thinking, ...lines) {
    const health = healthText(seat);
    const item = el("li", { class: `seat ${matched ? "is-matched" : ""} ${seat.connected ? "" : "offline"} ${thinking ? "waiting" : "done"}` },
      el("button", { type: "button", class: "seat-tap", "aria-label": t("tv.seat_tap", { name: seat.name }), onclick: () => openPanel(seat.seat) },
        el("div", { class: "seat-head" }, el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "seat-name", text: seat.name })),
        ...lines,
        health ? el("div", { class: "seat-health", text: health }) : null));
    item.style.setProperty("--seat-colour", seat.colour);
    return item;
  }

  function renderCountdown() {
    clearInterval(countdownTimer);
    const box = $("countdown");
    const hurry = state.room.hurry;
    if (!hurry) {
      box.hidden = true;
      return;
    }
    const received = performance.now();
    const tick = () => {
      const elapsed = (performance.now() - received) / 1000;
      const toStart = hurry.starts_in - elapsed;
      const toEnd = hurry.ends_in - elapsed;
      box.hidden = toStart > 0 || toEnd < 0;
      box.textContent = t("tv.hurry", { n: Math.max(0, Math.ceil(toEnd)) });
    };
    tick();
    countdownTimer = setInterval(tick, 250);
  }

  function renderScores() {
    const game = state.game;
    const seats = state.room.seats;
    const scored = game.phase === "scored" || game.game_over;
    $("scores-title").textContent = game.game_over ? callText(state) : scored ? t("tv.hand_scored", { hand: game.hand_no }) : t("tv.scores");
    $("next-hand").hidden = game.game_over || game.phase !== "scored";
    $("play-again").hidden = !game.game_over;
    $("csv").setAttribute("href", `/room/${room}/scores.csv?lang=${encodeURIComponent(I18N.lang)}`);
    $("night-scores").replaceChildren(...(game.game_over ? nightList() : []));
    const results = game.results || [];
    const order = seats.map((s, i) => i).filter((i) => i < game.totals.length).sort((a, b) => game.totals[a] - game.totals[b]);
    const head = el("tr", {}, el("th", { scope: "col", text: t("tv.player") }),
      ...game.history.map((h, i) => el("th", { scope: "col", text: `${i + 1}` })),
      el("th", { scope: "col", text: t("tv.total") }), scored && !game.game_over ? el("th", { scope: "col", text: t("tv.this_hand") }) : null);
    const rows = order.map((i) => {
      const result = results.find((r) => r.seat === i);
      const winner = game.game_over && (game.winners || []).includes(i);
      return el("tr", { class: winner ? "winner" : "" },
        el("th", { scope: "row" }, el("span", { class: "dot", "aria-hidden": "true" }), seats[i].name, winner ? " 🏆" : ""),
        ...game.history.map((h) => el("td", { text: h[i] ?? "–" })),
        el("td", { class: "total", text: game.totals[i] }),
        scored && !game.game_over && result
          ? el("td", { class: "laid" }, ...result.melds.map((m) => el("span", { class: "meld" }, ...m.map((c) => cardFace(c)))),
            ...result.orphans.map((c) => cardFace(c, "orphan")))
          : null,
      );
    });
    rows.forEach((row, k) => row.style.setProperty("--seat-colour", seats[order[k]].colour));
    $("score-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
    drawChart(game, seats);
  }

  function drawChart(game, seats) {
    const svg = $("chart");
    const ns = "http://www.w3.org/2000/svg";
    const hands = game.hands_total;
    const running = seats.map((_, i) => {
      let sum = 0;
      return [0, ...game.history.map((h) => (sum += h[i] || 0))];
    });
    const top = Math.max(10, ...running.flat());
    const x = (h) => 40 + (h * 740) / hands;
    const y = (v) => 420 - (v * 390) / top;
    const parts = [];
    for (let h = 0; h <= hands; h++) {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", x(h)); t.setAttribute("y", 445); t.setAttribute("class", "axis");
      t.textContent = h ? String(h) : "";
      parts.push(t);
    }
    running.forEach((points, i) => {
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", points.map((v, h) => `${x(h)},${y(v)}`).join(" "));
      line.setAttribute("class", "series");
      line.style.setProperty("stroke", seats[i].colour);
      parts.push(line);
      const label = document.createElementNS(ns, "text");
      label.setAttribute("x", x(points.length - 1) + 6);
      label.setAttribute("y", y(points[points.length - 1]));
      label.setAttribute("class", "series-label");
      label.style.setProperty("fill", seats[i].colour);
      label.textContent = seats[i].name;
      parts.push(label);
    });
    svg.replaceChildren(...parts);
  }

  function announce() {
    const text = state.game ? callText(state) : "";
    if (!text || text === lastCall) return;
    lastCall = text;
    if ($("opt-sound").checked) beep();
    if ($("opt-speech").checked && "speechSynthesis" in window && /[!…]/.test(text)) {
      window.speechSynthesis.cancel();
      const utterance = new SpeechSynthesisUtterance(text.replace("…", ""));
      utterance.lang = I18N.lang;
      utterance.voice = voiceFor(I18N.lang);
      window.speechSynthesis.speak(utterance);
    }
  }

  if ("speechSynthesis" in window) window.speechSynthesis.getVoices(); // browsers load their voices on first ask

  /* A voice that speaks the TV's language (its region first: pt-BR over pt-PT), or none: the browser's default
     then reads it as best it can. */
  function voiceFor(lang) {
    const voices = window.speechSynthesis.getVoices();
    const norm = (tag) => tag.replace("_", "-").toLowerCase();
    return voices.find((v) => norm(v.lang) === norm(lang))
      || voices.find((v) => norm(v.lang).split("-")[0] === norm(lang).split("-")[0])
      || null;
  }

  function beep() {
    try {
      if (!audio || audio.state !== "running") return; // browsers allow sound only after a click
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.2, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.25);
    } catch (e) {
      /* no sound on this browser */
    }
  }
  document.addEventListener("click", () => {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
  });
});
