import Synchronization

/// What the soak's clients saw: every attempt, every promised signal, and counters of notes.
final class SoakStatistics: Sendable {
    /// One attempt of a job.
    struct Attempt: Sendable {
        /// Seconds since the run began, when it ended.
        let t: Double
        let kind: String
        /// The status, or nil when no answer came.
        let status: Int?
        /// The answer's `error` code.
        let code: String?
        /// Seconds it took.
        let latency: Double
        let attempt: Int
        /// Why no answer came.
        let error: String?
        let label: String
        /// The daemon generation it went to.
        let generation: Int
        /// The answer's `passed`.
        let passed: Bool?
    }

    private let state = Mutex<(attempts: [Attempt], promised: [String: (project: String, t: Double)], counters: [String: Int])>(([], [:], [:]))

    /// Records an attempt.
    func add(_ attempt: Attempt) { state.withLock { $0.attempts.append(attempt) } }
    /// Records a promised signal.
    func promise(_ photoID: String, project: String, at t: Double) { state.withLock { $0.promised[photoID] = (project, t) } }
    /// Counts a note.
    func bump(_ key: String) {
        state.withLock { $0.counters[key, default: 0] += 1 }
    }

    /// Every attempt so far.
    var attempts: [Attempt] { state.withLock { $0.attempts } }
    /// Every promised signal so far, by photo id.
    var promised: [String: (project: String, t: Double)] { state.withLock { $0.promised } }
    /// The counters.
    var counters: [String: Int] { state.withLock { $0.counters } }
}
