/* The caller's words when the cards are on the phones (only the pages' modules of that mode import it). */
import { calledText, loud, names, winnersText } from "./common.js";
import { t } from "./i18n.js";

/* The caller's words for this moment of the game (shown, and spoken on the TV). */
export function callText(state) {
  const game = state.game;
  if (game.game_over) return winnersText(state);
  if (state.room.paused) return t("call.paused");
  const who = names(state);
  const matched = game.matched.map((m) => who[m.seat]);
  if (game.pacing === "turns" && game.phase !== "setup" && game.phase !== "scored") {
    const mine = game.you && game.you.seat === game.turn;
    const last = game.phase.startsWith("last_") ? "_last" : "";
    const step = game.phase.endsWith("draw") ? "draw" : "discard";
    const turn = t(`call.${mine ? "your" : "their"}${last}_turn_${step}`, { name: loud([who[game.turn]]) });
    return matched.length ? `${calledText(matched, true)} ${turn}` : turn;
  }
  switch (game.phase) {
    case "setup": return matched.length ? calledText(matched) : t("call.setup", { hand: game.hand_no });
    case "draw": return t("call.draw");
    case "choose": return t("call.choose");
    case "reveal": return matched.length ? calledText(matched) : t("call.discard");
    case "last_draw": return t("call.last_draw");
    case "last_choose": return t("call.last_choose");
    case "scored": return t("call.scored");
    default: return "";
  }
}
