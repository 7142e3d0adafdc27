#if arch(x86_64)
import _Builtin_intrinsics.intel.cpuid
#endif

/// Which build of the blur kernels' row loops runs: the baseline (SSE4.1 on x86-64, at the
/// `nehalem` target the kernels are compiled for; the compiler's default elsewhere) or the AVX2
/// loops of `BlurMetricsAVX2`, compiled for Haswell. Both give the same integers: the choice
/// changes the time a photo takes, never a figure.
enum KernelPath: Sendable {
    /// The loops compiled for the baseline CPU.
    case baseline
    /// The AVX2 loops, sixteen 16-bit lanes per step.
    case avx2

    /// The fastest path this CPU runs, chosen once per process.
    static let best: KernelPath = avx2Supported ? .avx2 : .baseline

    /// Whether this CPU has AVX2 and the operating system saves its registers: CPUID leaf 7 reports
    /// AVX2, leaf 1 AVX and OSXSAVE (the kernel turned XSAVE on). Swift cannot issue `xgetbv`, so
    /// the enabled state (XCR0) is not read: Linux enables the AVX registers wherever it enables
    /// XSAVE on a CPU with AVX, unless AVX was cleared at boot.
    static let avx2Supported: Bool = {
        #if arch(x86_64)
        var eax: UInt32 = 0, ebx: UInt32 = 0, ecx: UInt32 = 0, edx: UInt32 = 0
        guard __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 else { return false }
        let osxsave: UInt32 = 1 << 27, avx: UInt32 = 1 << 28
        guard ecx & osxsave != 0, ecx & avx != 0 else { return false }
        guard __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 else { return false }
        let avx2: UInt32 = 1 << 5
        return ebx & avx2 != 0
        #else
        return false
        #endif
    }()
}
