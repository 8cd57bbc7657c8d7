/* The TV's chart of running totals: one line per seat, each ending in its player's name, in the seat's colour.

   Names of lines that end on equal or near-equal totals would sit on each other: `spreadLabels` moves them
   apart (as little as it can, in the lines' order) and a short leader joins each name to its line's end. */

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 800; // the chart's viewBox (templates/tv.html)
const HEIGHT = 640;

/* Centres for labels of height `gap` wanted at `wanted` (any order), kept inside [top, bottom] and never closer
   than `gap` (closer only when they cannot all fit, then evenly spaced): the labels keep the order of their
   wanted places (ties in the order given), and each moves as little as it can. Pure; returns centres in the
   order of `wanted`. */
export function spreadLabels(wanted, gap, top, bottom) {
  const n = wanted.length;
  if (!n) return [];
  const step = n > 1 ? Math.min(gap, (bottom - top) / (n - 1)) : gap;
  const order = wanted.map((_, i) => i).sort((a, b) => wanted[a] - wanted[b] || a - b);
  // Blocks of labels packed `step` apart; each block centred on its labels' wishes, then pushed inside the
  // bounds; a block that reaches into the one before it joins it.
  const blocks = [];
  const settle = (b) => { b.start = Math.min(Math.max(b.sum / b.count, top), bottom - (b.count - 1) * step); };
  order.forEach((index, k) => {
    let block = { first: k, count: 1, sum: wanted[index] };
    settle(block);
    while (blocks.length) {
      const last = blocks[blocks.length - 1];
      if (last.start + last.count * step <= block.start + 1e-9) break;
      blocks.pop();
      block = { first: last.first, count: last.count + block.count,
        sum: last.sum + block.sum - block.count * (block.first - last.first) * step };
      settle(block);
    }
    blocks.push(block);
  });
  const centres = new Array(n);
  for (const b of blocks) for (let j = 0; j < b.count; j += 1) centres[order[b.first + j]] = b.start + j * step;
  return centres;
}

/* An SVG element; `paint` goes through the CSSOM (the pages' CSP refuses style attributes). */
function node(tag, attrs, words, paint = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const [k, v] of Object.entries(paint)) el.style.setProperty(k, v);
  if (words !== undefined) el.textContent = words;
  return el;
}

/* Fit a label to `width` (in the chart's units): the whole name; else its first word, when no other name starts
   with that word; else as much of it as fits, with an ellipsis. It must be in the page to be measured. */
function fit(text, width, firsts) {
  const words = text.textContent;
  if (text.getComputedTextLength() <= width) return;
  const first = words.split(/\s+/)[0];
  if (first !== words && firsts.filter((f) => f === first).length === 1) {
    text.textContent = first;
    if (text.getComputedTextLength() <= width) return;
  }
  let lo = 0;
  let hi = words.length;
  while (lo < hi) { // the longest prefix that fits with its ellipsis
    const mid = Math.ceil((lo + hi) / 2);
    text.textContent = `${words.slice(0, mid).trimEnd()}…`;
    if (text.getComputedTextLength() <= width) lo = mid; else hi = mid - 1;
  }
  text.textContent = `${words.slice(0, lo).trimEnd()}…`;
}

/* Draw the night so far into `svg`: `points[s][h]` is seat s's points in hand h+1 (null: none), `seats` the dealt
   seats ({name, colour}), `order` the seats from first place to last (ties on a total follow it), `hands` the
   night's length. Text is sized to read like the TV's other words, whatever size the chart is drawn at. */
export function drawChart(svg, { points, seats, order, hands }) {
  const running = seats.map((_, s) => {
    let sum = 0;
    return [0, ...points.map((hand) => (sum += hand[s] || 0))];
  });
  const top = Math.max(10, ...running.flat());
  const scale = Math.min(svg.clientWidth / WIDTH, svg.clientHeight / HEIGHT) || 1;
  const wantedSize = Math.ceil((parseFloat(getComputedStyle(document.body).fontSize) * 0.9) / scale);
  const bottom = HEIGHT - wantedSize * 1.4; // the axis's numbers below
  // Twelve names must fit one above the other: the size gives way only when the chart is drawn very small.
  const size = Math.min(wantedSize, Math.floor(bottom / (1.2 * Math.max(1, seats.length))));
  const gap = 1.2 * size;
  const labelWidth = 0.3 * WIDTH;
  const right = WIDTH - 8 - labelWidth - 24; // 24: the leader from a line's end to its name
  const x = (h) => 30 + (h * (right - 30)) / hands;
  const y = (v) => bottom - (v * (bottom - 20)) / top;
  const parts = [];
  for (let h = 1; h <= hands; h += hands > 6 ? 2 : 1) {
    parts.push(node("text", { x: x(h), y: HEIGHT - wantedSize * 0.25, class: "axis", "font-size": wantedSize }, String(h)));
  }
  const ends = running.map((line) => ({ x: x(line.length - 1), y: y(line[line.length - 1]) }));
  // Equal totals: names in the table's order, so the chart reads like the table beside it.
  const ranked = [...order].sort((a, b) => ends[a].y - ends[b].y || order.indexOf(a) - order.indexOf(b));
  const centres = spreadLabels(ranked.map((s) => ends[s].y), gap, gap / 2, bottom);
  const labels = [];
  running.forEach((line, s) => {
    const colour = seats[s].colour;
    parts.push(node("polyline", { points: line.map((v, h) => `${x(h)},${y(v)}`).join(" "), class: "series" }, undefined, { stroke: colour }));
  });
  ranked.forEach((s, k) => {
    const colour = seats[s].colour;
    const at = centres[k];
    const lx = right + 24;
    parts.push(node("polyline", { points: `${ends[s].x},${ends[s].y} ${lx - 4},${at}`, class: "leader" }, undefined, { stroke: colour }));
    const label = node("text", { x: lx, y: at, class: "series-label", "font-size": size, "dominant-baseline": "central",
      "data-seat": s }, seats[s].name, { fill: colour });
    labels.push(label);
    parts.push(label);
  });
  svg.replaceChildren(...parts);
  const firsts = seats.map((seat) => seat.name.split(/\s+/)[0]);
  for (const label of labels) fit(label, labelWidth, firsts);
}
