/* After a hand, in either way to play: this player's story (a hand at 0, a place won or lost), the table's (a
   complete hand dealt, who scored 0, the biggest penalty), and at the end of the night the podium and the awards
   in the TV's words. Places are the views' (`places`: equal totals share the better one). */
import { el, winnersText } from "./common.js";
import { list, t, tn } from "./i18n.js";
import { view } from "./phone-shared.js";

/* The headline after a hand: my place; at the end of the night, "You win!" for a winner. */
export function placeText(game, seat) {
  if (game.game_over && (game.winners || []).includes(seat)) return t("phone.you_win");
  const words = game.game_over ? "phone.finished" : "phone.rank";
  return t(words, { rank: game.places[seat], n: game.totals.length, points: tn("points", game.totals[seat]) });
}

/* The line under it at the end: who won, when it is not this player alone. */
export function winnersLine(game, seat) {
  const winners = game.winners || [];
  return winners.length === 1 && winners[0] === seat ? "" : winnersText(view.state);
}

/* `points[s]`: what each seat scored this hand (null: not dealt in). This player's own lines come first, marked
   ("mine"), each a moment of its own (phone.css brings them up one by one). */
export function story(game, seat, points) {
  const who = view.state.room.seats.map((s) => s.name);
  const names = (seats) => list(seats.map((s) => who[s]));
  const lines = [];
  let own = 0;
  const say = (text, mine) => {
    const line = el("p", { class: mine ? "mine" : "", text });
    if (mine) line.style.setProperty("--k", String(own++));
    lines.push(line);
  };
  const r = game.recap;
  if (game.on_deal && game.on_deal.length) say(tn("phone.on_deal", game.on_deal.length, { names: names(game.on_deal) }));
  if (game.awards) {
    const box = el("ol", { class: "podium" });
    game.awards.podium.forEach((step, k) => {
      if (step.length) box.append(el("li", { class: step.includes(seat) ? "me" : "", text: t("podium.place", { place: k + 1, names: names(step) }) }));
    });
    lines.push(box);
    const awards = [...game.awards.awards].sort((a, b) => b.seats.includes(seat) - a.seats.includes(seat)); // mine first
    for (const a of awards) {
      say(t(`award.${a.key}`, { names: names(a.seats), n: a.n, from: a.from, to: a.to }), a.seats.includes(seat));
    }
    if (r && r.lead) say(tn("story.snatched", r.lead.seats.length, { names: names(r.lead.seats) }), r.lead.seats.includes(seat));
    if (r && r.close) say(closeText(game, r.close, names), r.close.seats.includes(seat));
    return lines;
  }
  // This player's hand: at 0, and the place it moved them to (the totals before it, ranked as the views rank).
  if (points[seat] === 0) say(t("phone.story.zero"), true);
  const before = game.totals.map((total, s) => total - (points[s] || 0));
  const was = 1 + before.filter((v) => v < before[seat]).length;
  const now = game.places[seat];
  if (game.hand_no > 1 && was !== now) say(t(now < was ? "phone.story.climbed" : "phone.story.fell", { from: was, to: now }), true);
  if (!r) return lines;
  if (r.lead) {
    const mine = r.lead.seats.includes(seat);
    say(mine ? t("phone.story.lead") : tn("story.lead", r.lead.seats.length, { names: names(r.lead.seats) }), mine);
  }
  const others = r.zero.filter((s) => s !== seat);
  if (others.length) say(t("recap.zero", { names: names(others) }));
  if (r.worst) say(t("recap.worst", { names: names(r.worst.seats), n: r.worst.points }));
  if (r.record) say(t("story.record", { names: names(r.record.seats), n: r.record.points, was: r.record.was }));
  if (r.close) say(closeText(game, r.close, names), r.close.seats.includes(seat));
  if (r.next_last) say(t("story.next_last"));
  return lines;
}

/* A close race, or a close finish, in the TV's words. */
function closeText(game, close, names) {
  if (close.gap === 0) return t("story.level", { names: names(close.seats) });
  return tn(game.game_over ? "story.finish" : "story.race", close.gap, { names: names(close.seats) });
}

/* The table by place, each row numbered with its place (ties share one), this player's row marked. */
export function standings(game, seat, who) {
  const order = game.totals.map((v, i) => i).sort((a, b) => game.places[a] - game.places[b] || a - b);
  return el("ol", { class: "standings" }, ...order.map((i) =>
    el("li", { class: i === seat ? "me" : "", value: game.places[i], text: `${who[i]}: ${game.totals[i]}` })));
}
