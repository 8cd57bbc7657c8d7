"""`partyrummy` for attack tests: the same server, with two test-only changes made here, never in the product.

- Each request's peer address (REMOTE_ADDR) is taken from its `X-Test-Peer` header when it has one, so a
  test on 127.0.0.1 can speak as a guest on the LAN (192.168.x.y) - all traffic stays on loopback.
- Only 127.0.0.1 and ::1 are the laptop (IS_LOCAL), not all of 127.0.0.0/8: a test whose socket is bound to
  127.0.0.2, 127.0.0.3… is a guest with an address of its own, as a laptop on the Wi-Fi with several would be.
- PARTYRUMMY_TEST_NOFILE sets the open-file limit, soft and hard, as a machine with that few would have
  (macOS's default is 256, Linux's 1,024), to show a flood cannot use them all; PARTYRUMMY_TEST_CONFIG (JSON)
  sets app config keys, and under "LIMITS" changes to limits.Limits (smaller caps, shorter clocks).

Run as `python -m tests.lan_server [partyrummy options]`.
"""

from __future__ import annotations

import sys

if "threading" not in sys.argv:  # as the command does, before the web layer is imported here (the default mode)
    from gevent import monkey

    monkey.patch_all()

import faulthandler
import json
import os
import resource
import signal
from typing import Any

from partyrummy import cli
from partyrummy.server import app as app_module
from partyrummy.server import serve as server
from partyrummy.server.defences.limits import LIMITS


def peer_from_header(wsgi_app: Any) -> Any:
    def app(environ: dict, start_response: Any) -> Any:
        peer = environ.get("HTTP_X_TEST_PEER")
        if peer:
            environ["REMOTE_ADDR"] = peer
        return wsgi_app(environ, start_response)

    return app


LAPTOP = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}


def laptop_only(address: str | None) -> bool:
    """The laptop is 127.0.0.1 (and ::1) alone; 127.0.0.2 and up are guests."""
    return address in LAPTOP


def main() -> int:
    faulthandler.register(signal.SIGUSR1)  # a test stuck on the server can ask it where its threads are
    nofile = os.environ.get("PARTYRUMMY_TEST_NOFILE")
    if nofile:
        resource.setrlimit(resource.RLIMIT_NOFILE, (int(nofile), int(nofile)))
    real = app_module.create_app

    extra = json.loads(os.environ.get("PARTYRUMMY_TEST_CONFIG") or "{}")
    changes = extra.pop("LIMITS", {})

    def create_app(config: dict | None = None) -> Any:
        config = {**(config or {}), **extra, "IS_LOCAL": laptop_only}
        config["LIMITS"] = (config.get("LIMITS") or LIMITS).changed(changes)
        app, socketio = real(config)
        app.wsgi_app = peer_from_header(app.wsgi_app)
        return app, socketio

    server.create_app = create_app  # serve() calls it by this name
    return cli.main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
