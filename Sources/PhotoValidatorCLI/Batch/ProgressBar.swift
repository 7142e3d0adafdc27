import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
struct ProgressBar {
    private let total: Int
    private let enabled: Bool
    private var lastDraw = ContinuousClock.now
    private var drawn = false

    /// A bar for `total` items; silent unless `enabled` and standard error is a terminal.
    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && isatty(FileHandle.standardError.fileDescriptor) != 0
    }

    /// Redraws the bar for `done` items, at most ten times a second.
    mutating func update(done: Int) {
        guard enabled, total > 0 else { return }
        let now = ContinuousClock.now
        guard done == total || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) photos".utf8))
        drawn = true
    }

    /// Clears the bar so the summary starts on a clean line.
    mutating func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }
}
