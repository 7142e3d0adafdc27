import Hummingbird

/// The body of `/healthz` and `/readyz`: a status word and, when not fine, the reasons.
struct StatusAnswer: ResponseEncodable, Sendable, Equatable {
    /// `ok`, `ready`, `unhealthy` or `not_ready`.
    let status: String
    /// Why the status is not fine, for the operator; absent when it is.
    var reasons: String?
    /// `/readyz`: decode workers replaced since start, by reason; absent when decoding is in-process.
    var decodeWorkerRestarts: [String: Int]?

    enum CodingKeys: String, CodingKey {
        case status, reasons
        case decodeWorkerRestarts = "decode_worker_restarts"
    }
}
