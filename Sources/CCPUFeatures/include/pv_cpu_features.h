#ifndef PHOTO_VALIDATOR_CPU_FEATURES_H
#define PHOTO_VALIDATOR_CPU_FEATURES_H

/// 1 when this CPU has AVX2 and the operating system saves the AVX registers (CPUID leaf 1 AVX and
/// OSXSAVE, XCR0's SSE and AVX state bits, CPUID leaf 7 AVX2); 0 otherwise, and on every other
/// architecture. Swift cannot issue `xgetbv`, hence this one C function.
int pv_cpu_avx2_usable(void);

#endif
