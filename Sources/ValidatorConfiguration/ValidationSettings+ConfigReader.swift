import BlurMetrics
import Configuration
import PhotoValidation

extension ValidationSettings {
    /// The settings of the checks, shared by `serve` and the batch commands.
    public static let settings = SettingsCatalog([
        Setting("room.min_side", .integer(1...100_000), default: "1024", "minimum shortest side of a room photo, px"),
        Setting("inspiration.min_side", .integer(1...100_000), default: "400", "minimum shortest side of an inspiration photo, px"),
        Setting("room.blur_threshold", .number(0...1_000_000), default: "24", "blur score below which a room photo is blurry"),
        Setting("inspiration.blur_threshold", .number(0...1_000_000), default: "22", "blur score below which an inspiration photo is blurry"),
        Setting("exposure.check", .boolean, default: "true", "whether photos too dark to make out or washed out fail (too_dark, overexposed)"),
        Setting("exposure.dark_p90", .integer(0...256), default: "40", "a photo whose 90th luma percentile is under this is too_dark"),
        Setting("exposure.clipped_share", .number(0...1), default: "0.25", "a photo with at least this share clipped to white (luma 250+) is overexposed"),
        Setting("duplicates.check", .boolean, default: "true", "whether a photo already added to the project fails (duplicate_photo)"),
        Setting("duplicates.max_distance", .integer(0...64), default: "8", "global hash bits up to which two photos of a project are one photo, when their features cannot be aligned"),
        Setting("duplicates.min_matches", .integer(3...256), default: "4", "local feature matches one crop, resize or turn must explain to align two photos"),
        Setting("duplicates.min_correlation", .number(-1...1), default: "0.63", "correlation of the aligned thumbnails' fine detail from which two photos are one"),
        Setting("pixel_limit", .integer(1...1_000_000_000), default: "100000000", "largest pixel count a header may declare"),
        Setting("analysis_size", .text, default: "1024", "shortest side blur is measured at, px (16 or more), or 'native'"),
        Setting("decode_memory_mib", .integer(16...65_536), default: "128", flag: "decode-memory", "memory decodes in flight may hold, MiB; larger decodes wait their turn"),
        Setting("decode.max_jpeg_segments", .integer(16...10_000_000), default: "2000", "JPEG marker segments a photo may have (a camera writes about 20)"),
        Setting("decode.max_jpeg_scans", .integer(1...10_000), default: "100", "progressive JPEG scans a photo may have (an encoder writes about 10)"),
        Setting("decode.max_metadata_mib", .integer(1...1_024), default: "16", "metadata (EXIF, ICC, XMP, text chunks) a photo may carry, MiB"),
        Setting("decode.max_png_chunks", .integer(16...10_000_000), default: "20000", "chunks a PNG may have, image data included"),
        Setting("decode.max_webp_frames", .integer(1...1_000_000), default: "1000", "frames an animated WebP may have (only the first is checked)"),
        Setting("decode.max_heif_units_per_tile", .integer(4...1_000_000), default: "64", "NAL units a HEIC tile may hold (a phone writes a few)"),
        Setting("decode.max_heif_bytes_per_pixel", .integer(1...64), default: "4", "coded bytes a HEIC tile may hold per pixel"),
        Setting("decode_isolation", .choice(DecodeIsolationMode.allCases.map(\.rawValue)), default: "process",
                "where decoders run: process (sandboxed worker processes) or none (in this process)"),
        Setting("decode_worker_user", .text, default: "nobody", flag: "decode-worker-user",
                "user (or uid:gid) decode workers become when the daemon runs as root"),
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
        exposure.enabled = settings.bool("exposure.check") ?? exposure.enabled
        exposure.darkP90 = try settings.integer("exposure.dark_p90") ?? exposure.darkP90
        exposure.clippedShare = try settings.number("exposure.clipped_share") ?? exposure.clippedShare
        duplicateCheck = settings.bool("duplicates.check") ?? duplicateCheck
        duplicateRule.maximumDistance = try settings.integer("duplicates.max_distance") ?? duplicateRule.maximumDistance
        duplicateRule.minimumInliers = try settings.integer("duplicates.min_matches") ?? duplicateRule.minimumInliers
        duplicateRule.minimumCorrelation = try settings.number("duplicates.min_correlation") ?? duplicateRule.minimumCorrelation
        pixelLimit = try settings.integer("pixel_limit") ?? pixelLimit
        if let size = settings.string("analysis_size") {
            guard let scale = AnalysisScale(argument: size) else {
                throw ConfigurationError(source: "analysis_size", value: size, expected: "'native' or a shortest side of 16 px or more")
            }
            analysisScale = scale
        }
        decodeMemoryBudget = (try settings.integer("decode_memory_mib")).map { $0 << 20 } ?? decodeMemoryBudget
        decodeCostCaps.jpegSegments = try settings.integer("decode.max_jpeg_segments") ?? decodeCostCaps.jpegSegments
        decodeCostCaps.jpegScans = try settings.integer("decode.max_jpeg_scans") ?? decodeCostCaps.jpegScans
        decodeCostCaps.metadataBytes = (try settings.integer("decode.max_metadata_mib")).map { $0 << 20 } ?? decodeCostCaps.metadataBytes
        decodeCostCaps.pngChunks = try settings.integer("decode.max_png_chunks") ?? decodeCostCaps.pngChunks
        decodeCostCaps.webpFrames = try settings.integer("decode.max_webp_frames") ?? decodeCostCaps.webpFrames
        decodeCostCaps.heifUnitsPerTile = try settings.integer("decode.max_heif_units_per_tile") ?? decodeCostCaps.heifUnitsPerTile
        decodeCostCaps.heifBytesPerPixel = try settings.integer("decode.max_heif_bytes_per_pixel") ?? decodeCostCaps.heifBytesPerPixel
        decodeIsolation = try settings.choice("decode_isolation", of: DecodeIsolationMode.self) ?? decodeIsolation
        decodeWorkerExecutable = settings.string("decode_worker_executable") ?? decodeWorkerExecutable
        decodeWorkerUser = settings.string("decode_worker_user") ?? decodeWorkerUser
        // Unlisted on purpose: a switch for tests, not for operators.
        decodeWorkerTestRequests = reader.bool(forKey: "decode_worker_test_requests") ?? false
    }
}
