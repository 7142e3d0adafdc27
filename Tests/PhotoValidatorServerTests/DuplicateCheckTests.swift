import BlurMetrics
import Foundation
import LumaAnalysis
import SignalForwarding
import Testing
@testable import PhotoValidatorServer

@Suite("A project's comparisons cut into short jobs")
struct DuplicateCheckTests {
    private let fingerprint = PhotoFingerprint(of: LumaPlane(width: 40, height: 30, pixels: (0..<1200).map { UInt8(truncatingIfNeeded: $0 &* 7) }))

    @Test("batches keep the photos' order, cover them all once, and stay within the byte bound unless one photo is larger", arguments: [0, 1, 5, 64])
    func batches(count: Int) async throws {
        let sizes = (0..<count).map { [1_000, 40_000, 190_000, 700_000][$0 % 4] }
        var memory = ProjectMemory<PhotoFingerprint>(limits: .init(retention: 3600, photosPerProject: 100, totalBytes: 1 << 30))
        for (index, bytes) in sizes.enumerated() {
            memory.remember(fingerprint, bytes: bytes, photoID: "p\(index)", in: "project", at: Date())
        }
        let photos = memory.photos(of: "project", now: Date())
        let batches = DuplicateCheck.batches(of: photos)
        #expect(batches.flatMap { $0.map(\.photoID) } == photos.map(\.photoID))
        for batch in batches {
            #expect(!batch.isEmpty)
            #expect(batch.count == 1 || batch.reduce(0) { $0 + $1.bytes } <= DuplicateCheck.batchBytes)
        }
    }
}
