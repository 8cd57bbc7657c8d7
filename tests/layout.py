"""Measure a page by geometry, in any browser driver: a JS checker and thin Python helpers around it.

The checker is one JS function (`LAYOUT_JS`) taking one options object and returning a list of
readable problems (strings); an empty list is a page that holds together. It runs the same way from
Playwright and from Selenium, through a `run_js(js, arg)` callable:

    from tests.layout import check, playwright_js, selenium_js, tv_text_floor
    problems = check(playwright_js(page), overlap=[[".call", ".seat"]], min_text=tv_text_floor(1920))
    problems = check(selenium_js(driver), targets="button")

Options (all optional; camelCase in JS, snake_case in `check`):
- root: CSS selector of the part of the page to check (default "body").
- ignore: selector of elements (and their insides) to leave out of every check.
- viewport: "xy" (nothing may reach past any edge: a TV), "x" (past the left/right edges only: a
  page that scrolls, a phone), or "" (no viewport check).
- clip: selector of elements whose content must fit their box (default "*": every element):
  scrollWidth > clientWidth, or scrollHeight > clientHeight when the box hides its overflow.
  Every element is also checked against each ancestor that hides or scrolls its overflow
  (a row below a table's cut-off is "hidden by" that ancestor).
- overlap: list of [selectorA, selectorB] pairs: no visible element of A may intersect one of B
  (by more than 1 px; an element and its own ancestors/descendants are never compared).
- apart: list of [selectorA, selectorB] pairs that, side by side (sharing some height), must keep at least
  min_apart px (default 4) between them: "Penalty now: 0Sort" run together is a problem.
- targets: selector of controls that must be at least min_target px wide and tall
  (default "button, a[href], select, input:not([type=hidden]), [role=button]").
- min_target: 44 (px).
- min_text: the smallest font size in px any visible text in text_scope may have (0: no check).
  For SVG text the size on screen counts (font size × the SVG's scale).
- text_scope: selector of elements whose own text is checked for size and contrast (default "*").
- covered: selector of elements that must not be covered: the topmost element at the middle of
  each must be the element itself or inside it.
- above_fold: selector of elements that must lie wholly inside the viewport (not below the fold).
- min_contrast: the smallest contrast ratio (WCAG) of visible text against the colours behind it
  (0: no check). Text over images or gradients, and inside disabled controls (as WCAG), is skipped.

Problems read like "overflows its box: BUTTON#add-bot.small 'Add a bot' (scrollWidth 210 > 180)".
`VISIBLE_JS` counts the elements of a selector that are wholly visible (inside the viewport and not
hidden by an ancestor's overflow), e.g. score rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["LAYOUT_JS", "VISIBLE_JS", "check", "count_visible", "playwright_js", "selenium_js", "tv_text_floor"]

RunJs = Callable[[str, Any], Any]

# Shared helpers of both checkers, as the body of a JS function expression.
_HELPERS = r"""
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  const shown = (el) => {
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const s = getComputedStyle(el);
    if (s.visibility === "hidden" || s.display === "none") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const hides = (el) => {
    const s = getComputedStyle(el);
    return s.overflowX !== "visible" || s.overflowY !== "visible";
  };
  const hiddenBy = (el) => {
    const r = el.getBoundingClientRect();
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      if (!hides(a)) continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1) return a;
    }
    return null;
  };
"""

LAYOUT_JS = (
    r"""(opts) => {
  opts = opts || {};
"""
    + _HELPERS
    + r"""
  const root = document.querySelector(opts.root || "body");
  if (!root) return [`no element matches root ${opts.root}`];
  const ignore = opts.ignore || null;
  const skip = (el) => ignore && el.closest(ignore);
  const name = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const cls = typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.innerText || el.textContent || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ").slice(0, 50);
    return `${el.tagName}${id}${cls} '${text}'`;
  };
  const all = (sel) => [...root.querySelectorAll(sel)].filter((el) => !skip(el) && shown(el));
  const px = (n) => Math.round(n * 10) / 10;
  const problems = [];
  const everything = all("*");

  // Past the viewport's edges.
  const mode = opts.viewport === undefined ? "xy" : opts.viewport;
  const outside = new Set();
  if (mode) for (const el of everything) {
    const r = el.getBoundingClientRect();
    const out = r.left < -1 || r.right > vw + 1 || (mode === "xy" && (r.top < -1 || r.bottom > vh + 1));
    if (!out || hiddenBy(el)) continue;
    outside.add(el);
    if (!outside.has(el.parentElement)) problems.push(`outside the viewport: ${name(el)} (${px(r.left)},${px(r.top)}-${px(r.right)},${px(r.bottom)} in ${vw}x${vh})`);
  }

  // Content that does not fit its box, or that an ancestor cuts off.
  for (const el of all(opts.clip || "*")) {
    const svgPart = el instanceof SVGElement && !(el instanceof SVGSVGElement);
    if (svgPart) { /* no scroll box: only an ancestor's cut counts */ }
    else if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !["SELECT", "INPUT", "TEXTAREA"].includes(el.tagName))
      problems.push(`overflows its box: ${name(el)} (scrollWidth ${el.scrollWidth} > ${el.clientWidth})`);
    else if (hides(el) && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1)
      problems.push(`clipped: ${name(el)} (scrollHeight ${el.scrollHeight} > ${el.clientHeight})`);
    const cut = hiddenBy(el);
    if (cut && !(cut.contains(el) && hiddenBy(el.parentElement) === cut))
      problems.push(`hidden by ${name(cut).split(" ")[0]}: ${name(el)}`);
  }

  // Boxes that must not meet.
  for (const [a, b] of opts.overlap || []) {
    const left = all(a), right = all(b);
    for (const x of left) for (const y of right) {
      if (x === y || x.contains(y) || y.contains(x)) continue;
      if (a === b && left.indexOf(y) < left.indexOf(x)) continue;
      const p = x.getBoundingClientRect(), q = y.getBoundingClientRect();
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 1 && h > 1) problems.push(`overlap: ${name(x)} and ${name(y)} (${px(w)}x${px(h)} px)`);
    }
  }

  // Neighbours run together.
  const minApart = opts.minApart === undefined ? 4 : opts.minApart;
  for (const [a, b] of opts.apart || []) {
    for (const x of all(a)) for (const y of all(b)) {
      if (x === y || x.contains(y) || y.contains(x)) continue;
      const p = x.getBoundingClientRect(), q = y.getBoundingClientRect();
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      const space = Math.max(q.left - p.right, p.left - q.right);
      if (h > 1 && space < minApart) problems.push(`too close: ${name(x)} and ${name(y)} (${px(space)} px apart)`);
    }
  }

  // Controls big enough for a thumb.
  const minTarget = opts.minTarget === undefined ? 44 : opts.minTarget;
  if (minTarget) for (const el of all(opts.targets || "button, a[href], select, input:not([type=hidden]), [role=button]")) {
    const r = el.getBoundingClientRect();
    if (r.width < minTarget - 0.5 || r.height < minTarget - 0.5) problems.push(`control under ${minTarget}x${minTarget}: ${name(el)} (${px(r.width)}x${px(r.height)})`);
  }

  // Text: its size on screen, and its contrast.
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const rgba = (c) => { const m = c.match(/[\d.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m[3] === undefined ? 1 : +m[3]]; };
  const over = (f, b) => [0, 1, 2].map((i) => f[i] * f[3] + b[i] * (1 - f[3])).concat(1);
  const lum = (c) => { const v = c.slice(0, 3).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const behind = (el) => {
    const layers = [];
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.backgroundImage && s.backgroundImage !== "none") return null;
      const c = rgba(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const c of layers.reverse()) colour = over(c, colour);
    return colour;
  };
  const minText = opts.minText || 0, minContrast = opts.minContrast || 0;
  if (minText || minContrast) for (const el of all(opts.textScope || "*")) {
    if (!ownText(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) size *= el.getScreenCTM().a;
    if (minText && size < minText - 0.05) problems.push(`text under ${px(minText)} px: ${name(el)} (${px(size)} px)`);
    if (minContrast && !(el instanceof SVGElement) && !el.closest(":disabled, [aria-disabled=true]")) {  // WCAG exempts inactive controls
      const bg = behind(el);
      if (!bg) continue;
      let alpha = 1;
      for (let a = el; a; a = a.parentElement) alpha *= parseFloat(getComputedStyle(a).opacity);
      const fg = rgba(getComputedStyle(el).color);
      fg[3] *= alpha;
      const mixed = over(fg, bg);
      const [hi, lo] = [lum(mixed), lum(bg)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < minContrast - 0.005) problems.push(`contrast ${px(ratio * 10) / 10}:1 under ${minContrast}:1: ${name(el)}`);
    }
  }

  // Elements another box paints over.
  for (const el of all(opts.covered || ":not(*)")) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
    const top = document.elementFromPoint(x, y);
    if (top && top !== el && !el.contains(top)) problems.push(`covered: ${name(el)} under ${name(top)}`);
  }

  // Below the fold.
  for (const el of all(opts.aboveFold || ":not(*)")) {
    const r = el.getBoundingClientRect();
    if (r.top < -1 || r.bottom > vh + 1) problems.push(`below the fold: ${name(el)} (bottom ${px(r.bottom)} > ${vh})`);
  }
  return problems;
}"""
)

VISIBLE_JS = (
    r"""(selector) => {
"""
    + _HELPERS
    + r"""
  return [...document.querySelectorAll(selector)].filter((el) => {
    if (!shown(el)) return false;
    const r = el.getBoundingClientRect();
    return r.left >= -1 && r.top >= -1 && r.right <= vw + 1 && r.bottom <= vh + 1 && !hiddenBy(el);
  }).length;
}"""
)

_KEYS = {
    "root": "root",
    "ignore": "ignore",
    "viewport": "viewport",
    "clip": "clip",
    "overlap": "overlap",
    "apart": "apart",
    "min_apart": "minApart",
    "targets": "targets",
    "min_target": "minTarget",
    "min_text": "minText",
    "text_scope": "textScope",
    "covered": "covered",
    "above_fold": "aboveFold",
    "min_contrast": "minContrast",
}


def check(run_js: RunJs, **options: Any) -> list[str]:
    """Run the layout checker with these options (see the module docstring); the list of problems."""
    unknown = set(options) - set(_KEYS)
    if unknown:
        raise TypeError(f"unknown layout options: {sorted(unknown)}")
    return list(run_js(LAYOUT_JS, {_KEYS[k]: v for k, v in options.items()}))


def count_visible(run_js: RunJs, selector: str) -> int:
    """How many elements of `selector` are wholly visible: on screen, not cut off by an ancestor."""
    return int(run_js(VISIBLE_JS, selector))


def playwright_js(page: Any) -> RunJs:
    """`run_js` for a Playwright page."""
    return lambda js, arg: page.evaluate(js, arg)


def selenium_js(driver: Any) -> RunJs:
    """`run_js` for a Selenium WebDriver."""
    return lambda js, arg: driver.execute_script("return (" + js + ")(arguments[0])", arg)


def tv_text_floor(width: int) -> float:
    """The smallest TV text, in CSS px, for a viewport this wide: 24 px at 1920, the same size on screen elsewhere."""
    return 24 * width / 1920
