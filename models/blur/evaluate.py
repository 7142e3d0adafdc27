#!/usr/bin/env python3
"""Figures of the blur model on the real camera-made groups and the labelled rooms (issue 64, item 3).

    .venv-train/bin/python models/blur/evaluate.py [--model models/blur/blur-model.json]
        [--set .build/real-blur] [--baseline .build/real-blur-scores.csv] [--rooms ../shared/rooms]
        [--write-thresholds] [--markdown OUT.md] [--json OUT.json]

- Every photo of the real-blur set (datasets/make-real-blur-set) and every room of ../shared/rooms
  gets the model's photo probability by the Python reference of SPEC (blurlib.photo_probability).
- Thresholds per photo type are chosen on the *tune* split only (the split column; the rooms' split
  is the one the labelled set gives them): the threshold of the highest balanced accuracy; for
  rooms, never below the highest probability of a sharp room of the tune split (no sharp room
  refused), when that keeps recall. The held split never chooses anything.
- Per group: balanced accuracy of the model at those thresholds (all photos, and the held split),
  ROC AUC of the model, of OpenCV's Laplacian variance at 1024 px, and of today's blur_score, and
  the balanced accuracy of OpenCV's variance at its own tune-split thresholds and of today's
  verdict (shipped defaults). blur_score and today's verdict come from --baseline, the CSV of
  `evaluation/real-blur-figures --scores` (missing: shown as "–").
- The model is trained on synthetic blur of other photos only (models/blur/make-training-set):
  no photo of any of these groups, so every group is left out of training. Two groups share the
  recorded motion with the training data (the Levin kernels: `levin09-kernels-*`; the TUM
  trajectory: `tum-trajectory-on-rooms`), on other photos.
--write-thresholds stores the thresholds and the figures in the model JSON and regenerates the
Swift weights and the fixtures (export.py).
"""
import argparse
import csv
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import blurlib  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def read_image(path):
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        with tempfile.TemporaryDirectory() as tmp:
            png = Path(tmp) / "x.png"
            if subprocess.run(["vips", "autorot", str(path), str(png)], capture_output=True).returncode == 0:
                img = cv2.imread(str(png), cv2.IMREAD_COLOR)
    return img


def opencv_var_1024(img):
    h, w = img.shape[:2]
    s = 1024 / max(h, w)
    if s < 1:
        img = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def score_photos(paths, doc, cache_file):
    """{path: (probability, opencv_var_1024)}, cached by the model's hash."""
    cache = {}
    if cache_file.exists():
        for r in csv.DictReader(open(cache_file)):
            cache[r["path"]] = (float(r["p"]) if r["p"] else None, float(r["var"]) if r["var"] else None)
    net = blurlib.load_net(doc)
    # Photos already seen: their evaluated tiles (finetune.py's cache of SPEC's selection) and their
    # OpenCV variance (any earlier cache) make the same numbers without decoding again.
    tiles_file = cache_file.parent / f"tiles-{doc['max_tiles']}-{doc['tile_size']}.npz"
    known_var = {}
    for other in cache_file.parent.glob("*.csv"):
        for r in csv.DictReader(open(other)):
            if r["var"]:
                known_var[r["path"]] = float(r["var"])
    if tiles_file.exists():
        tiles = np.load(tiles_file, allow_pickle=True)["tiles"].item()
        for p in paths:
            if p not in cache and p in known_var and tiles.get(p) is not None:
                z = blurlib.torch_logits(net, blurlib.normalise(tiles[p], doc["std_floor"]))
                q = np.sort(1.0 / (1.0 + np.exp(-z.astype(np.float64))))
                cache[p] = (float(q[:min(doc["pool_sharpest"], len(q))].mean()), known_var[p])
    todo = [p for p in paths if p not in cache]
    for n, p in enumerate(todo):
        img = read_image(p)
        if img is None:
            cache[p] = (None, None)
            continue
        prob, _ = blurlib.photo_probability(blurlib.analysis_plane(img), lambda x: blurlib.torch_logits(net, x), doc)
        cache[p] = (prob, opencv_var_1024(img))
        if n % 100 == 0:
            print(f"evaluate: {n}/{len(todo)}", file=sys.stderr)
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    with open(cache_file, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["path", "p", "var"])
        for k, (p, v) in cache.items():
            w.writerow([k, "" if p is None else repr(p), "" if v is None else repr(v)])
    return cache


def auc(scores, labels, high_is_blurry):
    """ROC AUC: P(a blurry photo's score is more blurry than a sharp photo's), ties half."""
    s = np.array([x for x, lab in zip(scores, labels) if x is not None], float)
    y = np.array([lab for x, lab in zip(scores, labels) if x is not None])
    if not high_is_blurry:
        s = -s
    b, sh = s[y == 1], s[y == 0]
    if len(b) == 0 or len(sh) == 0:
        return None
    return float(((b[:, None] > sh[None, :]).sum() + 0.5 * (b[:, None] == sh[None, :]).sum()) / (len(b) * len(sh)))


def bacc(pred, labels):
    pred, y = np.array(pred, bool), np.array(labels, int)
    if (y == 1).sum() == 0 or (y == 0).sum() == 0:
        return None
    return float((pred[y == 1].mean() + (~pred[y == 0]).mean()) / 2)


def choose_threshold(scores, labels, high_is_blurry, floor=None):
    """The threshold of the highest balanced accuracy on these (tune) photos; midpoints between scores."""
    s = np.array(scores, float)
    y = np.array(labels, int)
    u = np.unique(s)
    cands = np.concatenate([[u[0] - 1e-6], (u[1:] + u[:-1]) / 2, [u[-1] + 1e-6]])
    best, best_t = -1, None
    for t in cands:
        pred = s >= t if high_is_blurry else s < t
        ba = bacc(pred, y)
        if ba is not None and ba > best + 1e-12:
            best, best_t = ba, float(t)
    if floor is not None and high_is_blurry and best_t is not None and best_t <= floor:
        # No sharp tune room refused: the smallest threshold above every sharp room's probability,
        # unless that costs more than 0.05 balanced accuracy.
        t2 = float(floor + 1e-6)
        ba2 = bacc(s >= t2, y)
        if ba2 is not None and ba2 >= best - 0.05:
            best_t, best = t2, ba2
    return best_t, best


def fmt(x):
    return "–" if x is None else f"{x:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=str(HERE / "blur-model.json"))
    ap.add_argument("--set", default=str(ROOT / ".build" / "real-blur"))
    ap.add_argument("--baseline", default=str(ROOT / ".build" / "real-blur-scores.csv"))
    ap.add_argument("--rooms", default=str(ROOT.parent / "shared" / "rooms"))
    ap.add_argument("--write-thresholds", action="store_true")
    ap.add_argument("--markdown")
    ap.add_argument("--json")
    args = ap.parse_args()
    import torch
    torch.set_num_threads(2)
    model_text = Path(args.model).read_text()
    doc = json.loads(model_text)
    sha = hashlib.sha256(json.dumps(doc["layers"]).encode()).hexdigest()[:16]
    folder = Path(args.set)
    rows = list(csv.DictReader(open(folder / "manifest.csv", newline="")))
    for r in rows:
        r["abspath"] = str((folder / r["path"]).resolve())
        r["group"] = r["source"].split(":")[1]
    base = {}
    if Path(args.baseline).exists():
        for r in csv.DictReader(open(args.baseline)):
            base[str((folder / r["path"]).resolve())] = r
    rooms = list(csv.DictReader(open(Path(args.rooms) / "manifest.csv")))
    for r in rooms:
        r["abspath"] = str((Path(args.rooms) / r["file"]).resolve())
    cache = score_photos([r["abspath"] for r in rows] + [r["abspath"] for r in rooms], doc,
                         ROOT / ".build" / "blur-eval" / f"{sha}.csv")
    for r in rows:
        r["p"], r["var"] = cache[r["abspath"]]
        b = base.get(r["abspath"], {})
        r["blur_score"] = float(b["blur_score"]) if b.get("blur_score") else None
        r["today"] = b.get("verdict")
        r["y"] = 1 if r["label"] == "blurry" else 0
    rows = [r for r in rows if r["p"] is not None]

    # The rooms' split, as the labelled set gives it: the shared-rooms group's split by file name.
    room_split = {}
    for r in rows:
        if r["group"] == "shared-rooms":
            name = Path(r["path"]).name.removeprefix("rooms__")
            room_split[name] = r["split"]
            room_split[Path(name).stem] = r["split"]
    for r in rooms:
        r["p"], _ = cache[r["abspath"]]
        r["split"] = room_split.get(r["file"], room_split.get(Path(r["file"]).stem, "?"))
    print(f"evaluate: rooms by split: {sum(r['split'] == 'tune' for r in rooms)} tune, "
          f"{sum(r['split'] == 'held' for r in rooms)} held, {sum(r['split'] == '?' for r in rooms)} unknown",
          file=sys.stderr)

    thresholds, var_thresholds = {}, {}
    for kind in ("room", "inspiration"):
        tune = [r for r in rows if r["photo_type"] == kind and r["split"] == "tune"]
        floor = None
        if kind == "room":
            sharp_tune_rooms = [r["p"] for r in rooms if r["sharpness"] == "sharp" and r["split"] == "tune"
                                and r["p"] is not None]
            floor = max(sharp_tune_rooms) if sharp_tune_rooms else None
        thresholds[kind], _ = choose_threshold([r["p"] for r in tune], [r["y"] for r in tune], True, floor)
        var_thresholds[kind], _ = choose_threshold([r["var"] for r in tune], [r["y"] for r in tune], False)
    for r in rows:
        r["model_blurry"] = r["p"] >= thresholds[r["photo_type"]]
        r["var_blurry"] = r["var"] < var_thresholds[r["photo_type"]]

    groups = {}
    for r in sorted(rows, key=lambda r: r["group"]):
        groups.setdefault(r["group"], []).append(r)
    pooled = {"pooled: rooms": [r for r in rows if r["photo_type"] == "room"],
              "pooled: inspiration": [r for r in rows if r["photo_type"] == "inspiration"],
              "pooled: all": rows,
              "pooled: held split": [r for r in rows if r["split"] == "held"]}
    table = []
    for name, items in list(groups.items()) + list(pooled.items()):
        y = [r["y"] for r in items]
        held = [r for r in items if r["split"] == "held"]
        today = [r for r in items if r["today"]]
        table.append(dict(
            group=name, sharp=y.count(0), blurry=y.count(1),
            model_bacc=bacc([r["model_blurry"] for r in items], y),
            model_bacc_held=bacc([r["model_blurry"] for r in held], [r["y"] for r in held]),
            model_auc=auc([r["p"] for r in items], y, True),
            opencv_auc=auc([r["var"] for r in items], y, False),
            blur_score_auc=auc([r["blur_score"] for r in items], y, False) if base else None,
            opencv_bacc=bacc([r["var_blurry"] for r in items], y),
            today_bacc=bacc([r["today"] == "blurry" for r in today], [r["y"] for r in today]) if today else None))
    # Groups with at least 8 photos of each label (the bar: none under 0.80).
    big = [t for t in table if not t["group"].startswith("pooled") and t["sharp"] >= 8 and t["blurry"] >= 8]

    room_fig = {}
    for lab in ("sharp", "soft", "blurry"):
        ps = [r["p"] for r in rooms if r["sharpness"] == lab and r["p"] is not None]
        room_fig[lab] = dict(n=len(ps), refused=int(sum(p >= thresholds["room"] for p in ps)),
                             max_p=max(ps) if ps else None, min_p=min(ps) if ps else None)
    sharp_refused = [r["file"] for r in rooms if r["sharpness"] == "sharp" and r["p"] is not None
                     and r["p"] >= thresholds["room"]]
    yr = [1 if r["sharpness"] == "blurry" else 0 for r in rooms if r["sharpness"] in ("sharp", "blurry")]
    pr = [r["p"] >= thresholds["room"] for r in rooms if r["sharpness"] in ("sharp", "blurry")]

    lines = [f"Model {doc['version']}; thresholds chosen on the tune split: room {thresholds['room']:.4f}, "
             f"inspiration {thresholds['inspiration']:.4f} (OpenCV variance at 1024 px, its own tune-split thresholds: "
             f"room {var_thresholds['room']:.1f}, inspiration {var_thresholds['inspiration']:.1f}).", "",
             "| group | sharp | blurry | model BA | model BA (held) | model AUC | OpenCV var AUC | blur_score AUC "
             "| OpenCV var BA | today's BA |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for t in table:
        lines.append(f"| {t['group']} | {t['sharp']} | {t['blurry']} | {fmt(t['model_bacc'])} | {fmt(t['model_bacc_held'])} "
                     f"| {fmt(t['model_auc'])} | {fmt(t['opencv_auc'])} | {fmt(t['blur_score_auc'])} "
                     f"| {fmt(t['opencv_bacc'])} | {fmt(t['today_bacc'])} |")
    lines += ["", f"Groups with at least 8 photos of each label: {len(big)}; the lowest model BA among them: "
              f"{fmt(min((t['model_bacc'] for t in big), default=None))} "
              f"({', '.join(t['group'] for t in big if t['model_bacc'] is not None and t['model_bacc'] < 0.8) or 'none under 0.80'} under 0.80).",
              "", "Labelled rooms (../shared/rooms) at the room threshold: " + "; ".join(
                  f"{lab} {v['n']}: {v['refused']} refused (p {fmt(v['min_p'])}–{fmt(v['max_p'])})" for lab, v in room_fig.items())
              + f"; balanced accuracy sharp vs blurry {fmt(bacc(pr, yr))}; sharp rooms refused: {', '.join(sharp_refused) or 'none'}."]
    text = "\n".join(lines)
    print(text)
    result = dict(model=doc["version"], thresholds=thresholds, opencv_thresholds=var_thresholds, groups=table,
                  rooms=room_fig, rooms_bacc=bacc(pr, yr), sharp_rooms_refused=sharp_refused)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    if args.write_thresholds:
        doc["threshold_room"] = round(thresholds["room"], 6)
        doc["threshold_inspiration"] = round(thresholds["inspiration"], 6)
        doc["training"]["thresholds"] = ("chosen by models/blur/evaluate.py on the tune split of the real-blur set "
                                         "(highest balanced accuracy; rooms: no sharp tune room refused)")
        pooled_rows = {t["group"]: t for t in table if t["group"].startswith("pooled")}
        doc["training"]["figures"] = dict(
            real_blur_pooled={k: {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()}
                              for k, v in pooled_rows.items()},
            labelled_rooms=room_fig)
        Path(args.model).write_text(json.dumps(doc, indent=1) + "\n")
        import export
        export.export(Path(args.model))


if __name__ == "__main__":
    main()
