@testable import DecodeSandbox
import Foundation
import PhotoChecks
import PhotoValidation
import TestFixtures
import Testing

@Suite("A worker's reply on the wire")
struct ValidateReplyTests {
    @Test("a photo decoded twice sends its fingerprint once and is restored with every figure as measured")
    func fingerprintSentOnce() throws {
        var settings = ValidationSettings()
        settings.roomBlurThreshold = 1e9
        let checks = try InProcessChecks(settings: settings)
        let data = try Data(contentsOf: Fixtures.testdataFile("photos/room-living-wine.jpg"))
        let (output, _, measurements) = data.withUnsafeBytes { checks.measuredCheck($0, as: .room, previews: nil) }
        let fingerprint = try #require(output.details.fingerprint)
        let measured = try #require(measurements)
        // Decoded twice, both decodes carry the answer's fingerprint.
        #expect(measured.first?.fingerprint == fingerprint && measured.second?.fingerprint == fingerprint)
        var reply = ValidateReply(output: output)
        reply.measurements = measured
        let json = String(decoding: try JSONEncoder().encode(reply.sendingFingerprintOnce()), as: UTF8.self)
        // JSONEncoder writes base64's slashes escaped.
        #expect(json.components(separatedBy: fingerprint.replacingOccurrences(of: "/", with: "\\/")).count - 1 == 1)
        let read = try JSONDecoder().decode(ValidateReply.self, from: Data(json.utf8)).withFingerprintRestored()
        #expect(read.measurements == measured)
        #expect(read.output.details.fingerprint == fingerprint && read.output.failures == output.failures)
    }

    @Test("an answer without a fingerprint leaves the figures' own fingerprints as they are")
    func noAnswerFingerprint() throws {
        let checks = try InProcessChecks(settings: ValidationSettings())
        let data = try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
        let (output, _, measurements) = data.withUnsafeBytes { checks.measuredCheck($0, as: .inspiration, previews: nil) }
        var details = output.details
        details.fingerprint = nil
        let bare = ValidatePhotoOutput(failures: output.failures, photoType: .inspiration, minimumShortSide: details.minimumShortSide, details: details)
        var reply = ValidateReply(output: bare)
        reply.measurements = try #require(measurements)
        let read = try JSONDecoder().decode(ValidateReply.self, from: JSONEncoder().encode(reply.sendingFingerprintOnce())).withFingerprintRestored()
        #expect(read.measurements == measurements && read.measurements?.first?.fingerprint?.isEmpty == false)
    }
}
