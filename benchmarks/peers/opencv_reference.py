"""The standard blur metric: variance of OpenCV's signed 4-neighbour Laplacian.

Callers that time this should call `cv2.setNumThreads(1)` first; it is left to
them because it changes process-wide state.
"""
import cv2
import numpy as np


def laplacian_variance(data: bytes, grayscale_decode: bool = True) -> float:
    """Laplacian variance of an encoded image held in memory, at native scale.

    With `grayscale_decode` the decoder produces gray directly (for JPEG that is
    the Y channel, which can differ slightly from gray computed from RGB); without
    it the image is decoded to BGR and converted with `COLOR_BGR2GRAY`.
    """
    buf = np.frombuffer(data, np.uint8)
    if grayscale_decode:
        gray = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    else:
        bgr = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        gray = None if bgr is None else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    if gray is None:
        raise ValueError("OpenCV could not decode the image")
    return float(cv2.Laplacian(gray, cv2.CV_64F).var())


def laplacian_variance_bgr(path) -> float:
    """Laplacian variance of a file decoded to BGR, then gray: the parity reference.

    photo-validator computes luma from RGB with cvtColor's integer formula, so at
    `--analysis-size native` its score should match this one to many decimals.
    """
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError(f"OpenCV could not read {path}")
    return float(cv2.Laplacian(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())
