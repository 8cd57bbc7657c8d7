"""The geometry checker (tests/layout.py) finds each kind of problem on a small page, and none on a sound one."""

from __future__ import annotations

from pathlib import Path

import pytest

from .layout import check, count_visible, playwright_js, tv_text_floor

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api")

PAGE = """<!doctype html><html><body style="margin:0;background:#0f3d2e;color:#fff;font:30px sans-serif">
<div id="ok" style="position:absolute;left:10px;top:10px;width:300px">Fine text</div>
<button id="small" style="position:absolute;left:10px;top:100px;width:30px;height:30px">x</button>
<button id="big" style="position:absolute;left:100px;top:100px;width:60px;height:60px">y</button>
<div id="narrow" style="position:absolute;left:10px;top:200px;width:40px;white-space:nowrap">A long line of text</div>
<div id="off" style="position:absolute;left:700px;top:10px;width:200px">Off the edge</div>
<div id="a" style="position:absolute;left:300px;top:300px;width:100px;height:100px">A</div>
<div id="b" style="position:absolute;left:350px;top:350px;width:100px;height:100px;background:#123">B</div>
<div id="tiny" style="position:absolute;left:500px;top:300px;font-size:12px">tiny</div>
<div id="dim" style="position:absolute;left:500px;top:400px;color:#4363d8">dim</div>
<div id="box" style="position:absolute;left:10px;top:450px;width:200px;height:60px;overflow:hidden">
  <p class="row" style="margin:0;height:30px">one</p><p class="row" style="margin:0;height:30px">two</p>
  <p class="row" style="margin:0;height:30px">three</p></div>
</body></html>"""


@pytest.fixture(scope="module")
def page():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless=new"])
        page = browser.new_page(viewport={"width": 800, "height": 600})
        page.set_content(PAGE)
        yield page
        browser.close()


def found(problems: list[str], kind: str, element: str) -> bool:
    return any(p.startswith(kind) and element in p for p in problems)


def test_each_kind_of_problem_is_named_with_its_element(page) -> None:
    run = playwright_js(page)
    problems = check(run, overlap=[["#a", "#b"]], min_text=24, min_contrast=4.5, covered="#a")
    assert found(problems, "control under 44x44", "#small")
    assert not found(problems, "control under", "#big")
    assert found(problems, "overflows its box", "#narrow")
    assert found(problems, "outside the viewport", "#off")
    assert found(problems, "overlap", "#a")
    assert found(problems, "covered", "#a")
    assert found(problems, "text under 24 px", "#tiny")
    assert found(problems, "contrast", "#dim") and not found(problems, "contrast", "#ok")
    assert found(problems, "hidden by DIV#box", "three") and not found(problems, "hidden by", "two")
    assert count_visible(run, ".row") == 2


def test_a_sound_part_of_the_page_has_no_problems(page) -> None:
    assert check(playwright_js(page), root="#ok", min_text=24, min_contrast=4.5) == []
    assert check(playwright_js(page), root="#big", targets="button") == []


def test_the_tv_text_floor_scales_with_the_screen() -> None:
    assert tv_text_floor(1920) == 24 and tv_text_floor(1280) == 16
