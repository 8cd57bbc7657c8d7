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
  let closedScores = null; // the scored hand whose scores the host closed with "Back to the table"
  let clocks = {}; // the hurry and match-window deadlines, on this page's clock, set when a state arrives
  let lastPhase = "";
  let audio = null;

  const link = PR.connect("host", room, () => hostToken, render);
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
  $("show-scores").addEventListener("click", () => { showScores = true; closedScores = null; render(state); });
  $("hide-scores").addEventListener("click", () => {
    showScores = false;
    closedScores = state.game ? `${state.game.hand_no}/${state.game.phase}` : null;
    render(state);
  });
  $("allow-takeover").addEventListener("change", (e) => act("allow_bot_takeover", { allow: e.target.checked }));

  /* Tapping a seat: its rejoin QR (for a borrowed phone), and the host's seat controls. */
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
    const seat = state.room.seats[panelSeat];
    if (!seat || !state.game) return closePanel();
    $("panel-name").textContent = seat.name;
    $("panel-health").textContent = healthText(seat) || t("health.connected");
    if (panelMinutes) $("panel-help").textContent = tn("tv.panel_help", panelMinutes);
    $("panel-release").hidden = seat.open || seat.waiting || state.game.game_over;
    $("panel-bot").hidden = !!seat.bot || seat.waiting || state.game.game_over;
  }
  $("panel-close").addEventListener("click", closePanel);
  $("panel-reveal").addEventListener("click", () => { $("panel-reveal").hidden = true; $("panel-qr").hidden = false; });
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
  setInterval(() => { if (state && state.game) { renderTable(); renderPanel(); } }, 5000); // health words age

  /* Deadlines as this page's times: the server sends the time left; counted from when it arrived, they
     stay put however often the page draws itself again. */
  function setClocks(room) {
    const now = performance.now();
    const at = (s) => (s === null || s === undefined ? null : now + s * 1000);
    clocks = room.hurry ? { hurryStart: at(room.hurry.starts_in), hurryEnd: at(room.hurry.ends_in) } : {};
    clocks.matchEnd = at(room.match_ends_in);
  }

  function render(next) {
    state = next;
    received = Date.now();
    setClocks(state.room);
    const game = state.game;
    PR.setWild(game && game.wild_rank);
    const inLobby = !game;
    $("lobby").hidden = !inLobby;
    $("table").hidden = inLobby;
    const scored = game && (game.phase === "scored" || game.game_over);
    if (scored && closedScores !== `${game.hand_no}/${game.phase}`) closedScores = null;
    $("scores").hidden = inLobby || !(showScores || (scored && closedScores === null));
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
        const item = el(
          "li",
          { class: `ring-seat ${s.health === "reconnecting" || s.health === "gone" ? "offline" : ""}` },
          el("span", { class: "dot", "aria-hidden": "true" }),
          el("span", { class: "seat-name", text: s.name }),
          s.vip ? el("span", { class: "badge", text: t("tv.vip") }) : null,
          s.bot ? el("span", { class: "badge", text: `🤖 ${t("tv.bot")}` }) : null,
          el("button", { type: "button", class: "small", "aria-label": t("tv.move_left", { name: s.name }), onclick: () => act("move", { seat: i, to: Math.max(0, i - 1) }) }, "◀"),
          el("button", { type: "button", class: "small", "aria-label": t("tv.move_right", { name: s.name }), onclick: () => act("move", { seat: i, to: Math.min(seats.length - 1, i + 1) }) }, "▶"),
          el("button", { type: "button", class: "small", "aria-label": t("tv.remove", { name: s.name }), onclick: () => act("remove", { seat: i }) }, "✕"),
        );
        item.style.setProperty("--seat-colour", s.colour);
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
    const full = seats.length >= state.room.max_players;
    $("add-bot").disabled = full;
    $("scan").textContent = t(full ? "tv.table_full" : "tv.scan");
    $("scan").classList.toggle("full", full);
    renderTakeover();
    $("night").replaceChildren(...nightList());
  }

  /* The host's say on late guests taking a bot's seat (the server may not offer the option). */
  function renderTakeover() {
    const known = "allow_bot_takeover" in state.room;
    $("takeover-box").hidden = !known;
    if (known) $("allow-takeover").checked = !!state.room.allow_bot_takeover;
  }

  function nightList() {
    return state.room.night.map((g, i) => el("p", { text: t("tv.night_game", { game: i + 1, winners: g.winners.length ? I18N.list(g.winners) : t("tv.no_winner") }) }));
  }

  function renderTable() {
    const game = state.game;
    const seats = state.room.seats;
    renderCall(callText(state));
    renderWaiting(game, seats);
    const full = seats.length >= state.room.max_players;
    $("table-join").hidden = full || !state.room.can_join;
    $("table-code").textContent = room;
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
      const flip = game.phase === "reveal" && lastPhase !== "reveal";
      return seatTile(seat, s.matched, waiting,
        game.pile ? null : el("div", { class: "pile", "aria-label": t("tv.pile_of", { name: seat.name }) }, cardFace(s.pile_top, flip ? "flip" : "")),
        el("div", { class: "seat-line", text: line.join(" · ") }),
        el("div", { class: "seat-status", text: status ? t(`status.${status}`) : "" }));
    });
    const newcomers = seats.filter((seat) => seat.waiting).map((seat) =>
      seatTile(seat, false, false, el("div", { class: "seat-status", text: t("status.next_hand") })));
    $("seats").replaceChildren(...tiles, ...newcomers);
    lastPhase = game.phase;
    renderClocks();
  }

  /* The call: the shout on the big line, the rest smaller below; shrunk until it fits its box. */
  function renderCall(text) {
    const cut = text.search(/[!…]\s/);
    const big = cut > 0 ? text.slice(0, cut + 1) : text;
    const small = cut > 0 ? text.slice(cut + 2) : "";
    const box = $("call");
    if (box.dataset.text === text && box.dataset.width === String(innerWidth)) return;
    box.dataset.text = text;
    box.dataset.width = String(innerWidth);
    $("call-big").textContent = big;
    $("call-small").textContent = small ? ` ${small}` : ""; // the space: one sentence to read aloud and to search
    const line = $("call-big");
    let size = 1;
    line.style.fontSize = "";
    while (size > 0.3 && (line.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight + 1)) {
      size -= 0.05;
      line.style.fontSize = `${size}em`;
    }
  }

  /* While the table waits for one or a few players, the TV names them. */
  function renderWaiting(game, seats) {
    const acting = ["draw", "choose", "last_draw", "last_choose"].includes(game.phase);
    const slow = acting ? game.waiting_for : [];
    const few = slow.length && slow.length <= 3 && slow.length < game.seats.length;
    $("waiting-names").textContent = !slow.length ? "" : few
      ? t("tv.waiting_for", { names: I18N.list(slow.map((s) => seats[s].name)) })
      : t("tv.waiting_many", { n: slow.length });
  }

  /* One seat on the table: a button, so the host can tap it for the seat's rejoin QR and controls. */
  function seatTile(seat, matched, thinking, ...lines) {
    // A bot's seat is a healthy seat: marked as a bot, never drawn like a lost phone.
    const health = seat.bot ? "" : healthText(seat);
    const lost = seat.health === "reconnecting" || seat.health === "gone";
    const item = el("li", { class: `seat ${matched ? "is-matched" : ""} ${lost ? "offline" : ""} ${thinking ? "waiting" : "done"}` },
      el("button", { type: "button", class: "seat-tap", "aria-label": t("tv.seat_tap", { name: seat.name }), onclick: () => openPanel(seat.seat) },
        el("div", { class: "seat-head" }, el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "seat-name", text: seat.name }),
          seat.bot ? el("span", { class: "bot-mark", text: ` 🤖 ${t("tv.bot")}` }) : null),
        ...lines,
        health ? el("div", { class: "seat-health", text: health }) : null));
    item.style.setProperty("--seat-colour", seat.colour);
    return item;
  }

  /* The hurry countdown and the match window's clock, from the deadlines (never reset by a redraw). */
  function renderClocks() {
    if (!state || !state.game) return;
    const now = performance.now();
    const box = $("countdown");
    const { hurryStart, hurryEnd, matchEnd } = clocks;
    box.hidden = !hurryEnd || now < hurryStart || now > hurryEnd;
    if (!box.hidden) box.textContent = t("tv.hurry", { n: Math.max(0, Math.ceil((hurryEnd - now) / 1000)) });
    const match = $("match-clock");
    const left = matchEnd ? Math.ceil((matchEnd - now) / 1000) : 0;
    match.hidden = !(left > 0 && left < 600); // a window held open for the host shows no clock
    if (!match.hidden) match.textContent = t("tv.match_clock", { n: left });
  }
  setInterval(renderClocks, 200);

  function renderScores() {
    const game = state.game;
    const seats = state.room.seats;
    const scored = game.phase === "scored" || game.game_over;
    $("scores-title").textContent = game.game_over ? callText(state) : scored ? t("tv.hand_scored", { hand: game.hand_no }) : t("tv.scores");
    $("next-hand").hidden = game.game_over || game.phase !== "scored";
    $("play-again").hidden = !game.game_over;
    $("csv").setAttribute("href", `/room/${room}/scores.csv?lang=${encodeURIComponent(I18N.lang)}`);
    $("night-scores").replaceChildren(...(game.game_over ? nightList() : []));
    const order = seats.map((s, i) => i).filter((i) => i < game.totals.length).sort((a, b) => game.totals[a] - game.totals[b]);
    const head = el("tr", {}, el("th", { scope: "col", text: t("tv.player") }),
      ...game.history.map((h, i) => el("th", { scope: "col", text: `${i + 1}` })),
      el("th", { scope: "col", text: t("tv.total") }));
    const rows = order.map((i) => {
      const winner = game.game_over && (game.winners || []).includes(i);
      return el("tr", { class: winner ? "winner" : "" },
        el("th", { scope: "row" }, el("span", { class: "dot", "aria-hidden": "true" }), seats[i].name, winner ? " 🏆" : ""),
        ...game.history.map((h) => el("td", { text: h[i] ?? "–" })),
        el("td", { class: "total", text: game.totals[i] }),
      );
    });
    rows.forEach((row, k) => row.style.setProperty("--seat-colour", seats[order[k]].colour));
    $("score-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
    drawChart(game, seats);
  }

  /* Running totals, one line per seat; each line ends in its player's initials, spread so none overlap
     (the table beside is the legend: the same colour dot before each full name). Sizes in viewBox units:
     32 is ≥ 24 px on a 1080p TV. */
  function drawChart(game, seats) {
    const svg = $("chart");
    const ns = "http://www.w3.org/2000/svg";
    const hands = game.hands_total;
    const dealt = seats.slice(0, game.totals.length);
    const running = dealt.map((_, i) => {
      let sum = 0;
      return [0, ...game.history.map((h) => (sum += h[i] || 0))];
    });
    const top = Math.max(10, ...running.flat());
    const x = (h) => 30 + (h * 660) / hands;
    const y = (v) => 560 - (v * 540) / top;
    const text = (attrs, words) => {
      const node = document.createElementNS(ns, "text");
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      node.textContent = words;
      return node;
    };
    const parts = [];
    for (let h = 1; h <= hands; h += hands > 6 ? 2 : 1) parts.push(text({ x: x(h), y: 615, class: "axis", "font-size": 32 }, String(h)));
    const labels = running.map((points, i) => ({ i, y: y(points[points.length - 1]) + 10 })).sort((a, b) => a.y - b.y);
    labels.forEach((l, k) => { l.y = Math.max(l.y, k ? labels[k - 1].y + 40 : 32); });
    const over = labels.length ? labels[labels.length - 1].y - 572 : 0;
    if (over > 0) labels.forEach((l) => { l.y -= over; });
    running.forEach((points, i) => {
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", points.map((v, h) => `${x(h)},${y(v)}`).join(" "));
      line.setAttribute("class", "series");
      line.style.setProperty("stroke", dealt[i].colour);
      parts.push(line);
    });
    for (const l of labels) {
      const label = text({ x: x(running[l.i].length - 1) + 8, y: l.y, class: "series-label", "font-size": 32 }, initials(dealt[l.i].name));
      label.style.setProperty("fill", dealt[l.i].colour);
      parts.push(label);
    }
    svg.replaceChildren(...parts);
  }

  function initials(name) {
    const words = name.trim().split(/\s+/);
    const letters = words.length > 1 ? words.slice(0, 2).map((w) => [...w][0]) : [...words[0]].slice(0, 2);
    return letters.join("").toLocaleUpperCase(I18N.lang);
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
