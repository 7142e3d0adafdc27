/// The 64-bit FNV-1a hash, for golden tables that pin bytes (the fingerprint's) without holding them.
package enum FNV1a {
    /// The hash of `bytes` in hexadecimal.
    package static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
