#include "pv_webp.h"

#include <string.h>
#include <webp/decode.h>

int pv_webp_features_of(const unsigned char *data, size_t length, pv_webp_features *features) {
    WebPBitstreamFeatures read;
    memset(features, 0, sizeof(*features));
    VP8StatusCode status = WebPGetFeatures(data, length, &read);
    if (status != VP8_STATUS_OK) {
        return (int) status;
    }
    features->width = read.width;
    features->height = read.height;
    features->has_alpha = read.has_alpha;
    features->has_animation = read.has_animation;
    features->format = read.format;
    return 0;
}

int pv_webp_decode(const unsigned char *data, size_t length, unsigned char *output, size_t size, int stride,
                   int alpha, int threads) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        return (int) VP8_STATUS_INVALID_PARAM;
    }
    config.options.use_threads = threads ? 1 : 0;
    config.output.colorspace = alpha ? MODE_RGBA : MODE_RGB;
    /* libwebp writes into the caller's buffer and allocates no output of its own. */
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = output;
    config.output.u.RGBA.stride = stride;
    config.output.u.RGBA.size = size;
    VP8StatusCode status = WebPDecode(data, length, &config);
    WebPFreeDecBuffer(&config.output);
    return (int) status;
}

const char *pv_webp_status_text(int status) {
    switch (status) {
    case VP8_STATUS_OK: return "ok";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data (truncated)";
    default: return "unknown status";
    }
}

int pv_webp_library_version(void) {
    return WebPGetDecoderVersion();
}
