#ifndef PHOTO_VALIDATOR_CVIPS_PREVIEW_H
#define PHOTO_VALIDATOR_CVIPS_PREVIEW_H

#include <vips/vips.h>

/* Fixed-arity wrappers for the preview JPEG sent to a content classifier. Each loader is the
 * format's own (never the generic buffer sniffer) and fails on truncated data. */

static inline int pv_preview_jpegload(void *data, size_t length, int shrink, VipsImage **out) {
    return vips_jpegload_buffer(data, length, out,
        "shrink", shrink,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        NULL);
}

static inline int pv_preview_pngload(void *data, size_t length, VipsImage **out) {
    return vips_pngload_buffer(data, length, out,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        NULL);
}

static inline int pv_preview_webpload(void *data, size_t length, double scale, VipsImage **out) {
    return vips_webpload_buffer(data, length, out,
        "scale", scale,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        NULL);
}

/* Lanczos3 resize by `scale` (below 1). */
static inline int pv_preview_resize(VipsImage *in, VipsImage **out, double scale) {
    return vips_resize(in, out, scale, NULL);
}

static inline int pv_preview_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/* Composites an alpha channel over white. */
static inline int pv_preview_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = { 255.0, 255.0, 255.0 };
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

static inline int pv_preview_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int pv_preview_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/* Decodes the (already small) pipeline into memory, so rotation can read it in any order. */
static inline VipsImage *pv_preview_copy_memory(VipsImage *in) {
    return vips_image_copy_memory(in);
}

/* Baseline JPEG with every metadata block (EXIF, XMP, IPTC, ICC) left out. */
static inline int pv_preview_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length,
        "Q", quality,
        "strip", TRUE,
        NULL);
}

static inline int pv_preview_has_alpha(VipsImage *image) {
    return vips_image_hasalpha(image);
}

/* Previews made from pixels already decoded (one decode serves the blur check and the preview):
 * the planes are the caller's memory, borrowed for as long as the images live. */

/* A `width` x `height` image of `bands` interleaved 8-bit samples per pixel, rows `stride` bytes
 * apart (only `stride == width * bands` is supported by libvips: pass packed rows). */
static inline VipsImage *pv_preview_from_memory(const void *data, int width, int height, int bands) {
    return vips_image_new_from_memory(data, (size_t) width * (size_t) height * (size_t) bands,
        width, height, bands, VIPS_FORMAT_UCHAR);
}

static inline int pv_preview_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

/* Resize by separate horizontal and vertical factors with a linear kernel: a preview for a
 * classifier needs no Lanczos, and this is its costliest step. */
static inline int pv_preview_resize_xy(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_reduce(in, out, 1.0 / hscale, 1.0 / vscale, "kernel", VIPS_KERNEL_LINEAR, NULL);
}

static inline int pv_preview_join(VipsImage **images, int count, VipsImage **out) {
    return vips_bandjoin(images, out, count, NULL);
}

/* Repeats every sample `x` times across and `y` times down (chroma planes of a small picture). */
static inline int pv_preview_zoom(VipsImage *in, VipsImage **out, int x, int y) {
    return vips_zoom(in, out, x, y, NULL);
}

/* The samples of an image held in memory (after pv_preview_copy_memory), writable in place. */
static inline unsigned char *pv_preview_samples(VipsImage *image) {
    return (unsigned char *) vips_image_get_data(image);
}

/* Turns by 0, 90, 180 or 270 degrees clockwise. */
static inline int pv_preview_rotate(VipsImage *in, VipsImage **out, int degrees) {
    VipsAngle angle = degrees == 90 ? VIPS_ANGLE_D90 : degrees == 180 ? VIPS_ANGLE_D180 : degrees == 270 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return vips_rot(in, out, angle, NULL);
}

/* Mirrors left to right. */
static inline int pv_preview_flip_horizontal(VipsImage *in, VipsImage **out) {
    return vips_flip(in, out, VIPS_DIRECTION_HORIZONTAL, NULL);
}

/* Marks 3 bands as sRGB (and 1 as grey) so the JPEG writer stores them as such. */
static inline int pv_preview_mark_srgb(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, "interpretation", vips_image_get_bands(in) >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, NULL);
}

#endif
