import Synchronization

/// What one request did, filled in by handlers and read once the response is ready, for the
/// single log line and the metrics of the request.
package final class RequestRecord: Sendable {
    /// The validation outcome of a request that validated a photo.
    package struct Validation: Sendable {
        /// The photo type checked.
        package var photoType: String
        /// True when the photo passed.
        package var passed: Bool
        /// The failure codes.
        package var failures: [String]
        /// Per-stage timings, in milliseconds.
        package var timingsMs: [String: Double]
        /// The content check's verdict and time, such as `pass 812ms`, when it ran.
        package var content: String?
    }

    private let state = Mutex<(requestID: String, validation: Validation?, errorCause: String?)>(("", nil, nil))

    /// An empty record.
    package init() {}

    /// The request id.
    package var requestID: String {
        get { state.withLock { $0.requestID } }
        set { state.withLock { $0.requestID = newValue } }
    }

    /// The validation outcome, when the request validated a photo.
    package var validation: Validation? {
        get { state.withLock { $0.validation } }
        set { state.withLock { $0.validation = newValue } }
    }

    /// The cause of an error answer, for the operator's log line (never the user's upload note).
    package var errorCause: String? {
        get { state.withLock { $0.errorCause } }
        set { state.withLock { $0.errorCause = newValue } }
    }
}
