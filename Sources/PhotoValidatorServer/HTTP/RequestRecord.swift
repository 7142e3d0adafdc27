import Synchronization

/// What one request did, filled in by handlers and read once the response is ready, for the
/// single log line and the metrics of the request.
public final class RequestRecord: Sendable {
    /// The validation outcome of a request that validated a photo.
    public struct Validation: Sendable {
        /// The photo type checked.
        public var photoType: String
        /// True when the photo passed.
        public var passed: Bool
        /// The failure codes.
        public var failures: [String]
        /// Per-stage timings, in milliseconds.
        public var timingsMs: [String: Double]
        /// The content check's verdict and time, such as `pass 812ms`, when it ran.
        public var content: String?
    }

    private let state = Mutex<(requestID: String, validation: Validation?, errorCause: String?)>(("", nil, nil))

    /// An empty record.
    public init() {}

    /// The request id.
    public var requestID: String {
        get { state.withLock { $0.requestID } }
        set { state.withLock { $0.requestID = newValue } }
    }

    /// The validation outcome, when the request validated a photo.
    public var validation: Validation? {
        get { state.withLock { $0.validation } }
        set { state.withLock { $0.validation = newValue } }
    }

    /// The cause of an error answer, for the operator's log line (never the user's upload note).
    public var errorCause: String? {
        get { state.withLock { $0.errorCause } }
        set { state.withLock { $0.errorCause = newValue } }
    }
}
