"""Limits: token buckets (how many events a connection, and how many joins an address, may send), and the
WSGI guard that bounds what any client holds of the server and refuses foreign Host names."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .admission import Quota

__all__ = ["TokenBucket", "Limiter", "Guard", "GuardLimits", "PERMISSIONS_POLICY"]


@dataclass
class TokenBucket:
    """`capacity` events at once, refilled at `rate` a second."""

    capacity: float
    rate: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.capacity
        self.stamp = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Limiter:
    """One bucket per key (a connection, an address); forgotten when the key goes."""

    def __init__(self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity, self.rate, self.clock = capacity, rate, clock
        self.buckets: dict[str, TokenBucket] = {}

    def allow(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 10_000:  # bounded: a flood of keys cannot grow it forever
                self.buckets.clear()
            bucket = self.buckets[key] = TokenBucket(self.capacity, self.rate, self.clock)
        return bucket.take()

    def forget(self, key: str) -> None:
        self.buckets.pop(key, None)


Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

# Sent with every answer: the pages use no camera, microphone, location or payment; a TV may stay awake.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
    "display-capture=(), screen-wake-lock=(self), fullscreen=(self)"
)


@dataclass
class GuardLimits:
    """What one guest address, all guests together, and the laptop itself may hold of the server's requests."""

    in_flight_per_address: int = 80  # open HTTP requests (a WebSocket is one for its whole life)
    in_flight_total: int = 600  # all guests together
    in_flight_local: int = 600  # the laptop's own: guests cannot use them up
    max_body: int = 131_072  # bytes of a long-polling POST: Engine.IO's own limit, checked before it reads
    body_timeout_s: float = 10.0  # a POST body must arrive within this long


class Guard:
    """WSGI middleware in front of everything: refuse foreign Host names, and bound what any one client holds.

    Each refusal is immediate and small (no thread kept waiting): a Host this server is not served under
    (DNS rebinding: a web page in the laptop's own browser must not read the TV page), too many requests
    open from one guest address or from all guests (the laptop has its own allowance, which guests cannot
    use up), Engine.IO handshakes faster than `handshakes` allows for one address (loopback excepted), and
    long-polling bodies that are too big, unsized or slow. Every answer gets the Permissions-Policy header.
    (How many Engine.IO sessions an address may hold is the sessions' own count: admission.Sessions.)
    """

    def __init__(
        self,
        app: WSGIApp,
        hosts: set[str],
        limits: GuardLimits | None = None,
        is_local: Callable[[str], bool] = lambda address: False,
    ) -> None:
        self.app, self.hosts, self.is_local = app, {h.lower() for h in hosts}, is_local
        self.limits = limits = limits or GuardLimits()
        self.handshakes = Limiter(capacity=24, rate=1.0)
        self.open = Quota(limits.in_flight_per_address, limits.in_flight_total, limits.in_flight_local, is_local)

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        def respond(status: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
            headers = [(k, v) for k, v in headers if k.lower() != "permissions-policy"]
            headers += [("Permissions-Policy", PERMISSIONS_POLICY)]
            return start_response(status, headers, *exc)

        refusal = self._refusal(environ)
        if refusal is not None:
            return _plain(respond, *refusal)
        address = environ.get("REMOTE_ADDR") or "?"
        if not self.open.take(address):
            return _plain(respond, "503 Service Unavailable", "Too many requests at once; try again in a moment.")
        try:
            error = self._read_body(environ)
            if error is not None:
                return _plain(respond, *error)
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
            self.open.give(address)

    def _refusal(self, environ: Environ) -> tuple[str, str] | None:
        host = _host_name(environ.get("HTTP_HOST"))
        if host is not None and host not in self.hosts:
            return "421 Misdirected Request", "This server does not answer to that name."
        if not _is_socketio(environ):
            return None
        query = environ.get("QUERY_STRING", "")
        if environ.get("REQUEST_METHOD") == "GET" and "sid=" not in query:  # a new Engine.IO session
            address = environ.get("REMOTE_ADDR") or "?"
            if not self.is_local(address) and not self.handshakes.allow(address):
                return "429 Too Many Requests", "Too many connections from this device; wait a moment."
        return None

    def _read_body(self, environ: Environ) -> tuple[str, str] | None:
        """A long-polling POST's body, read here within the size and time limits, so Engine.IO never waits on it."""
        if environ.get("REQUEST_METHOD") != "POST" or not _is_socketio(environ):
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return "411 Length Required", "A message needs its length."
        if not 0 <= length <= self.limits.max_body:
            return "413 Content Too Large", "That message is too big."
        sock = environ.get("werkzeug.socket")
        try:
            if sock is not None:
                sock.settimeout(self.limits.body_timeout_s)
            body = environ["wsgi.input"].read(length)
        except OSError:
            return "408 Request Timeout", "The message did not arrive in time."
        finally:
            if sock is not None:
                try:
                    sock.settimeout(None)
                except OSError:
                    pass
        if len(body) != length:
            return "400 Bad Request", "The message was cut short."
        environ["wsgi.input"] = io.BytesIO(body)
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


def _plain(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    body = text.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
    return [body]
