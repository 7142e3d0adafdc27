import PhotoFormat
import PhotoValidation

/// How a worker ended while it held a photo.
package struct WorkerEnd: Error, Sendable, Equatable {
    /// The kinds of end, each a restart reason.
    package enum Reason: String, Sendable, CaseIterable {
        /// It died of a signal or exited (`decoder_crashed`).
        case crashed = "decoder_crashed"
        /// It was killed at its deadline or ran out of CPU time (`decode_timeout`).
        case timedOut = "decode_timeout"
        /// It reached its address-space limit (`memory_limit_exceeded`).
        case memory = "memory_limit_exceeded"
    }

    /// The kind of end.
    package let reason: Reason
    /// What happened, for the operator.
    package let detail: String

    /// An end of kind `reason`, with what happened.
    package init(reason: Reason, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The operator-facing message of the photo's failure.
    package func failureMessage(limit: Duration) -> String { failure(limit: limit).message }

    /// The photo's failure: what happened and what to do.
    func failure(limit: Duration) -> DecodeFailure {
        switch reason {
        case .crashed:
            DecodeFailure(.decoderCrashed, "the decoder crashed on this file in its sandboxed worker (\(detail)); the file is treated as unreadable; re-export it as JPEG or PNG and upload it again")
        case .timedOut:
            DecodeFailure(.decodeTimeout, "decoding did not finish within \(limit.seconds) s and its worker was killed (\(detail)); the file is treated as unreadable; re-export it as JPEG or PNG and upload it again")
        case .memory:
            DecodeFailure(.memoryLimitExceeded, "decoding this file needed more memory than its worker may use (decode_memory_mib plus a fixed overhead; \(detail)); the file is treated as unreadable; re-export it smaller, or raise decode_memory_mib")
        }
    }
}
