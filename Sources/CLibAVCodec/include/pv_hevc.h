#ifndef PHOTO_VALIDATOR_PV_HEVC_H
#define PHOTO_VALIDATOR_PV_HEVC_H

#include <stddef.h>
#include <stdint.h>

/* An HEVC still-picture decoder over FFmpeg's libavcodec for photo-validator: one thread, every
 * bitstream error fatal, a cap on the picture size the bitstream may declare, the luma plane
 * copied out (and the chroma planes when a preview is wanted), and picture buffers that start with
 * zero chroma so that a slice cut short shows. It decodes the tiles of one HEIC image one after another; the caller parses
 * the HEIF container (in Swift) and hands over the decoder configuration (the `hvcC` box's payload)
 * and each tile's length-prefixed NAL units. Imported only by ImageCodecs. */

/* Why a decode stopped. */
typedef enum {
    PV_HEVC_OK = 0,
    /* The bitstream is damaged or does not decode to a picture. */
    PV_HEVC_CORRUPT = 1,
    /* The bitstream declares a picture over the pixel cap, or an allocation failed. */
    PV_HEVC_MEMORY = 2,
    /* A pixel format this path does not read (not planar YCbCr or grey of 8 to 16 bits). */
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

/* What the decoded picture's planes hold. */
typedef struct {
    /* 1 when the picture has Cb and Cr planes (0 for monochrome). */
    int has_chroma;
    /* log2 of the chroma subsampling across and down (1 and 1 for 4:2:0). */
    int chroma_shift_x;
    int chroma_shift_y;
    /* The bitstream's matrix coefficients (ITU-T H.273; 2 when unspecified). */
    int matrix;
    /* 1 unless the bitstream says limited range. */
    int full_range;
} pv_hevc_frame_info_t;

/* Decodes the one picture in `data` (length-prefixed NAL units as stored in the file; the buffer
 * must have `pv_hevc_padding()` readable zero bytes after `length`) and keeps it until
 * `pv_hevc_release`. Its size is written to `*width` and `*height`; more than one picture, or a
 * pixel format that is not planar YCbCr of 8 to 16 bits, is a failure. Returns 0, or -1 with a
 * status set. */
int pv_hevc_decode(pv_hevc *decoder, const uint8_t *data, size_t length, int *width, int *height);

/* Checks that the bitstream reached every part of the top-left `width` x `height` of the picture
 * decoded last (chroma the decoder never wrote stays at an impossible zero). Returns 0, or -1
 * with a status set. */
int pv_hevc_check_decoded(pv_hevc *decoder, int width, int height);

/* Describes the picture decoded last. */
void pv_hevc_frame_info(const pv_hevc *decoder, pv_hevc_frame_info_t *info);

/* Copies the top-left `copy_width` x `copy_height` samples of plane 0 (Y), 1 (Cb) or 2 (Cr) of
 * the picture decoded last as 8 bits (deeper samples are shifted down; with `expand_limited`,
 * limited-range luma is stretched to full range) to `destination`, rows `destination_stride`
 * bytes apart. A plane smaller than the copy is corrupt. Returns 0, or -1 with a status set. */
int pv_hevc_copy_plane(pv_hevc *decoder, int plane, uint8_t *destination, size_t destination_stride,
                       int copy_width, int copy_height, int expand_limited);

/* Lets the picture go and resets the decoder for the next tile. */
void pv_hevc_release(pv_hevc *decoder);

/* The zero bytes that must follow each tile's data (FFmpeg's bitstream readers over-read). */
size_t pv_hevc_padding(void);

/* The libavcodec in use (major.minor.micro packed as FFmpeg packs them) and FFmpeg's release. */
unsigned pv_hevc_library_version(void);
const char *pv_hevc_ffmpeg_release(void);

/* Frees the decoder. */
void pv_hevc_close(pv_hevc *decoder);

#endif
