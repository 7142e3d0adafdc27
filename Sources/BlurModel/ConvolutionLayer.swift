/// A 3x3 convolution with no padding, its weights repacked at load into the layout the loops read:
/// blocks of eight output channels, and in each block, for each kernel row, column and input
/// channel, the eight weights of the block side by side (`[block][ky][kx][input][8]`).
/// Activations are channel-last (`[y][x][channel]`) with the channel count rounded up to eight;
/// the extra channels hold zeros.
struct ConvolutionLayer: Sendable {
    /// Input channels as stored in the activations (1 for the tile, else a multiple of eight).
    let storedInputs: Int
    /// Output channels as the JSON gives them.
    let outputs: Int
    /// Output channels as stored: `outputs` rounded up to eight.
    let storedOutputs: Int
    /// The step between the positions the kernel reads.
    let stride: Int
    /// Whether negative outputs become zero.
    let relu: Bool
    /// The repacked weights.
    let packedWeights: [Float]
    /// The bias, zero past `outputs`.
    let packedBias: [Float]

    /// Repacks PyTorch's `[out][in][3][3]` weights for activations that store `storedInputs` channels.
    init(inputs: Int, storedInputs: Int, outputs: Int, stride: Int, relu: Bool, weights: [Float], bias: [Float]) throws {
        guard inputs > 0, outputs > 0, stride > 0, inputs <= storedInputs else {
            throw BlurModelError.invalid("conv3x3 needs positive sizes and stride")
        }
        guard weights.count == outputs * inputs * 9, bias.count == outputs else {
            throw BlurModelError.invalid("conv3x3 \(inputs)->\(outputs) has \(weights.count) weights and \(bias.count) biases")
        }
        self.storedInputs = storedInputs
        self.outputs = outputs
        self.storedOutputs = (outputs + 7) / 8 * 8
        self.stride = stride
        self.relu = relu
        var packed = [Float](repeating: 0, count: storedOutputs * 9 * storedInputs)
        for output in 0..<outputs {
            let block = output / 8, lane = output % 8
            for input in 0..<inputs {
                for ky in 0..<3 {
                    for kx in 0..<3 {
                        let target = ((block * 9 + ky * 3 + kx) * storedInputs + input) * 8 + lane
                        packed[target] = weights[((output * inputs + input) * 3 + ky) * 3 + kx]
                    }
                }
            }
        }
        packedWeights = packed
        packedBias = bias + [Float](repeating: 0, count: storedOutputs - outputs)
    }

    /// The output side for an input side `size`: `(size - 3) / stride + 1`, or 0 when under 3.
    func outputSize(_ size: Int) -> Int {
        size < 3 ? 0 : (size - 3) / stride + 1
    }

    /// Multiply-adds for an input of `width` x `height`, as the JSON's sizes count them.
    func multiplyAdds(width: Int, height: Int, inputs: Int) -> Int {
        outputSize(width) * outputSize(height) * outputs * inputs * 9
    }
}
