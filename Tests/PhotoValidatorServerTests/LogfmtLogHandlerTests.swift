import Logging
import Synchronization
import Testing
@testable import PhotoValidatorServer

@Suite("logfmt log lines")
struct LogfmtLogHandlerTests {
    @Test("a request line's timings, failures and quoted message are logfmt, not Swift collection syntax")
    func requestLine() {
        let sink = LineSink()
        let handler = LogfmtLogHandler(label: "photo-validator") { line in sink.lines.withLock { $0.append(line) } }
        let logger = Logger(label: "photo-validator") { _ in handler }
        logger.info("listening on 127.0.0.1:8080", metadata: [
            "timings_ms": .dictionary(["decode": "107.3", "blur": "4.0"]),
            "failures": .array([.string("blurry"), .string("low_resolution")]),
            "error": .string("say \"no\""),
            "level": .string("shadowed"),
        ])
        let line = sink.lines.withLock { $0.first } ?? ""
        #expect(line.contains(" level=info label=photo-validator msg=\"listening on 127.0.0.1:8080\" "), "\(line)")
        #expect(line.contains(" timings_ms.blur=4.0 timings_ms.decode=107.3"), "\(line)")
        #expect(line.contains(" failures=blurry,low_resolution "), "\(line)")
        #expect(line.contains(#" error="say \"no\"""#), "\(line)")
        #expect(line.contains(" meta_level=shadowed"), "\(line)")
        #expect(!line.contains("["), "\(line)")
    }
}

/// The lines a handler wrote.
private final class LineSink: Sendable {
    let lines = Mutex<[String]>([])
}
