#!/usr/bin/env python3
"""Scores candidate global pre-screens G on (1) the labelled duplicate set, restricted to the pairs the
SHIPPED rule calls duplicates (from `tune --check duplicates`' duplicate-pairs.csv), and (2) the
1,000 distinct tiles (each vs its 64 predecessors in sorted order). Writes results.json + tables.

    evaluate_g.py --pairs-csv tune-dup/duplicate-pairs.csv --dup-npz dupfeat.npz --tile-npz tilefeat.npz
"""
import os
import argparse
import csv
import json
import sys
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gfeat  # noqa: E402
# Where the study writes its tiles, sets and results (STUDY_DIR, default .build/global-screen).
REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STUDY = os.environ.get("STUDY_DIR", os.path.join(REPO, ".build", "global-screen"))

DIM = gfeat.DIM_HYP
HYPS = gfeat.HYPS


def hyp_index(sel_dim_x, sel_dim_y=None, same=False):
    sel_dim_y = sel_dim_x if sel_dim_y is None else sel_dim_y
    out = []
    for k, (hx, hy) in enumerate(HYPS):
        if hx in sel_dim_x and hy in sel_dim_y and (not same or hx[0] == hy[0]):
            out.append(k)
    assert out[0] == 0
    return np.array(out)


FULL = [(1.0, 0.0)]
ALL7 = DIM
# kept fraction 0.9 only (10% crops), centre and both corners; 0.95 crops lie between
F90 = [(1.0, 0.0), (0.9, 0.0), (0.9, 0.5), (0.9, 1.0)]
HYPSETS = {
    "full": hyp_index(FULL),
    "H49": hyp_index(ALL7),                  # 7 x 7 per-dimension choices
    "H19sq": hyp_index(ALL7, same=True),     # same fraction both dims: 1 + 2 x 9
    "H16": hyp_index(F90),                   # {1, .9@0, .9@.5, .9@1}^2
    "H10sq": hyp_index(F90, same=True),      # full + 9 (0.9 both dims, 3x3 offsets)
    "H5": np.array([0] + [k for k, (hx, hy) in enumerate(HYPS) if hx[0] == 0.9 and hy[0] == 0.9 and hx[1] != 0.5 and hy[1] != 0.5]),  # full + 4 corners
}


def normalise(sq):
    """(..., S, S) -> zero-mean unit-norm flattened (..., S*S)."""
    v = sq.reshape(*sq.shape[:-2], -1).astype(np.float64)
    v = v - v.mean(-1, keepdims=True)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.maximum(n, 1e-9)


def highpass(sq):
    import cv2
    out = np.empty_like(sq)
    flat = sq.reshape(-1, *sq.shape[-2:])
    o = out.reshape(-1, *sq.shape[-2:])
    s = sq.shape[-1]
    for i in range(flat.shape[0]):
        o[i] = flat[i] - cv2.GaussianBlur(flat[i], (0, 0), s / 8.0)
    return out


def rotations(sq):
    """(N, K, S, S) -> (N, K, 4, S, S)"""
    return np.stack([np.rot90(sq, r, axes=(-2, -1)) for r in range(4)], axis=2)


def prep_ncc(arr, size, hp=False, rank=False):
    sq = arr[f"h{size}"]
    if hp:
        sq = highpass(sq)
    if rank:
        flat = sq.reshape(*sq.shape[:2], -1)
        sq = flat.argsort(-1).argsort(-1).astype(np.float32).reshape(sq.shape)
    return normalise(rotations(sq))  # (N, 49, 4, S*S)


def ncc_pair(A, B, K):
    """A old, B new: (49, 4, D). max over k in K, r of <A[k,0], B[0,r]> and <A[0,0], B[k,r]>."""
    s1 = A[K, 0] @ B[0].T           # (|K|, 4)
    s2 = B[K].reshape(-1, B.shape[-1]) @ A[0, 0]
    return max(s1.max(), s2.max())


def ncc_cost(size, K):
    # multiply-adds per pair: (2|K| - 1) x 4 dot products of S^2 (both normalised beforehand)
    return (2 * len(K) - 1) * 4 * size * size


def popcount64(x):
    x = x.astype(np.uint64)
    c = np.zeros(x.shape, np.int64)
    for s in range(0, 64, 8):
        c += POP8[((x >> np.uint64(s)) & np.uint64(255)).astype(np.int64)]
    return c


POP8 = np.array([bin(i).count("1") for i in range(256)], np.int64)


def hyp_hashes(arr):
    """(N, 49, 4) rotation hashes of each hypothesis' 32x32 square."""
    return gfeat.rotation_hashes_batch(arr["h32"])


def hyp_hashes_slow(arr):
    """(N, 49, 4) rotation hashes of each hypothesis' 32x32 square."""
    sq = arr["h32"].astype(np.float64)
    N = sq.shape[0]
    out = np.zeros((N, len(HYPS), 4), np.uint64)
    for i in range(N):
        for k in range(len(HYPS)):
            out[i, k] = np.array(gfeat.rotation_hashes(sq[i, k]), dtype=np.uint64)
    return out


def hash_pair(HA, HB, K):
    """min Hamming: A old hyps (rot 0) vs B new full (4 rots), and A full vs B hyps (4 rots)."""
    d1 = popcount64(HA[K, 0][:, None] ^ HB[0][None, :]).min()
    d2 = popcount64(HA[0, 0] ^ HB[K].ravel()).min()
    return -min(d1, d2)


def build_methods(arr):
    """name -> (kind, per-photo data, K, cost); score(A,B) higher = more alike."""
    methods = {}
    hashes = arr["hashes"].astype(np.uint64)
    methods["a: DCT hash (shipped, -distance)"] = ("hash0", hashes, None, 4)
    hh = hyp_hashes(arr)
    for name in ("H49", "H10sq", "H5"):
        K = HYPSETS[name]
        methods[f"a+: DCT hash over crops {name} (-distance)"] = ("hash", hh, K, (2 * len(K) - 1) * 4)
    for size in (8, 16, 32):
        P = prep_ncc(arr, size)
        for name in ("full", "H5", "H10sq", "H16", "H19sq", "H49"):
            K = HYPSETS[name]
            methods[f"b: NCC {size}x{size} {name}"] = ("ncc", P, K, ncc_cost(size, K))
    for size in (16, 32):
        P = prep_ncc(arr, size, hp=True)
        for name in ("full", "H10sq", "H49"):
            K = HYPSETS[name]
            methods[f"c: NCC high-pass {size}x{size} {name}"] = ("ncc", P, K, ncc_cost(size, K))
    for size in (8, 16):
        P = prep_ncc(arr, size, rank=True)
        for name in ("full", "H10sq", "H49"):
            K = HYPSETS[name]
            methods[f"c: rank NCC {size}x{size} {name}"] = ("ncc", P, K, ncc_cost(size, K))
    return methods


def score(method, ia, ib):
    kind, data, K, _ = method
    if kind == "hash0":
        return -int(popcount64(data[ib] ^ data[ia][0]).min())
    if kind == "hash":
        return hash_pair(data[ia], data[ib], K)
    return float(ncc_pair(data[ia], data[ib], K))


def tile_scores(method, n, window=64):
    """(n, window) best score of photo i against each of its predecessors (nan where none)."""
    kind, data, K, _ = method
    out = np.full((n, window), np.nan)
    for i in range(1, n):
        js = range(max(0, i - window), i)
        for c, j in enumerate(js):
            out[i, c] = score(method, j, i)
    return out


def tile_scores_fast(method, n, window=64):
    kind, data, K, _ = method
    if kind != "ncc":
        return tile_scores(method, n, window)
    out = np.full((n, window), -np.inf)
    for i in range(1, n):
        j0 = max(0, i - window)
        A = data[j0:i]                      # (m, 49, 4, D)
        B = data[i]
        s1 = np.einsum("mkd,rd->mkr", A[:, K, 0], B[0]).reshape(len(A), -1).max(1)
        s2 = (A[:, 0, 0] @ B[K].reshape(-1, B.shape[-1]).T).max(1)
        out[i, : i - j0] = np.maximum(s1, s2)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs-csv", required=True)
    ap.add_argument("--dup-npz", required=True)
    ap.add_argument("--tile-npz", required=True)
    ap.add_argument("--out", default=STUDY + "/results.json")
    ap.add_argument("--include-small", action="store_true")
    args = ap.parse_args()

    dup = dict(np.load(args.dup_npz))
    tiles = dict(np.load(args.tile_npz))
    import os
    keep = np.array([os.path.exists(t) for t in tiles["paths"]])
    tiles = {k: v[keep] for k, v in tiles.items()}
    print("tiles kept", int(keep.sum()))
    idx = {p: i for i, p in enumerate(dup["paths"])}
    rows = list(csv.DictReader(open(args.pairs_csv)))
    pairs = []
    for r in rows:
        if r["a"] not in idx or r["b"] not in idx:
            continue
        small = r.get("too_small", "no") == "yes"
        if small and not args.include_small:
            continue
        if "matches_explained" in r:
            rule = (float(r["detail_correlation"]) >= 0.44) if int(r["matches_explained"]) >= 4 else int(r["hash_distance"]) <= 8
        else:
            rule = r["label"] == "duplicate"
        pairs.append(dict(a=idx[r["a"]], b=idx[r["b"]], label=r["label"], kind=r.get("kind") or r.get("transform"),
                          rule=rule, swift_hash=int(r["hash_distance"]) if "hash_distance" in r else None, small=small,
                          name=r["b"].split("/")[-1]))
    # check our hash port against Swift's
    if pairs and pairs[0]["swift_hash"] is not None:
        hashes = dup["hashes"].astype(np.uint64)
        ours = np.array([int(popcount64(hashes[p["b"]] ^ hashes[p["a"]][0]).min()) for p in pairs])
        theirs = np.array([p["swift_hash"] for p in pairs])
        diff = np.abs(ours - theirs)
        print(f"hash port vs Swift: exact {np.mean(diff == 0):.3f}, |d|<=2 {np.mean(diff <= 2):.3f}, mean |d| {diff.mean():.2f}, max {diff.max()}")

    dm = build_methods(dup)
    tm = build_methods(tiles)
    n_t = len(tiles["paths"])
    results = {}
    for name in dm:
        cost = dm[name][3]
        s = np.array([score(dm[name], p["a"], p["b"]) for p in pairs])
        ruledup = np.array([p["rule"] and p["label"] == "duplicate" for p in pairs])
        rulefalse = np.array([p["rule"] and p["label"] != "duplicate" for p in pairs])
        distinct = np.array([p["label"] != "duplicate" for p in pairs])
        T = s[ruledup].min()
        by_kind_dup = defaultdict(list)
        by_kind_dis = defaultdict(list)
        for p, v in zip(pairs, s):
            if p["rule"] and p["label"] == "duplicate":
                by_kind_dup[p["kind"]].append(v)
            elif p["label"] != "duplicate":
                by_kind_dis[p["kind"]].append(v)
        worst = sorted([(v, p["kind"], p["name"]) for p, v in zip(pairs, s) if p["rule"] and p["label"] == "duplicate"])[:8]
        ts = tile_scores_fast(tm[name], n_t)
        best = np.nanmax(np.where(np.isfinite(ts), ts, -np.inf), axis=1)
        best[0] = -np.inf
        is_hash = dm[name][0].startswith("hash")
        margin = 2 if is_hash else 0.05
        q = {}
        for lab, thr in (("T", T), ("T-margin", T - margin)):
            q[lab] = dict(threshold=float(thr), share_photos_with_candidate=float(np.mean(best[1:] >= thr)),
                          candidate_pairs_per_photo=float(np.nansum(ts[1:] >= thr) / (n_t - 1)),
                          distinct_dupset_admitted=float(np.mean(s[distinct] >= thr)))
        # threshold giving 0.7% of tile photos a candidate, and recall of rule dups there
        thr07 = float(np.quantile(best[1:], 1 - 0.007))
        if is_hash:
            thr07 = float(np.floor(thr07) + 1) if np.mean(best[1:] >= np.floor(thr07)) > 0.007 else float(np.floor(thr07))
        else:
            thr07 = float(np.nextafter(thr07, np.inf))
        # which predecessors make the candidates at T: the tile's own mirror image, a tile of the same photo
        names = [int(t.split("/")[-1][:5]) for t in tiles["paths"]]
        mirror = same = other = 0
        for i in range(1, n_t):
            for c in np.flatnonzero(ts[i] >= T):
                j = max(0, i - 64) + c
                if names[i] // 2 == names[j] // 2:
                    mirror += 1
                else:
                    other += 1
        q["T"]["candidate_pairs_mirror"] = mirror
        q["T"]["candidate_pairs_other"] = other
        q["at_0.7%"] = dict(threshold=thr07, share_photos_with_candidate=float(np.mean(best[1:] >= thr07)),
                           rule_dup_recall=float(np.mean(s[ruledup] >= thr07)),
                           rule_dups_lost=int(np.sum(s[ruledup] < thr07)),
                           lost_by_kind={k: int(np.sum(np.array(v) < thr07)) for k, v in by_kind_dup.items() if np.sum(np.array(v) < thr07)})
        results[name] = dict(cost_ma_per_pair=cost, n_rule_dups=int(ruledup.sum()), n_rule_false=int(rulefalse.sum()),
                             min_rule_dup=float(T),
                             min_rule_false=float(s[rulefalse].min()) if rulefalse.any() else None,
                             min_by_kind={k: float(min(v)) for k, v in sorted(by_kind_dup.items())},
                             p1_by_kind={k: float(np.quantile(v, 0.01)) for k, v in sorted(by_kind_dup.items())},
                             max_distinct_by_kind={k: float(max(v)) for k, v in sorted(by_kind_dis.items())},
                             worst=[(float(v), k, nm) for v, k, nm in worst], tiles=q,
                             tile_best_quantiles={str(x): float(np.quantile(best[1:], x)) for x in (0.5, 0.9, 0.99, 0.993, 0.999, 1.0)})
        r = results[name]
        print(f"{name:45s} cost {cost:6d} minDup {T:7.3f} tiles@T {q['T']['share_photos_with_candidate']:.3f} "
              f"@T-m {q['T-margin']['share_photos_with_candidate']:.3f} | thr0.7% {thr07:.3f} recall {q['at_0.7%']['rule_dup_recall']:.4f} "
              f"lost {q['at_0.7%']['rule_dups_lost']}", flush=True)
    json.dump(results, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
