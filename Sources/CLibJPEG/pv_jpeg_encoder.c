#include "pv_jpeg_encoder.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/* Everything one encode owns, on the heap so that nothing the library changes lives in a local
 * variable across the setjmp. */
typedef struct {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr errors;
    struct jpeg_destination_mgr destination;
    jmp_buf escape;
    unsigned char *buffer;
    size_t capacity;
    char message[JMSG_LENGTH_MAX];
} pv_encoder;

static void pv_encoder_error_exit(j_common_ptr cinfo) {
    pv_encoder *encoder = (pv_encoder *) cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, encoder->message);
    longjmp(encoder->escape, 1);
}

static void pv_encoder_output_message(j_common_ptr cinfo) {
    (void) cinfo;
}

static void pv_encoder_init_destination(j_compress_ptr cinfo) {
    pv_encoder *encoder = (pv_encoder *) cinfo->client_data;
    encoder->destination.next_output_byte = encoder->buffer;
    encoder->destination.free_in_buffer = encoder->capacity;
}

/* The buffer doubles when full; the library's own memory destination would leak a grown buffer
 * when an error ends the encode. */
static boolean pv_encoder_empty_buffer(j_compress_ptr cinfo) {
    pv_encoder *encoder = (pv_encoder *) cinfo->client_data;
    size_t used = encoder->capacity;
    unsigned char *grown = realloc(encoder->buffer, used * 2);
    if (grown == NULL) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    }
    encoder->buffer = grown;
    encoder->capacity = used * 2;
    encoder->destination.next_output_byte = grown + used;
    encoder->destination.free_in_buffer = used;
    return TRUE;
}

static void pv_encoder_term_destination(j_compress_ptr cinfo) {
    (void) cinfo;
}

int pv_jpeg_encode_planes(const unsigned char *y, size_t y_stride,
                          const unsigned char *cb, const unsigned char *cr, size_t chroma_stride,
                          int width, int height, int quality,
                          unsigned char **output, size_t *length, char *message, size_t message_size) {
    pv_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        snprintf(message, message_size, "no memory for a JPEG encoder");
        return -1;
    }
    int colour = cb != NULL && cr != NULL;
    /* Most previews compress to well under a byte a pixel at the usual qualities. */
    encoder->capacity = (size_t) width * (size_t) height / 2 + 65536;
    encoder->buffer = malloc(encoder->capacity);
    if (encoder->buffer == NULL) {
        free(encoder);
        snprintf(message, message_size, "no memory for the preview JPEG");
        return -1;
    }
    encoder->cinfo.err = jpeg_std_error(&encoder->errors);
    encoder->errors.error_exit = pv_encoder_error_exit;
    encoder->errors.output_message = pv_encoder_output_message;
    encoder->cinfo.client_data = encoder;
    if (setjmp(encoder->escape)) {
        snprintf(message, message_size, "%s", encoder->message);
        jpeg_destroy_compress(&encoder->cinfo);
        free(encoder->buffer);
        free(encoder);
        return -1;
    }
    jpeg_create_compress(&encoder->cinfo);
    encoder->cinfo.client_data = encoder;
    encoder->destination.init_destination = pv_encoder_init_destination;
    encoder->destination.empty_output_buffer = pv_encoder_empty_buffer;
    encoder->destination.term_destination = pv_encoder_term_destination;
    encoder->cinfo.dest = &encoder->destination;

    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    cinfo->image_width = (JDIMENSION) width;
    cinfo->image_height = (JDIMENSION) height;
    cinfo->input_components = colour ? 3 : 1;
    cinfo->in_color_space = colour ? JCS_YCbCr : JCS_GRAYSCALE;
    jpeg_set_defaults(cinfo);
    jpeg_set_colorspace(cinfo, colour ? JCS_YCbCr : JCS_GRAYSCALE);
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->raw_data_in = TRUE;
    if (colour) {
        cinfo->comp_info[0].h_samp_factor = 2;
        cinfo->comp_info[0].v_samp_factor = 2;
        for (int i = 1; i < 3; i++) {
            cinfo->comp_info[i].h_samp_factor = 1;
            cinfo->comp_info[i].v_samp_factor = 1;
        }
    } else {
        cinfo->comp_info[0].h_samp_factor = 1;
        cinfo->comp_info[0].v_samp_factor = 1;
    }
    jpeg_start_compress(cinfo, TRUE);

    /* One MCU row a call: 16 rows of Y and 8 of each chroma plane (8 of grey). */
    int rows = colour ? 16 : 8;
    JSAMPROW luma_rows[16], cb_rows[8], cr_rows[8];
    JSAMPARRAY planes[3] = { luma_rows, cb_rows, cr_rows };
    while (cinfo->next_scanline < cinfo->image_height) {
        size_t top = cinfo->next_scanline;
        for (int i = 0; i < rows; i++) {
            luma_rows[i] = (JSAMPROW) (y + (top + (size_t) i) * y_stride);
        }
        if (colour) {
            for (int i = 0; i < 8; i++) {
                cb_rows[i] = (JSAMPROW) (cb + (top / 2 + (size_t) i) * chroma_stride);
                cr_rows[i] = (JSAMPROW) (cr + (top / 2 + (size_t) i) * chroma_stride);
            }
        }
        jpeg_write_raw_data(cinfo, planes, (JDIMENSION) rows);
    }
    jpeg_finish_compress(cinfo);

    *output = encoder->buffer;
    *length = encoder->capacity - encoder->destination.free_in_buffer;
    jpeg_destroy_compress(cinfo);
    free(encoder);
    return 0;
}

void pv_jpeg_free(unsigned char *buffer) {
    free(buffer);
}
