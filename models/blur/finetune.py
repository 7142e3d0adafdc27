#!/usr/bin/env python3
"""Fine-tune the blur model's dense head on real camera-made photos, leaving one group out (issue 64, item 3).

    .venv-train/bin/python models/blur/finetune.py [--model models/blur/blur-model.json]
        [--set .build/real-blur] [--rooms ../shared/rooms] [--seed 64] [--write] [--markdown OUT.md] [--json OUT.json]

The convolutions stay as train.py learned them on synthetic blur; only the two dense layers are
fine-tuned, with the photo-level loss of SPEC's pooling: the photo's probability is the mean of its
`pool_sharpest` sharpest tiles' probabilities (the top `max_tiles` tiles by detail), against the
photo's label (balanced per label, an L2 pull towards the synthetic weights).

Leave one group out: groups that share originals form one family (the rooms of ../shared/rooms are
in `shared-rooms`, `levin09-kernels-on-rooms` and `tum-trajectory-on-rooms`); for each family, the
head is fine-tuned on the *tune* split of every other family and the thresholds per photo type are
chosen on those same tune photos; the family's photos (both splits) are then judged. So a group
reported is never fine-tuned on, and nothing of it chooses a threshold. `pool_sharpest` is chosen
among POOLS by the leave-one-group-out balanced accuracy on tune-split photos only.

--write: the shipped model = the head fine-tuned on the tune split of every group, with the chosen
pool_sharpest and tune-split thresholds; the JSON is rewritten and export.py run.
"""
import argparse
import copy
import csv
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import blurlib  # noqa: E402
import evaluate as ev  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FAMILIES = {"shared-rooms": "rooms", "levin09-kernels-on-rooms": "rooms", "tum-trajectory-on-rooms": "rooms"}
POOLS = (1, 2, 3, 4, 6, 8)
STEPS, LR, L2 = 150, 0.02, 1e-2


def photo_tiles(doc, paths, cache_file):
    """{path: uint8 [k, T, T]} the evaluated tiles of each photo (SPEC's selection; no model needed)."""
    cache = {}
    if cache_file.exists():
        cache = np.load(cache_file, allow_pickle=True)["tiles"].item()
    todo = [p for p in paths if p not in cache]
    t = doc["tile_size"]
    for n, p in enumerate(todo):
        img = ev.read_image(p)
        pos = []
        if img is not None:
            plane = blurlib.analysis_plane(img)
            pos = blurlib.select_tiles(plane, doc["max_tiles"], t)
        cache[p] = np.stack([plane[y:y + t, x:x + t] for (y, x) in pos]) if pos else None
        if n % 100 == 0:
            print(f"finetune: tiles {n}/{len(todo)}", file=sys.stderr)
    if todo:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache_file, tiles=np.array(cache, dtype=object))
    return cache


def features(doc, paths, cache_file):
    """{path: float32 [k, C]} trunk features (after global_average) of the photo's evaluated tiles."""
    tiles = photo_tiles(doc, paths, cache_file.parent / f"tiles-{doc['max_tiles']}-{doc['tile_size']}.npz")
    net = blurlib.load_net(doc)
    trunk = torch.nn.Sequential(*list(net)[:-3])            # up to the flatten after the average
    out = {}
    with torch.no_grad():
        for p in paths:
            v = tiles.get(p)
            out[p] = None if v is None else trunk(torch.from_numpy(blurlib.normalise(v, doc["std_floor"]))[:, None]).numpy()
    return out


class Head(torch.nn.Module):
    def __init__(self, net):
        super().__init__()
        dense = [m for m in net if isinstance(m, torch.nn.Linear)]
        self.d1, self.d2 = copy.deepcopy(dense[0]), copy.deepcopy(dense[1])
        self.ref = [p.detach().clone() for p in self.parameters()]

    def forward(self, f):
        return self.d2(torch.relu(self.d1(f)))[..., 0]


def photo_probs(head, feats, mask, pool):
    """feats [n, 16, C], mask [n, 16] -> photo probabilities [n] (mean of the `pool` sharpest tiles)."""
    p = torch.sigmoid(head(feats))
    p = torch.where(mask, p, torch.full_like(p, 2.0))           # absent tiles sort last
    s, _ = torch.sort(p, dim=1)
    k = torch.clamp(mask.sum(1), max=pool).clamp(min=1)
    take = torch.arange(s.shape[1])[None, :] < k[:, None]
    return (s * take).sum(1) / k


def pack(items, feat):
    c = next(v for v in feat.values() if v is not None).shape[1]
    f = np.zeros((len(items), 16, c), np.float32)
    m = np.zeros((len(items), 16), bool)
    for i, r in enumerate(items):
        v = feat[r["abspath"]]
        f[i, :len(v)] = v
        m[i, :len(v)] = True
    return torch.from_numpy(f), torch.from_numpy(m)


def fit(net, items, feat, pool, seed):
    torch.manual_seed(seed)
    head = Head(net)
    if not items:
        return head
    f, m = pack(items, feat)
    y = torch.tensor([r["y"] for r in items], dtype=torch.float32)
    w = torch.where(y == 1, 0.5 / max(1, int(y.sum())), 0.5 / max(1, int((1 - y).sum())))
    opt = torch.optim.Adam(head.parameters(), lr=LR)
    for _ in range(STEPS):
        p = photo_probs(head, f, m, pool).clamp(1e-5, 1 - 1e-5)
        loss = -(w * (y * torch.log(p) + (1 - y) * torch.log(1 - p))).sum()
        loss = loss + L2 * sum(((a - b) ** 2).sum() for a, b in zip(head.parameters(), head.ref))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return head


def predict(head, items, feat, pool):
    if not items:
        return np.zeros(0)
    f, m = pack(items, feat)
    with torch.no_grad():
        return photo_probs(head, f, m, pool).numpy()


def thresholds_for(items, probs, room_floor=None):
    out = {}
    for kind in ("room", "inspiration"):
        sel = [i for i, r in enumerate(items) if r["photo_type"] == kind]
        out[kind], _ = ev.choose_threshold([probs[i] for i in sel], [items[i]["y"] for i in sel], True,
                                           room_floor if kind == "room" else None)
        if out[kind] is None:
            out[kind] = 0.5
    return out


def loo(net, rows, feat, pool, seed):
    """Leave one family out: {abspath: (probability, threshold)} for every photo."""
    fam = lambda g: FAMILIES.get(g, g)  # noqa: E731
    result = {}
    for family in sorted({fam(r["group"]) for r in rows}):
        train = [r for r in rows if fam(r["group"]) != family and r["split"] == "tune"]
        test = [r for r in rows if fam(r["group"]) == family]
        head = fit(net, train, feat, pool, seed)
        th = thresholds_for(train, predict(head, train, feat, pool))
        for r, p in zip(test, predict(head, test, feat, pool)):
            result[r["abspath"]] = (float(p), th[r["photo_type"]])
    return result


def main():
    global STEPS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=str(HERE / "blur-model.json"))
    ap.add_argument("--set", default=str(ROOT / ".build" / "real-blur"))
    ap.add_argument("--baseline", default=str(ROOT / ".build" / "real-blur-scores.csv"))
    ap.add_argument("--rooms", default=str(ROOT.parent / "shared" / "rooms"))
    ap.add_argument("--seed", type=int, default=64)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--steps", type=int, default=STEPS, help="fine-tuning steps (0: the synthetic head as it is)")
    ap.add_argument("--pools", default=",".join(map(str, POOLS)), help="pool_sharpest values to choose among")
    ap.add_argument("--markdown")
    ap.add_argument("--json")
    args = ap.parse_args()
    STEPS = args.steps
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)      # tiny tensors: one thread is 7x faster than two on a busy machine
    doc = json.loads(Path(args.model).read_text())
    base_doc = doc.get("training", {}).get("base_model")
    trunk_doc = copy.deepcopy(doc)
    if base_doc:                                   # fine-tune again from the synthetic head, not from a fine-tuned one
        trunk_doc["layers"] = base_doc["layers"]
    net = blurlib.load_net(trunk_doc)
    sha = hashlib.sha256(json.dumps(trunk_doc["layers"][:-2]).encode()).hexdigest()[:16]
    folder = Path(args.set)
    rows = list(csv.DictReader(open(folder / "manifest.csv", newline="")))
    for r in rows:
        r["abspath"] = str((folder / r["path"]).resolve())
        r["group"] = r["source"].split(":")[1]
        r["y"] = 1 if r["label"] == "blurry" else 0
    rooms = list(csv.DictReader(open(Path(args.rooms) / "manifest.csv")))
    for r in rooms:
        r["abspath"] = str((Path(args.rooms) / r["file"]).resolve())
    feat = features(trunk_doc, [r["abspath"] for r in rows] + [r["abspath"] for r in rooms],
                    ROOT / ".build" / "blur-eval" / f"feat-{sha}.npz")
    rows = [r for r in rows if feat.get(r["abspath"]) is not None]
    base = {}
    if Path(args.baseline).exists():
        for b in csv.DictReader(open(args.baseline)):
            base[str((folder / b["path"]).resolve())] = b
    var_cache = {}
    for f in sorted((ROOT / ".build" / "blur-eval").glob("*.csv")):
        for r in csv.DictReader(open(f)):
            if r["var"]:
                var_cache[r["path"]] = float(r["var"])

    # pool_sharpest by the LOO balanced accuracy on tune-split photos only.
    scores = {}
    pools = tuple(int(k) for k in args.pools.split(","))
    for pool in pools:
        res = loo(net, rows, feat, pool, args.seed)
        tune = [r for r in rows if r["split"] == "tune"]
        scores[pool] = ev.bacc([res[r["abspath"]][0] >= res[r["abspath"]][1] for r in tune], [r["y"] for r in tune])
        print(f"finetune: pool_sharpest {pool}: LOO balanced accuracy on the tune split {scores[pool]:.4f}", file=sys.stderr)
    pool = max(pools, key=lambda k: (round(scores[k], 6), -k))
    res = loo(net, rows, feat, pool, args.seed)

    # Figures per group, LOO, beside OpenCV's variance (its thresholds from the tune split of the others too).
    fam = lambda g: FAMILIES.get(g, g)  # noqa: E731
    var_blurry = {}
    for family in sorted({fam(r["group"]) for r in rows}):
        train = [r for r in rows if fam(r["group"]) != family and r["split"] == "tune" and r["abspath"] in var_cache]
        th = {}
        for kind in ("room", "inspiration"):
            sel = [r for r in train if r["photo_type"] == kind]
            th[kind], _ = ev.choose_threshold([var_cache[r["abspath"]] for r in sel], [r["y"] for r in sel], False)
        for r in rows:
            if fam(r["group"]) == family and r["abspath"] in var_cache:
                var_blurry[r["abspath"]] = var_cache[r["abspath"]] < th[r["photo_type"]]
    groups = {}
    for r in sorted(rows, key=lambda r: r["group"]):
        groups.setdefault(r["group"], []).append(r)
    pooled = {"pooled: rooms": [r for r in rows if r["photo_type"] == "room"],
              "pooled: inspiration": [r for r in rows if r["photo_type"] == "inspiration"],
              "pooled: all": rows, "pooled: held split": [r for r in rows if r["split"] == "held"]}
    table = []
    for name, items in list(groups.items()) + list(pooled.items()):
        y = [r["y"] for r in items]
        pr = [res[r["abspath"]][0] for r in items]
        today = [r for r in items if base.get(r["abspath"], {}).get("verdict")]
        bs = [float(base[r["abspath"]]["blur_score"]) if base.get(r["abspath"], {}).get("blur_score") else None
              for r in items]
        table.append(dict(
            group=name, sharp=y.count(0), blurry=y.count(1),
            loo_bacc=ev.bacc([res[r["abspath"]][0] >= res[r["abspath"]][1] for r in items], y),
            loo_auc=ev.auc(pr, y, True),
            sharp_passed=(sum(res[r["abspath"]][0] < res[r["abspath"]][1] for r in items if r["y"] == 0) / y.count(0))
            if y.count(0) else None,
            blurry_caught=(sum(res[r["abspath"]][0] >= res[r["abspath"]][1] for r in items if r["y"] == 1) / y.count(1))
            if y.count(1) else None,
            opencv_auc=ev.auc([var_cache.get(r["abspath"]) for r in items], y, False),
            opencv_bacc=ev.bacc([var_blurry.get(r["abspath"], False) for r in items], y),
            blur_score_auc=ev.auc(bs, y, False) if base else None,
            today_bacc=ev.bacc([base[r["abspath"]]["verdict"] == "blurry" for r in today],
                               [r["y"] for r in today]) if today else None))
    big = [t for t in table if not t["group"].startswith("pooled") and t["sharp"] >= 8 and t["blurry"] >= 8]
    lines = [f"Leave one group (family) out, head fine-tuned on the other groups' tune split; pool_sharpest {pool} "
             f"(LOO tune-split balanced accuracy by pool: " + ", ".join(f"{k}: {v:.3f}" for k, v in scores.items()) + ").", "",
             "| group | sharp | blurry | model BA (LOO) | sharp passed | blurry caught | model AUC (LOO) "
             "| OpenCV var BA (LOO thresholds) | OpenCV var AUC | blur_score AUC | today's BA |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    f = ev.fmt
    for t in table:
        lines.append(f"| {t['group']} | {t['sharp']} | {t['blurry']} | {f(t['loo_bacc'])} | {f(t['sharp_passed'])} "
                     f"| {f(t['blurry_caught'])} | {f(t['loo_auc'])} "
                     f"| {f(t['opencv_bacc'])} | {f(t['opencv_auc'])} | {f(t['blur_score_auc'])} | {f(t['today_bacc'])} |")
    low = [t["group"] for t in big if t["loo_bacc"] is not None and t["loo_bacc"] < 0.8]
    lines += ["", f"Groups with at least 8 photos of each label: {len(big)}; lowest LOO balanced accuracy among them "
              f"{f(min((t['loo_bacc'] for t in big), default=None))}; under 0.80: {', '.join(low) or 'none'}."]
    result = dict(pool_sharpest=pool, pool_scores=scores, groups=table)

    if args.write:
        tune = [r for r in rows if r["split"] == "tune"]
        head = fit(net, tune, feat, pool, args.seed)
        probs = predict(head, tune, feat, pool)
        # Rooms: no sharp tune room of ../shared/rooms refused (when that keeps the balanced accuracy).
        room_rows = [dict(abspath=r["abspath"], y=0, photo_type="room") for r in rooms
                     if r["sharpness"] == "sharp" and feat.get(r["abspath"]) is not None]
        split = {Path(r["path"]).name.removeprefix("rooms__"): r["split"] for r in rows if r["group"] == "shared-rooms"}
        tune_sharp_rooms = [rr for rr, r in zip(room_rows, [r for r in rooms if r["sharpness"] == "sharp"
                                                            and feat.get(r["abspath"]) is not None])
                            if split.get(r["file"]) == "tune"]
        floor = float(predict(head, tune_sharp_rooms, feat, pool).max()) if tune_sharp_rooms else None
        th = thresholds_for(tune, probs, floor)
        new = copy.deepcopy(doc)
        if not base_doc:
            new["training"]["base_model"] = dict(version=doc["version"], layers=doc["layers"][-2:],
                                                 note="the dense layers as train.py left them (synthetic data only)")
        dense = [layer for layer in new["layers"] if layer["type"] == "dense"]
        for layer, m in zip(dense, (head.d1, head.d2)):
            layer["weights"] = blurlib._b64(m.weight.detach().numpy())
            layer["bias"] = blurlib._b64(m.bias.detach().numpy())
        new["pool_sharpest"] = pool
        new["threshold_room"] = round(th["room"], 6)
        new["threshold_inspiration"] = round(th["inspiration"], 6)
        new["version"] = doc["version"].split("+")[0] + f"+ft{pool}"
        new["training"]["fine_tune"] = dict(
            command=f"models/blur/finetune.py --seed {args.seed} --steps {STEPS} --pools {args.pools} --write",
            what="dense layers fine-tuned on the tune split of the real camera-made groups (photo-level loss through "
                 "SPEC's pooling); convolutions from synthetic data only",
            photos=len(tune), pool_sharpest_scores={str(k): round(v, 4) for k, v in scores.items()},
            loo_figures={t["group"]: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in t.items() if k != "group"}
                         for t in table if t["group"].startswith("pooled")})
        new["training"]["thresholds"] = ("chosen by models/blur/finetune.py on the tune split of the real-blur set "
                                         "(highest balanced accuracy; rooms: no sharp tune room of ../shared/rooms refused)")
        # Sharp rooms of ../shared/rooms at the shipped threshold (held and tune).
        allp = predict(head, room_rows, feat, pool)
        lines += ["", f"Shipped head (tune split of every group): thresholds room {th['room']:.4f}, inspiration "
                  f"{th['inspiration']:.4f}; sharp rooms of ../shared/rooms refused: {int((allp >= th['room']).sum())} of {len(allp)}."]
        result["shipped"] = dict(thresholds=th, sharp_rooms_refused=int((allp >= th["room"]).sum()))
        Path(args.model).write_text(json.dumps(new, indent=1) + "\n")
        import export
        export.export(Path(args.model))
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
