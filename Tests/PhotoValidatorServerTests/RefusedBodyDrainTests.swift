import Foundation
import Glibc
import TestFixtures
import Testing
@testable import PhotoValidatorServer

@Suite("The drain of a body answered early (pure, and on a live socket)", .timeLimit(.minutes(5)))
struct RefusedBodyDrainTests {
    @Test("after an answer before the body ended, the rest is drained up to the byte limit, then reads are held until the clock closes")
    func earlyAnswerIsBounded() {
        var drain = RefusedBodyDrain(byteLimit: 1000)
        drain.requestHead()
        #expect(drain.requestBody(300) == .none)
        #expect(drain.answerEnd() == .armTimer, "the body has not ended: the answer is early")
        #expect(drain.requestBody(600) == .none && !drain.holdsReads)
        #expect(drain.requestBody(600) == .stopReading && drain.holdsReads, "1,200 drained bytes pass the limit of 1,000")
        #expect(drain.requestBody(10) == .none && drain.holdsReads)
        #expect(drain.timerFired() == .close)
        #expect(drain.timerFired() == .none && !drain.holdsReads)
    }

    @Test("a body that ends within the limits after an early answer leaves the connection open; an answer after the body changes nothing")
    func endsCleanly() {
        var drain = RefusedBodyDrain(byteLimit: 1000)
        drain.requestHead()
        #expect(drain.answerEnd() == .armTimer)
        #expect(drain.requestBody(100) == .none)
        #expect(drain.requestEnd() == .disarmTimer)
        #expect(drain.timerFired() == .none, "the clock of an ended drain closes nothing")
        // An ordinary request: the body ends, then the answer.
        drain.requestHead()
        #expect(drain.requestBody(5000) == .none, "a body before its answer is the handler's, not drained")
        #expect(drain.requestEnd() == .none)
        #expect(drain.answerEnd() == .none)
        // Bytes already on their way when reads stopped, and then the end: reads resume.
        drain.requestHead()
        #expect(drain.answerEnd() == .armTimer)
        #expect(drain.requestBody(2000) == .stopReading)
        #expect(drain.requestEnd() == .disarmTimer && !drain.holdsReads)
    }

    @Test("a client that sends on after a 413 gets the answer, and the daemon stops reading near the body limit and closes")
    func liveSocketStopsReading() async throws {
        try await withLiveApp({ $0.bodyLimit = 1 << 20; $0.requestTimeout = .seconds(3) }) { client, _ in
            let port = try #require(client.port)
            let declared = 256 << 20
            let outcome = try await offloaded { () throws -> (sent: Int, answer: String) in
                let socket = try RawHTTP.blockingConnect(port: port, timeout: 30)
                defer { close(socket) }
                // No Connection: close from the client: it means to go on.
                try RawHTTP.blockingWrite(socket, Array("POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: \(declared)\r\n\r\n".utf8))
                // The answer comes before the body is read; it is read first, as a client must
                // before the daemon closes with the client's bytes unread (a reset drops what is unread).
                let answer = readAnswer(socket)
                var sendTimeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
                let chunk = [UInt8](repeating: 0x55, count: 1 << 16)
                var sent = 0
                // Sends until the daemon stops taking bytes (the send times out) or closes (EPIPE, reset).
                while sent < declared {
                    let count = chunk.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard count > 0 else { break }
                    sent += count
                }
                return (sent, answer)
            }
            #expect(outcome.answer.hasPrefix("HTTP/1.1 413"), "\(outcome.answer.prefix(300))")
            // The limit (1 MiB) and the sockets' buffers on both sides; the whole 256 MiB was read before.
            #expect(outcome.sent < 64 << 20, "the daemon read \(outcome.sent >> 20) MiB of a body it had refused")
        }
    }
}

/// One answer read from `socket`: its head and a body of its Content-Length (within 30 s).
private func readAnswer(_ socket: Int32) -> String {
    var receiveTimeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let text = String(decoding: received, as: UTF8.self)
        if let end = text.range(of: "\r\n\r\n") {
            let length = text[..<end.lowerBound].split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
        }
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return text }
        received += chunk[0..<count]
    }
}
