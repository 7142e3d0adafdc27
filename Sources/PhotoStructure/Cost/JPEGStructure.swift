#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a JPEG's marker structure asks of a decoder, read up to the first end-of-image marker
/// (a phone's multi-picture file carries more images after it, which no decoder here reads).
struct JPEGStructure: Equatable {
    /// Marker segments with a length (APPn, DQT, DHT, SOF, SOS, ...).
    var segments = 0
    /// Start-of-scan markers: each is one pass over every block of its components.
    var scans = 0
    /// Bytes in APPn and COM segments.
    var metadataBytes = 0

    /// Reads the structure of `bytes` (which start with SOI), stopping early once a cap in `caps`
    /// is passed. Linear in the bytes: entropy-coded data is skipped with `memchr`.
    init(_ bytes: UnsafeRawBufferPointer, stoppingPast caps: DecodeCostCaps) {
        guard let base = bytes.baseAddress, bytes.count >= 4 else { return }
        let count = bytes.count
        var position = 2
        while position + 1 < count {
            guard bytes[position] == 0xFF else { return }
            var marker = bytes[position + 1]
            position += 2
            // Fill bytes before a marker.
            while marker == 0xFF, position < count {
                marker = bytes[position]
                position += 1
            }
            switch marker {
            case 0xD9:
                return
            case 0x01, 0xD0...0xD7:
                continue
            default:
                guard position + 1 < count else { return }
                let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
                // A segment that runs past the file is damage, not cost: the decoder reports it.
                guard length <= count - position else { return }
                segments += 1
                if marker == 0xFE || (0xE0...0xEF).contains(marker) {
                    metadataBytes += length
                }
                position += length
                if segments > caps.jpegSegments || metadataBytes > caps.metadataBytes { return }
                guard marker == 0xDA else { continue }
                scans += 1
                if scans > caps.jpegScans { return }
                // Entropy-coded data up to the next marker that is not a stuffed byte or a restart.
                while position < count {
                    guard let found = memchr(base + position, 0xFF, count - position) else { return }
                    let at = base.distance(to: UnsafeRawPointer(found))
                    guard at + 1 < count else { return }
                    let next = bytes[at + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                        position = at + 1
                        continue
                    }
                    position = at
                    break
                }
            }
        }
    }

    /// Why the structure is past a cap, or nil.
    func refusal(_ caps: DecodeCostCaps) -> String? {
        if segments > caps.jpegSegments {
            return "the JPEG has more than \(caps.jpegSegments) marker segments (a camera writes about 20; decode.max_jpeg_segments)"
        }
        if metadataBytes > caps.metadataBytes {
            return "the JPEG carries more than \(caps.metadataBytes >> 20) MiB of metadata segments (decode.max_metadata_mib)"
        }
        if scans > caps.jpegScans {
            return "the JPEG has more than \(caps.jpegScans) progressive scans (an encoder writes about 10; decode.max_jpeg_scans)"
        }
        return nil
    }
}
