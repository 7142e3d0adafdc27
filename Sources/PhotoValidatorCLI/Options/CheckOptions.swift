import ArgumentParser
import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

/// Flags that set the thresholds and limits of the checks; each overrides its environment variable.
struct CheckOptions: ParsableArguments {
    @Option(name: .customLong("room-min-side"), help: "Minimum shortest side of a room photo, px. [env: PHOTO_VALIDATOR_ROOM_MIN_SIDE, default: 1024]")
    var roomMinimumShortSide: Int?

    @Option(name: .customLong("inspiration-min-side"), help: "Minimum shortest side of an inspiration photo, px. [env: PHOTO_VALIDATOR_INSPIRATION_MIN_SIDE, default: 400]")
    var inspirationMinimumShortSide: Int?

    @Option(name: .customLong("room-blur-threshold"), help: "Blur score below which a room photo is blurry. [env: PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD, default: 24]")
    var roomBlurThreshold: Double?

    @Option(name: .customLong("inspiration-blur-threshold"), help: "Blur score below which an inspiration photo is blurry. [env: PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD, default: 20]")
    var inspirationBlurThreshold: Double?

    @Option(name: .customLong("pixel-limit"), help: "Largest pixel count a header may declare. [env: PHOTO_VALIDATOR_PIXEL_LIMIT, default: 100000000]")
    var pixelLimit: Int?

    @Option(name: .customLong("analysis-size"), help: "Shortest side blur is measured at, px, or 'native'. [env: PHOTO_VALIDATOR_ANALYSIS_SIZE, default: 1024]")
    var analysisSize: String?

    @Option(name: .customLong("decode-memory"), help: "Memory decodes in flight may hold, MiB; larger decodes wait their turn. [env: PHOTO_VALIDATOR_DECODE_MEMORY_MIB, default: 128]")
    var decodeMemory: Int?

    @Option(name: .customLong("decode-isolation"), help: "Where decoders run: process (sandboxed worker processes) or none (in this process). [env: PHOTO_VALIDATOR_DECODE_ISOLATION, default: process]")
    var decodeIsolation: String?

    @Option(name: .customLong("decode-worker-executable"), help: .hidden)
    var decodeWorkerExecutable: String?

    /// These flags as configuration values, by key.
    var configurationValues: [String: ConfigContent] {
        var values: [String: ConfigContent] = [:]
        if let roomMinimumShortSide { values["room.min_side"] = .int(roomMinimumShortSide) }
        if let inspirationMinimumShortSide { values["inspiration.min_side"] = .int(inspirationMinimumShortSide) }
        if let roomBlurThreshold { values["room.blur_threshold"] = .double(roomBlurThreshold) }
        if let inspirationBlurThreshold { values["inspiration.blur_threshold"] = .double(inspirationBlurThreshold) }
        if let pixelLimit { values["pixel_limit"] = .int(pixelLimit) }
        if let analysisSize { values["analysis_size"] = .string(analysisSize) }
        if let decodeMemory { values["decode_memory_mib"] = .int(decodeMemory) }
        if let decodeIsolation { values["decode_isolation"] = .string(decodeIsolation) }
        if let decodeWorkerExecutable { values["decode_worker_executable"] = .string(decodeWorkerExecutable) }
        return values
    }

    /// The settings: these flags over `PHOTO_VALIDATOR_*` variables in `environment` over defaults.
    func resolve(environment: [String: String]) throws -> ValidationSettings {
        let audit = ConfigurationAudit()
        let reader = ConfigurationSources.reader(flags: configurationValues, environment: environment, audit: audit)
        let settings = try ValidationSettings(reader: reader)
        try audit.checkConversions()
        return settings
    }
}
