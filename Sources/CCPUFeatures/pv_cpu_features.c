#include "pv_cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>

// XCR0 through the instruction itself: only executed once CPUID says the OS enabled XSAVE.
static unsigned long long pv_xcr0(void) {
    unsigned int low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return ((unsigned long long)high << 32) | low;
}

int pv_cpu_avx2_usable(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int osxsave = 1u << 27, avx = 1u << 28;
    if (!(ecx & osxsave) || !(ecx & avx)) return 0;
    // Bits 1 and 2: the XMM and YMM state the OS saves on a context switch.
    if ((pv_xcr0() & 0x6) != 0x6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx & (1u << 5)) != 0;
}
#else
int pv_cpu_avx2_usable(void) { return 0; }
#endif
