"""QR codes as inline SVG (no Pillow)."""

from __future__ import annotations

from functools import lru_cache

import qrcode

__all__ = ["qr_svg", "cached_qr_svg"]


def qr_svg(text: str) -> str:
    """An SVG element drawing `text` as a QR code, sized by its container.

    One path of runs, a rectangle per stretch of dark modules in a row: half the bytes of qrcode's path of
    single modules, and the TV page carries its QR twice.
    """
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append(f"M{start} {y}h{x - start}v1h{start - x}z")
    size = len(matrix)
    # Let CSS size it; the box around it keeps the quiet zone white for cameras.
    return (
        f'<svg class="qr" role="img" aria-label="QR code to join" viewBox="0 0 {size} {size}" '
        f'xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges"><path d="{"".join(runs)}"/></svg>'
    )


# The join QR of each room, drawn once: a TV page asked for a thousand times draws it once.
cached_qr_svg = lru_cache(maxsize=256)(qr_svg)
