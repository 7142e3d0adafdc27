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

    private let state = Mutex<(requestID: String, validation: Validation?, note: String?)>(("", nil, nil))

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

    /// A short operator note, such as the cause of an internal error.
    public var note: String? {
        get { state.withLock { $0.note } }
        set { state.withLock { $0.note = newValue } }
    }
}
