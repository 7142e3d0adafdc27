import BlurMetrics

extension ValidationSettings {
    /// The environment variables that configure the checks, with what each sets.
    public static let environmentVariables: [(name: String, help: String)] = [
        ("PHOTO_VALIDATOR_ROOM_MIN_SIDE", "minimum shortest side of a room photo, px (default 1024)"),
        ("PHOTO_VALIDATOR_INSPIRATION_MIN_SIDE", "minimum shortest side of an inspiration photo, px (default 400)"),
        ("PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD", "blur score below which a room photo is blurry"),
        ("PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD", "blur score below which an inspiration photo is blurry"),
        ("PHOTO_VALIDATOR_PIXEL_LIMIT", "largest pixel count a header may declare (default 100000000)"),
        ("PHOTO_VALIDATOR_ANALYSIS_SIZE", "shortest side blur is measured at, px, or 'native' (default 1024)"),
        ("PHOTO_VALIDATOR_DECODE_MEMORY_MIB", "memory decodes in flight may hold, MiB (default 128)"),
    ]

    /// The defaults overridden by `PHOTO_VALIDATOR_*` variables in `environment`.
    ///
    /// - Throws: `ConfigurationError` naming the variable whose value is not usable.
    public init(environment: [String: String]) throws(ConfigurationError) {
        self.init()
        let reader = SettingReader(values: environment)
        if let value = try reader.integer("PHOTO_VALIDATOR_ROOM_MIN_SIDE", in: 1...100_000) {
            roomMinimumShortSide = value
        }
        if let value = try reader.integer("PHOTO_VALIDATOR_INSPIRATION_MIN_SIDE", in: 1...100_000) {
            inspirationMinimumShortSide = value
        }
        if let value = try reader.number("PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD") {
            roomBlurThreshold = value
        }
        if let value = try reader.number("PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD") {
            inspirationBlurThreshold = value
        }
        if let value = try reader.integer("PHOTO_VALIDATOR_PIXEL_LIMIT", in: 1...1_000_000_000) {
            pixelLimit = value
        }
        if let value = try reader.analysisScale("PHOTO_VALIDATOR_ANALYSIS_SIZE") {
            analysisScale = value
        }
        if let value = try reader.integer("PHOTO_VALIDATOR_DECODE_MEMORY_MIB", in: 16...65_536) {
            decodeMemoryBudget = value << 20
        }
    }
}
