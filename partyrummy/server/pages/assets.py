"""The scripts and styles as sent to browsers: minified, compressed with gzip, cached until a new version.

Each file under static/ is read, minified (scripts by rjsmin, styles by rcssmin; the vendored Socket.IO client
already is), compressed and given its ETag once, at its first request, and kept in memory: no request does that
work again. So the files as stored keep their comments, and a page's weight is what goes over the wire
(tests/test_weight.py).

A browser keeps its copy but asks before each use (Cache-Control: no-cache), and while the ETag holds it is
answered 304 with no body. Not a lifetime: the modules import each other by fixed names ("./tv-table.js"), so a
page kept for minutes could mix an old module with a new one after the server restarts with new files. A restart
reads every file anew, and a changed one gets a new ETag (one drawn from its content).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, Response, abort, request
from werkzeug.security import safe_join

__all__ = ["Asset", "Assets", "prepare", "register_assets"]

# What strips a file's comments and needless whitespace, by its suffix (a name ending .min.js is left as it is).
MINIFIERS: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".LICENSE": "text/plain; charset=utf-8",
}
# Text worth compressing; anything else (an image already compressed) goes as it is.
COMPRESSIBLE = {".js", ".css", ".svg", ".json", ".txt", ".LICENSE"}
# A browser keeps its copy and asks again before each use; a 304 answers while the file has not changed.
CACHE_CONTROL = "no-cache"


@dataclass(frozen=True)
class Asset:
    """One file as sent: its size as stored (`raw`), its bytes without compression (`body`, minified where that
    applies) and compressed (`gzipped`: None where gzip would not make them smaller), its Content-Type, and its
    ETag (drawn from `body`)."""

    raw: int
    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str

    def tag(self, packed: bool) -> str:
        """The ETag of either form: they differ, as two forms of one file must under a strong ETag."""
        return f"{self.etag}-gz" if packed else self.etag


def prepare(path: Path) -> Asset:
    """A file read, minified and compressed: the work done once per file."""
    data = path.read_bytes()
    minify = None if path.name.endswith(".min.js") else MINIFIERS.get(path.suffix)
    body = minify(data.decode("utf-8")).encode("utf-8") if minify else data
    # mtime=0: the same file compresses to the same bytes, in every process.
    packed = gzip.compress(body, compresslevel=9, mtime=0) if path.suffix in COMPRESSIBLE else None
    if packed is not None and len(packed) >= len(body):
        packed = None
    content_type = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Asset(len(data), body, packed, content_type, hashlib.sha256(body).hexdigest()[:32])


class Assets:
    """The files of one folder as sent, each prepared at its first request and kept for the server's life."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # By normalised path, and only files that exist: however a guest spells the names, no more entries than
        # the folder has files. Two first requests at once may both prepare a file; the same Asset either way.
        self._kept: dict[str, Asset] = {}

    def get(self, name: str) -> Asset | None:
        """The file `name` (a path inside the folder) as sent, or None if there is no such file."""
        path = safe_join(str(self.folder), name)
        if path is None:
            return None
        kept = self._kept.get(path)
        if kept is None:
            if not Path(path).is_file():
                return None
            kept = self._kept[path] = prepare(Path(path))
        return kept

    def send(self, name: str) -> Response:
        """The answer to a GET of `name`: gzip if the browser accepts it, 304 if its copy is this one."""
        asset = self.get(name)
        if asset is None:
            abort(404)
        packed = asset.gzipped is not None and request.accept_encodings["gzip"] > 0
        headers = {"Cache-Control": CACHE_CONTROL}
        if asset.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"  # what a cache between us and the browser must key on
        etag = asset.tag(packed)
        if request.if_none_match.contains_weak(etag):
            response = Response(status=304, headers=headers)
        else:
            body = asset.gzipped if packed else asset.body
            response = Response(body, content_type=asset.content_type, headers=headers)
            if packed:
                response.headers["Content-Encoding"] = "gzip"
        response.set_etag(etag)
        return response


def register_assets(app: Flask, folder: Path) -> Assets:
    """/static/<path> (the endpoint `static`, as the templates' url_for names it) and /favicon.ico, from `folder`."""
    assets = Assets(folder)

    def static(filename: str) -> Response:
        return assets.send(filename)

    def favicon() -> Response:
        return assets.send("favicon.svg")

    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=static, methods=["GET"])
    app.add_url_rule("/favicon.ico", endpoint="favicon", view_func=favicon, methods=["GET"])
    return assets
