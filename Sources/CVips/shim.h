#ifndef PHOTO_VALIDATOR_CVIPS_SHIM_H
#define PHOTO_VALIDATOR_CVIPS_SHIM_H

#include <vips/vips.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Swift cannot call C variadic functions; these fixed-arity wrappers pass the
 * options photo-validator needs and nothing else. */

/* The formats photo-validator decodes, as FormatSniffer names them from the bytes. */
enum { PV_FORMAT_JPEG = 0, PV_FORMAT_PNG = 1, PV_FORMAT_WEBP = 2 };

/* Opens `data` with exactly one loader, chosen by the caller from the magic bytes: libvips' own
 * loader search (vips_image_new_from_buffer) runs every loader's sniffer, including ones that
 * hang on hostile input, so it never sees untrusted bytes. `fail_on` is a VipsFailOn. A loader
 * that cannot stream (WebP, interlaced PNG) decodes the whole picture first: `memory` true keeps
 * it in memory (counted in the decode's estimate) where libvips would otherwise write a picture
 * over 100 MB to a temporary file, which a sandboxed decode worker cannot open. Only for those:
 * libvips 8.14 honours "memory" even for a PNG it could stream, and then holds its whole canvas. */
static inline VipsImage *pv_load_buffer(int format, void *data, size_t length, int fail_on, int memory) {
    VipsImage *out = NULL;
    int status = -1;
    switch (format) {
    case PV_FORMAT_JPEG:
        status = vips_jpegload_buffer(data, length, &out, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
        break;
    case PV_FORMAT_PNG:
        status = vips_pngload_buffer(data, length, &out, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "memory", memory ? TRUE : FALSE, NULL);
        break;
    case PV_FORMAT_WEBP:
        status = vips_webpload_buffer(data, length, &out, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "memory", memory ? TRUE : FALSE, NULL);
        break;
    default:
        break;
    }
    return status == 0 ? out : NULL;
}

static inline int pv_jpegload_buffer(void *data, size_t length, int shrink, int fail_on, VipsImage **out) {
    return vips_jpegload_buffer(data, length, out,
        "shrink", shrink,
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", fail_on,
        NULL);
}

static inline int pv_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int pv_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

static inline int pv_shift_right_8(VipsImage *in, VipsImage **out) {
    return vips_rshift_const1(in, out, 8, NULL);
}

static inline int pv_image_get_orientation(VipsImage *image) {
    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) &&
        vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) == 0 &&
        orientation >= 1 && orientation <= 8) {
        return orientation;
    }
    return 1;
}

static inline int pv_image_get_int(VipsImage *image, const char *name, int fallback) {
    int value = fallback;
    if (vips_image_get_typeof(image, name) && vips_image_get_int(image, name, &value) == 0) {
        return value;
    }
    return fallback;
}

static inline const char *pv_image_get_string(VipsImage *image, const char *name) {
    const char *value = NULL;
    if (vips_image_get_typeof(image, name) &&
        vips_image_get_string(image, name, &value) == 0) {
        return value;
    }
    return NULL;
}

/* Prepares rows [top, top + height) of `region` and returns the address of its first row. */
static inline const unsigned char *pv_region_rows(VipsRegion *region, int top, int width, int height) {
    VipsRect rect = { 0, top, width, height };
    if (vips_region_prepare(region, &rect) != 0) {
        return NULL;
    }
    return (const unsigned char *) VIPS_REGION_ADDR(region, 0, top);
}

/* Bytes from one row of a prepared region to the next. */
static inline size_t pv_region_row_stride(VipsRegion *region) {
    return (size_t) VIPS_REGION_LSKIP(region);
}

static inline void pv_region_unref(VipsRegion *region) {
    g_object_unref(region);
}

static void pv_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

/* libvips reports recoverable decoder trouble as GLib warnings on stderr; the outcome is decided by
 * return codes, so these are dropped rather than printed once per bad upload. */
static inline void pv_silence_warnings(void) {
    g_log_set_handler("VIPS", (GLogLevelFlags) (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG), pv_ignore_log, NULL);
}

/* Decoders allocate large, short-lived buffers. With glibc's adaptive mmap threshold they end up
 * in heap arenas that are kept after free; a fixed threshold keeps them mmapped, so freeing
 * returns the memory. A no-op on other C libraries. */
static inline void pv_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void) bytes;
#endif
}

/* Renders SVG text to PNG bytes (for reports the tool writes itself, never for uploads). */
static inline int pv_svg_to_png(const void *svg, size_t length, void **png, size_t *png_length) {
    VipsImage *image = NULL;
    if (vips_svgload_buffer((void *) svg, length, &image, NULL) != 0) {
        return -1;
    }
    int status = vips_pngsave_buffer(image, png, png_length, NULL);
    g_object_unref(image);
    return status;
}

static inline void pv_object_unref(VipsImage *image) {
    g_object_unref(image);
}

#endif
