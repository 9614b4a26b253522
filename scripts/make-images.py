#!/usr/bin/env python3
"""Makes the images the default playlist shows (config/images/*.png), procedurally:
a mountain lake at dusk, and a sprite sheet of a turning coin. Needs numpy and pillow. Run once; the images are committed."""
import math
import struct
import sys
import zlib

import numpy as np
from PIL import Image

W = H = 800
rng = np.random.default_rng(7)


def ridge(x, base, amp, seed):
    r = np.random.default_rng(seed)
    y = np.full_like(x, base, dtype=float)
    for octave in range(1, 7):
        phase = r.uniform(0, 2 * math.pi)
        y += amp / octave**1.3 * np.sin(x * octave * 2 * math.pi / W * r.uniform(0.8, 1.6) + phase)
    return y


def lake():
    yy, xx = np.mgrid[0:H, 0:W].astype(float)
    horizon = 0.56 * H
    t = np.clip(yy / horizon, 0, 1)[..., None]
    sky = (1 - t) * np.array([38, 52, 110]) + t * np.array([250, 170, 120])
    img = sky.copy()
    # Sun.
    d = np.hypot(xx - 0.62 * W, yy - 0.47 * H)
    img += (np.clip(1 - d / 60, 0, 1) ** 0.6)[..., None] * np.array([255, 230, 180]) * 0.9
    img += (np.exp(-d / 160) * 0.35)[..., None] * np.array([255, 200, 140])
    x = np.arange(W, dtype=float)
    for base, amp, seed, colour in ((0.40 * H, 40, 1, (92, 70, 112)), (0.47 * H, 30, 2, (58, 48, 80)),
                                    (0.53 * H, 18, 3, (30, 32, 50))):
        top = ridge(x, base, amp, seed)
        mask = (yy >= top[None, :]) & (yy < horizon)
        img[mask] = np.array(colour, dtype=float)
    # Water: the sky above the horizon, mirrored, darkened, with ripples.
    below = yy >= horizon
    mirror_y = np.clip((2 * horizon - yy).astype(int), 0, H - 1)
    ripple = (np.sin(yy * 0.9 + np.sin(xx * 0.05) * 3) * 3).astype(int)
    mirror_x = np.clip(xx.astype(int) + ripple, 0, W - 1)
    water = img[mirror_y, mirror_x] * 0.72 + np.array([10, 30, 50]) * 0.28
    img[below] = water[below]
    img += rng.normal(0, 1.5, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def coin_sheet(cells=12, size=160):
    """A sprite sheet: a gold coin turning about its vertical axis, one cell per step of a
    half turn (the coin looks the same after half a turn), in a row, with transparent edges."""
    sheet = np.zeros((size, cells * size, 4))
    yy, xx = np.mgrid[0:size, 0:size].astype(float) + 0.5
    c = size / 2
    radius = 0.42 * size
    for i in range(cells):
        angle = math.pi * i / cells
        squeeze = max(abs(math.cos(angle)), 0.06)
        # Coverage of an ellipse of half-width radius·squeeze, sampled 4 × 4 per pixel.
        cover = np.zeros((size, size))
        for sy in range(4):
            for sx in range(4):
                dx = (xx - 0.5 + (sx + 0.5) / 4 - c) / (radius * squeeze)
                dy = (yy - 0.5 + (sy + 0.5) / 4 - c) / radius
                cover += (dx * dx + dy * dy <= 1) / 16
        # Shading: lit from the upper left, darker as the face turns away; a rim and a star.
        u = np.clip((xx - c) / (radius * squeeze), -1, 1)
        v = np.clip((yy - c) / radius, -1, 1)
        light = 0.75 + 0.25 * (-0.6 * u - 0.8 * v)
        face = 0.55 + 0.45 * squeeze
        rim = np.clip((np.hypot(u, v) - 0.82) * 8, 0, 1)
        star_r = 0.55 * (0.6 + 0.4 * np.cos(5 * np.arctan2(v, u + 1e-9)))
        star = (np.hypot(u, v) < star_r) & (squeeze > 0.3)
        gold = np.array([0.98, 0.78, 0.22])
        dark = np.array([0.75, 0.52, 0.08])
        colour = gold[None, None, :] * (light * face)[..., None]
        colour = colour * (1 - 0.35 * rim[..., None]) + dark[None, None, :] * 0.35 * rim[..., None]
        colour[star] = colour[star] * 0.82 + np.array([1.0, 0.93, 0.6]) * 0.18
        cell = np.zeros((size, size, 4))
        cell[..., :3] = np.clip(colour, 0, 1)
        cell[..., 3] = cover
        sheet[:, i * size:(i + 1) * size] = cell
    return (sheet * 255 + 0.5).astype(np.uint8)


def save_fast_png(rgba, path):
    """Writes an RGBA PNG whose rows use only the None, Sub and Up filters, whichever leaves
    the smallest sum of absolute bytes, as encoders choose among all five. Debian's libpng
    undoes the Paeth and Average filters a byte at a time (it is built without its SIMD
    filters), and the sprite sheet's rows mostly chose Paeth: without them the sheet decodes
    in about two thirds of the instructions, and the file is no larger."""
    h, w, _ = rgba.shape
    rows = rgba.reshape(h, w * 4).astype(np.int16)
    above = np.vstack([np.zeros((1, w * 4), np.int16), rows[:-1]])
    left = np.hstack([np.zeros((h, 4), np.int16), rows[:, :-4]])
    candidates = [rows, rows - left, rows - above]
    scores = [np.minimum(c & 255, 256 - (c & 255)).sum(axis=1) for c in candidates]
    best = np.argmin(np.stack(scores), axis=0)
    data = b"".join(bytes([f]) + (candidates[f][y] & 255).astype(np.uint8).tobytes() for y, f in enumerate(best))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(data, 9)) + chunk(b"IEND", b""))


out = sys.argv[1] if len(sys.argv) > 1 else "config/images"
photo = Image.fromarray(lake(), "RGB")
photo.save(f"{out}/lake.png", optimize=True)
# The default playlist shows the JPEG: it decodes in a fraction of the PNG's time, which the
# first frame waits for.
photo.save(f"{out}/lake.jpg", quality=92, optimize=True)
# The sheet is decoded by every `check` and reload, and while the player's first scene plays.
save_fast_png(coin_sheet(), f"{out}/coin-sheet.png")
