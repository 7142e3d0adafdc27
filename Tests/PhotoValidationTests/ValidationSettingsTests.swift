import BlurMetrics
import Testing
@testable import PhotoValidation

@Suite("Settings from the environment")
struct ValidationSettingsTests {
    @Test("defaults apply when nothing is set")
    func defaults() throws {
        let settings = try ValidationSettings(environment: [:])
        #expect(settings == ValidationSettings())
        #expect(settings.roomMinimumShortSide == 1024 && settings.inspirationMinimumShortSide == 400)
        #expect(settings.pixelLimit == 100_000_000 && settings.analysisScale == .shortestSide(1024))
    }

    @Test("PHOTO_VALIDATOR_* variables override the defaults")
    func overrides() throws {
        let settings = try ValidationSettings(environment: [
            "PHOTO_VALIDATOR_ROOM_MIN_SIDE": "800", "PHOTO_VALIDATOR_INSPIRATION_MIN_SIDE": " 300 ",
            "PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD": "12.5", "PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD": "4",
            "PHOTO_VALIDATOR_PIXEL_LIMIT": "5000000", "PHOTO_VALIDATOR_ANALYSIS_SIZE": "native",
        ])
        #expect(settings.roomMinimumShortSide == 800 && settings.inspirationMinimumShortSide == 300)
        #expect(settings.roomBlurThreshold == 12.5 && settings.inspirationBlurThreshold == 4)
        #expect(settings.pixelLimit == 5_000_000 && settings.analysisScale == .native)
    }

    @Test("a bad value names the variable and what it accepts")
    func badValue() {
        let error = #expect(throws: ConfigurationError.self) {
            try ValidationSettings(environment: ["PHOTO_VALIDATOR_ANALYSIS_SIZE": "huge"])
        }
        #expect(error?.description == "invalid value 'huge' for PHOTO_VALIDATOR_ANALYSIS_SIZE: expected 'native' or a shortest side of 16 px or more")
    }
}
