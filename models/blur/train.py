#!/usr/bin/env python3
"""Train the blur model on the tiles of make-training-set, from a seed, and export it (SPEC.md).

    .venv-train/bin/python models/blur/train.py [--data .build/blur-train] [--seed 64] [--epochs 12]
                                                [--exclude-photos FILE] [--out models/blur/blur-model.json]
                                                [--no-export]

Reproducible: torch.manual_seed, numpy generators from the seed, deterministic algorithms, 2 threads
(the same machine and library versions give the same weights). Writes the model JSON (thresholds
0.5 until `evaluate` chooses them on the tune split), and through export.py the generated Swift
weights file and the parity fixtures.
"""
import argparse
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import blurlib  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VERSION_PREFIX = "1"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT / ".build" / "blur-train"))
    ap.add_argument("--seed", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=str(HERE / "blur-model.json"))
    ap.add_argument("--checkpoint", default=None, help="also save the state dict here")
    ap.add_argument("--max-shards", type=int, default=0,
                    help="use only the first N shards of each folder (0: all; the shipped model: 18)")
    ap.add_argument("--no-export", action="store_true", help="write only the JSON (for studies)")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(args.threads)
    rng = np.random.Generator(np.random.PCG64(args.seed))

    tiles, labels, photo, summary, ids = load_data([Path(d) for d in args.data.split(",")], args.max_shards)
    # Validation: one photo in ten (by CRC-32 of its id), with every tile made from it.
    val_photo = np.array([zlib.crc32(ids[int(i)].encode()) % 10 == 0 for i in range(max(ids) + 1)])
    is_val = val_photo[photo]
    tr, va = np.nonzero(~is_val)[0], np.nonzero(is_val)[0]
    print(f"train: {len(tr)} tiles, validation: {len(va)} tiles ({int(labels[va].sum())} blurry)", file=sys.stderr)

    x_all = torch.from_numpy(blurlib.normalise(tiles))       # float32 [N, T, T]
    y_all = torch.from_numpy(labels)

    net = blurlib.make_net()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * int(np.ceil(len(tr) / args.batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.15)
    lossf = torch.nn.BCEWithLogitsLoss()
    t0 = time.time()
    history = []
    for epoch in range(args.epochs):
        net.train()
        order = rng.permutation(tr)
        total, n = 0.0, 0
        for b in range(0, len(order), args.batch):
            idx = torch.from_numpy(order[b:b + args.batch])
            xb = x_all[idx]
            # The 8 symmetries of the square (motion has every direction).
            k = int(rng.integers(4))
            if k:
                xb = torch.rot90(xb, k, dims=(1, 2))
            if rng.random() < 0.5:
                xb = torch.flip(xb, dims=(2,))
            logit = net(xb[:, None])[:, 0]
            loss = lossf(logit, y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            n += len(idx)
        acc, vloss = evaluate(net, x_all[va], y_all[va], lossf)
        history.append(dict(epoch=epoch + 1, train_loss=round(total / n, 4), val_loss=round(vloss, 4),
                            val_tile_accuracy=round(acc, 4), seconds=round(time.time() - t0)))
        print(json.dumps(history[-1]), file=sys.stderr)
    if args.checkpoint:
        torch.save(net.state_dict(), args.checkpoint)

    doc = dict(
        format="photo-validator-blur-model",
        version=f"{VERSION_PREFIX}.{args.seed}.{summary['tiles']}t.{args.epochs}e",
        seed=args.seed, tile_size=blurlib.TILE, std_floor=blurlib.STD_FLOOR, max_tiles=blurlib.MAX_TILES,
        pool_sharpest=blurlib.POOL_SHARPEST, threshold_room=0.5, threshold_inspiration=0.5,
        layers=blurlib.export_layers(net),
        training=dict(
            command=f"models/blur/train.py --seed {args.seed} --epochs {args.epochs} --batch {args.batch} --lr {args.lr}"
                    + (f" --max-shards {args.max_shards}" if args.max_shards else ""),
            torch=torch.__version__, numpy=np.__version__,
            multiply_adds_per_tile=blurlib.macs_per_tile(),
            parameters=int(sum(p.numel() for p in net.parameters())),
            data=summary, train_tiles=int(len(tr)), validation_tiles=int(len(va)),
            history=history, seconds=round(time.time() - t0),
            thresholds="0.5 until models/blur/evaluate chooses them on the tune split"),
    )
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes)", file=sys.stderr)
    if not args.no_export:
        import export
        export.export(Path(args.out), net)


def load_data(folders, max_shards=0):
    """Tiles, labels (float32), photo indices, the data summary and {index: photo id} of
    make-training-set's shards in one or more folders (photo indices offset per folder)."""
    import csv
    import importlib.machinery
    mts = importlib.machinery.SourceFileLoader("mts", str(HERE / "make-training-set")).load_module()
    tiles, labels, photo, ids = [], [], [], {}
    summary = dict(photos=0, tiles=0, blurry_tiles=0, sharp_tiles=0, tiles_by_kind={}, sources={})
    offset = 0
    for folder in folders:
        s = mts.summarise(folder, max_shards)
        for k in ("photos", "tiles", "blurry_tiles", "sharp_tiles"):
            summary[k] += s[k]
        for k, v in s["tiles_by_kind"].items():
            summary["tiles_by_kind"][k] = summary["tiles_by_kind"].get(k, 0) + v
        summary["sources"].update(s["sources"])
        summary["motion"] = s["motion"]
        rows = list(csv.DictReader(open(folder / "photos.csv")))
        ids.update({offset + int(r["index"]): r["id"] for r in rows})
        for p in sorted((folder / "shards").glob("shard-*[0-9].npz"))[:max_shards or None]:
            d = np.load(p)
            tiles.append(d["tiles"])
            labels.append(d["label"].astype(np.float32))
            photo.append(d["photo"].astype(np.int64) + offset)
        offset += len(rows)
    return np.concatenate(tiles), np.concatenate(labels), np.concatenate(photo), summary, ids


@torch.no_grad()
def evaluate(net, x, y, lossf):
    net.eval()
    if len(x) == 0:
        return float("nan"), float("nan")
    logits = torch.cat([net(x[b:b + 2048][:, None])[:, 0] for b in range(0, len(x), 2048)])
    return float(((logits > 0).float() == y).float().mean()), float(lossf(logits, y))


if __name__ == "__main__":
    main()
