#include "pv_hevc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/common.h>
#include <libavutil/log.h>
#include <libavutil/avutil.h>
#include <libavutil/pixdesc.h>

struct pv_hevc {
    AVCodecContext *context;
    AVPacket *packet;
    AVFrame *frame;
    /* Receives what a drained decoder still holds after the picture: there must be nothing. */
    AVFrame *spare;
    pv_hevc_status status;
    char message[256];
};

/* FFmpeg logs through one process-wide callback; each thread keeps its own last error line so
 * that a failure can say what FFmpeg saw, and nothing reaches stderr. */
static __thread char pv_last_log[200];

static void pv_log(void *object, int level, const char *format, va_list arguments) {
    (void) object;
    if (level <= AV_LOG_ERROR) {
        vsnprintf(pv_last_log, sizeof pv_last_log, format, arguments);
        size_t length = strlen(pv_last_log);
        while (length > 0 && (pv_last_log[length - 1] == '\n' || pv_last_log[length - 1] == ' ')) {
            pv_last_log[--length] = 0;
        }
    }
}

static pthread_once_t pv_log_once = PTHREAD_ONCE_INIT;

static void pv_install_log(void) {
    av_log_set_callback(pv_log);
}

/* Every picture buffer starts with zero chroma: Cb = Cr = 0 is a colour no encoder produces (it
 * lies outside RGB), so a block still zero in both after the decode is one the bitstream never
 * reached, as when damage ends a slice early. FFmpeg reports no such picture as damaged. */
static int pv_get_buffer(AVCodecContext *context, AVFrame *frame, int flags) {
    int status = avcodec_default_get_buffer2(context, frame, flags);
    if (status < 0) {
        return status;
    }
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get((enum AVPixelFormat) frame->format);
    if (descriptor != NULL && descriptor->nb_components >= 3) {
        int chroma_height = AV_CEIL_RSHIFT(frame->height, descriptor->log2_chroma_h);
        for (int plane = 1; plane <= 2; plane++) {
            if (frame->data[plane] != NULL && frame->linesize[plane] > 0) {
                memset(frame->data[plane], 0, (size_t) frame->linesize[plane] * (size_t) chroma_height);
            }
        }
    }
    return 0;
}

/* True when some 8x8 block of chroma samples within the top-left `luma_width` x `luma_height`
 * is zero in both planes: never decoded. (Outside the picture a grid's last tiles are padding,
 * which some encoders code as zeros.) */
static int pv_has_undecoded_blocks(const AVFrame *frame, int luma_width, int luma_height) {
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get((enum AVPixelFormat) frame->format);
    if (descriptor == NULL || descriptor->nb_components < 3) {
        return 0;
    }
    int bytes = descriptor->comp[1].depth > 8 ? 2 : 1;
    int width = (luma_width >> descriptor->log2_chroma_w) * bytes;
    int height = luma_height >> descriptor->log2_chroma_h;
    int block = 8;
    for (int top = 0; top + block <= height; top += block) {
        for (int left = 0; left + block * bytes <= width; left += block * bytes) {
            int zero = 1;
            for (int row = 0; row < block && zero; row++) {
                const uint8_t *cb = frame->data[1] + (ptrdiff_t) (top + row) * frame->linesize[1] + left;
                const uint8_t *cr = frame->data[2] + (ptrdiff_t) (top + row) * frame->linesize[2] + left;
                for (int column = 0; column < block * bytes; column++) {
                    if (cb[column] | cr[column]) {
                        zero = 0;
                        break;
                    }
                }
            }
            if (zero) {
                return 1;
            }
        }
    }
    return 0;
}

static int pv_fail(pv_hevc *decoder, pv_hevc_status status, const char *what) {
    decoder->status = status;
    if (pv_last_log[0] != 0) {
        snprintf(decoder->message, sizeof decoder->message, "%s (libavcodec: %s)", what, pv_last_log);
    } else {
        snprintf(decoder->message, sizeof decoder->message, "%s", what);
    }
    return -1;
}

pv_hevc *pv_hevc_open(const uint8_t *configuration, size_t configuration_length, long max_pixels) {
    pthread_once(&pv_log_once, pv_install_log);
    pv_last_log[0] = 0;
    pv_hevc *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        return NULL;
    }
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_HEVC);
    if (codec == NULL) {
        pv_fail(decoder, PV_HEVC_UNSUPPORTED, "this libavcodec has no HEVC decoder");
        return decoder;
    }
    decoder->context = avcodec_alloc_context3(codec);
    decoder->packet = av_packet_alloc();
    decoder->frame = av_frame_alloc();
    decoder->spare = av_frame_alloc();
    if (decoder->context == NULL || decoder->packet == NULL || decoder->frame == NULL || decoder->spare == NULL
        || configuration_length > (1 << 20)) {
        pv_fail(decoder, PV_HEVC_MEMORY, "no memory for an HEVC decoder");
        return decoder;
    }
    decoder->context->extradata = av_mallocz(configuration_length + AV_INPUT_BUFFER_PADDING_SIZE);
    if (decoder->context->extradata == NULL) {
        pv_fail(decoder, PV_HEVC_MEMORY, "no memory for an HEVC decoder");
        return decoder;
    }
    memcpy(decoder->context->extradata, configuration, configuration_length);
    decoder->context->extradata_size = (int) configuration_length;
    /* One thread: the daemon runs one decode per core already. Every error is fatal (no
     * concealment), so a damaged tile is a damaged photo rather than a grey patch. */
    decoder->context->thread_count = 1;
    decoder->context->err_recognition = AV_EF_EXPLODE | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_CRCCHECK;
    decoder->context->max_pixels = max_pixels > 0 ? max_pixels : 1;
    decoder->context->get_buffer2 = pv_get_buffer;
    if (avcodec_open2(decoder->context, codec, NULL) < 0) {
        pv_fail(decoder, PV_HEVC_CORRUPT, "the HEVC decoder configuration (hvcC) is unusable");
    }
    return decoder;
}

pv_hevc_status pv_hevc_status_of(const pv_hevc *decoder) {
    return decoder->status;
}

const char *pv_hevc_message(const pv_hevc *decoder) {
    return decoder->message;
}

size_t pv_hevc_padding(void) {
    return AV_INPUT_BUFFER_PADDING_SIZE;
}

int pv_hevc_decode(pv_hevc *decoder, const uint8_t *data, size_t length, int *width, int *height) {
    if (decoder->status != PV_HEVC_OK) {
        return -1;
    }
    pv_last_log[0] = 0;
    if (length == 0 || length > 0x7fffffff) {
        return pv_fail(decoder, PV_HEVC_CORRUPT, "a tile has no coded data");
    }
    decoder->packet->data = (uint8_t *) data;
    decoder->packet->size = (int) length;
    int sent = avcodec_send_packet(decoder->context, decoder->packet);
    decoder->packet->data = NULL;
    decoder->packet->size = 0;
    if (sent == AVERROR(ENOMEM)) {
        return pv_fail(decoder, PV_HEVC_MEMORY, "the HEVC picture needs more memory than allowed");
    }
    if (sent < 0) {
        return pv_fail(decoder, PV_HEVC_CORRUPT, "the HEVC data of a tile is corrupt");
    }
    /* A still picture: drain the decoder so it gives the picture up now; pv_hevc_release resets
     * it for the next tile. */
    int drained = avcodec_send_packet(decoder->context, NULL);
    int received = avcodec_receive_frame(decoder->context, decoder->frame);
    if (received == AVERROR(ENOMEM)) {
        return pv_fail(decoder, PV_HEVC_MEMORY, "the HEVC picture needs more memory than allowed");
    }
    if (drained < 0 || received < 0) {
        return pv_fail(decoder, PV_HEVC_CORRUPT, "a tile's HEVC data does not decode to a picture");
    }
    if (decoder->frame->decode_error_flags != 0 || (decoder->frame->flags & AV_FRAME_FLAG_CORRUPT)) {
        return pv_fail(decoder, PV_HEVC_CORRUPT, "the HEVC data of a tile is corrupt");
    }
    if (avcodec_receive_frame(decoder->context, decoder->spare) != AVERROR_EOF) {
        av_frame_unref(decoder->spare);
        return pv_fail(decoder, PV_HEVC_CORRUPT, "a tile holds more than one picture");
    }
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get((enum AVPixelFormat) decoder->frame->format);
    if (descriptor == NULL || (descriptor->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_BITSTREAM))
        || !(descriptor->flags & AV_PIX_FMT_FLAG_PLANAR || descriptor->nb_components == 1)) {
        return pv_fail(decoder, PV_HEVC_UNSUPPORTED, "the HEVC picture's pixel format is not planar YCbCr");
    }
    for (int component = 0; component < descriptor->nb_components && component < 3; component++) {
        const AVComponentDescriptor *c = &descriptor->comp[component];
        if (c->plane != component || c->offset != 0 || c->shift != 0 || c->depth < 8 || c->depth > 16
            || c->step != (c->depth > 8 ? 2 : 1)) {
            return pv_fail(decoder, PV_HEVC_UNSUPPORTED, "the HEVC picture's pixel format has no plain planes");
        }
    }
    *width = decoder->frame->width;
    *height = decoder->frame->height;
    return 0;
}

int pv_hevc_check_decoded(pv_hevc *decoder, int width, int height) {
    if (width > decoder->frame->width || height > decoder->frame->height
        || pv_has_undecoded_blocks(decoder->frame, width, height)) {
        return pv_fail(decoder, PV_HEVC_CORRUPT, "the HEVC data of a tile ends before its picture does");
    }
    return 0;
}

void pv_hevc_frame_info(const pv_hevc *decoder, pv_hevc_frame_info_t *info) {
    const AVFrame *frame = decoder->frame;
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get((enum AVPixelFormat) frame->format);
    info->has_chroma = descriptor != NULL && descriptor->nb_components >= 3;
    info->chroma_shift_x = descriptor != NULL ? descriptor->log2_chroma_w : 0;
    info->chroma_shift_y = descriptor != NULL ? descriptor->log2_chroma_h : 0;
    info->matrix = (int) frame->colorspace;
    /* Unspecified counts as full range, as libheif assumes when nothing describes the colour. */
    info->full_range = frame->color_range != AVCOL_RANGE_MPEG;
}

int pv_hevc_copy_plane(pv_hevc *decoder, int plane, uint8_t *destination, size_t destination_stride,
                       int copy_width, int copy_height, int expand_limited) {
    const AVFrame *frame = decoder->frame;
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get((enum AVPixelFormat) frame->format);
    if (descriptor == NULL || plane < 0 || plane >= descriptor->nb_components || plane > 2) {
        return pv_fail(decoder, PV_HEVC_UNSUPPORTED, "the HEVC picture has no such plane");
    }
    int plane_width = plane == 0 ? frame->width : AV_CEIL_RSHIFT(frame->width, descriptor->log2_chroma_w);
    int plane_height = plane == 0 ? frame->height : AV_CEIL_RSHIFT(frame->height, descriptor->log2_chroma_h);
    if (copy_width > plane_width || copy_height > plane_height || copy_width < 0 || copy_height < 0) {
        return pv_fail(decoder, PV_HEVC_CORRUPT, "a tile decodes to a smaller picture than the file declares");
    }
    const uint8_t *source = frame->data[plane];
    ptrdiff_t source_stride = frame->linesize[plane];
    int depth = descriptor->comp[plane].depth;
    /* Limited-range luma (16-235) is stretched to full range, as libheif does when it converts
     * such a picture to RGB; chroma is scaled with the colour conversion. */
    int expand = expand_limited && plane == 0;
    uint8_t table[256];
    for (int value = 0; expand && value < 256; value++) {
        int full = ((value - 16) * 255 + 109) / 219;
        table[value] = (uint8_t) (value <= 16 ? 0 : (full > 255 ? 255 : full));
    }
    for (int row = 0; row < copy_height; row++) {
        const uint8_t *from = source + (ptrdiff_t) row * source_stride;
        uint8_t *to = destination + (size_t) row * destination_stride;
        if (depth == 8) {
            memcpy(to, from, (size_t) copy_width);
        } else {
            const uint16_t *wide = (const uint16_t *) from;
            for (int column = 0; column < copy_width; column++) {
                to[column] = (uint8_t) (wide[column] >> (depth - 8));
            }
        }
        if (expand) {
            for (int column = 0; column < copy_width; column++) {
                to[column] = table[to[column]];
            }
        }
    }
    return 0;
}

void pv_hevc_release(pv_hevc *decoder) {
    av_frame_unref(decoder->frame);
    avcodec_flush_buffers(decoder->context);
}

void pv_hevc_close(pv_hevc *decoder) {
    if (decoder == NULL) {
        return;
    }
    av_frame_free(&decoder->frame);
    av_frame_free(&decoder->spare);
    av_packet_free(&decoder->packet);
    /* Frees the extradata too. */
    avcodec_free_context(&decoder->context);
    free(decoder);
}

unsigned pv_hevc_library_version(void) {
    return avcodec_version();
}

const char *pv_hevc_ffmpeg_release(void) {
    return av_version_info();
}
