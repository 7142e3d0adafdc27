import BlurMetrics
import Configuration
import PhotoValidation

extension ValidationSettings {
    /// The settings of the checks, shared by `serve` and the batch commands.
    public static let settings = SettingsCatalog([
        Setting("room.min_side", .integer(1...100_000), default: "1024", "minimum shortest side of a room photo, px"),
        Setting("inspiration.min_side", .integer(1...100_000), default: "400", "minimum shortest side of an inspiration photo, px"),
        Setting("room.blur_threshold", .number(0...1_000_000), default: "24", "blur score below which a room photo is blurry"),
        Setting("inspiration.blur_threshold", .number(0...1_000_000), default: "20", "blur score below which an inspiration photo is blurry"),
        Setting("pixel_limit", .integer(1...1_000_000_000), default: "100000000", "largest pixel count a header may declare"),
        Setting("analysis_size", .text, default: "1024", "shortest side blur is measured at, px (16 or more), or 'native'"),
        Setting("decode_memory_mib", .integer(16...65_536), default: "128", flag: "decode-memory", "memory decodes in flight may hold, MiB; larger decodes wait their turn"),
        Setting("decode_isolation", .choice(DecodeIsolationMode.allCases.map(\.rawValue)), default: "process",
                "where decoders run: process (sandboxed worker processes) or none (in this process)"),
        Setting("decode_worker_executable", .path, default: "/proc/self/exe", hidden: true,
                "the executable decode workers start from, with the hidden decode-worker command"),
    ])

    /// The settings `reader` resolves, over the built-in defaults.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is out of range.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader, catalog: Self.settings)
        roomMinimumShortSide = try settings.integer("room.min_side") ?? roomMinimumShortSide
        inspirationMinimumShortSide = try settings.integer("inspiration.min_side") ?? inspirationMinimumShortSide
        roomBlurThreshold = try settings.number("room.blur_threshold") ?? roomBlurThreshold
        inspirationBlurThreshold = try settings.number("inspiration.blur_threshold") ?? inspirationBlurThreshold
        pixelLimit = try settings.integer("pixel_limit") ?? pixelLimit
        if let size = settings.string("analysis_size") {
            guard let scale = AnalysisScale(argument: size) else {
                throw ConfigurationError(source: "analysis_size", value: size, expected: "'native' or a shortest side of 16 px or more")
            }
            analysisScale = scale
        }
        decodeMemoryBudget = (try settings.integer("decode_memory_mib")).map { $0 << 20 } ?? decodeMemoryBudget
        decodeIsolation = try settings.choice("decode_isolation", of: DecodeIsolationMode.self) ?? decodeIsolation
        decodeWorkerExecutable = settings.string("decode_worker_executable") ?? decodeWorkerExecutable
        // Unlisted on purpose: a switch for tests, not for operators.
        decodeWorkerTestRequests = reader.bool(forKey: "decode_worker_test_requests") ?? false
    }
}
