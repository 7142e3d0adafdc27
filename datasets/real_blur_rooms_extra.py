"""Further real room blur for the real-blur set (issue 48, rooms first): groups that
datasets/make-real-blur-set adds through `photos(...)`.

- `tum-fr3-frames-superglue`: 17 frames (640x480, one a second) of TUM RGB-D's
  freiburg3 long office sequence, a Kinect carried by hand through an office, as SuperGlue's
  repository keeps them (assets/freiburg_sequence/). Real frames of a moving hand-held camera,
  each as it is (PNG).
- `scannet-frames-superglue`: the 30 ScanNet frames (1296x968 JPEG) SuperGlue keeps
  (assets/scannet_sample_images/): rooms, offices, kitchens and bathrooms filmed by hand with a
  tablet's camera (Structure sensor rig), each frame as it is.
- `tum-trajectory-on-rooms`: the camera motion that TUM RGB-D's motion-capture system recorded
  (100 Hz) for the hand-held Kinect of freiburg1_xyz, cut into exposure windows and projected
  through a phone's main camera (26 mm equivalent) for a point 2.5 m away, applied to the sharp
  rooms at their native size as the Levin kernels are (linear light, sensor noise, JPEG; the
  dim room too). The path of the image centre over the window is the kernel.

All three are local-only: read at build time from the snapshots in --mirrors.
"""
import sys
from pathlib import Path

import numpy as np

COMMITS = {
    "magicleap/SuperGluePretrainedNetwork": "ddcf11f42e7e0732a0c4607648f9448ea8d73590",
    "Khashayar-Gh/RGBD_Localization": "37c66d15d653a7c425392cdbe5cac661dc72a838",
}

TUM_FR3_FRAMES = ["1341847980.722988", "1341847981.726650", "1341847982.730674", "1341847983.738736",
                  "1341847984.743352", "1341847985.746954", "1341847986.762616", "1341847987.758741",
                  "1341847988.769740", "1341847989.802890", "1341847990.810771", "1341847991.814748",
                  "1341847992.818723", "1341847993.826735", "1341847994.866828", "1341847995.870641",
                  "1341847996.874766"]
SCANNET_FRAMES = [
    "scene0711_00_frame-001680", "scene0711_00_frame-001995", "scene0713_00_frame-001320",
    "scene0713_00_frame-002025", "scene0721_00_frame-000375", "scene0721_00_frame-002745",
    "scene0722_00_frame-000045", "scene0722_00_frame-000735", "scene0726_00_frame-000135",
    "scene0726_00_frame-000210", "scene0737_00_frame-000930", "scene0737_00_frame-001095",
    "scene0738_00_frame-000885", "scene0738_00_frame-001065", "scene0743_00_frame-000000",
    "scene0743_00_frame-001275", "scene0744_00_frame-000585", "scene0744_00_frame-002310",
    "scene0747_00_frame-000000", "scene0747_00_frame-001530", "scene0752_00_frame-000075",
    "scene0752_00_frame-001440", "scene0755_00_frame-000120", "scene0755_00_frame-002055",
    "scene0758_00_frame-000165", "scene0758_00_frame-000510", "scene0768_00_frame-001095",
    "scene0768_00_frame-003435", "scene0806_00_frame-000225", "scene0806_00_frame-001095"]

FRAME_SOURCES = {
    # group -> (repository, licence, [(path, original)])
    "tum-fr3-frames-superglue": (
        "magicleap/SuperGluePretrainedNetwork",
        "TUM RGB-D benchmark frames (CC BY 4.0, Sturm et al. 2012) as SuperGlue's repository keeps them "
        "(its licence: non-commercial research); read, never copied",
        [(f"assets/freiburg_sequence/{t}.png", f"fr3_{t}") for t in TUM_FR3_FRAMES]),
    "scannet-frames-superglue": (
        "magicleap/SuperGluePretrainedNetwork",
        "ScanNet frames (ScanNet Terms of Use: non-commercial research) as SuperGlue's repository keeps "
        "them (its licence: non-commercial research); read, never copied",
        [(f"assets/scannet_sample_images/{n}.jpg", n.split("_frame")[0] + "_" + n.split("-")[-1])
         for n in SCANNET_FRAMES]),
}

TRAJECTORY_GROUP = "tum-trajectory-on-rooms"
TRAJECTORY_REPO = "Khashayar-Gh/RGBD_Localization"
TRAJECTORY_PATH = "groundtruth.txt"      # freiburg1_xyz, motion capture at 100 Hz, 30 s
TRAJECTORY_LICENCE = ("TUM RGB-D freiburg1_xyz ground truth (CC BY 4.0, Sturm et al. 2012) in a repository "
                      "with no licence stated; the rooms: ../shared/rooms/ATTRIBUTION.md; read, never copied")
FOCAL_1024 = 1024 * 26 / 36              # a phone's main camera (26 mm equivalent) at 1024 px long side
DEPTH_M = 2.5                            # the point whose image path is the kernel: across a room
# Per sharp room: (variant, exposure in seconds, dim). A phone indoors exposes 1/60-1/8 s.
EXPOSURES = (("e17ms", 1 / 60, False), ("e67ms", 1 / 15, False), ("dim-e125ms", 1 / 8, True))
STEP_S = 0.001                           # the trajectory interpolated at 1 ms
TRAJECTORY_CACHE_VERSION = "trajectory-v2"  # change with anything that changes these photos


def _quat_to_rot(q):
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def read_trajectory(text):
    """(times, positions, quaternions) of a TUM ground-truth file (camera to world)."""
    rows = [list(map(float, line.split())) for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith(("#", "timestamp"))]
    a = np.array(rows)
    quats = a[:, 4:8].copy()
    # Keep consecutive quaternions in one hemisphere so that interpolating them is short.
    for i in range(1, len(quats)):
        if np.dot(quats[i], quats[i - 1]) < 0:
            quats[i] = -quats[i]
    return a[:, 0], a[:, 1:4], quats


def trajectory_kernel(traj, start, exposure, scale):
    """The kernel of the recorded motion from `start` over `exposure` s on a photo `scale` times
    1024 px on its long side, and the motion's path length at 1024 px: the image path of a point
    DEPTH_M in front of the camera at `start`, drawn at the photo's own size (drawing it at 1024 px
    and enlarging it would widen a short path by the drawing's own pixel), centred on its centroid."""
    times, pos, quats = traj
    ts = np.arange(start, start + exposure + 1e-9, STEP_S)
    p = np.stack([np.interp(ts, times, pos[:, k]) for k in range(3)], axis=1)
    q = np.stack([np.interp(ts, times, quats[:, k]) for k in range(4)], axis=1)
    r0 = _quat_to_rot(q[0])
    world = r0 @ np.array([0.0, 0.0, DEPTH_M]) + p[0]
    uv = []
    for pi, qi in zip(p, q):
        c = _quat_to_rot(qi).T @ (world - pi)
        uv.append((FOCAL_1024 * c[0] / c[2], FOCAL_1024 * c[1] / c[2]))
    uv = np.array(uv)
    length = float(np.sum(np.hypot(*np.diff(uv, axis=0).T))) if len(uv) > 1 else 0.0
    # Centred on the path's centroid (the kernel's, as the samples are evenly spaced in time): a
    # shake also moves the frame, and the shift is not blur.
    uv = (uv - uv.mean(axis=0)) * scale
    half = int(np.ceil(np.abs(uv).max())) + 1
    size = 2 * half + 1
    k = np.zeros((size, size))
    # Each 1 ms sample splatted bilinearly: the time the image centre spent at each pixel.
    for u, v in uv + half:
        x0, y0 = int(np.floor(u)), int(np.floor(v))
        fx, fy = u - x0, v - y0
        k[y0, x0] += (1 - fx) * (1 - fy)
        k[y0, x0 + 1] += fx * (1 - fy)
        k[y0 + 1, x0] += (1 - fx) * fy
        k[y0 + 1, x0 + 1] += fx * fy
    return k / k.sum(), length


def _frame_photos(m, args, labels, notes):
    photos = []
    for group, (repo, licence, files) in FRAME_SOURCES.items():
        git_dir = m.mirror_git_dir(args.mirrors, repo)
        if git_dir is None:
            notes.append(f"{group}: {repo} is not in {args.mirrors} (local-only source), skipped")
            continue
        for path, original in files:
            pid = f"{group}/{Path(path).name}"
            if pid not in labels and not args.all:
                continue
            data = _read(m, git_dir, repo, path)
            photos.append(dict(id=pid, group=group, licence=licence, data=data, ext=Path(path).suffix.lower(),
                               where=f"{repo}@{COMMITS[repo][:12]}:{path}", source_label="",
                               original=f"{group}/{original}", variant="video-frame", strength="",
                               photo_type="room", notes="a frame of hand-held indoor video as it is (local-only)"))
    return photos


def _read(m, git_dir, repo, path):
    import subprocess
    run = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{COMMITS[repo]}:{path}"], capture_output=True)
    if run.returncode != 0:
        m.fail(f"{git_dir}: cannot read {path}: {run.stderr.decode().strip()}")
    return run.stdout


def _trajectory_photos(m, args, labels, notes, out, sharp_rooms, rooms):
    git_dir = m.mirror_git_dir(args.mirrors, TRAJECTORY_REPO)
    if git_dir is None:
        notes.append(f"{TRAJECTORY_GROUP}: {TRAJECTORY_REPO} is not in {args.mirrors} (local-only), skipped")
        return []
    traj = read_trajectory(_read(m, git_dir, TRAJECTORY_REPO, TRAJECTORY_PATH).decode())
    t0, t1 = traj[0][0], traj[0][-1]
    cache = out / ".cache" / TRAJECTORY_CACHE_VERSION
    cache.mkdir(parents=True, exist_ok=True)
    where_traj = f"{TRAJECTORY_REPO}@{COMMITS[TRAJECTORY_REPO][:12]}:{TRAJECTORY_PATH}"
    photos = []
    for name in sharp_rooms:
        img = None
        for variant, exposure, dim in EXPOSURES:
            pid = f"{TRAJECTORY_GROUP}/{Path(name).stem}__{variant}"
            if pid not in labels and not args.all:
                continue
            # The window's start: anywhere in the recording, seeded by the photo's name.
            rng = np.random.Generator(np.random.PCG64(m.crc(pid)))
            start = float(t0 + rng.uniform(0, t1 - t0 - exposure))
            if img is None:
                print(f"make-real-blur-set: {TRAJECTORY_GROUP}: {name}", file=sys.stderr, flush=True)
                img = m.decode(path=rooms / name)
                if img is None:
                    m.fail(f"{TRAJECTORY_GROUP}: cannot decode rooms/{name}")
            kernel, length = trajectory_kernel(traj, start, exposure, max(img.shape[:2]) / 1024)
            cached = cache / (pid.replace("/", "__") + ".jpg")
            if cached.exists() and cached.with_suffix(".txt").exists():
                data, how = cached.read_bytes(), cached.with_suffix(".txt").read_text()
            else:
                data, how = m.camera(img, kernel, m.crc(pid), dim)
                cached.write_bytes(data)
                cached.with_suffix(".txt").write_text(how)
            what = (("dim, " if dim else "") + f"recorded hand-held motion t={start - t0:.2f}-{start - t0 + exposure:.3f} s "
                    f"({exposure * 1000:.0f} ms): path {length:.1f} px at 1024 px ({kernel.shape[1]}x{kernel.shape[0]} px "
                    f"at {img.shape[1]}x{img.shape[0]})")
            photos.append(dict(id=pid, group=TRAJECTORY_GROUP, licence=TRAJECTORY_LICENCE, data=data, ext=".jpg",
                               where=f"rooms/{name} + {where_traj}", source_label="", original=f"rooms/{name}",
                               variant="recorded-trajectory-dim" if dim else "recorded-trajectory",
                               strength=f"{length:.1f}", photo_type="room", notes=f"{what}; {how}"))
    return photos


def photos(m, args, labels, notes, out, sharp_rooms, rooms):
    """Every photo of the groups above (dicts as make-real-blur-set builds them); `m` is that script."""
    return _frame_photos(m, args, labels, notes) + _trajectory_photos(m, args, labels, notes, out, sharp_rooms, rooms)
