#ifndef PHOTO_VALIDATOR_CPU_FEATURES_H
#define PHOTO_VALIDATOR_CPU_FEATURES_H

/// 1 when this CPU runs code built with `-target-cpu haswell` and the operating system saves the
/// AVX registers: CPUID reports AVX, AVX2, FMA, BMI1, BMI2, LZCNT, MOVBE, F16C and OSXSAVE, and
/// XCR0 has the XMM and YMM state enabled; 0 otherwise, and on every other architecture. A virtual
/// CPU may report AVX2 without the others; the compiler may use any of them. Swift cannot issue
/// `xgetbv`, hence this one C function.
int pv_cpu_haswell_usable(void);

#endif
