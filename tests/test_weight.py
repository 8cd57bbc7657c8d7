"""Each page, with everything it loads (styles, scripts, the modules they import, its words), stays under 150 KB.

Modules a page imports later (`import("./tv-pad.js")`, the host's pad) count too: the budget is the page's all.
"""

from __future__ import annotations

import re
import urllib.request

from .live import LiveServer

LIMIT = 150 * 1024


def loaded(server: LiveServer, path: str) -> dict[str, int]:
    """The bytes of a page and of every file it pulls in, by path (each counted once)."""
    sizes: dict[str, int] = {}
    todo = [path]
    while todo:
        here = todo.pop()
        if here in sizes:
            continue
        text = server.get(here)
        sizes[here] = len(text.encode())
        if here.endswith(".html") or here == path:
            todo += re.findall(r'(?:src|href)="(/static/[^"?#]+)', text)
        elif here.endswith(".js"):
            folder = here.rsplit("/", 1)[0]
            todo += [f"{folder}/{name}" for name in re.findall(r'^import [^;]* from "\./([\w-]+\.js)";', text, re.M)]
            todo += [f"{folder}/{name}" for name in re.findall(r'\bimport\("\./([\w-]+\.js)"\)', text)]
    return sizes


def test_the_tv_and_the_phone_pages_weigh_under_150_kb_with_all_they_load() -> None:
    server = LiveServer()
    try:
        code, _ = server.tv_page()
        for page, screen in (("/", "tv"), (f"/join/{code}", "phone")):
            sizes = loaded(server, page)
            # i18n.js fetches the reader's catalog: this screen's words.
            catalogs = [server.get(f"/i18n/{tag}.json?screen={screen}") for tag in ("en", "pt-BR", "es", "ro")]
            sizes["/i18n/(the longest).json"] = max(len(words.encode()) for words in catalogs)
            assert any(p.endswith("-shared.js") for p in sizes), sizes  # the screens' modules are counted
            assert screen == "phone" or "/static/js/tv-pad.js" in sizes, sizes  # and those imported when needed
            assert sum(sizes.values()) < LIMIT, (page, sum(sizes.values()), sizes)
            with urllib.request.urlopen(server.url + page, timeout=10) as response:
                assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        server.stop()
