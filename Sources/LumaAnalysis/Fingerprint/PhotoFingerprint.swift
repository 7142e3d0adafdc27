import BlurMetrics
import Foundation

/// A compact description of a photo that survives what happens to it between two uploads
/// (resizing, re-compression, rotation, a small crop, a brightness change, a border), compared
/// within one project by the duplicate check: a global hash of each quarter turn, which finds a
/// resized, re-compressed or turned copy at once, and local features, which find a cropped or
/// framed one and tell it from another shot of the same room.
public struct PhotoFingerprint: Sendable, Equatable {
    /// The layout version; a fingerprint of another version never matches.
    public static let version: UInt8 = 2
    /// The global hash of the plane in each of its four rotations (0, 90, 180, 270 degrees).
    public let rotationHashes: [UInt64]
    /// Keypoints and descriptors of the plane.
    public let features: LocalFeatures

    /// The fingerprint of `plane`.
    public init(of plane: LumaPlane) {
        rotationHashes = DCTHash.rotationHashes(of: plane)
        features = LocalFeatures(of: plane)
    }

    /// A fingerprint from its parts, for tests and tools.
    public init(rotationHashes: [UInt64], features: LocalFeatures) {
        precondition(rotationHashes.count == 4, "a fingerprint has one hash per rotation")
        self.rotationHashes = rotationHashes
        self.features = features
    }

    /// The fingerprint as base64 (`details.fingerprint`): the version, the four hashes as
    /// little-endian 64-bit words, then the features' own bytes (`LocalFeatures.bytes`).
    public var base64: String {
        var bytes: [UInt8] = [Self.version]
        for hash in rotationHashes {
            withUnsafeBytes(of: hash.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes += features.bytes
        return Data(bytes).base64EncodedString()
    }

    /// The fingerprint `base64` encodes, or nil when it is not one of this version.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64), data.count > 33, data.first == Self.version else { return nil }
        let bytes = [UInt8](data)
        guard let features = LocalFeatures(bytes: Array(bytes[33...])) else { return nil }
        self.features = features
        rotationHashes = (0..<4).map { rotation in
            (0..<8).reduce(UInt64(0)) { hash, index in hash | UInt64(bytes[1 + rotation * 8 + index]) << (8 * index) }
        }
    }

    /// The fewest differing hash bits between this photo and `other` in any rotation of `other`.
    public func distance(to other: PhotoFingerprint) -> Int {
        other.rotationHashes.map { ($0 ^ rotationHashes[0]).nonzeroBitCount }.min() ?? 64
    }

    /// The hash distance and the feature agreement between this (earlier) photo and `other`.
    public func evidence(against other: PhotoFingerprint) -> DuplicateEvidence {
        let agreement = features.agreement(with: other.features)
        return DuplicateEvidence(hashDistance: distance(to: other), inliers: agreement.inliers, inlierShare: agreement.share)
    }

    /// Whether `other` is the same photo under `rule`.
    public func matches(_ other: PhotoFingerprint, rule: DuplicateRule = .default) -> Bool {
        rule.isDuplicate(self, other)
    }
}
