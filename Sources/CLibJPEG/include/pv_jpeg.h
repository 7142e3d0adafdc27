#ifndef PHOTO_VALIDATOR_PV_JPEG_H
#define PHOTO_VALIDATOR_PV_JPEG_H

#include <stddef.h>

/* A JPEG decoder over libjpeg-turbo for photo-validator: luma-only or RGB output at DCT scale M/8,
 * with every libjpeg error caught by setjmp (which Swift cannot do), corrupt-data warnings turned
 * into failures, a memory cap and a cap on progressive scans. Imported only by ImageCodecs. */

/* Why a decoder stopped. */
typedef enum {
    PV_JPEG_OK = 0,
    /* The data is not a decodable JPEG, or libjpeg reported corrupt entropy-coded data. */
    PV_JPEG_CORRUPT = 1,
    /* Decoding would need more memory than the cap. */
    PV_JPEG_MEMORY = 2,
    /* More progressive scans than the cap: a known way to make decoding arbitrarily slow. */
    PV_JPEG_TOO_MANY_SCANS = 3,
    /* A colour space this path does not decode (CMYK, YCCK): use libvips instead. */
    PV_JPEG_UNSUPPORTED = 4,
} pv_jpeg_status;

/* The colour spaces the header can declare, as this path sees them. */
typedef enum {
    PV_JPEG_SPACE_GRAY = 1,
    PV_JPEG_SPACE_YCC = 2,
    PV_JPEG_SPACE_RGB = 3,
    PV_JPEG_SPACE_OTHER = 4,
} pv_jpeg_space;

typedef struct pv_jpeg pv_jpeg;

/* Reads the header of `length` bytes at `data` (borrowed: keep them alive until pv_jpeg_close).
 * Returns NULL only when memory for the decoder itself cannot be had; otherwise check
 * pv_jpeg_status_of. `max_memory` caps libjpeg's own allocations in bytes; `max_scans` caps the
 * number of scans a progressive file may have. */
pv_jpeg *pv_jpeg_open(const unsigned char *data, size_t length, long max_memory, int max_scans);

/* The decoder's state: PV_JPEG_OK until something failed. */
pv_jpeg_status pv_jpeg_status_of(const pv_jpeg *decoder);

/* A diagnostic for the failure (libjpeg's own message), or "" while OK. */
const char *pv_jpeg_message(const pv_jpeg *decoder);

/* Stored width and height from the frame header. */
int pv_jpeg_width(const pv_jpeg *decoder);
int pv_jpeg_height(const pv_jpeg *decoder);

/* The colour space the file declares. */
pv_jpeg_space pv_jpeg_color_space(const pv_jpeg *decoder);

/* 1 for a progressive (or otherwise multi-scan) file. */
int pv_jpeg_is_progressive(const pv_jpeg *decoder);

/* libjpeg's own working memory for decoding at `scale_num`/8, in bytes: whole-image coefficient
 * arrays for multi-scan files, a few rows of blocks otherwise. */
long pv_jpeg_estimated_memory(const pv_jpeg *decoder, int luma, int scale_num);

/* Starts decompression to 1 band of luma (luma 1), 3 bands of RGB (luma 0) or, for a YCbCr file,
 * 3 bands of its own YCbCr samples (luma 2; grey files give 1 band of grey in every mode), at
 * scale `scale_num`/8 (1 to 8). Returns 0, or -1 with the status set. */
int pv_jpeg_start(pv_jpeg *decoder, int luma, int scale_num);

/* The planes of a decode started with pv_jpeg_start_planes, in samples: each plane's size in
 * whole MCUs (the picture is the top left output_width x output_height of the luma), how many
 * times luma's resolution is chroma's as powers of two, and the luma rows each read gives. */
typedef struct {
    int luma_width;
    int luma_height;
    int chroma_width;
    int chroma_height;
    int shift_x;
    int shift_y;
    int rows_per_read;
} pv_jpeg_planes;

/* Starts decompression of a YCbCr file at scale `scale_num`/8 as separate Y, Cb and Cr planes
 * (libjpeg's raw data: no upsampling, no colour conversion), Y exactly the luma mode's. Chroma is
 * decoded with the smallest inverse DCT whose planes still cover the picture with at least
 * `min_chroma_width` x `min_chroma_height` samples (a preview's own chroma size), each chroma
 * sample covering at most 16 luma samples a side; without a minimum (0, 0), or when none smaller
 * covers it, at the library's size, except that at scale 3/8 a 4:2:0 file's chroma comes at half
 * luma's resolution. Returns 0; 1, with nothing started, for a file whose components do not suit
 * planes (pv_jpeg_start then decodes it); or -1 with the status set. */
int pv_jpeg_start_planes(pv_jpeg *decoder, int scale_num, int min_chroma_width, int min_chroma_height);

/* The planes' geometry after pv_jpeg_start_planes returned 0. Returns 0, or -1 in another mode. */
int pv_jpeg_planes_geometry(const pv_jpeg *decoder, pv_jpeg_planes *geometry);

/* Decodes the next row of MCUs: `rows_per_read` luma rows at `y` (`y_stride` bytes apart) and
 * the chroma rows under them at `cb` and `cr` (`chroma_stride` bytes apart), each at least its
 * plane's width. Returns the luma rows (0 at the end), or -1 with the status set. */
int pv_jpeg_read_planes(pv_jpeg *decoder, unsigned char *y, size_t y_stride, unsigned char *cb, unsigned char *cr, size_t chroma_stride);

/* Output size and bands after pv_jpeg_start. */
int pv_jpeg_output_width(const pv_jpeg *decoder);
int pv_jpeg_output_height(const pv_jpeg *decoder);
int pv_jpeg_output_bands(const pv_jpeg *decoder);

/* Decodes up to `max_rows` rows into `destination`, `stride` bytes apart. Returns the rows
 * written (0 at the end), or -1 with the status set. */
int pv_jpeg_read_rows(pv_jpeg *decoder, unsigned char *destination, size_t stride, int max_rows);

/* Reads the rest of the file up to its end marker, so corruption after the last row still
 * counts. Returns 0, or -1 with the status set. */
int pv_jpeg_finish(pv_jpeg *decoder);

/* libjpeg-turbo's version as built against, such as 2001005 for 2.1.5. */
long pv_jpeg_library_version(void);

/* Frees the decoder (safe after any failure). */
void pv_jpeg_close(pv_jpeg *decoder);

#endif
