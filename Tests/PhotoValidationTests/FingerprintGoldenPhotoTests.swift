import Foundation
import LumaAnalysis
import TestFixtures
import Testing
import PhotoValidation

/// A stored fingerprint is compared with ones later builds make, so making it faster must not
/// change a byte of it: the fingerprints of real photos in every format, as earlier builds made them.
@Suite("The fingerprints of real photos stay those of earlier builds", .integration, .timeLimit(.minutes(10)))
struct FingerprintGoldenPhotoTests {
    /// testdata files and the FNV-1a of their fingerprints' bytes (validated as inspiration),
    /// recorded before the fingerprint's speed-ups of issue 51.
    static let golden: [String: String] = [
        "photos/blur-real-clock-motion.png": "c12c0e6d25a044bd",
        "photos/blur-real-plate-motion.jpg": "57170fb8e6d50240",
        "photos/blur-real-text-defocus.jpg": "4bdcd8040c26ab2a",
        "photos/blur-real-text-motion.jpg": "c2894a0db66902bc",
        "photos/brushes-1365x1074.jpg": "23228efd8e5c09f5",
        "photos/cups.jpg": "e5c0afcb3e180c5f",
        "photos/grass-1280x1024.jpg": "f308db85ac80e444",
        "photos/indoor-ceiling-lamps.jpg": "427ab8dab1aecf4c",
        "photos/outdoor-dandelions-bokeh.jpg": "acb09e0e6cd97b3e",
        "photos/outdoor-path.jpg": "481a0b64c380c06c",
        "photos/room-living-wine.jpg": "558adadf3bc705e9",
        "photos/screenshot-map.png": "b4f101adf06c96ae",
        "photos/small-cat.png": "a219843b94ece1f3",
        "photos/small-coffee.png": "ff88d49a90159429",
        "photos/small-indoor-lab.jpg": "f82c7b107e3b7f42",
        "photos/small-person.png": "c80db1fb9af6e908",
        "variants/cmyk.jpg": "b345eae3298f3e26",
        "variants/deep-16bit-rgb.png": "ff88d49a90159429",
        "variants/deep-16bit.png": "a61f82aef9e93464",
        "variants/edge-1023.jpg": "e02778b4a2005f33",
        "variants/edge-399.jpg": "2ef25437cf39cbed",
        "variants/gray.jpg": "d141d438db6b9ddd",
        "variants/palette.png": "a59d27bf96d8178",
        "variants/rgba.png": "ff88d49a90159429",
        "variants/rotated-3.jpg": "5e336aa0b5daa6ac",
        "variants/rotated-6.jpg": "5e336aa0b5daa6ac",
        "variants/rotated-8.jpg": "5e336aa0b5daa6ac",
        "variants/same-room.heic": "954382439f707cca",
        "variants/same-room.jpg": "b60e9951fe6bf8a5",
        "variants/same-room.png": "ff31f3df52067302",
        "variants/same-room.webp": "cdf566c91d200933",
        "variants/same-small.heic": "ca6683e2ba000dc4",
        "variants/same-small.jpg": "d141d438db6b9ddd",
        "variants/same-small.png": "ff88d49a90159429",
        "variants/same-small.webp": "4a35f3b2f3bcea95",
        "variants/truncated-room.heic": "none",
        "variants/truncated-room.jpg": "none",
        "variants/truncated-room.png": "none",
        "variants/truncated-room.webp": "none",
    ]

    @Test("every photo and variant of testdata gives the recorded fingerprint")
    func recordedFingerprints() async throws {
        var files: [String] = []
        for folder in ["photos", "variants"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.testdataFile(folder).path)
            files += names.filter { !$0.hasPrefix("bomb") }.sorted().map { "\(folder)/\($0)" }
        }
        var printed: [String] = [], changed = false
        for file in files {
            let output = try await validate(Fixtures.testdataFile(file), as: .inspiration)
            let hash = output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)).map { FNV1a.hex($0.bytes) } ?? "none"
            printed.append("\"\(file)\": \"\(hash)\",")
            #expect(Self.golden[file] == hash, "\(file)")
            changed = changed || Self.golden[file] != hash
        }
        // The table as this build makes it, for a deliberate change of the fingerprint (with its version).
        if changed { print(printed.joined(separator: "\n")) }
    }
}
