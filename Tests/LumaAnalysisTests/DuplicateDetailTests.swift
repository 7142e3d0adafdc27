import BlurMetrics
@testable import LumaAnalysis
import Testing

/// A picture without detail carries no evidence of being a copy: its hash is the sign of rounding
/// noise, so the hash decides only between two photos that both have detail.
@Suite("Duplicates need detail")
struct DuplicateDetailTests {
    /// A `width` x `height` plane of one grey.
    private func flat(width: Int, height: Int, grey: UInt8) -> LumaPlane {
        LumaPlane(width: width, height: height, pixels: [UInt8](repeating: grey, count: width * height))
    }

    /// A `width` x `height` plane of upright black and white stripes, each `stripe` pixels wide.
    private func striped(width: Int, height: Int, stripe: Int) -> LumaPlane {
        let row = (0..<width).map { x in UInt8((x / stripe) % 2 == 0 ? 0 : 255) }
        return LumaPlane(width: width, height: height, pixels: Array((0..<height).map { _ in row }.joined()))
    }

    @Test("a flat 65x18 grey photo is no copy of a 4095x4097 striped one, either way, whatever the stripes' width")
    func flatIsNoCopyOfStripes() {
        // The red team's striped file agreed with the flat photo's hash within 8 bits; these widths
        // happen not to, but the verdict no longer depends on that: the flat photo has no detail.
        let grey = PhotoFingerprint(of: flat(width: 65, height: 18, grey: 128))
        #expect(grey.thumbnail.detailedCells == 0)
        for stripe in [1, 2, 8, 32, 128] {
            let stripes = PhotoFingerprint(of: striped(width: 4095, height: 4097, stripe: stripe))
            let evidence = grey.evidence(against: stripes)
            #expect(evidence.detail == 0, "stripes \(stripe) px: \(evidence)")
            #expect(!DuplicateRule.default.isDuplicate(evidence), "stripes \(stripe) px: \(evidence)")
            #expect(!grey.matches(stripes), "stripes \(stripe) px: \(evidence)")
            #expect(!stripes.matches(grey), "stripes \(stripe) px: \(evidence)")
        }
    }

    @Test("two flat photos of other sizes and greys are no copies of each other, though their hashes agree within the rule's distance")
    func flatIsNoCopyOfFlat() {
        let planes = [flat(width: 65, height: 18, grey: 128), flat(width: 640, height: 480, grey: 40), flat(width: 3000, height: 2000, grey: 230)]
        let fingerprints = planes.map { PhotoFingerprint(of: $0) }
        // The hashes of flat pictures are the signs of rounding noise: these two agree within 8 bits,
        // which alone made them one photo before a hash needed detail.
        #expect(fingerprints[1].distance(to: fingerprints[2]) <= DuplicateRule.default.maximumDistance)
        for first in fingerprints.indices {
            for second in fingerprints.indices where second != first {
                #expect(!fingerprints[first].matches(fingerprints[second]), "\(first) and \(second): \(fingerprints[first].evidence(against: fingerprints[second]))")
            }
        }
    }

    @Test("a photo with detail is still found in its resized and turned copies, and has far more than the detail the hash needs")
    func detailedCopiesStillMatch() throws {
        let plane = TestScenes.shapes(width: 800, height: 600, seed: 5)
        let original = PhotoFingerprint(of: plane)
        #expect(original.thumbnail.detailedCells >= 10 * DuplicateRule.minimumDetail, "\(original.thumbnail.detailedCells)")
        let half = try #require(PlaneResampling.halved(plane))
        #expect(original.matches(PhotoFingerprint(of: half)))
    }

    @Test("the rule: the hash decides only with detail on both sides; aligned features decide as before")
    func rule() {
        let rule = DuplicateRule.default
        #expect(rule.isDuplicate(DuplicateEvidence(hashDistance: 0, inliers: 0, correlation: 0, detail: DuplicateRule.minimumDetail)))
        #expect(!rule.isDuplicate(DuplicateEvidence(hashDistance: 0, inliers: 0, correlation: 0, detail: DuplicateRule.minimumDetail - 1)))
        #expect(rule.isDuplicate(DuplicateEvidence(hashDistance: 40, inliers: 20, correlation: 0.9, detail: 0)))
    }
}
