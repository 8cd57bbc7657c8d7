"""Each page, on a night of either mode, with everything it loads (styles, scripts, the modules they import, its
words), stays under 150 KiB.

The accounting, for the TV and the phone alike: a night is played in one mode, cards on the phones or real cards
on the table. A page always loads its own files and the modules they import (statically, or later with
`import("./…")`: the host's pad counts though many nights never open it). Each mode's own modules come in with
`import()` from the page's `MODES` (tv.js, phone.js), only once a game of that mode is on: a night counts those of
its mode, with all they import, and not the other's. The test checks that no mode's module is imported statically
(it would then load on every night) and that a mode's modules are what its night adds.
"""

from __future__ import annotations

import posixpath
import re
import urllib.request

from .live import LiveServer

LIMIT = 150 * 1024
STATIC = re.compile(r'^import [^;]* from "(\.\.?/[\w./-]+\.js)";', re.M)
DYNAMIC = re.compile(r'\bimport\("\./([\w-]+\.js)"\)')
MODE = re.compile(r'(\w+): \(\) => import\("\./([\w-]+\.js)"\)')


def graph(server: LiveServer, path: str, follow_dynamic: bool, sizes: dict[str, int]) -> set[str]:
    """The files `path` pulls in, itself included (sizes noted in `sizes`): a page's src and href, a module's
    static imports, and with `follow_dynamic` its `import()`s too."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        text = server.get(here)
        sizes[here] = len(text.encode())
        if here.endswith(".js"):
            folder = here.rsplit("/", 1)[0]
            names = STATIC.findall(text) + (DYNAMIC.findall(text) if follow_dynamic else [])
            todo += [posixpath.normpath(f"{folder}/{name}") for name in names]
        elif not here.startswith("/static/"):  # the page itself
            todo += re.findall(r'(?:src|href)="(/static/[^"?#]+)', text)
    return seen


def nights(server: LiveServer, page: str) -> tuple[dict[str, set[str]], dict[str, int]]:
    """What `page` loads on a night of each mode (its MODES): what it always loads, plus that mode's modules;
    and the size of each file."""
    sizes: dict[str, int] = {}
    first = graph(server, page, False, sizes)  # the page and what it imports from the start
    entry = next(p for p in first if p.endswith(".js") and "const MODES = {" in server.get(p))
    folder = entry.rsplit("/", 1)[0]
    modes = {name: f"{folder}/{module}" for name, module in MODE.findall(server.get(entry))}
    assert sorted(modes) == ["phones", "real"], modes
    assert not set(modes.values()) & first, modes  # a mode's module is never among those loaded from the start
    # The other `import()`s of what always loads (a lazy module of both modes) load on any night.
    later = {f"{folder}/{m}" for p in first if p.endswith(".js") for m in DYNAMIC.findall(server.get(p))}
    always = set().union(first, *(graph(server, p, True, sizes) for p in later - set(modes.values())))
    return {name: always | graph(server, module, True, sizes) for name, module in modes.items()}, sizes


def test_the_tv_and_the_phone_pages_weigh_under_150_kib_on_a_night_of_either_mode() -> None:
    server = LiveServer()
    try:
        code, _ = server.tv_page()
        for page, screen in (("/", "tv"), (f"/join/{code}", "phone")):
            by_mode, sizes = nights(server, page)
            # i18n.js fetches the reader's catalog: this screen's words, in the longest language.
            catalogs = [server.get(f"/i18n/{tag}.json?screen={screen}") for tag in ("en", "pt-BR", "es", "ro")]
            words = max(len(catalog.encode()) for catalog in catalogs)
            for mode, files in by_mode.items():
                assert any(p.endswith("-shared.js") for p in files), files  # the screens' modules are counted
                total = sum(sizes[p] for p in files) + words
                assert total < LIMIT, (page, mode, total, {p: sizes[p] for p in sorted(files)})
            # Each night loads its own table and not the other's; the TV's real-cards night counts the host's pad.
            assert by_mode["phones"] - by_mode["real"] and by_mode["real"] - by_mode["phones"], by_mode
            assert screen == "phone" or "/static/js/tv-pad.js" in by_mode["real"] - by_mode["phones"], by_mode
            with urllib.request.urlopen(server.url + page, timeout=10) as response:
                assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        server.stop()
