"""The caller of cards on the phones, on a live server: whom a Match! window waits for."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from partyrummy.server.defences.limits import LIMITS

from .live import Client, LiveServer, phase

RULES = """
[windows]
extends = "party"
description = "Match! windows far longer than anything else, and a quick hurry (for tests)"
hand_sizes = [3, 4, 5]
beat_s = 0.2
flip_min_s = 0
match_window_s = 30
hurry_after_s = 0.3
hurry_countdown_s = 0.3
choose_min_s = 0
"""

DROP_SHOWN_S = LIMITS.drop_grace_s  # how long a seat is without a phone before the table is shown it


def leaves(host: Client, window: str, timeout: float) -> float:
    """Seconds until the table leaves this Match! window (`window`: its phase), from now."""
    start = time.monotonic()
    host.wait_for(lambda s: phase(s) != window, timeout=timeout)
    return time.monotonic() - start


@pytest.mark.slow  # about 6 s: a phone's drop is shown to the table after drop_grace_s
def test_a_match_window_waits_for_a_phone_but_not_for_one_that_dropped_off(tmp_path: Path) -> None:
    """Ana's phone and two bots. The window after the deal waits for Ana, whose phone could call Match!; once her
    phone has dropped off the table (the TV shows it), the caller goes on for her, as for the bots, and every
    window closes a beat after it opens, far inside its 30 s clock."""
    rules = tmp_path / "windows.toml"
    rules.write_text(RULES)
    server = LiveServer("--variants", str(rules), "--seed", "3")
    try:
        code, token = server.tv_page()
        host = Client(server.url, code, role="host", token=token)
        ana = Client(server.url, code)
        assert ana.join("Ana")["ok"]
        assert host.call("variant", {"name": "windows"})["ok"]
        for _ in range(2):
            assert host.call("add_bot", {"strength": "sharp"})["ok"]
        assert host.call("start")["ok"]
        bots_said = lambda s: all(seat["ready"] or seat["matched"] for seat in s["game"]["seats"][1:])  # noqa: E731
        host.wait_for(lambda s: phase(s) == "setup" and bots_said(s))
        with pytest.raises(TimeoutError):  # the bots went on at once; Ana's phone may still call Match!
            leaves(host, "setup", timeout=1.0)
        dropped = time.monotonic()
        ana.close()
        host.wait_for(lambda s: phase(s) != "setup", timeout=DROP_SHOWN_S + 3)
        assert DROP_SHOWN_S - 0.2 < time.monotonic() - dropped < DROP_SHOWN_S + 2  # not the window's 30 s
        assert not host.state["room"]["seats"][0]["connected"]
        # From now on the TV plays for Ana when her hurry runs out, and no window waits for her: neither the one after
        # each "Discard!" nor the next hand's first.
        windows: list[float] = []
        while len(windows) < 4:
            state = host.wait_for(lambda s: phase(s) in ("setup", "reveal", "scored"), timeout=10)
            if phase(state) == "scored":
                assert host.call("call_now")["ok"]  # the next hand
                host.wait_for(lambda s, hand=state["game"]["hand_no"]: s["game"]["hand_no"] > hand)
                continue
            windows.append(leaves(host, phase(state), timeout=5))
        assert max(windows) < 2.0, windows
        host.close()
    finally:
        server.stop()
