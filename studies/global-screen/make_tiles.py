#!/usr/bin/env python3
"""The 1,000 distinct tiles of benchmarks/bench-peers, made by its own `distinct_photos` (tiles of
../shared/rooms and ../shared/photos and their mirror images, less any the release build calls a
copy of an earlier one), written to $STUDY_DIR/tiles:

    STUDY_DIR=.build/global-screen .venv/bin/python studies/global-screen/make_tiles.py
"""
import importlib.machinery
import importlib.util
import os
from pathlib import Path

# Where the study writes its tiles, sets and results (STUDY_DIR, default .build/global-screen).
REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STUDY = os.environ.get("STUDY_DIR", os.path.join(REPO, ".build", "global-screen"))
COUNT = 1000


def bench_peers():
    """benchmarks/bench-peers as a module (its file has no .py ending)."""
    path = os.path.join(REPO, "benchmarks", "bench-peers")
    loader = importlib.machinery.SourceFileLoader("bench_peers", path)
    spec = importlib.util.spec_from_loader("bench_peers", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


if __name__ == "__main__":
    folder = Path(STUDY) / "tiles"
    folder.mkdir(parents=True, exist_ok=True)
    peers = bench_peers()
    kept = peers.distinct_photos(peers.DEFAULT_BINARY, folder, peers.DEFAULT_DISTINCT_SOURCES, COUNT)
    print(f"make_tiles: {kept} distinct tiles in {folder}")
