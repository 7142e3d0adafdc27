"""Make analysis planes (raw .gray) for photos, transformed copies and distinct pairs; record OpenCV's L/F."""
import io, sys
from pathlib import Path
import cv2, numpy as np
from PIL import Image, ImageOps, ImageEnhance
cv2.setNumThreads(1)
OUT = Path("/tmp/orb/data")
orb_l = cv2.ORB_create(nfeatures=256, scaleFactor=1.3, nlevels=3, edgeThreshold=31, patchSize=31,
                       fastThreshold=10, scoreType=cv2.ORB_HARRIS_SCORE)

def plane_of_im(im):
    bgr = np.asarray(im.convert("RGB"))[:, :, ::-1]
    g = cv2.cvtColor(np.ascontiguousarray(bgr), cv2.COLOR_BGR2GRAY)
    h, w = g.shape
    s = 1024 / min(h, w)
    return cv2.resize(g, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)

def local_feat(p):
    h, w = p.shape
    q = cv2.resize(p, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    kps, des = orb_l.detectAndCompute(q, None)
    if des is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    return np.array([k.pt for k in kps], np.float32), des

def hamming_matrix(da, db):
    ua = np.unpackbits(da, axis=1).astype(np.float32); ub = np.unpackbits(db, axis=1).astype(np.float32)
    return (ua @ (1 - ub).T + (1 - ua) @ ub.T).astype(np.int32)

def match(da, db, ratio):
    if len(da) < 2 or len(db) < 2:
        return np.zeros((0, 2), int)
    D = hamming_matrix(da, db)
    o = np.argsort(D, axis=1, kind="stable")[:, :2]
    d1 = D[np.arange(len(da)), o[:, 0]]; d2 = D[np.arange(len(da)), o[:, 1]]
    back = np.argmin(D, axis=0)
    keep = (d1 < ratio * d2) & (back[o[:, 0]] == np.arange(len(da))) & (d1 <= 64)
    i = np.nonzero(keep)[0]
    return np.stack([i, o[i, 0]], axis=1)

def xorshift32(seed, count):
    x, out = seed & 0xFFFFFFFF, []
    for _ in range(count):
        x ^= (x << 13) & 0xFFFFFFFF; x ^= x >> 17; x ^= (x << 5) & 0xFFFFFFFF
        out.append(x)
    return np.array(out, np.uint64)
XS = xorshift32(39, 512)

def ransac_similarity(pa, pb, iters=256, thr=2.0):
    n = len(pa)
    if n < 3: return 0
    za = pa[:, 0] + 1j * pa[:, 1]; zb = pb[:, 0] + 1j * pb[:, 1]
    r = XS[:2 * iters]
    i = (r[0::2] % n).astype(int); j = (r[1::2] % n).astype(int)
    ok = i != j; i, j = i[ok], j[ok]
    den = za[j] - za[i]; ok = np.abs(den) > 1e-3
    i, j, den = i[ok], j[ok], den[ok]
    a = (zb[j] - zb[i]) / den; t = zb[i] - a * za[i]
    cnt = (np.abs(a[:, None] * za[None, :] + t[:, None] - zb[None, :]) < thr).sum(axis=1)
    return int(cnt.max()) if len(cnt) else 0

def l_f(fa, fb):
    m = match(fa[1], fb[1], 0.8)
    if len(m) < 3: return 0, 0.0, len(m)
    L = ransac_similarity(fa[0][m[:, 0]], fb[0][m[:, 1]])
    return L, L / len(m), len(m)

def save(name, p):
    h, w = p.shape
    fn = f"{name}_{w}x{h}.gray"
    (OUT / fn).write_bytes(np.ascontiguousarray(p).tobytes())
    return fn

def load(path):
    return ImageOps.exif_transpose(Image.open(path)).convert("RGB")

def jpeg60(im):
    b = io.BytesIO(); im.save(b, "JPEG", quality=60); b.seek(0); return Image.open(b).convert("RGB")

def crop10(im):
    w, h = im.size; dx, dy = int(w * 0.05), int(h * 0.05)
    return im.crop((dx, dy, w - dx, h - dy))

TRANSFORMS = {
    "rot90": lambda im: im.transpose(Image.Transpose.ROTATE_90),
    "crop10": crop10,
    "jpeg60": jpeg60,
    "half": lambda im: im.resize((im.size[0] // 2, im.size[1] // 2), Image.Resampling.LANCZOS),
    "bright10": lambda im: ImageEnhance.Brightness(im).enhance(1.1),
}
R = Path("/work/shared/rooms"); T = Path("/work/main/testdata/photos"); S = Path("/work/shared/photos")
SOURCES = {
    "kitchen": R / "alcariss__chalupa-svratka__kitchen.jpg",
    "attic": R / "bzjin__telluride__attic.jpg",
    "bedroom": R / "dinsmoredesign__tequa-builders-website__bedroom.jpg",
    "brushes": T / "brushes-1365x1074.jpg",
    "cups": T / "cups.jpg",
    "path": T / "outdoor-path.jpg",
}
rows = []
planes = {}
for k, path in SOURCES.items():
    im = load(path)
    p = plane_of_im(im); planes[k] = (save(k, p), local_feat(p))
    for t, f in TRANSFORMS.items():
        q = plane_of_im(f(im)); fn = save(f"{k}-{t}", q)
        rows.append(("dup", planes[k][0], fn, *l_f(planes[k][1], local_feat(q))))
ks = list(SOURCES)
for a in range(len(ks)):
    for b in range(a + 1, len(ks)):
        rows.append(("distinct", planes[ks[a]][0], planes[ks[b]][0], *l_f(planes[ks[a]][1], planes[ks[b]][1])))
b1 = plane_of_im(load(S / "room-bathroom-1.jpg")); b2 = plane_of_im(load(S / "room-bathroom-2.jpg"))
rows.append(("distinct", save("bathroom-1", b1), save("bathroom-2", b2), *l_f(local_feat(b1), local_feat(b2))))
with open(OUT / "pairs.tsv", "w") as fh:
    for r in rows:
        fh.write("\t".join(str(x) if not isinstance(x, float) else f"{x:.3f}" for x in r) + "\n")
# keypoint dumps for comparing detectors
for k in ["kitchen", "brushes"]:
    pts, des = planes[k][1]
    np.savetxt(OUT / f"{k}.kp.txt", pts, fmt="%.2f")
    (OUT / f"{k}.desc").write_bytes(des.tobytes())
print(open(OUT / "pairs.tsv").read())
