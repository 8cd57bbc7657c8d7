"""The TV chart's name labels (static/js/tv-chart.js), in Chromium: never over each other, whatever the totals.

The pages' own files are served to the browser from the repository (no server: the chart needs none), with the
TV's style sheets, in an SVG of the size the scores screen gives the chart at 1080p and at 720p.
"""

from __future__ import annotations

import json
import mimetypes
import random
from pathlib import Path

import pytest

from .layout import check, count_visible, playwright_js, tv_text_floor

ROOT = Path(__file__).resolve().parent.parent
ORIGIN = "http://chart.test"
NAMES = ["Bartholomew Kingsly", "WWWWWWWWWWWWWWWWWWWW", "Ana Beatriz Gonçalve", "MMMMMMMMMM MMMMMMMMM",
         "Þórunn Guðmundsdótti", "Aleksandra Wójcicka", "Ștefănescu Mihaela B", "José María Fernández",
         "Maria Fernanda Souza", "Wolfgang Wilhelmsson", "Bot 1", "Bot 2"]
COLOURS = ["#ffab40", "#82b1ff", "#ffffff", "#ea80fc", "#c6ff00", "#ff8a80", "#84ffff", "#d7ccc8", "#ffd23f",
           "#b388ff", "#b9f6ca", "#ff80ab"]
# The chart's box on the scores screen (measured on the TV page with 12 seats and the hand's story above it),
# and a cramped one: the end of a night, with the podium and awards above the chart at 720p.
CSP = {"Content-Security-Policy": "default-src 'self'"}  # as the server sends it: no inline styles
BOXES = [(1920, 1080, 620, 520), (1280, 720, 410, 330), (1280, 720, 400, 250)]
PAGE = """<!doctype html><html lang="en" class="i18n-ready"><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/css/common.css"><link rel="stylesheet" href="/static/css/tv.css">
<link rel="stylesheet" href="/box.css"></head>
<body class="tv"><div class="scores-side">
<svg id="chart" class="chart" viewBox="0 0 800 640"></svg></div></body></html>"""
BOX = ".scores-side {{ width: {w}px; height: {h}px; display: flex; }}"


@pytest.fixture
def page(browser):
    """A page of the fake origin, whose /static/ is the repository's, and a size set by each test."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    box = {"w": 620, "h": 520}

    def serve(route) -> None:
        path = route.request.url[len(ORIGIN) :].split("?")[0]
        if path.startswith("/static/"):
            file = ROOT / path.lstrip("/")
            kind = mimetypes.guess_type(file.name)[0] or "text/plain"
            route.fulfill(status=200, body=file.read_bytes(), content_type=kind)
        elif path == "/box.css":
            route.fulfill(status=200, body=BOX.format(**box), content_type="text/css")
        else:
            route.fulfill(status=200, body=PAGE, content_type="text/html", headers=CSP)

    context.route(f"{ORIGIN}/**", serve)
    page = context.new_page()
    page.box = box
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    yield page
    assert page.problems == []
    context.close()


def spread(page, cases: list[dict]) -> list[list[float]]:
    page.goto(ORIGIN + "/")
    return page.evaluate(
        """async (cases) => {
             const { spreadLabels } = await import("/static/js/tv-chart.js");
             return cases.map((c) => spreadLabels(c.wanted, c.gap, c.top, c.bottom));
           }""",
        cases,
    )


def assert_laid_out(case: dict, centres: list[float]) -> None:
    """Inside the bounds, `gap` apart (or evenly, when they cannot fit), in the order of their wishes."""
    wanted, gap, top, bottom = case["wanted"], case["gap"], case["top"], case["bottom"]
    n = len(wanted)
    step = min(gap, (bottom - top) / (n - 1)) if n > 1 else gap
    order = sorted(range(n), key=lambda i: (wanted[i], i))
    placed = [centres[i] for i in order]
    assert all(top - 1e-6 <= c <= bottom + 1e-6 for c in placed), (case, centres)
    assert all(b - a >= step - 1e-6 for a, b in zip(placed, placed[1:], strict=False)), (case, centres)


def test_labels_of_lines_ending_together_are_spread_apart_in_order(page) -> None:
    gap, top, bottom = 30.0, 15.0, 600.0
    same = {"wanted": [300.0] * 12, "gap": gap, "top": top, "bottom": bottom}
    consecutive = {"wanted": [300.0 + 4 * i for i in range(12)], "gap": gap, "top": top, "bottom": bottom}
    apart = {"wanted": [20.0 + 50 * i for i in range(12)], "gap": gap, "top": top, "bottom": bottom}
    floor = {"wanted": [600.0] * 12, "gap": gap, "top": top, "bottom": bottom}
    crowded = {"wanted": [100.0] * 12, "gap": 60.0, "top": 0.0, "bottom": 330.0}  # cannot fit 60 apart
    results = spread(page, [same, consecutive, apart, floor, crowded])
    for case, centres in zip([same, consecutive, apart, floor, crowded], results, strict=True):
        assert_laid_out(case, centres)
    # Equal totals: one column, centred on the lines' end, in the order given (the table's).
    assert results[0] == sorted(results[0])
    assert sum(results[0]) / 12 == pytest.approx(300.0)
    # Already apart: nothing moves.
    assert results[2] == apart["wanted"]
    # At the floor: pushed up from the bottom, the last one on it.
    assert max(results[3]) == pytest.approx(bottom)
    # More than fit: evenly spaced over the whole height.
    assert min(results[4]) == pytest.approx(0.0) and max(results[4]) == pytest.approx(330.0)


def test_any_totals_are_laid_out_apart(page) -> None:
    """Seeded random nights, clustered as real totals are: every case keeps the rules above."""
    rng = random.Random(23)
    cases = []
    for _ in range(400):
        n = rng.randint(1, 12)
        centre = rng.uniform(0, 640)
        wanted = [min(640.0, max(0.0, rng.gauss(centre, rng.choice([1, 10, 60, 200])))) for _ in range(n)]
        cases.append({"wanted": wanted, "gap": rng.choice([20.0, 34.0, 50.0]), "top": 17.0, "bottom": 600.0})
    for case, centres in zip(cases, spread(page, cases), strict=True):
        assert_laid_out(case, centres)


def night(finals: list[int], hands: int = 10) -> list[list[int]]:
    """Ten hands' points per seat ending on `finals`: each hand a share of the total."""
    points = []
    for h in range(hands):
        points.append([total // hands + (total % hands if h == hands - 1 else 0) for total in finals])
    return points


NIGHTS = {
    "all-equal": [117] * 12,
    "consecutive": [160 + i for i in range(12)],
    "pairs": [40, 41, 41, 90, 91, 92, 93, 150, 150, 151, 246, 246],
    "spread": [20 * i for i in range(12)],
    "two": [55, 55],
}


@pytest.mark.parametrize("width, height, w, h", BOXES)
@pytest.mark.parametrize("name", list(NIGHTS))
def test_the_drawn_chart_names_every_line_and_no_name_covers_another(page, name, width, height, w, h) -> None:
    finals = NIGHTS[name]
    seats = [{"name": NAMES[i], "colour": COLOURS[i]} for i in range(len(finals))]
    order = sorted(range(len(finals)), key=lambda s: finals[s])
    page.set_viewport_size({"width": width, "height": height})
    page.box.update(w=w, h=h)
    page.goto(ORIGIN + "/")
    labels = page.evaluate(
        """async (args) => {
             const { drawChart } = await import("/static/js/tv-chart.js");
             const svg = document.getElementById("chart");
             drawChart(svg, JSON.parse(args));
             return [...svg.querySelectorAll(".series-label")]
               .map((t) => ({ seat: +t.dataset.seat, text: t.textContent }));
           }""",
        json.dumps({"points": night(finals), "seats": seats, "order": order, "hands": 11}),
    )
    assert sorted(label["seat"] for label in labels) == list(range(len(finals)))
    for label in labels:  # the name, its first word, or as much of it as fits, cut with an ellipsis
        full = seats[label["seat"]]["name"]
        cut = label["text"].endswith("…") and full.startswith(label["text"][:-1])
        assert label["text"] in (full, full.split()[0]) or cut, label
        assert len(label["text"]) >= min(4, len(full.split()[0])), label  # enough to know whose line it is
    # Top to bottom, the names read in the order of the totals, highest first (ties as in the table).
    top_down = sorted(range(len(finals)), key=lambda s: (-finals[s], order.index(s)))
    assert [label["seat"] for label in labels] == top_down
    assert count_visible(playwright_js(page), "#chart .series-label") == len(finals)  # measured, not hidden
    cramped = h < 300  # names give up size before they give up room
    problems = check(
        playwright_js(page),
        root="#chart",
        viewport="xy",
        overlap=[["#chart .series-label", "#chart .series-label"]],
        min_text=0 if cramped else tv_text_floor(width),
        text_scope=".series-label",
    )
    assert problems == [], problems
    inside = page.evaluate(
        """() => { const box = document.getElementById("chart").getBoundingClientRect();
                   return [...document.querySelectorAll("#chart .series-label")].every((t) => {
                     const r = t.getBoundingClientRect();
                     return r.left >= box.left - 1 && r.right <= box.right + 1
                       && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
                   }); }"""
    )
    assert inside
