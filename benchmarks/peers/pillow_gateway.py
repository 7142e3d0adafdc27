"""The gateway's current blur check, reproduced with Pillow (DESIGN.md section 2).

Kept faithful on purpose, defects included: Pillow's 8-bit filter clips negative
responses to 0 and leaves the one-pixel border unfiltered, so this score is not the
Laplacian variance that photo-validator and OpenCV compute.
"""
import io

from PIL import Image, ImageFilter

ANALYSIS_SIDE = 1024
THRESHOLDS = {"room": 60.0, "inspiration": 25.0}

_LAPLACIAN = ImageFilter.Kernel((3, 3), [0, 1, 0, 1, -4, 1, 0, 1, 0], scale=1, offset=0)


def score(data: bytes) -> float:
    """The gateway's blur score of an encoded image held in memory."""
    with Image.open(io.BytesIO(data)) as img:
        gray = img.convert("L")
    width, height = gray.size
    shortest = min(width, height)
    if shortest > ANALYSIS_SIDE:
        factor = ANALYSIS_SIDE / shortest
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        gray = gray.resize(size, Image.LANCZOS)
    return _python_variance(gray.filter(_LAPLACIAN).getdata())


def _python_variance(values) -> float:
    """Population variance in plain Python over the pixels, as the gateway computes it."""
    pixels = list(values)
    mean = sum(pixels) / len(pixels)
    return sum((p - mean) ** 2 for p in pixels) / len(pixels)


def passes(score: float, photo_type: str = "room") -> bool:
    """Whether the gateway accepts a photo with this score as sharp enough."""
    try:
        threshold = THRESHOLDS[photo_type]
    except KeyError:
        raise ValueError(f"unknown photo type {photo_type!r}, expected room or inspiration") from None
    return score >= threshold
