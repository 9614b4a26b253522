#!/usr/bin/env python3
"""Makes the images the default playlist shows (config/images/*.png), procedurally:
a mountain lake at dusk. Needs numpy and pillow. Run once; the PNGs are committed."""
import math
import sys

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


out = sys.argv[1] if len(sys.argv) > 1 else "config/images"
Image.fromarray(lake(), "RGB").save(f"{out}/lake.png", optimize=True)
