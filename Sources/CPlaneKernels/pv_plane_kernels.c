#include "pv_plane_kernels.h"

#if defined(__x86_64__) && defined(__SSSE3__) && defined(__SSE4_1__)
#include <smmintrin.h>
#include <tmmintrin.h>
#define PV_VECTORISED 1
#else
#define PV_VECTORISED 0
#endif

int pv_area_resample_vectorised(void) {
    return PV_VECTORISED;
}

void pv_area_resample_groups(const uint8_t *source, const int32_t *bases, const uint8_t *offsets, const int16_t *weights,
                             size_t groups, uint16_t *output) {
#if PV_VECTORISED
    const __m128i rounding = _mm_set1_epi32(32);
    for (size_t g = 0; g < groups; g++) {
        const __m128i row = _mm_loadu_si128((const __m128i *) (source + bases[g]));
        /* Each target's four samples widened to 16 bits (0x80 lanes read zero), two targets a vector. */
        const __m128i first = _mm_shuffle_epi8(row, _mm_loadu_si128((const __m128i *) (offsets + 32 * g)));
        const __m128i second = _mm_shuffle_epi8(row, _mm_loadu_si128((const __m128i *) (offsets + 32 * g + 16)));
        /* pmaddwd: pairs of taps summed in 32 bits; phaddd: each target's two pairs. */
        const __m128i firstSums = _mm_madd_epi16(first, _mm_loadu_si128((const __m128i *) (weights + 16 * g)));
        const __m128i secondSums = _mm_madd_epi16(second, _mm_loadu_si128((const __m128i *) (weights + 16 * g + 8)));
        const __m128i sums = _mm_srli_epi32(_mm_add_epi32(_mm_hadd_epi32(firstSums, secondSums), rounding), 6);
        _mm_storel_epi64((__m128i *) (output + 4 * g), _mm_packus_epi32(sums, sums));
    }
#else
    for (size_t g = 0; g < groups; g++) {
        const uint8_t *row = source + bases[g];
        for (size_t j = 0; j < 4; j++) {
            int32_t sum = 0;
            for (size_t k = 0; k < 4; k++) {
                /* Offsets come in byte pairs (the sample, then 0x80 for its high byte). */
                const uint8_t offset = offsets[32 * g + 8 * j + 2 * k];
                if (offset < 16) {
                    sum += (int32_t) row[offset] * weights[16 * g + 4 * j + k];
                }
            }
            output[4 * g + j] = (uint16_t) ((sum + 32) >> 6);
        }
    }
#endif
}
