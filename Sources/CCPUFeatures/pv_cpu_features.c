#include "pv_cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>

// XCR0 through the instruction itself: only executed once CPUID says the OS enabled XSAVE.
static unsigned long long pv_xcr0(void) {
    unsigned int low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return ((unsigned long long)high << 32) | low;
}

int pv_cpu_haswell_usable(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int fma = 1u << 12, movbe = 1u << 22, osxsave = 1u << 27, avx = 1u << 28, f16c = 1u << 29;
    const unsigned int leaf1 = fma | movbe | osxsave | avx | f16c;
    if ((ecx & leaf1) != leaf1) return 0;
    // Bits 1 and 2: the XMM and YMM state the OS saves on a context switch.
    if ((pv_xcr0() & 0x6) != 0x6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const unsigned int bmi1 = 1u << 3, avx2 = 1u << 5, bmi2 = 1u << 8;
    const unsigned int leaf7 = bmi1 | avx2 | bmi2;
    if ((ebx & leaf7) != leaf7) return 0;
    if (__get_cpuid_max(0x80000000, 0) < 0x80000001) return 0;
    __cpuid(0x80000001, eax, ebx, ecx, edx);
    const unsigned int lzcnt = 1u << 5;
    return (ecx & lzcnt) != 0;
}
#else
int pv_cpu_haswell_usable(void) { return 0; }
#endif
