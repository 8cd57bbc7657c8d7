"""A night of three tables through its pages: 30 guests seated by the big screen's one code, every table dealt
from its button, each table's own screen, the night's leaderboard from the sofa, a guest moved, a restart, and a
table switched to real cards.

One night on one live server, shared by the module's tests in turn (each needs the ones before it): the big screen
(the laptop's page, 1920×1080) in Chromium; three guests on phone pages (two at 390×844, one at 320×568) who open
the address the big screen's code holds and type a long name; 27 guests seated through the same way in by the
tests' Socket.IO clients (the bots). The phone pages' seats are played by a second device each (a tests Client
holding the token the page keeps), as the phone pages' cards are not the subject here. The rules are fast3 (three
hands, no waiting). Screenshots go to screenshots/<time>/night/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from partyrummy.server.pages.qr import cached_qr_svg

from .browsers import ARGS, CHROMIUM, Watch, need_chromium, shots_folder
from .layout import count_visible, playwright_js
from .live import Client, LiveServer, close_together, free_port, play_until
from .night_helpers import begin, dealt_hands, post, seat, view
from .screens import LONG_NAMES, TABLE, host_tools, tv_problems

pytestmark = pytest.mark.slow

# 30 distinct names of up to 20 characters, from the TV tests' widest.
NAMES = [n if i < 12 else f"{n[:17].rstrip(' -')} {i:02d}" for i, n in enumerate(LONG_NAMES * 3)][:30]
PHONES = [(NAMES[1], 390, 844), (NAMES[5], 390, 844), (NAMES[6], 320, 568)]  # the guests with a phone page
BOARD = {  # the big screen, read from the sofa: the leaderboard's rows and the tables, none over another
    "overlap": [
        [".n-row", ".n-row"],
        [".n-board-box", ".n-tables"],
        [".n-join", ".n-tables"],
        [".n-board-box", ".n-join"],
        [".n-top", ".n-tables, .n-join"],
    ],
    "covered": ".n-row, .n-table",
}
# The guest's line in the host's menu says their new table.
MOVED = """([key, to]) => [...document.querySelectorAll('#n-guest option')]
  .some((o) => o.value === key && o.textContent.endsWith(`(T${to})`))"""
# A TV page's link to the server lost (window.lost), then back: its body is "offline" meanwhile.
LINK = """() => new MutationObserver(() => { window.lost ||= document.body.classList.contains("offline"); })
  .observe(document.body, { attributes: true, attributeFilter: ["class"] })"""
# Every notice a phone page shows, kept in window.said (a notice shows for a few seconds only).
NOTICES = """addEventListener("DOMContentLoaded", () => {
  window.said = [];
  const box = document.getElementById("notice");
  new MutationObserver(() => { if (!box.hidden) window.said.push(box.textContent); })
    .observe(box, { childList: true, characterData: true, subtree: true, attributes: true });
});"""
TOLD = "You play at table [123]"
HIDE_CONTROLS_S = 12  # the host's controls hide 8 s after the laptop's mouse last moved


@dataclass
class Evening:
    """The module's night: its server, its pages and its clients, and the steps done so far."""

    server: LiveServer
    data: Path
    port: int
    code: str
    browser: Any
    folder: Path
    watch: Watch
    big: Any = None  # the big screen's page
    phones: dict[str, Any] = field(default_factory=dict)  # the phone pages, by name
    seated: dict[str, dict] = field(default_factory=dict)  # where each guest sat (table, room, token, guest)
    clients: dict[str, Client] = field(default_factory=dict)  # each guest's Socket.IO client, by name
    hosts: list[Client] = field(default_factory=list)  # each table's host link, for "Call now" between hands
    screens: dict[int, Any] = field(default_factory=dict)  # the tables' own screens opened, by table
    done: set[str] = field(default_factory=set)

    def need(self, step: str) -> None:
        if step not in self.done:
            pytest.skip(f"needs the step before: {step}")

    def at(self, table: int) -> list[Client]:
        """The clients of the guests seated at this table (1-based), by seat."""
        players = [c for c in self.clients.values() if c.room == self.tables()[table - 1]["room"] and c.state]
        return sorted(players, key=lambda c: c.state["room"]["you"]["seat"])

    def tables(self) -> list[dict]:
        return view(self.server, self.code)["tables"]

    def laptop_used(self) -> None:
        """The host moves the laptop's mouse over the big screen: its controls show."""
        self.big.mouse.move(200, 200)
        self.big.mouse.move(220, 210)
        self.big.locator("#n-host").wait_for(state="visible")

    def server_post(self, path: str, body: dict) -> dict:
        status, answer = post(self.server, path, body)
        assert status == 200 and answer["ok"], answer
        return answer

    def problems(self) -> list[str]:
        found, self.watch.problems[:] = list(self.watch.problems), []
        return found


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory):
    need_chromium()
    from playwright.sync_api import sync_playwright

    data = tmp_path_factory.mktemp("night") / "rooms.sqlite3"
    port = free_port()
    server = LiveServer(data=data, port=port)
    night: Evening | None = None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                code = begin(server, 3, "fast3")
                night = Evening(server, data, port, code, browser, shots_folder() / "night", Watch(server.url))
                night.folder.mkdir()
                night.big = night.watch.open(browser, f"{server.url}/night/{code}", phone=False)
                yield night
            finally:
                if night is not None:
                    close_together([*night.clients.values(), *night.hosts])
                    print(f"\nscreenshots: {night.folder}")
                browser.close()
    finally:
        (night.server if night is not None else server).stop()  # the server of the moment (one restarted)


def test_the_tv_s_drawer_leads_the_host_to_the_night(evening: Evening) -> None:
    """The laptop's TV, in its lobby: the host's drawer offers the night, which opens the night's big screen."""
    tv = evening.watch.open(evening.browser, f"{evening.server.url}/", phone=False)
    host_tools(tv)
    tv.get_by_role("link", name="A night of several tables").click()
    tv.wait_for_url(f"**/night/{evening.code}")
    tv.locator(".n-table").nth(2).wait_for()
    tv.context.close()
    assert not evening.problems()


def test_thirty_guests_come_in_by_the_big_screen_s_one_code_three_tables_of_ten(evening: Evening) -> None:
    big = evening.big
    address = big.locator(".n-url").inner_text().strip()
    assert address == f"{evening.server.url}/n/{evening.code}"
    # Three guests with a phone: the address the code holds, a long name typed, and their table's page.
    for name, width, height in PHONES:
        phone = evening.watch.open(
            evening.browser, address, script=NOTICES, viewport={"width": width, "height": height}
        )
        phone.locator("#name").fill(name)
        phone.get_by_role("button", name="Join", exact=True).click()
        phone.wait_for_url(re.compile(r"/join/[A-Z]{4}$"))
        said = phone.wait_for_function(f"() => window.said.find((s) => /^{TOLD}$/.test(s))").json_value()
        room = phone.url.rsplit("/", 1)[1]
        table = int(said[-1])
        phone.screenshot(path=str(evening.folder / f"phone-{width}x{height}-table-{table}.png"))
        token = phone.evaluate(f"localStorage.getItem('pr.token.{room}')")
        guest = phone.evaluate(f"localStorage.getItem('pr.night.{evening.code}')")
        evening.phones[name] = phone
        evening.seated[name] = {"table": table, "room": room, "token": token, "guest": guest}
    # Seated at the emptiest table each: one phone page at each table.
    assert sorted(s["table"] for s in evening.seated.values()) == [1, 2, 3]
    for name in NAMES:
        if name not in evening.seated:
            evening.seated[name] = seat(evening.server, evening.code, name)
    for name, where in evening.seated.items():
        evening.clients[name] = Client(evening.server.url, where["room"], token=where["token"])
        assert evening.clients[name].state["room"]["you"]["role"] == "player"
    # The big screen shows three tables of ten.
    big.locator(".n-table").nth(2).wait_for()
    big.wait_for_function(
        "() => [...document.querySelectorAll('.n-table-head')].every((h) => /\\b10\\b/.test(h.innerText))"
    )
    heads = big.locator(".n-table-head").all_inner_texts()
    assert [re.sub(r"\s+", " ", h) for h in heads] == [f"Table {n} 10 players" for n in (1, 2, 3)], heads
    assert big.locator("#n-status").inner_text().startswith("30 ")
    assert big.locator("#n-board-head").inner_text() == "The leaderboard fills as hands are scored"  # nobody ranked yet
    assert [len(t["players"]) for t in evening.tables()] == [10, 10, 10]
    big.screenshot(path=str(evening.folder / "big-seated.png"))
    assert not evening.problems()
    evening.done.add("seated")


def test_the_big_screen_s_button_deals_every_table(evening: Evening) -> None:
    evening.need("seated")
    evening.hosts = [
        Client(evening.server.url, t["room"], role="host", token=t["screen"].split("key=")[1]) for t in evening.tables()
    ]
    evening.laptop_used()
    evening.big.get_by_role("button", name="Deal at every table").click()
    for host in evening.hosts:
        host.wait_for(lambda s: s["game"] is not None and s["game"]["phase"] == "draw")
    evening.big.wait_for_function("() => document.querySelectorAll('.n-table.playing').length === 3")
    assert evening.big.locator("#n-deal").is_disabled()  # no second deal while the tables play
    assert not evening.problems()
    evening.done.add("dealt")


def test_each_table_s_screen_from_the_big_screen_shows_its_game(evening: Evening) -> None:
    evening.need("dealt")
    for table in (1, 2, 3):
        evening.laptop_used()
        with evening.big.context.expect_page() as opened:
            evening.big.get_by_role("link", name=f"Table {table}'s screen").click()
        screen = opened.value
        screen.set_viewport_size({"width": 1280, "height": 800})
        screen.locator("#table").wait_for()
        screen.locator(".brand", has_text=f"Table {table} of 3").wait_for()
        screen.locator("#seats > li").nth(9).wait_for()
        screen.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
        screen.screenshot(path=str(evening.folder / f"table-{table}-1280x800.png"))
        assert tv_problems(playwright_js(screen), 1280, TABLE) == []
        evening.screens[table] = screen
    for table in (1, 2):  # table 3's stays open: its host switches it to real cards later
        evening.screens.pop(table).close()
    # The same screens as codes, for a tablet to scan: each one the link of its table's screen.
    evening.laptop_used()
    evening.big.locator("#n-codes-open").click()
    codes = evening.big.locator("#n-codes svg")
    codes.nth(2).wait_for()
    links = [t["screen"] for t in view(evening.server, evening.code)["tables"]]
    drawn = evening.big.eval_on_selector_all("#n-codes svg", "(all) => all.map((svg) => svg.outerHTML)")
    assert [squeeze(svg) for svg in drawn] == [squeeze(cached_qr_svg(link)) for link in links]
    evening.big.screenshot(path=str(evening.folder / "big-screen-codes.png"))
    evening.big.locator("#n-codes-close").click()
    assert not evening.problems()
    evening.done.add("screens")


def squeeze(svg: str) -> str:
    """An SVG's drawing, whatever the quotes and spaces of its markup (as the page serialises it again)."""
    return "".join(re.findall(r'\bd="([^"]+)"', svg.replace("'", '"')))


def test_every_table_plays_the_same_cards_seat_by_seat(evening: Evening) -> None:
    evening.need("screens")
    for table, host in enumerate(evening.hosts, 1):
        play_until(host, evening.at(table), lambda s: s["game"]["game_over"])
    dealt = [[dealt_hands(c) for c in evening.at(table)] for table in (1, 2, 3)]
    assert len(dealt[0]) == 10 and all(len(hands) == 3 for hands in dealt[0])
    assert dealt[0] == dealt[1] == dealt[2]
    shown = view(evening.server, evening.code)
    assert shown["ranked_by"] == "duplicate" and len(shown["standings"]) == 30
    evening.big.wait_for_function("() => document.querySelectorAll('.n-table.playing').length === 0")
    assert not evening.problems()
    evening.done.add("played")


def board_problems(page, width: int) -> list[str]:
    """The leaderboard as the sofa reads it: all 30 rows wholly in sight, nothing over another, text big enough."""
    rows = count_visible(playwright_js(page), "#n-board .n-row:not(.n-heads)")
    found = [] if rows == 30 else [f"{rows} of 30 rows wholly visible"]
    return found + tv_problems(playwright_js(page), width, BOARD)


def test_the_leaderboard_reads_from_the_sofa(evening: Evening) -> None:
    evening.need("played")
    big = evening.big
    big.locator("#n-board .n-row:not(.n-heads)").nth(29).wait_for()
    ro = evening.watch.open(evening.browser, big.url, phone=False, locale="ro-RO")
    ro.locator("#n-board .n-row:not(.n-heads)").nth(29).wait_for()
    assert ro.evaluate("document.documentElement.lang") == "ro"
    found = {}
    for lang, page in (("en", big), ("ro", ro)):
        # The host's controls out of sight: the laptop left alone (they hide by themselves).
        page.wait_for_function("() => !document.body.classList.contains('host-near')", timeout=HIDE_CONTROLS_S * 1000)
        for width, height in ((1920, 1080), (1280, 720)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page.screenshot(path=str(evening.folder / f"board-{height}p-{lang}.png"))
            if problems := board_problems(page, width):
                found[f"{height}p {lang}"] = problems
    ro.close()
    big.set_viewport_size({"width": 1920, "height": 1080})
    assert not found, found
    assert not evening.problems()
    evening.done.add("board")


def test_a_guest_moved_from_the_big_screen_finds_their_new_table_by_themselves(evening: Evening) -> None:
    evening.need("played")
    name = next(n for n in evening.phones if evening.seated[n]["table"] == 3)
    bot = next(n for n, s in evening.seated.items() if s["table"] == 2 and n not in evening.phones)
    tables = evening.tables()
    # The host moves the guest with a phone page to table 2, and one from table 2 to table 3: ten at each still.
    for who, to in ((name, 2), (bot, 3)):
        evening.laptop_used()
        evening.big.locator("#n-guest").select_option(evening.seated[who]["guest"])
        evening.big.locator("#n-to").select_option(str(to))
        evening.big.get_by_role("button", name="Move", exact=True).click()
        evening.big.wait_for_function(MOVED, arg=[evening.seated[who]["guest"], to])
    evening.big.wait_for_function(
        "() => [...document.querySelectorAll('.n-table-head')].every((h) => /\\b10\\b/.test(h.innerText))"
    )
    # Their phone page is told, goes to the night's address, and from there to table 2's page, seated.
    phone = evening.phones[name]
    room = tables[1]["room"]
    phone.wait_for_url(f"**/join/{room}")
    phone.wait_for_function("() => window.said.includes('You play at table 2')")
    assert phone.url.endswith(f"/join/{room}")
    phone.screenshot(path=str(evening.folder / "phone-moved.png"))
    for who in (name, bot):
        evening.clients.pop(who).close()
        where = evening.server_post(f"/n/{evening.code}/where", {"guest": evening.seated[who]["guest"]})
        evening.seated[who] |= {"table": where["table"], "room": where["room"], "token": where["token"]}
    assert phone.evaluate(f"localStorage.getItem('pr.token.{room}')") == evening.seated[name]["token"]
    assert [len(t["players"]) for t in evening.tables()] == [10, 10, 10]
    assert not evening.problems()
    evening.done.add("moved")


def board_text(page) -> list[str]:
    return [re.sub(r"\s+", " ", row) for row in page.locator("#n-board .n-row, .n-table-head").all_inner_texts()]


def test_after_a_restart_the_big_screen_and_the_phones_are_back(evening: Evening) -> None:
    evening.need("moved")
    big = evening.big
    before = board_text(big)
    screen = evening.screens[3]
    screen.evaluate(LINK)
    close_together([*evening.clients.values(), *evening.hosts])
    evening.clients.clear()
    evening.server.kill()  # no shutdown: what the night showed was in the journal before
    evening.server = LiveServer(data=evening.data, port=evening.port)
    big.reload()
    big.locator("#n-board .n-row:not(.n-heads)").nth(29).wait_for()
    assert board_text(big) == before
    # Table 3's screen and every phone page back in its seat by itself (its socket reconnects to the same address).
    for name, phone in evening.phones.items():
        phone.wait_for_function('() => window.said.includes("You\'re back: same seat, hand safe")', timeout=20_000)
        assert phone.locator("#join-form").is_hidden()
        assert phone.evaluate(f"localStorage.getItem('pr.token.{evening.seated[name]['room']}')")
    screen.wait_for_function("() => window.lost && !document.body.classList.contains('offline')", timeout=20_000)
    for name, where in evening.seated.items():
        evening.clients[name] = Client(evening.server.url, where["room"], token=where["token"])
        assert evening.clients[name].state["room"]["you"]["role"] == "player", name
    evening.hosts = [
        Client(evening.server.url, t["room"], role="host", token=t["screen"].split("key=")[1]) for t in evening.tables()
    ]
    # While the server was away the pages' requests failed: that is all they logged.
    away = evening.problems()
    assert all("ERR_CONNECTION_REFUSED" in p for p in away), away
    evening.done.add("restarted")


def test_a_table_switched_to_real_cards_plays_beside_the_phones_tables(evening: Evening) -> None:
    evening.need("restarted")
    screen = evening.screens[3]  # table 3's own screen, back by itself after the restart
    screen.mouse.move(300, 300)
    screen.mouse.move(320, 310)
    screen.locator("#lobby").wait_for()  # its seats changed by the moves: back in the lobby, its game kept
    screen.locator("#mode-real").click()
    evening.hosts[2].wait_for(lambda s: s["room"]["mode"] == "real")
    seen = {name: len(client.views) for name, client in evening.clients.items()}
    evening.laptop_used()
    evening.big.get_by_role("button", name="Deal at every table").click()
    for host in evening.hosts:
        host.wait_for(lambda s: s["game"] is not None and not s["game"]["game_over"])
    # Table 3's screen shows the real-cards table; tables 1 and 2 play on the phones.
    screen.locator("body.real #table").wait_for()
    screen.locator("#call-big", has_text="Deal 3 cards each").wait_for()
    screen.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    screen.screenshot(path=str(evening.folder / "table-3-real-1280x800.png"))
    assert tv_problems(playwright_js(screen), 1280, TABLE) == []
    assert [h.state["game"]["mode"] for h in evening.hosts] == ["phones", "phones", "real"]
    for table, host in enumerate(evening.hosts[:2], 1):
        play_until(host, evening.at(table), lambda s: s["game"]["game_over"])
    by_name = {client: name for name, client in evening.clients.items()}
    dealt = [[dealt_hands(c, seen[by_name[c]]) for c in evening.at(table)] for table in (1, 2)]
    assert len(dealt[0]) == 10 and all(len(hands) == 3 for hands in dealt[0])
    assert dealt[0] == dealt[1]
    # The big screen: table 3 plays real cards, and the night is ranked by totals.
    big = evening.big
    big.locator(".n-table").nth(2).locator(".n-real", has_text="real cards").wait_for()
    big.locator("#n-board-head", has_text="Ranked by totals").wait_for()
    big.wait_for_function("() => !document.body.classList.contains('host-near')", timeout=HIDE_CONTROLS_S * 1000)
    big.screenshot(path=str(evening.folder / "big-real-table.png"))
    assert board_problems(big, 1920) == []
    assert view(evening.server, evening.code)["ranked_by"] == "totals"
    assert not evening.problems()
