import CCPUFeatures

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

    /// Whether this CPU has AVX2 and the operating system saves its registers: CPUID reports AVX,
    /// OSXSAVE and AVX2, and XCR0 the XMM and YMM state enabled (`pv_cpu_avx2_usable`, the one C
    /// function this needs: Swift cannot issue `xgetbv`). A kernel booted with AVX cleared leaves
    /// YMM out of XCR0 while CPUID still reports AVX2; the baseline loops run there.
    static let avx2Supported: Bool = pv_cpu_avx2_usable() != 0
}
