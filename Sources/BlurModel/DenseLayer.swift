/// A fully connected layer over a vector, in PyTorch's `[out][in]` layout.
struct DenseLayer: Sendable {
    /// Inputs read.
    let inputs: Int
    /// Outputs written.
    let outputs: Int
    /// Whether negative outputs become zero.
    let relu: Bool
    /// `[out][in]` weights.
    let weights: [Float]
    /// `[out]` bias.
    let bias: [Float]

    /// Checks the sizes against the arrays.
    init(inputs: Int, outputs: Int, relu: Bool, weights: [Float], bias: [Float]) throws {
        guard inputs > 0, outputs > 0, weights.count == inputs * outputs, bias.count == outputs else {
            throw BlurModelError.invalid("dense \(inputs)->\(outputs) has \(weights.count) weights and \(bias.count) biases")
        }
        self.inputs = inputs
        self.outputs = outputs
        self.relu = relu
        self.weights = weights
        self.bias = bias
    }

    /// Writes the layer's outputs for the `inputs` values at `input` to `output`.
    func apply(_ input: UnsafePointer<Float>, to output: UnsafeMutablePointer<Float>) {
        weights.withUnsafeBufferPointer { weights in
            for row in 0..<outputs {
                var sum = bias[row]
                let rowWeights = weights.baseAddress! + row * inputs
                for column in 0..<inputs { sum += rowWeights[column] * input[column] }
                output[row] = relu ? max(sum, 0) : sum
            }
        }
    }
}
