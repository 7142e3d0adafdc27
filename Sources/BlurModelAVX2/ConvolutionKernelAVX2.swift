#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The 3x3 convolution's loops at AVX2 width with FMA, built for Haswell: BlurModel's
/// `ConvolutionKernel` with sixteen output channels (two vectors) and four positions at once, so
/// eight accumulators stay in registers and each weight vector serves four positions. Raw pointers
/// and intrinsics only, no generic code. Call only where the CPU has AVX2 (`KernelPath.avx2`).
package enum ConvolutionKernelAVX2 {
    /// Writes `outputWidth` x `outputHeight` positions of `storedOutputs` channels (a multiple of
    /// eight) to `output` from the channel-last activations at `input` (`inputWidth` wide,
    /// `storedInputs` channels), with the weights `[block][ky][kx][input][8]` and the bias.
    @inline(never)
    package static func convolve(
        input: UnsafePointer<Float>, inputWidth: Int, storedInputs: Int,
        output: UnsafeMutablePointer<Float>, outputWidth: Int, outputHeight: Int, storedOutputs: Int,
        stride: Int, relu: Bool, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>
    ) {
        let run = 3 &* storedInputs
        let step = stride &* storedInputs
        let inputRow = inputWidth &* storedInputs
        let blocks = storedOutputs / 8
        let blockStride = 9 &* storedInputs &* 8
        for oy in 0..<outputHeight {
            let rowBase = input + oy &* stride &* inputRow
            let outputRow = output + oy &* outputWidth &* storedOutputs
            var block = 0
            while block &+ 2 <= blocks {
                pairOfBlocks(
                    rowBase: rowBase, inputRow: inputRow, run: run, step: step, outputRow: outputRow, outputWidth: outputWidth,
                    storedOutputs: storedOutputs, relu: relu, weights: weights + block &* blockStride, blockStride: blockStride,
                    bias: bias + block &* 8, channel: block &* 8
                )
                block &+= 2
            }
            if block < blocks {
                oneBlock(
                    rowBase: rowBase, inputRow: inputRow, run: run, step: step, outputRow: outputRow, outputWidth: outputWidth,
                    storedOutputs: storedOutputs, relu: relu, weights: weights + block &* blockStride, bias: bias + block &* 8, channel: block &* 8
                )
            }
        }
    }

    /// Sixteen output channels of one output row.
    @inline(__always)
    static func pairOfBlocks(
        rowBase: UnsafePointer<Float>, inputRow: Int, run: Int, step: Int, outputRow: UnsafeMutablePointer<Float>, outputWidth: Int,
        storedOutputs: Int, relu: Bool, weights: UnsafePointer<Float>, blockStride: Int, bias: UnsafePointer<Float>, channel: Int
    ) {
        let startLow = _mm256_loadu_ps(bias), startHigh = _mm256_loadu_ps(bias + 8)
        let zero = _mm256_setzero_ps()
        var ox = 0
        while ox &+ 4 <= outputWidth {
            var l0 = startLow, l1 = startLow, l2 = startLow, l3 = startLow
            var h0 = startHigh, h1 = startHigh, h2 = startHigh, h3 = startHigh
            for ky in 0..<3 {
                let p = rowBase + ky &* inputRow + ox &* step
                let low = weights + ky &* run &* 8
                let high = low + blockStride
                for j in 0..<run {
                    let wl = _mm256_loadu_ps(low + j &* 8), wh = _mm256_loadu_ps(high + j &* 8)
                    let v0 = _mm256_broadcast_ss(p + j)
                    let v1 = _mm256_broadcast_ss(p + (j &+ step))
                    let v2 = _mm256_broadcast_ss(p + (j &+ 2 &* step))
                    let v3 = _mm256_broadcast_ss(p + (j &+ 3 &* step))
                    l0 = _mm256_fmadd_ps(wl, v0, l0); h0 = _mm256_fmadd_ps(wh, v0, h0)
                    l1 = _mm256_fmadd_ps(wl, v1, l1); h1 = _mm256_fmadd_ps(wh, v1, h1)
                    l2 = _mm256_fmadd_ps(wl, v2, l2); h2 = _mm256_fmadd_ps(wh, v2, h2)
                    l3 = _mm256_fmadd_ps(wl, v3, l3); h3 = _mm256_fmadd_ps(wh, v3, h3)
                }
            }
            if relu {
                l0 = _mm256_max_ps(l0, zero); l1 = _mm256_max_ps(l1, zero); l2 = _mm256_max_ps(l2, zero); l3 = _mm256_max_ps(l3, zero)
                h0 = _mm256_max_ps(h0, zero); h1 = _mm256_max_ps(h1, zero); h2 = _mm256_max_ps(h2, zero); h3 = _mm256_max_ps(h3, zero)
            }
            let target = outputRow + (ox &* storedOutputs &+ channel)
            _mm256_storeu_ps(target, l0); _mm256_storeu_ps(target + 8, h0)
            _mm256_storeu_ps(target + storedOutputs, l1); _mm256_storeu_ps(target + (storedOutputs &+ 8), h1)
            _mm256_storeu_ps(target + 2 &* storedOutputs, l2); _mm256_storeu_ps(target + (2 &* storedOutputs &+ 8), h2)
            _mm256_storeu_ps(target + 3 &* storedOutputs, l3); _mm256_storeu_ps(target + (3 &* storedOutputs &+ 8), h3)
            ox &+= 4
        }
        while ox < outputWidth {
            var l0 = startLow, h0 = startHigh
            for ky in 0..<3 {
                let p = rowBase + ky &* inputRow + ox &* step
                let low = weights + ky &* run &* 8
                let high = low + blockStride
                for j in 0..<run {
                    let v0 = _mm256_broadcast_ss(p + j)
                    l0 = _mm256_fmadd_ps(_mm256_loadu_ps(low + j &* 8), v0, l0)
                    h0 = _mm256_fmadd_ps(_mm256_loadu_ps(high + j &* 8), v0, h0)
                }
            }
            if relu { l0 = _mm256_max_ps(l0, zero); h0 = _mm256_max_ps(h0, zero) }
            let target = outputRow + (ox &* storedOutputs &+ channel)
            _mm256_storeu_ps(target, l0); _mm256_storeu_ps(target + 8, h0)
            ox &+= 1
        }
    }

    /// Eight output channels of one output row.
    @inline(__always)
    static func oneBlock(
        rowBase: UnsafePointer<Float>, inputRow: Int, run: Int, step: Int, outputRow: UnsafeMutablePointer<Float>, outputWidth: Int,
        storedOutputs: Int, relu: Bool, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, channel: Int
    ) {
        let start = _mm256_loadu_ps(bias)
        let zero = _mm256_setzero_ps()
        var ox = 0
        while ox &+ 4 <= outputWidth {
            var a0 = start, a1 = start, a2 = start, a3 = start
            for ky in 0..<3 {
                let p = rowBase + ky &* inputRow + ox &* step
                let w = weights + ky &* run &* 8
                for j in 0..<run {
                    let weight = _mm256_loadu_ps(w + j &* 8)
                    a0 = _mm256_fmadd_ps(weight, _mm256_broadcast_ss(p + j), a0)
                    a1 = _mm256_fmadd_ps(weight, _mm256_broadcast_ss(p + (j &+ step)), a1)
                    a2 = _mm256_fmadd_ps(weight, _mm256_broadcast_ss(p + (j &+ 2 &* step)), a2)
                    a3 = _mm256_fmadd_ps(weight, _mm256_broadcast_ss(p + (j &+ 3 &* step)), a3)
                }
            }
            if relu {
                a0 = _mm256_max_ps(a0, zero); a1 = _mm256_max_ps(a1, zero); a2 = _mm256_max_ps(a2, zero); a3 = _mm256_max_ps(a3, zero)
            }
            let target = outputRow + (ox &* storedOutputs &+ channel)
            _mm256_storeu_ps(target, a0)
            _mm256_storeu_ps(target + storedOutputs, a1)
            _mm256_storeu_ps(target + 2 &* storedOutputs, a2)
            _mm256_storeu_ps(target + 3 &* storedOutputs, a3)
            ox &+= 4
        }
        while ox < outputWidth {
            var a0 = start
            for ky in 0..<3 {
                let p = rowBase + ky &* inputRow + ox &* step
                let w = weights + ky &* run &* 8
                for j in 0..<run { a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + j &* 8), _mm256_broadcast_ss(p + j), a0) }
            }
            if relu { a0 = _mm256_max_ps(a0, zero) }
            _mm256_storeu_ps(outputRow + (ox &* storedOutputs &+ channel), a0)
            ox &+= 1
        }
    }
}
#endif
