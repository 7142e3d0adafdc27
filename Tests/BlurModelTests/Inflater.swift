/// DEFLATE (RFC 1951) decompression: stored, fixed and dynamic Huffman blocks; enough to read
/// the parity fixture's PNG in the test without a C library.
struct Inflater {
    /// The compressed bytes.
    private let input: [UInt8]
    /// The next bit to read.
    private var bit = 0

    /// Why the stream could not be read.
    struct Corrupt: Error {}

    /// A Huffman code as counts per length and symbols in canonical order.
    private struct Huffman {
        /// Codes of each length, 0...15.
        var counts = [Int](repeating: 0, count: 16)
        /// Symbols ordered by code.
        var symbols: [Int] = []

        /// The canonical code of `lengths`.
        init(_ lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    /// A reader of `input` (raw DEFLATE, no zlib header).
    init(_ input: [UInt8]) {
        self.input = input
    }

    /// The next `count` bits, least significant first.
    private mutating func bits(_ count: Int) throws -> Int {
        var value = 0
        for index in 0..<count {
            guard bit >> 3 < input.count else { throw Corrupt() }
            value |= Int(input[bit >> 3] >> (bit & 7) & 1) << index
            bit += 1
        }
        return value
    }

    /// The next symbol of `code`.
    private mutating func decode(_ code: Huffman) throws -> Int {
        var value = 0, first = 0, index = 0
        for length in 1..<16 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw Corrupt()
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The whole decompressed stream.
    mutating func inflate() throws -> [UInt8] {
        var output: [UInt8] = []
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0:
                bit = (bit + 7) & ~7
                let length = try bits(16)
                _ = try bits(16)
                for _ in 0..<length { output.append(UInt8(try bits(8))) }
            case 1:
                let lengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
                try block(&output, literals: Huffman(lengths), distances: Huffman([Int](repeating: 5, count: 30)))
            case 2:
                let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeCount = try bits(4) + 4
                var codeLengths = [Int](repeating: 0, count: 19)
                for index in 0..<codeCount { codeLengths[Self.codeLengthOrder[index]] = try bits(3) }
                let lengthCode = Huffman(codeLengths)
                var lengths: [Int] = []
                while lengths.count < literalCount + distanceCount {
                    let symbol = try decode(lengthCode)
                    switch symbol {
                    case 0..<16: lengths.append(symbol)
                    case 16:
                        guard let previous = lengths.last else { throw Corrupt() }
                        lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
                    default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
                    }
                }
                try block(&output, literals: Huffman(Array(lengths[0..<literalCount])), distances: Huffman(Array(lengths[literalCount...])))
            default:
                throw Corrupt()
            }
        }
        return output
    }

    /// One Huffman-coded block appended to `output`.
    private mutating func block(_ output: inout [UInt8], literals: Huffman, distances: Huffman) throws {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < Self.lengthBase.count else { throw Corrupt() }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let distanceSymbol = try decode(distances)
                guard distanceSymbol < Self.distanceBase.count else { throw Corrupt() }
                let distance = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw Corrupt() }
                for _ in 0..<length { output.append(output[output.count - distance]) }
            }
        }
    }
}
