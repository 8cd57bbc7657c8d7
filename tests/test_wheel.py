"""The wheel carries the pages, the static files and variants.toml: installed outside the checkout, it serves the TV."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from .live import LiveServer

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_installed_wheel_serves_the_tv_page_and_its_assets(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)], check=True, timeout=600
    )
    wheel = next(dist.glob("partyrummy-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=600, cwd=tmp_path)
    server = LiveServer(command=[str(env_dir / "bin" / "partyrummy")], cwd=tmp_path)
    try:
        page = server.get("/")
        assert "<svg" in page and 'data-i18n="tv.scan"' in page
        code, _ = server.tv_page()
        assert 'data-i18n="phone.room"' in server.get(f"/join/{code}")
        # The catalogs are in the wheel: the pages' words, in every language.
        assert json.loads(server.get("/i18n/en.json"))["messages"]["tv.scan"] == "Scan to join"
        assert json.loads(server.get("/i18n/ro.json"))["messages"]["tv.scan"] == "Scanează ca să intri"
        assert "i18n.js" in page and server.get("/static/js/i18n.js")
        assert "Socket.IO v4" in server.get("/static/vendor/socket.io.esm.min.js")
        assert "tv.js" in page and server.get("/static/js/tv.js")
    finally:
        server.stop()
