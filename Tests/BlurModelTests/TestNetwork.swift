import Foundation

/// A network described the way the JSON describes it, with random weights, and its logit computed
/// plainly in Double (channel-first, one product at a time): the yardstick for the packed loops.
struct TestNetwork {
    /// One layer.
    enum Layer {
        /// A 3x3 convolution, PyTorch's `[out][in][3][3]` weights.
        case convolution(inputs: Int, outputs: Int, stride: Int, relu: Bool, weights: [Float], bias: [Float])
        /// The spatial mean of each channel.
        case globalAverage
        /// A dense layer, `[out][in]` weights.
        case dense(inputs: Int, outputs: Int, relu: Bool, weights: [Float], bias: [Float])
    }

    /// The tile side.
    var tileSize: Int
    /// The smallest standard deviation divided by.
    var stdFloor = 2.0
    /// Tiles evaluated.
    var maxTiles = 16
    /// Tiles pooled.
    var poolSharpest = 3
    /// The layers.
    var layers: [Layer]

    /// Random weights for convolutions `(inputs, outputs, stride)`, a global average and dense
    /// layers of `hidden` then one output.
    init(tileSize: Int, convolutions: [(Int, Int, Int)], hidden: [Int] = [], seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func values(_ count: Int, scale: Double) -> [Float] {
            (0..<count).map { _ in Float(Double.random(in: -scale...scale, using: &random)) }
        }
        self.tileSize = tileSize
        layers = convolutions.map { inputs, outputs, stride in
            .convolution(
                inputs: inputs, outputs: outputs, stride: stride, relu: true,
                weights: values(outputs * inputs * 9, scale: (6.0 / Double(inputs * 9)).squareRoot()), bias: values(outputs, scale: 0.1)
            )
        }
        layers.append(.globalAverage)
        var inputs = convolutions.last?.1 ?? 1
        for outputs in hidden + [1] {
            layers.append(.dense(inputs: inputs, outputs: outputs, relu: outputs != 1, weights: values(inputs * outputs, scale: (3.0 / Double(inputs)).squareRoot()), bias: values(outputs, scale: 0.1)))
            inputs = outputs
        }
    }

    /// The model JSON (models/blur/SPEC.md).
    var json: String {
        func base64(_ values: [Float]) -> String {
            var bytes: [UInt8] = []
            for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
            return Data(bytes).base64EncodedString()
        }
        let described: [[String: Any]] = layers.map { layer in
            switch layer {
            case .convolution(let inputs, let outputs, let stride, let relu, let weights, let bias):
                ["type": "conv3x3", "in": inputs, "out": outputs, "stride": stride, "relu": relu, "weights": base64(weights), "bias": base64(bias)]
            case .globalAverage:
                ["type": "global_average"]
            case .dense(let inputs, let outputs, let relu, let weights, let bias):
                ["type": "dense", "in": inputs, "out": outputs, "relu": relu, "weights": base64(weights), "bias": base64(bias)]
            }
        }
        let document: [String: Any] = [
            "format": "photo-validator-blur-model", "version": "test", "seed": 1, "tile_size": tileSize, "std_floor": stdFloor,
            "max_tiles": maxTiles, "pool_sharpest": poolSharpest, "threshold_room": 0.5, "threshold_inspiration": 0.6, "layers": described,
            "training": ["note": "test"],
        ]
        let data = try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The logit of a tile of `tileSize^2` samples, in Double.
    func logit(tile: [UInt8]) -> Double {
        let count = Double(tile.count)
        let mean = tile.reduce(0.0) { $0 + Double($1) } / count
        let deviation = (tile.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / count).squareRoot()
        // The tile as the model sees it: each value rounded to Float, as SPEC says.
        var activations = tile.map { Double(Float((Double($0) - mean) / max(deviation, stdFloor))) }
        var side = tileSize, channels = 1
        for layer in layers {
            switch layer {
            case .convolution(let inputs, let outputs, let stride, let relu, let weights, let bias):
                let outputSide = (side - 3) / stride + 1
                var next = [Double](repeating: 0, count: outputs * outputSide * outputSide)
                for output in 0..<outputs {
                    for oy in 0..<outputSide {
                        for ox in 0..<outputSide {
                            var sum = Double(bias[output])
                            for input in 0..<inputs {
                                for ky in 0..<3 {
                                    for kx in 0..<3 {
                                        sum += Double(weights[((output * inputs + input) * 3 + ky) * 3 + kx])
                                            * activations[(input * side + oy * stride + ky) * side + ox * stride + kx]
                                    }
                                }
                            }
                            next[(output * outputSide + oy) * outputSide + ox] = relu ? max(sum, 0) : sum
                        }
                    }
                }
                activations = next
                side = outputSide
                channels = outputs
            case .globalAverage:
                let positions = side * side
                activations = (0..<channels).map { channel in activations[(channel * positions)..<((channel + 1) * positions)].reduce(0, +) / Double(positions) }
            case .dense(let inputs, let outputs, let relu, let weights, let bias):
                activations = (0..<outputs).map { output in
                    let sum = (0..<inputs).reduce(Double(bias[output])) { $0 + Double(weights[output * inputs + $1]) * activations[$1] }
                    return relu ? max(sum, 0) : sum
                }
            }
        }
        return activations[0]
    }
}
