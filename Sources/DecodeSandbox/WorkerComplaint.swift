/// A request a worker refused (malformed, or a test request it does not take).
struct WorkerComplaint: Codable, Sendable {
    /// What was wrong.
    var message: String
}
