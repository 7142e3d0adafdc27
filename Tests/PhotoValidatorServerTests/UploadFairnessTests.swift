import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import PhotoValidatorServer
import TestFixtures
import Testing

/// Upload memory shared fairly, slow bodies refused, callers grouped by network (issue 63,
/// findings 2 to 4), on a real loopback server.
@Suite("Upload memory fairness and slow bodies", .timeLimit(.minutes(10)))
struct UploadFairnessTests {
    /// The value of the metric line that starts with `name` and a space, or nil.
    private func metric(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    private func metricsText(_ client: any TestClientProtocol) async throws -> String {
        String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
    }

    @Test("a trickled body holding upload memory is answered 408 body_too_slow after the grace, and its memory is back with the answer")
    func trickledBodyRefused() async throws {
        // A long request timeout: only the rate rule can end this body.
        try await withLiveApp({ $0.bodyRateGrace = .milliseconds(300); $0.requestTimeout = .seconds(120); $0.minimumBodyRate = 64 << 10 }) { client, _ in
            let port = try #require(client.port)
            let answer = try await RawHTTP.firstResponse(
                port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 20000000\r\n\r\nslow", timeout: 60
            )
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(300))")
            #expect(answer.contains("\"error\":\"body_too_slow\""))
            #expect(answer.contains("\"retryable\":true"))
            #expect(answer.contains("of 20000000 arrived"))
            let metrics = try await metricsText(client)
            #expect(metric("photo_validator_upload_memory_reserved_bytes", in: metrics) == 0)
            #expect(metrics.contains("photo_validator_rejected_total{reason=\"slow_body\"} 1"))
        }
    }

    @Test("a chunked body under the minimum rate is answered 408 body_too_slow")
    func chunkedBelowMinimumRate() async throws {
        try await withLiveApp({ $0.bodyRateGrace = .milliseconds(300); $0.requestTimeout = .seconds(120); $0.minimumBodyRate = 64 << 10 }) { client, _ in
            let port = try #require(client.port)
            let answer = try await RawHTTP.firstResponse(
                port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nslow\r\n", timeout: 60
            )
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(300))")
            #expect(answer.contains("under the minimum of 64 KiB/s"))
        }
    }

    @Test("one caller's bodies filling its part of upload memory: another caller's upload is granted at once and answered 200, not 503")
    func otherCallerServed() async throws {
        try await withLiveApp({
            $0.uploadMemoryBytes = 4 << 20; $0.admissionWait = .seconds(1); $0.clientHeader = "X-User-Id"
            // The flood's bodies stay open for the whole test: neither the rate rule nor the timeout cuts them.
            $0.bodyRateGrace = .seconds(120); $0.requestTimeout = .seconds(120)
        }) { client, _ in
            let port = try #require(client.port)
            var holders: [Int32] = []
            defer { holders.forEach { close($0) } }
            for _ in 0..<3 {
                let holder = try await RawHTTP.connect(port: port)
                holders.append(holder)
                try await RawHTTP.write(holder, Array("POST /v1/validate HTTP/1.1\r\nHost: x\r\nX-User-Id: flood\r\nContent-Length: 1000000\r\n\r\nabc".utf8))
            }
            let reserved = try await poll { metric("photo_validator_upload_memory_reserved_bytes", in: try await metricsText(client)) == 3_000_000 }
            #expect(reserved)
            // A fourth body of the flood would fit in the 4 MiB, but only by taking the quarter kept
            // for others: it waits, unread, and is refused when the admission wait ends.
            let fourth = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nX-User-Id: flood\r\nContent-Length: 1000000\r\n\r\n",
                                                         timeout: 60)
            #expect(fourth.hasPrefix("HTTP/1.1 503"), "\(fourth.prefix(300))")
            // The good caller's photo goes in from that quarter at once.
            let good = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, headers: [HTTPField.Name("X-User-Id")!: "good"],
                                                body: try testdataBytes("photos/cups.jpg"))
            #expect(good.status == .ok)
        }
    }

    @Test("callers known only by address are grouped by network: an IPv4 /24, an IPv6 /64")
    func addressPrefixes() {
        #expect(AddressPrefix.of("192.0.2.77") == "192.0.2.0/24")
        #expect(AddressPrefix.of("192.0.2.1") == AddressPrefix.of("192.0.2.254"))
        #expect(AddressPrefix.of("192.0.3.1") != AddressPrefix.of("192.0.2.1"))
        #expect(AddressPrefix.of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(AddressPrefix.of("2001:db8:1:2:ffff::1") == AddressPrefix.of("2001:db8:1:2::9"))
        #expect(AddressPrefix.of("::ffff:192.0.2.9") == "192.0.2.0/24")
        #expect(AddressPrefix.of("/run/photo-validator.sock") == "/run/photo-validator.sock")
    }

    @Test("the rate rule: a declared body must finish within the timeout at its rate, one of unknown length keep the minimum")
    func rateRule() {
        let timeout = Duration.seconds(30)
        // 20 MB at 20 KiB/s would take 17 minutes.
        #expect(PhotoValidationService.tooSlow(received: 61_440, declared: 20_000_000, after: .seconds(3), minimumRate: 64 << 10, timeout: timeout))
        // 600 KB at 33 KB/s finishes in about 18 s: a small photo on a slow link is accepted.
        #expect(!PhotoValidationService.tooSlow(received: 100_000, declared: 600_000, after: .seconds(3), minimumRate: 64 << 10, timeout: timeout))
        // Nothing arrived at all.
        #expect(PhotoValidationService.tooSlow(received: 0, declared: 600_000, after: .seconds(3), minimumRate: 64 << 10, timeout: timeout))
        // Unknown length: the minimum rate.
        #expect(PhotoValidationService.tooSlow(received: 100_000, declared: nil, after: .seconds(3), minimumRate: 64 << 10, timeout: timeout))
        #expect(!PhotoValidationService.tooSlow(received: 1_000_000, declared: nil, after: .seconds(3), minimumRate: 64 << 10, timeout: timeout))
    }
}
