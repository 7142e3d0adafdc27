#include "pv_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#if JPEG_LIB_VERSION >= 70
#define PV_SCALED_SIZE(component) ((component)->DCT_h_scaled_size)
#define PV_MIN_SCALED_SIZE(cinfo) ((cinfo)->min_DCT_h_scaled_size)
#else
#define PV_SCALED_SIZE(component) ((component)->DCT_scaled_size)
#define PV_MIN_SCALED_SIZE(cinfo) ((cinfo)->min_DCT_scaled_size)
#endif

/* The most rows of one component an iMCU row holds: 4 blocks of up to 16 scaled rows. */
#define PV_MAX_IMCU_ROWS 64

/* The most luma samples a side one chroma sample of the planes may cover. */
#define PV_MAX_CHROMA_RATIO 16

struct pv_jpeg {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf escape;
    pv_jpeg_status status;
    char message[JMSG_LENGTH_MAX + 32];
    int max_scans;
    /* Set once decompression starts: warnings from then on are about entropy-coded data. */
    int in_data;
    int created;
    int started;
    /* Planes mode (pv_jpeg_start_planes): the chroma's scaled block size as written, and a row
     * for the scaled rows of chroma blocks that the halved inverse DCT leaves unwritten. */
    int planes;
    int chroma_size;
    /* The smaller inverse DCT chroma is decoded with, or NULL for the library's own. */
    void (*chroma_idct)(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION);
    unsigned char *scratch;
};

/* The inverse DCT module's method table as libjpeg (6b to libjpeg-turbo 3) lays it out in
 * jpegint.h. It is only written after checking that it holds the methods the library chose. */
typedef void (*pv_idct_method)(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION);
struct pv_inverse_dct {
    void (*start_pass)(j_decompress_ptr);
    pv_idct_method inverse_DCT[MAX_COMPONENTS];
};

/* libjpeg's scaled inverse DCTs (jidctint.c, jidctred.c): exported, though not in jpeglib.h. Weak,
 * so a libjpeg without them still loads (and decodes chroma the library's own way). Each takes
 * the dequantisation table the library builds for JDCT_ISLOW, which is what it builds for every
 * component when dct_method is JDCT_ISLOW. */
extern void jpeg_idct_1x1(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_2x2(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_3x3(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_4x4(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_5x5(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_6x6(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_7x7(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_islow(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_9x9(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_10x10(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_11x11(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_12x12(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_13x13(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_14x14(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_15x15(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));
extern void jpeg_idct_16x16(j_decompress_ptr, jpeg_component_info *, JCOEFPTR, JSAMPARRAY, JDIMENSION) __attribute__((weak));

/* The exported inverse DCT producing `size` x `size` samples a block, or NULL. */
static pv_idct_method pv_idct_of_size(int size) {
    switch (size) {
    case 1: return jpeg_idct_1x1;
    case 2: return jpeg_idct_2x2;
    case 3: return jpeg_idct_3x3;
    case 4: return jpeg_idct_4x4;
    case 5: return jpeg_idct_5x5;
    case 6: return jpeg_idct_6x6;
    case 7: return jpeg_idct_7x7;
    case 8: return jpeg_idct_islow;
    case 9: return jpeg_idct_9x9;
    case 10: return jpeg_idct_10x10;
    case 11: return jpeg_idct_11x11;
    case 12: return jpeg_idct_12x12;
    case 13: return jpeg_idct_13x13;
    case 14: return jpeg_idct_14x14;
    case 15: return jpeg_idct_15x15;
    case 16: return jpeg_idct_16x16;
    default: return NULL;
    }
}

/* libjpeg decodes chroma at the size that reaches luma's without upsampling, or at 8 x 8 (4:2:0
 * at 3/8 with a 6x6 inverse DCT, at 5/8 with a 10x10 one): more samples than a small preview
 * needs, at up to twice the luma's work. This decodes each chroma block with a smaller inverse DCT
 * (the same low frequencies at a lower resolution, `chroma_size` samples a side), writing them
 * where the library counts its own size. */
static void pv_idct_reduced_chroma(j_decompress_ptr cinfo, jpeg_component_info *component, JCOEFPTR coefficients,
                                   JSAMPARRAY output, JDIMENSION column) {
    const pv_jpeg *decoder = (const pv_jpeg *) cinfo->client_data;
    decoder->chroma_idct(cinfo, component, coefficients, output,
                         column / (JDIMENSION) PV_SCALED_SIZE(component) * (JDIMENSION) decoder->chroma_size);
}

/* Extraneous bytes after entropy-coded data beyond this many mean the decoder lost its place in
 * the data (the rest of the picture is shifted or discoloured); a few bytes of padding before the
 * end marker are a known quirk of some cameras. */
#define PV_MAX_PADDING_BYTES 16

/* Warnings that mean the entropy-coded data is damaged: libjpeg fills the rest with grey and goes
 * on, which would let a broken file pass as a photo. Other warnings (extraneous bytes between
 * header segments or a little padding, an odd ICC or Adobe marker, an unknown JFIF revision) come
 * from real cameras and editors and leave the pixels intact, so they are tolerated. */
static int pv_is_corrupt_warning(const pv_jpeg *decoder, const struct jpeg_error_mgr *errors) {
    int code = errors->msg_code;
    if (code == JWRN_EXTRANEOUS_DATA) {
        return decoder->in_data && errors->msg_parm.i[0] > PV_MAX_PADDING_BYTES;
    }
    switch (code) {
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_JPEG_EOF:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void pv_fail(j_common_ptr cinfo, pv_jpeg_status status) {
    pv_jpeg *decoder = (pv_jpeg *) cinfo->client_data;
    if (decoder->status == PV_JPEG_OK) {
        decoder->status = status;
        (*cinfo->err->format_message)(cinfo, decoder->message);
    }
    longjmp(decoder->escape, 1);
}

static void pv_error_exit(j_common_ptr cinfo) {
    int code = cinfo->err->msg_code;
    pv_fail(cinfo, (code == JERR_OUT_OF_MEMORY || code == JERR_NO_BACKING_STORE) ? PV_JPEG_MEMORY : PV_JPEG_CORRUPT);
}

static void pv_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (pv_is_corrupt_warning((pv_jpeg *) cinfo->client_data, cinfo->err)) {
            pv_fail(cinfo, PV_JPEG_CORRUPT);
        }
    }
}

static void pv_output_message(j_common_ptr cinfo) {
    (void) cinfo;
}

static void pv_progress(j_common_ptr cinfo) {
    pv_jpeg *decoder = (pv_jpeg *) cinfo->client_data;
    if (cinfo->is_decompressor && ((j_decompress_ptr) cinfo)->input_scan_number > decoder->max_scans) {
        snprintf(decoder->message, sizeof decoder->message, "the file has more than %d scans", decoder->max_scans);
        decoder->status = PV_JPEG_TOO_MANY_SCANS;
        longjmp(decoder->escape, 1);
    }
}

pv_jpeg *pv_jpeg_open(const unsigned char *data, size_t length, long max_memory, int max_scans) {
    pv_jpeg *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        return NULL;
    }
    decoder->max_scans = max_scans;
    decoder->cinfo.err = jpeg_std_error(&decoder->errors);
    decoder->errors.error_exit = pv_error_exit;
    decoder->errors.emit_message = pv_emit_message;
    decoder->errors.output_message = pv_output_message;
    decoder->cinfo.client_data = decoder;
    if (setjmp(decoder->escape)) {
        return decoder;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->cinfo.mem->max_memory_to_use = max_memory;
    decoder->progress.progress_monitor = pv_progress;
    decoder->cinfo.progress = &decoder->progress;
    if (length == 0 || length > (size_t) 0x7fffffff) {
        snprintf(decoder->message, sizeof decoder->message, "unusable length %zu", length);
        decoder->status = PV_JPEG_CORRUPT;
        return decoder;
    }
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long) length);
    jpeg_read_header(&decoder->cinfo, TRUE);
    return decoder;
}

pv_jpeg_status pv_jpeg_status_of(const pv_jpeg *decoder) {
    return decoder->status;
}

const char *pv_jpeg_message(const pv_jpeg *decoder) {
    return decoder->message;
}

int pv_jpeg_width(const pv_jpeg *decoder) {
    return (int) decoder->cinfo.image_width;
}

int pv_jpeg_height(const pv_jpeg *decoder) {
    return (int) decoder->cinfo.image_height;
}

pv_jpeg_space pv_jpeg_color_space(const pv_jpeg *decoder) {
    switch (decoder->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: return PV_JPEG_SPACE_GRAY;
    case JCS_YCbCr: return PV_JPEG_SPACE_YCC;
    case JCS_RGB: return PV_JPEG_SPACE_RGB;
    default: return PV_JPEG_SPACE_OTHER;
    }
}

int pv_jpeg_is_progressive(const pv_jpeg *decoder) {
    return decoder->cinfo.progressive_mode || decoder->cinfo.arith_code;
}

long pv_jpeg_estimated_memory(const pv_jpeg *decoder, int luma, int scale_num) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    long blocks = 0;
    long row_bytes = 0;
    int max_h = cinfo->max_h_samp_factor > 0 ? cinfo->max_h_samp_factor : 1;
    int max_v = cinfo->max_v_samp_factor > 0 ? cinfo->max_v_samp_factor : 1;
    for (int i = 0; i < cinfo->num_components; i++) {
        const jpeg_component_info *component = &cinfo->comp_info[i];
        long wide = ((long) component->width_in_blocks + max_h - 1) / max_h * max_h;
        long high = ((long) component->height_in_blocks + max_v - 1) / max_v * max_v;
        blocks += wide * high;
        row_bytes += wide * 8;
    }
    long output_width = ((long) cinfo->image_width * scale_num + 7) / 8;
    /* A band of MCU rows of samples per component (twice, for context rows) and the output rows. */
    long rows = row_bytes * max_v * 8 * 3 + output_width * (luma ? 1 : 3) * max_v * 16;
    long coefficients = pv_jpeg_is_progressive(decoder) ? blocks * (long) sizeof(JBLOCK) : row_bytes * max_v * 8 * 2 * 2;
    return coefficients + rows + 256 * 1024;
}

int pv_jpeg_start(pv_jpeg *decoder, int luma, int scale_num) {
    if (decoder->status != PV_JPEG_OK) {
        return -1;
    }
    if (setjmp(decoder->escape)) {
        return -1;
    }
    J_COLOR_SPACE space = decoder->cinfo.jpeg_color_space;
    if (space != JCS_GRAYSCALE && space != JCS_YCbCr && space != JCS_RGB) {
        snprintf(decoder->message, sizeof decoder->message, "colour space %d is decoded by libvips", (int) space);
        decoder->status = PV_JPEG_UNSUPPORTED;
        return -1;
    }
    /* Grey files stay grey at any scale: the same values OpenCV gets from its three equal channels.
     * Mode 2 keeps a YCbCr file's own samples (chroma upsampled): Y is exactly the luma mode's. */
    if (space == JCS_GRAYSCALE || luma == 1) {
        decoder->cinfo.out_color_space = JCS_GRAYSCALE;
    } else if (luma == 2 && space == JCS_YCbCr) {
        decoder->cinfo.out_color_space = JCS_YCbCr;
    } else {
        decoder->cinfo.out_color_space = JCS_RGB;
    }
    decoder->cinfo.scale_num = (unsigned int) (scale_num < 1 ? 1 : (scale_num > 8 ? 8 : scale_num));
    decoder->cinfo.scale_denom = 8;
    decoder->cinfo.dct_method = JDCT_ISLOW;
    /* The kept colour only feeds a preview: plain chroma replication is enough there, and the
     * luma (what the blur check sees) is the same either way. */
    decoder->cinfo.do_fancy_upsampling = decoder->cinfo.out_color_space == JCS_YCbCr ? FALSE : TRUE;
    decoder->in_data = 1;
    jpeg_start_decompress(&decoder->cinfo);
    decoder->started = 1;
    return 0;
}

/* The sampling of a 3-component YCbCr file as planes: luma at the largest factors, the two
 * chroma components alike, and luma's scaled size a power-of-two multiple of chroma's both ways.
 * Returns the two shifts in `shift_x` and `shift_y`, or 0 when the file is not like that. */
static int pv_planes_layout(const struct jpeg_decompress_struct *cinfo, int chroma_size, int *shift_x, int *shift_y) {
    if (cinfo->num_components != 3 || cinfo->jpeg_color_space != JCS_YCbCr) {
        return 0;
    }
    const jpeg_component_info *y = &cinfo->comp_info[0], *cb = &cinfo->comp_info[1], *cr = &cinfo->comp_info[2];
    if (y->h_samp_factor != cinfo->max_h_samp_factor || y->v_samp_factor != cinfo->max_v_samp_factor ||
        cb->h_samp_factor != cr->h_samp_factor || cb->v_samp_factor != cr->v_samp_factor ||
        PV_SCALED_SIZE(cb) != PV_SCALED_SIZE(cr)) {
        return 0;
    }
    int across = y->h_samp_factor * PV_SCALED_SIZE(y), down = y->v_samp_factor * PV_SCALED_SIZE(y);
    int chroma_across = cb->h_samp_factor * chroma_size, chroma_down = cb->v_samp_factor * chroma_size;
    if (across % chroma_across != 0 || down % chroma_down != 0) {
        return 0;
    }
    int ratio_x = across / chroma_across, ratio_y = down / chroma_down;
    if ((ratio_x & (ratio_x - 1)) != 0 || (ratio_y & (ratio_y - 1)) != 0 || ratio_x > PV_MAX_CHROMA_RATIO || ratio_y > PV_MAX_CHROMA_RATIO ||
        y->v_samp_factor * PV_SCALED_SIZE(y) > PV_MAX_IMCU_ROWS || cb->v_samp_factor * PV_SCALED_SIZE(cb) > PV_MAX_IMCU_ROWS) {
        return 0;
    }
    *shift_x = 0;
    *shift_y = 0;
    while ((1 << *shift_x) < ratio_x) (*shift_x)++;
    while ((1 << *shift_y) < ratio_y) (*shift_y)++;
    return 1;
}

/* The smallest chroma block size under `library_size` (the library's) whose planes still lay out
 * (`pv_planes_layout`) and cover the picture with at least `min_width` x `min_height` chroma
 * samples. When none does, or no minimum is given (0 x 0), a 4:2:0 file at 3/8 still has its
 * 6 x 6 chroma blocks halved, as the content check's preview has always been made, and others
 * keep the library's size. */
static int pv_reduced_chroma_size(const struct jpeg_decompress_struct *cinfo, int library_size, int min_width, int min_height) {
    int shift_x, shift_y;
    if (min_width > 0 || min_height > 0) {
        for (int size = 1; size < library_size; size++) {
            if (library_size % size != 0 || !pv_planes_layout(cinfo, size, &shift_x, &shift_y)) {
                continue;
            }
            long covered_x = ((long) cinfo->output_width + (1L << shift_x) - 1) >> shift_x;
            long covered_y = ((long) cinfo->output_height + (1L << shift_y) - 1) >> shift_y;
            if (covered_x >= min_width && covered_y >= min_height) {
                return size;
            }
        }
    }
    return PV_MIN_SCALED_SIZE(cinfo) == 3 && library_size == 6 && pv_planes_layout(cinfo, 3, &shift_x, &shift_y) ? 3 : library_size;
}

int pv_jpeg_start_planes(pv_jpeg *decoder, int scale_num, int min_chroma_width, int min_chroma_height) {
    if (decoder->status != PV_JPEG_OK) {
        return -1;
    }
    if (setjmp(decoder->escape)) {
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    /* Raw planes only for 8-bit DCT pictures: libjpeg-turbo 3 refuses raw data for lossless ones,
     * which the scanline path still reads. */
    if (cinfo->jpeg_color_space != JCS_YCbCr || cinfo->num_components != 3 || cinfo->data_precision != 8) {
        return 1;
    }
    cinfo->out_color_space = JCS_YCbCr;
    cinfo->scale_num = (unsigned int) (scale_num < 1 ? 1 : (scale_num > 8 ? 8 : scale_num));
    cinfo->scale_denom = 8;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->raw_data_out = TRUE;
    /* The scaled sizes the library will choose; computing them twice is allowed. */
    jpeg_calc_output_dimensions(cinfo);
    int shift_x, shift_y;
    /* A DCT picture scales by scale_num / 8 with blocks of scale_num samples; a lossless one is
     * not scaled at all and has blocks of 1. */
    if (PV_MIN_SCALED_SIZE(cinfo) != (int) cinfo->scale_num ||
        cinfo->output_width != (JDIMENSION) (((unsigned long) cinfo->image_width * cinfo->scale_num + 7) / 8)) {
        cinfo->raw_data_out = FALSE;
        return 1;
    }
    if (!pv_planes_layout(cinfo, PV_SCALED_SIZE(&cinfo->comp_info[1]), &shift_x, &shift_y)) {
        cinfo->raw_data_out = FALSE;
        return 1;
    }
    decoder->in_data = 1;
    jpeg_start_decompress(cinfo);
    decoder->started = 1;
    decoder->planes = 1;
    decoder->chroma_size = PV_SCALED_SIZE(&cinfo->comp_info[1]);
    int reduced = pv_reduced_chroma_size(cinfo, decoder->chroma_size, min_chroma_width, min_chroma_height);
    struct pv_inverse_dct *idct = (struct pv_inverse_dct *) cinfo->idct;
    pv_idct_method library = pv_idct_of_size(decoder->chroma_size), smaller = pv_idct_of_size(reduced);
    /* The method table is only written once it holds what the library chose for both chroma
     * components: its own exported function for the size, or at 2, 4 and 8, which libjpeg-turbo
     * may decode with SIMD functions it does not export, the same one for both. */
    int simd_size = decoder->chroma_size == 2 || decoder->chroma_size == 4 || decoder->chroma_size == DCTSIZE;
    int recognised = idct->inverse_DCT[1] == idct->inverse_DCT[2] && idct->inverse_DCT[1] != NULL &&
        (idct->inverse_DCT[1] == library || simd_size);
    if (reduced < decoder->chroma_size && smaller != NULL && recognised) {
        decoder->chroma_idct = smaller;
        idct->inverse_DCT[1] = pv_idct_reduced_chroma;
        idct->inverse_DCT[2] = pv_idct_reduced_chroma;
        decoder->chroma_size = reduced;
    }
    decoder->scratch = malloc((size_t) cinfo->comp_info[1].width_in_blocks * (size_t) PV_SCALED_SIZE(&cinfo->comp_info[1]) + 64);
    if (decoder->scratch == NULL) {
        snprintf(decoder->message, sizeof decoder->message, "no memory for a chroma row");
        decoder->status = PV_JPEG_MEMORY;
        return -1;
    }
    return 0;
}

int pv_jpeg_planes_geometry(const pv_jpeg *decoder, pv_jpeg_planes *geometry) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (!decoder->planes) {
        return -1;
    }
    const jpeg_component_info *y = &cinfo->comp_info[0], *cb = &cinfo->comp_info[1];
    int shift_x, shift_y;
    if (!pv_planes_layout(cinfo, decoder->chroma_size, &shift_x, &shift_y)) {
        return -1;
    }
    /* Whole MCUs: what the library writes, with the dummy blocks of a partial MCU left as they are. */
    long mcus_across = ((long) cinfo->image_width + cinfo->max_h_samp_factor * DCTSIZE - 1) / (cinfo->max_h_samp_factor * DCTSIZE);
    geometry->luma_width = (int) (mcus_across * y->h_samp_factor * PV_SCALED_SIZE(y));
    geometry->luma_height = (int) ((long) cinfo->total_iMCU_rows * y->v_samp_factor * PV_SCALED_SIZE(y));
    geometry->chroma_width = (int) (mcus_across * cb->h_samp_factor * decoder->chroma_size);
    geometry->chroma_height = (int) ((long) cinfo->total_iMCU_rows * cb->v_samp_factor * decoder->chroma_size);
    geometry->shift_x = shift_x;
    geometry->shift_y = shift_y;
    geometry->rows_per_read = y->v_samp_factor * PV_SCALED_SIZE(y);
    return 0;
}

int pv_jpeg_read_planes(pv_jpeg *decoder, unsigned char *y, size_t y_stride, unsigned char *cb, unsigned char *cr, size_t chroma_stride) {
    if (decoder->status != PV_JPEG_OK || !decoder->started || !decoder->planes) {
        return -1;
    }
    if (setjmp(decoder->escape)) {
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (cinfo->output_scanline >= cinfo->output_height) {
        return 0;
    }
    JSAMPROW luma_rows[PV_MAX_IMCU_ROWS], cb_rows[PV_MAX_IMCU_ROWS], cr_rows[PV_MAX_IMCU_ROWS];
    JSAMPARRAY planes[3] = { luma_rows, cb_rows, cr_rows };
    const jpeg_component_info *luma = &cinfo->comp_info[0], *chroma = &cinfo->comp_info[1];
    int luma_count = luma->v_samp_factor * PV_SCALED_SIZE(luma);
    for (int i = 0; i < luma_count; i++) {
        luma_rows[i] = y + (size_t) i * y_stride;
    }
    /* The library counts PV_SCALED_SIZE rows a chroma block; only the first chroma_size of them
     * are written. */
    int library_size = PV_SCALED_SIZE(chroma), written = 0;
    for (int i = 0; i < chroma->v_samp_factor * library_size; i++) {
        if (i % library_size < decoder->chroma_size) {
            cb_rows[i] = cb + (size_t) written * chroma_stride;
            cr_rows[i] = cr + (size_t) written * chroma_stride;
            written++;
        } else {
            cb_rows[i] = decoder->scratch;
            cr_rows[i] = decoder->scratch;
        }
    }
    JDIMENSION got = jpeg_read_raw_data(cinfo, planes, (JDIMENSION) luma_count);
    if (got == 0) {
        snprintf(decoder->message, sizeof decoder->message, "the decoder produced no rows");
        decoder->status = PV_JPEG_CORRUPT;
        return -1;
    }
    return (int) got;
}

int pv_jpeg_output_width(const pv_jpeg *decoder) {
    return (int) decoder->cinfo.output_width;
}

int pv_jpeg_output_height(const pv_jpeg *decoder) {
    return (int) decoder->cinfo.output_height;
}

int pv_jpeg_output_bands(const pv_jpeg *decoder) {
    return decoder->cinfo.output_components;
}

int pv_jpeg_read_rows(pv_jpeg *decoder, unsigned char *destination, size_t stride, int max_rows) {
    if (decoder->status != PV_JPEG_OK || !decoder->started) {
        return -1;
    }
    if (setjmp(decoder->escape)) {
        return -1;
    }
    int written = 0;
    while (written < max_rows && decoder->cinfo.output_scanline < decoder->cinfo.output_height) {
        JSAMPROW rows[8];
        int want = max_rows - written;
        if (want > 8) {
            want = 8;
        }
        for (int i = 0; i < want; i++) {
            rows[i] = destination + (size_t) (written + i) * stride;
        }
        JDIMENSION got = jpeg_read_scanlines(&decoder->cinfo, rows, (JDIMENSION) want);
        if (got == 0) {
            snprintf(decoder->message, sizeof decoder->message, "the decoder produced no rows");
            decoder->status = PV_JPEG_CORRUPT;
            return -1;
        }
        written += (int) got;
    }
    return written;
}

int pv_jpeg_finish(pv_jpeg *decoder) {
    if (decoder->status != PV_JPEG_OK || !decoder->started) {
        return -1;
    }
    if (setjmp(decoder->escape)) {
        return -1;
    }
    jpeg_finish_decompress(&decoder->cinfo);
    decoder->started = 0;
    return 0;
}

void pv_jpeg_close(pv_jpeg *decoder) {
    if (decoder == NULL) {
        return;
    }
    if (decoder->created) {
        /* jpeg_destroy frees through the memory manager and cannot fail. */
        jpeg_destroy_decompress(&decoder->cinfo);
    }
    free(decoder->scratch);
    free(decoder);
}

long pv_jpeg_library_version(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
    return LIBJPEG_TURBO_VERSION_NUMBER;
#else
    return 0;
#endif
}
