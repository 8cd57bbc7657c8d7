"""WebKit for the browser tests: Debian's WebKitGTK MiniBrowser driven by WebKitWebDriver through Selenium.

Everything comes from Debian's packages (webkit2gtk-driver, xvfb): the service's executable and the browser's
binary are given explicitly, so Selenium never runs Selenium Manager (it does only to find a driver it was
not given), and .ci/run sets SE_OFFLINE=true besides: nothing is ever looked up or downloaded.
The browser draws on its own Xvfb display, so `python -m pytest` needs no wrapper.

Each page under test lives in an iframe of exactly the screen's size inside a blank page of the server (a
same-origin 404 page, which runs no script of its own). The window cannot go narrower than about 447 px, but
an iframe's layout viewport is the iframe's box: inside it, innerWidth and documentElement.clientWidth are
the phone's 320 or 390 px, and media queries and `width=device-width` answer to that width (`Frame.open`
checks it). The frame also lets the harness hook the page's window before the page's first script runs, to
collect page errors, console errors and blocked requests (WebKitGTK's driver has no BiDi log to ask).

The pages forbid framing (`frame-ancestors 'none'`, against clickjacking), so the server these tests start
(`framable_server`) is the real one with that single directive taken out of the CSP header on the way out;
every other directive, and every byte of the pages, is as shipped.
"""

from __future__ import annotations

import glob
import io
import os
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from .browsers import SCREENSHOTS
from .live import LiveServer

DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = next(iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))), "")

if not (Path(DRIVER).exists() and MINIBROWSER and Path("/usr/bin/Xvfb").exists()):
    if os.environ.get("CI"):
        raise RuntimeError("CI must install Debian's webkit2gtk-driver and xvfb (.ci/run does)")
    pytest.skip(
        "WebKitGTK's driver or Xvfb is missing (apt-get install webkit2gtk-driver xvfb)", allow_module_level=True
    )

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

# A blank same-origin page to hold the frames: a 404 of the server, plain HTML with no script.
HOLDER = "/static/webkit-frame-holder"
TOOLBAR_SLACK = 200  # the window is taller than its page by MiniBrowser's toolbar; the frame sets the size
LOAD_TRIES = 5  # loads of a page until the error hooks are in before its first script (Frame.open)

# Installed in the parent page. Opens `url` in a fresh iframe of the given size and hooks the frame's new
# window as soon as its document exists: a tight MessageChannel loop (no timer clamping) watches for the
# new document, which appears while the page's scripts are still being fetched. Problems go to the parent,
# so they outlive reloads of the frame. `early` records whether the hook ran before the page's own scripts
# (`problems` reports it if not, so a hook that came too late cannot hide an error).
OPEN_FRAME = """
const [url, width, height, done] = arguments;
const top = window;
top.__problems = top.__problems || [];
top.__hooks = top.__hooks || [];
const say = (text) => top.__problems.push(String(text).slice(0, 300));
document.body.style.margin = "0";
for (const old of document.querySelectorAll("iframe")) old.remove();
const frame = document.createElement("iframe");
frame.id = "page";
frame.style.cssText = `border:0;display:block;width:${width}px;height:${height}px`;
document.body.replaceChildren(frame);
const blank = frame.contentDocument;
function hook() {
  const w = frame.contentWindow;
  w.addEventListener("error", (e) => say(`page error: ${e.message} (${e.filename}:${e.lineno})`));
  w.addEventListener("unhandledrejection", (e) => say(`unhandled rejection: ${e.reason}`));
  w.document.addEventListener("securitypolicyviolation", (e) => say(`blocked by the CSP: ${e.blockedURI}`));
  // Requests show in Resource Timing, WebSockets do not: each is checked as it is made.
  w.WebSocket = new Proxy(w.WebSocket, { construct(socket, args) {
    const to = new URL(args[0], w.location.href);
    if (to.host !== w.location.host) say(`request to another host: ${to}`);
    return Reflect.construct(socket, args);
  } });
  const error = w.console.error.bind(w.console);
  w.console.error = (...args) => { say(`console: ${args.join(" ")}`); error(...args); };
  w.__hooked = true;
  // Early enough: the parser is still going and has reached no classic script (the pages have none: every
  // script, the vendored Socket.IO client included, is a module, and modules wait for the parse to end).
  const early = w.document.readyState === "loading"
    && [...w.document.scripts].every((s) => s.type === "module");
  top.__hooks.push({ early, url: w.location.href });
}
const loop = new MessageChannel();
loop.port1.onmessage = () => {
  const doc = frame.contentDocument;
  if (doc && doc !== blank && doc.URL !== "about:blank") hook();
  else loop.port2.postMessage(0);
};
frame.addEventListener("load", () => {
  if (!frame.contentWindow.__hooked) say(`the frame loaded ${frame.contentWindow.location.href} without hooks`);
  done(true);
}, { once: true });
frame.src = url;
loop.port2.postMessage(0);
"""

# Every resource the frame's page fetched, by URL (the Resource Timing list), the problems so far, and whether
# the page now in the frame is the hooked one (a page that navigated itself would be watched by nobody).
PAGE_REPORT = """
const w = document.getElementById("page").contentWindow;
const resources = w.performance.getEntriesByType("resource").map((e) => e.name);
return { resources, problems: window.__problems || [], hooks: window.__hooks || [], hooked: !!w.__hooked };
"""


# The server as `python -m partyrummy` runs it, with `frame-ancestors` dropped from each CSP header at the
# outermost WSGI layer (wherever the pages set it); `framable_server` checks the header it then serves.
FRAMABLE = """
import sys, flask
def strip(headers):
    out = []
    for k, v in headers:
        if k.lower() == "content-security-policy":
            v = "; ".join(d for d in v.split(";") if d.split() and d.split()[0] != "frame-ancestors")
        out.append((k, v))
    return out
call = flask.Flask.__call__
def framable(app, environ, start_response):
    return call(app, environ, lambda status, headers, *exc: start_response(status, strip(headers), *exc))
flask.Flask.__call__ = framable
from partyrummy.cli import main
sys.exit(main())
"""


def framable_server(*extra: str) -> LiveServer:
    """A live server on loopback whose pages may be framed (see the module docstring)."""
    server = LiveServer(*extra, command=[sys.executable, "-c", FRAMABLE])
    if "frame-ancestors" in _csp(server.url):
        server.stop()
        raise RuntimeError("the CSP still forbids framing")
    return server


def _csp(url: str) -> str:
    with urllib.request.urlopen(url + "/", timeout=10) as response:
        return response.headers.get("Content-Security-Policy", "")


class Display:
    """An Xvfb server on a free display number (Xvfb picks it and writes it to a pipe)."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1280x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.name = f":{number}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def start(display: Display) -> Any:
    """A WebKitGTK session on that display; nothing looked up or downloaded."""
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    env = dict(os.environ, DISPLAY=display.name)
    env.pop("WAYLAND_DISPLAY", None)
    service = Service(executable_path=DRIVER, env=env, log_output=subprocess.DEVNULL)
    with warnings.catch_warnings():
        # Selenium's own WebKitGTK class still passes the address the way it deprecates (selenium 4.x).
        warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
        return webdriver.WebKitGTK(options=options, service=service)


class Frame:
    """One page under test in one WebKit window, at an exact CSS size, watched for errors and foreign requests."""

    def __init__(self, driver: Any, origin: str) -> None:
        self.driver = driver
        self.origin = origin
        self.size = (0, 0)

    def open(self, url: str, width: int, height: int) -> None:
        """Load `url` in a fresh frame of width × height (a new document each time: this is also the reload)."""
        driver = self.driver
        driver.switch_to.default_content()
        if not driver.current_url.startswith(self.origin + HOLDER):
            driver.get(self.origin + HOLDER)
        driver.set_window_size(max(width, 460), height + TOOLBAR_SLACK)
        for _ in range(LOAD_TRIES):
            driver.execute_async_script(OPEN_FRAME, url, width, height)
            # The hook is raced against the page's first script: on a busy machine it can lose, and then an
            # error in that script could go unseen. Such a load is not counted; the page is loaded again.
            hooked = "const h = window.__hooks; return !h.length || h[h.length - 1].early || !h.pop();"
            if driver.execute_script(hooked):
                break
        self.size = (width, height)
        driver.switch_to.frame(driver.find_element("id", "page"))
        # The layout viewport is the frame's box, not the window's: the page sees the phone's own width.
        assert self.js("return [innerWidth, document.documentElement.clientWidth, innerHeight]") == [
            width,
            width,
            height,
        ]

    def reload(self, width: int, height: int) -> None:
        self.open(self.js("return location.href"), width, height)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def wait(self, condition: Callable[[], Any], what: str, timeout: float = 10) -> Any:
        """Poll `condition` until it is truthy (WebDriverWait polls; there is no event to wait on across the driver)."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"waited {timeout} s for {what}; the page says: {self.text()[:600]!r}") from None

    def text(self) -> str:
        return self.js("return document.body.innerText")

    def wait_text(self, text: str, timeout: float = 10) -> None:
        self.wait(lambda: text in self.text(), repr(text), timeout)

    def wait_heading(self, text: str, timeout: float = 10) -> None:
        """Until a visible heading reads `text` (in part), as the call on the TV or the phone does."""
        find = """
            return [...document.querySelectorAll("h1, h2, h3, [role=heading]")].some((h) =>
              h.getClientRects().length && h.innerText.replace(/\\s+/g, " ").includes(arguments[0]));
        """
        self.wait(lambda: self.js(find, text), f"a heading {text!r}", timeout)

    def button(self, name: str, timeout: float = 10) -> Any:
        """The enabled button named `name` (aria-label, else its text) that a finger could reach: on screen and
        not under another box (a dialog over the table), or else below the fold, to be scrolled to."""
        find = """
            const named = [...document.querySelectorAll("button")].filter((b) =>
              (b.getAttribute("aria-label") || b.textContent).trim() === arguments[0]
              && !b.disabled && b.getClientRects().length && getComputedStyle(b).visibility !== "hidden");
            const box = (b) => b.getBoundingClientRect();
            const inView = (b) => box(b).top >= 0 && box(b).bottom <= innerHeight && box(b).right <= innerWidth;
            const onTop = (b) => {
              const hit = document.elementFromPoint(box(b).left + box(b).width / 2, box(b).top + box(b).height / 2);
              return hit && (hit === b || b.contains(hit));
            };
            return named.find((b) => inView(b) && onTop(b)) || named.find((b) => !inView(b)) || null;
        """
        return self.wait(lambda: self.js(find, name), f"a button named {name!r}", timeout)

    def tap(self, name: str) -> None:
        """Tap the button: WebDriver scrolls it into view and refuses it if covered. (WebKitGTK's driver takes
        touch actions but delivers them as mouse events, so a plain click is as close to a finger as it gets.)"""
        self.button(name).click()

    def select(self, label: str, value: str) -> None:
        """Choose the option `value` in the menu whose accessible name (aria-label or its <label>) holds `label`."""
        from selenium.webdriver.support.select import Select

        find = """
            const named = (s) => (s.getAttribute("aria-label") || (s.labels[0] || {}).textContent || "").trim();
            return [...document.querySelectorAll("select")].find((s) => named(s).includes(arguments[0])) || null;
        """
        Select(self.wait(lambda: self.js(find, label), f"a menu named {label!r}")).select_by_value(value)

    def screenshot(self, path: Path) -> None:
        """The frame alone, at its CSS size (the window's picture cropped to the frame at its top left corner;
        WebKitGTK's element screenshot of an iframe comes out blank)."""
        from PIL import Image

        # Two animation frames first: WebKitGTK's screenshot is the last painted frame, which can lag the DOM.
        self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        picture = Image.open(io.BytesIO(self.driver.get_screenshot_as_png()))
        picture.crop((0, 0, *self.size)).save(path)

    def problems(self) -> list[str]:
        """Page errors, console errors, CSP blocks, requests to another host, and hooks that came too late."""
        self.driver.switch_to.default_content()
        try:
            report = self.js(PAGE_REPORT)
        finally:
            self.driver.switch_to.frame(self.driver.find_element("id", "page"))
        found = list(report["problems"])
        for url in report["resources"]:
            parsed = urlparse(url)
            if f"{parsed.scheme}://{parsed.netloc}" != self.origin:
                found.append(f"request to another host: {url}")
        if not all(h["early"] for h in report["hooks"]):
            found.append(f"the error hooks came after a page script: {report['hooks']}")
        if not report["hooked"]:
            found.append("the page in the frame navigated away from its hooks")
        return found


def screenshot_folder(name: str) -> Path:
    """A folder for one module's pictures, beside the Chromium tests' (tests/browsers.py): under
    $PARTYRUMMY_SCREENSHOTS or screenshots/, named by the time and the module, so a run's WebKit and Chromium
    pictures sit together."""
    folder = SCREENSHOTS / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def stays_quiet(frame: Frame) -> None:
    """No page error, console error or request to another host so far."""
    problems = frame.problems()
    assert not problems, problems
