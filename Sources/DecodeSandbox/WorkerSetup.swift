import BlurMetrics
import LumaAnalysis
import PhotoStructure
import PhotoValidation

/// What a decode worker is told once, before its first photo: the checks' settings and its limits.
package struct WorkerSetup: Codable, Sendable {
    /// `ValidationSettings` field by field (the type itself is not `Codable`).
    package struct Settings: Codable, Sendable {
        /// `roomMinimumShortSide`.
        package var roomMinimumShortSide: Int
        /// `inspirationMinimumShortSide`.
        package var inspirationMinimumShortSide: Int
        /// `roomBlurThreshold`.
        package var roomBlurThreshold: Double
        /// `inspirationBlurThreshold`.
        package var inspirationBlurThreshold: Double
        /// `pixelLimit`.
        package var pixelLimit: Int
        /// `analysisScale`'s shortest side, 0 for native.
        package var analysisShortestSide: Int
        /// `decodeMemoryBudget`, in bytes.
        package var decodeMemoryBudget: Int
        /// `decodeCostCaps`.
        package var decodeCostCaps: DecodeCostCaps
        /// `exposure`.
        package var exposure: ExposureRule
    }

    /// The checks' settings.
    package var settings: Settings
    /// Address space allowed on top of the worker's start-up size and the decode budget.
    package var addressSpaceSlack: Int
    /// Whether the worker answers the test-only requests (crash, spin, exhaust memory, probe).
    package var allowsTestRequests: Bool
    /// Bytes of shared memory on descriptor 4 that photos up to this size are passed in (0: none).
    package var sharedBytes: Int = 0
    /// Who the worker becomes when started as root.
    package var user = WorkerUser(uid: 65534, gid: 65534)
    /// CPU seconds the worker may use in its life (RLIMIT_CPU, soft and hard).
    package var cpuLifetimeSeconds = 1800
    /// The worker retires after a photo that leaves it fewer CPU seconds than this.
    package var cpuRetirementSeconds = 62

    /// The setup for `settings`.
    package init(_ settings: ValidationSettings, addressSpaceSlack: Int, allowsTestRequests: Bool) {
        self.settings = Settings(
            roomMinimumShortSide: settings.roomMinimumShortSide,
            inspirationMinimumShortSide: settings.inspirationMinimumShortSide,
            roomBlurThreshold: settings.roomBlurThreshold,
            inspirationBlurThreshold: settings.inspirationBlurThreshold,
            pixelLimit: settings.pixelLimit,
            analysisShortestSide: settings.analysisScale.targetShortestSide ?? 0,
            decodeMemoryBudget: settings.decodeMemoryBudget,
            decodeCostCaps: settings.decodeCostCaps,
            exposure: settings.exposure
        )
        self.addressSpaceSlack = addressSpaceSlack
        self.allowsTestRequests = allowsTestRequests
    }

    /// The settings as the in-process validator takes them (decoding in this process).
    package var validationSettings: ValidationSettings {
        var result = ValidationSettings()
        result.roomMinimumShortSide = settings.roomMinimumShortSide
        result.inspirationMinimumShortSide = settings.inspirationMinimumShortSide
        result.roomBlurThreshold = settings.roomBlurThreshold
        result.inspirationBlurThreshold = settings.inspirationBlurThreshold
        result.pixelLimit = settings.pixelLimit
        result.analysisScale = settings.analysisShortestSide > 0 ? .shortestSide(settings.analysisShortestSide) : .native
        result.decodeMemoryBudget = settings.decodeMemoryBudget
        result.decodeCostCaps = settings.decodeCostCaps
        result.exposure = settings.exposure
        result.decodeIsolation = .none
        return result
    }
}
