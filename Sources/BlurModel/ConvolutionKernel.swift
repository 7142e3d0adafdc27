/// The baseline loops of a 3x3 convolution over channel-last activations (SSE at the `nehalem`
/// target on x86-64): eight output channels in one vector, four output positions at once, so each
/// weight vector loaded serves four positions. Products and sums are separate (no FMA on the
/// baseline CPU), so the last bits differ from the AVX2 loops, never more than float rounding.
enum ConvolutionKernel {
    /// Writes `outputWidth` x `outputHeight` positions of `storedOutputs` channels to `output` from
    /// the activations at `input` (`inputWidth` wide, `storedInputs` channels), with the weights and
    /// bias in `ConvolutionLayer`'s layout.
    @inline(never)
    static func convolve(
        input: UnsafePointer<Float>, inputWidth: Int, storedInputs: Int,
        output: UnsafeMutablePointer<Float>, outputWidth: Int, outputHeight: Int, storedOutputs: Int,
        stride: Int, relu: Bool, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>
    ) {
        typealias Vector = SIMD8<Float>
        // One kernel row: three neighbouring positions of every input channel, contiguous in
        // both the activations and the weights.
        let run = 3 &* storedInputs
        let step = stride &* storedInputs
        let inputRow = inputWidth &* storedInputs
        let blocks = storedOutputs / 8
        let zero = Vector(repeating: 0)
        for oy in 0..<outputHeight {
            let rowBase = input + oy &* stride &* inputRow
            let outputRow = output + oy &* outputWidth &* storedOutputs
            for block in 0..<blocks {
                let blockWeights = weights + block &* 9 &* storedInputs &* 8
                let start = UnsafeRawPointer(bias + block &* 8).loadUnaligned(as: Vector.self)
                var ox = 0
                while ox &+ 4 <= outputWidth {
                    var a0 = start, a1 = start, a2 = start, a3 = start
                    for ky in 0..<3 {
                        let p = rowBase + ky &* inputRow + ox &* step
                        let w = blockWeights + ky &* run &* 8
                        for j in 0..<run {
                            let weight = UnsafeRawPointer(w + j &* 8).loadUnaligned(as: Vector.self)
                            a0 += weight * Vector(repeating: p[j])
                            a1 += weight * Vector(repeating: p[j &+ step])
                            a2 += weight * Vector(repeating: p[j &+ 2 &* step])
                            a3 += weight * Vector(repeating: p[j &+ 3 &* step])
                        }
                    }
                    if relu {
                        a0 = a0.replacing(with: zero, where: a0 .< zero)
                        a1 = a1.replacing(with: zero, where: a1 .< zero)
                        a2 = a2.replacing(with: zero, where: a2 .< zero)
                        a3 = a3.replacing(with: zero, where: a3 .< zero)
                    }
                    let offset: Int = ox &* storedOutputs &+ block &* 8
                    let target = UnsafeMutableRawPointer(outputRow + offset)
                    let positionBytes = storedOutputs &* 4
                    target.storeBytes(of: a0, as: Vector.self)
                    (target + positionBytes).storeBytes(of: a1, as: Vector.self)
                    (target + 2 &* positionBytes).storeBytes(of: a2, as: Vector.self)
                    (target + 3 &* positionBytes).storeBytes(of: a3, as: Vector.self)
                    ox &+= 4
                }
                while ox < outputWidth {
                    var a0 = start
                    for ky in 0..<3 {
                        let p = rowBase + ky &* inputRow + ox &* step
                        let w = blockWeights + ky &* run &* 8
                        for j in 0..<run {
                            a0 += UnsafeRawPointer(w + j &* 8).loadUnaligned(as: Vector.self) * Vector(repeating: p[j])
                        }
                    }
                    if relu { a0 = a0.replacing(with: zero, where: a0 .< zero) }
                    let offset: Int = ox &* storedOutputs &+ block &* 8
                    UnsafeMutableRawPointer(outputRow + offset).storeBytes(of: a0, as: Vector.self)
                    ox &+= 1
                }
            }
        }
    }
}
