import CCPUFeatures

/// Which build of the blur kernels' row loops runs: the baseline (SSE4.1 on x86-64, at the
/// `nehalem` target the kernels are compiled for; the compiler's default elsewhere) or the AVX2
/// loops of `BlurMetricsAVX2`, compiled for Haswell. Both give the same integers: the choice
/// changes the time a photo takes, never a figure. Package-wide: the duplicate fingerprint's loops
/// (LumaAnalysis, FingerprintAVX2) take the same choice.
package enum KernelPath: Sendable {
    /// The loops compiled for the baseline CPU.
    case baseline
    /// The AVX2 loops, sixteen 16-bit lanes per step.
    case avx2

    /// The fastest path this CPU runs, chosen once per process.
    package static let best: KernelPath = avx2Supported ? .avx2 : .baseline

    /// Whether this CPU runs the AVX2 module, built for Haswell, and the operating system saves the
    /// AVX registers: CPUID reports AVX2 and the rest of Haswell's set the compiler may use (FMA,
    /// BMI1/2, LZCNT, MOVBE, F16C), and XCR0 the XMM and YMM state enabled (`pv_cpu_haswell_usable`,
    /// the one C function this needs: Swift cannot issue `xgetbv`). A virtual CPU that reports AVX2
    /// alone, or a kernel booted with AVX cleared, runs the baseline loops.
    package static let avx2Supported: Bool = pv_cpu_haswell_usable() != 0
}
