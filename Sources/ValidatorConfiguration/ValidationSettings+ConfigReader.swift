import BlurMetrics
import Configuration
import PhotoValidation

extension ValidationSettings {
    /// The settings of the checks, shared by `serve` and the batch commands (declared in
    /// `Setting+Validation.swift`).
    package static let settings = SettingsCatalog([
        .roomMinSide, .inspirationMinSide, .roomBlurThreshold, .inspirationBlurThreshold, .blurJudge, .blurProbabilityThresholdRoom,
        .blurProbabilityThresholdInspiration, .exposureCheck, .exposureDarkP90,
        .exposureClippedShare, .exposureWashedOutP10, .duplicatesCheck, .duplicatesMaxDistance, .duplicatesMinMatches, .duplicatesMinCorrelation,
        .pixelLimit, .analysisSize, .decodeMemoryMib, .decodeMaxJpegSegments, .decodeMaxJpegScans, .decodeMaxMetadataMib,
        .decodeMaxPngChunks, .decodeMaxWebpFrames, .decodeMaxHeifUnitsPerTile, .decodeMaxHeifBytesPerPixel, .decodeIsolation,
        .decodeWorkerUser, .decodeWorkerExecutable, .decodeWorkerTestRequests,
    ])

    /// The settings `reader` resolves, over the settings' defaults.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is out of range.
    package init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader, catalog: Self.settings)
        roomMinimumShortSide = try settings.integer(.roomMinSide)
        inspirationMinimumShortSide = try settings.integer(.inspirationMinSide)
        roomBlurThreshold = try settings.number(.roomBlurThreshold)
        inspirationBlurThreshold = try settings.number(.inspirationBlurThreshold)
        blurJudge = try settings.choice(.blurJudge, of: BlurJudge.self)
        roomBlurProbabilityThreshold = try settings.number(.blurProbabilityThresholdRoom)
        inspirationBlurProbabilityThreshold = try settings.number(.blurProbabilityThresholdInspiration)
        exposure.enabled = settings.bool(.exposureCheck)
        exposure.darkP90 = try settings.integer(.exposureDarkP90)
        exposure.clippedShare = try settings.number(.exposureClippedShare)
        exposure.washedOutP10 = try settings.integer(.exposureWashedOutP10)
        duplicateCheck = settings.bool(.duplicatesCheck)
        duplicateRule.maximumDistance = try settings.integer(.duplicatesMaxDistance)
        duplicateRule.minimumInliers = try settings.integer(.duplicatesMinMatches)
        duplicateRule.minimumCorrelation = try settings.number(.duplicatesMinCorrelation)
        pixelLimit = try settings.integer(.pixelLimit)
        let size = settings.string(.analysisSize)
        guard let scale = AnalysisScale(argument: size) else {
            throw ConfigurationError(source: Setting.analysisSize.key, value: size, expected: "'native' or a shortest side of 16 px or more")
        }
        analysisScale = scale
        // Unset, the budget follows the pixel limit, so that every photo the limit admits can be decoded.
        decodeMemoryBudget = try settings.integerIfSet(.decodeMemoryMib).map { $0 << 20 } ?? Self.defaultDecodeMemoryBudget(pixelLimit: pixelLimit)
        decodeCostCaps.jpegSegments = try settings.integer(.decodeMaxJpegSegments)
        decodeCostCaps.jpegScans = try settings.integer(.decodeMaxJpegScans)
        decodeCostCaps.metadataBytes = try settings.integer(.decodeMaxMetadataMib) << 20
        decodeCostCaps.pngChunks = try settings.integer(.decodeMaxPngChunks)
        decodeCostCaps.webpFrames = try settings.integer(.decodeMaxWebpFrames)
        decodeCostCaps.heifUnitsPerTile = try settings.integer(.decodeMaxHeifUnitsPerTile)
        decodeCostCaps.heifBytesPerPixel = try settings.integer(.decodeMaxHeifBytesPerPixel)
        decodeIsolation = try settings.choice(.decodeIsolation, of: DecodeIsolationMode.self)
        decodeWorkerExecutable = settings.string(.decodeWorkerExecutable)
        decodeWorkerUser = settings.string(.decodeWorkerUser)
        decodeWorkerTestRequests = settings.bool(.decodeWorkerTestRequests)
    }
}
