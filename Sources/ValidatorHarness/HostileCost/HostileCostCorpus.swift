import Foundation
import TestFixtures

/// The attack files of `photo-validator-harness hostile-cost`, made in Swift from the photos of
/// testdata/ (no Python): for each format the worst file per decode cost cap, and the upload
/// bodies that attack the HTTP layer.
package enum HostileCostCorpus {
    /// One attack upload.
    package struct Attack: Sendable {
        /// What it is.
        package let name: String
        /// The request's Content-Type.
        package let contentType: String
        /// The request body.
        package let body: [UInt8]
        /// The status it must get: 200 (an `invalid_image` answer) or a 4xx.
        package let expectedStatus: Int
        /// The `details.error` its answer must carry when the status is 200.
        package let expectedError: String?
    }

    /// Every attack, each built once.
    package static func attacks() throws -> [Attack] {
        func load(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: Fixtures.testdataFile(path))) }
        let jpeg = try load("photos/cups.jpg")
        let png = try load("photos/small-coffee.png")
        // A 1x1 lossless WebP (38 bytes): 100,000 frames of it make the 5 MB file of the attack.
        let webp = Array(Data(base64Encoded: "UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAdQsiJXpv+BiOh/AAA=")!)
        var attacks: [Attack] = []
        func image(_ name: String, _ type: String, _ body: [UInt8]?) {
            guard let body else { return }
            attacks.append(Attack(name: name, contentType: type, body: body, expectedStatus: 200, expectedError: "costly_structure"))
        }
        image("jpeg: 1.5 million empty APP1 segments", "image/jpeg", CostlyFiles.jpegSegmentFlood(jpeg, count: 1_500_000))
        image("jpeg: 1.5 million empty APP2 (ICC) segments", "image/jpeg", CostlyFiles.jpegSegmentFlood(jpeg, count: 1_500_000, marker: 0xE2))
        image("jpeg: 2,783 scans", "image/jpeg", CostlyFiles.jpegScanFlood(jpeg, count: 2783))
        image("jpeg: 18 MiB of ICC segments", "image/jpeg", CostlyFiles.jpegMetadataFlood(jpeg, bytes: 18 << 20))
        image("png: 1 million tEXt chunks", "image/png", CostlyFiles.pngChunkFlood(png, count: 1_000_000))
        image("png: 18 MiB of compressed data past its picture", "image/png", CostlyFiles.pngPaddedData(png, bytes: 18 << 20))
        image("webp: 100,000 animation frames", "image/webp", CostlyFiles.webpFrameFlood(webp, frames: 100_000))
        image("webp: a frame placed past its canvas", "image/webp", CostlyFiles.webpFrameFlood(webp, frames: 2, canvasLie: true))
        for length in [1_000, 8_000] {
            let boundary = String(repeating: "-", count: length - 1) + "x"
            var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\n".utf8)
            body += [UInt8](repeating: UInt8(ascii: "-"), count: 19 << 20)
            body += Array("\r\n--\(boundary)--\r\n".utf8)
            attacks.append(Attack(name: "multipart: 19 MiB body, \(length)-character boundary", contentType: "multipart/form-data; boundary=\(boundary)",
                                  body: body, expectedStatus: 400, expectedError: nil))
        }
        return attacks
    }
}
