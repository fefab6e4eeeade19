#!/usr/bin/env python3
# Draws longpole's icons from one picture: a timeline whose middle bar, the
# long pole, runs past the others. Writes icons/longpole.svg and the PNGs the
# web app manifest lists (192 and 512 pixels), with the standard library
# only. The picture keeps inside the middle 80% so the icons are maskable.
#
#   python3 scripts/make-icons.py

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "icons"
GRID = 16
BACKGROUND = (0x0B, 0x57, 0xD0)
# (x, y, width, height, colour) on a 16-unit grid.
BARS = [
    (4.0, 4.5, 5.0, 1.5, (0xFF, 0xFF, 0xFF)),
    (4.0, 7.0, 8.0, 2.0, (0xF0, 0xAB, 0xFC)),
    (4.0, 10.0, 3.0, 1.5, (0xFF, 0xFF, 0xFF)),
    (8.0, 10.0, 2.5, 1.5, (0xFF, 0xFF, 0xFF)),
]


def hex_colour(rgb):
    return "#%02x%02x%02x" % rgb


def svg():
    rects = "".join(
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{hex_colour(c)}"/>' for x, y, w, h, c in BARS
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {GRID} {GRID}">'
        f'<rect width="{GRID}" height="{GRID}" fill="{hex_colour(BACKGROUND)}"/>{rects}</svg>\n'
    )


def png(size):
    scale = size / GRID
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            colour = BACKGROUND
            for x, y, w, h, c in BARS:
                if x * scale <= px < (x + w) * scale and y * scale <= py < (y + h) * scale:
                    colour = c
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def main():
    ICONS.mkdir(exist_ok=True)
    (ICONS / "longpole.svg").write_text(svg())
    for size in (192, 512):
        (ICONS / f"longpole-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
