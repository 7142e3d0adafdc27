import BlurMetrics
import Foundation

/// A compact description of a photo that survives what happens to it between two uploads
/// (resizing, re-compression, rotation, a small crop, a brightness change, a border), compared
/// within one project by the duplicate check.
public struct PhotoFingerprint: Sendable, Equatable {
    /// The layout version; a fingerprint of another version never matches.
    public static let version: UInt8 = 1
    /// The global hash of the plane in each of its four rotations (0, 90, 180, 270 degrees).
    public let rotationHashes: [UInt64]

    /// The fingerprint of `plane`.
    public init(of plane: LumaPlane) {
        rotationHashes = DCTHash.rotationHashes(of: plane)
    }

    /// A fingerprint from its parts, for tests and tools.
    public init(rotationHashes: [UInt64]) {
        precondition(rotationHashes.count == 4, "a fingerprint has one hash per rotation")
        self.rotationHashes = rotationHashes
    }

    /// The fingerprint as base64 (`details.fingerprint`).
    public var base64: String {
        var bytes: [UInt8] = [Self.version]
        for hash in rotationHashes {
            withUnsafeBytes(of: hash.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Data(bytes).base64EncodedString()
    }

    /// The fingerprint `base64` encodes, or nil when it is not one of this version.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64), data.count == 33, data.first == Self.version else { return nil }
        let bytes = [UInt8](data)
        rotationHashes = (0..<4).map { rotation in
            (0..<8).reduce(UInt64(0)) { hash, index in hash | UInt64(bytes[1 + rotation * 8 + index]) << (8 * index) }
        }
    }

    /// The fewest differing hash bits between this photo and `other` in any rotation of `other`.
    public func distance(to other: PhotoFingerprint) -> Int {
        other.rotationHashes.map { ($0 ^ rotationHashes[0]).nonzeroBitCount }.min() ?? 64
    }

    /// Whether `other` is the same photo, within `maximumDistance` differing bits.
    public func matches(_ other: PhotoFingerprint, maximumDistance: Int = PhotoFingerprint.defaultMaximumDistance) -> Bool {
        distance(to: other) <= maximumDistance
    }

    /// The differing bits up to which two photos are the same photo. `tune --check duplicates` on the
    /// labelled pairs (testdata/DUPLICATES.md) recommends 13 from its tuning part, but the held part,
    /// re-shots of one office seconds apart, has 1.3% false duplicates at 4 and 1.9% at 13: kept low.
    public static let defaultMaximumDistance = 4
}
