#ifndef PHOTO_VALIDATOR_PV_WEBP_H
#define PHOTO_VALIDATOR_PV_WEBP_H

#include <stddef.h>

/* A still WebP decoder over libwebp for photo-validator: the picture is decoded once, by libwebp
 * itself, into one buffer the caller owns (RGB or RGBA, as libvips' loader decodes it), so no
 * other copy of the canvas is made. Imported only by ImageCodecs, and only for bytes already
 * sniffed as WebP. */

/* What a WebP's headers declare. */
typedef struct {
    int width;
    int height;
    /* True when the file declares alpha (a VP8X flag or an ALPH chunk, or VP8L's bit). */
    int has_alpha;
    /* True for an animation (ANIM/ANMF): this decoder takes still pictures only. */
    int has_animation;
    /* 1 lossy (VP8), 2 lossless (VP8L), 0 mixed or unknown. */
    int format;
} pv_webp_features;

/* Reads the headers of `length` bytes at `data`. Returns libwebp's VP8StatusCode (0 for OK). */
int pv_webp_features_of(const unsigned char *data, size_t length, pv_webp_features *features);

/* Decodes the whole still picture into `output` (`size` bytes, rows `stride` bytes apart) as
 * RGBA when `alpha` is true, RGB otherwise, with the same options as libvips' loader (no
 * scaling, cropping or dithering; fancy upsampling). `threads` true lets libwebp filter a lossy
 * picture on a second thread (the pixels are the same). Returns libwebp's VP8StatusCode. */
int pv_webp_decode(const unsigned char *data, size_t length, unsigned char *output, size_t size, int stride,
                   int alpha, int threads);

/* libwebp's name for a VP8StatusCode. */
const char *pv_webp_status_text(int status);

/* The libwebp decoder's version as 0xMMmmrr. */
int pv_webp_library_version(void);

#endif
