"""QR codes as inline SVG (no Pillow)."""

from __future__ import annotations

from functools import lru_cache

import qrcode
import qrcode.image.svg

__all__ = ["qr_svg", "cached_qr_svg"]


def qr_svg(text: str) -> str:
    """An SVG element drawing `text` as a QR code, sized by its container."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = image.to_string(encoding="unicode")
    # Let CSS size it; keep the quiet zone white for cameras.
    return svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR code to join" ', 1)


# The join QR of each room, drawn once: a TV page asked for a thousand times draws it once.
cached_qr_svg = lru_cache(maxsize=256)(qr_svg)
