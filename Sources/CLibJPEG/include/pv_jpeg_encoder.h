#ifndef PHOTO_VALIDATOR_PV_JPEG_ENCODER_H
#define PHOTO_VALIDATOR_PV_JPEG_ENCODER_H

#include <stddef.h>

/* A JPEG encoder over libjpeg-turbo for the content check's preview: planes the caller has
 * already reduced go in as raw data (no colour conversion, no downsampling in the library), and
 * a baseline JFIF file with no other marker comes out. Imported only by ImageCodecs. */

/* Encodes `width` x `height` pixels from a Y plane and, when `cb` and `cr` are not NULL, Cb and
 * Cr planes at half the resolution both ways (4:2:0, JPEG's full-range BT.601 YCbCr); with no
 * chroma the file is grey. Each plane is padded by the caller (the last column and row
 * repeated): Y to a multiple of 16 columns and rows (8 for grey), Cb and Cr to that divided by 2.
 * `quality` (1 to 100) scales libjpeg's standard tables. Returns 0 with the file in `*output`
 * (free it with pv_jpeg_free) and its size in `*length`, or -1 with libjpeg's message in
 * `message` (`message_size` bytes, at least 1). */
int pv_jpeg_encode_planes(const unsigned char *y, size_t y_stride,
                          const unsigned char *cb, const unsigned char *cr, size_t chroma_stride,
                          int width, int height, int quality,
                          unsigned char **output, size_t *length, char *message, size_t message_size);

/* Frees a file pv_jpeg_encode_planes made. */
void pv_jpeg_free(unsigned char *buffer);

#endif
