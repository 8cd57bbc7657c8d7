"""The server's collector settings: young objects collected as Python does, full collections far rarer, what
exists at start frozen. Run in a process of its own: the settings are the whole interpreter's."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import gc
from partyrummy.server.collector import FULL_AFTER, fewer_full_collections
young, middle, full = gc.get_threshold()
fewer_full_collections()
print(gc.get_threshold() == (young, middle, FULL_AFTER), FULL_AFTER > 10 * full, gc.get_freeze_count() > 0)
"""


def test_full_collections_come_rarer_and_what_exists_is_frozen() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.split() == ["True", "True", "True"]
