"""`partyrummy` with no command: serve the party on the LAN and print where to find it."""

from __future__ import annotations

import argparse
import logging
import socket
import threading
import webbrowser

from werkzeug.serving import ThreadedWSGIServer

from ..variants import Variant
from .app import create_app
from .netaddr import lan_address

__all__ = ["serve", "NoDelayServer"]


class NoDelayServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with TCP_NODELAY on every connection.

    Without it, Nagle's algorithm meets delayed ACKs on our small frames and
    adds ~40 ms to every reveal (FACTS.md; bench/room.py shows it).
    """

    def get_request(self) -> tuple[socket.socket, object]:
        conn, address = super().get_request()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, address


def _gevent(args: argparse.Namespace, app: object) -> object:
    """gevent's WSGI server, with TCP_NODELAY like NoDelayServer, and the same two methods serve() calls."""
    from gevent.pywsgi import WSGIServer

    class NoDelayGevent(WSGIServer):
        def handle(self, sock: socket.socket, address: object) -> None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            super().handle(sock, address)

        def server_close(self) -> None:
            self.stop()

    server = NoDelayGevent((args.host, args.port), app, log=None)
    server.init_socket()  # bind now, so a busy port is reported like the threading server's
    return server


def serve(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    public_url = (args.public_url or f"http://{lan_address()}:{args.port}").rstrip("/")
    app, _ = create_app(
        {
            "PUBLIC_URL": public_url,
            "VARIANTS": variants,
            "SEED": args.seed,
            "DATA": args.data,
            "EVENT_RATE": args.event_rate,
            "ASYNC_MODE": args.async_mode,
        }
    )
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server = NoDelayServer(args.host, args.port, app) if args.async_mode == "threading" else _gevent(args, app)
    except OSError as error:
        print(f"partyrummy: cannot listen on {args.host}:{args.port}: {error.strerror}")
        return 1
    tv = f"{public_url}/?key={app.config['SCREEN_KEY']}"
    print("PartyRummy is ready.", flush=True)
    print(f"  TV (open this on the big screen; keep the key to yourself): {tv}", flush=True)
    print(f"  Phones join at {public_url}/join/… (scan the QR code on the TV)", flush=True)
    print(f"  Listening on {args.host}:{args.port}. Ctrl+C to stop.", flush=True)
    print(f"  Rooms are kept in {app.extensions['partyrummy.rooms'].journal.path}", flush=True)
    if args.open:
        threading.Timer(0.5, webbrowser.open, args=(tv,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nBye!")
    finally:
        server.server_close()
    return 0
