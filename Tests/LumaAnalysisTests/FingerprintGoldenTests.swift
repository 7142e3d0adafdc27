import BlurMetrics
import LumaAnalysis
import TestFixtures
import Testing

/// The fingerprint is stored by the daemon and the shared store and compared with fingerprints
/// made by earlier builds: any change to how it is computed must leave its bytes as they were
/// (or bump `PhotoFingerprint.version`). These planes take every path of the computation.
@Suite("The fingerprint's bytes stay those of earlier builds")
struct FingerprintGoldenTests {
    /// Plane shapes and the FNV-1a of their fingerprints' bytes, recorded before the fingerprint's speed-ups of issue 51.
    static let golden: [(width: Int, height: Int, seed: UInt32, hash: String)] = [
        (640, 480, 1, "ff83a48d756225d"), (1024, 768, 2, "dcf3fb9f005e9863"), (1031, 1030, 3, "2d90032b5fb78f00"),
        (2047, 1537, 4, "e8f5ea66aa5f019f"), (1500, 1001, 5, "b9c468385c1a3135"), (479, 641, 6, "58d894653d9d99e8"),
        (5000, 300, 7, "be059bd9ac5a0212"), (300, 4300, 8, "cd13c438b08f26bc"), (9000, 1100, 9, "d19b5f214d27b7a9"),
        (17, 17, 10, "e1a7d74b70b4c741"), (40, 900, 11, "1f3fd13dd9c89eaa"), (523, 515, 12, "e4b738a74b4e0f74"),
        (2600, 1950, 13, "1a5f61524ecf4c6c"),
    ]

    @Test("synthetic planes of every shape give the recorded bytes")
    func syntheticPlanes() {
        var printed: [String] = []
        for shape in Self.golden {
            let plane = TestScenes.shapes(width: shape.width, height: shape.height, seed: shape.seed)
            let hash = FNV1a.hex(PhotoFingerprint(of: plane).bytes)
            printed.append("(\(shape.width), \(shape.height), \(shape.seed), \"\(hash)\"),")
            #expect(shape.hash == hash, "\(shape.width)x\(shape.height) seed \(shape.seed)")
        }
        // The table as this build makes it, for a deliberate change of the fingerprint (with its version).
        if printed != Self.golden.map({ "(\($0.width), \($0.height), \($0.seed), \"\($0.hash)\")," }) { print(printed.joined(separator: "\n")) }
    }
}
