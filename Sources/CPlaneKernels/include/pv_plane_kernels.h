#ifndef PHOTO_VALIDATOR_PV_PLANE_KERNELS_H
#define PHOTO_VALIDATOR_PV_PLANE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Pixel kernels of the blur check that Swift cannot vectorise: a byte gather needs a shuffle with
 * lanes chosen at run time (SSSE3's pshufb), which Swift's SIMD types do not offer. Pure
 * arithmetic on buffers whose bounds the Swift caller has checked. Imported only by BlurMetrics. */

/* Whether `pv_area_resample_groups` runs vectorised here (SSSE3 and SSE4.1, x86-64); otherwise it
 * runs the same arithmetic one target at a time. */
int pv_area_resample_vectorised(void);

/* The horizontal area resampling of one row in groups of four targets: target 4g + j of group g is
 * (sum over its taps k < 4 of source[bases[g] + offsets[32g + 8j + 2k]] * weights[16g + 4j + k] + 32) >> 6,
 * written to output[4g + j]. Offsets come in byte pairs, the tap's offset then 0x80 (a shuffle mask
 * that widens each sample to 16 bits); a tap whose offset is 0x80 too reads nothing (weight 0).
 * The caller guarantees bases[g] + 16 <= the row's length, every other offset < 16 and every
 * weight < 32768: the result is then exactly the scalar sum's. */
void pv_area_resample_groups(const uint8_t *source, const int32_t *bases, const uint8_t *offsets, const int16_t *weights,
                             size_t groups, uint16_t *output);

#endif
