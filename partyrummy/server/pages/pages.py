"""HTTP pages: the TV, the phone, the scores as CSV. Each is a shell; game state arrives over the socket."""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, redirect, render_template, request, url_for

from ...i18n import NOT_ON, Catalogs
from ..defences.buckets import Limiter
from ..defences.limits import LIMITS
from ..night.night import Nights
from ..room.room import Refused
from ..room.rooms import Rooms
from ..room.score_sheet import Score
from .night_pages import register_night_pages
from .qr import cached_qr_svg

__all__ = ["register_pages"]

# Each hand's columns in the CSV: the points, how they were entered, the points as entered before a correction.
_COLUMNS = ("csv.hand", "csv.how", "csv.corrected")
# How a score was entered, in the reader's words.
_HOW = {"played": "csv.how_played", "cards": "csv.how_cards", "typed": "csv.how_typed"}

# default-src 'self' is possible because every script, style and the Socket.IO client are served from here.
CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"


def from_this_server() -> bool:
    """Whether a POST comes from a page of this server (another site's page cannot act through the laptop's
    browser): its Origin, when the browser names one, is this server's."""
    origin = request.headers.get("Origin")
    return not origin or urlsplit(origin).netloc == request.host


def register_pages(
    app: Flask, rooms: Rooms, public_url: str, screen_key: str, is_local: Callable[[str], bool]
) -> None:
    """The pages. The TV page carries the host's token, so it opens only on this laptop (`is_local`) or with the
    screen key.

    Templates hold message keys, not words: each page loads its reader's catalog from /i18n/ and fills them in.
    """
    catalogs: Catalogs = rooms.catalogs
    # Room codes must not be listable over HTTP either: per address, as a socket connects (loopback free).
    lookups = Limiter.of(LIMITS.lookups)

    def limited() -> None:
        address = request.remote_addr or "?"
        if not is_local(address) and not lookups.allow(address):
            abort(429)

    @app.context_processor
    def languages() -> dict:
        """The menus' languages, and the page's own: the nearest to the browser's (a choice the page remembers wins)."""
        lang = catalogs.find(*request.accept_languages.values())
        return {"languages": catalogs.names(), "lang": lang, "name_length": LIMITS.name_length}

    def _unavailable(error: Refused) -> Response:
        """A room that could not be made or woken: the reason, in the reader's language."""
        lang = catalogs.find(*request.accept_languages.values())
        return Response(catalogs.text(lang, error.key, **error.params), 503, mimetype="text/plain")

    def join_url(code: str) -> str:
        return f"{public_url.rstrip('/')}/join/{code}"

    def _is_screen() -> bool:
        """This laptop itself, or a screen that was given the key."""
        key = request.args.get("key", "")
        return is_local(request.remote_addr) or secrets.compare_digest(key.encode(), screen_key.encode())

    nights = Nights(rooms)
    nights.restore()
    app.extensions["partyrummy.nights"] = nights
    screen = lambda: _is_screen() and from_this_server()  # noqa: E731
    register_night_pages(app, nights, rooms, public_url, screen, limited, _write_sheet)

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.get("/")
    def tv() -> str | Response:
        try:
            room = rooms.current()
        except Refused as error:  # the first room could not be kept: say so rather than fail
            return _unavailable(error)
        if not _is_screen():
            # A guest who typed the laptop's address: their place is the join page.
            return redirect(url_for("phone", code=room.code))
        url = join_url(room.code)
        # The QR code is drawn once per room (25-110 ms each), not for every page.
        return render_template(
            "tv.html", code=room.code, join_url=url, qr=cached_qr_svg(url), host_token=room.host_token
        )

    @app.post("/new")
    def new_room() -> Response:
        """A fresh room on the TV (a second table, or a new night); the old ones carry on.

        A POST from a page of this server only: another site's page cannot make one through the laptop's browser.
        """
        if not _is_screen() or not from_this_server():
            abort(403)
        try:
            rooms.create()
        except Refused as error:  # the disk refused to keep it, or every code is in use
            return _unavailable(error)
        return redirect(url_for("tv", **({"key": request.args["key"]} if "key" in request.args else {})))

    @app.get("/i18n/<tag>.json")
    def catalog(tag: str) -> Response:
        """One language's messages for the pages (compiled from its PO catalog when the server started)."""
        screen = request.args.get("screen")
        if tag not in catalogs.languages or screen not in (None, *NOT_ON):
            abort(404)
        # Letters as UTF-8, not \u escapes: a Romanian catalog is a fifth smaller.
        words = json.dumps(catalogs.page(tag, screen), ensure_ascii=False, separators=(",", ":"))
        return Response(words, mimetype="application/json")

    @app.get("/join/<code>")
    def phone(code: str) -> str | tuple[str, int] | Response:
        limited()
        try:
            room = rooms.get(code)
        except Refused as error:  # the server holds all the rooms it may, all in use
            return _unavailable(error)
        if room is None:
            return render_template("missing.html", code=code[:8]), 404
        return render_template("phone.html", code=room.code)

    @app.get("/room/<code>/scores.csv")
    def scores(code: str) -> Response:
        limited()
        try:
            room = rooms.get(code)
        except Refused as error:
            return _unavailable(error)
        if room is None:
            abort(404)
        with room.lock:
            sheets = room.sheets()
        if not sheets:
            abort(404)
        lang = catalogs.find(request.args.get("lang"))  # the TV's language, which its link names
        out = io.StringIO()
        writer = csv.writer(out)
        for number, sheet in enumerate(sheets, 1):
            if len(sheets) > 1:  # the night's games one after another, each headed, a blank row between
                if number > 1:
                    writer.writerow([])
                writer.writerow([catalogs.text(lang, "csv.game", n=number)])
            _write_sheet(writer, catalogs, lang, *sheet)
        return Response(
            out.getvalue().encode("utf-8", "replace"),  # a name kept from before names were checked: no 500
            mimetype="text/csv",
            headers={"Content-Disposition": f"attachment; filename=partyrummy-{room.code}.csv"},
        )


def _write_sheet(writer: Any, catalogs: Catalogs, lang: str, names: list[str], rows: list, totals: list[int]) -> None:
    """One game's sheet: a heading row, then a row a seat (each hand's three cells, then the total)."""
    heads = [catalogs.text(lang, key, hand=i + 1) for i in range(len(rows[0]) if rows else 0) for key in _COLUMNS]
    writer.writerow([catalogs.text(lang, "csv.player"), *heads, catalogs.text(lang, "csv.total")])
    for name, row, total in zip(names, rows, totals, strict=False):  # a seat that came after the game: not in it
        # A leading =, +, - or @ would be a formula in a spreadsheet.
        safe = "'" + name if name[:1] in "=+-@" else name
        cells = (_cells(catalogs, lang, score) for score in row)
        writer.writerow([safe, *(value for cell in cells for value in cell), total])


def _cells(catalogs: Catalogs, lang: str, score: Score | None) -> tuple[object, str, object]:
    """One hand's three cells of a seat's row (blank: not dealt in that hand, or never corrected)."""
    if score is None:
        return "", "", ""
    how = catalogs.text(lang, _HOW[score.how])
    return score.points, how, "" if score.corrected_from is None else score.corrected_from
