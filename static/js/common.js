/* Shared by the TV and the phone: the socket, safe DOM building, card and call words. */
"use strict";

const PR = (() => {
  const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]; // by a card's suit number

  /* Build an element; text always goes in as text (names are never HTML). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /* A card face: its label with a suit class, so colour is never the only signal. */
  function cardFace(card, extra) {
    if (!card) return el("span", { class: "card empty", text: "—" });
    const joker = card.rank === 0;
    const suit = joker ? "joker" : SUIT_NAMES[card.suit];
    return el("span", { class: `card ${suit} ${extra || ""}`.trim(), text: joker ? "🃏" : card.label });
  }

  function names(state) {
    return (state.room.seats || []).map((s) => s.name);
  }

  /* The caller's words for this moment of the game. */
  function callText(state) {
    const game = state.game;
    const who = names(state);
    if (!game) return "Join the game!";
    if (game.game_over) {
      const winners = (game.winners || []).map((s) => who[s]);
      return winners.length ? `${winners.join(" & ").toUpperCase()} ${winners.length > 1 ? "WIN" : "WINS"}!` : "A TIE: NOBODY WINS!";
    }
    if (state.room.paused) return "PAUSED";
    const matched = game.matched.map((m) => who[m.seat]);
    if (game.pacing === "turns" && game.phase !== "setup" && game.phase !== "scored") {
      const whose = game.you && game.you.seat === game.turn ? "YOUR" : `${who[game.turn].toUpperCase()}'S`;
      const out = matched.length ? `${matched.join(" & ").toUpperCase()} WENT OUT! ` : "";
      const last = game.phase.startsWith("last_") ? "LAST " : "";
      return `${out}${whose} ${last}TURN: ${game.phase.endsWith("draw") ? "DRAW" : "DISCARD"}`;
    }
    switch (game.phase) {
      case "setup": return matched.length ? `${matched.join(" & ").toUpperCase()} ${matched.length > 1 ? "CALL" : "CALLS"} MATCH! Last draw…` : `Hand ${game.hand_no}: look at your cards`;
      case "draw": return "DRAW!";
      case "choose": return "Pick your discard…";
      case "reveal": return matched.length ? `${matched.join(" & ").toUpperCase()} ${matched.length > 1 ? "CALL" : "CALLS"} MATCH! Last draw…` : "DISCARD!";
      case "last_draw": return "LAST DRAW!";
      case "last_choose": return "Last discard…";
      case "scored": return "Hand over";
      default: return "";
    }
  }

  function infoText(game) {
    if (!game) return "";
    const wild = game.wild_rank ? ` · ${game.wild_rank}s are wild` : "";
    return `Hand ${game.hand_no} of ${game.hands_total} · ${game.size} cards${wild}`;
  }

  /* Connect with credentials re-read on every (re)connect; resync on connect and on waking. */
  function connect(role, room, getToken, onState) {
    let version = -1;
    const socket = io({
      auth: (cb) => cb({ role, room, token: getToken() }),
    });
    function accept(state) {
      if (state && state.v > version) {
        version = state.v;
        onState(state);
      }
    }
    function sync() {
      socket.emit("sync", {}, (ack) => {
        if (ack && ack.ok) {
          version = -1; // a full snapshot always wins
          accept(ack.state);
        }
      });
    }
    socket.on("state", accept);
    socket.on("connect", sync);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && socket.connected) sync();
    });
    return {
      socket,
      sync,
      /* Emit and resolve with the acknowledgement ({ok, error}). */
      send(event, data) {
        return new Promise((resolve) => {
          if (!socket.connected) {
            resolve({ ok: false, error: { code: "offline", message: "Reconnecting… try again in a moment" } });
            return;
          }
          socket.timeout(8000).emit(event, data || {}, (err, ack) => {
            resolve(err ? { ok: false, error: { code: "timeout", message: "No answer from the TV: try again" } } : ack);
          });
        });
      },
    };
  }

  function store(key, value) {
    try {
      if (value === undefined) return localStorage.getItem(key);
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch (e) {
      return null; // private mode: remember nothing
    }
    return value;
  }

  return { el, cardFace, callText, infoText, connect, store };
})();
