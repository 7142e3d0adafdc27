"""More camera blur on inspiration photos for the real-blur set (issue 48), imported by
datasets/make-real-blur-set: the groups of 2026-11-28 afternoon, kept in their own module so
that other groups can be added to the script beside them.

Every source here is read from the snapshot that `fetch` leaves in /work/.mirror at the commit
below; nothing is committed (their licences are non-commercial or their footage is not ours to
copy). Sources, licences and the labels: testdata/REAL-BLUR.md.
"""

# The commit of each repository read (its snapshot in --mirrors must hold it).
COMMITS = {
    "gopro/gpmf-parser": "9a7150632892c7356c91145c889016f07b0ed48d",
    "sczhou/LEDNet": "d3ee2104195db6bed37d95b76960877a2ed910a5",
    "swz30/Restormer": "df766d5521afd21cce56e24159f300b30ebf3fb0",
    "aiff22/PyNET-Bokeh": "98942b9b9c4206b2b8712d317bc2f79b685d50ea",
}

# Real photos: group -> (repository, licence, committed?, photo_type,
# [(path in repository, source label, original)]), as REAL_SOURCES of make-real-blur-set.
REAL_SOURCES = {
    # LEDNet's real low-light photos (Real-LOL-Blur: a Sony camera hand-held at night, streets and
    # buildings; 1120x640 and about 665x760): the shaken night scenes of issue 48, light streaks.
    "lednet-real-night": (
        "sczhou/LEDNet", "S-Lab License 1.0 (non-commercial); read, never copied", False, "inspiration",
        [(f"inputs/real/{n}.png", "blurry", n) for n in (
            "0000_0082", "0002_0006", "0031_0043", "0032_0060", "0033_0025", "0034_0049",
            "075_blur_9", "188_blur_20", "230_blur_21", "234_blur_15")]),
    # Restormer's demo photos for single-image defocus deblurring: portraits shot with wide
    # apertures (a couple at a fair at night, an engagement photo, a Leica 50 mm f/1.4 portrait).
    "restormer-defocus-portraits": (
        "swz30/Restormer", "Academic Public License (non-commercial); read, never copied", False, "inspiration",
        [(f"demo/degraded/{n}.jpg", "blurry", n) for n in ("couple", "engagement", "portrait")]),
    # PyNET-Bokeh's visual samples: 12 photos of the EBB! data set (Canon 7D, the narrow-aperture
    # shot of each pair: street objects, leaves, flowers, a car's mirror; 1536-1600x1024).
    "pynet-bokeh-samples": (
        "aiff22/PyNET-Bokeh", "CC BY-NC-SA 4.0; read, never copied", False, "inspiration",
        [(f"visual_samples/images/{i}.jpg", "sharp", str(i)) for i in range(1, 13)]),
}

# Real motion from real video: group -> (repository, path, licence, photo_type, centre frames,
# frame counts), as VIDEO_SOURCES of make-real-blur-set (the single frame and means of N frames
# in linear light).
VIDEO_SOURCES = {
    # A GoPro Max in its single-lens mode, hand-held while walking along a path beside a building:
    # grass, shrubs, gravel, parked cars (848x480, 29.97 fps, 315 frames): the hand-held
    # motion over foliage and gravel, and its action-camera frames.
    "video-gopro-walk": ("gopro/gpmf-parser", "samples/max-heromode.mp4",
                         "gpmf-parser sample (Apache-2.0 or MIT); read, never copied", "inspiration",
                         tuple(range(12, 305, 24)), (1, 3, 5, 9)),
    # A GoPro on a Karma drone flying along sea cliffs (854x480, 29.97 fps, 362 frames): a steady
    # camera, the scene far away.
    "video-gopro-karma": ("gopro/gpmf-parser", "samples/karma.mp4",
                          "gpmf-parser sample (Apache-2.0 or MIT); read, never copied", "inspiration",
                          tuple(range(15, 350, 30)), (1, 3, 5, 9)),
}
