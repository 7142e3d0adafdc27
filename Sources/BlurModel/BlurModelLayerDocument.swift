import Foundation

/// One layer of the model JSON: its kind (`type`; `kind` or `op` are read too), sizes and the
/// base64 float32 little-endian weights and bias in PyTorch's layout.
struct BlurModelLayerDocument: Decodable {
    /// `conv3x3`, `global_average` or `dense`.
    var type: String
    /// Input channels (conv3x3, dense).
    var inputs: Int?
    /// Output channels (conv3x3, dense).
    var outputs: Int?
    /// The convolution's stride.
    var stride: Int?
    /// Whether a ReLU follows.
    var relu: Bool?
    /// The weights, decoded.
    var weights: [Float]?
    /// The bias, decoded.
    var bias: [Float]?

    private enum CodingKeys: String, CodingKey {
        case type, kind, op, stride, relu, weights, bias
        case inputs = "in"
        case outputs = "out"
    }

    /// Reads a layer, decoding its base64 arrays.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let type = try container.decodeIfPresent(String.self, forKey: .type)
            ?? container.decodeIfPresent(String.self, forKey: .kind)
            ?? container.decodeIfPresent(String.self, forKey: .op)
        else {
            throw BlurModelError.unreadable("a layer has no type")
        }
        self.type = type
        inputs = try container.decodeIfPresent(Int.self, forKey: .inputs)
        outputs = try container.decodeIfPresent(Int.self, forKey: .outputs)
        stride = try container.decodeIfPresent(Int.self, forKey: .stride)
        relu = try container.decodeIfPresent(Bool.self, forKey: .relu)
        weights = try container.decodeIfPresent(String.self, forKey: .weights).map { try Self.floats(base64: $0) }
        bias = try container.decodeIfPresent(String.self, forKey: .bias).map { try Self.floats(base64: $0) }
    }

    /// The float32 little-endian values that `base64` encodes.
    static func floats(base64: String) throws -> [Float] {
        guard let data = Data(base64Encoded: base64), data.count % 4 == 0 else {
            throw BlurModelError.unreadable("weights are not base64 float32")
        }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }
}
