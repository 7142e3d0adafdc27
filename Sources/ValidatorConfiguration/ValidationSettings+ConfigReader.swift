import BlurMetrics
import Configuration
import PhotoValidation

extension ValidationSettings {
    /// The configuration keys of the checks, with what each sets. Environment variables are the key
    /// in upper case with `_` for `.`, prefixed with `PHOTO_VALIDATOR_` (for example
    /// `room.min_side` is `PHOTO_VALIDATOR_ROOM_MIN_SIDE`).
    public static let configurationKeys: [(key: String, help: String)] = [
        ("room.min_side", "minimum shortest side of a room photo, px (default 1024)"),
        ("inspiration.min_side", "minimum shortest side of an inspiration photo, px (default 400)"),
        ("room.blur_threshold", "blur score below which a room photo is blurry (default 24)"),
        ("inspiration.blur_threshold", "blur score below which an inspiration photo is blurry (default 20)"),
        ("pixel_limit", "largest pixel count a header may declare (default 100000000)"),
        ("analysis_size", "shortest side blur is measured at, px, or 'native' (default 1024)"),
        ("decode_memory_mib", "memory decodes in flight may hold, MiB (default 128)"),
        ("decode_isolation", "where decoders run: process (sandboxed worker processes) or none (in this process) (default process)"),
        ("decode_worker_executable", "the executable decode workers start from, with the hidden decode-worker command (default /proc/self/exe)"),
    ]

    /// The settings `reader` resolves, over the built-in defaults.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is out of range.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader)
        roomMinimumShortSide = try settings.integer("room.min_side", in: 1...100_000) ?? roomMinimumShortSide
        inspirationMinimumShortSide = try settings.integer("inspiration.min_side", in: 1...100_000) ?? inspirationMinimumShortSide
        roomBlurThreshold = try settings.number("room.blur_threshold") ?? roomBlurThreshold
        inspirationBlurThreshold = try settings.number("inspiration.blur_threshold") ?? inspirationBlurThreshold
        pixelLimit = try settings.integer("pixel_limit", in: 1...1_000_000_000) ?? pixelLimit
        if let size = reader.string(forKey: "analysis_size") {
            guard let scale = AnalysisScale(argument: size) else {
                throw ConfigurationError(source: "analysis_size", value: size, expected: "'native' or a shortest side of 16 px or more")
            }
            analysisScale = scale
        }
        decodeMemoryBudget = (try settings.integer("decode_memory_mib", in: 16...65_536)).map { $0 << 20 } ?? decodeMemoryBudget
        decodeIsolation = try settings.choice("decode_isolation", of: DecodeIsolationMode.self) ?? decodeIsolation
        decodeWorkerExecutable = settings.string("decode_worker_executable") ?? decodeWorkerExecutable
        // Unlisted on purpose: a switch for tests, not for operators.
        decodeWorkerTestRequests = reader.bool(forKey: "decode_worker_test_requests") ?? false
    }
}
