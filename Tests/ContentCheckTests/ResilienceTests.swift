import AsyncHTTPClient
import ContentCheck
import Foundation
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing

@Suite("Retries, deadline, breaker, concurrency cap, cache and policies", .serialized, .timeLimit(.minutes(10)))
struct ResilienceTests {
    @Test("429, 500, 503 and 529 are retried with backoff and then succeed", arguments: [
        (ProviderStandIn.Dialect.anthropic, 429), (.anthropic, 500), (.anthropic, 503), (.anthropic, 529), (.openai, 429), (.openai, 502),
    ])
    func retried(dialect: ProviderStandIn.Dialect, status: Int) async throws {
        try await withStandIn(dialect, script: { _, index in index < 2 ? .error(status: status) : labels("interior_room") }) { classifier, standIn, events in
            let result = await check(classifier)
            #expect(result.details.outcome == .classified && result.failure == nil)
            #expect(result.details.attempts == 3)
            #expect(standIn.received.count == 3)
            #expect(events.retries == 2)
        }
    }

    @Test("400, 401, 403 and 413 are never retried", arguments: [(400, "bad_request"), (403, "forbidden"), (413, "payload_too_large"), (404, "unexpected_status")])
    func notRetried(status: Int, errorClass: String) async throws {
        try await withStandIn(.anthropic, script: { _, _ in .error(status: status) }) { classifier, standIn, events in
            let result = await check(classifier)
            #expect(result.details.error == errorClass)
            #expect(result.details.attempts == 1 && standIn.received.count == 1 && events.retries == 0)
            #expect(result.details.errorDetail?.contains("stand-in error \(status)") == true, "the provider's message is kept")
        }
    }

    @Test("retries stop at max_attempts")
    func attemptsCapped() async throws {
        try await withStandIn(.anthropic, configure: { $0.maximumAttempts = 3 }, script: { _, _ in .error(status: 529) }) { classifier, standIn, _ in
            let result = await check(classifier)
            #expect(result.details.error == "overloaded" && result.details.attempts == 3 && standIn.received.count == 3, "\(result.details)")
        }
    }

    @Test("retry-after is honoured")
    func retryAfterHonoured() async throws {
        try await withStandIn(.anthropic, script: { _, index in index == 0 ? .error(status: 429, retryAfter: "1") : labels("interior_room") }) { classifier, _, _ in
            let start = ContinuousClock.now
            let result = await check(classifier)
            #expect(result.details.verdict == "pass")
            #expect(ContinuousClock.now - start >= .seconds(1))
        }
    }

    @Test("a retry-after beyond the deadline gives up at once instead of waiting")
    func retryAfterBeyondDeadline() async throws {
        try await withStandIn(.anthropic, script: { _, _ in .error(status: 429, retryAfter: "30") }) { classifier, standIn, _ in
            let start = ContinuousClock.now
            let result = await check(classifier)
            #expect(result.details.error == "rate_limited" && standIn.received.count == 1)
            #expect(ContinuousClock.now - start < .seconds(5), "it did not wait 30 s, nor until the 10 s deadline")
        }
    }

    @Test("connection errors are retried, then the policy applies")
    func connectionRefused() async throws {
        var configuration = fastConfiguration(.anthropic, baseURL: "http://127.0.0.1:9")
        configuration.maximumAttempts = 3
        let http = ContentClientService.makeClient()
        let events = EventLog()
        let classifier = try #require(ContentClassifier.make(configuration: configuration, previews: PreviewBounds(), client: http) { events.record($0) })
        let result = await check(classifier)
        try await http.shutdown()
        #expect(result.details.error == "connection")
        #expect(result.details.attempts == 3 && events.retries == 2)
        #expect(result.details.outcome == .passedOnError && result.failure == nil)
    }

    @Test("the deadline holds when the provider hangs or trickles its answer", arguments: [
        ProviderStandIn.Reply.hang, .trickle(interval: .milliseconds(100)),
    ])
    func deadline(reply: ProviderStandIn.Reply) async throws {
        try await withStandIn(.openai, configure: { $0.timeout = .seconds(1) }, script: { _, _ in reply }) { classifier, _, _ in
            let start = ContinuousClock.now
            let result = await check(classifier)
            let elapsed = ContinuousClock.now - start
            #expect(result.details.error == "timeout")
            // The trickle alone would take about a minute; the slack is for a loaded machine.
            #expect(elapsed >= .milliseconds(950) && elapsed < .seconds(8), "\(elapsed)")
        }
    }

    @Test("the deadline bounds retries too")
    func deadlineBoundsRetries() async throws {
        try await withStandIn(.anthropic, configure: {
            $0.timeout = .seconds(1)
            $0.maximumAttempts = 10
            $0.retryInitialDelay = .milliseconds(300)
            $0.retryMaximumDelay = .milliseconds(300)
        }, script: { _, _ in .error(status: 500) }) { classifier, standIn, _ in
            let start = ContinuousClock.now
            let result = await check(classifier)
            #expect(ContinuousClock.now - start < .seconds(6))
            // Either the next wait would pass the deadline (server_error) or the deadline cut a call (timeout).
            #expect(["server_error", "timeout"].contains(result.details.error ?? ""))
            #expect(standIn.received.count <= 7, "waits of 150 to 300 ms (jitter) fit at most 6 times in 1 s, well under max_attempts 10")
        }
    }

    @Test("the breaker opens after repeated failures, refuses at once, then closes after a good probe")
    func breaker() async throws {
        try await withStandIn(.anthropic, configure: {
            $0.maximumAttempts = 1
            $0.breakerFailureThreshold = 2
            // Long enough that a loaded machine still checks while it is open (300 ms was not).
            $0.breakerOpenDuration = .seconds(2)
        }, script: { _, index in index < 2 ? .error(status: 500) : labels("interior_room") }) { classifier, standIn, events in
            #expect(await check(classifier).details.error == "server_error")
            #expect(await check(classifier).details.error == "server_error")
            #expect(classifier.breaker.state == .open)
            let refused = await check(classifier)
            #expect(refused.details.error == "circuit_open" && refused.details.attempts == 0)
            #expect(standIn.received.count == 2, "an open breaker does not call the provider")
            try await Task.sleep(for: .milliseconds(2_100))
            let probe = await check(classifier)
            #expect(probe.details.verdict == "pass")
            #expect(classifier.breaker.state == .closed)
            let states = events.all.compactMap { if case .breaker(let state) = $0 { state } else { nil } }
            #expect(states == [.open, .halfOpen, .closed])
        }
    }

    @Test("a failed probe opens the breaker again")
    func failedProbe() async throws {
        try await withStandIn(.anthropic, configure: {
            $0.maximumAttempts = 1
            $0.breakerFailureThreshold = 1
            // Long enough that a loaded machine still checks while it is open again.
            $0.breakerOpenDuration = .seconds(2)
        }, script: { _, _ in .error(status: 503) }) { classifier, _, _ in
            _ = await check(classifier)
            #expect(classifier.breaker.state == .open)
            try await Task.sleep(for: .milliseconds(2_100))
            _ = await check(classifier)
            #expect(classifier.breaker.state == .open)
            #expect(await check(classifier).details.error == "circuit_open")
        }
    }

    @Test("fail-open passes on error and says so; fail-closed gives content_check_unavailable", arguments: [ContentCheckPolicy.failOpen, .failClosed])
    func policies(policy: ContentCheckPolicy) async throws {
        try await withStandIn(.anthropic, configure: { $0.policy = policy; $0.maximumAttempts = 1 }, script: { _, _ in .error(status: 500) }) { classifier, _, _ in
            let result = await check(classifier)
            #expect(result.details.policy == policy.rawValue)
            if policy == .failOpen {
                #expect(result.failure == nil && result.details.outcome == .passedOnError)
            } else {
                #expect(result.failure == .contentCheckUnavailable && result.details.outcome == .failedClosed)
            }
            #expect(result.logValue.hasPrefix("error:server_error"))
        }
    }

    @Test("the cache answers a repeated photo without a call, per photo type and model")
    func cache() async throws {
        try await withStandIn(.anthropic, script: { _, _ in labels("interior_room") }) { classifier, standIn, _ in
            let first = await check(classifier, digest: "same")
            let second = await check(classifier, digest: "same")
            #expect(!first.details.cached && second.details.cached)
            #expect(second.details.verdict == "pass" && second.details.attempts == 0 && second.details.inputTokens == nil)
            #expect(standIn.received.count == 1)
            _ = await check(classifier, as: .inspiration, digest: "same")
            #expect(standIn.received.count == 2, "another photo type is another question")
        }
    }

    @Test("the cache is bounded, evicting the oldest")
    func cacheBounded() {
        let cache = ContentCache(capacity: 3)
        let answer = ProviderAnswer(labels: ContentLabels(scene: .other, mainSubject: .other, designRelated: false, reason: ""), inputTokens: 1, outputTokens: 1)
        for index in 0..<10 { cache.store(answer, for: "k\(index)") }
        #expect(cache.count == 3)
        #expect(cache.answer(for: "k9") != nil && cache.answer(for: "k0") == nil)
        let key = ContentCache.key(digest: "abc", photoType: .room, model: "m")
        #expect(key.contains("abc") && key.contains("room") && key.contains("m") && key.contains(ContentPrompt.version))
    }

    @Test("no more than max_concurrent calls are in flight; the excess waits, then the policy applies")
    func concurrencyCap() async throws {
        try await withStandIn(.anthropic, configure: { $0.maximumConcurrentCalls = 3; $0.queueWait = .seconds(9) },
                              script: { _, _ in .delayed(.milliseconds(100), then: .init(labels("interior_room"))) }) { classifier, standIn, _ in
            let results = await withTaskGroup(of: ContentCheckResult.self) { group in
                for _ in 0..<32 { group.addTask { await check(classifier) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.details.verdict == "pass" })
            #expect(standIn.peakConcurrency <= 3 && standIn.peakConcurrency >= 2)
        }
        try await withStandIn(.anthropic, configure: { $0.maximumConcurrentCalls = 2; $0.queueWait = .milliseconds(100); $0.policy = .failClosed },
                              script: { _, _ in .delayed(.milliseconds(400), then: .init(labels("interior_room"))) }) { classifier, standIn, _ in
            let results = await withTaskGroup(of: ContentCheckResult.self) { group in
                for _ in 0..<8 { group.addTask { await check(classifier) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.details.verdict == "pass" }.count == 2)
            let saturated = results.filter { $0.details.error == "saturated" }
            #expect(saturated.count == 6 && saturated.allSatisfy { $0.failure == .contentCheckUnavailable })
            #expect(standIn.peakConcurrency == 2)
        }
    }

    @Test("a preview that could not be made is an error for the policy, not a pass")
    func previewFailure() async throws {
        try await withStandIn(.anthropic, configure: { $0.policy = .failClosed }, script: { _, _ in labels("interior_room") }) { classifier, standIn, _ in
            let result = await classifier.check(preview: .failure(DecodeFailure(.corruptPixels, "bad")), digest: "", as: .room)
            #expect(result.details.error == "preview_failed" && result.failure == .contentCheckUnavailable)
            #expect(standIn.received.isEmpty)
        }
    }
}
