"""Each page, on a night of either mode, with everything it loads (styles, scripts, the modules they import, its
words), stays under 150 KiB as sent over the wire to a browser that accepts gzip.

What is counted is what the server sends: scripts and styles minified and compressed (server/pages/assets.py), so
the files as stored keep their comments; the page and its words as they go. The test prints each night's weight
three ways: as sent, minified (before compression), and as stored.

The accounting, for the TV and the phone alike: a night is played in one mode, cards on the phones or real cards
on the table. A page always loads its own files and the modules they import (statically, or later with
`import("./…")`: the host's pad counts though many nights never open it). Each mode's own modules come in with
`import()` from the page's `MODES` (tv.js, phone.js), only once a game of that mode is on: a night counts those of
its mode, with all they import, and not the other's. The test checks that no mode's module is imported statically
(it would then load on every night) and that a mode's modules are what its night adds. The imports are read from
the scripts as sent.
"""

from __future__ import annotations

import gzip
import posixpath
import re
import urllib.request
from dataclasses import dataclass

from partyrummy.resources import resource_path

from .live import LiveServer

LIMIT = 150 * 1024
STORED = resource_path("static")
# Imports as the minified scripts write them (`import{a}from"./x.js"`), or as stored.
STATIC = re.compile(r'\bimport\s*(?:[\w$*{},\s]+?\s*from\s*)?"(\.\.?/[\w./-]+\.js)"')
DYNAMIC = re.compile(r'\bimport\(\s*"\./([\w-]+\.js)"\s*\)')
MODE = re.compile(r'(\w+):\s*\(\)\s*=>\s*import\(\s*"\./([\w-]+\.js)"\s*\)')
ENTRY = re.compile(r"\bconst MODES\s*=\s*\{")


@dataclass(frozen=True)
class Sent:
    """One file as a browser that accepts gzip gets it: its text, and its size over the wire, uncompressed
    (minified, for a script or a style) and as stored."""

    text: str
    wire: int
    plain: int
    raw: int


def fetch(server: LiveServer, path: str) -> Sent:
    asked = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(asked, timeout=10) as response:
        wire = response.read()
        packed = response.headers.get("Content-Encoding") == "gzip"
    plain = gzip.decompress(wire) if packed else wire
    if not path.startswith("/static/"):
        return Sent(plain.decode(), len(wire), len(plain), len(plain))
    assert packed, path  # every script and style goes compressed
    stored = (STORED / path.removeprefix("/static/")).read_text()
    if path.endswith(".js"):  # the modules a script imports, read as sent: the same as those it names as stored
        for imports in (STATIC, DYNAMIC):
            assert imports.findall(plain.decode()) == imports.findall(stored), path
    return Sent(plain.decode(), len(wire), len(plain), len(stored.encode()))


class Files(dict[str, Sent]):
    """The files fetched so far, by path: each fetched once."""

    def __init__(self, server: LiveServer) -> None:
        super().__init__()
        self.server = server

    def __missing__(self, path: str) -> Sent:
        self[path] = fetch(self.server, path)
        return self[path]


def graph(files: Files, path: str, follow_dynamic: bool) -> set[str]:
    """The files `path` pulls in, itself included: a page's src and href, a module's static imports, and with
    `follow_dynamic` its `import()`s too."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        text = files[here].text
        if here.endswith(".js"):
            folder = here.rsplit("/", 1)[0]
            names = STATIC.findall(text) + (DYNAMIC.findall(text) if follow_dynamic else [])
            todo += [posixpath.normpath(f"{folder}/{name}") for name in names]
        elif not here.startswith("/static/"):  # the page itself
            todo += re.findall(r'(?:src|href)="(/static/[^"?#]+)', text)
    return seen


def nights(files: Files, page: str) -> dict[str, set[str]]:
    """What `page` loads on a night of each mode (its MODES): what it always loads, plus that mode's modules."""
    first = graph(files, page, False)  # the page and what it imports from the start
    entry = next(p for p in first if p.endswith(".js") and ENTRY.search(files[p].text))
    folder = entry.rsplit("/", 1)[0]
    modes = {name: f"{folder}/{module}" for name, module in MODE.findall(files[entry].text)}
    assert sorted(modes) == ["phones", "real"], modes
    assert not set(modes.values()) & first, modes  # a mode's module is never among those loaded from the start
    # The other `import()`s of what always loads (a lazy module of both modes) load on any night.
    later = {f"{folder}/{m}" for p in first if p.endswith(".js") for m in DYNAMIC.findall(files[p].text)}
    always = set().union(first, *(graph(files, p, True) for p in later - set(modes.values())))
    return {name: always | graph(files, module, True) for name, module in modes.items()}


def test_the_tv_and_the_phone_pages_weigh_under_150_kib_on_a_night_of_either_mode() -> None:
    server = LiveServer()
    try:
        code, _ = server.tv_page()
        files = Files(server)
        for page, screen in (("/", "tv"), (f"/join/{code}", "phone")):
            by_mode = nights(files, page)
            # i18n.js fetches the reader's catalog: this screen's words, in the longest language.
            catalogs = [fetch(server, f"/i18n/{tag}.json?screen={screen}") for tag in ("en", "pt-BR", "es", "ro")]
            words = max(catalogs, key=lambda catalog: catalog.wire)
            for mode, paths in by_mode.items():
                assert any(p.endswith("-shared.js") for p in paths), paths  # the screens' modules are counted
                sent = [files[p] for p in paths] + [words]
                wire, plain, raw = (sum(getattr(s, way) for s in sent) for way in ("wire", "plain", "raw"))
                print(f"\n{screen:5} {mode:6}: {wire:7,} B sent, {plain:7,} minified, {raw:7,} as stored", end="")
                assert wire < LIMIT, (page, mode, wire, {p: files[p].wire for p in sorted(paths)})
            # Each night loads its own table and not the other's; the TV's real-cards night counts the host's pad.
            assert by_mode["phones"] - by_mode["real"] and by_mode["real"] - by_mode["phones"], by_mode
            assert screen == "phone" or "/static/js/tv-pad.js" in by_mode["real"] - by_mode["phones"], by_mode
            with urllib.request.urlopen(server.url + page, timeout=10) as response:
                assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        server.stop()
