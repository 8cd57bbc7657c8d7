/* The phone: join, then play with one thumb. Every action is refused or accepted by the server. */
"use strict";

I18N.ready.then(() => {
  const { el, cardFace, callText, infoText, store } = PR;
  const { t, tn } = I18N;
  const room = document.body.dataset.room;
  const tokenKey = `pr.token.${room}`;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let wasConnected = false;
  let lastCall = "";
  let noticeTimer = null;
  let clocks = {}; // the hurry and match-window deadlines on this page's clock, set when a state arrives
  let pressed = null; // the button just pressed: shown pressed until the server answers
  document.addEventListener("pointerdown", (e) => { pressed = e.target.closest("button"); }, true);

  const link = PR.connect("player", room, () => store(tokenKey), render);
  // A rejoin QR from the TV carries a one-time ticket in the fragment (never sent to the server in a URL).
  const claim = new URLSearchParams(location.hash.slice(1)).get("claim");
  link.socket.on("connect", () => {
    document.body.classList.remove("offline");
    if (wasConnected && store(tokenKey)) notice(t("phone.back"));
    wasConnected = true;
    if (claim && location.hash) {
      history.replaceState(null, "", location.pathname); // a reload must not spend the ticket again
      act("claim", { ticket: claim }).then((ack) => {
        if (ack.ok) {
          store(tokenKey, ack.token);
          notice(t("phone.claimed"));
        }
      });
    }
  });
  // Lost: say so and stop the buttons (they cannot work) until the socket is back.
  link.socket.on("disconnect", () => { document.body.classList.add("offline"); notice(t("phone.lost"), true); });
  // The server's refusal comes in this phone's language; a network failure has only the client's words.
  link.socket.on("connect_error", (err) => notice(err.data && err.data.code ? err.message : t("phone.unreachable"), true));
  link.socket.on("notice", (n) => {
    if (n.code === "removed" || n.code === "released") store(tokenKey, null);
    if (n.code === "replaced") link.socket.disconnect(); // the other device has the seat; reload to take it back
    notice(n.message, true);
  });

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
  $("sort").value = store("pr.sort") || "melds";
  $("sort").addEventListener("change", () => { store("pr.sort", $("sort").value); render(state); });
  I18N.onChange(() => render(state));

  $("notice").addEventListener("click", () => { $("notice").hidden = true; }); // read: tap it away

  function notice(message, sticky) {
    const box = $("notice");
    box.textContent = message;
    box.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { box.hidden = true; }, sticky ? 6000 : 3000);
  }

  async function act(event, data) {
    const button = pressed;
    pressed = null;
    if (button) button.classList.add("pending"); // the press shows at once; the server's answer confirms it
    const ack = await link.send(event, data);
    if (button) button.classList.remove("pending");
    if (!ack.ok) notice(ack.error.message);
    return ack;
  }

  $("name").addEventListener("input", () => {
    $("name-note").textContent = $("name").value.length >= 20 ? t("phone.name_limit") : "";
  });

  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("name").value.trim();
    store("pr.name", name);
    const ack = await act("join", { name });
    if (ack.ok) {
      store(tokenKey, ack.token);
      link.sync();
    }
  });
  $("not-you").addEventListener("click", () => {
    store(tokenKey, null);
    link.socket.disconnect().connect(); // reconnect as a guest
  });
  $("vip-start").addEventListener("click", () => act("start"));
  $("coach-ok").addEventListener("click", () => { store("pr.coached", "1"); $("coach").hidden = true; });
  $("vip-pause").addEventListener("click", () => act("pause", { paused: !state.room.paused }));
  $("vip-call").addEventListener("click", () => act("call_now"));
  $("vip-next").addEventListener("click", () => act("call_now"));
  $("vip-again").addEventListener("click", () => act("start"));
  $("draw-shoe").addEventListener("click", () => act("draw", { source: "shoe", cycle: state.game.cycle }));
  $("draw-pile").addEventListener("click", () => act("draw", { source: "pile", cycle: state.game.cycle }));
  $("match").addEventListener("click", () => act("match"));

  async function takeSeat(seat) {
    const name = $("name").value.trim();
    if (!name) {
      notice(t("phone.type_name"));
      $("name").focus();
      return;
    }
    store("pr.name", name);
    const ack = await act("take", { seat, name });
    if (ack.ok) store(tokenKey, ack.token);
  }

  function render(next) {
    if (!next) return;
    state = next;
    const me = state.room.you;
    const seated = me.role === "player";
    const game = state.game;
    const dealtIn = seated && game && !game.you.waiting;
    PR.setWild(game && game.wild_rank);
    const now = performance.now();
    const at = (secs) => (secs === null || secs === undefined ? null : now + secs * 1000);
    clocks = { hurryStart: at(state.room.hurry && state.room.hurry.starts_in), hurryEnd: at(state.room.hurry && state.room.hurry.ends_in), matchEnd: at(state.room.match_ends_in) };
    // A seat someone left is open to anyone; a bot's only if the host allows it.
    const playing = state.game && !state.game.game_over;
    const left = playing ? state.room.seats.filter((s) => s.open) : [];
    const bots = playing && state.room.allow_bot_takeover ? state.room.seats.filter((s) => s.bot) : [];
    const open = [...left, ...bots];
    const full = !state.room.can_join;
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
    $("watch-note").textContent = t(state.room.can_join ? "phone.join_late" : "phone.watching");
    $("watch-note").hidden = !$("full-note").hidden; // "the table is full" says it already
    if (!seated && game) renderWatching(game);
    $("waiting").hidden = !seated || dealtIn;
    $("play").hidden = !dealtIn;
    if (seated && !dealtIn) renderWaiting(me);
    if (dealtIn) renderPlay(me, game);
  }

  function renderWatching(game) {
    $("watch-call").textContent = callText(state);
    $("watch-info").textContent = infoText(game);
    const seats = state.room.seats;
    const order = seats.map((s, i) => i).filter((i) => i < game.totals.length).sort((a, b) => game.totals[a] - game.totals[b]);
    $("watch-scores").replaceChildren(...order.map((i) => el("li", { text: `${seats[i].name}: ${game.totals[i]}` })));
  }

  function neighbourWords(seat) {
    const seats = state.room.seats;
    const n = seats.length;
    if (n < 2) return "";
    const right = seats[(seat - 1 + n) % n].name;
    const left = seats[(seat + 1) % n].name;
    const variant = state.room.variants.find((v) => v.name === state.room.variant);
    return t(variant && variant.pacing === "turns" ? "phone.order_turns" : "phone.order_piles", { right, left });
  }

  function renderWaiting(me) {
    const seat = state.room.seats[me.seat];
    const late = !!state.game && !state.game.game_over;
    $("welcome").textContent = t("phone.youre_in", { name: seat.name });
    $("neighbours").textContent = late ? "" : neighbourWords(me.seat);
    // The VIP starts the game themselves: no "waiting for the host" above their own Start.
    $("waiting-note").textContent = late ? tn("phone.dealt_next", state.game.totals[me.seat]) : me.controls ? "" : t("phone.wait_start");
    $("vip-lobby").hidden = !me.controls;
    $("vip-start").disabled = state.room.seats.length < state.room.min_players;
  }

  function renderPlay(me, game) {
    const you = game.you;
    const seats = state.room.seats;
    const mine = game.seats[you.seat];
    const phase = game.phase;
    const call = callText(state);
    $("p-info").textContent = infoText(game);
    $("p-score").textContent = `${seats[you.seat].name} · ${tn("points", game.totals[you.seat])}`;
    $("p-call").textContent = call;
    document.body.classList.toggle("paused", !!state.room.paused);
    if (call !== lastCall) {
      lastCall = call;
      if (navigator.vibrate && /!/.test(call)) navigator.vibrate(120);
    }
    const myTurn = game.turn === null || game.turn === you.seat; // with turns, one player at a time
    const paused = !!state.room.paused; // the table stops: nothing to tap until the host resumes
    const drawing = !paused && (phase === "draw" || phase === "last_draw") && !mine.drawn && !mine.matched && myTurn;
    const choosing = !paused && !!you.drawn && !mine.matched && phase !== "reveal";
    $("draw-choices").hidden = !drawing;
    const top = you.take.top;
    const turns = game.pacing === "turns";
    const name = seats[you.right].name;
    const pile = $("draw-pile");
    const words = top
      ? t(turns ? "phone.take_pile" : "phone.take_right", { card: top.label, name })
      : t(turns ? "phone.pile_empty" : "phone.right_empty", { name });
    pile.replaceChildren(words);
    pile.disabled = !top;
    pile.setAttribute("aria-label", words);
    if (top) pile.prepend(cardFace(top, "on-button"));
    $("p-where").textContent = whereText(game, you, mine);
    renderHand(game, you, choosing);
    const over = !!game.results; // after a hand: the results lead, the hand steps aside
    for (const id of ["hand", "pick-note", "p-where"]) $(id).hidden = over;
    document.querySelector(".hand-tools").hidden = over;
    const canMatch = !paused && (phase === "reveal" || phase === "setup") && !mine.matched;
    // Match! is worth its full weight only when the hand is complete; otherwise it stays, quietly.
    const complete = !!you.hint && you.hint.penalty === 0 && you.hand.length === game.size;
    $("match-row").hidden = !canMatch;
    $("match").classList.toggle("ready", complete);
    const closing = choosing && you.pick !== null && game.waiting_for.length === 0; // the caller is about to flip
    $("pick-note").textContent = choosing
      ? you.pick === null ? t("phone.tap_discard") : t("phone.discarding", { card: game.you.hand.find((c) => c.id === you.pick).label })
      : "";
    $("pick-note").classList.toggle("closing", closing);
    $("p-step").textContent = stepText(game, you, mine, { drawing, choosing, closing, complete, paused, canMatch });
    renderClocks();
    renderResults(game, seats);
    // The coach: through the first hand, until dismissed; remembered on this device.
    $("coach").hidden = game.hand_no !== 1 || !!game.results || store("pr.coached") === "1";
    $("vip-play").hidden = !me.controls;
    $("vip-pause").textContent = t(state.room.paused ? "action.resume" : "action.pause");
    $("vip-next").hidden = !(phase === "scored" && !game.game_over);
    $("vip-again").hidden = !game.game_over;
    $("vip-call").hidden = phase === "scored" || game.game_over;
    $("vip-pause").hidden = game.game_over;
  }

  /* The biggest words: what this player does now, or whom they wait for. */
  function stepText(game, you, mine, now) {
    if (now.paused) return t("call.paused");
    if (game.game_over || game.phase === "scored") return rankText(game, you.seat);
    if (mine.matched) return t(game.pacing === "turns" ? "phone.went_out" : "phone.matched");
    if (now.drawing) return t("step.draw");
    if (now.choosing) return now.closing ? t("step.closing") : you.pick === null ? t("step.discard") : t("step.picked");
    if (now.canMatch && now.complete) return t("step.match_now");
    const others = game.waiting_for.filter((s) => s !== you.seat);
    if (others.length && others.length <= 3) return t("step.wait_for", { names: I18N.list(others.map((s) => state.room.seats[s].name)) });
    return t("step.wait");
  }

  function rankText(game, seat) {
    const rank = 1 + game.totals.filter((v) => v < game.totals[seat]).length;
    return t("phone.rank", { rank, n: game.totals.length, points: tn("points", game.totals[seat]) });
  }

  /* This seat's countdown before the caller plays for it, and the match window's clock. */
  function renderClocks() {
    if (!state || !state.game || !state.game.you || state.game.you.waiting) return;
    const now = performance.now();
    const { hurryStart, hurryEnd, matchEnd } = clocks;
    const mineSlow = state.game.waiting_for.includes(state.game.you.seat);
    const hurry = $("p-hurry");
    hurry.hidden = !mineSlow || !hurryEnd || now < hurryStart || now > hurryEnd;
    if (!hurry.hidden) hurry.textContent = t("phone.hurry", { n: Math.max(0, Math.ceil((hurryEnd - now) / 1000)) });
    hurry.dataset.endsAt = hurryEnd ? String(Math.round(performance.timeOrigin + hurryEnd)) : ""; // wall-clock ms, for tests
    const left = matchEnd ? Math.ceil((matchEnd - now) / 1000) : 0;
    $("match-clock").textContent = left > 0 && left < 600 ? `⏱ ${left}` : "";
  }
  setInterval(renderClocks, 200);

  function whereText(game, you, mine) {
    if (mine.matched) return t(game.pacing === "turns" ? "phone.went_out" : "phone.matched");
    const left = state.room.seats[you.left].name;
    const myTop = mine.pile_top;
    if (game.phase === "reveal" && myTop) return t("phone.onto_pile", { card: myTop.label, name: left });
    if (you.drawn) return t("phone.drew", { card: you.drawn.label });
    if (game.pacing === "turns" && game.turn !== you.seat && game.pile && game.pile.top) return t("phone.on_pile", { card: game.pile.top.label });
    return "";
  }

  function renderHand(game, you, choosing) {
    const hint = you.hint;
    $("hint").textContent = hint ? t("phone.penalty", { n: hint.penalty }) : "";
    const byId = new Map(you.hand.map((c) => [c.id, c]));
    let groups;
    const mode = $("sort").value;
    if (mode === "melds" && hint) {
      groups = [...hint.melds.map((m) => m.map((id) => byId.get(id))), hint.orphans.map((id) => byId.get(id))];
      if (you.pick !== null && byId.has(you.pick)) groups.push([byId.get(you.pick)]);
    } else {
      const key = mode === "rank" ? (c) => c.rank * 4 + c.suit : (c) => c.suit * 14 + c.rank;
      groups = [[...you.hand].sort((a, b) => key(a) - key(b))];
    }
    const list = $("hand");
    list.replaceChildren(
      ...groups.filter((g) => g.length).map((group, gi) =>
        el("li", { class: `group ${mode === "melds" && hint && gi < hint.melds.length ? "is-meld" : ""}` },
          ...group.map((card) => {
            const picked = you.pick === card.id;
            const button = el("button", {
              type: "button",
              class: `card-button ${picked ? "picked" : ""} ${you.drawn && you.drawn.id === card.id ? "new" : ""}`,
              "aria-pressed": choosing ? String(picked) : null,
              "aria-label": card.label,
              disabled: !choosing,
              onclick: () => act("choose", { card_id: card.id, cycle: game.cycle }),
            }, cardFace(card));
            return button;
          })),
      ),
    );
  }

  /* After a hand: this player's own line and place first, then the table by rank with running totals. */
  function renderResults(game, seats) {
    const box = $("p-results");
    const results = game.results;
    box.hidden = !results;
    if (!results) return;
    const me = game.you.seat;
    const dealt = seats.slice(0, game.totals.length);
    const order = dealt.map((s, i) => i).sort((a, b) => game.totals[a] - game.totals[b]);
    const own = results.find((r) => r.seat === me);
    box.replaceChildren(
      el("h2", { text: t("phone.hand_scores", { hand: game.hand_no }) }), // the winners are in the call above
      own ? el("div", { class: "result" },
        el("span", { text: t("phone.this_hand", { points: tn("points", own.penalty) }) }),
        ...own.melds.map((m) => el("span", { class: "meld" }, ...m.map((c) => cardFace(c)))),
        ...own.orphans.map((c) => cardFace(c, "orphan"))) : null,
      el("h2", { text: t("phone.table_rank") }),
      el("ol", { class: "standings" }, ...order.map((i) =>
        el("li", { class: i === me ? "me" : "", text: `${seats[i].name}: ${game.totals[i]}` }))),
    );
  }
});
