import BlurMetrics
import Foundation

/// A compact description of a photo that survives what happens to it between two uploads
/// (resizing, re-compression, rotation, a small crop, a brightness change, a border), compared
/// within one project by the duplicate check: a global hash of each quarter turn, which finds a
/// resized, re-compressed or turned copy at once; local features, which align a cropped or framed
/// copy; and a thumbnail, whose fine detail after that alignment tells a copy from another shot
/// of the same room.
public struct PhotoFingerprint: Sendable, Equatable {
    /// The layout version; a fingerprint of another version never matches.
    public static let version: UInt8 = 3
    /// The keypoints a fingerprint keeps, spread over the frame (`OrbExtractor.spreadSelection`),
    /// of the 256 (more with ties) the extractor finds: `LocalFeatures.maximumCount`.
    public static let keptKeypoints = LocalFeatures.maximumCount
    /// The most bytes a fingerprint is before base64: the version, the four hashes, the features'
    /// length, `keptKeypoints` features and the largest thumbnail (7,736 bytes), whatever the photo.
    public static let maximumByteCount = 1 + 4 * 8 + 4 + LocalFeatures.byteCount(keypoints: keptKeypoints) + PlaneThumbnail.maximumByteCount
    /// The most characters (UTF-8 bytes) `base64` is for any photo; `init?(base64:)` refuses a longer string.
    public static let maximumEncodedBytes = (maximumByteCount + 2) / 3 * 4
    /// The global hash of the plane in each of its four rotations (0, 90, 180, 270 degrees).
    public let rotationHashes: [UInt64]
    /// Keypoints and descriptors of the plane.
    public let features: LocalFeatures
    /// The fine detail of the features' detection plane, box-averaged by 4 and coded in two bits a cell.
    public let thumbnail: PlaneThumbnail

    /// The fingerprint of `plane`.
    public init(of plane: LumaPlane) {
        self.init(of: plane, path: .best)
    }

    /// The fingerprint of `plane`, its local features found by the loops of `path` (the same bytes).
    init(of plane: LumaPlane, path: KernelPath) {
        let detectionPlane: LumaPlane?
        // A plane the features halve is read once for the halving and the hash's quarter plane together.
        if min(plane.width, plane.height) >= 2 * LocalFeatures.detectionSide, let both = PlaneResampling.halvedAndQuartered(plane, path: path) {
            rotationHashes = DCTHash.rotationHashes(ofQuarter: both.quarter)
            detectionPlane = LocalFeatures.detectionPlane(of: both.half, path: path)
        } else {
            rotationHashes = DCTHash.rotationHashes(of: plane)
            detectionPlane = LocalFeatures.detectionPlane(of: plane, path: path)
        }
        features = LocalFeatures(detectionPlane: detectionPlane, path: path)
        thumbnail = PlaneThumbnail(detectionPlane: detectionPlane)
    }

    /// The fingerprint as base64 (`details.fingerprint`): the version, the four hashes as
    /// little-endian 64-bit words, the features' byte count (UInt32, little-endian) and bytes
    /// (`LocalFeatures.bytes`), then the thumbnail's (`PlaneThumbnail.bytes`).
    public var base64: String {
        Data(bytes).base64EncodedString()
    }

    /// The fingerprint as bytes, what the daemon stores: the layout `base64` encodes.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = [Self.version]
        for hash in rotationHashes {
            withUnsafeBytes(of: hash.littleEndian) { bytes.append(contentsOf: $0) }
        }
        let featureBytes = features.bytes
        withUnsafeBytes(of: UInt32(featureBytes.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes += featureBytes
        bytes += thumbnail.bytes
        return bytes
    }

    /// The fingerprint `base64` encodes, or nil when it is not one of this version or is not one a
    /// photo can have (longer than `maximumEncodedBytes`, more keypoints or a larger thumbnail than
    /// any photo gives), so comparing any two fingerprints it returns costs a bounded time.
    public init?(base64: String) {
        guard base64.utf8.count <= Self.maximumEncodedBytes, let data = Data(base64Encoded: base64) else { return nil }
        self.init(bytes: [UInt8](data))
    }

    /// The fingerprint `bytes` lays out (`bytes`), or nil when it is not one of this version or
    /// is not one a photo can have, as for `init?(base64:)`.
    public init?(bytes: [UInt8]) {
        guard bytes.count > 37, bytes.count <= Self.maximumByteCount, bytes[0] == Self.version else { return nil }
        let featureCount = (0..<4).reduce(0) { $0 | Int(bytes[33 + $1]) << (8 * $1) }
        guard featureCount <= bytes.count - 37, let features = LocalFeatures(bytes: Array(bytes[37..<(37 + featureCount)])),
              features.count <= Self.keptKeypoints, let thumbnail = PlaneThumbnail(bytes: bytes[(37 + featureCount)...]) else { return nil }
        self.features = features
        self.thumbnail = thumbnail
        rotationHashes = (0..<4).map { rotation in
            (0..<8).reduce(UInt64(0)) { hash, index in hash | UInt64(bytes[1 + rotation * 8 + index]) << (8 * index) }
        }
    }

    /// The fewest differing hash bits between this photo and `other` in any rotation of `other`.
    public func distance(to other: PhotoFingerprint) -> Int {
        // A loop, not a mapped array: the screen asks this of every earlier photo.
        var fewest = 64
        for hash in other.rotationHashes { fewest = min(fewest, (hash ^ rotationHashes[0]).nonzeroBitCount) }
        return fewest
    }

    /// The hash distance, the feature agreement and the aligned thumbnails' correlation between
    /// this (earlier) photo and `other`.
    public func evidence(against other: PhotoFingerprint) -> DuplicateEvidence {
        let alignment = features.alignment(with: other.features)
        let correlation = alignment.transform.map { thumbnail.correlation(with: other.thumbnail, transform: $0) } ?? 0
        return DuplicateEvidence(hashDistance: distance(to: other), inliers: alignment.inliers, inlierShare: alignment.share, correlation: correlation,
                                 detail: min(thumbnail.detailedCells, other.thumbnail.detailedCells))
    }

    /// Whether `other` is the same photo under `rule`: `rule.isDuplicate(evidence(against: other))`,
    /// without the RANSAC fit when the features have too few matches to decide, nor the thumbnails'
    /// correlation when the fit explains too few of them (the hash decides then, given detail on both sides).
    public func matches(_ other: PhotoFingerprint, rule: DuplicateRule = .default) -> Bool {
        let alignment = features.alignment(with: other.features, needing: rule.minimumInliers)
        guard alignment.inliers >= rule.minimumInliers else {
            return rule.hashDecides(distance(to: other), detail: min(thumbnail.detailedCells, other.thumbnail.detailedCells))
        }
        let correlation = alignment.transform.map { thumbnail.correlation(with: other.thumbnail, transform: $0) } ?? 0
        return correlation >= rule.minimumCorrelation
    }
}
