/* The TV's chart of running totals: one line per seat, ending in its player's name in the seat's colour. Names
   of lines ending on (nearly) equal totals are spread apart by `spreadLabels`, each joined to its line's end. */

const NS = "http://www.w3.org/2000/svg";
const W = 800; // the chart's viewBox (templates/tv.html)
const H = 640;

/* Centres for labels `gap` tall wanted at `wanted`: inside [top, bottom], never closer than `gap` (when they
   cannot all fit, evenly spaced), in the order of their wishes (ties as given), each moved as little as it
   can. Pure; the centres come in the order of `wanted`. */
export function spreadLabels(wanted, gap, top, bottom) {
  const n = wanted.length;
  const step = n > 1 ? Math.min(gap, (bottom - top) / (n - 1)) : gap;
  const order = wanted.map((_, i) => i).sort((a, b) => wanted[a] - wanted[b] || a - b);
  // Blocks of labels `step` apart, each centred on its labels' wishes and kept inside the bounds; a block
  // reaching into the one before joins it.
  const blocks = [];
  const settle = (b) => { b.start = Math.min(Math.max(b.sum / b.count, top), bottom - (b.count - 1) * step); };
  order.forEach((index, k) => {
    let b = { first: k, count: 1, sum: wanted[index] };
    settle(b);
    for (let last = blocks.at(-1); last && last.start + last.count * step > b.start + 1e-9; last = blocks.at(-1)) {
      blocks.pop();
      b = { first: last.first, count: last.count + b.count, sum: last.sum + b.sum - b.count * (b.first - last.first) * step };
      settle(b);
    }
    blocks.push(b);
  });
  const centres = [];
  for (const b of blocks) for (let j = 0; j < b.count; j += 1) centres[order[b.first + j]] = b.start + j * step;
  return centres;
}

/* An SVG element; `paint` through the CSSOM (the CSP refuses style attributes). */
function node(tag, attrs, words, paint = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const [k, v] of Object.entries(paint)) el.style.setProperty(k, v);
  if (words !== undefined) el.textContent = words;
  return el;
}

/* A label cut to `width`: the name; else its first word if no other name starts so; else a prefix and "…". */
function fit(text, width, firsts) {
  const name = text.textContent;
  const fits = (words) => { text.textContent = words; return text.getComputedTextLength() <= width; };
  const first = name.split(/\s+/)[0];
  if (fits(name) || (first !== name && firsts.filter((f) => f === first).length === 1 && fits(first))) return;
  let lo = 0;
  for (let hi = name.length; lo < hi;) { // the longest prefix that fits with its ellipsis
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(`${name.slice(0, mid).trimEnd()}…`)) lo = mid; else hi = mid - 1;
  }
  fits(`${name.slice(0, lo).trimEnd()}…`);
}

/* Draw into `svg`: `points[h][s]` seat s's points in hand h+1, `seats` the dealt seats ({name, colour}), `order`
   the seats from first place to last (ties follow it), `hands` the night's length. Text reads like the TV's. */
export function drawChart(svg, { points, seats, order, hands }) {
  const running = seats.map((_, s) => {
    let sum = 0;
    return [0, ...points.map((hand) => (sum += hand[s] || 0))];
  });
  const top = Math.max(10, ...running.flat());
  const scale = Math.min(svg.clientWidth / W, svg.clientHeight / H) || 1;
  const axis = Math.ceil((parseFloat(getComputedStyle(document.body).fontSize) * 0.9) / scale);
  const bottom = H - axis * 1.4;
  const size = Math.min(axis, Math.floor(bottom / (1.2 * Math.max(1, seats.length)))); // smaller only if 12 cannot fit
  const labelWidth = 0.3 * W;
  const right = W - 32 - labelWidth; // and 24 for the leader to the name
  const x = (h) => 30 + (h * (right - 30)) / hands;
  const y = (v) => bottom - (v * (bottom - 20)) / top;
  const parts = [];
  for (let h = 1; h <= hands; h += hands > 6 ? 2 : 1) parts.push(node("text", { x: x(h), y: H - axis * 0.25, class: "axis", "font-size": axis }, String(h)));
  running.forEach((line, s) => parts.push(node("polyline", { points: line.map((v, h) => `${x(h)},${y(v)}`).join(" "), class: "series" }, undefined, { stroke: seats[s].colour })));
  const ends = running.map((line) => [x(line.length - 1), y(line.at(-1))]);
  const ranked = [...order].sort((a, b) => ends[a][1] - ends[b][1] || order.indexOf(a) - order.indexOf(b));
  const centres = spreadLabels(ranked.map((s) => ends[s][1]), 1.2 * size, 0.6 * size, bottom);
  const labels = ranked.map((s, k) => {
    const paint = { stroke: seats[s].colour };
    parts.push(node("polyline", { points: `${ends[s]} ${right + 20},${centres[k]}`, class: "leader" }, undefined, paint));
    const label = node("text", { x: right + 24, y: centres[k], class: "series-label", "font-size": size, "dominant-baseline": "central", "data-seat": s }, seats[s].name, { fill: seats[s].colour });
    parts.push(label);
    return label;
  });
  svg.replaceChildren(...parts);
  const firsts = seats.map((seat) => seat.name.split(/\s+/)[0]);
  for (const label of labels) fit(label, labelWidth, firsts);
}
