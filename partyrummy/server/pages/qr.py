"""QR codes as inline SVG (no Pillow)."""

from __future__ import annotations

from functools import lru_cache

import qrcode

__all__ = ["qr_svg", "cached_qr_svg"]


def qr_svg(text: str) -> str:
    """An SVG element drawing `text` as a QR code, sized by its container.

    One path of strokes, a line one module thick along each stretch of dark modules in a row, the next one a
    relative move away: a third of the bytes of a rectangle per stretch, and the TV page weighs its QR
    (tests/test_weight.py).
    """
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    runs = []
    for y, row in enumerate(matrix):
        x, end = 0, None  # end: where the row's last stretch ended (a relative move from there)
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append(f"M{start} {y}.5h{x - start}" if end is None else f"m{start - end} 0h{x - start}")
            end = x
    size = len(matrix)
    # Let CSS size it; the box around it keeps the quiet zone white for cameras.
    return (
        f'<svg class="qr" role="img" aria-label="QR code to join" viewBox="0 0 {size} {size}" '
        f'xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges">'
        f'<path stroke="#000" d="{"".join(runs)}"/></svg>'
    )


# The join QR of each room, drawn once: a TV page asked for a thousand times draws it once.
cached_qr_svg = lru_cache(maxsize=256)(qr_svg)
