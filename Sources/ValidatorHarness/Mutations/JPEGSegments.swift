/// The marker segments of a JPEG file, with the entropy-coded data after each start of scan as
/// a segment of its own.
package struct JPEGSegments: Sendable {
    /// One segment: a marker's bytes (`FF xx` and its payload) or a scan's entropy-coded data.
    package struct Segment: Sendable, Equatable {
        /// What the segment is.
        package enum Kind: Sendable, Equatable {
            /// A marker segment, by its second byte.
            case marker(UInt8)
            /// Entropy-coded data of a first-pass scan.
            case scan
            /// Entropy-coded data of a progressive refinement scan (raw correction bits).
            case refinementScan
        }

        /// The segment's kind.
        package let kind: Kind
        /// Its byte range in the file.
        package let range: Range<Int>
    }

    /// The start-of-frame markers (baseline, extended, progressive, lossless, arithmetic).
    package static let startOfFrameMarkers: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]

    /// The segments in file order, up to the end-of-image marker or the first byte that is not one.
    package let segments: [Segment]

    /// Walks the segments of `data`.
    package init(_ data: [UInt8]) {
        var out: [Segment] = []
        var i = 2
        while i + 4 <= data.count, data[i] == 0xFF {
            let marker = data[i + 1]
            if marker == 0xD9 {
                out.append(Segment(kind: .marker(marker), range: i..<(i + 2)))
                break
            }
            if marker == 0xFF {
                i += 1
                continue
            }
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            let end = i + 2 + length
            out.append(Segment(kind: .marker(marker), range: i..<min(end, data.count)))
            if marker == 0xDA {
                let components = i + 4 < data.count ? Int(data[i + 4]) : 0
                let spectral = i + 4 + 1 + 2 * components + 2
                let refinement = spectral < data.count && data[spectral] >> 4 != 0
                var j = end
                // The scan runs to the next marker that is neither a stuffed zero nor a restart.
                while j + 1 < data.count, !(data[j] == 0xFF && data[j + 1] != 0 && !(0xD0...0xD7).contains(data[j + 1])) {
                    j += 1
                }
                if end <= j { out.append(Segment(kind: refinement ? .refinementScan : .scan, range: end..<j)) }
                i = j
            } else {
                i = end
            }
        }
        segments = out
    }

    /// The largest first-pass scan: refinement scans carry raw correction bits, where overwritten
    /// bytes can be as valid as the originals.
    package var largestScan: Range<Int>? {
        segments.filter { $0.kind == .scan }.max { $0.range.count < $1.range.count }?.range
    }

    /// The offset of the start-of-frame marker.
    package var startOfFrame: Int? {
        segments.first { if case .marker(let m) = $0.kind { Self.startOfFrameMarkers.contains(m) } else { false } }?.range.lowerBound
    }
}
