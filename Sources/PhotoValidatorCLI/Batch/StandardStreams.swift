import Foundation

/// Line-oriented writes to standard output and standard error.
enum StandardStreams {
    /// Writes `line` and a newline to standard output.
    static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `line` and a newline to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
