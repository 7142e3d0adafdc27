import PhotoFormat
import PhotoValidation

/// How a photo's exchange with a worker ended without an answer: the worker ended while it held
/// the photo, or no worker ran the photo at all.
package struct WorkerEnd: Error, Sendable, Equatable {
    /// The kinds of end: the photo's own (each a restart reason), or the service's.
    package enum Reason: String, Sendable, CaseIterable {
        /// It died of a signal or exited (`decoder_crashed`).
        case crashed = "decoder_crashed"
        /// It was killed at its deadline or ran out of CPU time (`decode_timeout`).
        case timedOut = "decode_timeout"
        /// It reached its address-space limit (`memory_limit_exceeded`).
        case memory = "memory_limit_exceeded"
        /// No worker ran the photo: none could be started, none got ready within the photo's time,
        /// or the one given it ended before it read it (`decoder_unavailable`). The service's
        /// failure, not the photo's, and no worker's end with a photo: not a restart reason.
        case unavailable = "decoder_unavailable"

        /// The ends of a worker that held a photo, each counted as a restart.
        package static let restartReasons: [Reason] = [.crashed, .timedOut, .memory]
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
        case .unavailable:
            DecodeFailure(.decoderUnavailable, "no decode worker could take this photo (\(detail)); the photo was not checked and is not at fault; try again in a moment (operators: /readyz and the log say why workers cannot start)")
        case .crashed:
            DecodeFailure(.decoderCrashed, "the decoder crashed on this file in its sandboxed worker (\(detail)); the file is treated as unreadable; re-export it as JPEG or PNG and upload it again")
        case .timedOut:
            DecodeFailure(.decodeTimeout, "decoding did not finish within \(limit.seconds) s and its worker was killed (\(detail)); the file is treated as unreadable; re-export it as JPEG or PNG and upload it again")
        case .memory:
            DecodeFailure(.memoryLimitExceeded, "decoding this file needed more memory than its worker may use (decode_memory_mib plus a fixed overhead; \(detail)); the file is treated as unreadable; re-export it smaller, or raise decode_memory_mib")
        }
    }
}
