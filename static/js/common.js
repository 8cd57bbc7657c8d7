/* Shared by the TV and the phone: the socket, safe DOM building, the caller's words of both modes (from the catalog). */
import { io } from "../vendor/socket.io.esm.min.js";
import { replica } from "./delta.js";
import { lang, list, onChange, t, tn } from "./i18n.js";

/* What children may show: nodes, and strings or numbers as text. Nothing else ever becomes words on a screen
   (the DOM's own append and replaceChildren write `false` as "false": a `cond && el(…)` must show nothing),
   however deep the arrays. */
function shown(children) {
  return children.flat(Infinity).filter((c) => c instanceof Node || typeof c === "string" || (typeof c === "number" && !Number.isNaN(c)))
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
}

/* Put these children in place of a node's own, by `el`'s rule (`cond && el(…)` puts nothing). */
export function fill(node, ...children) {
  node.replaceChildren(...shown(children));
  return node;
}

/* Build an element; text always goes in as text (names are never HTML). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = typeof value === "string" || typeof value === "number" ? value : "";
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...shown(children));
  return node;
}

/* The module of each way to play a page draws (`modules`: mode -> its import), loaded when a game of that mode
   is first seen; one lost on the way (a Wi-Fi drop) is asked for again a second later. `modeOf(game)` is the
   loaded module, or null while it loads (then `ready(module)` runs once it is in); `modeOf.loaded` all so far. */
export function modeLoader(modules, ready) {
  const loaded = {};
  let loading = null;
  const load = (name) => modules[name]().then((module) => { loaded[name] = module; loading = null; ready(module); },
    () => setTimeout(() => load(name), 1000));
  const modeOf = (game) => {
    if (loaded[game.mode]) return loaded[game.mode];
    if (loading !== game.mode) load((loading = game.mode));
    return null;
  };
  modeOf.loaded = loaded;
  return modeOf;
}

/* The seats' names, by seat. */
export const names = (state) => state.room.seats.map((s) => s.name);

/* Names of seats, as a list in the reader's language, in capitals for the caller's calls. */
export function loud(names) {
  return list(names).toLocaleUpperCase(lang);
}

/* Who called Match! (taking turns, who went out), in the caller's words. */
export function calledText(who, turns) {
  return tn(turns ? "call.went_out" : "call.matched", who.length, { names: loud(who) });
}

/* The end of a game, in the caller's words: who won. */
export function winnersText(state) {
  const who = names(state);
  const won = (state.game.winners || []).map((s) => who[s]);
  return won.length ? tn("call.winners", won.length, { names: loud(won) }) : t("call.no_winner");
}

export function infoText(game, room) {
  if (!game) return "";
  const parts = [t("info.hand", { hand: game.hand_no, total: game.hands_total }), tn("cards", game.size)];
  if (game.wild_rank) parts.push(t("info.wild", { rank: game.wild_rank }));
  if (room && room.pace !== "normal") parts.push(t(`pace.${room.pace}`)); // the host's pace, when not the usual
  return parts.join(" · ");
}

/* Connect with credentials re-read on every (re)connect; resync on connect, on waking, and on a missed update.
   `onState(state, moments)`: each new view, with the moments its table's updates came with (none: it came whole). */
export function connect(role, room, getToken, onState, getTicket = () => null) {
  let copy = replica(); // the view: the table and this page's own part, kept from states and updates
  let resyncing = false;
  const socket = io({
    // Refusals come back in this language; a rejoin ticket still to be used opens a locked room.
    auth: (cb) => cb({ role, room, token: getToken(), lang, ticket: getTicket() }),
    // A phone woken from sleep finds its old connection dead only when it speaks: the first retry comes in
    // 125-375 ms rather than the default 0.5-1.5 s, so it is back in its seat within a second.
    reconnectionDelay: 250,
  });
  function whole(state) {
    copy = replica(); // a whole state always wins
    if (copy.full(state)) onState(copy.state, copy.moments);
  }
  function update(event, message) {
    if (copy.receive(event, message)) onState(copy.state, copy.moments); // with what its updates meant
    if (copy.behind && !resyncing) sync(); // one went missing: ask for the whole view
  }
  function sync() {
    resyncing = true;
    socket.emit("sync", {}, (ack) => {
      resyncing = false;
      if (ack && ack.ok) whole(ack.state);
    });
  }
  socket.on("state", whole);
  socket.on("table", (message) => update("table", message));
  socket.on("mine", (message) => update("mine", message));
  socket.on("connect", sync);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (socket.connected) sync();
    // Woken with the link down (a locked phone's was cut): reconnect now rather than when the client's
    // backoff timer fires (up to 5 s after a long sleep); the new connection syncs on "connect".
    else socket.disconnect().connect();
  });
  onChange((lang) => {
    if (socket.connected) socket.emit("lang", { lang }); // a reconnect says it in `auth`
  });
  return {
    socket,
    sync,
    /* Emit and resolve with the acknowledgement ({ok, error}). */
    send(event, data) {
      return new Promise((resolve) => {
        if (!socket.connected) {
          resolve({ ok: false, error: { code: "offline", message: t("conn.offline") } });
          return;
        }
        socket.timeout(8000).emit(event, data || {}, (err, ack) => {
          resolve(err ? { ok: false, error: { code: "timeout", message: t("conn.timeout") } } : ack);
        });
      });
    },
  };
}

/* The room's deadlines as this page's times (performance.now() ms): the server sends the seconds left,
   counted from when the state arrived, so however often a page redraws itself they stay put. */
export function deadlines(room) {
  const now = performance.now();
  const at = (secs) => (secs === null || secs === undefined ? null : now + secs * 1000);
  const hurry = room.hurry || {};
  return { hurryStart: at(hurry.starts_in), hurryEnd: at(hurry.ends_in), matchEnd: at(room.match_ends_in) };
}

export function store(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (e) {
    return null; // private mode: remember nothing
  }
  return value;
}


/* A page's own small POST to the server (the night of several tables'): the answer's JSON, or null if none came. */
export async function postJson(url, body) {
  try {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return response.ok || response.status === 400 ? await response.json() : null;
  } catch (e) {
    return null; // the laptop's server out of reach for a moment
  }
}
