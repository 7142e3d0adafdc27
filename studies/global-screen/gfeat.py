"""Per-photo cheap global descriptors G, ported from the Swift fingerprint's first stages.

luma (9798 R + 19235 G + 3735 B + 16384) >> 15 after EXIF orientation -> area resample to shortest
side 1024 (native when smaller) -> QuarterPlane (4x4 block means, rounded half up, partial blocks
dropped) -> ContentBounds (flat std <= 6, gaps <= 4 bridged, longest run of rows then columns) ->
DCTHash.averaged 32x32 -> the four rotation hashes; plus, for the correlation descriptors, squares
of S x S (S in SIZES) area-resampled from sub-rectangles of the content (crop hypotheses).
"""
import numpy as np
import cv2
from PIL import Image, ImageOps

try:
    import pillow_heif
    pillow_heif.register_heif_opener()
except ImportError:
    pass

SIDE = 32
KEPT = 8
FLAT = 6.0
GAP = 4
SIZES = (8, 16, 32)
# crop hypotheses per dimension: (fraction kept, offset position 0 / 0.5 / 1 of the slack)
DIM_HYP = [(1.0, 0.0)] + [(f, o) for f in (0.95, 0.9) for o in (0.0, 0.5, 1.0)]
HYPS = [(hx, hy) for hy in DIM_HYP for hx in DIM_HYP]   # 49; index 0 is the full square


def luma_plane(path):
    im = Image.open(path)
    im = ImageOps.exif_transpose(im).convert("RGB")
    a = np.asarray(im).astype(np.uint32)
    y = (9798 * a[..., 0] + 19235 * a[..., 1] + 3735 * a[..., 2] + 16384) >> 15
    y = y.astype(np.uint8)
    h, w = y.shape
    t = 1024
    if min(w, h) > t:
        if w <= h:
            size = (t, max(1, int(round(h * t / w))))
        else:
            size = (max(1, int(round(w * t / h))), t)
        y = cv2.resize(y, size, interpolation=cv2.INTER_AREA)
    return y


def quarter(plane):
    h, w = plane.shape
    qh, qw = h // 4, w // 4
    if qh == 0 or qw == 0:
        return plane
    p = plane[: qh * 4, : qw * 4].astype(np.uint32).reshape(qh, 4, qw, 4).sum(axis=(1, 3))
    return ((p + 8) >> 4).astype(np.uint8)


def _longest_run(active):
    best = None
    start = None
    last = -1
    for line in np.flatnonzero(active):
        line = int(line)
        if start is not None and line - last - 1 <= GAP:
            pass
        else:
            if start is not None and (best is None or last + 1 - start > best[1] - best[0]):
                best = (start, last + 1)
            start = line
        last = line
    if start is not None and (best is None or last + 1 - start > best[1] - best[0]):
        best = (start, last + 1)
    return best if best is not None else (0, len(active))


def _varies(s, sq, n):
    mean = s / n
    return sq / n - mean * mean > FLAT * FLAT


def content_bounds(q):
    f = q.astype(np.float64)
    h, w = q.shape
    rows = _longest_run(_varies(f.sum(1), (f * f).sum(1), w))
    sub = f[rows[0]:rows[1]]
    cols = _longest_run(_varies(sub.sum(0), (sub * sub).sum(0), rows[1] - rows[0]))
    return rows, cols


def averaged(q, rows, cols):
    c = q[rows[0]:rows[1], cols[0]:cols[1]].astype(np.float64)
    h, w = c.shape
    rc = (np.arange(h) * SIDE // h)
    cc = (np.arange(w) * SIDE // w)
    idx = (rc[:, None] * SIDE + cc[None, :]).ravel()
    sums = np.bincount(idx, weights=c.ravel(), minlength=SIDE * SIDE)
    counts = np.bincount(idx, minlength=SIDE * SIDE).astype(np.float64)
    return np.where(counts > 0, sums / np.maximum(counts, 1), 0.0).reshape(SIDE, SIDE)


_B = np.array([[(np.sqrt(1 if f == 0 else 2) / np.sqrt(SIDE)) * np.cos(np.pi * f * (p + 0.5) / SIDE)
                for p in range(SIDE)] for f in range(KEPT)])


def rotation_hashes(square):
    C = (_B @ square @ _B.T).ravel()  # C[u * KEPT + v]: u vertical (rows), v horizontal
    out = []
    for r in range(4):
        # Each quarter turn's coefficients follow from the one transform (`_rot_maps`, as DCTHash.swift).
        vals = C[_RIDX[r]] * _RSIGN[r]
        ac = vals[1:]
        med = np.sort(ac)[len(ac) // 2]
        hsh = 0
        for i, x in enumerate(ac):
            if x > med:
                hsh |= 1 << i
        out.append(hsh)
    return out


def hypothesis_squares(q, rows, cols, size):
    """(49, size, size) float32 squares of the content's sub-rectangles (HYPS order)."""
    c = q[rows[0]:rows[1], cols[0]:cols[1]]
    h, w = c.shape
    out = np.zeros((len(HYPS), size, size), np.float32)
    for k, ((fx, ox), (fy, oy)) in enumerate(HYPS):
        cw, ch = max(1, int(round(w * fx))), max(1, int(round(h * fy)))
        x0, y0 = int(round((w - cw) * ox)), int(round((h - ch) * oy))
        sub = c[y0:y0 + ch, x0:x0 + cw].astype(np.float32)
        interp = cv2.INTER_AREA if (cw >= size and ch >= size) else cv2.INTER_LINEAR
        out[k] = cv2.resize(sub, (size, size), interpolation=interp)
    return out


def features(path):
    plane = luma_plane(path)
    q = quarter(plane)
    rows, cols = content_bounds(q)
    sq = averaged(q, rows, cols)
    rec = {"hashes": np.array(rotation_hashes(sq), dtype=np.uint64),
           "avg32": sq.astype(np.float32),
           "plane_shape": np.array(plane.shape), "bounds": np.array([rows[0], rows[1], cols[0], cols[1]]),
           "qshape": np.array(q.shape)}
    for s in SIZES:
        rec[f"h{s}"] = hypothesis_squares(q, rows, cols, s)
    # the 32x32 quarter plane content itself at 64x64 too for gradient variants
    return rec


def compute_many(paths, out_npz):
    import time
    recs = {}
    t0 = time.time()
    for i, p in enumerate(paths):
        try:
            recs[p] = features(p)
        except Exception as e:  # undecodable
            print("skip", p, e)
        if i % 100 == 0:
            print(f"{i}/{len(paths)} {time.time() - t0:.0f}s", flush=True)
    keys = sorted(recs)
    arr = {"paths": np.array(keys)}
    for name in recs[keys[0]]:
        if name in ("plane_shape", "bounds", "qshape", "hashes"):
            arr[name] = np.stack([recs[k][name] for k in keys])
        else:
            arr[name] = np.stack([recs[k][name] for k in keys]).astype(np.float32)
    np.savez_compressed(out_npz, **arr)
    return arr


def _rot_maps():
    idx = np.zeros((4, KEPT * KEPT), int)
    sign = np.zeros((4, KEPT * KEPT))
    for r in range(4):
        for u in range(KEPT):
            for v in range(KEPT):
                if r == 0:
                    row, col, s = u, v, 1
                elif r == 1:
                    row, col, s = v, u, (1 if v % 2 == 0 else -1)
                elif r == 2:
                    row, col, s = u, v, (1 if (u + v) % 2 == 0 else -1)
                else:
                    row, col, s = v, u, (1 if u % 2 == 0 else -1)
                idx[r, u * KEPT + v] = row * KEPT + col
                sign[r, u * KEPT + v] = s
    return idx, sign


_RIDX, _RSIGN = _rot_maps()


def rotation_hashes_batch(squares):
    """(..., 32, 32) -> (..., 4) uint64, same as rotation_hashes."""
    shp = squares.shape[:-2]
    sq = squares.reshape(-1, SIDE, SIDE).astype(np.float64)
    C = np.einsum("us,nst,vt->nuv", _B, sq, _B).reshape(len(sq), -1)
    vals = C[:, _RIDX] * _RSIGN  # (n, 4, 64)
    ac = vals[:, :, 1:]
    med = np.sort(ac, axis=-1)[:, :, 31:32]
    bits = (ac > med).astype(np.uint64)
    w = (np.uint64(1) << np.arange(63, dtype=np.uint64))
    h = (bits * w).sum(-1).astype(np.uint64)
    return h.reshape(*shp, 4)
