"""The label rule of issue 48, shared by the generators of labelled blur sets.

Imported by datasets/make-labelled-set and datasets/make-independent-set (which put datasets/ on
sys.path). Two parts (testdata/LABELLING.md, "The label"):

- Strengths are given in pixels of the photo shown at DISPLAY (1024) px on its long side, what a
  person judges; `display_scale(img)` is the factor that turns such a strength into pixels of
  `img` (its long side over 1024), so a 3 px blur named for 1024 px is 4 px on a 1365x1024 plane
  and 1.5 px on a 512 px crop.
- Two photos closer than MIN_PSNR_DB (PSNR of BT.601 luma, both brought to 1024 px on the long
  side by area resampling) cannot carry different labels. `Family.decide()` applies it to an
  original and the copies made from it: every cross-label pair closer than that is left out, both
  photos, and where the original is one of them, every copy that close to it too.

Needs numpy and opencv-python-headless. Deterministic: no randomness, float64 arithmetic.
"""
import math

import cv2
import numpy as np

DISPLAY = 1024           # the long side at which a person judges a photo (issue 48)
MIN_PSNR_DB = 40.0       # photos closer than this cannot carry different labels
BT601 = np.array([0.114, 0.587, 0.299])   # weights of B, G, R (OpenCV's channel order)


def display_scale(img):
    """Pixels of `img` per pixel of the photo shown at DISPLAY px on its long side."""
    return max(img.shape[:2]) / DISPLAY


def display_size(w, h):
    """(width, height) with the long side DISPLAY, aspect rounded half up."""
    if w >= h:
        return DISPLAY, max(1, (h * DISPLAY + w // 2) // w)
    return max(1, (w * DISPLAY + h // 2) // h), DISPLAY


def display_luma(img, size=None):
    """BT.601 luma (float64, 0..255) of 8-bit BGR `img`, INTER_AREA to `size` (width, height),
    by default the long side at DISPLAY px."""
    y = img.astype(np.float64) @ BT601 if img.ndim == 3 else img.astype(np.float64)
    h, w = y.shape
    size = size or display_size(w, h)
    if (w, h) == tuple(size):
        return y
    return cv2.resize(y, tuple(size), interpolation=cv2.INTER_AREA)


def psnr(a, b):
    """PSNR in dB of two luma planes of one size (inf when identical)."""
    mse = float(np.mean((a - b) ** 2))
    return math.inf if mse == 0 else 10.0 * math.log10(255.0 ** 2 / mse)


class Family:
    """An original and the labelled copies made from it, judged together by the 40 dB rule.

    `add(key, label, pixels)` registers a photo (its decoded pixels, as written); the original is
    the one added with `original=True`. `decide()` returns {key: (psnr to the original, reason,
    nearest key, psnr to it)} for the photos left out; the others keep their labels."""

    def __init__(self):
        self.items = []          # (key, label, luma at 1024 px, is original)
        self.size = None

    def add(self, key, label, pixels, original=False):
        if self.size is None:
            h, w = pixels.shape[:2]
            self.size = display_size(w, h)
        self.items.append((key, label, display_luma(pixels, self.size), original))

    def decide(self):
        originals = [it for it in self.items if it[3]]
        if not originals:
            return {}
        okey, olabel, oluma, _ = originals[0]
        to_original = {key: psnr(oluma, luma) for key, _, luma, _ in self.items}
        out = {}

        def leave(key, reason, other, db):
            if key not in out:
                out[key] = (to_original[key], reason, other, db)

        for i, (ka, la, ya, oa) in enumerate(self.items):
            for kb, lb, yb, ob in self.items[i + 1:]:
                if la == lb:
                    continue
                db = to_original[kb] if oa else (to_original[ka] if ob else psnr(ya, yb))
                if db > MIN_PSNR_DB:
                    leave(ka, "original with a copy of the other label within 40 dB" if oa
                          else f"{la} copy within 40 dB of a {lb} photo", kb, db)
                    leave(kb, "original with a copy of the other label within 40 dB" if ob
                          else f"{lb} copy within 40 dB of a {la} photo", ka, db)
        if okey in out:
            for key, _, _, _ in self.items:
                if key != okey and to_original[key] > MIN_PSNR_DB:
                    leave(key, "copy within 40 dB of an ambiguous original", okey, to_original[key])
        return out


def source_group(source, photo_type):
    """The source group of a manifest row's `source` (as evaluation/leave-one-source-out groups them)."""
    if source.startswith("rooms/"):
        if photo_type == "room":
            return "rooms:" + "__".join(source.split("/")[-1].split("__")[:2])
        return "rooms (texture close-ups, bokeh)"
    if source.startswith("deb:"):
        return source.split(":")[1]
    if source.startswith("ext:"):
        return "independent: " + source.split(":")[1]
    if source.startswith("generated"):
        return "grid (labelled set)"
    if source.startswith("testdata/"):
        return "testdata/photos"
    return "../shared/photos"
