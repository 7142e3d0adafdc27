import ArgumentParser
import BlurMetrics
import Foundation
import PhotoValidation

/// Flags that set the thresholds and limits of the checks; each overrides its environment variable.
struct CheckOptions: ParsableArguments {
    @Option(name: .customLong("room-min-side"), help: "Minimum shortest side of a room photo, px. [env: PHOTO_VALIDATOR_ROOM_MIN_SIDE, default: 1024]")
    var roomMinimumShortSide: Int?

    @Option(name: .customLong("inspiration-min-side"), help: "Minimum shortest side of an inspiration photo, px. [env: PHOTO_VALIDATOR_INSPIRATION_MIN_SIDE, default: 400]")
    var inspirationMinimumShortSide: Int?

    @Option(name: .customLong("room-blur-threshold"), help: "Blur score below which a room photo is blurry. [env: PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD]")
    var roomBlurThreshold: Double?

    @Option(name: .customLong("inspiration-blur-threshold"), help: "Blur score below which an inspiration photo is blurry. [env: PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD]")
    var inspirationBlurThreshold: Double?

    @Option(name: .customLong("pixel-limit"), help: "Largest pixel count a header may declare. [env: PHOTO_VALIDATOR_PIXEL_LIMIT, default: 100000000]")
    var pixelLimit: Int?

    @Option(name: .customLong("analysis-size"), help: "Shortest side blur is measured at, px, or 'native'. [env: PHOTO_VALIDATOR_ANALYSIS_SIZE, default: 1024]")
    var analysisSize: String?

    @Option(name: .customLong("decode-memory"), help: "Memory decodes in flight may hold, MiB; larger decodes wait their turn. [env: PHOTO_VALIDATOR_DECODE_MEMORY_MIB, default: 128]")
    var decodeMemory: Int?

    /// The settings: these flags over `PHOTO_VALIDATOR_*` variables in `environment` over defaults.
    func resolve(environment: [String: String]) throws -> ValidationSettings {
        do {
            var settings = try ValidationSettings(environment: environment)
            let flags = SettingReader(values: [
                "--room-min-side": roomMinimumShortSide.map(String.init),
                "--inspiration-min-side": inspirationMinimumShortSide.map(String.init),
                "--room-blur-threshold": roomBlurThreshold.map { String($0) },
                "--inspiration-blur-threshold": inspirationBlurThreshold.map { String($0) },
                "--pixel-limit": pixelLimit.map(String.init),
                "--analysis-size": analysisSize,
                "--decode-memory": decodeMemory.map(String.init),
            ].compactMapValues { $0 })
            if let value = try flags.integer("--room-min-side", in: 1...100_000) { settings.roomMinimumShortSide = value }
            if let value = try flags.integer("--inspiration-min-side", in: 1...100_000) { settings.inspirationMinimumShortSide = value }
            if let value = try flags.number("--room-blur-threshold") { settings.roomBlurThreshold = value }
            if let value = try flags.number("--inspiration-blur-threshold") { settings.inspirationBlurThreshold = value }
            if let value = try flags.integer("--pixel-limit", in: 1...1_000_000_000) { settings.pixelLimit = value }
            if let value = try flags.analysisScale("--analysis-size") { settings.analysisScale = value }
            if let value = try flags.integer("--decode-memory", in: 16...65_536) { settings.decodeMemoryBudget = value << 20 }
            return settings
        } catch {
            throw ValidationError(error.description)
        }
    }
}
