#ifndef PHOTO_VALIDATOR_PV_HEVC_H
#define PHOTO_VALIDATOR_PV_HEVC_H

#include <stddef.h>
#include <stdint.h>

/* An HEVC still-picture decoder over FFmpeg's libavcodec for photo-validator: one thread, every
 * bitstream error fatal, a cap on the picture size the bitstream may declare, and only the luma
 * plane copied out. It decodes the tiles of one HEIC image one after another; the caller parses
 * the HEIF container (in Swift) and hands over the decoder configuration (the `hvcC` box's payload)
 * and each tile's length-prefixed NAL units. Imported only by VipsDecoder. */

/* Why a decode stopped. */
typedef enum {
    PV_HEVC_OK = 0,
    /* The bitstream is damaged or does not decode to a picture. */
    PV_HEVC_CORRUPT = 1,
    /* The bitstream declares a picture over the pixel cap, or an allocation failed. */
    PV_HEVC_MEMORY = 2,
    /* A pixel format this path does not read (not planar luma of 8 to 16 bits). */
    PV_HEVC_UNSUPPORTED = 3,
} pv_hevc_status;

/* One decoder for the tiles of one image, opened with the `hvcC` payload. */
typedef struct pv_hevc pv_hevc;

/* Opens a decoder; `max_pixels` caps the picture size any bitstream may declare. NULL only when
 * out of memory; otherwise check `pv_hevc_status_of`. */
pv_hevc *pv_hevc_open(const uint8_t *configuration, size_t configuration_length, long max_pixels);

/* The status of the last call that could fail. */
pv_hevc_status pv_hevc_status_of(const pv_hevc *decoder);

/* What went wrong, for people: FFmpeg's own last error line where it gave one. */
const char *pv_hevc_message(const pv_hevc *decoder);

/* Decodes the one picture in `data` (length-prefixed NAL units as stored in the file; the buffer
 * must have `pv_hevc_padding()` readable zero bytes after `length`) and copies the top-left
 * `copy_width` x `copy_height` luma samples (8-bit; deeper samples are shifted down; with
 * `honour_stream_range`, limited-range samples are stretched to full range) to `destination`,
 * rows `destination_stride` bytes apart. The decoded size is written to `*width` and `*height`; a
 * picture smaller than the copy, or more than one picture, is corrupt. Returns 0, or -1 with a
 * status set. */
int pv_hevc_decode_luma(pv_hevc *decoder, const uint8_t *data, size_t length,
                        uint8_t *destination, size_t destination_stride, int copy_width, int copy_height,
                        int honour_stream_range, int *width, int *height);

/* The zero bytes that must follow each tile's data (FFmpeg's bitstream readers over-read). */
size_t pv_hevc_padding(void);

/* Frees the decoder. */
void pv_hevc_close(pv_hevc *decoder);

#endif
