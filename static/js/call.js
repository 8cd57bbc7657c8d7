/* The caller's words when the cards are on the phones (only the pages' modules of that mode import it). */
import { calledText, loud, names, winnersText } from "./common.js";
import { t } from "./i18n.js";

/* The caller's words for this moment of the game (shown, and spoken on the TV). What each seat may do now is the
   table's (`can`, `window`, `last_cycle`); the words of each step are the catalog's (`call.<phase>`). */
export function callText(state) {
  const game = state.game;
  if (game.game_over) return winnersText(state);
  if (state.room.paused) return t("call.paused");
  const who = names(state);
  const matched = game.matched.map((m) => who[m.seat]);
  const turn = game.turn === null ? null : game.seats[game.turn];
  const acts = (move) => !!turn && turn.can.includes(move);
  if (game.pacing === "turns" && (acts("draw") || acts("choose"))) {
    const mine = game.you && game.you.seat === game.turn;
    const last = game.last_cycle ? "_last" : "";
    const step = acts("draw") ? "draw" : "discard";
    const words = t(`call.${mine ? "your" : "their"}${last}_turn_${step}`, { name: loud([who[game.turn]]) });
    return matched.length ? `${calledText(matched, true)} ${words}` : words;
  }
  if (matched.length && game.window) return calledText(matched);
  return t(`call.${game.phase}`, { hand: game.hand_no });
}
