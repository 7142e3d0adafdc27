"""Camera-made blur in rooms of at least 1024 px on the shortest side, for the real-blur set
(issue 48, item 1; 2026-11-28 night), imported by datasets/make-real-blur-set beside
real_blur_more.py. Every real room blur the set held before was under 1024 px (ScanNet's and TUM's
640x480-1296x968 frames, two phone walks at 848x364 and 540x960), so no room a room photo can be
(`low_resolution` refuses rooms under 1024 px) carried blur a camera made. These groups are all that
an hour's search found (testdata/REAL-BLUR.md, "Rooms of at least 1024 px"): one shaken room and
ten sharp ones, from five cameras the set did not hold, dim rooms among them.

- `certh-fireplace-room`: a dim parlour with a fireplace, a brass coal scuttle and a fire screen,
  shot hand-held with a Nikon COOLPIX S220 (3648x2736, 1/30 s, ISO 400, 2009), one of the CERTH
  image blur set's naturally blurred photos (Mavridaki and Mezaris 2014) that a blur-detection
  repository keeps as samples (`images/blur/Original_297.jpg`): shaken. Its other samples are
  outdoor scenes and objects (not rooms), not used here.
- `iphone7-night-rooms`: three iPhone 7 photos (4032x3024, 1/15-1/17 s, ISO 40-64, 2019) of one
  lamp-lit living room and its kitchenette at night, hand-held, taken for an image-stitching
  exercise: the dim room a phone shoots at a long exposure, crisp.
- `surface-room-bracket`: six photos of one sunlit bedroom corner (a door, a window, a chair with
  a towel) by a Microsoft Surface's camera (3264x2176, 2018), an exposure bracket of 1/275-1/33 s at
  ISO 88-492 shot hand-held for an exposure-fusion exercise (the frame shifts between shots). The
  same six photos are the exposure set's `bracket-room` (datasets/make-exposure-set), no blur set's.
- `mei-office-iphone8`: an iPhone 8 photo (HEIC, 4032x3024, 1/17 s, ISO 80, 2018) of an office
  cubicle, hand-held, that metadata-extractor keeps among its test images: crisp. Its other real
  photos are outdoor scenes, people and objects (not rooms).
- `exif-samples-kitchen`: an iPhone 13 Pro Max photo (HEIC, 3024x4032, 1/60 s, ISO 250, 2022) of a
  farmhouse kitchen, hand-held, from the EXIF samples of exif-py: crisp.

Local-only: read at build time from the snapshots in --mirrors; nothing is committed (no licence is
stated for three groups' photos; CERTH's are for research use; the two test-image repositories
allow use, metadata-extractor's "however you wish", exif-samples' user photos CC BY-SA 4.0, but
HEIC originals of 1-3 MB are not worth committing for one room each).
"""

COMMITS = {
    "pedrofrodenas/blur-Detection-Haar-Wavelet": "5b4fef06f4fa23f7665e27c53b4deacea35ecd9d",
    "apletta/OpenCV-Projects": "1145388084fb2e8e900f4a9ae8095ae82de23d52",
    "raph-m/exposure_fusion": "0021c1f755da4ed3002513ca9e82ec19f355e775",
    "drewnoakes/metadata-extractor-images": "4beba640487802442bc9931fb01274e908102d3a",
    "ianare/exif-samples": "5332a9cf0220e9c6c93f88a187daa90808051e10",
}

# Real photos: group -> (repository, licence, committed?, photo_type, [(path, source label, original)]),
# as REAL_SOURCES of make-real-blur-set. The photos of one room share one original (one split).
REAL_SOURCES = {
    "certh-fireplace-room": (
        "pedrofrodenas/blur-Detection-Haar-Wavelet",
        "a photo of the CERTH image blur data set (research use); the repository's MIT licence covers its "
        "code; read, never copied", False, "room",
        [("images/blur/Original_297.jpg", "blurry", "parlour")]),
    "iphone7-night-rooms": (
        "apletta/OpenCV-Projects", "no licence stated; read, never copied", False, "room",
        [(f"image-stitching/images/kitchen/{n}.jpg", "", "apartment") for n in ("left", "center", "right")]),
    "surface-room-bracket": (
        "raph-m/exposure_fusion", "no licence stated; read, never copied", False, "room",
        [(f"pictures/room/{n}.jpg", "", "bedroom") for n in range(6)]),
    "mei-office-iphone8": (
        "drewnoakes/metadata-extractor-images",
        "metadata-extractor's test images ('You are free to use these media files however you wish'); "
        "read, never copied", False, "room", [("heic/IMG_1034.heic", "", "office")]),
    "exif-samples-kitchen": (
        "ianare/exif-samples", "exif-samples' user-contributed images, CC BY-SA 4.0; read, never copied",
        False, "room", [("heic/mobile/iphone_13_pro_max.HEIC", "", "kitchen")]),
}
