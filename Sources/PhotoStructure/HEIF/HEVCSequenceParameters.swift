/// The picture size an HEVC sequence parameter set (SPS) declares, read in Swift before any decoder
/// sees it, so that a file whose bitstream claims a larger picture than its container says is
/// refused from the header instead of making the decoder allocate for the claim.
struct HEVCSequenceParameters: Equatable {
    /// The decoded width after the conformance window's crop.
    let width: Int
    /// The decoded height after the conformance window's crop.
    let height: Int
    /// The coded width (`pic_width_in_luma_samples`).
    let codedWidth: Int
    /// The coded height (`pic_height_in_luma_samples`).
    let codedHeight: Int
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    let chromaFormat: Int

    /// Reads an SPS NAL unit (its 2-byte header first), or nil when it is cut short or impossible.
    static func parse(_ nal: some Collection<UInt8>) -> HEVCSequenceParameters? {
        var reader = BitReader(payload: Self.unescaped(nal.dropFirst(2)))
        guard reader.bits(4) != nil, let maxSubLayersMinusOne = reader.bits(3), reader.bits(1) != nil else { return nil }
        guard reader.skipProfileTierLevel(maxSubLayersMinusOne: maxSubLayersMinusOne) else { return nil }
        guard let id = reader.unsignedExpGolomb(), id <= 15, let chromaFormat = reader.unsignedExpGolomb(), chromaFormat <= 3 else {
            return nil
        }
        var separatePlanes = 0
        if chromaFormat == 3 {
            guard let flag = reader.bits(1) else { return nil }
            separatePlanes = flag
        }
        guard let codedWidth = reader.unsignedExpGolomb(), let codedHeight = reader.unsignedExpGolomb(),
              codedWidth > 0, codedHeight > 0, codedWidth <= 1 << 16, codedHeight <= 1 << 16,
              let conformance = reader.bits(1) else {
            return nil
        }
        var width = codedWidth, height = codedHeight
        if conformance == 1 {
            guard let left = reader.unsignedExpGolomb(), let right = reader.unsignedExpGolomb(),
                  let top = reader.unsignedExpGolomb(), let bottom = reader.unsignedExpGolomb() else {
                return nil
            }
            let format = separatePlanes == 1 ? 0 : chromaFormat
            let subWidth = format == 1 || format == 2 ? 2 : 1
            let subHeight = format == 1 ? 2 : 1
            width -= subWidth * (left + right)
            height -= subHeight * (top + bottom)
            guard width > 0, height > 0 else { return nil }
        }
        return HEVCSequenceParameters(
            width: width, height: height, codedWidth: codedWidth, codedHeight: codedHeight,
            chromaFormat: separatePlanes == 1 ? 0 : chromaFormat
        )
    }

    /// The payload with emulation-prevention bytes (0x03 after two zero bytes) removed; only the
    /// first 256 bytes are needed for the fields read here.
    private static func unescaped(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(bytes.count, 256))
        var zeros = 0
        for byte in bytes.prefix(320) {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            output.append(byte)
        }
        return output
    }

    /// An MSB-first bit cursor with Exp-Golomb codes; every read past the end returns nil.
    private struct BitReader {
        let payload: [UInt8]
        var position = 0

        mutating func bits(_ count: Int) -> Int? {
            guard count >= 0, position + count <= payload.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(payload[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }

        mutating func unsignedExpGolomb() -> Int? {
            var zeros = 0
            while true {
                guard let bit = bits(1) else { return nil }
                if bit == 1 { break }
                zeros += 1
                guard zeros <= 31 else { return nil }
            }
            guard let suffix = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + suffix
        }

        /// profile_tier_level(1, maxSubLayersMinus1) of H.265 section 7.3.3.
        mutating func skipProfileTierLevel(maxSubLayersMinusOne: Int) -> Bool {
            // General profile (88 bits) and level (8 bits).
            guard bits(48) != nil, bits(48) != nil else { return false }
            var profilePresent: [Bool] = [], levelPresent: [Bool] = []
            for _ in 0..<maxSubLayersMinusOne {
                guard let profile = bits(1), let level = bits(1) else { return false }
                profilePresent.append(profile == 1)
                levelPresent.append(level == 1)
            }
            if maxSubLayersMinusOne > 0 {
                for _ in maxSubLayersMinusOne..<8 {
                    guard bits(2) != nil else { return false }
                }
            }
            for index in 0..<maxSubLayersMinusOne {
                if profilePresent[index] {
                    guard bits(44) != nil, bits(44) != nil else { return false }
                }
                if levelPresent[index] {
                    guard bits(8) != nil else { return false }
                }
            }
            return true
        }
    }
}
