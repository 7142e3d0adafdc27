@testable import DecodeSandbox
import Foundation
import PhotoValidation
import Testing

@Suite("The worker's setup carries the checks' settings whole")
struct WorkerSetupTests {
    @Test("every setting the daemon resolved reaches the worker as it was, with in-process decoding there")
    func settingsCrossWhole() throws {
        var settings = ValidationSettings()
        settings.roomMinimumShortSide = 900
        settings.inspirationBlurThreshold = 17.5
        settings.analysisScale = .shortestSide(768)
        settings.exposure.darkP90 = 33
        settings.duplicateCheck = false
        settings.duplicateRule.maximumDistance = 5
        settings.decodeMemoryBudget = 64 << 20
        settings.decodeCostCaps.jpegScans = 77
        let setup = WorkerSetup(settings, addressSpaceSlack: 1 << 20, allowsTestRequests: false)
        let received = try JSONDecoder().decode(WorkerSetup.self, from: JSONEncoder().encode(setup))
        var expected = settings
        expected.decodeIsolation = .none
        let decoded = received.validationSettings
        #expect(decoded == expected)
        #expect(settings.decodeIsolation == .process)
    }
}
