#!/usr/bin/env python3
"""compute_features.py tiles|dup : per-photo G features into tilefeat.npz / dupfeat.npz"""
import os
import csv, sys, glob
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gfeat
# Where the study writes its tiles, sets and results (STUDY_DIR, default .build/global-screen).
REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STUDY = os.environ.get("STUDY_DIR", os.path.join(REPO, ".build", "global-screen"))
which = sys.argv[1]
if which == "tiles":
    paths = sorted(glob.glob(STUDY + "/tiles/*.jpg"))
    gfeat.compute_many(paths, STUDY + "/tilefeat.npz")
else:
    rows = list(csv.DictReader(open(STUDY + "/duplicates/pairs.csv")))
    paths = sorted({r["a"] for r in rows} | {r["b"] for r in rows})
    gfeat.compute_many(paths, STUDY + "/dupfeat.npz")
