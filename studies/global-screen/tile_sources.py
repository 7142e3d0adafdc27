#!/usr/bin/env python3
"""Which tile pairs look alike to G: maps each tile to its source photo (re-running the cut's
enumeration) and lists the 8x8 NCC (H49) >= 0.98 predecessor pairs by source pair."""
import os
import sys, os, collections
import numpy as np
from pathlib import Path
from PIL import Image
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate_g as E
# Where the study writes its tiles, sets and results (STUDY_DIR, default .build/global-screen).
REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STUDY = os.environ.get("STUDY_DIR", os.path.join(REPO, ".build", "global-screen"))
src = []
originals = []
for source in [os.path.join(REPO, "../shared/rooms"), os.path.join(REPO, "../shared/photos")]:
    for path in sorted(Path(source).rglob("*")):
        if path.suffix.lower() in (".jpg", ".jpeg", ".png"):
            try:
                with Image.open(path) as im: originals.append((path, min(im.size)))
            except Exception: pass
made = 0
for path, side in originals:
    if side < 400 or made >= 1150: continue
    n = min(3, side // 400)
    for i in range(n * n):
        if made >= 1150: break
        src += [path.name, path.name]; made += 2
d = dict(np.load("tilefeat.npz")); keep = np.array([os.path.exists(t) for t in d["paths"]]); d = {k: v[keep] for k, v in d.items()}
names = [int(t.split("/")[-1][:5]) for t in d["paths"]]
P = E.prep_ncc(d, 8); K = E.HYPSETS["H49"]
ts = E.tile_scores_fast(("ncc", P, K, 0), len(names))
c = collections.Counter(); photos = set()
for i in range(1, len(names)):
    for cc in np.flatnonzero(ts[i] >= 0.98):
        j = max(0, i - 64) + cc
        a, b = src[names[j]], src[names[i]]
        kind = "mirror" if names[i] // 2 == names[j] // 2 else ("same source photo" if a == b else "different photos")
        c[(kind, a if a == b else a + " / " + b)] += 1; photos.add(i)
print("photos with a candidate at 8x8 H49 >= 0.98:", len(photos))
for (k, s), v in c.most_common(25): print(f"{v:4d} {k:18s} {s}")
