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

static inline int pv_preview_heifload(void *data, size_t length, VipsImage **out) {
    return vips_heifload_buffer(data, length, out,
        "fail_on", VIPS_FAIL_ON_TRUNCATED,
        "thumbnail", FALSE,
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
        "optimize_coding", TRUE,
        NULL);
}

static inline int pv_preview_has_alpha(VipsImage *image) {
    return vips_image_hasalpha(image);
}

#endif
