import BlurMetrics
import LumaAnalysis
import PhotoStructure
import PhotoValidation

/// What a decode worker is told once, before its first photo: the checks' settings and its limits.
package struct WorkerSetup: Codable, Sendable {
    /// The checks' settings.
    package var settings: ValidationSettings
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
        self.settings = settings
        self.addressSpaceSlack = addressSpaceSlack
        self.allowsTestRequests = allowsTestRequests
    }

    /// The settings as the in-process validator takes them (decoding in this process).
    package var validationSettings: ValidationSettings {
        var result = settings
        result.decodeIsolation = .none
        return result
    }
}
