/// A bounds-checked big-endian cursor over part of an untrusted buffer: every read past the end
/// returns nil instead of trapping, so a hostile box can only make the parse give up.
struct HEIFByteReader {
    private let bytes: UnsafeRawBufferPointer
    /// The next byte to read (an index into the whole buffer).
    private(set) var offset: Int
    /// One past the last byte this reader may read.
    let end: Int

    /// A reader over `range` of `bytes`; nil when the range does not lie inside the buffer.
    init?(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        self.bytes = bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
    }

    /// Bytes left to read.
    var remaining: Int { end - offset }

    /// Reads an unsigned big-endian integer of `width` bytes (0 to 8; 0 reads as 0).
    mutating func uint(_ width: Int) -> Int? {
        guard (0...8).contains(width), remaining >= width else { return nil }
        var value: UInt64 = 0
        for index in 0..<width {
            value = value << 8 | UInt64(bytes[offset + index])
        }
        offset += width
        // Offsets and lengths beyond Int.max cannot address this buffer anyway.
        return value > UInt64(Int.max) ? nil : Int(value)
    }

    /// Reads one byte.
    mutating func uint8() -> Int? { uint(1) }
    /// Reads two bytes.
    mutating func uint16() -> Int? { uint(2) }
    /// Reads four bytes.
    mutating func uint32() -> Int? { uint(4) }

    /// Reads a four-character code.
    mutating func fourCC() -> String? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        return String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    /// Skips `count` bytes; false when fewer remain.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        offset += count
        return true
    }

    /// Reads a box header and returns the box's type and payload range, leaving the reader after
    /// the box; nil when the header or the declared size does not fit.
    mutating func box() -> (type: String, payload: Range<Int>)? {
        let start = offset
        guard var size = uint32(), let type = fourCC() else { return nil }
        if size == 1 {
            guard let large = uint(8) else { return nil }
            size = large
        } else if size == 0 {
            size = end - start
        }
        if type == "uuid", !skip(16) {
            return nil
        }
        guard size >= offset - start, size <= end - start else { return nil }
        let payload = offset..<(start + size)
        offset = start + size
        return (type, payload)
    }

    /// Reads a full box's version and flags.
    mutating func versionAndFlags() -> (version: Int, flags: Int)? {
        guard let version = uint8(), let flags = uint(3) else { return nil }
        return (version, flags)
    }
}
