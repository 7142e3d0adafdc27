import PhotoValidation

/// The result of one content check, ready to merge into the answer.
package struct ContentCheckResult: Sendable, Equatable {
    /// The failure to add, or nil when the photo passes this check.
    package let failure: FailureCode?
    /// What goes into `details.content`.
    package let details: ContentCheckDetails
    /// Time the check took (queueing, calls, retries), in milliseconds.
    package let milliseconds: Double

    /// Creates a result.
    package init(failure: FailureCode?, details: ContentCheckDetails, milliseconds: Double) {
        self.failure = failure
        self.details = details
        self.milliseconds = milliseconds
    }

    /// The verdict for logs and metrics: `pass`, the failure code, or `error` with the outcome.
    package var logValue: String {
        if details.outcome == .classified { return failure?.rawValue ?? "pass" }
        return "error:\(details.error ?? "unknown"):\(details.outcome.rawValue)"
    }
}
