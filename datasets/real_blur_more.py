"""More sources of blur that a camera made for the real-blur set (issue 48, 2026-11-28 evening),
imported by datasets/make-real-blur-set beside real_blur_inspiration_extra.py: the set's worst
sources left out were a few photos from one camera each, so these add cameras.

- `ngp-fox-frames`: the 50 frames of instant-ngp's `data/nerf/fox` (1080x1920 JPEG), frames of a
  phone video shot by hand round a mounted fox on a papered wall, a mirror and a picture beside it.
  Each frame as it is: some crisp, some smeared by the hand's motion within the frame's exposure.
- `video-bedroom-walk`: a phone video walked through a loft bedroom (room.mp4 of a 3-D
  reconstruction project, 848x364 at 58.4 fps): at 13 moments the frame as it is and the means of
  3, 5 and 9 frames in linear light, as the other video groups (a longer exposure of the hand's
  real motion). Judged as rooms (under 1024 px: see "Rooms a room photo can be").
- `video-home-walk`: a phone held upright and walked through a tiled home (videos/video.mp4 of
  a navigation aid for the blind, 540x960 at 29.97 fps): at 11 moments the frame and its means of
  3, 5 and 9 frames, as above; rooms.
- `pan-real-samples`: the real blurry photos Pan et al. (CVPR 2016, dark channel prior) and the
  papers before them deblur, as deblur-pmp keeps them (`sample_images/`): shaken photos from many
  cameras (night streets with light streaks, a living room at Christmas, flowers, a boat, faces,
  buildings; 280-1600 px). Left out: `im05_ker04_blur.png` (Levin's drawn kernel on a test image)
  and Koehler's `Blurry2_8`, `Blurry4_6`, `Blurry4_9` (in `koehler-pmp`).
- `koehler-pmp`: Koehler et al.'s (ECCV 2012) 48 photos of 4 printed scenes, each shot while a
  robot played back one of 12 hand shakes recorded from people (800x800), as deblur-pmp keeps them
  (`BlurryImages/`); the 4 that `koehler-ee610` already holds (`Blurry1_1`-`Blurry1_4`) left out.
  The same benchmark as `koehler-ee610`: leaving one of the two out leaves its scenes in the other.

- `yinbochen-living-room`: two iPhone 6s photos of a living room with a kitchen corner (4032x3024),
  both crisp; rooms.
- `certh-samples-vvk`: three photos a CERTH-trained blur classifier keeps as samples: a cathedral
  out of focus, a ledge shaken (a Casio compact), a mosque crisp.

Local-only: read at build time from the snapshots in --mirrors; nothing is committed (instant-ngp's
licence is non-commercial; deblur-pmp copies the images "only for academic use").
"""

COMMITS = {
    "Adk2001tech/Drishti-A-Blind-Navigation-System": "4f5be87b61eba57b07bea50428103ce4fc8f5464",
    "YinboChen/computer_vision_final_projectRCNN": "ad7ce8d3e41dc62d0e9df7dceca5242d0348d6ae",
    "im-vvk/Blur-Image-Detection": "9e4fea344b618fc77c577d3dce811a05c5680775",
    "Rheacoutinho/humanoid-perception-3d-reconstruction": "4d65b919a64d7ecd657608de67b1425d74872fd4",
    "NVlabs/instant-ngp": "abe236ee00cf90cfca6e36e65c00435d5b21f50a",
    "FWen/deblur-pmp": "6f379dff68fbfebffba83d633f3391409ee016ba",
}

FOX_FRAMES = ["0001", "0002", "0003", "0004", "0006", "0007", "0008", "0009", "0012", "0014", "0018", "0019",
              "0021", "0022", "0025", "0026", "0027", "0029", "0030", "0031", "0033", "0034", "0035", "0039",
              "0042", "0044", "0045", "0046", "0049", "0052", "0054", "0072", "0073", "0074", "0076", "0077",
              "0078", "0081", "0084", "0085", "0089", "0090", "0094", "0097", "0103", "0105", "0107", "0108",
              "0110", "0115"]
PAN_SAMPLES = ["26.blurred.jpg", "26.png", "7_patch_use.png", "IMG_0650_small_patch.png",
               "IMG_0664_small_patch.png", "IMG_1240_blur.png", "IMG_4355_small.png", "IMG_4548_small.png",
               "IMG_4561.JPG", "blurry_2_small.png", "blurry_7.png", "boat.jpg", "building.jpg", "flower.jpg",
               "flower_blurred.png", "las_vegas_saturated.png", "my_test_car6.png", "postcard.png",
               "real_blur_img3.png", "real_disney.jpg", "real_img2.png", "real_leaf.png", "roma.png",
               "summerhouse.jpg", "toy.png", "wall.png"]
KOEHLER = [f"Blurry{s}_{k}.png" for s in range(1, 5) for k in range(1, 13) if not (s == 1 and k <= 4)]

# Real photos: group -> (repository, licence, committed?, photo_type, [(path, source label, original)]),
# as REAL_SOURCES of make-real-blur-set.
REAL_SOURCES = {
    "ngp-fox-frames": (
        "NVlabs/instant-ngp", "NVIDIA Source Code License for instant-ngp (non-commercial); read, never copied",
        False, "inspiration",
        [(f"data/nerf/fox/images/{n}.jpg", "", f"fox_{n}") for n in FOX_FRAMES]),
    "pan-real-samples": (
        "FWen/deblur-pmp",
        "real blurry photos of Pan et al. 2016 and earlier deblurring papers (research use; the repository "
        "copies them 'only for academic use' and states no licence); read, never copied",
        False, "inspiration",
        [(f"sample_images/{n}", "blurry", n.split(".")[0]) for n in PAN_SAMPLES]),
    "koehler-pmp": (
        "FWen/deblur-pmp",
        "Koehler et al. 2012 benchmark images (research use; the repository copies them 'only for academic "
        "use' and states no licence); read, never copied",
        False, "inspiration",
        # One original per printed scene: the 12 shakes of a scene share a split.
        [(f"BlurryImages/{n}", "blurry", f"scene{n[6]}") for n in KOEHLER]),
    # Two photos of one living room with a kitchen corner (iPhone 6s, 4032x3024, EXIF 2020-04-23),
    # hand-held: real rooms of a camera the set did not hold, both crisp.
    "yinbochen-living-room": (
        "YinboChen/computer_vision_final_projectRCNN", "no licence stated; read, never copied", False, "room",
        [(f"images/{n}", "", n.split(".")[0]) for n in ("living_room1.JPG", "living_room2.JPG")]),
    # Three sample photos a CERTH-trained blur classifier keeps (images/): a cathedral shot out of
    # focus and shaken (2736x3648), a ledge shaken and a mosque crisp (Casio EX-Z18, 2304x1728, 2008):
    # photos of the kind of the CERTH image blur set's natural blur (Mavridaki and Mezaris 2014).
    "certh-samples-vvk": (
        "im-vvk/Blur-Image-Detection",
        "sample photos of the CERTH image blur data set's kind (research use); the repository's MIT licence "
        "covers its code; read, never copied", False, "inspiration",
        [("images/blur1.jpg", "blurry", "cathedral"), ("images/blur2.JPG", "blurry", "ledge"),
         ("images/clear.JPG", "sharp", "mosque")]),
}

# Real motion from real video: group -> (repository, path, licence, photo_type, centre frames,
# frame counts), as VIDEO_SOURCES of make-real-blur-set (the frame and means of N frames in linear
# light). A phone carried by hand through a loft bedroom (a bed, a clothes rail, a desk, wardrobes;
# 848x364, 58.4 fps, 1091 frames): at 58 fps a mean of 3, 5 and 9 frames is the 1/20-1/6 s exposure
# a phone takes in a room, of the hand's own motion.
VIDEO_SOURCES = {
    "video-bedroom-walk": ("Rheacoutinho/humanoid-perception-3d-reconstruction", "room.mp4",
                           "no licence stated; read, never copied", "room", tuple(range(40, 1060, 80)), (1, 3, 5, 9)),
    # A phone held upright and walked from a doorway through a tiled home (a study table, a bed, a
    # curtained doorway, a washroom; 540x960, 29.97 fps, 686 frames), for a navigation aid's demo.
    "video-home-walk": ("Adk2001tech/Drishti-A-Blind-Navigation-System", "videos/video.mp4",
                        "Apache-2.0 (the repository's LICENSE); read, never copied", "room",
                        tuple(range(40, 660, 60)), (1, 3, 5, 9)),
}

# Photos of these groups judged as rooms (an interior seen whole; under 1024 px, so refused
# `low_resolution` as a room whatever its blur: evaluation/leave-one-source-out --room-min-side).
ROOM_PHOTOS = {"pan-real-samples/sample_images-blurry_2_small.png"}
