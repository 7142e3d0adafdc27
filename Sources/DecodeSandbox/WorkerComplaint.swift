/// A request a worker refused (malformed, or a test request it does not take).
package struct WorkerComplaint: Codable, Sendable {
    /// What was wrong.
    package var message: String

    /// A complaint saying `message`.
    package init(message: String) {
        self.message = message
    }
}
