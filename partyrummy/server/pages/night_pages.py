"""The pages of a night of several tables: the big screen (the night's leaderboard and its tables at a glance),
each table's own screen (the TV page of that table's room, opened with the table's key), and the guests' one way
in (`/n/CODE`): a name typed, a table found.

The big screen polls its view (`/night/CODE/view`, a few hundred bytes a second, one screen); the tables' screens
and the phones are the rooms' own, on the socket as ever.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from flask import Flask, Response, abort, jsonify, redirect, render_template, request, url_for

from ...i18n import Catalogs
from ...rules.errors import RummyError
from ...rules.names import clean_name
from ..defences.limits import LIMITS
from ..night.night import RESEATS, TABLES, Night, Nights
from ..room.rooms import Rooms
from .qr import cached_qr_svg

__all__ = ["register_night_pages"]


def register_night_pages(
    app: Flask,
    nights: Nights,
    rooms: Rooms,
    public_url: str,
    is_screen: Callable[[], bool],  # and from a page of this server (pages.from_this_server)
    limited: Callable[[], None],
    write_sheet: Callable[..., None],
) -> None:
    """The night's pages (`is_screen`: this laptop, or a screen given the key; `limited`: a guest's lookups)."""
    catalogs: Catalogs = rooms.catalogs
    base = public_url.rstrip("/")

    def lang() -> str:
        return catalogs.find(request.args.get("lang"), *request.accept_languages.values())

    def refusal(error: RummyError) -> tuple[Response, int]:
        return jsonify(
            ok=False,
            error={"code": error.code, "key": error.key, "message": catalogs.text(lang(), error.key, **error.params)},
        ), 400

    def night_or_404(code: str) -> Night:
        night = nights.get(code)
        if night is None:
            abort(404)
        return night

    def screen_only() -> None:
        """The big screen's: this laptop or the key, and from a page of this server only."""
        if not is_screen():
            abort(403)

    def keep_key(**values: Any) -> dict[str, Any]:
        return values | ({"key": request.args["key"]} if "key" in request.args else {})

    @app.get("/night")
    def night_home() -> str | Response:
        """The laptop's way into a night: the current one, or the form that begins one."""
        screen_only()
        if nights.newest is not None:
            return redirect(url_for("night_screen", **keep_key(code=nights.newest.state.code)))
        return render_template("night.html", code=None, tables=list(TABLES), variants=list(rooms.variants))

    @app.post("/night")
    def night_new() -> Response | tuple[Response, int]:
        screen_only()
        try:
            tables = int(request.form.get("tables", "0"))
            night = nights.create(tables, request.form.get("variant"))
        except ValueError:
            abort(400)
        except RummyError as error:
            return refusal(error)
        return redirect(url_for("night_screen", **keep_key(code=night.state.code)))

    @app.get("/night/<code>")
    def night_screen(code: str) -> str | Response:
        night = night_or_404(code)
        if not is_screen():
            return redirect(url_for("night_join", code=night.state.code))
        url = f"{base}/n/{night.state.code}"
        with night.lock:
            screens = [(t["table"], cached_qr_svg(screen_url(t["room"], t["key"]))) for t in night.glance()]
        return render_template(
            "night.html",
            code=night.state.code,
            join_url=url,
            qr=cached_qr_svg(url),
            variants=list(rooms.variants),
            screens=screens,
        )

    def screen_url(room: str, key: str) -> str:
        """A table's own screen: its room's TV page, with that table's key."""
        return f"{base}/table/{room}?key={key}"

    @app.get("/night/<code>/view")
    def night_view(code: str) -> Response:
        screen_only()
        night = night_or_404(code)
        with night.lock:
            tables = night.glance()
            ranked = night.standings()
            guests = [{"key": k, "name": g.name, "table": g.table + 1} for k, g in night.state.guests.items()]
            state = night.state
        for table in tables:
            table["screen"] = screen_url(table["room"], table.pop("key"))
        return jsonify(
            code=state.code,
            variant=state.variant,
            rounds=len(state.rounds),
            tables=tables,
            guests=guests,
            ranked_by=ranked.ranked_by,
            standings=[{**asdict(row), "key": None} for row in ranked.rows],  # guests' keys stay with them
            reseats=list(RESEATS),
        )

    @app.post("/night/<code>/do")
    def night_do(code: str) -> Response | tuple[Response, int]:
        """The host's actions: deal every table, seat the night again, move a guest, choose the rules."""
        screen_only()
        night = night_or_404(code)
        data = request.get_json(silent=True)
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            abort(400)
        try:
            match data["action"]:
                case "deal":
                    night.deal()
                case "reseat":
                    night.reseat(str(data.get("how")))
                case "move":
                    night.move(str(data.get("guest")), int(data.get("table", 0)) - 1)
                case "variant":
                    night.choose_variant(str(data.get("name")))
                case _:
                    abort(400)
        except (TypeError, ValueError):
            abort(400)
        except RummyError as error:
            return refusal(error)
        return jsonify(ok=True)

    @app.get("/night/<code>/scores.csv")
    def night_scores(code: str) -> Response:
        """Every table's games, table by table (the same sheets as each table's own CSV)."""
        limited()
        night = night_or_404(code)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        words = lang()
        for table, room_code in enumerate(night.state.tables):
            room = rooms.get(room_code)
            if room is None:
                continue
            with room.lock:
                sheets = room.sheets()
            for number, sheet in enumerate(sheets, 1):
                writer.writerow([catalogs.text(words, "night.csv_table", table=table + 1, n=number)])
                write_sheet(writer, catalogs, words, *sheet)
                writer.writerow([])
        return Response(
            buffer.getvalue().encode("utf-8", "replace"),
            mimetype="text/csv",
            headers={"Content-Disposition": f"attachment; filename=partyrummy-night-{night.state.code}.csv"},
        )

    @app.get("/n/<code>")
    def night_join(code: str) -> str | tuple[str, int]:
        """The guests' one way in: the page asks the night where its guest sits, or seats them by name."""
        limited()
        night = nights.get(code)
        if night is None:
            return render_template("missing.html", code=code[:8]), 404
        return render_template("night-join.html", code=night.state.code)

    @app.post("/n/<code>/seat")
    def night_seat(code: str) -> Response | tuple[Response, int]:
        limited()
        night = night_or_404(code)
        data = request.get_json(silent=True)  # JSON only: another site's form cannot post it
        if not isinstance(data, dict):
            abort(400)
        try:
            return jsonify(ok=True, **night.seat(clean_name(data.get("name"), LIMITS.name_length)))
        except RummyError as error:
            return refusal(error)

    @app.post("/n/<code>/where")
    def night_where(code: str) -> Response | tuple[Response, int]:
        limited()
        night = night_or_404(code)
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            abort(400)
        try:
            return jsonify(ok=True, **night.where(data.get("guest")))
        except RummyError as error:
            return refusal(error)

    @app.get("/table/<code>")
    def table_screen(code: str) -> str | Response:
        """A table's own screen: its room's TV page, opened with the table's key (never the laptop's)."""
        limited()
        room = rooms.get(code)
        key = request.args.get("key", "")
        if room is None or not secrets.compare_digest(key.encode(), room.host_token.encode()):
            abort(404)
        night = room.in_night
        url = f"{base}/n/{night['code']}" if night else f"{base}/join/{room.code}"
        return render_template(
            "tv.html", code=room.code, join_url=url, qr=cached_qr_svg(url), host_token=room.host_token
        )
