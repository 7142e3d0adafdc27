import PhotoValidation

// The checks' defaults are `ValidationSettings()`'s, in PhotoValidation, which library users and
// tests construct without a catalog (that module cannot see this one); each default below is read
// from it, so it is still written in one place.
private let defaults = ValidationSettings()

/// The settings of the checks, each declared once: its catalog lists it and its read names it.
extension Setting {
    /// The setting `room.min_side`.
    package static let roomMinSide = Setting("room.min_side", .integer(1...100_000), default: String(defaults.roomMinimumShortSide),
        "minimum shortest side of a room photo, px")

    /// The setting `inspiration.min_side`.
    package static let inspirationMinSide = Setting("inspiration.min_side", .integer(1...100_000),
        default: String(defaults.inspirationMinimumShortSide),
        "minimum shortest side of an inspiration photo, px")

    /// The setting `room.blur_threshold`.
    package static let roomBlurThreshold = Setting("room.blur_threshold", .number(0...1_000_000),
        default: Setting.text(defaults.roomBlurThreshold),
        "blur score below which a room photo is blurry")

    /// The setting `inspiration.blur_threshold`.
    package static let inspirationBlurThreshold = Setting("inspiration.blur_threshold", .number(0...1_000_000),
        default: Setting.text(defaults.inspirationBlurThreshold),
        "blur score below which an inspiration photo is blurry")

    /// The setting `blur.judge`.
    package static let blurJudge = Setting("blur.judge", .choice(BlurJudge.allCases.map(\.rawValue)), default: defaults.blurJudge.rawValue,
        "which measure decides blurry: score (blur_score under the type's blur_threshold) or model (the blur model's blur_probability at least the type's blur.probability_threshold_*; the score decides a plane under one tile)")

    /// The setting `blur.probability_threshold_room`.
    package static let blurProbabilityThresholdRoom = Setting("blur.probability_threshold_room", .number(0...1),
        default: Setting.text(defaults.roomBlurProbabilityThreshold),
        "with blur.judge = model, blur probability from which a room photo is blurry (default: the shipped model's threshold_room)")

    /// The setting `blur.probability_threshold_inspiration`.
    package static let blurProbabilityThresholdInspiration = Setting("blur.probability_threshold_inspiration", .number(0...1),
        default: Setting.text(defaults.inspirationBlurProbabilityThreshold),
        "with blur.judge = model, blur probability from which an inspiration photo is blurry (default: the shipped model's threshold_inspiration)")

    /// The setting `exposure.check`.
    package static let exposureCheck = Setting("exposure.check", .boolean, default: String(defaults.exposure.enabled),
        "whether photos too dark to make out or washed out fail (too_dark, overexposed)")

    /// The setting `exposure.dark_p90`.
    package static let exposureDarkP90 = Setting("exposure.dark_p90", .integer(0...256), default: String(defaults.exposure.darkP90),
        "a photo whose 90th luma percentile is under this is too_dark")

    /// The setting `exposure.clipped_share`.
    package static let exposureClippedShare = Setting("exposure.clipped_share", .number(0...1),
        default: Setting.text(defaults.exposure.clippedShare),
        "a photo with at least this share clipped to white (luma 250+) is overexposed, when exposure.washed_out_p10 holds too")

    /// The setting `exposure.washed_out_p10`.
    package static let exposureWashedOutP10 = Setting("exposure.washed_out_p10", .integer(0...256), default: String(defaults.exposure.washedOutP10),
        "a photo clipped as exposure.clipped_share says is overexposed only when its 10th luma percentile is at least this (its shadows lifted too)")

    /// The setting `duplicates.check`.
    package static let duplicatesCheck = Setting("duplicates.check", .boolean, default: String(defaults.duplicateCheck),
        "whether a photo already added to the project fails (duplicate_photo)")

    /// The setting `duplicates.max_distance`.
    package static let duplicatesMaxDistance = Setting("duplicates.max_distance", .integer(0...64),
        default: String(defaults.duplicateRule.maximumDistance),
        "global hash bits up to which two photos of a project are one photo, when their features cannot be aligned")

    /// The setting `duplicates.min_matches`.
    package static let duplicatesMinMatches = Setting("duplicates.min_matches", .integer(3...256),
        default: String(defaults.duplicateRule.minimumInliers),
        "local feature matches one crop, resize or turn must explain to align two photos")

    /// The setting `duplicates.min_correlation`.
    package static let duplicatesMinCorrelation = Setting("duplicates.min_correlation", .number(-1...1),
        default: Setting.text(defaults.duplicateRule.minimumCorrelation),
        "correlation of the aligned thumbnails' fine detail from which two photos are one")

    /// The setting `pixel_limit`.
    package static let pixelLimit = Setting("pixel_limit", .integer(1...1_000_000_000), default: String(defaults.pixelLimit),
        "largest pixel count a header may declare")

    /// The setting `analysis_size`.
    package static let analysisSize = Setting("analysis_size", .text, default: defaults.analysisScale.description,
        "shortest side blur is measured at, px (16 or more), or 'native'")

    /// The setting `decode_memory_mib`.
    package static let decodeMemoryMib = Setting("decode_memory_mib", .integer(16...65_536),
        computed: "9 bytes per pixel of pixel_limit, at least 128 (\(defaults.decodeMemoryBudget >> 20) for 100 MP)", flag: "decode-memory",
        "memory decodes in flight may hold, MiB; larger decodes wait their turn")

    /// The setting `decode.max_jpeg_segments`.
    package static let decodeMaxJpegSegments = Setting("decode.max_jpeg_segments", .integer(16...10_000_000),
        default: String(defaults.decodeCostCaps.jpegSegments),
        "JPEG marker segments a photo may have (a camera writes about 20)")

    /// The setting `decode.max_jpeg_scans`.
    package static let decodeMaxJpegScans = Setting("decode.max_jpeg_scans", .integer(1...10_000),
        default: String(defaults.decodeCostCaps.jpegScans),
        "progressive JPEG scans a photo may have (an encoder writes about 10)")

    /// The setting `decode.max_metadata_mib`.
    package static let decodeMaxMetadataMib = Setting("decode.max_metadata_mib", .integer(1...1_024),
        default: String(defaults.decodeCostCaps.metadataBytes >> 20),
        "metadata (EXIF, ICC, XMP, text chunks) a photo may carry, MiB")

    /// The setting `decode.max_png_chunks`.
    package static let decodeMaxPngChunks = Setting("decode.max_png_chunks", .integer(16...10_000_000),
        default: String(defaults.decodeCostCaps.pngChunks),
        "chunks a PNG may have, image data included")

    /// The setting `decode.max_webp_frames`.
    package static let decodeMaxWebpFrames = Setting("decode.max_webp_frames", .integer(1...1_000_000),
        default: String(defaults.decodeCostCaps.webpFrames),
        "frames an animated WebP may have (only the first is checked)")

    /// The setting `decode.max_heif_units_per_tile`.
    package static let decodeMaxHeifUnitsPerTile = Setting("decode.max_heif_units_per_tile", .integer(4...1_000_000),
        default: String(defaults.decodeCostCaps.heifUnitsPerTile),
        "NAL units a HEIC tile may hold (a phone writes a few)")

    /// The setting `decode.max_heif_bytes_per_pixel`.
    package static let decodeMaxHeifBytesPerPixel = Setting("decode.max_heif_bytes_per_pixel", .integer(1...64),
        default: String(defaults.decodeCostCaps.heifBytesPerPixel),
        "coded bytes a HEIC tile may hold per pixel")

    /// The setting `decode_isolation`.
    package static let decodeIsolation = Setting("decode_isolation", .choice(DecodeIsolationMode.allCases.map(\.rawValue)),
        default: defaults.decodeIsolation.rawValue,
        "where decoders run: process (sandboxed worker processes) or none (in this process)")

    /// The setting `decode_worker_user`.
    package static let decodeWorkerUser = Setting("decode_worker_user", .text,
        default: defaults.decodeWorkerUser, flag: "decode-worker-user",
        "user (or uid:gid) decode workers become when the daemon runs as root")

    /// The setting `decode_worker_executable`.
    package static let decodeWorkerExecutable = Setting("decode_worker_executable", .path,
        default: defaults.decodeWorkerExecutable, hidden: true,
        "the executable decode workers start from, with the hidden decode-worker command")

    /// The setting `decode_worker_test_requests`: a switch for tests, not for operators (its flag
    /// is left out of `--help`).
    package static let decodeWorkerTestRequests = Setting("decode_worker_test_requests", .boolean,
        default: String(defaults.decodeWorkerTestRequests), hidden: true,
        "tests only: decode workers take the test requests (crash, spin, exhaust memory, probe the sandbox)")

    /// The setting `limits.validation_timeout_seconds`: the daemon's and the batch commands' (`tune`,
    /// `bench`) deadline of one photo, declared here so that the commands read it without the daemon's module.
    package static let limitsValidationTimeoutSeconds = Setting("limits.validation_timeout_seconds", .seconds,
        default: "30", flag: "validation-timeout",
        "longest time for one validation, queueing included")
}
