"""The one harness for a night: a live server, its TV, phones and bots, with cards on the phones or real cards.

A `Night` is a room on a live server on loopback (its own server, or a new room on a server a module shares),
the host's link to it (the TV's Socket.IO connection), and whatever a test adds: phones as Socket.IO clients,
players without a phone, bots, and in Chromium the TV's page and phones' pages, watched for console errors and
requests to another host. Leaving it (`close`, or the end of a `with`) closes every client and page it opened
and stops its own server, which fails on a traceback in the server's log. tests/conftest.py's `nights` fixture
makes nights that close at the end of the test; a module whose tests share one night (or one server, a room each)
makes it in a fixture of its own.

    with Night(seed=5, mode="real", variant="browser", browser=browser) as night:
        tv = night.tv()  # the TV's page in Chromium
        ana = night.phone("Ana")  # a phone's page, joined
        bob = night.client("Bob")  # a phone over Socket.IO, joined
        night.add_people("Carla", "Dan")  # players without a phone
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partyrummy.rules.variants import Variant, default_variants, load_variants

from .browsers import Watch, join
from .live import HERE, Client, LiveServer, close_together, next_move

REAL_VARIANTS = HERE / "real.toml"  # short rule sets for real cards


class Night:
    """A room on a live server, the host's link to it, and the phones, players, bots and pages a test adds."""

    def __init__(
        self,
        *extra: str,
        rules: str = "",
        real: bool = False,
        seed: int | None = None,
        mode: str = "phones",
        variant: str | None = None,
        browser: Any = None,
        server: LiveServer | None = None,
        framable: bool = False,
        reconnect: bool = False,
    ) -> None:
        """`extra`: more of the server's arguments; `rules`: the TOML of the test's own variants (the server loads
        one variants file over the shipped ones: these, in place of tests/fast.toml); `real`: tests/real.toml's;
        `seed`: the server's seed; `mode` and `variant`: the host's choice of way to play and of rules; `browser`: a
        Chromium for the pages; `server`: a server the module shares, on which this night is a new room (it is left
        running); `framable`: a server whose pages a WebKit frame may hold (tests/webkit.py); `reconnect`: the
        host's link reconnects when it drops."""
        self.browser = browser
        self.clients: list[Client] = []  # every link it opened, closed with it
        self.joined: list[Client] = []  # the phones joined by name, in turn
        self.contexts: list[Any] = []
        self.folder = tempfile.TemporaryDirectory() if rules else None  # the test's own rules, written out
        self.rules = Path(self.folder.name) / "rules.toml" if self.folder else None
        if self.rules:
            self.rules.write_text(rules)
        self.own_server = server is None
        try:
            if server is None:
                args = [*extra, *(["--seed", str(seed)] if seed is not None else [])]
                args += ["--variants", str(REAL_VARIANTS)] if real else []
                args += ["--variants", str(self.rules)] if rules else []
                server = _framable(*args) if framable else LiveServer(*args)
                self.server = server
                self.code, self.token = server.tv_page()
            else:
                self.server = server
                self.code, self.token = server.new_room()
            self.watch = Watch(server.url)
            self.host = self.host_link(reconnect=reconnect)
            if mode != "phones":
                assert self.host.call("mode", {"mode": mode}) == {"ok": True}
            if variant:
                assert self.host.call("variant", {"name": variant})["ok"]
        except BaseException:
            self.close()
            raise

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def join_url(self) -> str:
        """The address the TV shows and its QR code holds."""
        return f"{self.server.url}/join/{self.code}"

    def variant(self, name: str) -> Variant:
        """One of the test's own rule sets, as the server loaded it."""
        assert self.rules, "a night of the shipped rules and tests/fast.toml's"
        return load_variants(self.rules, base=default_variants())[name]

    # Over Socket.IO

    def client(self, name: str | None = None, **options: Any) -> Client:
        """A phone connected to the room (Client's options); joined as `name` if given."""
        client = Client(self.server.url, self.code, **options)
        self.clients.append(client)
        if name is not None:
            assert client.join(name)["ok"], name
            self.joined.append(client)
        return client

    def host_link(self, **options: Any) -> Client:
        """Another link of the host's (each link's events are limited to ten a second)."""
        return self.client(role="host", token=self.token, **options)

    def players(self, names: int | list[str], **options: Any) -> list[Client]:
        """Phones joined in turn, by name, or as P0, P1… (a count)."""
        names = [f"P{i}" for i in range(names)] if isinstance(names, int) else names
        return [self.client(name, **options) for name in names]

    def add_people(self, *names: str) -> None:
        """Players without a phone (for real cards), added by the host."""
        for name in names:
            assert self.host.call("add_person", {"name": name})["ok"], name

    def add_bots(self, count: int, strength: str = "easy") -> None:
        for _ in range(count):
            assert self.host.call("add_bot", {"strength": strength})["ok"]

    def advance(self, people: list[Client], done: Callable[[dict], bool], limit: int = 3000) -> dict:
        """Move the night on with the host's "Call now" until `done` (see `advance`)."""
        return advance(self.host, people, done, limit)

    # In Chromium

    def page(self, url: str, phone: bool = True, **context: Any):
        """A page in a browser context of its own (Watch.open's options), watched."""
        assert self.browser is not None, "a night with pages needs a browser"
        page = self.watch.open(self.browser, url, phone=phone, **context)
        self.contexts.append(page.context)
        return page

    def tv(self, **context: Any):
        """The TV's page (1920×1080 unless told), once it has drawn its lobby."""
        page = self.page(self.server.url + "/", phone=False, **context)
        page.locator("#ring").wait_for(state="attached")
        return page

    def phone(self, name: str | None = None, size: tuple[int, int] | None = None, **context: Any):
        """A phone's page at the join address (390×844 unless told); joined as `name` if given."""
        if size:
            context["viewport"] = {"width": size[0], "height": size[1]}
        page = self.page(self.join_url, **context)
        if name is not None:
            join(page, name)
        return page

    # The end

    def close(self) -> None:
        """Close every client (together: each close takes a while) and page, then stop the night's own server."""
        close_together(self.clients)
        for context in self.contexts:
            try:
                context.close()
            except Exception:  # noqa: BLE001  the browser went first (its fixture closed it)
                pass
        if self.folder:
            self.folder.cleanup()
        if self.own_server and hasattr(self, "server") and self.server.proc.poll() is None:  # unless a test stopped it
            self.server.stop()

    def __enter__(self) -> Night:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _framable(*args: str) -> LiveServer:
    from .webkit import framable_server  # WebKit's module skips what imports it where WebKitGTK is missing

    return framable_server(*args)


def open_room(server: LiveServer, players: int, variant: str = "fast") -> tuple[Client, list[Client]]:
    """A new room on a server the module shares: the host's link (the rules chosen) and `players` phones joined."""
    night = Night(server=server, variant=variant)
    return night.host, night.players(players)


def advance(host: Client, people: list[Client], done: Callable[[dict], bool], limit: int = 3000) -> dict:
    """Move the night on with "Call now" (the caller plays for the slow) until `done`; people act first.

    The same night on every run: before each call every person has seen the call before it and made each
    move they would, one after another in seat order, each seen through before the next; whoever is left
    (the browser phones) the caller plays for, in seat order. No move races another, so no timing decides
    who drew which card.
    """
    for _ in range(limit):
        state = host.state
        if done(state):
            return state
        for person in people:
            person.wait_for(lambda s, v=state["v"]: s["v"] >= v)
        play_out(people)
        before = host.state["v"]
        assert host.call("call_now")["ok"]
        host.wait_for(lambda s, before=before: s["v"] > before)
    raise TimeoutError(f"never there: {host.state['game']}")


def play_out(people: list[Client]) -> None:
    """Each person makes every move they have, in turn, until nobody has one; each move seen through (the person's
    view has moved past it: a view that only caught up with others' moves would make the same move again)."""
    moved = True
    while moved:
        moved = False
        for person in people:
            move = next_move(person.state)
            if move is not None:
                ack = person.call(*move)
                assert ack["ok"], (move, ack)
                person.wait_for(lambda s, move=move: next_move(s) != move)
                moved = True
