import Synchronization

/// One fault's time window in a soak run, in seconds since the run began; the times it really
/// began and ended and what happened are filled in as it runs.
package final class FaultWindow: Sendable {
    /// The fault: daemon-kill, temporal-kill, temporal-500, temporal-slow or disk-full.
    package let name: String
    /// What it does.
    package let what: String
    private let state: Mutex<(start: Double, end: Double, actualStart: Double?, actualEnd: Double?, notes: [String])>

    /// A window from `start` to `end`.
    package init(_ name: String, start: Double, end: Double, what: String) {
        self.name = name
        self.what = what
        state = Mutex((start, end, nil, nil, []))
    }

    /// The planned start (or the actual one once it began).
    package var start: Double { state.withLock { $0.actualStart ?? $0.start } }
    /// The planned end (or the actual one once it ended).
    package var end: Double { state.withLock { $0.actualEnd ?? $0.end } }
    /// The planned start only.
    var plannedStart: Double { state.withLock { $0.start } }
    /// The planned end only.
    var plannedEnd: Double { state.withLock { $0.end } }
    /// Notes on what happened.
    package var notes: [String] { state.withLock { $0.notes } }

    /// Moves the planned times by `offset` seconds.
    func shift(by offset: Double) { state.withLock { $0.start += offset; $0.end += offset } }
    /// Records the actual start.
    func began(at t: Double) { state.withLock { $0.actualStart = t } }
    /// Records the actual end.
    func ended(at t: Double) { state.withLock { $0.actualEnd = t } }
    /// Adds a note.
    func note(_ text: String) { state.withLock { $0.notes.append(text) } }

    /// True when `t` falls in the window (half a second early, `grace` late).
    package func contains(_ t: Double, grace: Double = 0) -> Bool { start - 0.5 <= t && t <= end + grace }

    /// The windows of a run of `duration` seconds, as fractions of it, so a longer run keeps the same shape.
    static func schedule(duration d: Double) -> [FaultWindow] {
        [
            FaultWindow("daemon-kill", start: 0.12 * d, end: 0.12 * d, what: "SIGKILL the daemon under load, restart it at once (same outbox)"),
            FaultWindow("temporal-kill", start: 0.25 * d, end: 0.30 * d, what: "SIGKILL the Temporal dev server; restart it at the end (same database)"),
            FaultWindow("temporal-500", start: 0.35 * d, end: 0.43 * d, what: "proxy answers every signal 500"),
            FaultWindow("temporal-slow", start: 0.48 * d, end: 0.56 * d, what: "proxy delays every signal (a quarter past the daemon's 10 s timeout)"),
            FaultWindow("disk-full", start: 0.62 * d, end: 0.70 * d, what: "a file fills the outbox's tmpfs; deleted at the end"),
        ]
    }
}
