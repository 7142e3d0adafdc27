import BlurMetrics
import Configuration
import Testing
import PhotoValidation
@testable import ValidatorConfiguration

/// Resolves settings from environment variables alone.
func settings(environment: [String: String], flags: [String: ConfigContent] = [:]) throws -> ValidationSettings {
    let audit = ConfigurationAudit()
    let reader = ConfigurationSources.reader(flags: flags, environment: environment, audit: audit)
    let settings = try ValidationSettings(reader: reader)
    try audit.checkConversions()
    return settings
}

@Suite("Settings from flags and the environment", .timeLimit(.minutes(10)))
struct ValidationSettingsTests {
    @Test("defaults apply when nothing is set")
    func defaults() throws {
        let resolved = try settings(environment: [:])
        #expect(resolved == ValidationSettings())
        #expect(resolved.roomMinimumShortSide == 1024 && resolved.inspirationMinimumShortSide == 400)
        #expect(resolved.pixelLimit == 100_000_000 && resolved.analysisScale == .shortestSide(1024))
    }

    @Test("PHOTO_VALIDATOR_* variables override the defaults")
    func overrides() throws {
        let resolved = try settings(environment: [
            "PHOTO_VALIDATOR_ROOM_MIN_SIDE": "800", "PHOTO_VALIDATOR_INSPIRATION_MIN_SIDE": "300",
            "PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD": "12.5", "PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD": "4",
            "PHOTO_VALIDATOR_PIXEL_LIMIT": "5000000", "PHOTO_VALIDATOR_ANALYSIS_SIZE": "native",
            "PHOTO_VALIDATOR_DECODE_MEMORY_MIB": "64",
        ])
        #expect(resolved.roomMinimumShortSide == 800 && resolved.inspirationMinimumShortSide == 300)
        #expect(resolved.roomBlurThreshold == 12.5 && resolved.inspirationBlurThreshold == 4)
        #expect(resolved.pixelLimit == 5_000_000 && resolved.analysisScale == .native)
        #expect(resolved.decodeMemoryBudget == 64 << 20)
    }

    @Test("blur.judge and the probability thresholds are read like the others, defaults from the shipped model")
    func blurJudge() throws {
        let defaults = try settings(environment: [:])
        #expect(defaults.blurJudge == .score)
        #expect(defaults.roomBlurProbabilityThreshold == ValidationSettings().roomBlurProbabilityThreshold)
        #expect(defaults.inspirationBlurProbabilityThreshold == ValidationSettings().inspirationBlurProbabilityThreshold)
        let resolved = try settings(environment: [
            "PHOTO_VALIDATOR_BLUR_JUDGE": "model", "PHOTO_VALIDATOR_BLUR_PROBABILITY_THRESHOLD_ROOM": "0.25",
        ], flags: ["blur.probability_threshold_inspiration": .double(0.75)])
        #expect(resolved.blurJudge == .model)
        #expect(resolved.roomBlurProbabilityThreshold == 0.25 && resolved.inspirationBlurProbabilityThreshold == 0.75)
        #expect(throws: ConfigurationError.self) { try settings(environment: ["PHOTO_VALIDATOR_BLUR_JUDGE": "vote"]) }
        #expect(throws: ConfigurationError.self) { try settings(environment: ["PHOTO_VALIDATOR_BLUR_PROBABILITY_THRESHOLD_ROOM": "1.5"]) }
    }

    @Test("flags override the environment")
    func flagsWin() throws {
        let resolved = try settings(environment: ["PHOTO_VALIDATOR_ROOM_MIN_SIDE": "800"], flags: ["room.min_side": .int(640)])
        #expect(resolved.roomMinimumShortSide == 640)
    }

    @Test("a value of the wrong type is an error that names the key, not a silent default")
    func wrongType() {
        let error = #expect(throws: ConfigurationError.self) {
            try settings(environment: ["PHOTO_VALIDATOR_ROOM_MIN_SIDE": "large"])
        }
        #expect(error?.description.contains("invalid value for room.min_side (from environment)") == true)
    }

    @Test("an out-of-range value names the key and the range")
    func outOfRange() {
        let error = #expect(throws: ConfigurationError.self) {
            try settings(environment: ["PHOTO_VALIDATOR_ANALYSIS_SIZE": "huge"])
        }
        #expect(error?.description == "invalid value 'huge' for analysis_size: expected 'native' or a shortest side of 16 px or more")
    }
}
