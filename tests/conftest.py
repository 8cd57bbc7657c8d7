"""Shared fixtures: the shipped variants, a module's live server, nights (tests/night.py), Chromium and its screenshots,
and no Socket.IO client that outlives its module."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import socketio

from partyrummy.rules.variants import Variant, default_variants

from .browsers import ARGS, CHROMIUM, need_chromium, shots_folder
from .live import LiveServer
from .night import Night


@pytest.fixture(scope="session")
def variants() -> dict[str, Variant]:
    return default_variants()


@pytest.fixture(scope="session")
def party(variants: dict[str, Variant]) -> Variant:
    return variants["party"]


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """A live server the module's tests share, started with its `server` mark's arguments (LiveServer's)."""
    mark = request.node.get_closest_marker("server")
    live = LiveServer(*mark.args, **mark.kwargs) if mark else LiveServer()
    yield live
    live.stop()  # fails on a traceback in its log


@pytest.fixture(scope="module", params=["chromium"])  # the engine, in each test's id (tests/test_webkit.py: [webkit])
def browser():
    """Debian's headless Chromium (Playwright), one for a module's tests: each page has a context of its own
    (its own storage, language and size), so no test sees another's."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def shots(capsys) -> Iterator[Path]:
    """A folder for the test's screenshots, named when the test ends."""
    folder = shots_folder()
    yield folder
    with capsys.disabled():
        print(f"\nscreenshots: {folder}")


@pytest.fixture
def nights() -> Iterator[Callable[..., Night]]:
    """Makes nights (Night's arguments) that close when the test ends."""
    made: list[Night] = []

    def make(*extra: str, **options) -> Night:
        made.append(Night(*extra, **options))
        return made[-1]

    yield make
    with ExitStack() as stack:  # every night closed, whichever fails
        for each in made:
            stack.callback(each.close)


@pytest.fixture(scope="session")
def _socketio_clients():
    """Every python-socketio client the tests make (tests/live.py's, SimpleClient's, in-process bots')."""
    made: weakref.WeakSet = weakref.WeakSet()
    original = socketio.Client.__init__

    def init(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        made.add(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socketio.Client, "__init__", init)
        yield made


@pytest.fixture(scope="module", autouse=True)
def _no_client_outlives_its_module(_socketio_clients):
    """Stop every client a module left connected or reconnecting.

    A client still trying to reconnect to a server its test stopped draws from the global random module on
    its own thread, which makes later hypothesis tests fail as "flaky" (they check that nothing else moves
    the global random state while they draw).
    """
    yield
    for client in list(_socketio_clients):
        client.shutdown()
