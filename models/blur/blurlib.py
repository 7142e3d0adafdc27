"""Shared pieces of the blur model's training side (issue 64, models/blur/SPEC.md).

- the analysis plane, the tile grid, the detail score and the tile normalisation of SPEC;
- the network (PyTorch) in SPEC's layer vocabulary, and its JSON export;
- the Python reference of the photo's probability (the Swift side must agree with it).
"""
import base64
import json
import math

import cv2
import numpy as np

TILE = 64
STD_FLOOR = 4.0
MAX_TILES = 16
POOL_SHARPEST = 3

# The network: (in, out, stride) of each conv3x3 (valid padding, ReLU after each), then
# global_average, dense 32 -> 16 (ReLU), dense 16 -> 1 (the tile's logit).
CONVS = ((1, 16, 2), (16, 16, 2), (16, 32, 2), (32, 32, 2))
DENSE = ((32, 16, True), (16, 1, False))


def analysis_plane(bgr):
    """SPEC's analysis plane: grey of 8-bit sRGB, INTER_AREA to a shortest side of 1024 (smaller: native)."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr
    h, w = gray.shape
    short = min(h, w)
    if short > 1024:
        s = 1024 / short
        nw, nh = (1024, round(h * s)) if w == short else (round(w * s), 1024)
        gray = cv2.resize(gray, (nw, nh), interpolation=cv2.INTER_AREA)
    return gray


def tile_grid(plane, t=TILE):
    """(positions [(y, x)], row-major) of SPEC's tile grid."""
    h, w = plane.shape
    nx, ny = w // t, h // t
    x0, y0 = (w - nx * t) // 2, (h - ny * t) // 2
    return [(y0 + r * t, x0 + c * t) for r in range(ny) for c in range(nx)]


def detail_scores(plane, positions, t=TILE):
    """SPEC's detail score of each tile: sum over interior pixels of |4c - up - down - left - right|."""
    p = plane.astype(np.int64)
    lap = np.zeros_like(p)
    lap[1:-1, 1:-1] = np.abs(4 * p[1:-1, 1:-1] - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:])
    # The interior of a tile is 1...t-2 of its own coordinates; those pixels' neighbours are inside the tile.
    return [int(lap[y + 1:y + t - 1, x + 1:x + t - 1].sum()) for (y, x) in positions]


def select_tiles(plane, max_tiles=MAX_TILES, t=TILE):
    """The evaluated tiles' positions: the max_tiles highest detail scores (ties: lower index first)."""
    pos = tile_grid(plane, t)
    if not pos:
        return []
    scores = detail_scores(plane, pos, t)
    order = sorted(range(len(pos)), key=lambda i: (-scores[i], i))
    return [pos[i] for i in order[:max_tiles]]


def normalise(tiles_u8, std_floor=STD_FLOOR):
    """x = (v - mean) / max(std, std_floor), population statistics in double, used as float32."""
    v = tiles_u8.astype(np.float64).reshape(len(tiles_u8), -1)
    mean = v.mean(axis=1)
    std = np.sqrt(((v - mean[:, None]) ** 2).mean(axis=1))
    den = np.maximum(std, std_floor)
    mean32 = mean.astype(np.float32)[:, None, None]
    den32 = den.astype(np.float32)[:, None, None]
    return (tiles_u8.astype(np.float32) - mean32) / den32


def macs_per_tile(t=TILE):
    side, total = t, 0
    for cin, cout, stride in CONVS:
        side = (side - 3) // stride + 1
        total += side * side * cout * cin * 9
    for din, dout, _ in DENSE:
        total += din * dout
    return total


def make_net():
    import torch.nn as nn
    layers = []
    for cin, cout, stride in CONVS:
        layers += [nn.Conv2d(cin, cout, 3, stride=stride, padding=0), nn.ReLU()]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten()]
    for i, (din, dout, relu) in enumerate(DENSE):
        layers.append(nn.Linear(din, dout))
        if relu:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def _b64(a):
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode()


def export_layers(net):
    """SPEC's `layers` array from the PyTorch net."""
    import torch.nn as nn
    mods = list(net)
    out = []
    for i, m in enumerate(mods):
        relu = i + 1 < len(mods) and isinstance(mods[i + 1], nn.ReLU)
        if isinstance(m, nn.Conv2d):
            out.append(dict(type="conv3x3", **{"in": m.in_channels, "out": m.out_channels}, stride=m.stride[0],
                            relu=relu, weights=_b64(m.weight.detach().numpy()), bias=_b64(m.bias.detach().numpy())))
        elif isinstance(m, nn.AdaptiveAvgPool2d):
            out.append(dict(type="global_average"))
        elif isinstance(m, nn.Linear):
            out.append(dict(type="dense", **{"in": m.in_features, "out": m.out_features}, relu=relu,
                            weights=_b64(m.weight.detach().numpy()), bias=_b64(m.bias.detach().numpy())))
    return out


class NumpyModel:
    """The network run from the JSON alone, in float32 numpy (the reference the Swift side mirrors)."""

    def __init__(self, doc):
        self.doc = doc
        self.layers = []
        for layer in doc["layers"]:
            d = dict(layer)
            for k in ("weights", "bias"):
                if k in d:
                    d[k] = np.frombuffer(base64.b64decode(d[k]), dtype="<f4").astype(np.float32)
            self.layers.append(d)

    def logits(self, x):
        """x: float32 [n, T, T] normalised tiles -> float32 [n] logits."""
        a = x[:, None, :, :].astype(np.float32)
        for d in self.layers:
            if d["type"] == "conv3x3":
                cin, cout, s = d["in"], d["out"], d["stride"]
                w = d["weights"].reshape(cout, cin, 3, 3)
                n, _, h, wd = a.shape
                oh, ow = (h - 3) // s + 1, (wd - 3) // s + 1
                out = np.zeros((n, cout, oh, ow), np.float32)
                for ky in range(3):
                    for kx in range(3):
                        patch = a[:, :, ky:ky + s * (oh - 1) + 1:s, kx:kx + s * (ow - 1) + 1:s]
                        out += np.einsum("nchw,oc->nohw", patch, w[:, :, ky, kx], optimize=True)
                out += d["bias"][None, :, None, None]
                a = np.maximum(out, 0) if d["relu"] else out
            elif d["type"] == "global_average":
                a = a.mean(axis=(2, 3))
            elif d["type"] == "dense":
                w = d["weights"].reshape(d["out"], d["in"])
                a = a @ w.T + d["bias"]
                if d["relu"]:
                    a = np.maximum(a, 0)
        return a[:, 0]


def photo_probability(plane, model, doc):
    """SPEC's photo probability (None when no tile fits), and the evaluated tiles' (y, x, p)."""
    t = doc["tile_size"]
    pos = select_tiles(plane, doc["max_tiles"], t)
    if not pos:
        return None, []
    tiles = np.stack([plane[y:y + t, x:x + t] for (y, x) in pos])
    z = model(normalise(tiles, doc["std_floor"]))
    p = 1.0 / (1.0 + np.exp(-z.astype(np.float64)))
    k = min(doc["pool_sharpest"], len(p))
    return float(np.sort(p)[:k].mean()), [(y, x, float(q)) for (y, x), q in zip(pos, p)]


def load_net(doc):
    """The PyTorch net with the JSON's weights."""
    import torch
    import torch.nn as nn
    net = make_net()
    convs = [m for m in net if isinstance(m, (nn.Conv2d, nn.Linear))]
    params = [layer for layer in doc["layers"] if layer["type"] in ("conv3x3", "dense")]
    assert len(convs) == len(params), "the JSON's layers do not match blurlib's network"
    with torch.no_grad():
        for m, layer in zip(convs, params):
            w = np.frombuffer(base64.b64decode(layer["weights"]), dtype="<f4").astype(np.float32)
            b = np.frombuffer(base64.b64decode(layer["bias"]), dtype="<f4").astype(np.float32)
            m.weight.copy_(torch.from_numpy(w.reshape(m.weight.shape)))
            m.bias.copy_(torch.from_numpy(b))
    net.eval()
    return net


def torch_logits(net, x):
    import torch
    with torch.no_grad():
        xt = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
        return torch.cat([net(xt[b:b + 2048][:, None])[:, 0] for b in range(0, len(xt), 2048)]).numpy() \
            if len(xt) else np.zeros(0, np.float32)
