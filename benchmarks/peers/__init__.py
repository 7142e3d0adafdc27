"""Reference blur checks that photo-validator is compared against.

- `opencv_reference`: the standard `cv2.Laplacian(gray, cv2.CV_64F).var()` metric.
- `pillow_gateway`: the gateway's current Pillow check (DESIGN.md section 2), kept
  defects and all, so benchmarks and threshold tuning can score photos exactly as
  the gateway does today.

Importing a submodule imports its third-party dependency (numpy and
opencv-python-headless, or pillow); this package itself imports nothing.
"""
