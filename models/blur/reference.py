#!/usr/bin/env python3
"""The blur model's inference in numpy, exactly as models/blur/SPEC.md states it: the reference both
sides hold to (issue 64). The Swift side (Sources/BlurModel) is tested against fixtures this file writes.

Only numpy and the standard library (zlib for PNG); torch is used only by `fixtures`, for the logits
the SPEC wants from PyTorch, when it is importable.

For the training script (reuse freely; import it or copy it):
    model = reference.load_model(json_text)          # dict with decoded float32 arrays
    scores = reference.detail_scores(plane, T)       # row-major, int
    chosen = reference.select_tiles(scores, max_tiles)
    x = reference.normalise(tile_uint8, std_floor)   # float32 [T, T]
    logit = reference.forward(model, x)              # float32
    p, tiles = reference.photo_probability(model, plane)
    reference.write_swift_weights(json_text, "Sources/BlurModel/BlurModelWeights.swift")
    reference.write_fixtures(json_text, plane, "Tests/BlurModelTests/Fixtures/parity.json")

Layer objects in the JSON: {"type": "conv3x3", "in", "out", "stride", "relu", "weights", "bias"},
{"type": "global_average"}, {"type": "dense", "in", "out", "relu", "weights", "bias"}; weights and
bias base64 of float32 little-endian in PyTorch's layout ([out][in][3][3], [out][in], [out]).

Fixture format (Tests/BlurModelTests/Fixtures/parity.json), export.py's (the Swift test reads it):
    {"model_version", "model_sha256" (of the JSON as in the Swift literal), "tile_size",
     "tiles": [{"pixels": base64 uint8 T*T row-major, "logit": PyTorch's, "note"}],
     "plane": {"png": base64 8-bit grey PNG, "width", "height", "probability",
               "evaluated": [{"x", "y", "probability"}] in selection order, "note"}}
This file's `fixtures` adds "detail" and "logit" to each evaluated tile.

Commands:
    reference.py provisional JSON_PATH [--seed N]    random weights of blurlib's architecture
    reference.py swift JSON_PATH SWIFT_PATH          the Swift weights file for a model JSON
    reference.py fixtures SWIFT_PATH FIXTURE_PATH    fixtures (synthetic plane) for the model inside SWIFT_PATH
(export.py writes both files from blur-model.json with planes of committed photos; prefer it.)
"""
import base64
import hashlib
import json
import re
import struct
import sys
import zlib

import numpy as np

FORMAT = "photo-validator-blur-model"


def floats_base64(array):
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def floats_from_base64(text):
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)


def load_model(json_text):
    """The JSON with every layer's weights decoded and reshaped to PyTorch's layout."""
    model = json.loads(json_text)
    assert model["format"] == FORMAT
    for layer in model["layers"]:
        kind = layer["type"]
        if kind == "conv3x3":
            layer["w"] = floats_from_base64(layer["weights"]).reshape(layer["out"], layer["in"], 3, 3)
            layer["b"] = floats_from_base64(layer["bias"]).reshape(layer["out"])
        elif kind == "dense":
            layer["w"] = floats_from_base64(layer["weights"]).reshape(layer["out"], layer["in"])
            layer["b"] = floats_from_base64(layer["bias"]).reshape(layer["out"])
        elif kind != "global_average":
            raise ValueError("unknown layer type " + kind)
    return model


def tile_grid(width, height, size):
    """(columns, rows, x0, y0), or None when a side is under one tile."""
    if width < size or height < size:
        return None
    columns, rows = width // size, height // size
    return columns, rows, (width - columns * size) // 2, (height - rows * size) // 2


def tile_origins(width, height, size):
    grid = tile_grid(width, height, size)
    if grid is None:
        return []
    columns, rows, x0, y0 = grid
    return [(x0 + c * size, y0 + r * size) for r in range(rows) for c in range(columns)]


def tile_detail(tile):
    """Sum over the interior (1..T-2) of |4c - up - down - left - right|, as an integer."""
    t = tile.astype(np.int64)
    c = t[1:-1, 1:-1]
    response = 4 * c - t[:-2, 1:-1] - t[2:, 1:-1] - t[1:-1, :-2] - t[1:-1, 2:]
    return int(np.abs(response).sum())


def detail_scores(plane, size):
    height, width = plane.shape
    return [tile_detail(plane[y:y + size, x:x + size]) for x, y in tile_origins(width, height, size)]


def select_tiles(scores, max_tiles):
    """Indices of the max_tiles highest scores (ties: lower row-major index first), row-major."""
    ranked = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return sorted(ranked[:max_tiles])


def normalise(tile, std_floor):
    """(v - mean) / max(std, std_floor): population mean and std in float64, used as float32 (the
    subtraction and division in float32, as blurlib.normalise and the Swift side do)."""
    v = tile.astype(np.float64)
    mean = np.float32(v.mean())
    scale = np.float32(max(v.std(), std_floor))
    return (tile.astype(np.float32) - mean) / scale


def conv3x3(x, w, b, stride):
    """x [C, H, W] float32, w [O, C, 3, 3], valid padding: [O, (H-3)//stride+1, (W-3)//stride+1]."""
    windows = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))[:, ::stride, ::stride]
    return (np.einsum("chwij,ocij->ohw", windows, w, dtype=np.float32) + b[:, None, None]).astype(np.float32)


def forward(model, x):
    """The logit of one normalised tile x [T, T] float32."""
    a = x[None, :, :].astype(np.float32)
    for layer in model["layers"]:
        kind = layer["type"]
        if kind == "conv3x3":
            a = conv3x3(a, layer["w"], layer["b"], layer.get("stride", 1))
            if layer.get("relu", False):
                a = np.maximum(a, 0)
        elif kind == "global_average":
            a = a.reshape(a.shape[0], -1).mean(axis=1, dtype=np.float32)
        else:
            a = (layer["w"] @ a + layer["b"]).astype(np.float32)
            if layer.get("relu", False):
                a = np.maximum(a, 0)
    assert a.shape == (1,)
    return np.float32(a[0])


def sigmoid(logit):
    return 1.0 / (1.0 + np.exp(-np.float64(logit)))


def photo_probability(model, plane, logit_of=None):
    """(probability or None, evaluated tiles row-major as dicts): SPEC's pipeline on a uint8 plane."""
    size = model["tile_size"]
    height, width = plane.shape
    origins = tile_origins(width, height, size)
    if not origins:
        return None, []
    scores = detail_scores(plane, size)
    logit_of = logit_of or (lambda x: forward(model, x))
    tiles = []
    for index in select_tiles(scores, model["max_tiles"]):
        x0, y0 = origins[index]
        logit = float(logit_of(normalise(plane[y0:y0 + size, x0:x0 + size], model["std_floor"])))
        tiles.append({"x": x0, "y": y0, "detail": scores[index], "logit": logit, "probability": float(sigmoid(logit))})
    kept = sorted(t["probability"] for t in tiles)[:model["pool_sharpest"]]
    return float(sum(kept) / len(kept)), tiles


def multiply_adds(model):
    side, total = model["tile_size"], 0
    for layer in model["layers"]:
        if layer["type"] == "conv3x3":
            side = (side - 3) // layer.get("stride", 1) + 1
            total += side * side * layer["out"] * layer["in"] * 9
        elif layer["type"] == "dense":
            total += layer["in"] * layer["out"]
    return total


def swift_weights_text(json_text):
    digest = hashlib.sha256(json_text.encode("utf-8")).hexdigest()
    assert '"#' not in json_text
    return (
        "// Generated from the blur model's JSON (models/blur/SPEC.md); never edit by hand.\n"
        f"// SHA-256 of the JSON: {digest}\n\n"
        "/// The blur model's JSON as the training script wrote it, compiled into the binary.\n"
        "package enum BlurModelWeights {\n"
        "    /// The model JSON (models/blur/SPEC.md, \"JSON keys\").\n"
        '    package static let json: String = #"""\n'
        f"{json_text}\n"
        '"""#\n'
        "    /// The SHA-256 of `json`'s UTF-8 bytes, in hex.\n"
        f'    package static let sha256 = "{digest}"\n'
        "}\n"
    )


def write_swift_weights(json_text, path):
    with open(path, "w", encoding="utf-8") as out:
        out.write(swift_weights_text(json_text))


def json_from_swift(path):
    text = open(path, encoding="utf-8").read()
    match = re.search(r'#"""\n(.*)\n"""#', text, re.S)
    return match.group(1)


def png_grey(plane):
    """An 8-bit greyscale PNG of a uint8 plane (filter 0 on every row, zlib level 9)."""
    height, width = plane.shape
    raw = b"".join(b"\x00" + plane[y].tobytes() for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def provisional_model(seed):
    """Random weights of a plausible architecture (He initialisation), within SPEC's budget:
    blurlib's network (conv 1->16 s2, 16->16 s2, 16->32 s2, 32->32 s2, global average, dense 32->16
    ReLU, dense 16->1), so that export.py runs on it. A stand-in until the trained model lands; its
    outputs mean nothing."""
    rng = np.random.default_rng(seed)
    layers = []
    for inputs, outputs, stride in [(1, 16, 2), (16, 16, 2), (16, 32, 2), (32, 32, 2)]:
        w = rng.normal(0, np.sqrt(2.0 / (inputs * 9)), (outputs, inputs, 3, 3)).astype(np.float32)
        b = rng.normal(0, 0.05, outputs).astype(np.float32)
        layers.append({"type": "conv3x3", "in": inputs, "out": outputs, "stride": stride, "relu": True,
                       "weights": floats_base64(w), "bias": floats_base64(b)})
    layers.append({"type": "global_average"})
    for inputs, outputs, relu in [(32, 16, True), (16, 1, False)]:
        w = rng.normal(0, np.sqrt(2.0 / inputs), (outputs, inputs)).astype(np.float32)
        b = rng.normal(0, 0.05, outputs).astype(np.float32)
        layers.append({"type": "dense", "in": inputs, "out": outputs, "relu": relu, "weights": floats_base64(w), "bias": floats_base64(b)})
    model = {"format": FORMAT, "version": f"provisional-random-{seed}", "seed": seed, "tile_size": 64, "std_floor": 4.0,
             "max_tiles": 16, "pool_sharpest": 3, "threshold_room": 0.5, "threshold_inspiration": 0.5, "layers": layers,
             "training": {"note": "provisional random weights from models/blur/reference.py, not trained; replaced by train.py's export"}}
    assert multiply_adds(load_model(json.dumps(model))) <= 1_000_000
    return json.dumps(model, indent=1)


def synthetic_plane(rng, width, height):
    """A plane with sharp shapes, a soft (box-blurred) half, gradients, flat areas and noise."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
    image = 90 + 60 * np.sin(xx / 37.0) * np.cos(yy / 53.0)
    for _ in range(40):
        x, y, w, h = rng.integers(0, width), rng.integers(0, height), rng.integers(8, 90), rng.integers(8, 90)
        image[y:y + h, x:x + w] = rng.integers(0, 256)
    for _ in range(12):
        cx, cy, r = rng.integers(0, width), rng.integers(0, height), rng.integers(5, 40)
        image[(xx - cx) ** 2 + (yy - cy) ** 2 < r * r] = rng.integers(0, 256)
    soft = image.copy()
    for axis in (0, 1):
        soft = sum(np.roll(soft, k, axis=axis) for k in range(-4, 5)) / 9.0
    image[:, width // 2:] = soft[:, width // 2:]
    image[: height // 5, : width // 4] = 128  # flat: tiles with equal (zero) scores
    image += rng.normal(0, 0.6, image.shape)
    return np.clip(np.rint(image), 0, 255).astype(np.uint8)


def fixture_tiles(rng, plane, size):
    tiles = [("flat-128", np.full((size, size), 128, np.uint8)),
             ("flat-0", np.zeros((size, size), np.uint8)),
             ("one-step", np.where(np.arange(size)[None, :] < size // 2, 100, 101).repeat(size, 0).astype(np.uint8)),
             ("checkerboard", ((np.indices((size, size)).sum(0) % 2) * 255).astype(np.uint8)),
             ("random", rng.integers(0, 256, (size, size)).astype(np.uint8)),
             ("ramp", np.tile(np.linspace(0, 255, size), (size, 1)).astype(np.uint8))]
    for x, y in tile_origins(plane.shape[1], plane.shape[0], size)[::3][:18]:
        tiles.append((f"plane-{x}-{y}", plane[y:y + size, x:x + size].copy()))
    return tiles


def write_fixtures(json_text, plane, path, seed=64):
    model = load_model(json_text)
    size = model["tile_size"]
    logit_of, source = (lambda x: forward(model, x)), "numpy"
    try:
        import torch
        import torch.nn.functional as F

        def torch_logit(x):
            a = torch.from_numpy(np.ascontiguousarray(x))[None, None]
            for layer in model["layers"]:
                if layer["type"] == "conv3x3":
                    a = F.conv2d(a, torch.from_numpy(layer["w"]), torch.from_numpy(layer["b"]), stride=layer.get("stride", 1))
                    a = F.relu(a) if layer.get("relu", False) else a
                elif layer["type"] == "global_average":
                    a = a.mean(dim=(2, 3))
                else:
                    a = F.linear(a, torch.from_numpy(layer["w"]), torch.from_numpy(layer["b"]))
                    a = F.relu(a) if layer.get("relu", False) else a
            return np.float32(a.reshape(-1)[0].item())

        with torch.no_grad():
            torch.set_num_threads(1)
            logit_of, source = torch_logit, "pytorch"
            rng = np.random.default_rng(seed)
            tiles = fixture_tiles(rng, plane, size)
            entries = []
            for name, tile in tiles:
                x = normalise(tile, model["std_floor"])
                logit, reference_logit = logit_of(x), forward(model, x)
                assert abs(logit - reference_logit) <= 1e-4 * max(1.0, abs(logit)), (name, logit, reference_logit)
                entries.append({"pixels": base64.b64encode(tile.tobytes()).decode("ascii"), "logit": float(logit), "note": name})
            probability, evaluated = photo_probability(model, plane, logit_of)
    except ImportError:
        rng = np.random.default_rng(seed)
        entries = [{"pixels": base64.b64encode(tile.tobytes()).decode("ascii"), "logit": float(forward(model, normalise(tile, model["std_floor"]))), "note": name}
                   for name, tile in fixture_tiles(rng, plane, size)]
        probability, evaluated = photo_probability(model, plane)
    ranked = sorted(evaluated, key=lambda t: (-t["detail"], (t["y"], t["x"])))
    fixture = {"about": f"Swift/{source} parity (models/blur/SPEC.md), written by models/blur/reference.py fixtures.",
               "model_version": model["version"],
               "model_sha256": hashlib.sha256(json_text.encode("utf-8")).hexdigest(), "tile_size": size,
               "tiles": entries,
               "plane": {"png": base64.b64encode(png_grey(plane)).decode("ascii"), "width": int(plane.shape[1]),
                         "height": int(plane.shape[0]), "probability": probability, "evaluated": ranked,
                         "note": "synthetic plane: shapes, a box-blurred right half, a flat corner"}}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(fixture, out, indent=1)
        out.write("\n")


def main(argv):
    if len(argv) >= 2 and argv[0] == "provisional":
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 64
        with open(argv[1], "w", encoding="utf-8") as out:
            out.write(provisional_model(seed) + "\n")
    elif len(argv) == 3 and argv[0] == "swift":
        write_swift_weights(open(argv[1], encoding="utf-8").read().rstrip(), argv[2])
    elif len(argv) == 3 and argv[0] == "fixtures":
        json_text = json_from_swift(argv[1])
        plane = synthetic_plane(np.random.default_rng(6401), 704, 448)
        write_fixtures(json_text, plane, argv[2])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
