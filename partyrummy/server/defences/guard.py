"""The WSGI guard in front of everything: foreign Host names refused, and what any one client holds of the
server's requests bounded, its bodies read within a deadline or not at all."""

from __future__ import annotations

import io
import socket
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from .admission import Quota
from .buckets import Limiter
from .deadlines import Watchdog
from .limits import Limits

__all__ = ["Guard", "PERMISSIONS_POLICY", "SOCKET_KEY"]

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

# Sent with every answer: the pages use no camera, microphone, location or payment; a TV may stay awake.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
    "display-capture=(), screen-wake-lock=(self), fullscreen=(self)"
)
# Where the server puts a request's socket in its environ (gevent's puts none; Werkzeug's has its own key).
SOCKET_KEY = "partyrummy.socket"


class Guard:
    """WSGI middleware: refuse foreign Host names, and bound what any one client holds.

    Each refusal is immediate and small: a Host this server is not served under (DNS rebinding: a web page in the
    laptop's own browser must not read the TV page), too many requests open (`requests`: the laptop has its own
    share, and an address a seat was seen at a reserve, which strangers cannot use up), Engine.IO handshakes
    faster than an address may make them (the laptop excepted), and bodies. Only a long-polling POST to a session
    its sender opened may have a body (or a page's own small form, at most `form_bytes`: FORMS): it must say its
    length, be at most `transport_bytes`, and arrive whole within `body_s`; it is read here, so nothing behind
    waits on a slow one. A body the guard will not read is
    never read by anyone: the socket's reading side is shut, and the connection ends with the answer.
    """

    def __init__(
        self,
        app: WSGIApp,
        hosts: set[str],
        limits: Limits,
        requests: Quota,
        session_address: Callable[[str], str | None],
        watchdog: Watchdog,
    ) -> None:
        self.app, self.hosts, self.limits = app, {h.lower() for h in hosts}, limits
        self.requests, self.session_address, self.watchdog = requests, session_address, watchdog
        self.handshakes = Limiter.of(limits.handshakes)

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        def respond(status: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
            headers = [(k, v) for k, v in headers if k.lower() != "permissions-policy"]
            headers += [("Permissions-Policy", PERMISSIONS_POLICY)]
            return start_response(status, headers, *exc)

        address = environ.get("REMOTE_ADDR") or "?"
        refusal = self._refusal(environ, address)
        if refusal is None and (kind := self.requests.take(address)) is None:
            refusal = "503 Service Unavailable", "Too many requests at once; try again in a moment."
        if refusal is not None:
            return _plain(respond, *refusal, close=_unread(environ))
        try:
            error = self._read_body(environ)
            if error is not None:
                return _plain(respond, *error, close=True)
            # Read the answer whole here, so the request counts as open until it is made (a WebSocket: its life).
            try:
                result = self.app(environ, respond)
            except KeyError:
                # Engine.IO's own race: a request for a session the server is closing that moment (its
                # _get_socket raises). The answer is the one it gives any session it does not know.
                if not _is_socketio(environ):
                    raise
                return _plain(respond, "400 Bad Request", "Invalid session")
            try:
                return list(result)
            finally:
                if hasattr(result, "close"):
                    result.close()
        finally:
            self.requests.give(address, kind)

    def _refusal(self, environ: Environ, address: str) -> tuple[str, str] | None:
        """Why a request is refused before anything of it is held or read; None if it is not."""
        host = _host_name(environ.get("HTTP_HOST"))
        if host is not None and host not in self.hosts:
            return "421 Misdirected Request", "This server does not answer to that name."
        length = _announced(environ)
        if not _is_socketio(environ):
            if length == 0 or (_is_form(environ) and length is not None and length <= self.limits.form_bytes):
                return None
            return "413 Content Too Large", "This page takes no message."
        post = environ.get("REQUEST_METHOD") == "POST"
        sid = parse_qs(environ.get("QUERY_STRING", "")).get("sid", [None])[0]
        if sid is None:
            if not post and not self.requests.is_local(address) and not self.handshakes.allow(address):
                return "429 Too Many Requests", "Too many connections from this device; wait a moment."  # a new session
            return None
        if self.session_address(sid) != address:  # unknown, or another device's: answered before a body is read
            return "400 Bad Request", "Invalid session"
        if length is None:
            return "411 Length Required", "A message needs its length."
        if length > (self.limits.transport_bytes if post else 0):
            return "413 Content Too Large", "That message is too big."
        return None

    def _read_body(self, environ: Environ) -> tuple[str, str] | None:
        """A long-polling POST's body (its length already checked), read here whole within `body_s`, so Engine.IO
        never waits on it; the error to answer if it does not come."""
        length = _announced(environ)
        if not length:
            return None
        sock = _socket(environ)
        watch = self.watchdog.watch(sock, self.limits.body_s, socket.SHUT_RD) if sock is not None else None
        try:
            body = environ["wsgi.input"].read(length)
        except OSError:
            body = b""
        finally:
            if watch is not None:
                watch.cancel()
        if watch is not None and watch.fired:
            return "408 Request Timeout", "The message did not arrive in time."
        if len(body) != length:
            return "400 Bad Request", "The message was cut short."
        environ["wsgi.input"] = io.BytesIO(body)
        return None


# The pages whose POSTs carry a small form: the night of several tables' (a guest's name, its screen's actions).
FORMS = ("/night", "/n/")


def _is_form(environ: Environ) -> bool:
    return environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO", "").startswith(FORMS)


def _socket(environ: Environ) -> socket.socket | None:
    return environ.get(SOCKET_KEY) or environ.get("werkzeug.socket")


def _unread(environ: Environ) -> bool:
    """For an answer given before its request's body was read: shut the socket's reading side, so no server waits
    for that body; whether there was one (then the connection ends with the answer)."""
    if _announced(environ) == 0:
        return False
    sock = _socket(environ)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass
    return True


def _announced(environ: Environ) -> int | None:
    """The body's length as the request announced it: 0 for none, None when it is chunked or not a number."""
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return None
    try:
        return int(environ.get("CONTENT_LENGTH") or "0")
    except ValueError:
        return None


def _is_socketio(environ: Environ) -> bool:
    return environ.get("PATH_INFO", "").startswith("/socket.io/")


def _host_name(header: str | None) -> str | None:
    """The name in a Host header, without its port ("[::1]:8765" -> "::1"); None when there is none."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _plain(start_response: StartResponse, status: str, text: str, close: bool = False) -> list[bytes]:
    body = text.encode()
    headers = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))]
    start_response(status, headers + ([("Connection", "close")] if close else []))
    return [body]
